package raubritter

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// hiddenFrom returns a copy of s that seat sees alike but whose hidden
// part is changed: every stack reversed within each letter; another
// player's hand reversed, and its first tile swapped with one of its
// stack's top letter where the letter has room for it; during the setup,
// the tile another player kept swapped with one of their layout.
func hiddenFrom(s *State, seat int) *State {
	c := s.clone()
	for i, p := range c.players {
		p.stack = slices.Clone(p.stack)
		for _, l := range []byte("ABCDE") {
			var at []int
			for j, t := range p.stack {
				if t.Letter == l {
					at = append(at, j)
				}
			}
			for a, b := 0, len(at)-1; a < b; a, b = a+1, b-1 {
				p.stack[at[a]], p.stack[at[b]] = p.stack[at[b]], p.stack[at[a]]
			}
		}
		if i == seat {
			continue
		}
		if c.phase == phaseSetup {
			if p.kept {
				p.hand[1], p.layout[0] = p.layout[0], p.hand[1]
			}
			continue
		}
		slices.Reverse(p.hand)
		if len(p.hand) == 0 || len(p.stack) == 0 {
			continue
		}
		top := p.stack[0].Letter
		h := p.hand[0]
		room := 0
		for _, k := range c.data.Letters[top] {
			if k == h {
				room++
			}
		}
		for _, t := range p.stack {
			if t.Letter == top && t.Kind == h {
				room--
			}
		}
		if room <= 0 {
			continue
		}
		for j, t := range p.stack {
			if t.Letter == top && t.Kind != h {
				p.hand[0], p.stack[j].Kind = t.Kind, h
				break
			}
		}
	}
	return c
}

// TestDeterminize checks Determinize and the bot's honesty through a few
// games, from the setup on, for every player: what a seat cannot see
// changes neither the determinization nor the bot's step.
func TestDeterminize(t *testing.T) {
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
			if step%20 == 1 || step < len(players) {
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
