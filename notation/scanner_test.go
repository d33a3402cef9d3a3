package notation_test

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

var (
	terrain = notation.Noun{EN: "terrain", FR: "terrain"}
	step    = notation.Noun{EN: "step", FR: "étape", Feminine: true}
)

// scan returns a scanner on the only step of src.
func scan(t *testing.T, src string) *notation.Scanner {
	t.Helper()
	steps, errs := notation.Split(src)
	if len(errs) > 0 || len(steps) != 1 {
		t.Fatalf("Split(%q) = %d steps, %v; want one step", src, len(steps), errs)
	}
	return notation.NewScanner(steps[0])
}

func TestScannerWalk(t *testing.T) {
	s := scan(t, "knights east 1, 2")
	if s.Step().Text != "knights east 1, 2" {
		t.Errorf("Step().Text = %q", s.Step().Text)
	}
	tok, ok := s.Peek()
	if !ok || tok.Text != "knights" {
		t.Fatalf("Peek() = %v, %v; want knights", tok, ok)
	}
	if tok2, _ := s.Peek(); tok2 != tok {
		t.Errorf("Peek() twice = %v then %v", tok, tok2)
	}
	if tok, ok := s.Next(); !ok || tok.Text != "knights" {
		t.Errorf("Next() = %v, %v; want knights", tok, ok)
	}
	if _, ok := s.Keyword(terrains); ok {
		t.Error(`Keyword(terrains) read "east"`)
	}
	if tok, _ := s.Next(); tok.Text != "east" {
		t.Errorf("Next() = %v; want east", tok)
	}
	if n, _, ok := s.Number(); !ok || n != 1 {
		t.Errorf("Number() = %d, %v; want 1", n, ok)
	}
	if s.Punct(";") {
		t.Error(`Punct(";") read ","`)
	}
	if !s.Punct(",") {
		t.Error(`Punct(",") did not read ","`)
	}
	if _, _, ok := s.Number(); !ok {
		t.Error("Number() did not read 2")
	}
	if !s.Done() {
		t.Error("Done() = false at the end")
	}
	if _, ok := s.Next(); ok {
		t.Error("Next() at the end: ok")
	}
	if _, ok := s.Peek(); ok {
		t.Error("Peek() at the end: ok")
	}
	if s.Punct(",") {
		t.Error("Punct at the end: ok")
	}
	if _, _, ok := s.Number(); ok {
		t.Error("Number at the end: ok")
	}
	if err := s.ExpectEnd(); err != nil {
		t.Errorf("ExpectEnd() at the end = %v", err)
	}
}

func TestScannerNumber(t *testing.T) {
	tests := []struct {
		src  string
		n    int
		ok   bool
		text string // the token returned
	}{
		{"7", 7, true, "7"},
		{"007", 7, true, "007"},
		{"1000000", 1_000_000, true, "1000000"},
		{"1000001", 0, false, "1000001"},
		{"99999999999999999999999", 0, false, "99999999999999999999999"},
		{"e5", 0, false, "e5"},
		{",", 0, false, ","},
	}
	for _, tt := range tests {
		s := scan(t, tt.src)
		n, tok, ok := s.Number()
		if n != tt.n || ok != tt.ok || tok.Text != tt.text {
			t.Errorf("Number() on %q = %d, %q, %v; want %d, %q, %v", tt.src, n, tok.Text, ok, tt.n, tt.text, tt.ok)
		}
		if s.Done() == !ok {
			t.Errorf("Number() on %q: Done() = %v after ok = %v", tt.src, s.Done(), ok)
		}
	}
}

func TestScannerKeywordLang(t *testing.T) {
	tests := []struct {
		src  string
		v    notation.Vocabulary
		name string
		lang notation.Lang // of the step after reading
	}{
		{"forest", terrains, "forest", notation.English},
		{"Forêt", terrains, "forest", notation.French},
		{"foret", terrains, "forest", notation.French},
		{"village", buildings, "village", notation.English}, // shared word
		{"chateau-fort", buildings, "castle", notation.French},
	}
	for _, tt := range tests {
		s := scan(t, tt.src)
		name, ok := s.Keyword(tt.v)
		if !ok || name != tt.name {
			t.Errorf("Keyword on %q = %q, %v; want %q", tt.src, name, ok, tt.name)
		}
		if got := s.Step().Lang; got != tt.lang {
			t.Errorf("after %q, Step().Lang = %v, want %v", tt.src, got, tt.lang)
		}
	}
	// A French word marks the step; a later shared or English word does not
	// switch it back.
	s := scan(t, "château village forest")
	for range 3 {
		if _, ok := s.Keyword(append(terrains, buildings...)); !ok {
			t.Fatal("Keyword failed")
		}
	}
	if s.Step().Lang != notation.French {
		t.Errorf("Lang = %v after château village forest, want fr", s.Step().Lang)
	}
	// The step's language is that of most of its keywords spelt in one
	// language only, the first of them on a tie: an English step with a
	// French word in it ("knights est 2 1", found by hand over real mail)
	// stays English.
	for _, tt := range []struct {
		src  string
		lang notation.Lang
	}{
		{"forest château", notation.English},
		{"forest village château", notation.English},
		{"forest château chateau-fort", notation.French},
		{"foret castle village", notation.French},
		{"village village", notation.English},
	} {
		s := scan(t, tt.src)
		for range len(strings.Fields(tt.src)) {
			if _, ok := s.Keyword(append(terrains, buildings...)); !ok {
				t.Fatalf("Keyword failed in %q", tt.src)
			}
		}
		if s.Step().Lang != tt.lang {
			t.Errorf("Lang = %v after %q, want %v", s.Step().Lang, tt.src, tt.lang)
		}
	}
	// A number is never a keyword, even if a term is spelt like it.
	s = scan(t, "3")
	if _, ok := s.Keyword(notation.Vocabulary{{Name: "3"}}); ok {
		t.Error(`Keyword read the number "3"`)
	}
}

func TestScannerErrors(t *testing.T) {
	many := notation.Vocabulary{}
	for _, w := range []string{"a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1"} {
		many = append(many, notation.Term{Name: w})
	}
	tests := []struct {
		name string
		src  string
		skip int // tokens to read first
		v    notation.Vocabulary
		what notation.Noun
		en   string
		fr   string
	}{
		{
			name: "misspelt word",
			src:  "plain forrest e5", skip: 1, v: terrains, what: terrain,
			en: `1:7: unknown terrain "forrest"; did you mean "forest", "forests" or "forêt"?`,
			fr: "1:7: terrain inconnu « forrest » ; vouliez-vous dire « forest », « forests » ou « forêt » ?",
		},
		{
			name: "french step suggests french first",
			src:  "château forrets", skip: 0, v: terrains, what: terrain,
			en: `1:9: unknown terrain "forrets"; did you mean "forêts", "forêt" or "forest"?`,
			fr: "1:9: terrain inconnu « forrets » ; vouliez-vous dire « forêts », « forêt » ou « forest » ?",
		},
		{
			name: "far word lists a small vocabulary",
			src:  "plain zzz", skip: 1, v: terrains, what: terrain,
			en: `1:7: unknown terrain "zzz" (expected "plain", "forest", "mountains" or "lake")`,
			fr: "1:7: terrain inconnu « zzz » (attendu : « plaine », « forêt », « montagnes » ou « lac »)",
		},
		{
			name: "far word in a large vocabulary",
			src:  "zzz", v: many, what: notation.Noun{EN: "square", FR: "case", Feminine: true},
			en: `1:1: unknown square "zzz"`,
			fr: "1:1: case inconnue « zzz »",
		},
		{
			name: "number where a word is expected",
			src:  "3", v: terrains, what: terrain,
			en: `1:1: unknown terrain "3" (expected "plain", "forest", "mountains" or "lake")`,
			fr: "1:1: terrain inconnu « 3 » (attendu : « plaine », « forêt », « montagnes » ou « lac »)",
		},
		{
			name: "missing at the end",
			src:  "plain", skip: 1, v: terrains, what: terrain,
			en: `1:7: missing terrain (expected "plain", "forest", "mountains" or "lake")`,
			fr: "1:7: il manque un terrain (attendu : « plaine », « forêt », « montagnes » ou « lac »)",
		},
		{
			name: "missing feminine in a large vocabulary",
			src:  "à  vous", skip: 2, v: many, what: step,
			en: `1:9: missing step`,
			fr: "1:9: il manque une étape",
		},
		{
			name: "unknown feminine",
			src:  "xyz", v: many, what: step,
			en: `1:1: unknown step "xyz"`,
			fr: "1:1: étape inconnue « xyz »",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := scan(t, tt.src)
			if tt.name == "french step suggests french first" {
				if _, ok := s.Keyword(buildings); !ok {
					t.Fatal("Keyword(buildings) failed on château")
				}
			}
			for range tt.skip {
				s.Next()
			}
			name, err := s.Expect(tt.v, tt.what)
			if err == nil {
				t.Fatalf("Expect = %q, nil; want an error", name)
			}
			if got := err.Localize(notation.English); got != tt.en {
				t.Errorf("error (en) = %q\nwant           %q", got, tt.en)
			}
			if got := err.Localize(notation.French); got != tt.fr {
				t.Errorf("error (fr) = %q\nwant           %q", got, tt.fr)
			}
			if err.Source != s.Step().Source {
				t.Errorf("error Source = %q, want the step's line %q", err.Source, s.Step().Source)
			}
		})
	}
}

func TestScannerExpect(t *testing.T) {
	s := scan(t, "Forêt e5")
	name, err := s.Expect(terrains, terrain)
	if err != nil || name != "forest" {
		t.Fatalf("Expect = %q, %v; want forest", name, err)
	}
	e := s.ExpectEnd()
	if e == nil {
		t.Fatal("ExpectEnd() = nil with e5 left")
	}
	if got, want := e.Localize(notation.English), `1:7: unexpected "e5" at the end of the step`; got != want {
		t.Errorf("ExpectEnd() = %q, want %q", got, want)
	}
	s = scan(t, "end now please")
	s.Next()
	if got, want := s.ExpectEnd().Localize(notation.French), "1:5: « now please » en trop à la fin de l'étape"; got != want {
		t.Errorf("ExpectEnd() (fr) = %q, want %q", got, want)
	}
	// A comma between two steps (issue 15 item 21).
	s = scan(t, "forest e5, forest e6")
	s.Next()
	s.Next()
	e = s.ExpectEnd()
	if got, want := e.Localize(notation.English), `1:10: unexpected ", forest e6" at the end of the step; use ';' between steps (or one step per line), not ','`; got != want {
		t.Errorf("ExpectEnd() = %q, want %q", got, want)
	}
	if got, want := e.Localize(notation.French), "1:10: « , forest e6 » en trop à la fin de l'étape ; séparez les étapes par « ; » (ou une par ligne), pas par « , »"; got != want {
		t.Errorf("ExpectEnd() (fr) = %q, want %q", got, want)
	}
	// A comma alone at the end is not two steps.
	s = scan(t, "forest e5,")
	s.Next()
	s.Next()
	if got, want := s.ExpectEnd().Localize(notation.English), `1:10: unexpected "," at the end of the step`; got != want {
		t.Errorf("ExpectEnd() = %q, want %q", got, want)
	}
}

func TestScannerPositions(t *testing.T) {
	s := scan(t, "  château  e5")
	if got, want := s.EndPos(), (notation.Pos{Line: 1, Col: 15}); got != want {
		t.Errorf("EndPos() = %v, want %v (one space after e5)", got, want)
	}
	tok, _ := s.Next()
	e := s.ErrorAtToken(tok, "bad", "mauvais")
	want := "1:3: bad\n  " + "  château  e5" + "\n    ^\n"
	if got := e.Pretty(notation.English); got != want {
		t.Errorf("ErrorAtToken Pretty =\n%s\nwant\n%s", got, want)
	}
	e = s.ErrorAt(notation.Pos{Line: 1, Col: 12}, "bad", "mauvais")
	if got, want := e.Localize(notation.French), "1:12: mauvais"; got != want {
		t.Errorf("ErrorAt (fr) = %q, want %q", got, want)
	}
	// A step with no tokens (built by hand) ends where it starts.
	empty := &notation.Step{Pos: notation.Pos{Line: 4, Col: 2}}
	if got := notation.NewScanner(empty).EndPos(); got != empty.Pos {
		t.Errorf("EndPos() of an empty step = %v, want %v", got, empty.Pos)
	}
	if !notation.NewScanner(empty).Done() {
		t.Error("Done() = false on an empty step")
	}
}
