package heritiers

import "testing"

// TestCanonicalBuildingNamesAreNotFrench checks that a building written as
// its canonical name (moulin-1, as herald itself writes it) does not make a
// step French: only a French-only spelling does. A player who copies the
// steps herald listed must get the answers, and Henri's reasons, in
// English.
func TestCanonicalBuildingNamesAreNotFrench(t *testing.T) {
	for _, b := range buildings {
		if e := buildingPhrases[foldPhrase(b.name)]; e.fr {
			t.Errorf("the canonical name %q is taken for French", b.name)
		}
	}
}
