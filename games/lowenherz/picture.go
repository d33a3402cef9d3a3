package lowenherz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator/picture"
)

// terrainFill draws meadow, forest, village, the king's city and the mines.
var terrainFill = [...]string{"plain", "forest", "village", "city", "gold", "silver", "copper", "stones"}

// Picture draws the board as everyone sees it, from the same squares as
// Text: terrain, borders, castles (capitals) and knights in their
// colours (the neutral ones of a 2-player game in the one neutral
// colour), each domain framed in its owner's colour, the neutral zones
// hatched, the players with their points, ducats and knights, and the
// lines of public state below the ASCII board: domains, alliances, the
// king's marker, the deck, the borders left, the market and whose turn.
// Hands are never drawn.
func (s *State) Picture() *picture.Board {
	sym := s.symbols()
	owner := func(p int) int {
		if p >= len(s.names) {
			return -1 // the neutral colour of a 2-player game
		}
		return p
	}
	b := &picture.Board{Cols: Size, Rows: Size,
		Keys: []picture.Key{{Swatch: "plain", Text: "meadow"}, {Swatch: "forest", Text: "forest"}, {Swatch: "village", Text: "village"},
			{Swatch: "city", Text: "the king's city"}, {Swatch: "gold", Text: "gold"}, {Swatch: "silver", Text: "silver"},
			{Swatch: "copper", Text: "copper"}, {Swatch: "stones", Text: "precious stones"}, {Swatch: "wall", Text: "a border"},
			{Swatch: "zone", Text: "a neutral zone"}},
		Legend: []string{"castle: capital letter; knight: small letter; a domain is framed in its owner's colour"}}
	if s.colours > len(s.names) {
		b.Keys = append(b.Keys, picture.Key{Swatch: "neutral", Text: "n: the neutral castles and knights"})
	}
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
			switch reg := s.regionOf(q); {
			case reg.domain():
				cell.Owner = owner(reg.owner)
			case reg.neutral():
				cell.Zone = true
			}
			if p := s.piece[q]; p >= 0 {
				letter := string(sym[p])
				if s.castle[q] {
					letter = string(sym[p] - 'a' + 'A')
				}
				cell.Pieces = append(cell.Pieces, picture.Piece{Owner: owner(int(p)), Letter: letter})
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
	skip := []string{". meadow", "C copper P", "by colour; 3rd"}
	for i, name := range s.names {
		pl := &s.players[i]
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[i]), Score: pl.score, ToMove: slices.Contains(to, name),
			Note: fmt.Sprintf("%d %s, %d knights left, %d %s in hand", pl.ducats, plural(pl.ducats, "ducat", "ducats"), pl.knights, len(pl.hand), plural(len(pl.hand), "card", "cards"))})
		skip = append(skip, fmt.Sprintf("%c %s: ", sym[i], name))
	}
	var status strings.Builder
	s.writeStatus(&status, sym, false)
	b.Info = picture.Lines(status.String(), skip...)
	return b
}
