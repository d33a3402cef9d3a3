package raubritter_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/gametest"
)

// The rulebook examples and rulings as scenarios, run the way `herald
// scenario` runs them. Run one with
// go test -run 'TestScenarios/l191-march-right.yaml'.
const (
	scenarioDir = "../../testdata/raubritter"
	rulebook    = "../../../shared/rules/raubritter-fr-scan.txt"
	rulings     = "../../RULINGS.md"
)

func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenarios in %s", scenarioDir)
	}
	cite := gametest.NewCitations(t, rulebook, rulings, "RB")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc, err := adjudicator.LoadScenario(file)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Game != "raubritter" {
				t.Fatalf("game %q, want raubritter", sc.Game)
			}
			if err := cite.Check(sc.Rule); err != nil {
				t.Errorf("rule: %v", err)
			}
			for _, mv := range sc.Moves {
				if mv.Rule != "" {
					if err := cite.Check(mv.Rule); err != nil {
						t.Errorf("line %d: rule: %v", mv.Line, err)
					}
				}
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(data), "#") {
				t.Errorf("a scenario starts with a comment saying what it checks")
			}
			if sc.Expect == nil {
				t.Errorf("a scenario ends with an expect: on the board it leads to")
			}
			if res := adjudicator.RunScenario(reg, sc, nil); !res.Pass {
				var log strings.Builder
				adjudicator.RunScenario(reg, sc, &log)
				t.Errorf("%s", res.Failure)
				if testing.Verbose() {
					t.Logf("boards:\n%s", log.String())
				}
			}
		})
	}
}
