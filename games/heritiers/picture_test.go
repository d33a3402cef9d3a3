package heritiers

import "testing"

// TestPictures pins the pictures of a solo game and a 2-player game at
// the start and in the middle (issue 20): go test -run TestPictures
// -update rewrites them.
func TestPictures(t *testing.T) { kit.Pictures(t, 6, 1, 2) }

// BenchmarkPictureSVG and BenchmarkPicturePNG draw the picture of a game
// in the middle, as a mail or the page does: under 1 ms an SVG and 5 ms a
// PNG (issue 28).
func BenchmarkPictureSVG(b *testing.B) { kit.BenchPicture(b, 2, 6, "svg") }

func BenchmarkPicturePNG(b *testing.B) { kit.BenchPicture(b, 2, 6, "png") }
