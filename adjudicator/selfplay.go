package adjudicator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SelfPlay plays a whole game of g between players p1..pN who each pick a
// random legal step until their turn is over, and returns the match. Every
// submission goes through the notation (each step printed, then parsed
// back) exactly as a player's would. The players' choices come from their
// own RNG seeded from seed, so the same seed gives the same game. clock
// gives the time recorded with each move. In a sealed round (see
// [SealedIn], as in Löwenherz 1997's confrontations) a
// player whose sealed step is in stays to move only to replace it: their
// submission ends with that step, and they are not picked again until the
// round closes.
func SelfPlay(g *Game, reg *Registry, n int, seed string, options map[string]string, clock func() string) (*Match, error) {
	players := make([]string, n)
	for i := range players {
		players[i] = "p" + strconv.Itoa(i+1)
	}
	rec, err := NewRecord(g, players, options, seed, nil)
	if err != nil {
		return nil, err
	}
	m, err := Start(reg, rec)
	if err != nil {
		return nil, err
	}
	rng := NewRNG("selfplay\x00" + seed)
	const maxSubmissions = 100_000
	for range maxSubmissions {
		to := m.State.ToMove()
		if len(to) == 0 {
			return m, nil
		}
		// The seats the game plays itself move on their own (Automaton).
		to = slices.DeleteFunc(slices.Clone(to), func(p string) bool { return slices.Contains(Automata(m.State), p) })
		// A player whose sealed step is in stays to move only to replace
		// it: the others are waited for.
		to = slices.DeleteFunc(to, func(p string) bool { return SealedIn(m.State, p) })
		if len(to) == 0 {
			return m, fmt.Errorf("self-play: move %d: only the game's own seats are to move, and none moved", m.MoveNumber())
		}
		p := to[rng.IntN(len(to))]
		scratch := m.State.Clone()
		var steps []string
		for slices.Contains(scratch.ToMove(), p) && !SealedIn(scratch, p) {
			legal := scratch.Legal(p)
			if len(legal) == 0 {
				return m, fmt.Errorf("self-play: %s must act at move %d but has no legal step", p, m.MoveNumber())
			}
			mv := legal[rng.IntN(len(legal))]
			if err := scratch.Apply(p, mv); err != nil {
				return m, fmt.Errorf("self-play: move %d: %s's listed legal step %q was refused: %w", m.MoveNumber(), p, mv, err)
			}
			steps = append(steps, mv.String())
		}
		if _, err := m.Submit(p, strings.Join(steps, "\n"), clock(), "selfplay"); err != nil {
			return m, fmt.Errorf("self-play: move %d: %s's steps %q, printed and parsed back, were refused: %w", m.MoveNumber(), p, steps, err)
		}
	}
	return m, fmt.Errorf("self-play: no end after %d submissions", maxSubmissions)
}
