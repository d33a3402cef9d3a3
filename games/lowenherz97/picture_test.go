package lowenherz97_test

import "testing"

// TestPictures pins the pictures of 2- and 4-player games at the start and
// in the middle (issue 20): go test -run TestPictures -update rewrites
// them.
func TestPictures(t *testing.T) { kit.Pictures(t, 40, 2, 4) }

// BenchmarkPictureSVG and BenchmarkPicturePNG draw the picture of a game
// in the middle, as a mail or the page does: under 1 ms an SVG and 5 ms a
// PNG (issue 28).
func BenchmarkPictureSVG(b *testing.B) { kit.BenchPicture(b, 4, 40, "svg") }

func BenchmarkPicturePNG(b *testing.B) { kit.BenchPicture(b, 4, 40, "png") }
