package lowenherz97

import (
	"fmt"
	"slices"

	"github.com/heraldgames/herald/adjudicator/picture"
)

var terrainFill = [...]string{Empty: "empty", Forest: "forest", Hill: "hill", City: "city"}

// Picture draws the board as everyone sees it, from the same squares as
// Text: terrain, walls, castles (capitals) and knights in their princes'
// colours, each region framed in its prince's colour, and the players with
// their power, knights and regions. Money, political cards and sealed bids
// are never drawn.
func (s *State) Picture() *picture.Board {
	sym := s.symbols()
	lab, ar := s.info()
	b := &picture.Board{Cols: width, Rows: height,
		Legend: []string{"terrain: empty, forest, hill, city", "castle: capital letter; knight: small letter; a region is framed in its prince's colour"}}
	for c := range width {
		b.ColNames = append(b.ColNames, string(rune('a'+c)))
	}
	for r := range height {
		b.RowNames = append(b.RowNames, fmt.Sprint(r+1))
	}
	for r := range height {
		for c := range width {
			q, _ := board.At(c, r)
			cell := picture.Cell{Fill: terrainFill[s.terrain[q]], Owner: -1}
			if a := ar[lab[q]]; a.region() {
				cell.Owner = a.owner
			}
			if o := s.castle[q]; o >= 0 {
				cell.Pieces = append(cell.Pieces, picture.Piece{Owner: int(o), Letter: string(sym[o] - 'a' + 'A')})
			}
			if o := s.knight[q]; o >= 0 {
				cell.Pieces = append(cell.Pieces, picture.Piece{Owner: int(o), Letter: string(sym[o])})
			}
			b.Cells = append(b.Cells, cell)
			if e, ok := board.At(c+1, r); ok && s.g.Wall(q, e) {
				b.Walls = append(b.Walls, picture.Wall{Row: r, Col: c, Owner: -1})
			}
			if d, ok := board.At(c, r+1); ok && s.g.Wall(q, d) {
				b.Walls = append(b.Walls, picture.Wall{Row: r, Col: c, South: true, Owner: -1})
			}
		}
	}
	counts, to := s.regionCounts(), s.ToMove()
	for i, name := range s.names {
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[i]), Score: s.score[i], ToMove: slices.Contains(to, name),
			Note: fmt.Sprintf("%d knights left, %d %s", s.reserve[i], counts[i], plural(counts[i], "region", "regions"))})
	}
	return b
}
