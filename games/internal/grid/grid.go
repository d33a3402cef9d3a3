// Package grid is the geometry of a board of squares separated by walls, as
// in both editions of Löwenherz: squares named by column letter and row
// number ("e5", row 1 at the top), the edges between orthogonal neighbours
// that may carry a wall, and the areas the walls cut the board into (flood
// fill across the edges without a wall; the board's frame always counts as
// a wall).
//
// It knows nothing of castles, knights, owners or scores: a game decides
// what an area is (a region with one castle, a neutral zone with none) from
// the areas this package returns. It is game-neutral so that games/lowenherz
// and games/lowenherz97 can share it.
//
// A Grid is a plain value with slices; Clone copies it. Nothing here
// allocates per call except Areas and the slices returned.
package grid

import (
	"fmt"
	"strconv"
	"strings"
)

// Square is a square's index, row by row from the top left: col + row*W.
type Square int

// Edge is the boundary between two orthogonally adjacent squares, A < B.
type Edge struct{ A, B Square }

// Grid is a board of W columns and H rows with walls on some edges.
type Grid struct {
	W, H  int
	right []bool // right[i]: a wall between i and the square east of it
	down  []bool // down[i]: a wall between i and the square south of it
	walls int    // how many are set
}

// New returns a w x h grid with no wall. It panics unless 1 <= w <= 26 and
// h >= 1, since squares are named by one letter.
func New(w, h int) *Grid {
	if w < 1 || w > 26 || h < 1 {
		panic(fmt.Sprintf("grid: bad size %dx%d", w, h))
	}
	edges := make([]bool, 2*w*h)
	return &Grid{W: w, H: h, right: edges[: w*h : w*h], down: edges[w*h:]}
}

// Clone returns an independent copy.
func (g *Grid) Clone() *Grid {
	c := *g
	n := len(g.right)
	edges := make([]bool, 2*n)
	copy(edges, g.right)
	copy(edges[n:], g.down)
	c.right, c.down = edges[:n:n], edges[n:]
	return &c
}

// CopyFrom makes g equal to o, which must have the same size, reusing g's
// memory.
func (g *Grid) CopyFrom(o *Grid) {
	copy(g.right, o.right)
	copy(g.down, o.down)
	g.walls = o.walls
}

// Len returns the number of squares.
func (g *Grid) Len() int { return g.W * g.H }

// At returns the square in column col and row row (0-based), and whether it
// is on the board.
func (g *Grid) At(col, row int) (Square, bool) {
	if col < 0 || row < 0 || col >= g.W || row >= g.H {
		return 0, false
	}
	return Square(row*g.W + col), true
}

// Col returns q's column, 0-based.
func (g *Grid) Col(q Square) int { return int(q) % g.W }

// Row returns q's row, 0-based.
func (g *Grid) Row(q Square) int { return int(q) / g.W }

// Name returns q's name: "e5".
func (g *Grid) Name(q Square) string {
	return string(rune('a'+g.Col(q))) + strconv.Itoa(g.Row(q)+1)
}

// Parse reads a square's name, "e5" or "E5". The error says, in English,
// what a square looks like and which exist.
func (g *Grid) Parse(s string) (Square, error) {
	t := strings.ToLower(s)
	if len(t) < 2 || t[0] < 'a' || t[0] > 'z' {
		return 0, fmt.Errorf("a square is a column letter then a row number, like e5")
	}
	n, err := strconv.Atoi(t[1:])
	if err != nil || t[1] == '+' || t[1] == '-' {
		return 0, fmt.Errorf("a square is a column letter then a row number, like e5")
	}
	q, ok := g.At(int(t[0]-'a'), n-1)
	if !ok {
		return 0, fmt.Errorf("%s is off the board: squares run from a1 to %s", t, g.Name(Square(g.Len()-1)))
	}
	return q, nil
}

// Neighbours appends to buf the squares orthogonally adjacent to q (north,
// west, east, south: a fixed order) and returns it.
func (g *Grid) Neighbours(buf []Square, q Square) []Square {
	c, r := g.Col(q), g.Row(q)
	if r > 0 {
		buf = append(buf, q-Square(g.W))
	}
	if c > 0 {
		buf = append(buf, q-1)
	}
	if c < g.W-1 {
		buf = append(buf, q+1)
	}
	if r < g.H-1 {
		buf = append(buf, q+Square(g.W))
	}
	return buf
}

// Adjacent reports whether a and b share an edge.
func (g *Grid) Adjacent(a, b Square) bool {
	_, ok := g.EdgeOf(a, b)
	return ok
}

// EdgeOf returns the edge between a and b, and whether they are adjacent.
func (g *Grid) EdgeOf(a, b Square) (Edge, bool) {
	if a > b {
		a, b = b, a
	}
	if a < 0 || int(b) >= g.Len() {
		return Edge{}, false
	}
	switch {
	case b == a+1 && g.Col(a) < g.W-1:
		return Edge{a, b}, true
	case b == a+Square(g.W):
		return Edge{a, b}, true
	}
	return Edge{}, false
}

func (g *Grid) slot(e Edge) *bool {
	if e.B == e.A+1 {
		return &g.right[e.A]
	}
	return &g.down[e.A]
}

// Wall reports whether a wall stands between adjacent a and b. Squares that
// are not adjacent are always separated.
func (g *Grid) Wall(a, b Square) bool {
	e, ok := g.EdgeOf(a, b)
	if !ok {
		return true
	}
	return *g.slot(e)
}

// WallOn reports whether a wall stands on e, an edge of EdgeOf (two
// adjacent squares, the smaller first): Wall(e.A, e.B) without looking
// for the edge, for a list of edges made once.
func (g *Grid) WallOn(e Edge) bool { return *g.slot(e) }

// Open reports whether one may pass from a to adjacent b: adjacent and no
// wall between.
func (g *Grid) Open(a, b Square) bool {
	e, ok := g.EdgeOf(a, b)
	return ok && !*g.slot(e)
}

// SetWall puts (on) or removes a wall on edge e.
func (g *Grid) SetWall(e Edge, on bool) {
	w := g.slot(e)
	if *w != on {
		if on {
			g.walls++
		} else {
			g.walls--
		}
		*w = on
	}
}

// MayCut reports whether a wall put on e could cut an area in two. It
// cannot when an end of e touches neither the frame nor another wall: the
// walls and the frame would then make no closed line through e. (It may
// still not cut when MayCut says it could.)
func (g *Grid) MayCut(e Edge) bool {
	c, r := g.Col(e.A), g.Row(e.A)
	if e.B == e.A+1 { // between columns c and c+1: ends at the corners (c+1, r) and (c+1, r+1)
		return g.cornerTouched(c+1, r, e) && g.cornerTouched(c+1, r+1, e)
	}
	// between rows r and r+1: ends at the corners (c, r+1) and (c+1, r+1)
	return g.cornerTouched(c, r+1, e) && g.cornerTouched(c+1, r+1, e)
}

// cornerTouched reports whether the corner at x, y (0 <= x <= W, 0 <= y <=
// H; the top left corner of square x, y) is on the frame or an end of a
// wall other than on e.
func (g *Grid) cornerTouched(x, y int, e Edge) bool {
	if x == 0 || y == 0 || x == g.W || y == g.H {
		return true
	}
	nw := Square((y-1)*g.W + x - 1) // the square above and left of the corner
	for _, w := range [4]Edge{{nw, nw + 1}, {nw + Square(g.W), nw + Square(g.W) + 1}, {nw, nw + Square(g.W)}, {nw + 1, nw + 1 + Square(g.W)}} {
		if w != e && *g.slot(w) {
			return true
		}
	}
	return false
}

// Walls returns every edge with a wall, in square order.
func (g *Grid) Walls() []Edge {
	var out []Edge
	for i := range g.right {
		q := Square(i)
		if g.right[i] {
			out = append(out, Edge{q, q + 1})
		}
		if g.down[i] {
			out = append(out, Edge{q, q + Square(g.W)})
		}
	}
	return out
}

// CountWalls returns the number of walls on the board.
func (g *Grid) CountWalls() int { return g.walls }

// EdgeName returns "e5-f5": the two squares, the first the lower index.
func (g *Grid) EdgeName(e Edge) string { return g.Name(e.A) + "-" + g.Name(e.B) }

// ParseEdge reads "e5-f5" or "e5 f5" (either order).
func (g *Grid) ParseEdge(s string) (Edge, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == ' ' || r == '/' || r == ',' })
	if len(f) != 2 {
		return Edge{}, fmt.Errorf("an edge is two adjacent squares, like e5-f5")
	}
	a, err := g.Parse(f[0])
	if err != nil {
		return Edge{}, err
	}
	b, err := g.Parse(f[1])
	if err != nil {
		return Edge{}, err
	}
	e, ok := g.EdgeOf(a, b)
	if !ok {
		return Edge{}, fmt.Errorf("%s and %s are not side by side", g.Name(a), g.Name(b))
	}
	return e, nil
}

// Areas labels every square with the number of its area: the squares
// reachable from it without crossing a wall. Areas are numbered 0, 1, ...
// in the order of their first square, so the labels depend only on the
// walls. It returns the labels (len Len()) and the number of areas; buf is
// reused when large enough.
func (g *Grid) Areas(buf []int) ([]int, int) {
	n := g.Len()
	if cap(buf) < n {
		buf = make([]int, n)
	}
	label := buf[:n]
	for i := range label {
		label[i] = -1
	}
	// A board of Löwenherz has 150 or 144 squares: the stack stays in
	// this frame unless a board is larger.
	var local [256]int
	stack := local[:0]
	w := g.W
	areas := 0
	for s := 0; s < n; s++ {
		if label[s] >= 0 {
			continue
		}
		label[s] = areas
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			c := q % w
			if q >= w && !g.down[q-w] && label[q-w] < 0 {
				label[q-w] = areas
				stack = append(stack, q-w)
			}
			if c > 0 && !g.right[q-1] && label[q-1] < 0 {
				label[q-1] = areas
				stack = append(stack, q-1)
			}
			if c < w-1 && !g.right[q] && label[q+1] < 0 {
				label[q+1] = areas
				stack = append(stack, q+1)
			}
			if q+w < n && !g.down[q] && label[q+w] < 0 {
				label[q+w] = areas
				stack = append(stack, q+w)
			}
		}
		areas++
	}
	return label, areas
}

// Reach returns the squares reachable from start by steps between
// adjacent squares with no wall between, where pass allows the square
// stepped onto (start is always in). The result is in the order found.
func (g *Grid) Reach(start Square, pass func(Square) bool) []Square {
	seen := make([]bool, g.Len())
	seen[start] = true
	out := []Square{start}
	var nb [4]Square
	for i := 0; i < len(out); i++ {
		for _, m := range g.Neighbours(nb[:0], out[i]) {
			if !seen[m] && g.Open(out[i], m) && pass(m) {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// Distance returns the number of orthogonal steps from a to b, walls
// ignored (the Manhattan distance).
func (g *Grid) Distance(a, b Square) int {
	dc := g.Col(a) - g.Col(b)
	dr := g.Row(a) - g.Row(b)
	return abs(dc) + abs(dr)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
