package lowenherz_test

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/lowenherz"
)

// TestPictures pins the pictures of 2- and 4-player games at the start and
// after submission 100, late enough for neutral zones, with the last
// move marked (issues 20, 28): go test -run TestPictures -update rewrites
// them.
func TestPictures(t *testing.T) {
	kit := &gametest.Kit{Game: lowenherz.Game}
	kit.Pictures(t, 100, 2, 4)
}
