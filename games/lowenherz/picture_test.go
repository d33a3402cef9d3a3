package lowenherz_test

import (
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/lowenherz"
)

// TestPictures pins the pictures of 2- and 4-player games at the start and
// after submission 100, late enough for neutral zones, with the last
// move marked (issues 20, 28): go test -run TestPictures -update rewrites
// them.
func TestPictures(t *testing.T) {
	kit := &gametest.Kit{Game: lowenherz.Game}
	kit.Pictures(t, 100, 2, 4)
}

// BenchmarkPictureSVG and BenchmarkPicturePNG draw the picture of a game
// in the middle, as a mail or the page does: under 1 ms an SVG and 5 ms a
// PNG (issue 28).
func BenchmarkPictureSVG(b *testing.B) {
	(&gametest.Kit{Game: lowenherz.Game}).BenchPicture(b, 2, 100, "svg")
}

func BenchmarkPicturePNG(b *testing.B) {
	(&gametest.Kit{Game: lowenherz.Game}).BenchPicture(b, 2, 100, "png")
}

// TestPictureNeutral checks that the neutral castles and knights of a
// 2-player game, and their domains, are drawn in the one neutral colour,
// as a 3-player game's are none (issue 28, item 4: they took the colour of
// the seat after the last player), and that neutral zones are hatched.
func TestPictureNeutral(t *testing.T) {
	kit := &gametest.Kit{Game: lowenherz.Game}
	neutral, zones := 0, 0
	for seed := 0; seed < 8 && zones == 0; seed++ {
		kit.SelfPlay(t, 2, fmt.Sprint("neutral-", seed), nil, func(m *adjudicator.Match, _ *adjudicator.Submission) {
			b := m.State.(adjudicator.Picturer).Picture()
			for _, c := range b.Cells {
				for _, p := range c.Pieces {
					if isN := p.Letter == "n" || p.Letter == "N"; isN != (p.Owner == -1) {
						t.Fatalf("move %d: the piece %s is drawn as player %d's", m.MoveNumber(), p.Letter, p.Owner)
					} else if isN {
						neutral++
					}
				}
				if c.Owner >= len(b.Players) {
					t.Fatalf("move %d: a domain framed as player %d's", m.MoveNumber(), c.Owner)
				}
				if c.Zone {
					zones++
				}
			}
		})
	}
	if neutral == 0 || zones == 0 {
		t.Errorf("%d neutral pieces and %d zones drawn over a game: the test checked nothing", neutral, zones)
	}
}
