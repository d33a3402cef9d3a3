package raubritter_test

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/raubritter"
)

// The rulebook examples and rulings as scenarios, run the way `herald
// scenario` runs them. Run one with
// go test -run 'TestScenarios/l191-march-right.yaml'.
const (
	scenarioDir = "../../testdata/raubritter"
	rulebook    = "../../../shared/rules/raubritter-fr-scan.txt"
	rulings     = "../../RULINGS.md"
)

// kit holds the game for the shared tests of adjudicator/gametest.
var kit = &gametest.Kit{
	Game: raubritter.Game, Registry: reg, ScenarioDir: scenarioDir, Rulebook: rulebook, Rulings: rulings, RulingPrefix: "RB",
}

func TestScenarios(t *testing.T) { kit.Scenarios(t) }
