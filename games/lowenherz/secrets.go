package lowenherz

import (
	"slices"

	"github.com/heraldgames/herald/adjudicator"
	"strings"
)

// Secrets returns what viewer may not see now (adjudicator.Secretive):
// the cards in the other players' hands and in the deck, each named as
// the game writes it ("B knight or 2 borders"), and a card only when
// viewer sees none of that name (in their hand, the market, the card
// played). A card whose name begins another's is left out.
func (s *State) Secrets(viewer string) []string {
	if s.phase == phaseOver {
		return nil
	}
	p := s.index(viewer)
	seen := map[Card]bool{s.card: true}
	for _, c := range s.market {
		seen[c] = true
	}
	if p >= 0 {
		for _, c := range s.players[p].hand {
			seen[c] = true
		}
	}
	var out []string
	add := func(c Card) {
		if !seen[c] && c.exists() && !slices.Contains(out, c.String()) && !prefixOfAnother(c) {
			out = append(out, c.String())
		}
	}
	for q, pl := range s.players {
		if q == p {
			continue
		}
		for _, c := range pl.hand {
			add(c)
		}
	}
	for _, c := range s.deck {
		add(c)
	}
	return out
}

// prefixOfAnother reports whether c's name begins the name of another
// card ("B extension" and "B extension or 2 borders"): finding it in a
// text says nothing of c.
func prefixOfAnother(c Card) bool {
	for d := range cardTable {
		if d != c && strings.HasPrefix(d.String(), c.String()+" ") {
			return true
		}
	}
	return false
}

// Reveals reports whether player's step m turns up what was hidden
// (adjudicator.Revealer): a card drawn from the deck, into a hand or the
// market.
func (s *State) Reveals(player string, m adjudicator.Move) bool {
	c := s.clone()
	if c.Apply(player, m) != nil {
		return false
	}
	return len(c.deck) != len(s.deck)
}
