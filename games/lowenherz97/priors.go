package lowenherz97

import (
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

var _ bot.Prior = (*State)(nil)

// Priors gives the bot's search (bot.Prior) what each wall step gains at
// once: a wall that closes a region scores it for its prince
// (lowenherz-1997-fr.txt:219-230), who may be another player. So
// prior[i] is, for a wall step of the walls action, the power points
// player gains by it less the most any other player gains; 0 for every
// other step. Only a wall that may cut an area (grid.MayCut) can make a
// region, and only those are placed, on a copy.
func (s *State) Priors(player string, legal []adjudicator.Move, prior []int) bool {
	if s.phase != phaseAct || s.act.action.Kind != Walls {
		return false
	}
	p := s.index(player)
	if p < 0 || p != s.actor {
		return false
	}
	any := false
	for i, m := range legal {
		w, ok := m.(Wall)
		if !ok || !s.g.MayCut(w.Edge) {
			continue
		}
		c := s.clone()
		c.scratch = true // logs nothing, and owns what it changes
		c.placeWall(w.Edge)
		best := 0
		for j := range s.names {
			if g := c.score[j] - s.score[j]; j != p && g > best {
				best = g
			}
		}
		prior[i] = c.score[p] - s.score[p] - best
		any = any || prior[i] != 0
	}
	return any
}
