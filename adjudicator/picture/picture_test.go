package picture

import (
	"bytes"
	"encoding/json"
	"image/png"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

func testBoard() *Board {
	b := &Board{Title: "G1 Test", Status: "move 3: waiting for bob", Cols: 3, Rows: 2,
		ColNames: []string{"a", "b", "c"}, RowNames: []string{"1", "2"},
		Players: []Player{{Name: "alice", Letter: "a", Score: 1}, {Name: "bob", Letter: "b", Score: 4, ToMove: true}},
		Legend:  []string{"a test board"}}
	for i := range 6 {
		c := Cell{Fill: "plain", Owner: -1}
		if i == 4 {
			c = Cell{Fill: "forest", Label: "v", Owner: 1, Pieces: []Piece{{Owner: 0, Letter: "a"}, {Owner: 1, Letter: "B"}}}
		}
		b.Cells = append(b.Cells, c)
	}
	b.Walls = []Wall{{Row: 0, Col: 0, Owner: -1}, {Row: 0, Col: 1, South: true, Road: true}}
	return b
}

// TestSVG checks that the SVG is deterministic, escapes text, and shows
// the pieces with their letters and the players' colours.
func TestSVG(t *testing.T) {
	b := testBoard()
	b.Title = "G1 <&>"
	one, two := b.SVG(), testBoard().SVG()
	if !bytes.Equal(one, b.SVG()) {
		t.Error("the same board gives two SVGs")
	}
	s := string(one)
	for _, want := range []string{"G1 &lt;&amp;&gt;", ">B</text>", Colours[0], Colours[1], "b bob: 4 points  \u2190 to move", "a alice: 1 point<"} {
		if !strings.Contains(s, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if bytes.Equal(one, two) {
		t.Error("a different title gives the same SVG")
	}
}

// TestSVGInFrench checks the package's own words on a board in French:
// whose turn, the scores, the key of the last move's changes and a
// stack's hint, and none of them left in English; an English board keeps
// them in English.
func TestSVGInFrench(t *testing.T) {
	board := func(lang notation.Lang) *Board {
		b := testBoard()
		b.Lang = lang
		b.Cells[1] = Cell{Fill: "plain", Owner: -1, Stack: true, Pieces: []Piece{{Owner: 0, Letter: "a"}, {Owner: 1, Letter: "B"}}}
		before := testBoard()
		b.MarkChanges(before)
		return b
	}
	fr, en := string(board(notation.French).SVG()), string(board(notation.English).SVG())
	for _, want := range []string{"b bob : 4 points  \u2190 à jouer<", "a alice : 1 point<", ">changé par le dernier coup<", "<title>chevaliers de bas en haut : aB</title>"} {
		if !strings.Contains(fr, want) {
			t.Errorf("the French SVG lacks %q", want)
		}
	}
	for _, want := range []string{"b bob: 4 points  \u2190 to move<", "a alice: 1 point<", ">changed by the last move<", "<title>knights bottom to top: aB</title>"} {
		if !strings.Contains(en, want) {
			t.Errorf("the English SVG lacks %q", want)
		}
		if strings.Contains(fr, want) {
			t.Errorf("the French SVG holds %q", want)
		}
	}
}

// TestPNG checks that the PNG decodes and that a piece is drawn in its
// owner's colour where the SVG draws it.
func TestPNG(t *testing.T) {
	b := testBoard()
	data, err := b.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	w, h := b.size()
	if img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Errorf("PNG %v, want %dx%d", img.Bounds(), w, h)
	}
	// The first piece of the square at row 1, column 1, off its letter.
	x, y := pieceAt(margin+cellSize, headH+margin+cellSize, 0, 2)
	r, g, bl, _ := img.At(x-6, y).RGBA()
	want := hexColour(Colours[0])
	if uint8(r>>8) != want.R || uint8(g>>8) != want.G || uint8(bl>>8) != want.B {
		t.Errorf("the piece of player 0 is drawn %02x%02x%02x, want %s", r>>8, g>>8, bl>>8, Colours[0])
	}
}

// TestPNGAccents checks that the PNG draws the accents of the games'
// French names and of players' names: "Löwenherz" is drawn neither as
// "Lowenherz" nor with a box for a letter the face lacks (what a bitmap
// face of ASCII does), and the same bytes twice.
func TestPNGAccents(t *testing.T) {
	draw := func(title string) []byte {
		b := testBoard()
		b.Title = title
		data, err := b.PNG()
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, c := range [][3]string{{"Löwenherz", "Lowenherz", "L\ufffdwenherz"}, {"Hélène", "Helene", "H\ufffdl\ufffdne"}, {"Cœur", "Cour", "C\ufffdur"}} {
		accented := draw(c[0])
		if bytes.Equal(accented, draw(c[1])) {
			t.Errorf("%q is drawn as %q", c[0], c[1])
		}
		if bytes.Equal(accented, draw(c[2])) {
			t.Errorf("%q is drawn with boxes for its accented letters", c[0])
		}
		if !bytes.Equal(accented, draw(c[0])) {
			t.Errorf("%q is drawn two ways", c[0])
		}
	}
}

// BenchmarkPNG draws a 10x10 board with pieces as PNG: the cost a mail
// with a picture adds, once per move.
func BenchmarkPNG(b *testing.B) {
	board := &Board{Title: "G1 Bench", Status: "move 30", Cols: 10, Rows: 10, Players: []Player{{Name: "a", Letter: "a"}, {Name: "b", Letter: "b"}}}
	for i := range 100 {
		c := Cell{Fill: "plain", Owner: -1, Label: "c"}
		if i%3 == 0 {
			c.Pieces = []Piece{{Owner: i % 2, Letter: "a"}, {Owner: 1, Letter: "B"}}
		}
		board.Cells = append(board.Cells, c)
	}
	for b.Loop() {
		if _, err := board.PNG(); err != nil {
			b.Fatal(err)
		}
	}
}

// boxes records the box of every shape drawn, to check where they go.
type boxes struct{ got [][4]int } // x0, y0, x1, y1

func (b *boxes) add(x0, y0, x1, y1 int)            { b.got = append(b.got, [4]int{x0, y0, x1, y1}) }
func (b *boxes) rect(x, y, w, h int, _ string)     { b.add(x, y, x+w, y+h) }
func (b *boxes) frame(x, y, w, h, _ int, _ string) { b.add(x, y, x+w, y+h) }
func (b *boxes) ants(x, y, w, h, _ int)            { b.add(x, y, x+w, y+h) }
func (b *boxes) disc(cx, cy, r int, _ string)      { b.add(cx-r-1, cy-r-1, cx+r+2, cy+r+2) }
func (b *boxes) ring(cx, cy, r, _ int, _ string)   { b.add(cx-r, cy-r, cx+r+1, cy+r+1) }
func (b *boxes) hatch(x, y, w, h int)              { b.add(x, y, x+w, y+h) }
func (b *boxes) hint(string)                       {}
func (b *boxes) text(x, y int, s string, anchor int, _ string, _ int) {
	w := textW(s)
	switch anchor {
	case middle:
		x -= w / 2
	case end:
		x -= w
	}
	b.add(x, y-10, x+w, y+3)
}

// TestPiecesInsideTheSquare checks that 1 to 5 pieces, as a stack
// (Raubritter's knights) or side by side, are drawn inside their square
// (issue 28, item 1: a third knight ran into the next square, and on the
// last column past the board), and that the top of a stack is drawn last,
// over the others.
func TestPiecesInsideTheSquare(t *testing.T) {
	for _, stack := range []bool{true, false} {
		for n := 1; n <= 5; n++ {
			cell := Cell{Fill: "plain", Owner: -1, Label: "c", Stack: stack}
			for i := range n {
				cell.Pieces = append(cell.Pieces, Piece{Owner: i % 2, Letter: string(rune('a' + i%2))})
			}
			var c boxes
			const x, y = 100, 200
			(&Board{}).drawCell(&c, cell, x, y)
			for _, bx := range c.got {
				if bx[0] < x || bx[1] < y || bx[2] > x+cellSize+1 || bx[3] > y+cellSize+1 {
					t.Errorf("stack %v, %d pieces: a shape at %v leaves the square %d,%d-%d,%d", stack, n, bx, x, y, x+cellSize, y+cellSize)
				}
			}
			if stack {
				// The last shapes drawn are the top piece's disc and letter.
				top := c.got[len(c.got)-2]
				for _, bx := range c.got[2 : len(c.got)-2] { // after the square's own rects
					if bx[1] < top[1] && bx[0] < top[2] && bx[2] > top[0] {
						t.Errorf("stack of %d: a shape at %v is drawn above the top knight at %v", n, bx, top)
					}
				}
			}
		}
	}
}

// TestMarkChanges checks that the squares and walls a move changed are
// marked, matched by name on a board that grew, and that the dots of
// free squares are not a change.
func TestMarkChanges(t *testing.T) {
	before := testBoard()
	after := testBoard()
	// The board grew by a column on the left: the same squares moved.
	after.Cols, after.ColNames = 4, []string{"z", "a", "b", "c"}
	after.Cells = nil
	for r := range 2 {
		after.Cells = append(after.Cells, Cell{Owner: -1, Mark: true})
		for c := range 3 {
			after.Cells = append(after.Cells, before.Cells[r*3+c])
		}
	}
	after.Cells[5].Pieces = append(slices.Clone(after.Cells[5].Pieces), Piece{Owner: 1, Letter: "B"}) // b2
	after.Cells[1].Mark = true                                                                        // a1: a dot only
	after.Walls = []Wall{{Row: 0, Col: 1, Owner: -1}, {Row: 0, Col: 2, South: true, Road: true}, {Row: 1, Col: 1, Owner: -1}}
	// The board before is compared by what it holds, not by the marks
	// it got from the move before it (a match keeps its last picture,
	// marked, as the next move's board before).
	for i := range before.Cells {
		before.Cells[i].Changed = i%2 == 0
	}
	before.Walls[0].Changed = true
	after.MarkChanges(before)
	for i, c := range after.Cells {
		if want := i == 5; c.Changed != want {
			t.Errorf("square %s%s: changed %v, want %v", after.ColNames[i%4], after.RowNames[i/4], c.Changed, want)
		}
	}
	for i, w := range after.Walls {
		if want := i == 2; w.Changed != want {
			t.Errorf("wall %d: changed %v, want %v", i, w.Changed, want)
		}
	}
	if !strings.Contains(string(after.SVG()), "changed by the last move") {
		t.Error("the legend does not say what the dashed frame is")
	}
}

// TestLines checks the status lines a game gives its picture: the
// legend's and players' lines left out, long lines wrapped as in a mail.
func TestLines(t *testing.T) {
	got := Lines("P plain\na alice: 3\nmarket: x\n\nto move: bob\n", "P plain", "a alice:")
	if want := []string{"market: x", "to move: bob"}; !slices.Equal(got, want) {
		t.Errorf("Lines = %q, want %q", got, want)
	}
	long := strings.Repeat("word ", 30)
	lines := wrapLine(strings.TrimSpace(long), infoWidth)
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "  word") {
		t.Errorf("wrapLine gives %q", lines)
	}
	for _, l := range lines {
		if len(l) > infoWidth {
			t.Errorf("a line of %d characters: %q", len(l), l)
		}
	}
}

// FuzzWrapLine checks that wrapping a status line keeps its words in
// order and makes no line longer than the width but for a word that is.
func FuzzWrapLine(f *testing.F) {
	for _, s := range []string{"", "a b c", strings.Repeat("long words here ", 10), "  indented line  with  spaces", "é" + strings.Repeat("x", 90)} {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		if width < 4 || width > 200 || strings.Contains(s, "\n") {
			return
		}
		lines := wrapLine(s, width)
		if strings.Join(strings.Fields(strings.Join(lines, " ")), " ") != strings.Join(strings.Fields(s), " ") {
			t.Fatalf("wrapLine(%q, %d) = %q: the words changed", s, width, lines)
		}
		for _, l := range lines {
			if n := len([]rune(l)); n > width && len(strings.Fields(l)) > 1 {
				t.Fatalf("wrapLine(%q, %d): line %q of %d runes", s, width, l, n)
			}
		}
	})
}

// TestJSONLeavesZeroFieldsOut checks that a board's JSON, which the outbox
// keeps in each draft of a mail that shows it, leaves the zero fields of
// its cells and walls out, and reads back as the same board: an empty
// cell is {}, a neutral one {"Owner":-1}.
func TestJSONLeavesZeroFieldsOut(t *testing.T) {
	b := &Board{Title: "t", Cols: 3, Rows: 1, ColNames: []string{"a", "b", "c"}, RowNames: []string{"1"},
		Cells: []Cell{{}, {Owner: -1}, {Fill: "plain", Owner: 1, Pieces: []Piece{{Owner: 0, Letter: "a"}}, Stack: true, Roads: "ne", Zone: true, Mark: true, Await: true, Changed: true}},
		Walls: []Wall{{}, {Row: 0, Col: 1, South: true, Owner: -1, Road: true, Changed: true}}}
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Cells":[{},{"Owner":-1},{"Fill":"plain","Owner":1,`, `"Walls":[{},{"Col":1,"South":true,"Owner":-1,"Road":true,"Changed":true}]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the JSON %s\nlacks %s", data, want)
		}
	}
	var back Board
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(&back, b) {
		t.Errorf("the JSON reads back as %+v, %v; want %+v", back, err, b)
	}
}

// BenchmarkMarkChangesGrown measures MarkChanges on a board that grew by a
// column between the two moves (Raubritter's, 14 by 14 squares), which
// matches the squares by their names: a host marks every move's picture
// on its intake's goroutine.
func BenchmarkMarkChangesGrown(b *testing.B) {
	board := func(cols int, first byte) *Board {
		bd := &Board{Cols: cols, Rows: 14}
		for c := range cols {
			bd.ColNames = append(bd.ColNames, string(rune(first)+rune(c)))
		}
		for r := range 14 {
			bd.RowNames = append(bd.RowNames, strconv.Itoa(r+1))
			for c := range cols {
				cell := Cell{Fill: "plain", Owner: -1}
				if (r+c)%5 == 0 {
					cell.Pieces = []Piece{{Owner: (r + c) % 2, Letter: "a"}}
				}
				bd.Cells = append(bd.Cells, cell)
			}
		}
		return bd
	}
	before, after := board(13, 'b'), board(14, 'a')
	for b.Loop() {
		after.MarkChanges(before)
	}
}
