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

// TestHenriTakeWhyFR checks the French of Henri's reasons for his take: a
// colour after « tuile » agrees with it (« la première tuile verte »), the
// stack's top stays masculine (« le dessus de la pile est vert »).
func TestHenriTakeWhyFR(t *testing.T) {
	cases := []struct {
		rule string
		col  Colour
		en   string
		fr   string
	}{
		{"1a", Green, "rule 1a: the top of the stack is green, and place 2 holds the first green tile from the shield",
			"règle 1a : le dessus de la pile est vert, et la place 2 porte la première tuile verte depuis le bouclier"},
		{"1a", Grey, "rule 1a: the top of the stack is grey, and place 2 holds the first grey tile from the shield",
			"règle 1a : le dessus de la pile est gris, et la place 2 porte la première tuile grise depuis le bouclier"},
		{"1a", Yellow, "rule 1a: the top of the stack is yellow, and place 2 holds the first yellow tile from the shield",
			"règle 1a : le dessus de la pile est jaune, et la place 2 porte la première tuile jaune depuis le bouclier"},
		{"1b", Grey, "rule 1b: no grey tile in the royal reserve, so the first tile from the shield, at place 2",
			"règle 1b : aucune tuile grise dans la réserve royale, donc la première tuile depuis le bouclier, place 2"},
		{"1b", Green, "rule 1b: no green tile in the royal reserve, so the first tile from the shield, at place 2",
			"règle 1b : aucune tuile verte dans la réserve royale, donc la première tuile depuis le bouclier, place 2"},
	}
	for _, c := range cases {
		en, fr := takeWhy(2, c.rule, c.col)
		if en != c.en || fr != c.fr {
			t.Errorf("takeWhy(2, %s, %s) = %q, %q, want %q, %q", c.rule, c.col, en, fr, c.en, c.fr)
		}
	}
}
