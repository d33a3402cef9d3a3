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

// BenchmarkPictureSVG and BenchmarkPicturePNG draw the picture of a game
// in the middle, as a mail or the page does: under 1 ms an SVG and 5 ms a
// PNG (issue 28).
func BenchmarkPictureSVG(b *testing.B) {
	(&gametest.Kit{Game: lowenherz.Game}).BenchPicture(b, 2, 100, "svg")
}

func BenchmarkPicturePNG(b *testing.B) {
	(&gametest.Kit{Game: lowenherz.Game}).BenchPicture(b, 2, 100, "png")
}
