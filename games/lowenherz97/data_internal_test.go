package lowenherz97

import (
	"strings"
	"testing"
)

// TestDefaultMap checks the embedded basic map (ruling L97-1): 150
// squares, each start position a region of 4 squares around a castle with
// its knight, and the cards and political cards as the rulebook counts
// them (lowenherz-1997-fr.txt:31-67, 325-453).
func TestDefaultMap(t *testing.T) {
	m := DefaultMap
	if len(m.Terrain) != width*height || len(m.Start) != 4 {
		t.Fatalf("%d squares, %d start positions", len(m.Terrain), len(m.Start))
	}
	s := newEmpty(m, []string{"a", "b", "c", "d"}, m.Terrain)
	for c, st := range m.Start {
		for i := range st.Castles {
			s.castle[st.Castles[i]] = int8(c)
			s.knight[st.Knights[i]] = int8(c)
		}
		for _, e := range st.Walls {
			s.g.SetWall(e, true)
		}
	}
	s.dirty = true
	for c := range 4 {
		if n := s.regionCount(c); n != 1 {
			t.Errorf("colour %d starts with %d regions, want 1 (lowenherz-1997-fr.txt:76)", c, n)
		}
		l, _ := s.regionOf(m.Start[c].Castles[0])
		if _, ar := s.info(); ar[l].size != 4 || s.knightsIn(l, c) != 1 {
			t.Errorf("colour %d's region: %d squares, %d knights", c, ar[l].size, s.knightsIn(l, c))
		}
	}
	letters := map[byte]int{}
	special := map[byte]int{}
	for _, c := range actionCards {
		letters[c.Letter]++
		if c.Special != 0 {
			special[c.Letter]++
		}
	}
	if len(actionCards) != 31 || letters['A'] != 6 || letters['E'] != 4 || special['B'] != 1 || special['E'] != 1 || special['A'] != 0 {
		t.Errorf("action cards by letter %v, special %v", letters, special)
	}
	if len(politicalCards) != 13 || totalMoney != 110 {
		t.Errorf("%d political cards, %d ducats", len(politicalCards), totalMoney)
	}
}

// TestComposeTurns checks that a piece turned four times is itself and
// turned once is turned clockwise.
func TestComposeTurns(t *testing.T) {
	m := DefaultMap
	plain := composeMap(m.Pieces, m.Layout, nil)
	four := composeMap(m.Pieces, m.Layout, []int{4, 4, 4, 4, 4, 4})
	for i := range plain {
		if plain[i] != four[i] {
			t.Fatalf("four quarter turns change square %d", i)
		}
	}
	once := composeMap(m.Pieces, m.Layout, []int{1, 0, 0, 0, 0, 0})
	// Piece A's top-left square goes to its top-right corner, and that one
	// to the bottom-right.
	if once[piece-1] != plain[0] || once[(piece-1)*width+piece-1] != plain[piece-1] {
		t.Errorf("a quarter turn is not clockwise")
	}
}

// TestParseMapErrors checks that a bad map file is refused with a reason.
func TestParseMapErrors(t *testing.T) {
	good := string(defaultMapText)
	for _, tc := range []struct{ from, to, want string }{
		{`A: [".F...",`, `A: [".F..",`, "piece A row 1"},
		{`A: [".F...",`, `A: [".X...",`, "not one of . F H C"},
		{"castles: [a1, e3, h9]\n    knights: [a2, f3, h8]", "castles: [a1, e2, h9]\n    knights: [a2, f2, h8]", "less than 6 squares apart"},
		{"knights: [a2, f3, h8]", "knights: [a3, f3, h8]", "empty square beside its castle"},
		{"walls: [b1-c1,", "walls: [b1-d1,", "not side by side"},
		{"layout: [[A, B, C], [D, E, F]]", "layout: [[A, A, C], [D, E, F]]", "used twice"},
		{"\npieces:", "\ncolours:", "unknown name colours (the names here: pieces, layout, start)"},
	} {
		text := strings.Replace(good, tc.from, tc.to, 1)
		if text == good {
			t.Fatalf("%q is not in map.yaml", tc.from)
		}
		if _, err := ParseMap("test", []byte(text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s -> %s: error %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
}
