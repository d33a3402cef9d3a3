package adjudicator

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A SealWaiter is a [Sealer] that says what each sealed round waits for,
// for people: "every bid of the confrontation is in", "the game is
// over". It is optional; without it a round waits for "its sealed steps
// are revealed".
type SealWaiter interface {
	SealWait(r int) string
}

// SealedRecordError is a record that may not be shared yet: a step of it,
// or a step taken back, is sealed, and would show in it as written.
type SealedRecordError struct {
	Move  int    // the move that holds the step, 1 for the first
	Undo  bool   // the move was taken back (the record's undone entries)
	Until string // what it waits for: "the game is over"
}

var _ error = (*SealedRecordError)(nil)

func (e *SealedRecordError) Error() string {
	what := fmt.Sprintf("move %d holds a sealed step", e.Move)
	if e.Undo {
		what = fmt.Sprintf("a move taken back after move %d holds a sealed step", e.Move)
	}
	return fmt.Sprintf("the record cannot be shared yet: %s; it can be once %s", what, e.Until)
}

// messageID is a mail's Message-ID in a source, in angle brackets
// ("mail:<x@example.org>") or as the mail service writes it, bare, after
// "mail:" ("mail:x@example.org"), up to the next space.
var messageID = regexp.MustCompile(`:?<[^<>]*>|(\bmail):[^\s<]+`)

// PublicSource returns source without the Message-ID it may hold, which
// names the sender's host and the mail: "mail:<x@example.org>
// turn:t.yaml" and "mail:x@example.org turn:t.yaml" are both "mail
// turn:t.yaml".
func PublicSource(source string) string {
	return strings.TrimSpace(messageID.ReplaceAllString(source, "$1"))
}

// PublicRecord returns the copy of m's record that may be shared with
// anyone (`herald export --public`, the record of a game's page): while
// the game runs, without its seed; the sources of its entries without
// the Message-IDs they hold; and an abandonment by the host without the
// host's address ("host"). While the game runs, a record of which a step
// is still sealed (RULINGS.md L97-21), or a step taken back was sealed
// when taken, cannot be shared: the error is a *SealedRecordError saying
// what it waits for. It replays the record, so it needs the registry.
func (m *Match) PublicRecord(reg *Registry) (*Record, error) {
	rec := *m.Record
	running := m.Record.Ended == nil && !m.State.Result().Finished
	if running {
		rec.Seed = ""
		if err := m.sealedForAll(reg); err != nil {
			return nil, err
		}
	}
	rec.Moves = slices.Clone(rec.Moves)
	for i := range rec.Moves {
		rec.Moves[i].Source = PublicSource(rec.Moves[i].Source)
	}
	rec.Undone = slices.Clone(rec.Undone)
	for i := range rec.Undone {
		u := &rec.Undone[i]
		u.Source = PublicSource(u.Source)
		u.Moves = slices.Clone(u.Moves)
		for j := range u.Moves {
			u.Moves[j].Source = PublicSource(u.Moves[j].Source)
		}
	}
	if e := rec.Ended; e != nil {
		c := *e
		c.Source = PublicSource(c.Source)
		if c.How == EndAbandoned {
			c.By = "host"
		}
		rec.Ended = &c
	}
	return &rec, nil
}

// sealedForAll returns a *SealedRecordError when a step of m's record is
// hidden from someone now, or a step taken back was sealed when taken.
func (m *Match) sealedForAll(reg *Registry) error {
	s, ok := m.State.(Sealer)
	if !ok {
		return nil
	}
	wait := func(r int) string {
		if w, ok := s.(SealWaiter); ok {
			return w.SealWait(r)
		}
		return "its sealed steps are revealed"
	}
	r, err := startEmpty(reg, m.Record)
	if err != nil {
		return err
	}
	subs := make([]*Submission, len(m.Record.Moves))
	for i, rm := range m.Record.Moves {
		if subs[i], err = r.apply(rm.Player, rm.Text); err != nil {
			return fmt.Errorf("move %d (%s): %w", i+1, rm.Player, err)
		}
	}
	for _, sub := range subs {
		for j, round := range sub.Rounds {
			if round != 0 && sub.Hidden(r.State, j) {
				return &SealedRecordError{Move: sub.Number, Until: wait(round)}
			}
		}
	}
	// A step taken back stays hidden while the game runs: replayed from
	// the moves kept before it, it is sealed or not. One that does not
	// replay (a later take-back went further back) counts as sealed.
	for _, u := range m.Record.Undone {
		if u.After > len(m.Record.Moves) {
			return &SealedRecordError{Move: u.After, Undo: true, Until: "the game is over"}
		}
		rec := *m.Record
		rec.Moves, rec.Undone = slices.Clone(m.Record.Moves[:u.After]), nil
		back, err := Start(reg, &rec)
		if err != nil {
			return err
		}
		for _, rm := range u.Moves {
			sub, err := back.apply(rm.Player, rm.Text)
			if err != nil {
				return &SealedRecordError{Move: u.After, Undo: true, Until: "the game is over"}
			}
			if slices.ContainsFunc(sub.Rounds, func(r int) bool { return r != 0 }) {
				return &SealedRecordError{Move: u.After, Undo: true, Until: "the game is over"}
			}
		}
	}
	return nil
}
