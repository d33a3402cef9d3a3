package heritiers

import (
	"fmt"
	"slices"

	"github.com/heraldgames/herald/adjudicator/picture"
)

// resourceFill draws a tile by the resource of its colour: wood, stone,
// grain.
var resourceFill = [...]string{"forest", "mountains", "field"}

// Picture draws the board as everyone sees it, from the same squares as
// Text: each tile by its resource, its building and owner (framed in the
// owner's colour), the roads that join tiles, the troops (the cavalry in
// capitals) and the treasures, the squares where a tile may go, and the
// players with their points. Hands are never drawn.
func (s *State) Picture() *picture.Board {
	sym := s.symbols()
	r0, r1, c0, c1 := s.window()
	free := map[int]bool{}
	if !s.over && !(s.solo && s.turn == 1) {
		for _, q := range s.freeBeside(s.turn) {
			free[q] = true
		}
	}
	b := &picture.Board{Cols: c1 - c0 + 1, Rows: r1 - r0 + 1,
		Legend: []string{"tiles by resource: wood, stone, grain; ... an open tile; $ a treasure", "troops in their owner's colour, the cavalry in capitals; roads in brown"}}
	for c := c0; c <= c1; c++ {
		b.ColNames = append(b.ColNames, string(rune('a'+c)))
	}
	for r := r0; r <= r1; r++ {
		b.RowNames = append(b.RowNames, fmt.Sprint(r+1))
	}
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			i := r*frameW + c
			cl := &s.cells[i]
			cell := picture.Cell{Owner: -1, Mark: free[i]}
			if cl.tile >= 0 {
				t := s.tile(cl.tile)
				cell.Fill = resourceFill[t.Colour]
				if cl.open {
					cell.Label = "..."
				} else {
					cell.Label = buildings[t.Building].code
					cell.Owner = int(cl.owner)
				}
				if cl.treasure >= 0 {
					cell.Label += " $"
				}
				for seat := range 2 {
					for k, tr := range s.troops[seat] {
						if int(tr.at) != i {
							continue
						}
						letter := string(sym[seat])
						if k == 0 && !(s.solo && seat == 1) {
							letter = string(sym[seat] - ('a' - 'A'))
						}
						cell.Pieces = append(cell.Pieces, picture.Piece{Owner: seat, Letter: letter})
					}
				}
				if _, ok := s.joined(i, 1); ok && c < c1 {
					b.Walls = append(b.Walls, picture.Wall{Row: r - r0, Col: c - c0, Road: true})
				}
				if _, ok := s.joined(i, 2); ok && r < r1 {
					b.Walls = append(b.Walls, picture.Wall{Row: r - r0, Col: c - c0, South: true, Road: true})
				}
			}
			b.Cells = append(b.Cells, cell)
		}
	}
	scores, to := s.Scores(), s.ToMove()
	for seat, name := range s.names {
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[seat]), Score: scores[seat], ToMove: slices.Contains(to, name)})
	}
	return b
}
