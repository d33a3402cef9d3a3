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
type Sealer interface {
	// Sealed reports whether player's step m, taken earlier, is still
	// hidden from the other players in this state. It is asked of the
	// state after the step and of every later state: once it answers
	// false the step is revealed for good.
	Sealed(player string, m Move) bool

	// PublicStep returns what the other players may see of player's
	// sealed step m: "alice has bid", or in French "alice a misé".
	PublicStep(player string, m Move, lang notation.Lang) string
}

// StepText returns the text of player's step m as viewer may see it in st,
// the state after the step: the step itself for the player who took it or
// a step nobody hides, its public form for anyone else while it is sealed.
// viewer "" is the public (an observer).
func StepText(st State, player string, m Move, viewer string, lang notation.Lang) string {
	if s, ok := st.(Sealer); ok && viewer != player && s.Sealed(player, m) {
		return s.PublicStep(player, m, lang)
	}
	return m.String()
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
// another player that the current state still seals is given in its
// public form. It replays the record, so it needs the registry.
func (m *Match) History(reg *Registry, viewer string, lang notation.Lang) ([]string, error) {
	r, err := startEmpty(reg, m.Record)
	if err != nil {
		return nil, err
	}
	type pending struct {
		move, step int
		player     string
		mv         Move
	}
	var (
		texts  = make([][]string, len(m.Record.Moves))
		hidden []pending
	)
	for i, rm := range m.Record.Moves {
		sub, err := r.apply(rm.Player, rm.Text)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, rm.Player, err)
		}
		texts[i] = make([]string, len(sub.Moves))
		for j, mv := range sub.Moves {
			texts[i][j] = mv.String()
			hidden = append(hidden, pending{i, j, rm.Player, mv})
		}
		// A step stays hidden only while every state since it seals it.
		s, ok := r.State.(Sealer)
		kept := hidden[:0]
		for _, h := range hidden {
			if ok && h.player != viewer && s.Sealed(h.player, h.mv) {
				kept = append(kept, h)
			}
		}
		hidden = kept
	}
	for _, h := range hidden {
		texts[h.move][h.step] = r.State.(Sealer).PublicStep(h.player, h.mv, lang)
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		for j, s := range t {
			if j > 0 {
				out[i] += "; "
			}
			out[i] += s
		}
	}
	return out, nil
}

// WaitingFor says whom st waits for: the players to move, and apart those
// whose sealed step is in and who need not act again ("bob, carol; the
// sealed steps of alice are in").
func WaitingFor(st State) string {
	var wait, in []string
	for _, p := range st.ToMove() {
		if SealedIn(st, p) {
			in = append(in, p)
		} else {
			wait = append(wait, p)
		}
	}
	text := strings.Join(wait, ", ")
	switch {
	case len(in) == 0:
	case len(wait) == 0:
		text = "nobody: the sealed steps of " + strings.Join(in, ", ") + " are in"
	default:
		text += "; the sealed steps of " + strings.Join(in, ", ") + " are in"
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
