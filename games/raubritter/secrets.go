package raubritter

import (
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
)

// Secrets returns what viewer may not see now (adjudicator.Secretive):
// the tiles in the other players' hands and in every stack (a stack's
// order is hidden from its owner too), and the start layout's tiles face
// down; each named as the game writes it ("forest village"), and a kind
// only when viewer sees none of it (in their hand, their start-layout tiles or on
// the board). A
// tile without building is left out: its name ("plain") is part of the
// names of the others.
//
// During the setup it adds the A tile each other player kept, as their
// step reads ("keep forest village"): every player holds the same A
// tiles, so the kept tile's name alone says nothing, but the step says
// which one another player chose, which stays secret until every player
// has kept (RULINGS.md RB-15).
func (s *State) Secrets(viewer string) []string {
	if s.phase == phaseOver {
		return nil
	}
	p := s.index(viewer)
	var out []string
	if s.phase == phaseSetup {
		for q, pl := range s.players {
			if k, ok := keptStep(pl); q != p && pl.kept && ok {
				out = append(out, k.String())
			}
		}
	}
	seen := map[Kind]bool{}
	for _, c := range s.cells {
		if c.placed {
			seen[c.kind] = true
		}
	}
	if p >= 0 {
		for _, k := range append(slices.Clone(s.players[p].hand), s.players[p].layout...) {
			seen[k] = true
		}
	}
	add := func(k Kind) {
		name := k.String()
		if !seen[k] && strings.Contains(name, " ") && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for q, pl := range s.players {
		for _, t := range pl.stack {
			add(t.Kind)
		}
		if q == p {
			continue
		}
		for _, k := range pl.hand {
			add(k)
		}
		for _, k := range pl.layout {
			add(k)
		}
	}
	return out
}

// Reveals reports whether player's step m turns up what was hidden
// (adjudicator.Revealer): a tile drawn from a stack, or the end of the
// setup, which lays the start layout at random.
func (s *State) Reveals(player string, m adjudicator.Move) bool {
	c := s.clone()
	if c.Apply(player, m) != nil {
		return false
	}
	if c.phase != s.phase {
		return true
	}
	for i, p := range s.players {
		if len(c.players[i].stack) != len(p.stack) {
			return true
		}
	}
	return false
}

// keptStep returns the keep pl took in the setup: the A tile beside the
// castle in their hand of two; false for any other hand (a position's).
func keptStep(pl *player) (Keep, bool) {
	c := slices.IndexFunc(pl.hand, func(k Kind) bool { return k.Building == Castle })
	if len(pl.hand) != 2 || c < 0 {
		return Keep{}, false
	}
	return Keep{Kind: pl.hand[1-c]}, true
}
