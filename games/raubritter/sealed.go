package raubritter

import (
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// setupRound is the sealed round of the setup's keeps: no player sees which
// A tile another kept until every player has kept (RULINGS.md RB-15), when
// the start layout is laid and play begins. A game has one setup, so the
// round is never reused.
const setupRound = 1

// SealOf returns the sealed round of player's step m, taken now, or 0: a
// keep in the setup is sealed until every player has kept (RB-15); every
// other step of this game is open.
func (s *State) SealOf(player string, m adjudicator.Move) int {
	switch m.(type) {
	case Keep, *Keep:
		if s.phase == phaseSetup {
			return setupRound
		}
	}
	return 0
}

// SealOpen reports whether the steps sealed in round r are still hidden:
// the keeps, while the setup lasts.
func (s *State) SealOpen(r int) bool {
	return r == setupRound && s.phase == phaseSetup
}

// PublicStep returns the text of player's step m as the other players may
// see it before the reveal: "alice keeps an A tile" / "alice garde une
// plaquette A" for a keep ("keeps an A tile" for player ""), the step
// itself for any other.
func (s *State) PublicStep(player string, m adjudicator.Move, lang notation.Lang) string {
	switch m.(type) {
	case Keep, *Keep:
		if lang == notation.French {
			return adjudicator.Subject(player, "garde une plaquette A")
		}
		return adjudicator.Subject(player, "keeps an A tile")
	}
	return m.String()
}

// The host shows a step to other players through adjudicator.StepText and
// Match.History, which rely on these methods.
var _ adjudicator.Sealer = (*State)(nil)
