package adjudicator

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/notation"
)

// An Automaton is a State in which the game itself plays some seats, as
// Henri plays against a lone player in Les Deux Héritiers' solo game. It
// is an optional part of the engine contract, found by type assertion.
//
// A seat the game plays is not one of the record's players: the game names
// it (for example "henri") and it comes after the players in seating order,
// so Scores returns one score per player and then one per automaton seat.
// Its moves are recorded like anyone's, with source [AutomatonSource]: a
// Match plays them as soon as such a seat is to move, replay applies them
// from the record, and [Adjudicate] checks that each is the move the
// automaton makes in that position, so a record cannot put words in its
// mouth.
//
// AutoSteps is also how a host can later let the game play an absent
// player's seat, for games whose automaton can play one.
type Automaton interface {
	// Automata returns the seats the game plays itself, in seating order
	// after the players; usually none or one. It never changes during a
	// game.
	Automata() []string

	// AutoSteps returns the steps seat takes now, in order, each with the
	// reason for people ("rule B: it blocks alice's road"). It does not
	// change the state and depends on nothing but the state (randomness,
	// when the automaton draws, comes from the state's seeded source when
	// the steps are applied). It returns an error when seat may not act now
	// or the automaton cannot play it. The steps, printed and parsed back,
	// must be legal and must end seat's turn.
	AutoSteps(seat string) ([]AutoStep, error)
}

// AutoStep is one step an automaton takes, with the reason for people.
type AutoStep struct {
	Move  Move
	Why   string // English: which of its rules chose the step
	WhyFR string // the same in French
}

// AutomatonSource is the source recorded with an automaton's moves.
const AutomatonSource = "automaton"

// maxAutoRun bounds the automaton submissions that may follow one
// submission, so that a faulty automaton is an error, not a hang.
const maxAutoRun = 1000

// Automata returns the seats st's game plays itself, or nil.
func Automata(st State) []string {
	if a, ok := st.(Automaton); ok {
		return a.Automata()
	}
	return nil
}

// Seats returns the record's players followed by the seats the game plays
// itself: the names Scores and ToMove may use, in seating order.
func (m *Match) Seats() []string {
	auto := Automata(m.State)
	if len(auto) == 0 {
		return m.Record.Players
	}
	return append(slices.Clone(m.Record.Players), auto...)
}

// automatonToMove returns the first seat of st's ToMove that the game plays
// itself, or "".
func automatonToMove(st State) string {
	a, ok := st.(Automaton)
	if !ok || st.Result().Finished {
		return ""
	}
	auto := a.Automata()
	for _, p := range st.ToMove() {
		if slices.Contains(auto, p) {
			return p
		}
	}
	return ""
}

// autoText returns the notation of the steps seat's automaton takes in st,
// one per line, and the steps with their reasons.
func autoText(st State, seat string) (string, []AutoStep, error) {
	steps, err := st.(Automaton).AutoSteps(seat)
	if err != nil {
		return "", nil, fmt.Errorf("the automaton %s cannot play: %w", seat, err)
	}
	if len(steps) == 0 {
		return "", nil, fmt.Errorf("the automaton %s must act but chose no step", seat)
	}
	lines := make([]string, len(steps))
	for i, s := range steps {
		lines[i] = s.Move.String()
	}
	return strings.Join(lines, "\n"), steps, nil
}

// playAutomata plays, on st, every automaton seat that is to move, until a
// player must act or the game ends. It returns the submissions (numbered
// from next), the state before the last of them (nil when there is
// none) and the state after them; st itself is not changed.
func (m *Match) playAutomata(st State, next int) ([]*Submission, State, State, error) {
	var subs []*Submission
	var last State
	for range maxAutoRun {
		seat := automatonToMove(st)
		if seat == "" {
			return subs, last, st, nil
		}
		text, auto, err := autoText(st, seat)
		if err != nil {
			return nil, nil, nil, err
		}
		steps, errs := notation.Split(text)
		if len(errs) > 0 {
			return nil, nil, nil, fmt.Errorf("the automaton %s wrote steps that do not read back: %w", seat, errs)
		}
		sub, after, err := m.tryOn(st, seat, steps, next+len(subs))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("the automaton %s chose a step the rules refuse: %w", seat, err)
		}
		if slices.Contains(after.ToMove(), seat) && automatonToMove(after) == seat {
			return nil, nil, nil, fmt.Errorf("the automaton %s's steps %q did not end its turn", seat, text)
		}
		for _, a := range auto {
			sub.Why = append(sub.Why, a.Why)
			sub.WhyFR = append(sub.WhyFR, a.WhyFR)
		}
		subs = append(subs, sub)
		last, st = st, after
	}
	return nil, nil, nil, fmt.Errorf("the automata played %d times in a row without a player's turn", maxAutoRun)
}

// checkAutomatonMove returns an error when sub, a recorded move of seat
// applied to before, is not what seat's automaton plays there: a record
// may hold an automaton's moves only as the automaton makes them.
func checkAutomatonMove(before State, seat string, sub *Submission) error {
	want, _, err := autoText(before, seat)
	if err != nil {
		return err
	}
	if got := sub.Text(); got != want {
		return Rulef(CodeNotTheAutomaton, "",
			"%s does not play %s here: in this position %s plays %s",
			"%s ne joue pas %s ici : dans cette position, %s joue %s",
			seat, strings.ReplaceAll(got, "\n", "; "), seat, strings.ReplaceAll(want, "\n", "; "))
	}
	return nil
}
