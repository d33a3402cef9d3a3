package heritiers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
)

// resourceFill draws a tile by the resource of its colour: wood, stone,
// grain.
var resourceFill = [...]string{"forest", "mountains", "field"}

// Picture draws the board as everyone sees it, from the same squares as
// Text: each tile by its resource, its building and owner (framed in the
// owner's colour), its roads as it lies (in brown, from its middle to the
// sides they leave by, so that roads that join meet), the troops (the
// cavalry in capitals) and the treasures, the squares where a tile may
// go, the players with their points, and the lines of public state below
// the ASCII board: the buildings' codes, the sets in play, the royal
// reserve with its costs, the stack, the troops in reserve and whose turn.
// Hands are never drawn.
func (s *State) Picture() *picture.Board { return s.picture(false) }

// PictureIn is Picture with its words in lang (adjudicator.LangPicturer):
// in French, the words of TextIn (bois, pierre, blé, route, tuile,
// troupes, cavalerie, trésor, réserve royale).
func (s *State) PictureIn(lang notation.Lang) *picture.Board {
	return s.picture(lang == notation.French)
}

// picture is Picture, in French when fr is set.
func (s *State) picture(fr bool) *picture.Board {
	tr := pick(fr)
	sym := s.symbols()
	r0, r1, c0, c1 := s.window()
	free := map[int]bool{}
	if !s.over && !(s.solo && s.turn == 1) {
		for _, q := range s.freeBeside(s.turn) {
			free[q] = true
		}
	}
	b := &picture.Board{Cols: c1 - c0 + 1, Rows: r1 - r0 + 1,
		Keys: []picture.Key{{Swatch: "forest", Text: tr("wood", "bois")}, {Swatch: "mountains", Text: tr("stone", "pierre")}, {Swatch: "field", Text: tr("grain", "blé")},
			{Swatch: "road", Text: tr("road", "route")}, {Swatch: "free", Text: tr("a free square", "une case libre")}},
		Legend: []string{tr("a tile's label: its building's code (below), or ... open terrain",
			"étiquette d'une tuile : code du bâtiment (ci-dessous), ou ... terrain ouvert"),
			tr("troops: discs in their owner's colour, the cavalry in capitals",
				"troupes : disques de la couleur de leur propriétaire, la cavalerie en capitales")}}
	if s.solo {
		b.Legend[0] += tr("; $ a treasure", " ; $ un trésor")
	}
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
				cell.Roads = s.exits(i).String()
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
			}
			b.Cells = append(b.Cells, cell)
		}
	}
	scores, to := s.Scores(), s.ToMove()
	var status strings.Builder
	s.writeStatus(&status, sym, fr)
	skip := []string{"AUB s a:", "... open terrain", "turn, $ a treasure", "turn; roads as they lie"}
	if fr {
		skip = []string{"AUB s a :", "... terrain ouvert", "ce tour, $ un trésor", "ce tour ; routes telles"}
	}
	for seat, name := range s.names {
		// The rest of the player's status line (troops in reserve, reach,
		// tiles in hand) is their note.
		prefix := fmt.Sprintf(tr("%c %s: ", "%c %s : "), sym[seat], name)
		note := ""
		for line := range strings.SplitSeq(status.String(), "\n") {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				_, note, _ = strings.Cut(rest, ", ")
				break
			}
		}
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[seat]), Score: scores[seat], ToMove: slices.Contains(to, name), Note: note})
		skip = append(skip, prefix)
	}
	b.Info = picture.Lines(status.String(), skip...)
	return b
}
