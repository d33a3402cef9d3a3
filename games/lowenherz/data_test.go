package lowenherz

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestBoardTotals: the embedded tiles give the totals of DATA-NOTES.md
// (RULINGS.md LH-15) whatever the layout, with the king's city in the
// centre tile.
func TestBoardTotals(t *testing.T) {
	for _, fixed := range []bool{true, false} {
		for seed := range 20 {
			b := DefaultData.Layout(adjudicator.NewRNG(string(rune('a'+seed))), fixed)
			count := map[Terrain]int{}
			for q, tr := range b {
				count[tr]++
				if tr == City {
					if r, c := Square(q).Row(), Square(q).Col(); r < 4 || r > 7 || c < 4 || c > 7 {
						t.Errorf("the king's city on %s, outside the centre tile", Square(q))
					}
				}
			}
			if count[City] != 1 || count[Village] != 10 || count[Gold] != 4 || count[Silver] != 4 || count[Copper] != 4 || count[Stones] != 4 {
				t.Fatalf("layout totals %v", count)
			}
			if count[Meadow]+count[Forest] != 117 {
				t.Fatalf("%d meadows and forests, want 117", count[Meadow]+count[Forest])
			}
		}
	}
}

// TestCardTable: 15 cards per letter, 60 in all (lowenherz-2003-fr.txt:240-285).
func TestCardTable(t *testing.T) {
	per := map[byte]int{}
	for _, c := range deckOrder {
		per[c.Letter]++
	}
	for _, l := range "ABCD" {
		if per[byte(l)] != 15 {
			t.Errorf("letter %c has %d cards", l, per[byte(l)])
		}
	}
	if got := (Card{'D', KnightsOrExtension}); got.Cost() != 8 || got.Sale() != 4 {
		t.Errorf("%s: cost %d, sale %d; want 8 and 4", got, got.Cost(), got.Sale())
	}
	if got := (Card{'A', Borders3}); got.Cost() != 6 || got.Sale() != 5 {
		t.Errorf("%s: cost %d, sale %d; want 6 and 5", got, got.Cost(), got.Sale())
	}
}

func TestRotate(t *testing.T) {
	tile := DefaultData.Tiles[1]
	if got := tile.rotate(4); got != tile {
		t.Errorf("four quarter turns change the tile")
	}
	r := tile.rotate(1)
	// The north-west square goes to the north-east.
	if r.Cells[3] != tile.Cells[0] {
		t.Errorf("a quarter turn clockwise moves a1 to d1: got %v, want %v", r.Cells[3], tile.Cells[0])
	}
}

func TestParseDataErrors(t *testing.T) {
	good := string(defaultTiles)
	for _, tc := range []struct {
		edit func(string) string
		want string
	}{
		{func(s string) string {
			return strings.Replace(s, "[.F.., FV.F, ..K., V.F.]", "[.F.., FV.F, ..., V.F.]", 1)
		}, `row 3: "..." is not 4 squares`},
		{func(s string) string { return strings.Replace(s, "..K.", "..X.", 1) }, `'X' is not a terrain`},
		{func(s string) string { return strings.Replace(s, "..K.", "....", 1) }, "one square of the king's city (K), not 0"},
		{func(s string) string {
			return strings.Replace(s, "  - name: copper-stones-2", "  - nom: x\n  - name: copper-stones-2", 1)
		}, "unknown name nom (the names here: name, rows)"},
		{func(s string) string { return s[:strings.Index(s, "  - name: copper-stones-2")] }, "nine tiles, not 8"},
	} {
		_, err := ParseData("t.yaml", []byte(tc.edit(good)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// TestHelpWidth: the mail help fits 72 columns.
func TestHelpWidth(t *testing.T) {
	for _, h := range []string{Game.Help, Game.HelpFR} {
		for _, line := range strings.Split(h, "\n") {
			if n := len([]rune(line)); n > 72 {
				t.Errorf("help line of %d columns: %q", n, line)
			}
		}
	}
}

// TestHelpExamples: every step the help shows is read by Parse.
func TestHelpExamples(t *testing.T) {
	s := testState(t)
	p := s.names[s.turn]
	for _, h := range []string{Game.Help, Game.HelpFR} {
		for _, line := range strings.Split(h, "\n") {
			step, ok := strings.CutPrefix(line, "  ")
			if !ok {
				continue
			}
			if i := strings.Index(step, "   "); i > 0 {
				step = step[:i]
			}
			if _, err := parseText(s, p, strings.TrimSpace(step)); err != nil {
				t.Errorf("help example %q: %v", step, err)
			}
		}
	}
}
