package lowenherz

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestNoLeak changes one player's hand and the deck order and checks that
// nothing anyone else sees changes: Text(""), Board(), the other players'
// Text and Private.
func TestNoLeak(t *testing.T) {
	for seed := range 20 {
		n := 2 + seed%3
		players := []string{"red", "blue", "yellow", "green"}[:n]
		opts, _ := Game.ResolveOptions(nil)
		st, _ := Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(fmt.Sprint(seed))})
		s := st.(*State)
		rng := adjudicator.NewRNG(fmt.Sprint("leak", seed))
		for step := 0; len(s.ToMove()) > 0; step++ {
			if step%7 == 0 {
				for p := range players {
					checkHidden(t, s, p)
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

func checkHidden(t *testing.T, s *State, p int) {
	t.Helper()
	c := s.clone()
	for i := range c.players[p].hand {
		c.players[p].hand[i] = Card{'D', Alliance}
		if s.players[p].hand[i] == c.players[p].hand[i] {
			c.players[p].hand[i] = Card{'A', Border1}
		}
	}
	slices.Reverse(c.deck)
	if s.Text("") != c.Text("") {
		t.Fatalf("Text(\"\") shows %s's hand or the deck", s.names[p])
	}
	a, _ := json.Marshal(s.Board())
	b, _ := json.Marshal(c.Board())
	if string(a) != string(b) {
		t.Fatalf("Board() shows %s's hand or the deck", s.names[p])
	}
	for q, name := range s.names {
		if q == p {
			continue
		}
		if s.Text(name) != c.Text(name) {
			t.Fatalf("%s's view shows %s's hand", name, s.names[p])
		}
		x, _ := json.Marshal(s.Private(name))
		y, _ := json.Marshal(c.Private(name))
		if string(x) != string(y) {
			t.Fatalf("%s's private view shows %s's hand", name, s.names[p])
		}
	}
}
