package raubritter_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// TestParseErrors checks every kind of notation error: the position
// (line:column), the message and the suggestions, in English and French.
func TestParseErrors(t *testing.T) {
	st := mustLoad(t, []string{"red", "blue"}, illegalPlay)
	tests := []struct {
		in      string
		pos     string
		msg     string   // a substring of the English message
		msgFR   string   // a substring of the French message, if checked
		suggest []string // the suggestions, in order
	}{
		{"plane castle e5", "1:1", `unknown step "plane"`, "étape inconnue « plane »", []string{"place", "plaine"}},
		{"kights 2", "1:1", `unknown step "kights"`, "", []string{"knights", "knight"}},
		{"5 e5", "1:1", `unknown step "5" (expected "place", "knights", "keep" or "end")`, "attendu : « pose », « chevaliers », « garde » ou « fin »", nil},
		{"plain castel e5", "1:7", `unknown building "castel"`, "bâtiment inconnu « castel »", []string{"castle"}},
		{"plain vilage e6", "1:7", `unknown building "vilage"`, "", []string{"village", "ville"}},
		{"place e5", "1:7", `unknown terrain "e5" (expected "plain", "forest", "mountains" or "lake")`, "", nil},
		{"pose plaine chato e5", "1:13", `unknown building "chato" (expected "castle", "village" or "town")`, "(attendu : « château », « village » ou « ville »)", nil},
		{"plain castle", "1:14", "missing square: say where the tile goes, like e5", "il manque la case", nil},
		{"plain castle at", "1:17", "missing square", "", nil},
		{"town", "1:6", "missing square", "", nil},
		{"castle e6", "1:1", "your hand holds a plain castle and a forest castle: say which castle", "votre main contient les plaquettes plaine château et forêt château : précisez laquelle", nil},
		{"pose château en e6", "1:6", "your hand holds a plain castle and a forest castle", "", nil},
		{"plain castle 5e", "1:14", `"5e" is not a square: a square is a column letter then a row number, like e5`,
			"« 5e » n'est pas une case : une case est une lettre de colonne puis un numéro de ligne, par exemple e5", nil},
		{"plain castle e0", "1:14", `"e0" is not a square: rows are numbered from 1`, "« e0 » n'est pas une case : les lignes sont numérotées à partir de 1", nil},
		{"pose plaine château en e00", "1:24", `"e00" is not a square`, "« e00 » n'est pas une case", nil},
		{"plain castle e1000", "1:14", `"e1000" is not a square: no board has a row 1000`, "« e1000 » n'est pas une case : aucun plateau n'a de ligne 1000", nil},
		{"forest e5", "1:1", "there is no forest tile without a building", "il n'y a pas de forêt sans bâtiment", nil},
		{"pose forêt e5", "1:6", "there is no forest tile without a building", "", nil},
		{"mountains castle e5", "1:1", "there is no mountains tile with a castle", "aucune plaquette montagnes ne porte de château", nil},
		{"lac ville e5", "1:1", "there is no lake tile with a town", "aucune plaquette lac ne porte de ville : les bâtiments sont sur plaine ou forêt", nil},
		{"keep castle", "1:6", "say on which terrain the castle stands: plain castle or forest castle", "précisez le terrain : plaine château ou forêt château", nil},
		{"garde ville", "1:7", "say on which terrain the town stands: plain town or forest town", "précisez le terrain : plaine ville ou forêt ville", nil},
		{"keep", "1:6", "missing terrain", "il manque un terrain", nil},
		{"garde", "1:7", "missing terrain", "", nil},
		{"knights 1 2 1", "1:9", "knights that march need a direction", "ont besoin d'une direction", nil},
		{"knights 1, 2", "1:9", "knights that march need a direction", "", nil},
		{"chevaliers 1 2", "1:12", "knights that march need a direction", "des chevaliers qui se déplacent", nil},
		{"knights", "1:9", "missing the number of knights", "il manque le nombre de chevaliers", nil},
		{"knights east", "1:14", "missing the number of knights", "", nil},
		{"chevalier est un", "1:15", "missing the number of knights", "", nil},
		{"knights eats 1 2", "1:9", `unknown direction "eats"`, "direction inconnue « eats » ; vouliez-vous dire « east » ?", []string{"east"}},
		{"chevaliers oest 1 2", "1:12", `unknown direction "oest"`, "", []string{"est", "ouest", "west"}},
		{"end now", "1:5", `unexpected "now" at the end of the step`, "« now » en trop à la fin de l'étape", nil},
		{"plain castle e5 e6", "1:17", `unexpected "e6" at the end of the step`, "", nil},
		{"knights east 1 2 x", "1:18", `unexpected "x" at the end of the step`, "", nil},
		{"  keep  plain  castel", "1:16", `unknown building "castel"`, "", []string{"castle"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := gametest.ParseOne(st, "red", tc.in)
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Fatalf("Parse(%q) = %v (%T), want a *notation.Error", tc.in, err, err)
			}
			if got := ne.Pos.String(); got != tc.pos {
				t.Errorf("Parse(%q) at %s, want %s: %v", tc.in, got, tc.pos, err)
			}
			if !strings.Contains(ne.Msg, tc.msg) {
				t.Errorf("Parse(%q) = %q, want %q in it", tc.in, ne.Msg, tc.msg)
			}
			if tc.msgFR != "" && !strings.Contains(ne.Localize(notation.French), tc.msgFR) {
				t.Errorf("Parse(%q) in French = %q, want %q in it", tc.in, ne.Localize(notation.French), tc.msgFR)
			}
			if !slices.Equal(ne.Suggest, tc.suggest) {
				t.Errorf("Parse(%q) suggests %q, want %q", tc.in, ne.Suggest, tc.suggest)
			}
			if !strings.HasPrefix(err.Error(), tc.pos+": ") {
				t.Errorf("one-line form %q does not start with %s", err.Error(), tc.pos)
			}
			checkCaret(t, ne, tc.in)
			checkExample(t, st, ne)
		})
	}
}

// checkExample checks the example of a notation error: one in English has
// one in French, and both read as the same steps, the French one as French.
func checkExample(t *testing.T, st adjudicator.State, ne *notation.Error) {
	t.Helper()
	if ne.Example == "" {
		if ne.ExampleFR != "" {
			t.Errorf("French example %q without an English one", ne.ExampleFR)
		}
		return
	}
	if ne.ExampleFR == "" {
		t.Fatalf("example %q has no French example", ne.Example)
	}
	read := func(text string) (moves []string, french bool) {
		steps, errs := notation.Split(text)
		if len(errs) > 0 {
			t.Fatalf("example %q: %v", text, errs)
		}
		for _, step := range steps {
			mv, err := st.Parse("red", step)
			if err != nil {
				t.Fatalf("example %q does not read: %v", text, err)
			}
			moves = append(moves, mv.String())
			french = french || step.Lang == notation.French
		}
		return moves, french
	}
	en, _ := read(ne.Example)
	fr, french := read(ne.ExampleFR)
	if !slices.Equal(en, fr) {
		t.Errorf("example %q reads as %q, its French %q as %q", ne.Example, en, ne.ExampleFR, fr)
	}
	if !french {
		t.Errorf("French example %q has no French word", ne.ExampleFR)
	}
}

// checkCaret checks the form for people: the message, the line quoted,
// and a caret under the column of the fault.
func checkCaret(t *testing.T, ne *notation.Error, line string) {
	t.Helper()
	lines := strings.Split(ne.Pretty(notation.English), "\n")
	if len(lines) < 3 {
		t.Fatalf("Pretty = %q, want the message, the line and a caret", lines)
	}
	if lines[1] != "  "+line {
		t.Errorf("Pretty quotes %q, want %q", lines[1], "  "+line)
	}
	// A word missing at the end is pointed at just after the line.
	col := min(ne.Pos.Col, len([]rune(line))+1)
	if want := strings.Repeat(" ", col+1) + "^"; lines[2] != want {
		t.Errorf("Pretty caret line %q, want %q", lines[2], want)
	}
}

// TestSubmissionErrors checks errors in a submission of several lines: the
// characters no step uses (every faulty line reported), and a step on the
// third line, with its line and column and the step's number.
func TestSubmissionErrors(t *testing.T) {
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(illegalPlay), &node); err != nil {
		t.Fatal(err)
	}
	rec, err := adjudicator.NewRecord(raubritter.Game, []string{"red", "blue"}, nil, "x", &node)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}

	_, err = m.Submit("red", "plain castle e6 $\nknights 1\nend !", "", "test")
	var list notation.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Submit = %v (%T), want a notation.ErrorList", err, err)
	}
	var at []string
	for _, e := range list {
		at = append(at, e.Pos.String())
	}
	if want := []string{"1:17", "3:5"}; !slices.Equal(at, want) {
		t.Errorf("errors at %v, want %v: %v", at, want, err)
	}

	text := "plain castle e6 # my castle\nknights east 1 1\n  knights estt 1 1\n"
	_, err = m.Submit("red", text, "", "test")
	var se *adjudicator.StepError
	var ne *notation.Error
	if !errors.As(err, &se) || !errors.As(err, &ne) {
		t.Fatalf("Submit = %v (%T), want a *adjudicator.StepError around a *notation.Error", err, err)
	}
	if se.Index != 3 || ne.Pos.String() != "3:11" {
		t.Errorf("error at step %d, %s; want step 3 at 3:11: %v", se.Index, ne.Pos, err)
	}
	want := "step 3 \"knights estt 1 1\": 3:11: unknown direction \"estt\"; did you mean \"est\"?"
	if err.Error() != want {
		t.Errorf("Submit error\n got %s\nwant %s", err, want)
	}
	checkCaret(t, ne, "  knights estt 1 1")

	// A rule error points at the count at fault.
	_, err = m.Submit("red", "plain castle e6\nknights south 1 2", "", "test")
	if !errors.As(err, &se) {
		t.Fatalf("Submit = %v, want a *adjudicator.StepError", err)
	}
	if got := se.Error(); !strings.HasPrefix(got, `step 2 "knights south 1 2": 2:17: `) {
		t.Errorf("Submit error %q, want it at 2:17", got)
	}
	pretty := se.Pretty(notation.French)
	if !strings.Contains(pretty, "  knights south 1 2\n  "+strings.Repeat(" ", 16)+"^\n") || !strings.Contains(pretty, "[règle : raubritter-fr-scan.txt:167]") {
		t.Errorf("Pretty in French:\n%s", pretty)
	}
	if len(m.Record.Moves) != 0 {
		t.Errorf("refused submissions were recorded: %v", m.Record.Moves)
	}
}

// TestLegalRoundTrip checks, for many random states, that every step Legal
// lists prints to text that Parse reads back to the same step
// (parse(print(m)) == m), and that Apply accepts it.
func TestLegalRoundTrip(t *testing.T) {
	seeds := 100
	if testing.Short() {
		seeds = 20
	}
	moves := 0
	for n := 2; n <= 4; n++ {
		for i := range seeds {
			seed := fmt.Sprintf("roundtrip-%d-%d", n, i)
			st := randomState(t, n, seed)
			for _, p := range st.ToMove() {
				for _, mv := range st.Legal(p) {
					moves++
					text := mv.String()
					back, err := gametest.ParseOne(st, p, text)
					if err != nil {
						t.Fatalf("%s: %s's legal step %q does not parse: %v\n%s", seed, p, text, err, st.Text(""))
					}
					if !sameMove(mv, back) || back.String() != text {
						t.Fatalf("%s: %q parses to %#v, want %#v", seed, text, back, mv)
					}
					if err := st.Clone().Apply(p, back); err != nil {
						t.Fatalf("%s: %s's legal step %q, parsed back, is refused: %v\n%s", seed, p, text, err, st.Text(""))
					}
				}
			}
		}
	}
	t.Logf("%d legal steps round-tripped", moves)
}

// TestFrenchSteps checks that French spellings read as the same steps as
// the canonical English ones.
func TestFrenchSteps(t *testing.T) {
	st := mustLoad(t, []string{"red", "blue"}, illegalPlay)
	pairs := [][2]string{
		{"pose plaine château en e6", "plain castle e6"},
		{"château plaine e6", "plain castle e6"},
		{"PLAINE CHATEAU E6", "plain castle e6"},
		{"plaine chateau-fort e6", "plain castle e6"},
		{"forêt château sur e6", "forest castle e6"},
		{"foret chateau e6", "forest castle e6"},
		{"chevaliers est 1 2 1", "knights east 1 2 1"},
		{"chevaliers ouest 1-2-1", "knights west 1 2 1"},
		{"chevalier droite 1, 2", "knights east 1 2"},
		{"ch nord 2 1", "knights north 2 1"},
		{"chevaliers 3", "knights 3"},
		{"chevaliers sud 3", "knights 3"},
		{"fin", "end"},
		{"garde plaine village", "keep plain village"},
		{"prends forêt village", "keep forest village"},
		{"montagnes e6", "mountains e6"},
		{"lac e6", "lake e6"},
		{"plaine ville e6", "plain town e6"},
		{"chevaliers nord-est 1 2", "knights northeast 1 2"},
		{"chevaliers nord est 1 2", "knights north-east 1 2"},
		{"knights south west 1 1", "knights sw 1 1"},
		{"chevaliers ouest sud 1 1", "knights southwest 1 1"},
		{"chevaliers sud-est 2", "knights 2"},
	}
	for _, p := range pairs {
		fr, err := gametest.ParseOne(st, "red", p[0])
		if err != nil {
			t.Errorf("%q: %v", p[0], err)
			continue
		}
		en, err := gametest.ParseOne(st, "red", p[1])
		if err != nil {
			t.Errorf("%q: %v", p[1], err)
			continue
		}
		if !sameMove(fr, en) {
			t.Errorf("%q reads as %q, want %q", p[0], fr, en)
		}
	}
}

// TestParseSquare checks square names: a column letter and a row number of
// digits only.
func TestParseSquare(t *testing.T) {
	// Only the form is checked: z99 and e100 are names, off every frame;
	// Apply says so with the frame of the game.
	for in, want := range map[string]string{"e5": "e5", "E5": "e5", "a1": "a1", "p18": "p18", "e05": "e5", "z99": "z99", "e100": "e100", "e999": "e999"} {
		q, err := raubritter.ParseSquare(in)
		if err != nil || q.String() != want {
			t.Errorf("ParseSquare(%q) = %v, %v; want %s", in, q, err, want)
		}
	}
	for _, in := range []string{"", "e", "5e", "e0", "e00", "e1000", "e99999999999999999999999", "e+5", "e-5", "e 5", "é5", "ee5", "e5x"} {
		if q, err := raubritter.ParseSquare(in); err == nil {
			t.Errorf("ParseSquare(%q) = %v, want an error", in, q)
		}
	}
}
