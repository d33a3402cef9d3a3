package lowenherz97

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// TestScratchPlaysAsCopy: a determinization's copy (scratch: no event
// log, its grid, pieces and areas changed in place) plays every step as
// a plain copy does, the log aside, with the same legal steps; and a
// clone taken from it keeps what it was when the scratch state plays on.
func TestScratchPlaysAsCopy(t *testing.T) {
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	// play gives s's position, the logs aside (its own's and an
	// extension's start's), and the legal steps of those to move, which
	// read the areas: on s itself, not a clone, which would take away
	// what a scratch state owns.
	play := func(s *State) string {
		ev, xev := s.events, s.act.extBase.events
		s.events, s.act.extBase.events = nil, nil
		out := string((&gametest.Kit{Game: Game}).PositionBytes(t, s))
		s.events, s.act.extBase.events = ev, xev
		for _, p := range s.ToMove() {
			for _, m := range s.Legal(p) {
				out += "\n" + p + ": " + m.String()
			}
		}
		return out
	}
	for i := range seeds {
		n := 2 + i%3
		opts, _ := Game.ResolveOptions(nil)
		g, err := Game.New(adjudicator.Setup{Players: []string{"red", "blue", "green", "yellow"}[:n], Options: opts, RNG: adjudicator.NewRNG(fmt.Sprint("scratch-", i))})
		if err != nil {
			t.Fatal(err)
		}
		st := g.(*State)
		rng := adjudicator.NewRNG(fmt.Sprintf("scratch-%d", i))
		d := st.Determinize(st.names[0], rng).(*State)
		plain := d.clone()
		if !d.scratch || plain.scratch {
			t.Fatalf("the determinization is scratch %v, its clone %v; want true and false", d.scratch, plain.scratch)
		}
		type kept struct {
			c    *State
			want string
		}
		var clones []kept
		before := slices.Clone(d.events) // what it was dealt with
		for step := 0; step < 400 && len(d.ToMove()) > 0; step++ {
			to := d.ToMove()
			p := to[rng.IntN(len(to))]
			legal := d.Legal(p)
			m := legal[rng.IntN(len(legal))]
			if err := d.Apply(p, m); err != nil {
				t.Fatal(err)
			}
			if err := plain.Apply(p, m); err != nil {
				t.Fatal(err)
			}
			if play(d) != play(plain) {
				t.Fatalf("seed %d, step %d (%s's %q): the scratch state and its plain copy differ", i, step, p, m)
			}
			for _, e := range d.events {
				if !slices.Contains(before, e) {
					t.Fatalf("seed %d, step %d: the scratch state logged %q", i, step, e)
				}
			}
			if step%7 == 0 {
				c := d.clone()
				clones = append(clones, kept{c, play(c)})
			}
			for _, k := range clones {
				if play(k.c) != k.want {
					t.Fatalf("seed %d, step %d (%s's %q): a clone taken earlier from the scratch state changed with it", i, step, p, m)
				}
			}
		}
	}
}
