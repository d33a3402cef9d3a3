package lowenherz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
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
func (s *State) Picture() *picture.Board { return s.picture(false) }

// PictureIn is Picture with its words in lang (adjudicator.LangPicturer):
// in French, the words of TextIn (pré, cité du Roi, frontière, zone
// neutre, château, chevalier, domaine).
func (s *State) PictureIn(lang notation.Lang) *picture.Board {
	return s.picture(lang == notation.French)
}

// picture is Picture, in French when fr is set.
func (s *State) picture(fr bool) *picture.Board {
	tr := pick(fr)
	sym := s.symbols()
	owner := func(p int) int {
		if p >= len(s.names) {
			return -1 // the neutral colour of a 2-player game
		}
		return p
	}
	b := &picture.Board{Cols: Size, Rows: Size,
		Keys: []picture.Key{{Swatch: "plain", Text: tr("meadow", "pré")}, {Swatch: "forest", Text: tr("forest", "forêt")}, {Swatch: "village", Text: "village"},
			{Swatch: "city", Text: tr("the king's city", "la cité du Roi")}, {Swatch: "gold", Text: tr("gold", "or")}, {Swatch: "silver", Text: tr("silver", "argent")},
			{Swatch: "copper", Text: tr("copper", "cuivre")}, {Swatch: "stones", Text: tr("precious stones", "pierres précieuses")}, {Swatch: "wall", Text: tr("a border", "une frontière")},
			{Swatch: "zone", Text: tr("a neutral zone", "une zone neutre")}},
		Legend: []string{tr("castle: capital letter; knight: small letter; a domain is framed in its owner's colour",
			"château : capitale ; chevalier : minuscule ; un domaine est encadré de la couleur de son propriétaire")}}
	if s.colours > len(s.names) {
		b.Keys = append(b.Keys, picture.Key{Swatch: "neutral", Text: tr("n: the neutral castles and knights", "n : les châteaux et chevaliers neutres")})
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
	if fr {
		skip = []string{". pré", "C cuivre P", "chevalier, par couleur", "| et ---"}
	}
	for i, name := range s.names {
		pl := &s.players[i]
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[i]), Score: pl.score, ToMove: slices.Contains(to, name),
			Note: fmt.Sprintf(tr("%d %s, %d %s left, %d %s in hand", "%d %s, %d %s en réserve, %d %s en main"),
				pl.ducats, plural(pl.ducats, "ducat", "ducats"), pl.knights, tr("knights", plural(pl.knights, "chevalier", "chevaliers")),
				len(pl.hand), plural(len(pl.hand), tr("card", "carte"), tr("cards", "cartes")))})
		skip = append(skip, fmt.Sprintf(tr("%c %s: ", "%c %s : "), sym[i], name))
	}
	var status strings.Builder
	s.writeStatus(&status, sym, fr)
	b.Info = picture.Lines(status.String(), skip...)
	return b
}
