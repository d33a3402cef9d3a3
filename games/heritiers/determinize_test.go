package heritiers

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// hiddenFrom returns a copy of s that seat sees alike but whose hidden
// part is moved on: the other seat's hand and the stack but its top (whose
// colour shows) each take the next one's place, and so do Henri's treasure pile and the tokens set
// aside.
func hiddenFrom(s *State, seat int) *State {
	c := s.clone()
	var places []*int16
	for i := range c.hands[1-seat] {
		places = append(places, &c.hands[1-seat][i])
	}
	for i := 1; i < len(c.stack); i++ {
		places = append(places, &c.stack[i])
	}
	for i := 1; i < len(places); i++ {
		*places[i-1], *places[i] = *places[i], *places[i-1]
	}
	if c.solo {
		tok := slices.Concat(c.treasures, c.setAside)
		if len(tok) > 1 {
			tok = append(tok[1:], tok[0])
		}
		n := len(c.treasures)
		c.treasures, c.setAside = tok[:n:n], tok[n:]
	}
	return c
}

// TestDeterminize checks Determinize and the bot's honesty through a few
// games, solo ones among them, for every player: what a seat cannot see
// changes neither the determinization nor the bot's step.
func TestDeterminize(t *testing.T) {
	for seed := range 4 {
		players := []string{"alice", "bob"}[:1+seed%2]
		opts, _ := Game.ResolveOptions(map[string]string{"level": fmt.Sprint(1 + seed%3)})
		if len(players) == 2 {
			opts, _ = Game.ResolveOptions(nil)
		}
		st, err := Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(fmt.Sprint(seed))})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		seats := slices.Concat(players, s.Automata())
		rng := adjudicator.NewRNG(fmt.Sprint("determinize", seed))
		for step := 0; len(s.ToMove()) > 0; step++ {
			if step%25 == 0 {
				for p, name := range players {
					gametest.CheckDeterminize(t, s, hiddenFrom(s, p), seats, name)
				}
			}
			p := s.ToMove()[0]
			if p == Henri {
				steps, err := s.AutoSteps(p)
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range steps {
					if err := s.Apply(p, a.Move); err != nil {
						t.Fatal(err)
					}
				}
				continue
			}
			l := s.Legal(p)
			if err := s.Apply(p, l[rng.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
