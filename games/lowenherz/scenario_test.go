package lowenherz_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// The rulebook examples and rulings as scenarios, run the way `herald
// scenario` runs them. Run one with
// go test -run 'TestScenarios/l182-two-domains.yaml'.
const (
	scenarioDir = "../../testdata/lowenherz"
	rulebook    = "../../../shared/rules/lowenherz-2003-fr-scan.txt"
	fanText     = "../../../shared/rules/lowenherz-2003-fr.txt"
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
	cite := newCitations(t)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc, err := adjudicator.LoadScenario(file)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Game != "lowenherz" {
				t.Fatalf("game %q, want lowenherz", sc.Game)
			}
			if err := cite.check(sc.Rule); err != nil {
				t.Errorf("rule: %v", err)
			}
			for _, mv := range sc.Moves {
				if mv.Rule != "" {
					if err := cite.check(mv.Rule); err != nil {
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

// citations knows the rulebook's line count and the rulings' ids, so that
// every rule a scenario cites exists.
type citations struct {
	lines   int
	fan     int
	rulings map[string]bool
}

var citeRE = regexp.MustCompile(`^(?:lowenherz-2003-fr-scan\.txt:(\d+)|lowenherz-2003-fr\.txt:(\d+)|RULINGS\.md (LH-\d+))$`)

func newCitations(t *testing.T) *citations {
	t.Helper()
	c := &citations{rulings: map[string]bool{}}
	data, err := os.ReadFile(rulebook)
	if err != nil {
		t.Skipf("rulebook not found: %v", err)
	}
	c.lines = strings.Count(string(data), "\n") + 1
	fan, err := os.ReadFile(fanText)
	if err != nil {
		t.Skipf("fan text not found: %v", err)
	}
	c.fan = strings.Count(string(fan), "\n") + 1
	f, err := os.Open(rulings)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "### "); ok {
			c.rulings[strings.Fields(id)[0]] = true
		}
	}
	return c
}

func (c *citations) check(rule string) error {
	m := citeRE.FindStringSubmatch(rule)
	switch {
	case m == nil:
		return fmt.Errorf("%q is neither lowenherz-2003-fr-scan.txt:LINE, lowenherz-2003-fr.txt:LINE nor RULINGS.md LH-N", rule)
	case m[1] != "":
		if n, _ := strconv.Atoi(m[1]); n < 1 || n > c.lines {
			return fmt.Errorf("%q: the rulebook has %d lines", rule, c.lines)
		}
	case m[2] != "":
		if n, _ := strconv.Atoi(m[2]); n < 1 || n > c.fan {
			return fmt.Errorf("%q: the fan text has %d lines", rule, c.fan)
		}
	case !c.rulings[m[3]]:
		return fmt.Errorf("%q: RULINGS.md has no %s", rule, m[3])
	}
	return nil
}
