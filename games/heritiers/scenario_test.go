package heritiers

import (
	"github.com/heraldgames/herald/adjudicator/gametest"
	"testing"
)

// The rulebook examples as scenarios, run the way `herald scenario` runs
// them. Run one with go test -run 'TestScenarios/l130-auberge-payment.yaml'.
const (
	scenarioDir = "../../testdata/heritiers"
	rulebook    = "../../../shared/rules/deux-heritiers-fr.txt"
	rulings     = "../../RULINGS.md"
)

// kit holds the game for the shared tests of adjudicator/gametest.
var kit = &gametest.Kit{Game: Game, Registry: reg, ScenarioDir: scenarioDir, Rulebook: rulebook, Rulings: rulings, RulingPrefix: "DH"}

func TestScenarios(t *testing.T) { kit.Scenarios(t) }

// TestRuleCitations checks that every rule the game's errors cite exists:
// a line of the rulebook or a ruling of RULINGS.md.
func TestRuleCitations(t *testing.T) {
	cite := gametest.NewCitations(t, rulebook, rulings, "DH")
	for _, r := range []string{rulePlayHand, ruleOnce, ruleReach, ruleHand, ruleTake, ruleBuild, rulePay, ruleOpen,
		ruleDiscount, ruleMove, ruleDeploy, ruleWithdraw, ruleOneTroop, ruleCampement, ruleSiege, ruleFrame, ruleHenri, ruleDiscard, ruleHenri1a, ruleHenri1b, ruleHenriPass} {
		if err := cite.Check(r); err != nil {
			t.Error(err)
		}
	}
	for _, r := range henriPlaceRules {
		if err := cite.Check(r); err != nil {
			t.Error(err)
		}
	}
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
