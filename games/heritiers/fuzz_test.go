package heritiers

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// FuzzParse feeds steps to Parse in a few positions. It must never panic,
// must refuse with a *notation.Error, and a step it reads must print to a
// step that reads back the same; Apply must then accept it or refuse it
// with a *adjudicator.RuleError and leave the state unchanged.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"take 2", "prendre 3", "build auberge m12 pay 1 l13", "construire tour de guet 2 en m12 payer rien",
		"open ferme-1 l12", "move troop m13 to n12", "déployer l12", "retirer l13", "camp l13", "détruire l11", "discard guet-1",
		"fin", "build guet m12 pay l13 l13 3", "build auberge-1 y25 pay 6", "tkae", "build", "move m13"} {
		f.Add(s, uint8(0))
	}
	states := []*State{mustLoad(f, []string{"alice", "bob"}, notationPos)}
	for i := range 5 {
		states = append(states, randomState(f, 1+i%2, fmt.Sprintf("fuzz-%d", i)))
	}
	f.Fuzz(func(t *testing.T, text string, k uint8) {
		st := states[int(k)%len(states)]
		steps, errs := notation.Split(text)
		if len(errs) > 0 || len(steps) != 1 {
			return
		}
		for _, p := range []string{"alice", "bob", Henri} {
			mv, err := st.Parse(p, steps[0])
			if err != nil {
				var ne *notation.Error
				if !errors.As(err, &ne) {
					t.Fatalf("%q: %T %v, want a notation error", text, err, err)
				}
				continue
			}
			back, err := parseStep(st, p, mv.String())
			if err != nil || back.String() != mv.String() {
				t.Fatalf("%q read as %q reads back as %v, %v", text, mv, back, err)
			}
			c := st.clone()
			before := positionBytes(t, c)
			if err := c.Apply(p, mv); err != nil {
				var re *adjudicator.RuleError
				if !errors.As(err, &re) {
					t.Fatalf("%q: Apply: %T %v, want a rule error", text, err, err)
				}
				if after := positionBytes(t, c); !bytes.Equal(before, after) {
					t.Fatalf("%q: a refused step changed the state", text)
				}
			}
		}
	})
}

// FuzzPosition feeds documents to the position loader. It must never
// panic and must refuse with a *notation.Error (or an option error); a
// position it accepts must write back to a document that loads to the same
// bytes, and each of its legal steps must be accepted.
func FuzzPosition(f *testing.F) {
	f.Add(notationPos, false)
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
		f.Add(string(data), len(sc.Players) == 1)
	}
	for i := range 4 {
		st := randomState(f, 1+i%2, fmt.Sprintf("fuzz-pos-%d", i))
		f.Add(string(positionBytes(f, st)), st.solo)
	}
	f.Fuzz(func(t *testing.T, doc string, solo bool) {
		players := []string{"alice", "bob"}
		if solo {
			players = players[:1]
		}
		var node yaml.Node
		if yaml.Unmarshal([]byte(doc), &node) != nil {
			return
		}
		st, err := load(players, doc, nil)
		if err != nil {
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Fatalf("%T %v, want a notation error with a position", err, err)
			}
			return
		}
		out := positionBytes(t, st)
		back, err := load(players, string(out), nil)
		if err != nil {
			t.Fatalf("written position does not load: %v\n%s", err, out)
		}
		if again := positionBytes(t, back); !bytes.Equal(out, again) {
			t.Fatalf("round trip differs:\n%s\n---\n%s", out, again)
		}
		if to := st.ToMove(); len(to) > 0 {
			for _, mv := range st.Legal(to[0]) {
				if err := st.clone().Apply(to[0], mv); err != nil {
					t.Fatalf("legal step %q refused: %v", mv, err)
				}
			}
		}
	})
}
