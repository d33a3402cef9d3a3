package lowenherz97

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// hiddenFrom returns a copy of s that seat sees alike but whose hidden
// part is changed: the deck reversed within each letter; the political
// cards of the others' hands and of the piles (but the pile seat is
// looking at) each in the next one's place; the others' sealed bids in
// made bids of nothing.
func hiddenFrom(s *State, seat int) *State {
	c := s.clone()
	c.deck = slices.Clone(c.deck)
	for _, l := range []byte("ABCDE") {
		var at []int
		for i, d := range c.deck {
			if d.Letter == l {
				at = append(at, i)
			}
		}
		for a, b := 0, len(at)-1; a < b; a, b = a+1, b-1 {
			c.deck[at[a]], c.deck[at[b]] = c.deck[at[b]], c.deck[at[a]]
		}
	}
	var places []*Political
	for p := range c.hands {
		if p != seat {
			c.hands[p] = slices.Clone(c.hands[p])
			for i := range c.hands[p] {
				places = append(places, &c.hands[p][i])
			}
		}
	}
	for k := range c.piles {
		if c.phase == phaseAct && c.actor == seat && int(c.act.looked) == k {
			continue
		}
		c.piles[k] = slices.Clone(c.piles[k])
		for i := range c.piles[k] {
			places = append(places, &c.piles[k][i])
		}
	}
	for i := 1; i < len(places); i++ {
		*places[i-1], *places[i] = *places[i], *places[i-1]
	}
	for p := range c.bids {
		if p != seat && c.bids[p].in {
			c.bids[p] = bid{in: true}
		}
	}
	return c
}

// TestDeterminize checks Determinize and the bot's honesty through a few
// games, at every sealed bid and every so many steps, for every player:
// what a seat cannot see changes neither the determinization nor the
// bot's step.
func TestDeterminize(t *testing.T) {
	bids := 0
	for seed := range 3 {
		players := []string{"red", "blue", "green", "yellow"}[:2+seed%3]
		opts, _ := Game.ResolveOptions(nil)
		st, err := Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(fmt.Sprint(seed))})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := adjudicator.NewRNG(fmt.Sprint("determinize", seed))
		for step := 0; len(s.ToMove()) > 0; step++ {
			bidIn := s.phase == phaseBid && slices.ContainsFunc(players, func(p string) bool { return s.SealedIn(p) })
			if bidIn {
				bids++
			}
			if step%60 == 0 || (bidIn && bids%4 == 1) {
				for p, name := range players {
					gametest.CheckDeterminize(t, s, hiddenFrom(s, p), players, name)
				}
			}
			to := slices.DeleteFunc(slices.Clone(s.ToMove()), s.SealedIn)
			p := to[rng.IntN(len(to))]
			l := s.Legal(p)
			if err := s.Apply(p, l[rng.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if bids == 0 {
		t.Error("no state with a sealed bid in was checked")
	}
}
