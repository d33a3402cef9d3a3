package picture

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
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
