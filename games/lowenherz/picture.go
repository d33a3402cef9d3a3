package lowenherz

import (
	"fmt"
	"slices"

	"github.com/heraldgames/herald/adjudicator/picture"
)

// terrainFill draws meadow, forest, village, the king's city and the mines.
var terrainFill = [...]string{"plain", "forest", "village", "city", "gold", "silver", "copper", "stones"}

// Picture draws the board as everyone sees it, from the same squares as
// Text: terrain, borders, castles (capitals) and knights in their
// colours, each domain framed in its owner's colour, and the players with
// their points, ducats and knights. Hands are never drawn.
func (s *State) Picture() *picture.Board {
	sym := s.symbols()
	b := &picture.Board{Cols: Size, Rows: Size,
		Legend: []string{"meadow, forest, village, the king's city; mines: gold, silver, copper, precious stones",
			"castle: capital letter; knight: small letter; a domain is framed in its owner's colour"}}
	for c := range Size {
		b.ColNames = append(b.ColNames, string(rune('a'+c)))
	}
	for r := range Size {
		b.RowNames = append(b.RowNames, fmt.Sprint(r+1))
	}
	for r := range Size {
		for c := range Size {
			q := sq(r, c)
			cell := picture.Cell{Fill: terrainFill[s.terrain[q]], Owner: -1}
			if reg := s.regionOf(q); reg.domain() {
				cell.Owner = reg.owner
			}
			if p := s.piece[q]; p >= 0 {
				letter := string(sym[p])
				if s.castle[q] {
					letter = string(sym[p] - 'a' + 'A')
				}
				cell.Pieces = append(cell.Pieces, picture.Piece{Owner: int(p), Letter: letter})
			}
			b.Cells = append(b.Cells, cell)
			if c < Size-1 && s.border[edgeOf(q, East)] {
				b.Walls = append(b.Walls, picture.Wall{Row: r, Col: c, Owner: -1})
			}
			if r < Size-1 && s.border[edgeOf(q, South)] {
				b.Walls = append(b.Walls, picture.Wall{Row: r, Col: c, South: true, Owner: -1})
			}
		}
	}
	to := s.ToMove()
	for i, name := range s.names {
		pl := &s.players[i]
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[i]), Score: pl.score, ToMove: slices.Contains(to, name),
			Note: fmt.Sprintf("%d %s, %d knights left", pl.ducats, plural(pl.ducats, "ducat", "ducats"), pl.knights)})
	}
	return b
}
