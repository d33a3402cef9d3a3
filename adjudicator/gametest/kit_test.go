package gametest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

var kit = &gametest.Kit{
	Game:         raubritter.Game,
	ScenarioDir:  "../../testdata/raubritter",
	Rulebook:     "../../../shared/rules/raubritter-fr-scan.txt",
	Rulings:      "../../RULINGS.md",
	RulingPrefix: "RB",
}

// TestKitOnAGame runs the kit on Raubritter: a self-played game whose
// every submission is checked, its record adjudicated, its position
// round-tripped, its first steps parsed back.
func TestKitOnAGame(t *testing.T) {
	subs := 0
	m := kit.SelfPlay(t, 3, "kit", nil, func(m *adjudicator.Match, sub *adjudicator.Submission) {
		if sub != nil {
			subs++
		}
	})
	if !m.State.Result().Finished || subs == 0 || subs != len(m.Record.Moves) {
		t.Fatalf("self-play: finished %v after %d submissions, %d recorded", m.State.Result().Finished, subs, len(m.Record.Moves))
	}
	kit.CheckRecord(t, m)
	st := kit.NewMatch(t, 2, "kit", nil).State
	if err := gametest.ParseProblem([]adjudicator.State{st}, []string{"p1", "p2"}, "keep plain village; castle e6; nonsense"); err != nil {
		t.Error(err)
	}
	if err := kit.PositionProblem([]string{"p1", "p2"}, string(kit.PositionBytes(t, st))); err != nil {
		t.Error(err)
	}
	if got := kit.RulingsCited(t); len(got) > 0 && !strings.HasPrefix(got[0], "RB-") {
		t.Errorf("RulingsCited = %v", got)
	}
}

// brokenPrinter is a game whose steps print to text that does not read
// back.
type brokenPrinter struct{ adjudicator.State }

type misprinted struct{ adjudicator.Move }

func (m misprinted) String() string { return "keep ???" }

func (b brokenPrinter) Parse(p string, s *notation.Step) (adjudicator.Move, error) {
	mv, err := b.State.Parse(p, s)
	if err != nil {
		return mv, err
	}
	return misprinted{mv}, nil
}

// unstable is a position that writes differently each time.
type unstable struct {
	adjudicator.State
	n *int
}

func (u unstable) Position() any { *u.n++; return map[string]int{"n": *u.n} }

// TestKitFails checks that each check of the kit fails when it should: a
// step that prints to another step, a position that does not write back
// the same, a golden file that differs.
func TestKitFails(t *testing.T) {
	st := kit.NewMatch(t, 2, "kit", nil).State
	if err := gametest.ParseProblem([]adjudicator.State{brokenPrinter{st}}, []string{"p1"}, "keep plain village"); err == nil {
		t.Error("a step that prints as another was not caught")
	}
	n := 0
	bad := *raubritter.Game
	bad.LoadPosition = func(s adjudicator.Setup, doc *yaml.Node) (adjudicator.State, error) {
		st, err := raubritter.Game.LoadPosition(s, doc)
		if err != nil {
			return nil, err
		}
		return unstable{st, &n}, nil
	}
	badKit := &gametest.Kit{Game: &bad}
	if err := badKit.PositionProblem([]string{"p1", "p2"}, string(kit.PositionBytes(t, st))); err == nil {
		t.Error("a position that does not write back the same was not caught")
	}
	path := filepath.Join(t.TempDir(), "golden.txt")
	os.WriteFile(path, []byte("one\ntwo\n"), 0o644)
	if err := gametest.GoldenDiff(path, "one\nthree\n"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("GoldenDiff = %v, want line 2 differs", err)
	}
	if err := gametest.GoldenDiff(path, "one\ntwo\n"); err != nil {
		t.Error(err)
	}
}
