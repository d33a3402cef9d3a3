package raubritter

import (
	"slices"
	"strings"

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

// Waiting says why player must wait in the setup, once they have kept: a
// second keep, or any step, is answered with the tile they kept (their
// own, so no one else's secret) and what comes next, where "it is not
// red's turn" left them guessing (RB-15, RB-3). Anywhere else it returns
// nil, for the generic "it is not red's turn".
func (s *State) Waiting(player string) error {
	p := s.index(player)
	if p < 0 || s.phase != phaseSetup || !s.players[p].kept {
		return nil
	}
	pl := s.players[p]
	c := slices.IndexFunc(pl.hand, func(k Kind) bool { return k.Building == Castle })
	kept := slices.Delete(slices.Clone(pl.hand), c, c+1)
	wait := s.ToMove()
	waitFR := strings.Join(wait, ", ")
	if len(wait) > 1 {
		waitFR = strings.Join(wait[:len(wait)-1], ", ") + " et " + wait[len(wait)-1]
	}
	waitEN := strings.ReplaceAll(waitFR, " et ", " and ")
	first := adjudicator.Words{EN: s.names[0] + " plays", FR: s.names[0] + " joue"}
	if p == 0 {
		first = adjudicator.Words{EN: "you play", FR: "vous jouez"}
	}
	return adjudicator.Rulef("kept", ruleKeep,
		"you have already kept your A tile, %s, beside your castle; waiting for %s to keep theirs: then the start layout is turned face up and %s first",
		"vous avez déjà gardé votre plaquette A, %s, avec votre château ; on attend que %s garde la sienne : ensuite la disposition de départ est retournée et %s en premier",
		kindWords(kept), adjudicator.Words{EN: waitEN, FR: waitFR}, first)
}

var _ adjudicator.Waiter = (*State)(nil)

// The host shows a step to other players through adjudicator.StepText and
// Match.History, which rely on these methods.
var _ adjudicator.Sealer = (*State)(nil)
