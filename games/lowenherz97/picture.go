package lowenherz97

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
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
func (s *State) Picture() *picture.Board { return s.picture(false) }

// PictureIn is Picture with its words in lang (adjudicator.LangPicturer):
// in French, the words of TextIn (pouvoir, colline, ville, mur, zone
// neutre, château, chevalier, région, prince).
func (s *State) PictureIn(lang notation.Lang) *picture.Board {
	return s.picture(lang == notation.French)
}

// picture is Picture, in French when fr is set.
func (s *State) picture(fr bool) *picture.Board {
	tr := picker(fr)
	sym := s.symbols()
	lab, ar := s.info()
	owner := func(p int) int {
		if p >= len(s.names) {
			return -1 // the neutral prince
		}
		return p
	}
	b := &picture.Board{Cols: width, Rows: height, Unit: tr("power", "pouvoir"),
		Keys: []picture.Key{{Swatch: "empty", Text: tr("empty", "vide")}, {Swatch: "forest", Text: tr("forest", "forêt")}, {Swatch: "hill", Text: tr("hill", "colline")},
			{Swatch: "city", Text: tr("city", "ville")}, {Swatch: "wall", Text: tr("a wall", "un mur")}, {Swatch: "zone", Text: tr("a neutral zone", "une zone neutre")}},
		Legend: []string{tr("castle: capital letter; knight: small letter; a region is framed in its prince's colour",
			"château : capitale ; chevalier : minuscule ; une région est encadrée de la couleur de son prince")}}
	if s.neutral >= 0 {
		b.Keys = append(b.Keys, picture.Key{Swatch: "neutral", Text: tr("x: the neutral prince", "x : le prince neutre")})
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
	if fr {
		skip = []string{". vide", "3e : région de X", "x : le prince neutre"}
	}
	for i, name := range s.names {
		// A bidder whose sealed bid is in waits for the others: not to move.
		act := slices.Contains(to, name) && !(s.phase == phaseBid && s.bids[i].in)
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[i]), Score: s.score[i], ToMove: act,
			Note: fmt.Sprintf(tr("%d %s left, %d %s, %d %s", "%d %s en réserve, %d %s, %d %s"), s.reserve[i], tr("knights", plural(s.reserve[i], "chevalier", "chevaliers")),
				counts[i], plural(counts[i], tr("region", "région"), tr("regions", "régions")),
				len(s.hands[i]), tr("political", plural(len(s.hands[i]), "carte politique", "cartes politiques")))})
		skip = append(skip, fmt.Sprintf("%c %-12s ", sym[i], name))
	}
	var status strings.Builder
	s.writeStatus(&status, fr)
	b.Info = picture.Lines(status.String(), skip...)
	return b
}
