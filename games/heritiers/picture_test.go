package heritiers

import "testing"

// TestPictures pins the pictures of a solo game and a 2-player game at
// the start and in the middle (issue 20): go test -run TestPictures
// -update rewrites them.
func TestPictures(t *testing.T) { kit.Pictures(t, 6, 1, 2) }
