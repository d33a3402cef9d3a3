package heritiers

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// TestEmptyHandWords: a tile that is not in an empty hand is refused with
// "your hand: empty", and in French "votre main : vide".
func TestEmptyHandWords(t *testing.T) {
	st := newState(t, []string{"alice", "bob"}, "empty-hand", nil)
	st.hands[0] = nil
	err := st.notInHand(0, -1, "v-green")
	if en, fr := adjudicator.Localize(err, notation.English), adjudicator.Localize(err, notation.French); !strings.Contains(en, "(your hand: empty)") || !strings.Contains(fr, "(votre main : vide)") {
		t.Errorf("English %q, French %q", en, fr)
	}
}
