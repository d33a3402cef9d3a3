package lowenherz97

import (
	"cmp"
	"slices"

	"github.com/heraldgames/herald/adjudicator"
)

var _ adjudicator.Determinizer = (*State)(nil)

// Determinize returns a copy of the state in which what seat cannot see
// is drawn anew from rng (adjudicator.Determinizer):
//
//   - the action cards left in the deck are shuffled within each letter,
//     the letter being on the back (lowenherz-1997-fr.txt:88-91);
//   - the political cards of the other players' hands and of the two
//     piles are dealt again among them, each hand and pile keeping its
//     size, but for the pile seat is looking at while carrying out a
//     crown, which seat sees;
//   - the sealed bids the others have in, still hidden, are drawn again
//     among the bids each may make with the copy's cards and their
//     ducats (a bid is in or not for all to see).
//
// The ducats of each player are kept: every payment is made in the open
// and every bid is revealed once the last is in. What is redealt is sorted
// first, so the copy depends on seat's view and rng alone.
func (s *State) Determinize(seat string, rng *adjudicator.RNG) adjudicator.State {
	c := s.clone()
	c.scratch = true
	me := c.index(seat)
	// The deck, by letter.
	// Each card is shuffled with its name, looked up once (cardNames)
	// rather than at every comparison of the sort.
	named := make([]namedCard, len(c.deck))
	deck := make([]*namedCard, len(c.deck))
	for i, d := range c.deck {
		named[i] = namedCard{d, d.name()}
		deck[i] = &named[i]
	}
	adjudicator.ShuffleWithinLetters(rng, deck, func(d namedCard) byte { return d.Letter }, func(a, b namedCard) int { return cmp.Compare(a.name, b.name) })
	c.deck = make([]Card, len(named))
	for i, d := range named {
		c.deck[i] = d.Card
	}
	// The political cards.
	var places []*Political
	for p := range c.hands {
		if p == me {
			continue
		}
		c.hands[p] = slices.Clone(c.hands[p])
		for i := range c.hands[p] {
			places = append(places, &c.hands[p][i])
		}
	}
	for k := range c.piles {
		if c.phase == phaseAct && c.actor == me && int(c.act.looked) == k {
			continue
		}
		c.piles[k] = slices.Clone(c.piles[k])
		for i := range c.piles[k] {
			places = append(places, &c.piles[k][i])
		}
	}
	pol := make([]Political, len(places))
	for i, q := range places {
		pol[i] = *q
	}
	slices.SortFunc(pol, func(a, b Political) int { return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Value, b.Value)) })
	rng.Shuffle(len(pol), func(i, j int) { pol[i], pol[j] = pol[j], pol[i] })
	for i, q := range places {
		*q = pol[i]
	}
	// The others' sealed bids.
	if c.phase == phaseBid {
		for _, p := range c.contenders {
			if p == me || !c.bids[p].in {
				continue
			}
			c.bids[p] = bid{}
			var bids []adjudicator.Move
			for _, m := range c.Legal(c.names[p]) {
				switch m.(type) {
				case Bid, *Bid:
					bids = append(bids, m)
				}
			}
			if len(bids) == 0 {
				panic("lowenherz97: Determinize: " + c.names[p] + " may bid nothing, not even nothing")
			}
			if err := c.Apply(c.names[p], bids[rng.IntN(len(bids))]); err != nil {
				panic("lowenherz97: Determinize: a listed legal bid was refused: " + err.Error())
			}
		}
	}
	return c
}

// namedCard is a card of the deck with its name, for Determinize.
type namedCard struct {
	Card
	name string
}

// cardNames holds the name (String) of each action card of the game,
// made once: a determinization sorts the deck by the cards' names.
var cardNames = func() map[Card]string {
	t := map[Card]string{}
	for _, c := range actionCards {
		t[c] = c.String()
	}
	return t
}()

// name returns c.String(), from cardNames where it is.
func (c Card) name() string {
	if n, ok := cardNames[c]; ok {
		return n
	}
	return c.String()
}
