package lowenherz

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestCanAct holds canAct, the check Legal and Apply make without
// building a list or an error, to adjudicator.CanAct: at every step of
// random games, from the setup to the end, for every player and a name
// that is nobody's, both say yes or both no.
func TestCanAct(t *testing.T) {
	checked := 0
	for i := range 6 {
		n := 2 + i%3
		s := newState(t, n, fmt.Sprint("can-act-", i))
		rng := adjudicator.NewRNG(fmt.Sprint("can-act-", i))
		for step := 0; ; step++ {
			for _, name := range append(slices.Clone(s.names), "nobody") {
				if got, want := s.canAct(s.index(name)), adjudicator.CanAct(s, name) == nil; got != want {
					t.Fatalf("step %d, %s: canAct %v, CanAct passes %v", step, name, got, want)
				}
				checked++
			}
			to := s.ToMove()
			if len(to) == 0 {
				break
			}
			legal := s.Legal(to[0])
			if err := s.Apply(to[0], legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		if !s.Result().Finished {
			t.Fatalf("game %d stopped unfinished", i)
		}
	}
	t.Logf("%d checks", checked)
}

// TestStepNames holds the notation made once for the search (the steps
// of selling, taking and playing each card, and of a knight on each
// square) to the notation made anew: the same text for every card,
// action and square.
func TestStepNames(t *testing.T) {
	for l := byte('A'); l <= 'D'; l++ {
		for k := range numCardKinds {
			c := Card{Letter: l, Kind: k}
			if got, want := (Sell{Card: c}).String(), "sell "+c.String(); got != want {
				t.Errorf("Sell %v: %q, want %q", c, got, want)
			}
			if got, want := (Take{Card: c}).String(), "take "+c.String(); got != want {
				t.Errorf("Take %v: %q, want %q", c, got, want)
			}
			for a := range numActions {
				m := Play{Card: c, Action: a}
				want := "play " + c.String()
				if len(k.options()) > 1 {
					want += " as " + a.String()
				}
				if got := m.String(); got != want {
					t.Errorf("Play %v as %v: %q, want %q", c, a, got, want)
				}
			}
		}
	}
	for q := range Square(Size * Size) {
		if got, want := (KnightStep{Square: q}).String(), "knight "+q.String(); got != want {
			t.Errorf("KnightStep %v: %q, want %q", q, got, want)
		}
	}
}
