package lowenherz97

import (
	"slices"

	"github.com/heraldgames/herald/adjudicator"
)

// Secrets returns what viewer may not see now (adjudicator.Secretive):
// the political cards of the piles (but the pile the player carrying out
// the crown looks at, for them), of the other players' hands until the
// game is over, and the action cards still in the deck; each named as the
// game writes it ("treasure 5", "B: 8 ducats / 2 walls / 2 shields"), and
// a card only when viewer sees none of that name.
func (s *State) Secrets(viewer string) []string {
	if s.phase == phaseOver {
		return nil
	}
	p := s.index(viewer)
	seen := map[string]bool{s.card.String(): true}
	if p >= 0 {
		for _, c := range s.hands[p] {
			seen[c.String()] = true
		}
	}
	var out []string
	add := func(name string) {
		if !seen[name] && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	looking := -1
	if s.phase == phaseAct && p >= 0 && s.actor == p && s.act.looked >= 0 {
		looking = int(s.act.looked)
		for _, c := range s.piles[looking] {
			seen[c.String()] = true
		}
	}
	for i, pile := range s.piles {
		if i == looking {
			continue
		}
		for _, c := range pile {
			add(c.String())
		}
	}
	for q, hand := range s.hands {
		if q == p {
			continue
		}
		for _, c := range hand {
			add(c.String())
		}
	}
	for _, c := range s.deck {
		add(c.String())
	}
	return out
}

// Reveals reports whether player's step m turns up what was hidden
// (adjudicator.Revealer): a pile looked at, the next action card turned,
// the bids of a confrontation shown when the last is in, the political
// cards shown at the end.
func (s *State) Reveals(player string, m adjudicator.Move) bool {
	c := s.clone()
	if c.Apply(player, m) != nil {
		return false
	}
	switch {
	case len(c.deck) != len(s.deck), c.card != s.card:
		return true
	case c.phase == phaseAct && c.act.looked >= 0 && (s.phase != phaseAct || s.act.looked < 0):
		return true
	case s.phase == phaseBid && (c.phase != phaseBid || c.sealRound != s.sealRound):
		return true
	}
	return c.phase == phaseOver && s.phase != phaseOver
}

// SealWait says what the sealed round r waits for
// (adjudicator.SealWaiter): the cards taken, the game's end; the bids,
// the last bid of their confrontation.
func (s *State) SealWait(r int) string {
	if r == handRound {
		return "the game is over"
	}
	return "every bid of the confrontation is in"
}
