package heritiers

import (
	"slices"

	"github.com/heraldgames/herald/adjudicator"
)

// Secrets returns what viewer may not see now (adjudicator.Secretive):
// the ids of the tiles in the other seats' hands and in the stack
// ("siège-2"); every tile has its own id. A tile of a hand that paid this
// turn is left out: the status line names it.
func (s *State) Secrets(viewer string) []string {
	if s.over {
		return nil
	}
	me := s.seat(viewer)
	var out []string
	for seat, hand := range s.hands {
		if seat == me {
			continue
		}
		for _, t := range hand {
			if !slices.Contains(s.paidTiles, t) { // the status line names them
				out = append(out, s.tile(t).ID)
			}
		}
	}
	for _, t := range s.stack {
		out = append(out, s.tile(t).ID)
	}
	return out
}

// Reveals reports whether player's step m turns up what was hidden
// (adjudicator.Revealer): a tile drawn from the stack, into a hand or the
// royal reserve, or a treasure taken from Henri's pile.
func (s *State) Reveals(player string, m adjudicator.Move) bool {
	c := s.clone()
	if c.Apply(player, m) != nil {
		return false
	}
	return len(c.stack) != len(s.stack) || len(c.treasures) != len(s.treasures)
}
