package lowenherz_test

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/lowenherz"
)

// TestPrivacy is the privacy property of adjudicator/gametest (issue 25):
// no answer to a player or an observer shows what they may not see.
func TestPrivacy(t *testing.T) {
	kit := &gametest.Kit{Game: lowenherz.Game}
	kit.Privacy(t, 100, 20)
}
