package adjudicator

import (
	"fmt"
	"strings"

	"github.com/heraldgames/herald/notation"
)

// A Sealer is a State in which some steps stay hidden from the other
// players for a while, as the sealed bids of Löwenherz 1997's
// confrontations stay hidden until the last bid is in. It is an optional
// part of the engine contract, found by type assertion. Anything that
// shows one player's steps to another (a broadcast of a move, a move
// history) must go through [StepText] or [Match.History], never Move.String.
//
// Sealed steps are taken in rounds. A step is sealed when the state it is
// taken in says so, naming its round ([Sealer.SealOf], asked before the
// step is applied); it stays hidden while the state says its round is open
// ([Sealer.SealOpen]), and is revealed for good once the round closes,
// which the last step of the round itself may do (the last bid in). The
// match notes each step's round in [Submission.Rounds].
type Sealer interface {
	// SealOf returns the round player's step m, about to be taken in this
	// state, is sealed in, or 0 for a step nobody hides. It is asked of
	// the state before the step. A round is a number the game chooses,
	// never reused once closed (a tie's rebid is a new round).
	SealOf(player string, m Move) int

	// SealOpen reports whether the steps sealed in round r are still
	// hidden in this state. Once it answers false it must for every later
	// state.
	SealOpen(r int) bool

	// PublicStep returns what the other players may see of player's
	// sealed step m: "alice has bid", or in French "alice a misé". With
	// player "" it returns the step without its subject ("has bid", "a
	// misé"), for a list that names the player already (a history grouped
	// by turn, [Match.TurnHistory]).
	PublicStep(player string, m Move, lang notation.Lang) string
}

// Subject returns the public form of a sealed step for
// [Sealer.PublicStep]: predicate with player as its subject ("alice has
// bid"), or predicate alone for player "" ("has bid").
func Subject(player, predicate string) string {
	if player == "" {
		return predicate
	}
	return player + " " + predicate
}

// Hidden reports whether the j-th step of sub (0 for the first) is hidden
// in st, a state at or after sub: it was sealed when taken and its round
// is still open in st.
func (sub *Submission) Hidden(st State, j int) bool {
	if j >= len(sub.Rounds) || sub.Rounds[j] == 0 {
		return false
	}
	s, ok := st.(Sealer)
	return ok && s.SealOpen(sub.Rounds[j])
}

// StepText returns the text of the j-th step of sub (0 for the first) as
// viewer may see it in st, a state at or after sub: the step itself for
// the player who took it or a step nobody hides, its public form for
// anyone else while it is hidden. viewer "" is the public (an observer).
// The step itself is in canonical notation; Match.StepText writes it in
// lang.
func StepText(st State, sub *Submission, j int, viewer string, lang notation.Lang) string {
	return stepText(nil, st, sub, j, viewer, lang, sub.Player)
}

// StepText is the package's StepText in m.State, with the step itself
// written in lang too (Game.StepIn): "plaine château f5" for a French
// reader.
func (m *Match) StepText(sub *Submission, j int, viewer string, lang notation.Lang) string {
	return stepText(m.Game, m.State, sub, j, viewer, lang, sub.Player)
}

// stepText is StepText with the subject of a hidden step's public form:
// the player, or "" for none; a step shown is written in lang with game's
// words when game is set.
func stepText(game *Game, st State, sub *Submission, j int, viewer string, lang notation.Lang, subject string) string {
	mv := sub.Moves[j]
	if viewer != sub.Player && sub.Hidden(st, j) {
		return st.(Sealer).PublicStep(subject, mv, lang)
	}
	return game.StepIn(mv.String(), lang)
}

// SealedIn reports whether player has a sealed step in st that they may
// still replace but need not: they stay in ToMove for that alone. A game
// whose sealed rounds work this way has a SealedIn(player) bool method.
func SealedIn(st State, player string) bool {
	s, ok := st.(interface{ SealedIn(player string) bool })
	return ok && s.SealedIn(player)
}

// History returns each recorded move's steps, one string per move with
// the steps separated by "; ", as viewer may see them now: a step of
// another player still hidden (its sealed round still open) is given in
// its public form; each step is written in lang (Game.StepIn). It
// replays the record, so it needs the registry.
func (m *Match) History(reg *Registry, viewer string, lang notation.Lang) ([]string, error) {
	return m.history(reg, viewer, lang, true)
}

// TurnHistory is History for a list that names each move's player
// already, as the web page's history grouped by turn does: a step still
// hidden from viewer is given in its public form without its subject
// ("has bid", not "alice has bid").
func (m *Match) TurnHistory(reg *Registry, viewer string, lang notation.Lang) ([]string, error) {
	return m.history(reg, viewer, lang, false)
}

// history is History, hidden steps with their subject or without.
func (m *Match) history(reg *Registry, viewer string, lang notation.Lang, subject bool) ([]string, error) {
	r, err := startEmpty(reg, m.Record)
	if err != nil {
		return nil, err
	}
	subs := make([]*Submission, len(m.Record.Moves))
	for i, rm := range m.Record.Moves {
		if subs[i], err = r.apply(rm.Player, rm.Text); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, rm.Player, err)
		}
	}
	out := make([]string, len(subs))
	for i, sub := range subs {
		texts := make([]string, len(sub.Moves))
		who := ""
		if subject {
			who = sub.Player
		}
		for j := range sub.Moves {
			texts[j] = stepText(m.Game, r.State, sub, j, viewer, lang, who)
		}
		out[i] = strings.Join(texts, "; ")
	}
	return out, nil
}

// WaitingFor says whom st waits for: the players to move, and apart those
// whose sealed step is in and who need not act again ("bob, carol; the
// sealed steps of alice are in").
func WaitingFor(st State) string { return WaitingForIn(st, notation.English) }

// WaitingForIn is WaitingFor in lang: "personne : les étapes scellées
// de alice, bob sont prises" in French.
func WaitingForIn(st State, lang notation.Lang) string {
	var wait, in []string
	for _, p := range st.ToMove() {
		if SealedIn(st, p) {
			in = append(in, p)
		} else {
			wait = append(wait, p)
		}
	}
	text := strings.Join(wait, ", ")
	nobody, semi, sealed, are := "nobody: ", "; ", "the sealed steps of ", " are in"
	if lang == notation.French {
		nobody, semi, sealed, are = "personne : ", " ; ", "les étapes scellées de ", " sont prises"
	}
	switch {
	case len(in) == 0:
	case len(wait) == 0:
		text = nobody + sealed + strings.Join(in, ", ") + are
	default:
		text += semi + sealed + strings.Join(in, ", ") + are
	}
	return text
}

// A Defaulter is a State that knows what a player who never acts does in
// some situations: in Löwenherz 1997, a sealed bid that never comes is a
// bid of nothing. It is an optional part of the engine contract; the host
// plays the default step for a player whose deadline and grace have
// passed, before its policy for late players applies (RULINGS.md H-3).
type Defaulter interface {
	// Default returns the step player takes by default now, if any.
	Default(player string) (Move, bool)
}
