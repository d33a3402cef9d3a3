package lowenherz97

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator/picture"
)

var terrainFill = [...]string{Empty: "empty", Forest: "forest", Hill: "hill", City: "city"}

// Picture draws the board as everyone sees it, from the same squares as
// Text: terrain, walls, castles (capitals) and knights in their princes'
// colours (the neutral prince's in the one neutral colour), each region
// framed in its prince's colour, the neutral zones hatched, the players
// with their power, knights, regions and political cards, and the lines
// of public state below the ASCII board: the bank, the walls left, the
// political piles, the action cards, the latest events, the decisions,
// the negotiation and whose turn. Only the players who must act are
// marked: a bidder whose sealed bid is in is not. Money, political cards
// and sealed bids are never drawn.
func (s *State) Picture() *picture.Board {
	sym := s.symbols()
	lab, ar := s.info()
	owner := func(p int) int {
		if p >= len(s.names) {
			return -1 // the neutral prince
		}
		return p
	}
	b := &picture.Board{Cols: width, Rows: height, Unit: "power",
		Keys: []picture.Key{{Swatch: "empty", Text: "empty"}, {Swatch: "forest", Text: "forest"}, {Swatch: "hill", Text: "hill"},
			{Swatch: "city", Text: "city"}, {Swatch: "wall", Text: "a wall"}, {Swatch: "zone", Text: "a neutral zone"}},
		Legend: []string{"castle: capital letter; knight: small letter; a region is framed in its prince's colour"}}
	if s.neutral >= 0 {
		b.Keys = append(b.Keys, picture.Key{Swatch: "neutral", Text: "x: the neutral prince"})
	}
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
			switch a := ar[lab[q]]; {
			case a.region():
				cell.Owner = owner(a.owner)
			case a.castles == 0:
				cell.Zone = true
			}
			if o := s.castle[q]; o >= 0 {
				cell.Pieces = append(cell.Pieces, picture.Piece{Owner: owner(int(o)), Letter: string(sym[o] - 'a' + 'A')})
			}
			if o := s.knight[q]; o >= 0 {
				cell.Pieces = append(cell.Pieces, picture.Piece{Owner: owner(int(o)), Letter: string(sym[o])})
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
	skip := []string{". empty", "of X, ~ neutral", "x: the neutral prince"}
	for i, name := range s.names {
		// A bidder whose sealed bid is in waits for the others: not to move.
		act := slices.Contains(to, name) && !(s.phase == phaseBid && s.bids[i].in)
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[i]), Score: s.score[i], ToMove: act,
			Note: fmt.Sprintf("%d knights left, %d %s, %d political", s.reserve[i], counts[i], plural(counts[i], "region", "regions"), len(s.hands[i]))})
		skip = append(skip, fmt.Sprintf("%c %-12s ", sym[i], name))
	}
	var status strings.Builder
	s.writeStatus(&status, false)
	b.Info = picture.Lines(status.String(), skip...)
	return b
}
