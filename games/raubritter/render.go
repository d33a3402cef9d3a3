package raubritter

import (
	"fmt"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/textwrap"
	"github.com/heraldgames/herald/notation"
)

// symbols returns one lower-case letter per player for the board: the
// initial of each name when the initials differ, else a, b, c, d in seating
// order. Letters, so that the top knight can be shown in capitals.
func (s *State) symbols() []byte { return textwrap.Initials(s.names) }

var terrainCode = [...]byte{'P', 'F', 'M', 'L'}
var buildingCode = [...]string{"", "c", "v", "t"}

// window returns the rows and columns to draw: the laid tiles and one more
// square around them, where the area limit still allows a tile.
func (s *State) window() (r0, r1, c0, c1 int) {
	r0, r1, c0, c1, ok := s.bbox()
	if !ok {
		lay := s.layoutSquares()
		first, last := lay[0], lay[len(lay)-1]
		return first.Row, last.Row, first.Col, last.Col
	}
	grow := func(lo, hi, size int) (int, int) {
		nlo := max(lo-1, hi-s.limit+1, 0)
		nhi := min(hi+1, lo+s.limit-1, size-1)
		return nlo, nhi
	}
	r0, r1 = grow(r0, r1, s.h)
	c0, c1 = grow(c0, c1, s.w)
	return r0, r1, c0, c1
}

// Text renders the board in at most 72 columns: each tile as two lines,
// terrain and building on the first, the knights on the second from bottom
// to top with the top knight in capitals; '.' marks where a tile may go.
// With a player name it adds that player's hand and the next letter of
// their stack.
func (s *State) Text(as string) string { return s.text(as, false) }

// TextIn is Text with its words in lang (adjudicator.LangTexter): the
// legend, the status lines and the hand in French, in the rulebook's
// terms (plaquettes, chevaliers); the cells keep their codes.
func (s *State) TextIn(as string, lang notation.Lang) string {
	return s.text(as, lang == notation.French)
}

// text is Text, in French when fr is set.
func (s *State) text(as string, fr bool) string {
	var b strings.Builder
	b.Grow(4096)
	sym := s.symbols()
	r0, r1, c0, c1 := s.window()
	spot := make([]bool, len(s.cells))
	if s.phase == phasePlay {
		for _, q := range s.spots() {
			spot[q.Row*s.w+q.Col] = true
		}
	}
	b.WriteString("    ")
	for c := c0; c <= c1; c++ {
		b.WriteString("   ")
		b.WriteByte(byte('a' + c))
		b.WriteString("  ")
	}
	b.WriteString("\n")
	sep := "    " + strings.Repeat("+-----", c1-c0+1) + "+\n"
	b.WriteString(sep)
	// cell writes "| " and text padded to four columns, as "| %-4s".
	cell := func(line []byte, text []byte) []byte {
		line = append(line, "| "...)
		line = append(line, text...)
		for range 4 - len(text) {
			line = append(line, ' ')
		}
		return line
	}
	var top, bottom, t, k []byte
	for r := r0; r <= r1; r++ {
		top = append(top[:0], fmt.Sprintf("%3d ", r+1)...)
		bottom = append(bottom[:0], "    "...)
		for c := c0; c <= c1; c++ {
			i := r*s.w + c
			cl := &s.cells[i]
			t, k = t[:0], k[:0]
			switch {
			case cl.placed:
				t = append(t, terrainCode[cl.kind.Terrain], ' ')
				t = append(t, buildingCode[cl.kind.Building]...)
				for j := 0; j < int(cl.n); j++ {
					ch := sym[cl.k[j]]
					if j == int(cl.n)-1 {
						ch -= 'a' - 'A'
					}
					k = append(k, ch)
				}
			case spot[i]:
				t = append(t, "  ."...)
			}
			if s.pending == i {
				k = append(k, '*')
			}
			top = cell(top, t)
			bottom = cell(bottom, k)
		}
		b.Write(top)
		b.WriteString("|\n")
		b.Write(bottom)
		b.WriteString("|\n")
		b.WriteString(sep)
	}
	var status strings.Builder
	s.writeStatus(&status, sym, fr)
	textwrap.Write(&b, status.String())
	var private strings.Builder
	s.writePrivate(&private, as, fr)
	textwrap.Write(&b, private.String())
	return b.String()
}

// PrivateText returns the lines of Text(as) that only as sees, their hand
// and stack: Text(as) is Text("") followed by them (adjudicator.Texts).
func (s *State) PrivateText(as string) string {
	var private strings.Builder
	s.writePrivate(&private, as, false)
	var b strings.Builder
	textwrap.Write(&b, private.String())
	return b.String()
}

// writeStatus writes the status lines everyone sees below the board, in
// French when fr is set.
func (s *State) writeStatus(b *strings.Builder, sym []byte, fr bool) {
	// tr picks the English or the French of a text; both take the same
	// arguments in the same order.
	tr := func(en, frText string) string {
		if fr {
			return frText
		}
		return en
	}
	br0, br1, bc0, bc1, ok := s.bbox()
	if ok {
		w, h := bc1-bc0+1, br1-br0+1
		fmt.Fprintf(b, tr("area %dx%d of at most %dx%d", "zone %dx%d sur %dx%d au plus"), w, h, s.limit, s.limit)
		var fixed []string
		if w == s.limit {
			fixed = append(fixed, fmt.Sprintf(tr("columns %c-%c", "colonnes %c-%c"), 'a'+bc0, 'a'+bc1))
		}
		if h == s.limit {
			fixed = append(fixed, fmt.Sprintf(tr("rows %d-%d", "rangées %d-%d"), br0+1, br1+1))
		}
		if len(fixed) > 0 {
			fmt.Fprintf(b, tr("; final: %s", " ; définitives : %s"), strings.Join(fixed, ", "))
		}
		b.WriteString("\n")
	}
	// The legend fits in 72 columns, like the rest of the board.
	b.WriteString(tr("P plain  F forest  M mountains  L lake\n", "P plaine  F forêt  M montagnes  L lac\n"))
	b.WriteString(tr("c castle 1 point, v village 2 points, t town 3 points\n", "c château 1 point, v village 2 points, t ville 3 points\n"))
	b.WriteString(tr("knights bottom to top, the top one in capitals\n", "chevaliers de bas en haut, celui du dessus en capitale\n"))
	b.WriteString(tr(". a free square; * a castle awaiting knights\n", ". une case libre ; * un château qui attend ses chevaliers\n"))
	scores := s.Scores()
	for i, n := range s.names {
		p := s.players[i]
		tiles := len(p.hand) + len(p.stack) + len(p.layout)
		fmt.Fprintf(b, tr("%c %-12s %2d %s, %2d %s left, %2d %s left\n", "%c %-12s %2d %s ; reste %2d %s, %2d %s\n"),
			sym[i], n, scores[i], plural(scores[i], "point", "points"),
			p.knights, plural(p.knights, tr("knight", "chevalier"), tr("knights", "chevaliers")),
			tiles, plural(tiles, tr("tile", "plaquette"), tr("tiles", "plaquettes")))
	}
	switch s.phase {
	case phaseSetup:
		fmt.Fprintf(b, tr("setup: waiting for %s to keep an A tile\n", "mise en place : on attend la plaquette A gardée par %s\n"), strings.Join(s.ToMove(), ", "))
	case phasePlay:
		who := s.names[s.turn]
		switch {
		case s.pending >= 0:
			// After the third tile or the last in hand, no tile can follow.
			next := tr("go on", "continuer")
			if s.placed == 3 || len(s.players[s.turn].hand) == 0 {
				next = tr("end", "finir")
			}
			fmt.Fprintf(b, tr("to move: %s, tile %d of 1-3; knights for the castle at %s, or %s\n",
				"à jouer : %s, plaquette %d sur 1-3 ; des chevaliers pour le château en %s, ou %s\n"), who, s.placed, s.square(s.pending), next)
		case s.placed > 0:
			fmt.Fprintf(b, tr("to move: %s, %d %s laid; lay another or end\n", "à jouer : %s, %d %s ; en poser une autre ou finir\n"),
				who, s.placed, plural(s.placed, tr("tile", "plaquette posée"), tr("tiles", "plaquettes posées")))
		default:
			fmt.Fprintf(b, tr("to move: %s, lay 1 to 3 tiles\n", "à jouer : %s, poser 1 à 3 plaquettes\n"), who)
		}
	default:
		fmt.Fprintf(b, tr("game over: %s\n", "partie finie : %s\n"), tr(s.Result().Summary, s.Result().SummaryFR))
	}
}

// writePrivate writes what only as sees: their hand and stack, and during
// the setup the tiles they keep for the start layout; in French when fr
// is set.
func (s *State) writePrivate(b *strings.Builder, as string, fr bool) {
	if i := s.index(as); i >= 0 && fr {
		p := s.players[i]
		fmt.Fprintf(b, "main %s : %s\n", adjudicator.OfName(as).FR, handWords(p.hand).FR)
		if len(p.stack) > 0 {
			fmt.Fprintf(b, "pile %s : %d %s, prochaine lettre %c\n", adjudicator.OfName(as).FR, len(p.stack), plural(len(p.stack), "plaquette", "plaquettes"), p.stack[0].Letter)
		} else {
			fmt.Fprintf(b, "pile %s : vide\n", adjudicator.OfName(as).FR)
		}
		if s.phase == phaseSetup && p.kept {
			fmt.Fprintf(b, "plaquettes de départ %s : %s\n", adjudicator.OfName(as).FR, handWords(p.layout).FR)
		}
		return
	}
	if i := s.index(as); i >= 0 {
		p := s.players[i]
		fmt.Fprintf(b, "%s's hand: %s\n", as, handWords(p.hand).EN)
		if len(p.stack) > 0 {
			fmt.Fprintf(b, "%s's stack: %d %s, next letter %c\n", as, len(p.stack), plural(len(p.stack), "tile", "tiles"), p.stack[0].Letter)
		} else {
			fmt.Fprintf(b, "%s's stack: empty\n", as)
		}
		if s.phase == phaseSetup && p.kept {
			fmt.Fprintf(b, "%s's start-layout tiles: %s\n", as, handWords(p.layout).EN)
		}
	}
}

type squareView struct {
	Tile    string   `json:"tile"`
	Knights []string `json:"knights"`
	Top     string   `json:"top,omitempty"`
}

type areaView struct {
	Limit   int    `json:"limit"`
	Columns string `json:"columns,omitempty"` // span of the laid tiles: "e-h"
	Rows    string `json:"rows,omitempty"`    // "5-7"
}

type boardView struct {
	Phase   string                `json:"phase"`
	Squares map[string]squareView `json:"squares"`
	Knights map[string]int        `json:"knights"`
	Tiles   map[string]int        `json:"tiles"`
	Area    areaView              `json:"area"`
	Placed  int                   `json:"placed"`
	Castle  string                `json:"castle,omitempty"`
}

// Board returns the public board for JSON; see the package doc.
func (s *State) Board() any {
	v := boardView{
		Phase:   phaseNames[s.phase],
		Squares: map[string]squareView{},
		Knights: map[string]int{},
		Tiles:   map[string]int{},
		Area:    areaView{Limit: s.limit},
		Placed:  s.placed,
	}
	for i := range s.cells {
		c := &s.cells[i]
		if !c.placed {
			continue
		}
		sv := squareView{Tile: c.kind.String(), Knights: []string{}}
		for j := 0; j < int(c.n); j++ {
			sv.Knights = append(sv.Knights, s.names[c.k[j]])
		}
		if t := c.top(); t >= 0 {
			sv.Top = s.names[t]
		}
		v.Squares[s.square(i).String()] = sv
	}
	for i, n := range s.names {
		p := s.players[i]
		v.Knights[n] = p.knights
		v.Tiles[n] = len(p.hand) + len(p.stack) + len(p.layout)
	}
	if r0, r1, c0, c1, ok := s.bbox(); ok {
		v.Area.Columns = fmt.Sprintf("%c-%c", 'a'+c0, 'a'+c1)
		v.Area.Rows = fmt.Sprintf("%d-%d", r0+1, r1+1)
	}
	if s.pending >= 0 {
		v.Castle = s.square(s.pending).String()
	}
	return v
}

type privateView struct {
	Hand  []string `json:"hand"`
	Stack int      `json:"stack"`
	Next  string   `json:"next,omitempty"`
}

// Private returns player's hand, stack size and next letter for JSON.
func (s *State) Private(player string) any {
	i := s.index(player)
	if i < 0 {
		return nil
	}
	p := s.players[i]
	v := privateView{Hand: []string{}, Stack: len(p.stack)}
	for _, k := range p.hand {
		v.Hand = append(v.Hand, k.String())
	}
	if len(p.stack) > 0 {
		v.Next = string(p.stack[0].Letter)
	}
	return v
}

// plural words a count: plural(2, "point", "points") is "points".
var plural = textwrap.Plural
