package lowenherz97_test

import (
	"github.com/heraldgames/herald/games/lowenherz97"
	"slices"
	"testing"

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

// kit holds the game for the shared tests of adjudicator/gametest.
var kit = &gametest.Kit{Game: lowenherz97.Game, Registry: reg, ScenarioDir: scenarioDir, Rulebook: rulebook, Rulings: rulings, RulingPrefix: "L97"}

func TestScenarios(t *testing.T) { kit.Scenarios(t) }

// TestEveryRulingHasAScenario checks that each L97 ruling that can be shown
// on a board is cited by a scenario.
func TestEveryRulingHasAScenario(t *testing.T) {
	// L97-1 is the map itself (every scenario from the setup shows it),
	// L97-3 the card values, L97-13 a tie of ducats, L97-16 two Silberfund
	// in a row: each has a test of its own or is shown in a scenario by
	// its rulebook line.
	elsewhere := []string{"L97-1", "L97-3", "L97-13", "L97-16"}
	for _, id := range kit.RulingsCited(t) {
		if !slices.Contains(elsewhere, id) {
			t.Errorf("no scenario cites RULINGS.md %s", id)
		}
	}
}
