package lowenherz97_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// FuzzPosition feeds documents to the position loader. It must never
// panic and must refuse with a *notation.Error; a position it accepts must
// write back to a document that loads to the same bytes, and every step
// the loaded state lists as legal must be accepted. The seeds are the
// positions of the tests and scenarios.
func FuzzPosition(f *testing.F) {
	for _, tc := range positionErrors {
		f.Add(tc.doc, uint8(0))
	}
	files, _ := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	for _, file := range files {
		sc, err := adjudicator.LoadScenario(file)
		if err != nil || sc.Position == nil {
			continue
		}
		data, err := yaml.Marshal(sc.Position)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data), uint8(len(sc.Players)-2))
	}
	for n := 2; n <= 4; n++ {
		f.Add(string(kit.PositionBytes(f, randomState(f, n, "fuzz"))), uint8(n-2))
	}
	f.Fuzz(func(t *testing.T, doc string, n uint8) {
		players := colours[:2+int(n)%3]
		var node yaml.Node
		if yaml.Unmarshal([]byte(doc), &node) != nil {
			return // not YAML: the caller's error, not the loader's
		}
		st, err := loadPosition(players, doc)
		if err != nil {
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Fatalf("error %v (%T), want a *notation.Error", err, err)
			}
			return
		}
		first := kit.PositionBytes(t, st)
		back, err := loadPosition(players, string(first))
		if err != nil {
			t.Fatalf("accepted position written as\n%s\ndoes not load: %v", first, err)
		}
		if second := kit.PositionBytes(t, back); !bytes.Equal(first, second) {
			t.Fatalf("position written, read and written again differs:\n%s\n---\n%s", first, second)
		}
		for _, as := range append([]string{""}, players...) {
			st.Text(as)
		}
		st.Board()
		st.Result()
		for _, p := range st.ToMove() {
			for i, mv := range st.Legal(p) {
				if i == 60 {
					break
				}
				if err := st.Clone().Apply(p, mv); err != nil {
					t.Fatalf("%s's legal step %q is refused: %v\n%s", p, mv, err, first)
				}
			}
		}
	})
}

// FuzzParse reads random step text against games in progress. Parse must
// never panic, and refuses with a notation error or a rule error that
// cites its rule; a step it reads must print to text that reads back to the
// same step; Apply may refuse it but must not panic.
func FuzzParse(f *testing.F) {
	for _, s := range append(probes,
		"choisis 2 avec renégat", "mise 3 3 1 trésor 8", "mur e5-f5", "étends e5 depuis d5", "romps alliance d5 h5",
		"chose 2", "bid 3 fief", "wall e5", "knight e5 treasure", "castle e5 knight", "take", "offer -3", "bid 99999999") {
		f.Add(s)
	}
	states := []adjudicator.State{randomState(f, 2, "fuzz-parse"), randomState(f, 3, "fuzz-parse"), kit.NewState(f, colours[:4], "fuzz-parse", nil)}
	for _, st := range states {
		for _, p := range st.ToMove() {
			for i, mv := range st.Legal(p) {
				if i < 20 {
					f.Add(mv.String())
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		steps, _ := notation.Split(text)
		for _, st := range states {
			for _, step := range steps {
				for _, p := range []string{"gold", "purple", "nobody"} {
					mv, err := st.Parse(p, step)
					if err != nil {
						// A step that reads well but breaks a rule (a
						// wall between squares apart, a fief offered) is a
						// rule error citing the rule.
						var ne *notation.Error
						var re *adjudicator.RuleError
						if !errors.As(err, &ne) && !(errors.As(err, &re) && re.Rule != "") {
							t.Fatalf("Parse(%q) = %v (%T), want a *notation.Error or a cited *adjudicator.RuleError", step.Text, err, err)
						}
						continue
					}
					printed := mv.String()
					back, err := gametest.ParseOne(st, p, printed)
					if err != nil {
						t.Fatalf("%q reads as %q, which does not read back: %v", step.Text, printed, err)
					}
					if back.String() != printed {
						t.Fatalf("%q reads as %q, which reads back as %q", step.Text, printed, back)
					}
					st.Clone().Apply(p, mv)
				}
			}
		}
	})
}
