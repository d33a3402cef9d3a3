package bot

import (
	"fmt"
	"slices"

	"github.com/heraldgames/herald/adjudicator"
)

// The yardsticks of the bot's strength: two simple players its games are
// measured against, a uniform random one and a greedy one-step one.

// RandomStep returns one of seat's legal steps in st, each as likely as
// the others, drawn from rng. st is not changed.
func RandomStep(st adjudicator.State, seat string, rng *adjudicator.RNG) (adjudicator.Move, error) {
	legal := st.Legal(seat)
	if len(legal) == 0 {
		return nil, fmt.Errorf("bot: %s has no legal step (to move: %v)", seat, st.ToMove())
	}
	return legal[rng.IntN(len(legal))], nil
}

// GreedyStep returns the legal step of seat after which seat's own score
// is the highest, ties broken by rng: a player who looks one step ahead
// and no further. seats are the names the game's Scores are given for
// (adjudicator.Match.Seats). The steps are tried on one redrawing of what
// seat cannot see (the game's Determinize), so that the greedy player
// peeks no more than the bot does; a game without a Determinizer is
// refused (ErrNoDeterminizer). st is not changed.
func GreedyStep(st adjudicator.State, seats []string, seat string, rng *adjudicator.RNG) (adjudicator.Move, error) {
	i := slices.Index(seats, seat)
	if i < 0 {
		return nil, fmt.Errorf("bot: %q is not a seat of this game (seats: %v)", seat, seats)
	}
	det, ok := st.(adjudicator.Determinizer)
	if !ok {
		return nil, ErrNoDeterminizer
	}
	legal := st.Legal(seat)
	if len(legal) == 0 {
		return nil, fmt.Errorf("bot: %s has no legal step (to move: %v)", seat, st.ToMove())
	}
	if len(legal) == 1 {
		return legal[0], nil
	}
	d := det.Determinize(seat, rng)
	var best []adjudicator.Move
	bestScore := 0
	for _, m := range legal {
		c := d.Clone()
		if err := c.Apply(seat, m); err != nil {
			return nil, fmt.Errorf("bot: %s's legal step %q was refused: %w", seat, m, err)
		}
		sc := c.Scores()
		if i >= len(sc) {
			return nil, fmt.Errorf("bot: the game scores %d seats, not %s (seat %d)", len(sc), seat, i+1)
		}
		switch {
		case len(best) == 0 || sc[i] > bestScore:
			best, bestScore = []adjudicator.Move{m}, sc[i]
		case sc[i] == bestScore:
			best = append(best, m)
		}
	}
	return best[rng.IntN(len(best))], nil
}
