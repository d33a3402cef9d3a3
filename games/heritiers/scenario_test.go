package heritiers

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

// The rulebook examples as scenarios, run the way `herald scenario` runs
// them. Run one with go test -run 'TestScenarios/l130-auberge-payment.yaml'.
const (
	scenarioDir = "../../testdata/heritiers"
	rulebook    = "../../../shared/rules/deux-heritiers-fr.txt"
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
			if sc.Game != "heritiers" {
				t.Fatalf("game %q, want heritiers", sc.Game)
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

// TestRuleCitations checks that every rule the game's errors cite exists:
// a line of the rulebook or a ruling of RULINGS.md.
func TestRuleCitations(t *testing.T) {
	cite := newCitations(t)
	for _, r := range []string{ruleOrder, ruleOnce, ruleReach, ruleHand, ruleTake, ruleBuild, rulePay, ruleOpen,
		ruleDiscount, ruleMove, ruleDeploy, ruleWithdraw, ruleOneTroop, ruleCampement, ruleSiege, ruleFrame, ruleHenri} {
		if err := cite.check(r); err != nil {
			t.Error(err)
		}
	}
}

// citations knows the rulebook's line count and the rulings' ids.
type citations struct {
	lines   int
	rulings map[string]bool
}

var citeRE = regexp.MustCompile(`^(?:deux-heritiers-fr\.txt:(\d+)|RULINGS\.md (DH-\d+))$`)

func newCitations(t *testing.T) *citations {
	t.Helper()
	c := &citations{rulings: map[string]bool{}}
	data, err := os.ReadFile(rulebook)
	if err != nil {
		t.Skipf("rulebook not found: %v", err)
	}
	c.lines = strings.Count(string(data), "\n") + 1
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
		return fmt.Errorf("%q is neither deux-heritiers-fr.txt:LINE nor RULINGS.md DH-N", rule)
	case m[1] != "":
		if n, _ := strconv.Atoi(m[1]); n < 1 || n > c.lines {
			return fmt.Errorf("%q: the rulebook has %d lines", rule, c.lines)
		}
	case !c.rulings[m[2]]:
		return fmt.Errorf("%q: RULINGS.md has no %s", rule, m[2])
	}
	return nil
}

// TestTreasureConditions checks each of the ten tokens' conditions at its
// bound: one tile short, then met (deux-heritiers-fr.txt:528-538; RULINGS.md
// DH-20). The token lies on m13.
func TestTreasureConditions(t *testing.T) {
	cases := []struct {
		token     string
		short, ok []string
	}{
		{"v-green", []string{"m10 étable-1 open", "m16 mine-1 open", "l13 étable-1 open"}, []string{"m10 étable-1 open", "m16 scierie-1 open"}},
		{"v-grey", []string{"m12 mine-1 open", "m14 étable-1 open"}, []string{"m1 mine-1 open", "m25 auberge-1 a"}},
		{"v-yellow", []string{"m12 ferme-1 open", "n12 ferme-1 open"}, []string{"m12 ferme-1 open", "m14 moulin-1 b"}},
		{"v-any", []string{"m12 ferme-1 open", "l14 mine-1 open"}, []string{"m12 ferme-1 open", "m14 mine-1 open"}},
		{"h-green", []string{"l13 étable-1 open", "l12 étable-1 open"}, []string{"a13 étable-1 open", "y13 scierie-1 a"}},
		{"h-grey", []string{"l13 mine-1 open"}, []string{"l13 mine-1 open", "n13 mine-1 open"}},
		{"h-yellow", []string{"l13 ferme-1 open", "n13 mine-1 open"}, []string{"l13 ferme-1 open", "n13 ferme-2 open"}},
		{"h-any", []string{"l13 ferme-1 open", "n12 mine-1 open"}, []string{"l13 ferme-1 open", "n13 mine-1 open"}},
		{"d-nw-se", []string{"l12 ferme-1 open", "n12 mine-1 open"}, []string{"l12 ferme-1 open", "n14 mine-1 open"}},
		{"d-ne-sw", []string{"n12 ferme-1 open", "n14 mine-1 open"}, []string{"n12 ferme-1 open", "l14 mine-1 open"}},
	}
	for _, c := range cases {
		t.Run(c.token, func(t *testing.T) {
			k, ok := treasureByName(c.token)
			if !ok {
				t.Fatalf("no token %s", c.token)
			}
			for _, want := range []bool{false, true} {
				board := c.short
				if want {
					board = c.ok
				}
				s := layout(t, true, append([]string{"m13 cathédrale-1 b"}, board...)...)
				if got := s.treasureMet(start, treasureKinds[k]); got != want {
					t.Errorf("%v: met = %v, want %v\n%s", board, got, want, s.Text(""))
				}
			}
		})
	}
}
