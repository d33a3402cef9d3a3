package heritiers

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestHenriEmptyReserve checks that Henri passes when campements have
// emptied the royal reserve in the last round (RULINGS.md DH-19), and
// that the game then ends as the last round says.
func TestHenriEmptyReserve(t *testing.T) {
	st := mustLoad(t, []string{"alice"}, `
turn: alice
sets: [voyage, agriculture, commerce]
last: 1
reserve: [-, -, -, -, -, moulin-1]
board:
  m13: étable-1 open / alice*
  l13: campement-1 alice
players:
  alice:
    hand: [auberge-1]
  henri:
    treasures: [v-green, v-grey, v-yellow, v-any, h-green, h-grey, h-yellow, h-any]
    aside: [d-nw-se, d-ne-sw]
`)
	// The stack is out, the tiles it held discarded by Henri earlier.
	st.removed, st.stack = st.stack, nil
	m := matchFrom(t, st)
	sub, err := m.Submit("alice", "take 6; end", "", "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Auto) != 1 || sub.Auto[0].Text() != "end" || sub.Auto[0].Why[0] != "the royal reserve is empty: Henri has nothing to take and passes" {
		t.Fatalf("Henri's move: %d %q %q", len(sub.Auto), sub.Auto[0].Text(), sub.Auto[0].Why)
	}
	if !m.State.Result().Finished {
		t.Errorf("the game is not over after the last round")
	}
	rep, err := adjudicator.Adjudicate(reg, m.Record)
	if err != nil || rep.Illegal != nil {
		t.Fatalf("adjudicate: %v %+v", err, rep.Illegal)
	}
}
