// Package picture draws a game's board as a picture: SVG for the web page
// and mail clients that show it, PNG for those that do not. A game fills a
// Board from the same state its ASCII board shows (the public view only:
// no hand, no sealed bid), and the package draws it the same way for every
// game: a grid of squares with their terrain (a faint grid where no tile
// lies yet), the walls and borders between squares, roads, neutral zones
// hatched, buildings, pieces side by side or as a stack (those below as
// bands, the top one a disc), all inside their square, in their owners'
// colours with the owners' letters on them; the squares and walls the
// last move changed in a dashed black and white frame (MarkChanges); then
// each player's colour, letter, score and whether they must act, a legend
// of swatches and lines, and the game's public status lines (Info).
//
// A Board's Lang puts the package's own words (whose turn, the points,
// the key of the last move's changes) in French; the game gives its
// words (keys, legend, Info) in that language too (adjudicator.PictureIn).
//
// Both drawings share one layout, in which text is measured at 7 pixels a
// character: the PNG draws Go Mono at that width, and the SVG gives each
// text that length (textLength), so that whatever face a browser picks,
// no text leaves its place or the picture.
//
// The players' colours are the Okabe–Ito palette, which people with the
// common colour blindnesses tell apart, every piece also carries its
// owner's letter, and whatever is no player's is drawn in the one Neutral
// colour. The output is deterministic: the same board gives the same
// bytes.
package picture

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/heraldgames/herald/notation"
)

// Board is what a picture shows.
type Board struct {
	Title    string   // the first line above the board: "G12 Raubritter, move 14"
	Status   string   // the second: "waiting for alice"
	Cols     int      // squares across
	Rows     int      // squares down
	ColNames []string // the names of the columns, as the notation writes them
	RowNames []string // the names of the rows
	Cells    []Cell   // Rows*Cols squares, row by row
	Walls    []Wall   // the walls and borders between squares
	Players  []Player // the legend, in seating order
	Unit     string   // what a score counts, when not points: "power"
	Keys     []Key    // the legend of the fills and marks, each with its swatch
	Legend   []string // what the labels and letters mean, a line each
	Info     []string // the public state below the board (market, deck, whose turn and what now), a line each
	// Lang is the language of the board's words: the game's (Keys,
	// Legend, Info, Unit, the players' notes, Status) and the package's
	// own ("to move", the points, the key of MarkChanges). English, the
	// zero value, is left out of its JSON.
	Lang notation.Lang `json:",omitempty"`
}

// tr picks the English or, on a board in French, the French of a word
// of the package's own.
func (b *Board) tr(en, fr string) string {
	if b.Lang == notation.French {
		return fr
	}
	return en
}

// Cell is one square. Its fields at their zero value are left out of its
// JSON (the outbox keeps a picture in each draft of a mail that shows it),
// and read back as they were.
type Cell struct {
	Fill    string  `json:",omitempty"` // its terrain, a key of Fills; "" for a square not on the board
	Label   string  `json:",omitempty"` // a short text drawn on it (a building: "c", "CITY")
	Owner   int     `json:",omitempty"` // the player whose colour frames it (a castle, a building), or -1
	Pieces  []Piece `json:",omitempty"` // the pieces on it, bottom to top
	Stack   bool    `json:",omitempty"` // the pieces are a stack, of which only the top one counts (Raubritter's knights)
	Roads   string  `json:",omitempty"` // the sides a road leaves it by: any of "nesw"
	Zone    bool    `json:",omitempty"` // a neutral zone: hatched
	Mark    bool    `json:",omitempty"` // a dot: a square where a piece or tile may go
	Await   bool    `json:",omitempty"` // a ring: a square awaiting pieces (a castle awaiting knights)
	Changed bool    `json:",omitempty"` // the last move changed it: a dashed black and white frame
}

// Piece is a piece on a square: a knight, a troop.
type Piece struct {
	Owner  int    // the player, an index of Board.Players; -1 for a neutral piece
	Letter string // the letter drawn on it, the owner's
}

// Wall is a wall or border on the east or south side of a square, or a
// road that crosses it. Like a Cell's, its zero fields are left out of its
// JSON.
type Wall struct {
	Row     int  `json:",omitempty"`
	Col     int  `json:",omitempty"`
	South   bool `json:",omitempty"` // on the south side; else the east side
	Owner   int  `json:",omitempty"` // the player whose colour it has, or -1 for a plain wall
	Road    bool `json:",omitempty"` // a road joining the two squares, not a wall between them
	Changed bool `json:",omitempty"` // the last move placed it: dashed
}

// Player is a line of the legend.
type Player struct {
	Name   string
	Letter string
	Score  int
	ToMove bool // they must act now (not one whose sealed step is in)
	Note   string
}

// Key is an entry of the legend: a swatch and what it means.
type Key struct {
	Swatch string // a key of Fills, or one of the marks: "road", "wall", "zone", "free", "await", "changed", "neutral"
	Text   string
}

// Fills are the colours of the terrains, light, so that the players'
// colours stand out on them, and far enough apart to be told apart
// (meadow from village, the king's city from silver and precious stones).
var Fills = map[string]string{
	"plain": "#e8e3c4", "forest": "#9dbf8a", "mountains": "#b9b2a6", "lake": "#a9cde0",
	"empty": "#f4f1e6", "hill": "#d8c79a", "city": "#e7b7b7", "water": "#a9cde0",
	"board": "#f4f1e6", "road": "#e2d7bd", "field": "#ede08e",
	"village": "#d9a86a", "gold": "#f2d230", "silver": "#d7dde6", "copper": "#c07a4f", "stones": "#a98fd0",
	"royal": "#f0b8d8",
}

// Colours are the players' colours in seating order (Okabe–Ito).
var Colours = []string{"#E69F00", "#0072B2", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"}

// Neutral is the one colour of every piece, wall and zone of no player,
// whatever the number of players.
const Neutral = "#555555"

func colourOf(owner int) string {
	if owner < 0 || owner >= len(Colours) {
		return Neutral
	}
	return Colours[owner]
}

// letterOn is the colour of a letter on a disc of colour c: white on the
// dark neutral, black on the players' colours.
func letterOn(c string) string {
	if c == Neutral {
		return "#ffffff"
	}
	return "#000000"
}

// The geometry, in pixels. Text is measured at charW a character, in a
// monospaced face: the PNG draws Go Mono at that width, and the SVG
// gives every text its length (textLength), so that a browser's face,
// whatever it is, fits the same box.
const (
	cellSize = 48
	margin   = 28 // around the grid, for the row and column names
	headH    = 44 // the title and status above
	lineH    = 16 // a line of text below the board
	charW    = 7
	minW     = 420
)

const (
	roadColour = "#8b5a2b"
	gridGrey   = "#8a8a8a"
	faint      = "#d0d0d0"
	dark       = "#333333"
)

func textW(s string) int { return charW * utf8.RuneCountInString(s) }

// keyW is the width a key of the legend takes, its swatch and a space.
func keyW(k Key) int { return 18 + textW(k.Text) + 14 }

// layout is where each part of the picture goes.
type layout struct {
	w, h     int
	ox, oy   int     // the grid's top left corner
	playersY int     // the baseline of the first player's line
	keyRows  [][]Key // the keys, as they flow into lines
	keysY    int
	legendY  int
	infoY    int
	info     []string // Info, wrapped
}

func (b *Board) layout() layout {
	b.Cols, b.Rows = max(b.Cols, 0), max(b.Rows, 0)
	l := layout{ox: margin, oy: headH + margin}
	for _, s := range b.Info {
		l.info = append(l.info, wrapLine(s, infoWidth)...)
	}
	w := max(margin*2+b.Cols*cellSize, minW)
	for _, t := range append(append([]string{b.Title, b.Status}, b.Legend...), l.info...) {
		w = max(w, 16+textW(t))
	}
	for _, p := range b.Players {
		w = max(w, 34+textW(b.playerLine(p))+8)
	}
	for _, k := range b.Keys {
		w = max(w, 8+keyW(k))
	}
	var row []Key
	x := 8
	for _, k := range b.Keys {
		if x+keyW(k) > w && len(row) > 0 {
			l.keyRows, row, x = append(l.keyRows, row), nil, 8
		}
		row = append(row, k)
		x += keyW(k)
	}
	if len(row) > 0 {
		l.keyRows = append(l.keyRows, row)
	}
	l.w = w
	l.playersY = l.oy + b.Rows*cellSize + margin
	l.keysY = l.playersY + lineH*len(b.Players) + 4
	l.legendY = l.keysY + 18*len(l.keyRows)
	l.infoY = l.legendY + lineH*len(b.Legend)
	if len(l.info) > 0 {
		l.infoY += 6
	}
	l.h = l.infoY + lineH*len(l.info) - 8
	return l
}

func (b *Board) size() (w, h int) {
	l := b.layout()
	return l.w, l.h
}

// playerLine is a player's line of the legend: "a alice: 3 points, 30
// knights left  <- to move".
func (b *Board) playerLine(p Player) string {
	s := p.Letter + " " + p.Name + b.tr(": ", " : ") + b.score(p.Score)
	if p.Note != "" {
		s += ", " + p.Note
	}
	if p.ToMove {
		s += b.tr("  \u2190 to move", "  \u2190 à jouer")
	}
	return s
}

func (b *Board) score(n int) string {
	switch {
	case b.Unit != "":
		return fmt.Sprintf("%d %s", n, b.Unit)
	case n == 1:
		return "1 point"
	}
	return fmt.Sprintf("%d points", n) // the same in French
}

// LegendText is the text of the legend, its keys and lines, which a game
// writes once for every board: what a check for private words in a
// picture may take as said by the game, not by a player's view.
func (b *Board) LegendText() string {
	var s []string
	for _, k := range b.Keys {
		s = append(s, k.Text)
	}
	return strings.Join(append(s, b.Legend...), "\n")
}

// The anchors of a text.
const (
	start = iota
	middle
	end
)

// canvas is what the picture is drawn on: an SVG document or a PNG
// image. Both draw the same shapes at the same places.
type canvas interface {
	rect(x, y, w, h int, fill string)
	frame(x, y, w, h, t int, colour string) // a frame t thick inside the box
	ants(x, y, w, h, t int)                 // a dashed black and white frame t thick inside the box
	disc(cx, cy, r int, fill string)        // with a black outline
	ring(cx, cy, r, t int, colour string)
	hatch(x, y, w, h int)
	text(x, y int, s string, anchor int, colour string, size int)
	hint(s string) // what the shapes drawn next show, in words (an SVG title)
}

// draw draws b on c.
func (b *Board) draw(c canvas, l layout) {
	c.text(8, 18, b.Title, start, "#000000", 14)
	c.text(8, 36, b.Status, start, "#000000", 12)
	ox, oy := l.ox, l.oy
	for col := 0; col < b.Cols && col < len(b.ColNames); col++ {
		c.text(ox+col*cellSize+cellSize/2, oy-8, b.ColNames[col], middle, "#000000", 12)
	}
	for r := 0; r < b.Rows && r < len(b.RowNames); r++ {
		c.text(ox-6, oy+r*cellSize+cellSize/2+4, b.RowNames[r], end, "#000000", 12)
	}
	for r := 0; r < b.Rows; r++ {
		for col := 0; col < b.Cols; col++ {
			b.drawCell(c, b.cell(r, col), ox+col*cellSize, oy+r*cellSize)
		}
	}
	for _, wl := range b.Walls {
		b.drawWall(c, ox, oy, wl)
	}
	for r := 0; r < b.Rows; r++ {
		for col := 0; col < b.Cols; col++ {
			if b.cell(r, col).Changed {
				c.ants(ox+col*cellSize, oy+r*cellSize, cellSize+1, cellSize+1, 3)
			}
		}
	}
	for i, p := range b.Players {
		y := l.playersY + i*lineH
		col := colourOf(i)
		c.disc(15, y-4, 7, col)
		c.text(15, y, p.Letter, middle, letterOn(col), 11)
		c.text(28, y, b.playerLine(p), start, "#000000", 12)
	}
	for i, row := range l.keyRows {
		y, x := l.keysY+i*18, 8
		for _, k := range row {
			drawSwatch(c, x, y-11, k.Swatch)
			c.text(x+18, y, k.Text, start, dark, 11)
			x += keyW(k)
		}
	}
	for i, s := range b.Legend {
		c.text(8, l.legendY+i*lineH, s, start, dark, 11)
	}
	for i, s := range l.info {
		c.text(8, l.infoY+i*lineH, s, start, "#000000", 11)
	}
}

func (b *Board) drawCell(c canvas, cell Cell, x, y int) {
	if cell.Fill == "" {
		c.frame(x+1, y+1, cellSize-1, cellSize-1, 1, faint)
		if cell.Mark {
			c.disc(x+cellSize/2, y+cellSize/2, 4, gridGrey)
		}
		if cell.Await {
			c.ring(x+cellSize/2, y+cellSize/2, 11, 2, "#000000")
		}
		return
	}
	c.rect(x, y, cellSize+1, cellSize+1, gridGrey)
	c.rect(x+1, y+1, cellSize-1, cellSize-1, fill(cell.Fill))
	if cell.Zone {
		c.hatch(x+1, y+1, cellSize-1, cellSize-1)
	}
	if cell.Owner >= 0 {
		c.frame(x+3, y+3, cellSize-5, cellSize-5, 3, colourOf(cell.Owner))
	}
	for _, side := range cell.Roads {
		cx, cy := x+cellSize/2, y+cellSize/2
		switch side {
		case 'n':
			c.rect(cx-3, y, 6, cellSize/2+3, roadColour)
		case 's':
			c.rect(cx-3, cy-3, 6, cellSize/2+4, roadColour)
		case 'w':
			c.rect(x, cy-3, cellSize/2+3, 6, roadColour)
		case 'e':
			c.rect(cx-3, cy-3, cellSize/2+4, 6, roadColour)
		}
	}
	if cell.Label != "" {
		// On a box of the terrain's colour, so that no road covers it.
		c.rect(x+5, y+6, textW(cell.Label)+2, 13, fill(cell.Fill))
		c.text(x+6, y+17, cell.Label, start, "#000000", 12)
	}
	if cell.Mark {
		c.disc(x+cellSize-8, y+8, 3, "#666666")
	}
	if cell.Await {
		c.ring(x+cellSize-16, y+cellSize-18, 11, 2, "#000000")
	}
	if len(cell.Pieces) == 0 {
		return
	}
	if cell.Stack {
		drawStack(c, cell.Pieces, x, y, b.tr("knights bottom to top: ", "chevaliers de bas en haut : "))
		return
	}
	for i, p := range cell.Pieces {
		px, py := pieceAt(x, y, i, len(cell.Pieces))
		col := colourOf(p.Owner)
		c.disc(px, py, 8, col)
		c.text(px, py+4, p.Letter, middle, letterOn(col), 11)
	}
}

// drawStack draws a stack of pieces in the bottom right of a square: the
// ones below as bands in their owners' colours, bottom to top, and the top
// one, which counts, as a disc with its letter on them. Five fit in the
// square. hint, followed by the letters bottom to top, says it in words.
func drawStack(c canvas, ps []Piece, x, y int, hint string) {
	var letters strings.Builder
	for _, p := range ps {
		letters.WriteString(p.Letter)
	}
	c.hint(hint + letters.String())
	n := len(ps)
	bottom := y + cellSize - 3
	band := max(3, min(6, (cellSize-24)/max(n-1, 1)))
	for j := 0; j < n-1; j++ {
		c.rect(x+19, bottom-band*(j+1)-1, 26, band+1, "#000000")
		c.rect(x+20, bottom-band*(j+1), 24, band-1, colourOf(ps[j].Owner))
	}
	top := ps[n-1]
	cy := bottom - band*(n-1) - 10
	col := colourOf(top.Owner)
	c.disc(x+32, cy, 10, col)
	c.text(x+32, cy+4, top.Letter, middle, letterOn(col), 12)
}

func (b *Board) drawWall(c canvas, ox, oy int, w Wall) {
	x, y := ox+w.Col*cellSize, oy+w.Row*cellSize
	if w.Road {
		cx, cy := x+cellSize/2, y+cellSize/2
		if w.South {
			c.rect(cx-3, cy+cellSize/4, 6, cellSize/2, roadColour)
		} else {
			c.rect(cx+cellSize/4, cy-3, cellSize/2, 6, roadColour)
		}
		return
	}
	bx, by, bw, bh := x+cellSize-2, y-2, 5, cellSize+5
	if w.South {
		bx, by, bw, bh = x-2, y+cellSize-2, cellSize+5, 5
	}
	c.rect(bx, by, bw, bh, colourOf(w.Owner))
	if w.Changed {
		c.ants(bx, by, bw, bh, 2)
	}
}

// drawSwatch draws the swatch of a key, 14 pixels square, at x, y.
func drawSwatch(c canvas, x, y int, swatch string) {
	switch swatch {
	case "road":
		c.rect(x, y, 14, 14, Fills["board"])
		c.rect(x+4, y, 6, 14, roadColour)
	case "wall":
		c.rect(x, y, 14, 14, Fills["board"])
		c.rect(x+5, y, 5, 14, Neutral)
	case "zone":
		c.rect(x, y, 14, 14, Fills["board"])
		c.hatch(x, y, 14, 14)
	case "free":
		c.frame(x, y, 14, 14, 1, faint)
		c.disc(x+7, y+7, 4, gridGrey)
	case "await":
		c.ring(x+7, y+7, 6, 2, "#000000")
	case "changed":
		c.ants(x, y, 14, 14, 3)
	case "neutral":
		c.disc(x+7, y+7, 6, Neutral)
	default:
		c.rect(x, y, 14, 14, gridGrey)
		c.rect(x+1, y+1, 12, 12, fill(swatch))
	}
}

func fill(key string) string {
	if f, ok := Fills[key]; ok {
		return f
	}
	return Fills["board"]
}

func (b *Board) cell(r, c int) Cell {
	i := r*b.Cols + c
	if i < 0 || i >= len(b.Cells) {
		return Cell{Owner: -1}
	}
	return b.Cells[i]
}

// pieceAt places piece i of n side by side on a square at x, y: a row
// along the bottom, left to right, all inside the square.
func pieceAt(x, y, i, n int) (int, int) {
	step := min(18, (cellSize-20)/max(n-1, 1))
	return x + 10 + i*step, y + cellSize - 12
}

// MarkChanges marks the squares and walls of b that differ from those of
// before, the same board one move earlier: what the move changed. Squares
// are matched by their names, so a board that grew between the two
// (Raubritter, Les Deux Héritiers) is compared square by square; the dots
// of the squares where a piece may go are not a change.
func (b *Board) MarkChanges(before *Board) {
	if before == nil {
		return
	}
	type at struct{ col, row string }
	name := func(bd *Board, r, c int) at {
		var a at
		if c < len(bd.ColNames) {
			a.col = bd.ColNames[c]
		}
		if r < len(bd.RowNames) {
			a.row = bd.RowNames[r]
		}
		return a
	}
	// A board that kept its size and names (the common case) is compared
	// square by square in place.
	same := before.Rows == b.Rows && before.Cols == b.Cols &&
		slices.Equal(before.ColNames, b.ColNames) && slices.Equal(before.RowNames, b.RowNames)
	// Otherwise a square is found in before by its column's and its row's
	// names: the last column and the last row of before so named, the
	// square a map from every square's name would hold.
	var wasCol, wasRow map[string]int
	if !same {
		wasCol, wasRow = make(map[string]int, before.Cols), make(map[string]int, before.Rows)
		for c := 0; c < before.Cols; c++ {
			wasCol[name(before, 0, c).col] = c
		}
		for r := 0; r < before.Rows; r++ {
			wasRow[name(before, r, 0).row] = r
		}
	}
	for r := 0; r < b.Rows; r++ {
		for c := 0; c < b.Cols; c++ {
			i := r*b.Cols + c
			if i >= len(b.Cells) {
				continue
			}
			now, old := b.Cells[i], Cell{}
			if same {
				old = before.cell(r, c)
			} else {
				a := name(b, r, c)
				wc, okc := wasCol[a.col]
				wr, okr := wasRow[a.row]
				if okc && okr {
					old = before.cell(wr, wc)
				}
			}
			if old.Fill == "" && len(old.Pieces) == 0 {
				old.Owner = -1
			}
			b.Cells[i].Changed = now.Fill != old.Fill || now.Label != old.Label || now.Owner != old.Owner ||
				!slices.Equal(now.Pieces, old.Pieces) || now.Roads != old.Roads || now.Zone != old.Zone || now.Await != old.Await
		}
	}
	type wallAt struct {
		a     at
		south bool
		owner int
		road  bool
	}
	walls := map[wallAt]bool{}
	for _, w := range before.Walls {
		walls[wallAt{name(before, w.Row, w.Col), w.South, w.Owner, w.Road}] = true
	}
	changed := false
	for i, w := range b.Walls {
		b.Walls[i].Changed = !walls[wallAt{name(b, w.Row, w.Col), w.South, w.Owner, w.Road}]
		changed = changed || b.Walls[i].Changed
	}
	for _, c := range b.Cells {
		changed = changed || c.Changed
	}
	if changed {
		b.Keys = append(b.Keys, Key{Swatch: "changed", Text: b.tr("changed by the last move", "changé par le dernier coup")})
	}
}

// SVG returns the picture as an SVG document.
func (b *Board) SVG() []byte {
	l := b.layout()
	s := &svgCanvas{}
	s.Grow(16 << 10)
	fmt.Fprintf(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n", l.w, l.h, l.w, l.h)
	fmt.Fprintf(s, "<defs><pattern id=\"zone\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"6\" fill=\"%s\"/></pattern></defs>\n", Neutral)
	s.rect(0, 0, l.w, l.h, "#ffffff")
	b.draw(s, l)
	s.WriteString("</svg>\n")
	return []byte(s.String())
}

// svgCanvas writes the shapes as SVG elements.
type svgCanvas struct {
	strings.Builder
	title string
}

func (s *svgCanvas) rect(x, y, w, h int, fill string) {
	fmt.Fprintf(s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x, y, w, h, fill)
}

func (s *svgCanvas) frame(x, y, w, h, t int, colour string) {
	fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"%d\"/>\n", half(2*x+t), half(2*y+t), w-t, h-t, colour, t)
}

func (s *svgCanvas) ants(x, y, w, h, t int) {
	fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"%d\"/>", half(2*x+t), half(2*y+t), w-t, h-t, t)
	fmt.Fprintf(s, "<rect x=\"%s\" y=\"%s\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000000\" stroke-width=\"%d\" stroke-dasharray=\"5 5\"/>\n", half(2*x+t), half(2*y+t), w-t, h-t, t)
}

// half writes n/2 with at most one decimal.
func half(n int) string {
	if n%2 == 0 {
		return strconv.Itoa(n / 2)
	}
	return strconv.Itoa(n/2) + ".5"
}

func (s *svgCanvas) disc(cx, cy, r int, fill string) {
	t := ""
	if s.title != "" {
		t, s.title = "<title>"+html.EscapeString(s.title)+"</title>", ""
		fmt.Fprintf(s, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" stroke=\"#000000\" stroke-width=\"1\">%s</circle>\n", cx, cy, r, fill, t)
		return
	}
	fmt.Fprintf(s, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" stroke=\"#000000\" stroke-width=\"1\"/>\n", cx, cy, r, fill)
}

func (s *svgCanvas) ring(cx, cy, r, t int, colour string) {
	fmt.Fprintf(s, "<circle cx=\"%d\" cy=\"%d\" r=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" stroke-dasharray=\"4 3\"/>\n", cx, cy, half(2*r-t), colour, t)
}

func (s *svgCanvas) hatch(x, y, w, h int) {
	fmt.Fprintf(s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#zone)\"/>\n", x, y, w, h)
}

func (s *svgCanvas) hint(t string) { s.title = t }

func (s *svgCanvas) text(x, y int, t string, anchor int, colour string, size int) {
	if t == "" {
		return
	}
	// The length is the PNG's, so that the text fits the box the layout
	// gave it in any browser's monospaced face.
	fmt.Fprintf(s, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\"", x, y, size, textW(t))
	switch anchor {
	case middle:
		s.WriteString(" text-anchor=\"middle\"")
	case end:
		s.WriteString(" text-anchor=\"end\"")
	}
	if colour != "#000000" {
		fmt.Fprintf(s, " fill=\"%s\"", colour)
	}
	s.WriteString(">")
	s.WriteString(html.EscapeString(t))
	s.WriteString("</text>\n")
}

// PNG returns the picture as a PNG image, drawn from the same board. It
// draws on a paletted image of the few colours the pictures use, which
// encodes several times faster than true colour, and smaller.
func (b *Board) PNG() ([]byte, error) {
	l := b.layout()
	pal, index := palette()
	// A new image is white already: white is the palette's first colour.
	p := &pngCanvas{img: image.NewPaletted(image.Rect(0, 0, l.w, l.h), pal), index: index}
	b.draw(p, l)
	if p.err != nil {
		return nil, p.err
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: encoders}
	if err := enc.Encode(&out, p.img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// pngCanvas draws the shapes on a paletted image.
type pngCanvas struct {
	img   *image.Paletted
	index map[string]uint8
	err   error // the first glyph that could not be drawn
}

func (p *pngCanvas) set(x, y int, c uint8) {
	if x >= 0 && y >= 0 && x < p.img.Rect.Max.X && y < p.img.Rect.Max.Y {
		p.img.Pix[y*p.img.Stride+x] = c
	}
}

func (p *pngCanvas) rect(x, y, w, h int, fill string) {
	c := p.index[fill]
	x0, y0 := max(x, 0), max(y, 0)
	x1, y1 := min(x+w, p.img.Rect.Max.X), min(y+h, p.img.Rect.Max.Y)
	for yy := y0; yy < y1; yy++ {
		row := p.img.Pix[yy*p.img.Stride:]
		for xx := x0; xx < x1; xx++ {
			row[xx] = c
		}
	}
}

func (p *pngCanvas) frame(x, y, w, h, t int, colour string) {
	p.rect(x, y, w, t, colour)
	p.rect(x, y+h-t, w, t, colour)
	p.rect(x, y, t, h, colour)
	p.rect(x+w-t, y, t, h, colour)
}

func (p *pngCanvas) ants(x, y, w, h, t int) {
	black, white := p.index["#000000"], p.index["#ffffff"]
	for yy := y; yy < y+h; yy++ {
		for xx := x; xx < x+w; xx++ {
			if xx >= x+t && xx < x+w-t && yy >= y+t && yy < y+h-t {
				continue
			}
			c := white
			if ((xx+yy)/5)%2 == 0 {
				c = black
			}
			p.set(xx, yy, c)
		}
	}
}

func (p *pngCanvas) disc(cx, cy, r int, fill string) {
	black, c := p.index["#000000"], p.index[fill]
	for dy := -r - 1; dy <= r+1; dy++ {
		for dx := -r - 1; dx <= r+1; dx++ {
			switch d := dx*dx + dy*dy; {
			case d <= r*r:
				p.set(cx+dx, cy+dy, c)
			case d <= (r+1)*(r+1):
				p.set(cx+dx, cy+dy, black)
			}
		}
	}
}

func (p *pngCanvas) ring(cx, cy, r, t int, colour string) {
	c := p.index[colour]
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			d := dx*dx + dy*dy
			// Dashed: by the octant-free angle measure of |dx| against |dy|.
			if d <= r*r && d > (r-t)*(r-t) && ((dx+r)/3+(dy+r)/3)%2 == 0 {
				p.set(cx+dx, cy+dy, c)
			}
		}
	}
}

func (p *pngCanvas) hatch(x, y, w, h int) {
	c := p.index[Neutral]
	for yy := y; yy < y+h; yy++ {
		for xx := x; xx < x+w; xx++ {
			if (xx-yy+1<<20)%6 < 2 {
				p.set(xx, yy, c)
			}
		}
	}
}

func (p *pngCanvas) hint(string) {}

// text draws s in one colour, without shades: a pixel the glyph covers
// at least half takes the colour. The palette has no shades of every
// colour on every fill, and crisp text reads better small. Every size is
// drawn at the face's one size, charW a character, as the layout measures.
func (p *pngCanvas) text(x, y int, s string, anchor int, colour string, _ int) {
	switch anchor {
	case middle:
		x -= textW(s) / 2
	case end:
		x -= textW(s)
	}
	c := p.index[colour]
	img := p.img
	for _, r := range s {
		g, err := glyphOf(r)
		if err != nil {
			p.err = cmp.Or(p.err, err)
			return
		}
		for _, px := range g.pix {
			if xx, yy := x+int(px[0]), y+int(px[1]); xx >= 0 && yy >= 0 && xx < img.Rect.Max.X && yy < img.Rect.Max.Y {
				img.Pix[yy*img.Stride+xx] = c
			}
		}
		x += g.adv
	}
}

// glyph is a character of the face, drawn once: the pixels it covers at
// least half, relative to the dot, and its advance. The face is
// monospaced, without kerning, and the dot always on a whole pixel, so a
// character is the same pixels wherever it is drawn.
type glyph struct {
	pix [][2]int8
	adv int
}

var glyphs struct {
	sync.Mutex
	face font.Face
	m    map[rune]*glyph
}

// glyphOf returns the glyph of r, or of '?' for a character the face lacks.
func glyphOf(r rune) (*glyph, error) {
	glyphs.Lock()
	defer glyphs.Unlock()
	if g, ok := glyphs.m[r]; ok {
		return g, nil
	}
	if glyphs.face == nil {
		f, err := newFace()
		if err != nil {
			return nil, err
		}
		glyphs.face, glyphs.m = f, map[rune]*glyph{}
	}
	dr, mask, mp, adv, ok := glyphs.face.Glyph(fixed.P(0, 0), r)
	if !ok {
		dr, mask, mp, adv, _ = glyphs.face.Glyph(fixed.P(0, 0), '?')
	}
	g := &glyph{adv: adv.Round()}
	for py := dr.Min.Y; py < dr.Max.Y; py++ {
		for px := dr.Min.X; px < dr.Max.X; px++ {
			if _, _, _, a := mask.At(mp.X+px-dr.Min.X, mp.Y+py-dr.Min.Y).RGBA(); a >= 0x5000 {
				g.pix = append(g.pix, [2]int8{int8(px), int8(py)})
			}
		}
	}
	glyphs.m[r] = g
	return g, nil
}

// encoders keeps the PNG encoders' buffers and compressors from one
// picture to the next: a new compressor costs more than drawing a board.
var encoders = &encoderPool{}

// encoderPool is a png.EncoderBufferPool on a sync.Pool.
type encoderPool struct{ p sync.Pool }

func (e *encoderPool) Get() *png.EncoderBuffer {
	b, _ := e.p.Get().(*png.EncoderBuffer)
	return b
}

func (e *encoderPool) Put(b *png.EncoderBuffer) { e.p.Put(b) }

// palette returns every colour the pictures use, and each one's index by
// its "#rrggbb" name.
func palette() (color.Palette, map[string]uint8) {
	names := []string{"#ffffff", "#000000", gridGrey, dark, Neutral, roadColour, faint, "#666666"}
	names = append(names, Colours...)
	for _, k := range slices.Sorted(maps.Keys(Fills)) {
		names = append(names, Fills[k])
	}
	var pal color.Palette
	index := map[string]uint8{}
	for _, n := range names {
		if _, ok := index[n]; ok {
			continue
		}
		index[n] = uint8(len(pal))
		pal = append(pal, hexColour(n))
	}
	return pal, index
}

// hexColour reads "#rrggbb".
func hexColour(s string) color.RGBA {
	var r, g, b uint8
	fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{r, g, b, 255}
}

// mono is Go Mono, parsed once: a monospaced face with the accented
// letters of the games' French names (Löwenherz, Les Deux Héritiers) and
// of players' names, which a bitmap face of ASCII alone draws as boxes.
var mono = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(gomono.TTF) })

// newFace returns a face of Go Mono 7 pixels wide and about 13 high, the
// size the layout is measured in. A face is for one goroutine: each
// picture gets its own.
func newFace() (font.Face, error) {
	f, err := mono()
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: 11.7, DPI: 72, Hinting: font.HintingFull})
}

// Lines returns the lines of text, a game's status below its ASCII board,
// but the empty ones and those that begin with one of skip (the lines of
// its legend and of its players, which the picture draws its own way):
// what a game gives as its Board's Info.
func Lines(text string, skip ...string) []string {
	var out []string
	for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		if strings.TrimSpace(line) == "" || slices.ContainsFunc(skip, func(p string) bool { return strings.HasPrefix(line, p) }) {
			continue
		}
		out = append(out, line)
	}
	return out
}

// infoWidth is the most characters of a line of Info drawn on one line;
// longer lines are wrapped at spaces, as in a mail.
const infoWidth = 72

// wrapLine breaks s at spaces into lines of at most width runes (unless
// one word is longer), the lines after the first indented by two spaces.
func wrapLine(s string, width int) []string {
	if utf8.RuneCountInString(s) <= width {
		return []string{s}
	}
	var out []string
	cur := ""
	for _, w := range strings.Split(s, " ") {
		switch {
		case strings.TrimSpace(cur) == "":
			cur += w
			if w == "" {
				cur += " "
			}
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) <= width:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = "  " + w
		}
	}
	return append(out, cur)
}
