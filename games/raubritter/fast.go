package raubritter

import "github.com/heraldgames/herald/adjudicator"

// maxFrame is the widest and tallest frame of any player count (newFrame).
const maxFrame = 2*10 - 2

// placeSteps holds the step of laying a tile of each kind on each square
// of the largest frame, made into an adjudicator.Move once for Legal
// rather than on every call: a search lists them by the thousand.
var placeSteps = func() (t *[Lake + 1][Town + 1][maxFrame][maxFrame]adjudicator.Move) {
	t = new([Lake + 1][Town + 1][maxFrame][maxFrame]adjudicator.Move)
	for tr := range t {
		for b := range t[tr] {
			for r := range t[tr][b] {
				for c := range t[tr][b][r] {
					t[tr][b][r][c] = Place{Kind: Kind{Terrain(tr), Building(b)}, Square: Square{r, c}}
				}
			}
		}
	}
	return t
}()

// placeStep returns Place{Kind: k, Square: q}, from placeSteps where it
// is.
func placeStep(k Kind, q Square) adjudicator.Move {
	if k.Terrain <= Lake && k.Building <= Town && q.Row >= 0 && q.Row < maxFrame && q.Col >= 0 && q.Col < maxFrame {
		return placeSteps[k.Terrain][k.Building][q.Row][q.Col]
	}
	return Place{Kind: k, Square: q}
}
