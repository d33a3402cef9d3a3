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
