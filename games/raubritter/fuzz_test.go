package raubritter_test

import (
	"bytes"
	"errors"
	"fmt"
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
	for _, doc := range []string{illegalPlay, illegalFew, illegalNone, illegalThird, illegalWide, illegalSetup, illegalOver} {
		f.Add(doc, uint8(0))
	}
	for _, tc := range positionErrors {
		f.Add(tc.doc, uint8(len(tc.players)-2))
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
		st := randomState(f, n, "fuzz")
		f.Add(string(kit.PositionBytes(f, st)), uint8(n-2))
	}
	f.Fuzz(func(t *testing.T, doc string, n uint8) {
		players := colours[:2+int(n)%3]
		kit.CheckPosition(t, players, doc)
		if st, err := kit.LoadPosition(players, doc); err == nil {
			st.Board()
		}
	})
}

// FuzzParse reads random step text against a game in progress. Parse must
// never panic; a step it reads must print to text that reads back to the
// same step; Apply may refuse it but must not panic.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"plain castle e6; knights east 1 2 1; end",
		"plaine château e5 ; chevaliers est 1 2 1 ; fin",
		"castle e6", "village f5", "keep plain village", "knights 0", "knights south 1, 2", "chevaliers nord 1-1",
		"lake e5", "mountains e8", "forêt ville g8", "pose plaine en e6", "plain castle at e6 # comment",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	base := mustLoad(f, two, illegalPlay)
	for _, p := range base.ToMove() {
		for _, mv := range base.Legal(p) {
			f.Add(mv.String())
		}
	}
	for _, s := range []string{"plane castle e5", "plain castel e5", "plain castle", "plain castle 5e", "forest e5",
		"keep castle", "knights 1 2 1", "knights", "knights eats 1 2", "end now", "5 e5", "plain castle e+5", "é5"} {
		f.Add(s)
	}
	states := []adjudicator.State{base, randomState(f, 3, "fuzz-parse"), kit.NewState(f, colours[:2], "fuzz-parse", nil)}
	f.Fuzz(func(t *testing.T, text string) {
		steps, _ := notation.Split(text)
		for _, st := range states {
			for _, step := range steps {
				for _, p := range []string{"red", "blue", "nobody"} {
					mv, err := st.Parse(p, step)
					if err != nil {
						var ne *notation.Error
						if !errors.As(err, &ne) {
							t.Fatalf("Parse(%q) = %v (%T), want a *notation.Error", step.Text, err, err)
						}
						continue
					}
					printed := mv.String()
					back, err := gametest.ParseOne(st, p, printed)
					if err != nil {
						t.Fatalf("%q reads as %q, which does not read back: %v", step.Text, printed, err)
					}
					if !sameMove(mv, back) || back.String() != printed {
						t.Fatalf("%q reads as %q, which reads back as %q", step.Text, printed, back)
					}
					st.Clone().Apply(p, mv)
				}
			}
		}
	})
}

// TestPositionMutations changes correct positions one value at a time (a
// square, a count, a tile, a name, a phase), or drops or repeats an entry,
// which byte-level fuzzing seldom reaches. A mutated position must load or
// be refused with a *notation.Error, never panic; one that loads must
// round-trip, and its game must go on: someone to move with a legal step,
// every listed step accepted, until the end.
func TestPositionMutations(t *testing.T) {
	rounds := 2000
	if testing.Short() {
		rounds = 200
	}
	pool := []string{
		"red", "blue", "yellow", "green", "nobody",
		"plain", "lake", "mountains", "plain castle", "forest castle", "plain village", "forest village", "plain town", "forest town", "forest",
		"f6", "g6", "f5", "e6", "h6", "a1", "l12", "p18", "z9", "f66",
		"-1", "0", "1", "2", "3", "4", "5", "29", "30", "31",
		"setup", "play", "over", "true", "false",
		"B plain", "C lake", "E forest town", "A plain", "plain castle / red", "plain / red red red red", "lake / blue",
	}
	type base struct {
		doc     string
		players []string
	}
	var bases []base
	for _, doc := range []string{illegalPlay, illegalFew, illegalNone, illegalThird, illegalWide, illegalSetup, illegalOver} {
		bases = append(bases, base{doc, two})
	}
	for n := 2; n <= 4; n++ {
		for i := range 4 {
			st := randomState(t, n, fmt.Sprintf("mutate-%d-%d", n, i))
			bases = append(bases, base{string(kit.PositionBytes(t, st)), colours[:n]})
		}
	}
	rng := adjudicator.NewRNG("mutations")
	loaded := 0
	for r := range rounds {
		base := bases[rng.IntN(len(bases))]
		text := gametest.Mutated(t, base.doc, rng, pool)
		players := base.players
		st, err := kit.LoadPosition(players, text)
		if err != nil {
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Fatalf("round %d: error %v (%T), want a *notation.Error:\n%s", r, err, err, text)
			}
			continue
		}
		loaded++
		first := kit.PositionBytes(t, st)
		back, err := kit.LoadPosition(players, string(first))
		if err != nil {
			t.Fatalf("round %d: accepted position\n%s\nwritten as\n%s\ndoes not load: %v", r, text, first, err)
		}
		if second := kit.PositionBytes(t, back); !bytes.Equal(first, second) {
			t.Fatalf("round %d: position written, read and written again differs:\n%s\n---\n%s", r, first, second)
		}
		for range 150 {
			to := st.ToMove()
			if len(to) == 0 {
				if !st.Result().Finished {
					t.Fatalf("round %d: nobody to move and not finished:\n%s\n%s", r, text, st.Text(""))
				}
				break
			}
			p := to[rng.IntN(len(to))]
			legal := st.Legal(p)
			if len(legal) == 0 {
				t.Fatalf("round %d: %s must move but has no legal step:\n%s\n%s", r, p, text, st.Text(""))
			}
			mv := legal[rng.IntN(len(legal))]
			if err := st.Apply(p, mv); err != nil {
				t.Fatalf("round %d: %s's legal step %q refused: %v\n%s", r, p, mv, err, text)
			}
		}
		for _, as := range append([]string{""}, players...) {
			gametest.CheckWidth(t, fmt.Sprintf("round %d", r), st.Text(as))
		}
	}
	t.Logf("%d of %d mutated positions loaded", loaded, rounds)
}
