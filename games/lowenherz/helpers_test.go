package lowenherz

import (
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// parseText reads one step of text for player.
func parseText(s *State, player, text string) (adjudicator.Move, error) {
	steps, errs := notation.Split(text)
	if len(errs) > 0 {
		return nil, errs
	}
	return s.Parse(player, steps[0])
}
