package heritiers

import (
	"slices"

	"github.com/heraldgames/herald/adjudicator"
)

var _ adjudicator.Determinizer = (*State)(nil)

// Determinize returns a copy of the state in which what seat cannot see
// is drawn anew from rng: the tiles of the common stack and of the other
// seat's hand are dealt again among the stack and that hand, each keeping
// its size, the top of the stack keeping the colour its back shows; in the solo game, Henri's treasure pile and the tokens the
// level set aside, unseen by anyone, are shuffled together and dealt
// again to the pile and the set-aside tokens. The tiles and tokens
// redealt are sorted first, so the copy depends on seat's view and rng
// alone (adjudicator.Determinizer).
func (s *State) Determinize(seat string, rng *adjudicator.RNG) adjudicator.State {
	c := s.clone()
	me := c.seat(seat)
	var places []*int16
	for k := range 2 {
		if k == me {
			continue
		}
		for i := range c.hands[k] {
			places = append(places, &c.hands[k][i])
		}
	}
	for i := range c.stack {
		places = append(places, &c.stack[i])
	}
	tiles := make([]int16, len(places))
	for i, q := range places {
		tiles[i] = *q
	}
	slices.Sort(tiles)
	if len(c.stack) > 0 {
		// The top of the stack shows its colour on its back: it takes
		// one of the tiles of that colour, the others are dealt after.
		colour := c.tile(c.stack[0]).Colour
		var same []int
		for i, t := range tiles {
			if c.tile(t).Colour == colour {
				same = append(same, i)
			}
		}
		top := same[rng.IntN(len(same))]
		c.stack[0] = tiles[top]
		tiles = slices.Delete(tiles, top, top+1)
		places = slices.DeleteFunc(places, func(q *int16) bool { return q == &c.stack[0] })
	}
	rng.Shuffle(len(tiles), func(i, j int) { tiles[i], tiles[j] = tiles[j], tiles[i] })
	for i, q := range places {
		*q = tiles[i]
	}
	if c.solo {
		tok := slices.Concat(c.treasures, c.setAside)
		slices.Sort(tok)
		rng.Shuffle(len(tok), func(i, j int) { tok[i], tok[j] = tok[j], tok[i] })
		n := len(c.treasures)
		c.treasures, c.setAside = tok[:n:n], tok[n:]
	}
	return c
}
