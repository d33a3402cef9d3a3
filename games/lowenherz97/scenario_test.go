package lowenherz97_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// The rulebook examples and rulings as scenarios, run the way `herald
// scenario` runs them. Run one with
// go test -run 'TestScenarios/l228-two-regions.yaml'.
const (
	scenarioDir = "../../testdata/lowenherz97"
	rulebook    = "../../../shared/rules/lowenherz-1997-fr.txt"
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
	cite := gametest.NewCitations(t, rulebook, rulings, "L97")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc, err := adjudicator.LoadScenario(file)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Game != "lowenherz97" {
				t.Fatalf("game %q, want lowenherz97", sc.Game)
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

// TestEveryRulingHasAScenario checks that each L97 ruling that can be shown
// on a board is cited by a scenario.
func TestEveryRulingHasAScenario(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	cited := map[string]bool{}
	re := regexp.MustCompile(`RULINGS\.md (L97-\d+)`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			cited[m[1]] = true
		}
	}
	// L97-1 is the map itself (every scenario from the setup shows it),
	// L97-3 the card values, L97-13 a tie of ducats, L97-16 two Silberfund
	// in a row: each has a test of its own or is shown in a scenario by
	// its rulebook line.
	for _, id := range []string{"L97-2", "L97-4", "L97-5", "L97-6", "L97-7", "L97-8", "L97-9", "L97-10", "L97-11", "L97-12", "L97-14", "L97-15", "L97-17", "L97-18", "L97-19"} {
		if !cited[id] {
			t.Errorf("no scenario cites RULINGS.md %s", id)
		}
	}
}
