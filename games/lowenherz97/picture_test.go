package lowenherz97_test

import (
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestPictures pins the pictures of 2- and 4-player games at the start and
// in the middle (issue 20): go test -run TestPictures -update rewrites
// them.
func TestPictures(t *testing.T) { kit.Pictures(t, 40, 2, 4) }

// BenchmarkPictureSVG and BenchmarkPicturePNG draw the picture of a game
// in the middle, as a mail or the page does: under 1 ms an SVG and 5 ms a
// PNG (issue 28).
func BenchmarkPictureSVG(b *testing.B) { kit.BenchPicture(b, 4, 40, "svg") }

func BenchmarkPicturePNG(b *testing.B) { kit.BenchPicture(b, 4, 40, "png") }

// TestPictureToMove plays games and checks after every submission that
// the picture marks exactly the players who must act: not a bidder whose
// sealed bid is in (issue 28, item 4), and that it counts power, not
// points.
func TestPictureToMove(t *testing.T) {
	sealed := 0
	for _, n := range []int{2, 4} {
		kit.SelfPlay(t, n, "to-move", nil, func(m *adjudicator.Match, _ *adjudicator.Submission) {
			b := m.State.(adjudicator.Picturer).Picture()
			to := m.State.ToMove()
			for _, p := range b.Players {
				in := adjudicator.SealedIn(m.State, p.Name)
				if in {
					sealed++
				}
				if want := slices.Contains(to, p.Name) && !in; p.ToMove != want {
					t.Fatalf("move %d: %s marked to move %v, want %v (to move %v, sealed bid in %v)", m.MoveNumber(), p.Name, p.ToMove, want, to, in)
				}
			}
			if b.Unit != "power" {
				t.Fatalf("the picture counts %q", b.Unit)
			}
		})
	}
	if sealed == 0 {
		t.Error("no sealed bid was ever in: the test checked nothing")
	}
}
