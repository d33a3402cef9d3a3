package raubritter

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
)

var terrainFill = [...]string{"plain", "forest", "mountains", "lake"}

// Picture draws the board as everyone sees it, from the same squares as
// Text: each tile's terrain and building, its knights as a stack (those
// below as bands in their owners' colours, bottom to top, the top one,
// which scores, as a disc with its capital letter), the squares where a
// tile may go, the castle awaiting knights, the players with their
// knights and tiles left, and the lines of public state below the ASCII
// board (the area, whose turn and what now). Hands and stacks of tiles
// are never drawn.
func (s *State) Picture() *picture.Board { return s.picture(false) }

// PictureIn is Picture with its words in lang (adjudicator.LangPicturer):
// in French, the words of TextIn (plaine, montagnes, lac, plaquette,
// château, ville, chevalier).
func (s *State) PictureIn(lang notation.Lang) *picture.Board {
	return s.picture(lang == notation.French)
}

// picture is Picture, in French when fr is set.
func (s *State) picture(fr bool) *picture.Board {
	tr := func(en, frText string) string {
		if fr {
			return frText
		}
		return en
	}
	sym := s.symbols()
	r0, r1, c0, c1 := s.window()
	b := &picture.Board{Cols: c1 - c0 + 1, Rows: r1 - r0 + 1,
		Keys: []picture.Key{{Swatch: "plain", Text: tr("plain", "plaine")}, {Swatch: "forest", Text: tr("forest", "forêt")}, {Swatch: "mountains", Text: tr("mountains", "montagnes")},
			{Swatch: "lake", Text: tr("lake", "lac")}, {Swatch: "free", Text: tr("a free square", "une case libre")},
			{Swatch: "await", Text: tr("a castle awaiting knights", "un château qui attend ses chevaliers")}},
		Legend: []string{tr("a tile's letter: c castle 1 point, v village 2 points, t town 3 points",
			"la lettre d'une plaquette : c château 1 point, v village 2 points, t ville 3 points"),
			tr("a stack of knights: those below as bands, bottom to top; the top one,",
				"une pile de chevaliers : ceux du dessous en bandes, de bas en haut ;"),
			tr("which scores, a disc with its capital letter",
				"celui du dessus, qui marque, un disque à sa lettre capitale")}}
	for c := c0; c <= c1; c++ {
		b.ColNames = append(b.ColNames, string(rune('a'+c)))
	}
	for r := r0; r <= r1; r++ {
		b.RowNames = append(b.RowNames, fmt.Sprint(r+1))
	}
	spot := make([]bool, len(s.cells))
	if s.phase == phasePlay {
		for _, q := range s.spots() {
			spot[q.Row*s.w+q.Col] = true
		}
	}
	// The cells and their pieces, each in one allocation: a move mail
	// draws the board twice.
	b.Cells = make([]picture.Cell, 0, b.Cols*b.Rows)
	knights := 0
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			if cl := &s.cells[r*s.w+c]; cl.placed {
				knights += int(cl.n)
			}
		}
	}
	pieces := make([]picture.Piece, 0, knights)
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			i := r*s.w + c
			cl := &s.cells[i]
			cell := picture.Cell{Owner: -1, Mark: spot[i], Await: s.pending == i, Stack: true}
			if cl.placed {
				cell.Fill = terrainFill[cl.kind.Terrain]
				cell.Label = buildingCode[cl.kind.Building]
				from := len(pieces)
				for j := 0; j < int(cl.n); j++ {
					letter := string(sym[cl.k[j]])
					if j == int(cl.n)-1 {
						letter = string(sym[cl.k[j]] - ('a' - 'A'))
					}
					pieces = append(pieces, picture.Piece{Owner: int(cl.k[j]), Letter: letter})
				}
				if len(pieces) > from {
					cell.Pieces = pieces[from:len(pieces):len(pieces)]
				}
			}
			b.Cells = append(b.Cells, cell)
		}
	}
	scores, to := s.Scores(), s.ToMove()
	skip := []string{"P plain", "c castle", "knights bottom", ". a free"}
	if fr {
		skip = []string{"P plaine", "c château", "chevaliers de bas", ". une case libre"}
	}
	for i, name := range s.names {
		p := s.players[i]
		tiles := len(p.hand) + len(p.stack) + len(p.layout)
		b.Players = append(b.Players, picture.Player{Name: name, Letter: string(sym[i]), Score: scores[i], ToMove: slices.Contains(to, name),
			Note: fmt.Sprintf(tr("%d %s, %d %s left", "reste %d %s, %d %s"), p.knights, plural(p.knights, tr("knight", "chevalier"), tr("knights", "chevaliers")),
				tiles, plural(tiles, tr("tile", "plaquette"), tr("tiles", "plaquettes")))})
		skip = append(skip, fmt.Sprintf("%c %-12s", sym[i], name))
	}
	var status strings.Builder
	s.writeStatus(&status, sym, fr)
	b.Info = picture.Lines(status.String(), skip...)
	return b
}
