package raubritter

import (
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestKnightsCountsApart: the knights steps Legal lists share one array
// for their counts, each capped at its length, so that an append to the
// counts of one (as a caller may do) changes no other step: at every
// position of random games with knights to put, appending to each step's
// counts in turn leaves every step's notation as it was.
func TestKnightsCountsApart(t *testing.T) {
	checked := 0
	for seed := range 6 {
		opts, _ := Game.ResolveOptions(nil)
		players := []string{"red", "blue", "yellow", "green"}[:2+seed%3]
		st, err := Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(fmt.Sprint("apart", seed))})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := adjudicator.NewRNG(fmt.Sprint("apart-walk", seed))
		for step := 0; len(s.ToMove()) > 0 && step < 2000; step++ {
			to := s.ToMove()
			p := to[rng.IntN(len(to))]
			if i := s.index(p); s.pending >= 0 && i >= 0 {
				steps := s.legalKnights(i)
				var want []string
				for _, m := range steps {
					want = append(want, m.String())
				}
				for j, m := range steps {
					k := m.(Knights)
					_ = append(k.Counts, 4, 4)
					for l, m := range steps {
						if m.String() != want[l] {
							t.Fatalf("seed %d, step %d: after an append to the counts of %q, step %d reads %q, was %q", seed, step, want[j], l, m, want[l])
						}
					}
				}
				checked += len(steps)
			}
			legal := s.Legal(p)
			if err := s.Apply(p, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no knights step was listed")
	}
	t.Logf("%d knights steps checked", checked)
}
