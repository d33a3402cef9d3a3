package lowenherz

import (
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

var _ bot.Prior = (*State)(nil)

// Priors gives the bot's search (bot.Prior) what each border step gains
// at once: a border scores the moment it closes a domain
// (lowenherz-2003-fr.txt:90), for the domain's owner, who may be another
// player. So prior[i] is, for a border that divides its region, the
// points player's marker gains by it less the most any other player's
// gains; 0 for every other step. Only a border on a bridge of the board
// (an edge without which its region falls in two) divides a region, and
// only those are scored, on a copy.
func (s *State) Priors(player string, legal []adjudicator.Move, prior []int) bool {
	if s.phase != phasePlay || s.step != stepAction || s.act.act != ActBorders {
		return false
	}
	p := s.index(player)
	if p < 0 {
		return false
	}
	bridge := s.bridges()
	any := false
	for i, m := range legal {
		b, ok := m.(*BorderStep)
		if !ok || !b.Edge.valid() || !bridge[b.Edge] {
			continue
		}
		c := s.clone()
		c.border[b.Edge] = true
		c.bordersOnBoard++
		c.rescore()
		best := 0
		for j := range s.names {
			if g := c.players[j].score - s.players[j].score; j != p && g > best {
				best = g
			}
		}
		prior[i] = c.players[p].score - s.players[p].score - best
		any = any || prior[i] != 0
	}
	return any
}

// bridges marks the edges without a border whose border would divide
// their region in two: the bridges of the graph of the squares and their
// sides without a border (Tarjan's low links, one depth-first walk).
func (s *State) bridges() (out [numEdges]bool) {
	var disc, low [Size * Size]int16 // 0: not reached yet
	t := int16(0)
	var walk func(q Square, via Edge)
	walk = func(q Square, via Edge) {
		t++
		disc[q], low[q] = t, t
		for d := North; d <= West; d++ {
			e := edgeOf(q, d)
			if e < 0 || e == via || s.border[e] {
				continue
			}
			n := q.neighbour(d)
			if disc[n] == 0 {
				walk(n, e)
				low[q] = min(low[q], low[n])
				if low[n] > disc[q] {
					out[e] = true
				}
			} else {
				low[q] = min(low[q], disc[n])
			}
		}
	}
	for q := Square(0); q < Size*Size; q++ {
		if disc[q] == 0 {
			walk(q, noEdge)
		}
	}
	return out
}
