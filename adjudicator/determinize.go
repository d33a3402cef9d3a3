package adjudicator

import "slices"

// A Determinizer is a State that can redraw what one seat cannot see. It
// is an optional part of the engine contract, found by type assertion; a
// search that plays a seat (package adjudicator/bot) needs it to reason
// about the cards and tiles it does not know without peeking at them.
//
// Determinize returns an independent copy of the state in which everything
// seat cannot see (the others' hands, the order of a deck or a stack, the
// others' sealed steps still hidden, the next cards) is drawn anew from
// rng, consistently with what seat has seen: the same sizes, the same
// public marks (a card's back letter), the same things still unseen. The
// copy must be a legal state of the game, playable to its end.
//
// It must be honest: its result is a function of seat's view of the state
// and of rng alone. Two states that seat sees alike (that differ only in
// what seat cannot see) give equal copies for equal rng streams, so it
// never lets the state's hidden arrangement through (sort what is redrawn
// before drawing it). seat may be a player or a seat the game plays
// itself; the copy of a state seat sees whole is a plain Clone.
type Determinizer interface {
	Determinize(seat string, rng *RNG) State
}

// ShuffleWithinLetters deals the values at places again among the places
// of the same letter, the letter being a public mark (a card's or a tile's
// back): each letter's values are sorted by compare first, then shuffled
// from rng and written back to that letter's places in their order. So the
// result depends on the values as a set and on rng, never on how they lay.
func ShuffleWithinLetters[E any](rng *RNG, places []*E, letter func(E) byte, compare func(a, b E) int) {
	var seen [256]bool
	var lettersAt [8]byte // a few letters: the list stays on the stack
	letters := lettersAt[:0]
	for _, q := range places {
		if l := letter(*q); !seen[l] {
			seen[l] = true
			letters = append(letters, l)
		}
	}
	slices.Sort(letters)
	// One list of places and one of values, for every letter in turn.
	at := make([]*E, 0, len(places))
	values := make([]E, 0, len(places))
	for _, l := range letters {
		at, values = at[:0], values[:0]
		for _, q := range places {
			if letter(*q) == l {
				at = append(at, q)
				values = append(values, *q)
			}
		}
		slices.SortStableFunc(values, compare)
		rng.Shuffle(len(values), func(i, j int) { values[i], values[j] = values[j], values[i] })
		for i, q := range at {
			*q = values[i]
		}
	}
}
