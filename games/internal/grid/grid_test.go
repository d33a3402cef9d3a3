package grid

import (
	"slices"
	"testing"
)

func TestNames(t *testing.T) {
	g := New(15, 10)
	for _, tc := range []struct {
		in   string
		want string
		err  bool
	}{
		{"a1", "a1", false}, {"E5", "e5", false}, {"o10", "o10", false},
		{"p1", "", true}, {"a11", "", true}, {"a0", "", true}, {"5e", "", true}, {"e", "", true}, {"e+5", "", true},
	} {
		q, err := g.Parse(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("Parse(%q) error = %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if err == nil && g.Name(q) != tc.want {
			t.Errorf("Name(Parse(%q)) = %s, want %s", tc.in, g.Name(q), tc.want)
		}
	}
}

func TestEdges(t *testing.T) {
	g := New(3, 3)
	a, _ := g.Parse("c1")
	b, _ := g.Parse("a2")
	if g.Adjacent(a, b) {
		t.Errorf("c1 and a2 (wrapping a row) are adjacent")
	}
	e, err := g.ParseEdge("b2-b1")
	if err != nil || g.EdgeName(e) != "b1-b2" {
		t.Fatalf("ParseEdge(b2-b1) = %v, %v; want b1-b2", g.EdgeName(e), err)
	}
	if _, err := g.ParseEdge("a1 c1"); err == nil {
		t.Errorf("ParseEdge(a1 c1) accepted two squares apart")
	}
	g.SetWall(e, true)
	if !g.Wall(e.A, e.B) || g.Open(e.B, e.A) || g.CountWalls() != 1 {
		t.Errorf("wall b1-b2 not set")
	}
	if got := g.Walls(); len(got) != 1 || got[0] != e {
		t.Errorf("Walls() = %v", got)
	}
	var nb []Square
	if got := len(g.Neighbours(nb, 0)); got != 2 {
		t.Errorf("a1 has %d neighbours, want 2", got)
	}
}

// TestAreas cuts a 4x3 board with a wall line into two areas, and checks
// that a dangling wall does not cut anything.
func TestAreas(t *testing.T) {
	g := New(4, 3)
	for _, s := range []string{"b1-c1", "b2-c2", "b3-c3", "a1-a2"} {
		e, err := g.ParseEdge(s)
		if err != nil {
			t.Fatal(err)
		}
		g.SetWall(e, true)
	}
	label, n := g.Areas(nil)
	if n != 2 {
		t.Fatalf("%d areas, want 2", n)
	}
	left := []string{"a1", "b1", "a2", "b2", "a3", "b3"}
	for q := range g.Len() {
		in := slices.Contains(left, g.Name(Square(q)))
		if (label[q] == 0) != in {
			t.Errorf("%s in area %d", g.Name(Square(q)), label[q])
		}
	}
	c := g.Clone()
	e, _ := g.ParseEdge("b2-c2")
	c.SetWall(e, false)
	if _, n := c.Areas(nil); n != 1 {
		t.Errorf("with a gap: %d areas, want 1", n)
	}
	if _, n := g.Areas(nil); n != 2 {
		t.Errorf("Clone shares walls with the original")
	}
	a1, _ := g.Parse("a1")
	if got := len(g.Reach(a1, func(Square) bool { return true })); got != 6 {
		t.Errorf("Reach from a1 = %d squares, want 6", got)
	}
	d3, _ := g.Parse("d3")
	if got := g.Distance(a1, d3); got != 5 {
		t.Errorf("Distance(a1, d3) = %d, want 5", got)
	}
}

func FuzzParseEdge(f *testing.F) {
	for _, s := range []string{"e5-f5", "a1 a2", "o10/n10", "zz", "a1-a1", "e5-"} {
		f.Add(s)
	}
	g := New(15, 10)
	f.Fuzz(func(t *testing.T, s string) {
		e, err := g.ParseEdge(s)
		if err != nil {
			return
		}
		back, err := g.ParseEdge(g.EdgeName(e))
		if err != nil || back != e {
			t.Fatalf("%q -> %s -> %v, %v", s, g.EdgeName(e), back, err)
		}
	})
}

// TestMayCut puts walls at random, one at a time, and checks that each
// wall MayCut says cannot cut leaves the areas as they were, and that it
// says so of a lone wall and not of a wall closing a square.
func TestMayCut(t *testing.T) {
	g := New(6, 5)
	e, _ := g.ParseEdge("c3-d3")
	if g.MayCut(e) {
		t.Errorf("a lone wall c3-d3 may cut")
	}
	for _, w := range []string{"c2-c3", "c3-c4", "b3-c3"} {
		we, _ := g.ParseEdge(w)
		g.SetWall(we, true)
	}
	if !g.MayCut(e) {
		t.Errorf("c3-d3, closing c3, cannot cut")
	}
	// A fixed pseudo-random order of every edge, walled one after another.
	var edges []Edge
	for q := range Square(g.Len()) {
		for _, n := range []Square{q + 1, q + Square(g.W)} {
			if e, ok := g.EdgeOf(q, n); ok {
				edges = append(edges, e)
			}
		}
	}
	for seed := range 50 {
		g := New(6, 5)
		x := uint32(seed*7919 + 1)
		order := slices.Clone(edges)
		for i := len(order) - 1; i > 0; i-- {
			x = x*1664525 + 1013904223
			j := int(x>>16) % (i + 1)
			order[i], order[j] = order[j], order[i]
		}
		cuts, free := 0, 0
		for _, e := range order {
			before, _ := g.Areas(nil)
			may := g.MayCut(e)
			g.SetWall(e, true)
			after, _ := g.Areas(nil)
			if !may && !slices.Equal(before, after) {
				t.Fatalf("seed %d: %s cut an area though MayCut said it could not", seed, g.EdgeName(e))
			}
			if !slices.Equal(before, after) {
				cuts++
			}
			if !may {
				free++
			}
		}
		if free == 0 {
			t.Errorf("seed %d: MayCut never said a wall could not cut", seed)
		}
		if cuts != g.Len()-1 {
			t.Fatalf("seed %d: %d cuts walling every edge, want %d", seed, cuts, g.Len()-1)
		}
	}
}
