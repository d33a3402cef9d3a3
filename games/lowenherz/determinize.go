package lowenherz

import (
	"cmp"

	"github.com/heraldgames/herald/adjudicator"
)

var _ adjudicator.Determinizer = (*State)(nil)

// Determinize returns a copy of the state in which the cards seat cannot
// see, the other players' hands and the deck, are dealt anew from rng.
// A card's letter is printed on its back (lowenherz-2003-fr-scan.txt:80),
// so each hidden place keeps the letter it had and only cards of that
// letter are redealt among the places of that letter: the hands keep
// their sizes, the deck its length and its A-on-top order of letters.
// What is redealt is sorted first, so the copy depends on seat's view and
// rng alone (adjudicator.Determinizer).
func (s *State) Determinize(seat string, rng *adjudicator.RNG) adjudicator.State {
	c := s.clone()
	me := c.index(seat)
	// The hidden places, in a fixed order: the others' hands in seating
	// order, then the deck from the top.
	n := len(c.deck)
	for p := range c.names {
		if p != me {
			n += len(c.players[p].hand)
		}
	}
	places := make([]*Card, 0, n)
	for p := range c.names {
		if p == me {
			continue
		}
		for i := range c.players[p].hand {
			places = append(places, &c.players[p].hand[i])
		}
	}
	for i := range c.deck {
		places = append(places, &c.deck[i])
	}
	adjudicator.ShuffleWithinLetters(rng, places, func(c Card) byte { return c.Letter }, func(a, b Card) int { return cmp.Compare(a.Kind, b.Kind) })
	return c
}
