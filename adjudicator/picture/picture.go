// Package picture draws a game's board as a picture: SVG for the web page
// and mail clients that show it, PNG for those that do not. A game fills a
// Board from the same state its ASCII board shows (the public view only:
// no hand, no sealed bid), and the package draws it the same way for every
// game: a grid of squares with their terrain, the walls and borders
// between squares, buildings and stacks of pieces in their owners'
// colours with the owners' letters on them, and a legend with each
// player's colour, letter, score and whose turn it is.
//
// The players' colours are the Okabe–Ito palette, which people with the
// common colour blindnesses tell apart, and every piece also carries its
// owner's letter. The output is deterministic: the same board gives the
// same bytes.
package picture

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
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
	Legend   []string // what the fills and labels mean, a line each
}

// Cell is one square.
type Cell struct {
	Fill   string  // its terrain, a key of Fills; "" for a square not on the board
	Label  string  // a short text drawn on it (a building: "c", "CITY")
	Owner  int     // the player whose colour frames it (a castle, a building), or -1
	Pieces []Piece // the pieces on it, bottom to top
	Mark   bool    // a dot: a square where a piece or tile may go
}

// Piece is a piece on a square: a knight, a troop.
type Piece struct {
	Owner  int    // the player, an index of Board.Players; -1 for a neutral piece
	Letter string // the letter drawn on it, the owner's
}

// Wall is a wall or border on the east or south side of a square, or a
// road that crosses it.
type Wall struct {
	Row, Col int
	South    bool // on the south side; else the east side
	Owner    int  // the player whose colour it has, or -1 for a plain wall
	Road     bool // a road joining the two squares, not a wall between them
}

// Player is a line of the legend.
type Player struct {
	Name   string
	Letter string
	Score  int
	ToMove bool
	Note   string // more about them: "30 knights left"
}

// Fills are the colours of the terrains, light, so that the players'
// colours stand out on them.
var Fills = map[string]string{
	"plain": "#e8e3c4", "forest": "#9dbf8a", "mountains": "#b9b2a6", "lake": "#a9cde0",
	"empty": "#f4f1e6", "hill": "#d8c79a", "city": "#d3cfe0", "water": "#a9cde0",
	"board": "#f4f1e6", "road": "#e2d7bd", "field": "#e8e3c4",
	"village": "#e2cfa5", "gold": "#e8d36a", "silver": "#c9ccd1", "copper": "#d9a27c", "stones": "#c7b3d9",
}

// Colours are the players' colours in seating order (Okabe–Ito), and the
// neutral colour last.
var Colours = []string{"#E69F00", "#0072B2", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"}

// neutral is the colour of a piece or wall of no player.
const neutral = "#555555"

func colourOf(owner int) string {
	if owner < 0 || owner >= len(Colours) {
		return neutral
	}
	return Colours[owner]
}

// The geometry, in pixels.
const (
	cellSize = 48
	margin   = 28 // around the grid, for the row and column names
	headH    = 44 // the title and status above
	lineH    = 16 // a line of the legend
)

func (b *Board) size() (w, h int) {
	b.Cols, b.Rows = max(b.Cols, 0), max(b.Rows, 0)
	w = margin*2 + b.Cols*cellSize
	w = max(w, 420)
	for _, l := range append(slices.Clone(b.Legend), b.Title, b.Status) {
		w = max(w, 16+7*utf8.RuneCountInString(l))
	}
	for _, p := range b.Players {
		w = max(w, 40+7*utf8.RuneCountInString(p.Name+p.Note)+120)
	}
	h = headH + margin*2 + b.Rows*cellSize + lineH*(len(b.Players)+len(b.Legend)+1)
	return w, h
}

// SVG returns the picture as an SVG document.
func (b *Board) SVG() []byte {
	w, h := b.size()
	var s strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, monospace\">\n", w, h, w, h)
	fmt.Fprintf(&s, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h)
	fmt.Fprintf(&s, "<text x=\"8\" y=\"18\" font-size=\"15\" font-weight=\"bold\">%s</text>\n", e(b.Title))
	fmt.Fprintf(&s, "<text x=\"8\" y=\"36\" font-size=\"13\">%s</text>\n", e(b.Status))
	ox, oy := margin, headH+margin
	for c := 0; c < b.Cols && c < len(b.ColNames); c++ {
		fmt.Fprintf(&s, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n", ox+c*cellSize+cellSize/2, oy-8, e(b.ColNames[c]))
	}
	for r := 0; r < b.Rows && r < len(b.RowNames); r++ {
		fmt.Fprintf(&s, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">%s</text>\n", ox-6, oy+r*cellSize+cellSize/2+4, e(b.RowNames[r]))
	}
	for r := 0; r < b.Rows; r++ {
		for c := 0; c < b.Cols; c++ {
			cell := b.cell(r, c)
			x, y := ox+c*cellSize, oy+r*cellSize
			if cell.Fill == "" {
				if cell.Mark {
					fmt.Fprintf(&s, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"#999999\"/>\n", x+cellSize/2, y+cellSize/2)
				}
				continue
			}
			fmt.Fprintf(&s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#8a8a8a\" stroke-width=\"1\"/>\n", x, y, cellSize, cellSize, fill(cell.Fill))
			if cell.Owner >= 0 {
				fmt.Fprintf(&s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\"/>\n", x+3, y+3, cellSize-6, cellSize-6, colourOf(cell.Owner))
			}
			if cell.Label != "" {
				fmt.Fprintf(&s, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n", x+6, y+16, e(cell.Label))
			}
			if cell.Mark {
				fmt.Fprintf(&s, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"#666666\"/>\n", x+cellSize-8, y+8)
			}
			for i, p := range cell.Pieces {
				px, py := pieceAt(x, y, i, len(cell.Pieces))
				fmt.Fprintf(&s, "<circle cx=\"%d\" cy=\"%d\" r=\"8\" fill=\"%s\" stroke=\"#000000\" stroke-width=\"1\"/>", px, py, colourOf(p.Owner))
				fmt.Fprintf(&s, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" fill=\"#000000\">%s</text>\n", px, py+4, e(p.Letter))
			}
		}
	}
	for _, wl := range b.Walls {
		if wl.Road {
			x, y, rw, rh := roadRect(ox, oy, wl)
			fmt.Fprintf(&s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x, y, rw, rh, roadColour)
			continue
		}
		x1, y1, x2, y2 := wallLine(ox, oy, wl)
		fmt.Fprintf(&s, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"5\" stroke-linecap=\"square\"/>\n", x1, y1, x2, y2, colourOf(wl.Owner))
	}
	y := oy + b.Rows*cellSize + margin
	for i, p := range b.Players {
		turn := ""
		if p.ToMove {
			turn = "  to move"
		}
		fmt.Fprintf(&s, "<circle cx=\"14\" cy=\"%d\" r=\"6\" fill=\"%s\" stroke=\"#000000\"/>", y+i*lineH-4, colourOf(i))
		fmt.Fprintf(&s, "<text x=\"26\" y=\"%d\" font-size=\"12\">%s %s: %s%s%s</text>\n", y+i*lineH, e(p.Letter), e(p.Name), points(p.Score), e(noteOf(p)), turn)
	}
	y += len(b.Players) * lineH
	for i, l := range b.Legend {
		fmt.Fprintf(&s, "<text x=\"8\" y=\"%d\" font-size=\"11\" fill=\"#333333\">%s</text>\n", y+i*lineH, e(l))
	}
	s.WriteString("</svg>\n")
	return []byte(s.String())
}

func points(n int) string {
	if n == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%d points", n)
}

func noteOf(p Player) string {
	if p.Note == "" {
		return ""
	}
	return ", " + p.Note
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

// pieceAt places piece i of n on a square at x, y: a row along the
// bottom, bottom to top left to right.
func pieceAt(x, y, i, n int) (int, int) {
	step := min(18, (cellSize-12)/max(n-1, 1))
	return x + 10 + i*step, y + cellSize - 12
}

// roadColour is the colour of roads.
const roadColour = "#8b5a2b"

// roadRect is a road across the side of a square: a short bar from the
// middle of one square to the middle of the next.
func roadRect(ox, oy int, w Wall) (x, y, width, height int) {
	cx, cy := ox+w.Col*cellSize+cellSize/2, oy+w.Row*cellSize+cellSize/2
	if w.South {
		return cx - 3, cy + cellSize/4, 6, cellSize / 2
	}
	return cx + cellSize/4, cy - 3, cellSize / 2, 6
}

func wallLine(ox, oy int, w Wall) (x1, y1, x2, y2 int) {
	x, y := ox+w.Col*cellSize, oy+w.Row*cellSize
	if w.South {
		return x, y + cellSize, x + cellSize, y + cellSize
	}
	return x + cellSize, y, x + cellSize, y + cellSize
}

// PNG returns the picture as a PNG image, drawn from the same board. It
// draws on a paletted image of the few colours the pictures use, which
// encodes several times faster than true colour, and smaller.
func (b *Board) PNG() ([]byte, error) {
	w, h := b.size()
	pal, index := palette()
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	if white := index["#ffffff"]; white != 0 { // 0 is: a new image is white already
		for i := range img.Pix {
			img.Pix[i] = white
		}
	}
	rect := func(x0, y0, x1, y1 int, c uint8) {
		x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
		for y := y0; y < y1; y++ {
			row := img.Pix[y*img.Stride:]
			for x := x0; x < x1; x++ {
				row[x] = c
			}
		}
	}
	frame := func(x0, y0, x1, y1, t int, c uint8) {
		rect(x0, y0, x1, y0+t, c)
		rect(x0, y1-t, x1, y1, c)
		rect(x0, y0, x0+t, y1, c)
		rect(x1-t, y0, x1, y1, c)
	}
	disc := func(cx, cy, r int, c uint8) {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if x, y := cx+dx, cy+dy; dx*dx+dy*dy <= r*r && x >= 0 && y >= 0 && x < w && y < h {
					img.Pix[y*img.Stride+x] = c
				}
			}
		}
	}
	face, err := newFace()
	if err != nil {
		return nil, err
	}
	defer face.Close()
	// Text is drawn in one colour, without shades: a pixel the glyph
	// covers at least half takes the colour. The palette has no shades of
	// every colour on every fill, and crisp text reads better small.
	text := func(x, y int, s string, c uint8) {
		dot := fixed.P(x, y)
		prev := rune(-1)
		for _, r := range s {
			if prev >= 0 {
				dot.X += face.Kern(prev, r)
			}
			dr, mask, mp, adv, ok := face.Glyph(dot, r)
			if !ok {
				dr, mask, mp, adv, _ = face.Glyph(dot, '?')
			}
			dr = dr.Intersect(img.Rect)
			for py := dr.Min.Y; py < dr.Max.Y; py++ {
				for px := dr.Min.X; px < dr.Max.X; px++ {
					if _, _, _, a := mask.At(mp.X+px-dr.Min.X, mp.Y+py-dr.Min.Y).RGBA(); a >= 0x5000 {
						img.Pix[py*img.Stride+px] = c
					}
				}
			}
			dot.X += adv
			prev = r
		}
	}
	col := func(hex string) uint8 { return index[hex] }
	black, grey, dark := col("#000000"), col("#8a8a8a"), col("#333333")
	text(8, 18, b.Title, black)
	text(8, 36, b.Status, black)
	ox, oy := margin, headH+margin
	for c := 0; c < b.Cols && c < len(b.ColNames); c++ {
		text(ox+c*cellSize+cellSize/2-3, oy-8, b.ColNames[c], black)
	}
	for r := 0; r < b.Rows && r < len(b.RowNames); r++ {
		text(ox-6-7*len(b.RowNames[r]), oy+r*cellSize+cellSize/2+4, b.RowNames[r], black)
	}
	for r := 0; r < b.Rows; r++ {
		for c := 0; c < b.Cols; c++ {
			cell := b.cell(r, c)
			x, y := ox+c*cellSize, oy+r*cellSize
			if cell.Fill == "" {
				if cell.Mark {
					disc(x+cellSize/2, y+cellSize/2, 3, grey)
				}
				continue
			}
			rect(x, y, x+cellSize, y+cellSize, col(fill(cell.Fill)))
			frame(x, y, x+cellSize+1, y+cellSize+1, 1, grey)
			if cell.Owner >= 0 {
				frame(x+3, y+3, x+cellSize-2, y+cellSize-2, 3, col(colourOf(cell.Owner)))
			}
			if cell.Label != "" {
				text(x+6, y+17, cell.Label, black)
			}
			if cell.Mark {
				disc(x+cellSize-8, y+8, 3, grey)
			}
			for i, p := range cell.Pieces {
				px, py := pieceAt(x, y, i, len(cell.Pieces))
				disc(px, py, 9, black)
				disc(px, py, 8, col(colourOf(p.Owner)))
				text(px-3, py+4, p.Letter, black)
			}
		}
	}
	for _, wl := range b.Walls {
		if wl.Road {
			x, y, rw, rh := roadRect(ox, oy, wl)
			rect(x, y, x+rw, y+rh, col(roadColour))
			continue
		}
		x1, y1, x2, y2 := wallLine(ox, oy, wl)
		rect(min(x1, x2)-2, min(y1, y2)-2, max(x1, x2)+3, max(y1, y2)+3, col(colourOf(wl.Owner)))
	}
	y := oy + b.Rows*cellSize + margin
	for i, p := range b.Players {
		disc(14, y+i*lineH-4, 7, black)
		disc(14, y+i*lineH-4, 6, col(colourOf(i)))
		turn := ""
		if p.ToMove {
			turn = "  to move"
		}
		text(26, y+i*lineH, fmt.Sprintf("%s %s: %s%s%s", p.Letter, p.Name, points(p.Score), noteOf(p), turn), black)
	}
	y += len(b.Players) * lineH
	for i, l := range b.Legend {
		text(8, y+i*lineH, l, dark)
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: encoders}
	if err := enc.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
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
	names := []string{"#ffffff", "#000000", "#8a8a8a", "#333333", neutral, roadColour}
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
