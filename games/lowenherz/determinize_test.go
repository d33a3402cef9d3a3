package lowenherz

import (
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// hiddenFrom returns a copy of s that seat sees alike but whose hidden
// cards are moved on: of each letter, the cards of the others' hands and
// the deck each take the next one's place.
func hiddenFrom(s *State, seat int) *State {
	c := s.clone()
	var places []*Card
	for p := range c.names {
		if p != seat {
			for i := range c.players[p].hand {
				places = append(places, &c.players[p].hand[i])
			}
		}
	}
	for i := range c.deck {
		places = append(places, &c.deck[i])
	}
	for _, l := range []byte("ABCD") {
		var at []*Card
		for _, q := range places {
			if q.Letter == l {
				at = append(at, q)
			}
		}
		for i := 1; i < len(at); i++ {
			*at[i-1], *at[i] = *at[i], *at[i-1]
		}
	}
	return c
}

// TestDeterminize checks Determinize and the bot's honesty through a few
// games, for every seat: what a seat cannot see changes neither the
// determinization nor the bot's step.
func TestDeterminize(t *testing.T) {
	for seed := range 3 {
		n := 2 + seed%3
		players := []string{"red", "blue", "yellow", "green"}[:n]
		opts, _ := Game.ResolveOptions(nil)
		st, err := Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(fmt.Sprint(seed))})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := adjudicator.NewRNG(fmt.Sprint("determinize", seed))
		for step := 0; len(s.ToMove()) > 0; step++ {
			if step%40 == 0 {
				for p, name := range players {
					gametest.CheckDeterminize(t, s, hiddenFrom(s, p), players, name)
				}
			}
			p := s.ToMove()[0]
			l := s.Legal(p)
			if err := s.Apply(p, l[rng.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
