package lowenherz97_test

import "testing"

// TestPictures pins the pictures of 2- and 4-player games at the start and
// in the middle (issue 20): go test -run TestPictures -update rewrites
// them.
func TestPictures(t *testing.T) { kit.Pictures(t, 40, 2, 4) }
