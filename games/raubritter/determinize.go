package raubritter

import (
	"cmp"
	"slices"

	"github.com/heraldgames/herald/adjudicator"
)

var _ adjudicator.Determinizer = (*State)(nil)

// Determinize returns a copy of the state in which what seat cannot see
// is drawn anew from rng (adjudicator.Determinizer):
//
//   - every stack, seat's own too, is shuffled within each back letter:
//     the letters are printed on the backs (raubritter-fr-scan.txt:61-70),
//     the order under them nobody sees;
//   - during the setup, another player who has chosen keeps one of their
//     three A tiles besides the castle, which one unseen: the three are
//     dealt again to the hand and the face-down layout;
//   - in play, another player's hand is dealt again together with the
//     tiles of their stack's top letter, the one their hand was last
//     drawn from: the stack keeps its letters, each of its places getting
//     a kind that letter has (tiles.yaml, RB-1), and the hand its size.
//
// What is redealt is sorted first, so the copy depends on seat's view
// and rng alone.
func (s *State) Determinize(seat string, rng *adjudicator.RNG) adjudicator.State {
	c := s.clone()
	me := c.index(seat)
	for i, p := range c.players {
		p.stack = slices.Clone(p.stack) // clones share stacks; this one is written
		if i == me {
			shuffleLetters(p.stack, rng)
			continue
		}
		switch {
		case c.phase == phaseSetup && p.kept:
			kinds := append([]Kind{p.hand[1]}, p.layout...)
			sortKinds(kinds)
			rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
			p.hand[1], p.layout = kinds[0], kinds[1:]
			shuffleLetters(p.stack, rng)
		case c.phase == phaseSetup || len(p.stack) == 0:
			sortKinds(p.hand)
			shuffleLetters(p.stack, rng)
		default:
			c.redealHand(p, rng)
		}
	}
	return c
}

// redealHand deals p's hand and the tiles of its stack's top letter
// again, and shuffles the rest of its stack within each letter.
func (s *State) redealHand(p *player, rng *adjudicator.RNG) {
	top := p.stack[0].Letter
	var at []int // the places of the top letter in the stack
	kinds := slices.Clone(p.hand)
	for i, t := range p.stack {
		if t.Letter == top {
			at = append(at, i)
			kinds = append(kinds, t.Kind)
		}
	}
	sortKinds(kinds)
	rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	// The stack's places take, in the shuffled order, the kinds the
	// letter still has room for; the hand the rest.
	room := map[Kind]int{}
	for _, k := range s.data.Letters[top] {
		room[k]++
	}
	var rest []Kind
	n := 0
	for _, k := range kinds {
		if n < len(at) && room[k] > 0 {
			room[k]--
			p.stack[at[n]] = Tile{Letter: top, Kind: k}
			n++
			continue
		}
		rest = append(rest, k)
	}
	// A position whose stack holds more of a kind than its letter has
	// (never one that play reaches) fills the places left in order.
	for ; n < len(at); n++ {
		p.stack[at[n]] = Tile{Letter: top, Kind: rest[0]}
		rest = rest[1:]
	}
	p.hand = rest
	shuffleLetters(p.stack, rng)
}

// shuffleLetters shuffles stack within each letter, its letters in place.
func shuffleLetters(stack []Tile, rng *adjudicator.RNG) {
	places := make([]*Tile, len(stack))
	for i := range stack {
		places[i] = &stack[i]
	}
	adjudicator.ShuffleWithinLetters(rng, places, func(t Tile) byte { return t.Letter }, func(a, b Tile) int { return compareKinds(a.Kind, b.Kind) })
}

func sortKinds(ks []Kind) { slices.SortFunc(ks, compareKinds) }

// compareKinds orders kinds by terrain, then building.
func compareKinds(a, b Kind) int {
	return cmp.Or(cmp.Compare(a.Terrain, b.Terrain), cmp.Compare(a.Building, b.Building))
}
