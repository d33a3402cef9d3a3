package adjudicator

import (
	"slices"

	"github.com/heraldgames/herald/notation"
)

// A Revealer is a State in which some steps turn up what was hidden: a
// tile drawn from a stack, a pile of cards looked at, the next action card
// turned, the sealed bids shown when the last one is in. It is an optional
// part of the engine contract, found by type assertion, and every game of
// herald with hidden information has it. A preview ([Match.Preview]) stops
// at such a step, and a refused move says nothing of why a step after one
// fails ([StepError.Reveal]): either would show its player what the step
// turned up without their playing it (RULINGS.md H-4).
type Revealer interface {
	// Reveals reports whether player's step m, about to be taken in this
	// state, turns up something hidden from player or from anyone: a draw,
	// a card turned or looked at, a sealed round closed, the game's end
	// revealing what was sealed. It does not change the state.
	Reveals(player string, m Move) bool
}

// A Secretive State can list what a viewer may not see now, for the tests
// that check that no answer shows it (package gametest's privacy test).
// It is an optional part of the engine contract, found by type assertion;
// every game of herald has it.
type Secretive interface {
	// Secrets returns the tokens of what viewer (a player, or "" for an
	// observer) may not see now: each a word or phrase as the game writes
	// it in its texts and errors (a tile's id, a card), in English. A
	// token is listed only when nothing viewer may see now names it (no
	// card of the same name in their hand, on the board or face up), so
	// that finding it in an answer to viewer, as a whole word, is a leak.
	// The order is stable.
	Secrets(viewer string) []string
}

// Secrets returns st's secrets for viewer, or nil when st lists none.
func Secrets(st State, viewer string) []string {
	if s, ok := st.(Secretive); ok {
		return s.Secrets(viewer)
	}
	return nil
}

// Preview plays player's steps on a copy of the match, as Submit would,
// and returns what a preview may show: the submission up to the first
// step that turns up something hidden ([Revealer]), that step included and
// checked, with Stop set to its number; and the state before that step,
// whose public view is what the steps show. When no step turns up
// anything, the submission is the whole and the state the one after it;
// the moves the game would then play itself are not played, and Auto
// lists only their first seat, so that a preview never shows what they
// depend on. The steps after Stop are not checked. On error, a refusal as
// Submit's; the match does not change either way.
func (m *Match) Preview(player string, steps []*notation.Step) (*Submission, State, error) {
	if err := m.endedError(); err != nil {
		return nil, nil, err
	}
	if slices.Contains(Automata(m.State), player) {
		return nil, nil, Rulef(CodeAutomatonSeat, "", "%s is played by the game itself: its moves follow the players' by themselves",
			"%s est joué par le jeu lui-même : ses coups suivent d'eux-mêmes ceux des joueurs", player)
	}
	sub, st, err := m.tryUntil(m.State, player, steps, m.MoveNumber(), true)
	if err != nil {
		return nil, nil, err
	}
	if seat := automatonToMove(st); sub.Stop == 0 && seat != "" {
		sub.Auto = []*Submission{{Number: sub.Number + 1, Player: seat}}
	}
	return sub, st, nil
}
