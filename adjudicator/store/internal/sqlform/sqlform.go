// Package sqlform is how herald's two stores, SQLite's (package store)
// and PostgreSQL's (store/postgres), whose tables have the same columns,
// write host's values in them and read them back: the same stamps,
// revisions and record headers (herald migrate copies SQLite's rows as
// they are), and the rows both read alike decoded once, here, whichever
// driver's rows they come from.
package sqlform

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// StrangerKinds are host.AuthAnswer and host.UnkeyedAnswer as the outbox
// stores them (outbox.reply), for a statement's "reply IN (...)": written
// in the statement, not bound, so that each store plans it with its
// partial index outbox_strangers, whose WHERE names the same kinds.
var StrangerKinds = strconv.Itoa(int(host.AuthAnswer)) + ", " + strconv.Itoa(int(host.UnkeyedAnswer))

// StampLayout is how the stores write a time: RFC 3339 in UTC with all
// nine digits of the fraction, so that stamps compare as strings in time
// order (RFC3339Nano drops trailing zeros: "…:05Z" would sort after
// "…:05.5Z"). time.RFC3339Nano parses it.
const StampLayout = "2006-01-02T15:04:05.000000000Z07:00"

// Stamp is t as the stores write it (StampLayout).
func Stamp(t time.Time) string { return t.UTC().Format(StampLayout) }

// NewRev returns a random positive revision of a game: a rolled-back
// write never hands its revision to a later one.
func NewRev() int64 {
	var b [8]byte
	for {
		rand.Read(b[:])
		if r := int64(binary.BigEndian.Uint64(b[:]) >> 1); r != 0 {
			return r
		}
	}
}

// MarshalHeader returns the YAML of rec without its moves, as the stores
// keep a record (its moves are rows of their own).
func MarshalHeader(rec *adjudicator.Record) ([]byte, error) {
	h := *rec
	h.Moves = nil
	return h.Marshal()
}

// Rows is what the rows of both drivers have (database/sql's *sql.Rows,
// pgx.Rows); closing them is the caller's, their Close methods differing.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// FailureColumns are the columns of failures that Failures reads, in order.
const FailureColumns = `kind, ref, party, subject, reason, attempts, first, last, set_aside`

// Failures reads rows of FailureColumns, failures set aside (set_aside is
// not NULL), in the rows' order.
func Failures(rows Rows) ([]host.Failure, error) {
	var out []host.Failure
	for rows.Next() {
		var f host.Failure
		var first, last, aside string
		if err := rows.Scan(&f.Kind, &f.Ref, &f.Party, &f.Subject, &f.Reason, &f.Attempts, &first, &last, &aside); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		f.First, _ = time.Parse(time.RFC3339Nano, first)
		f.Last, _ = time.Parse(time.RFC3339Nano, last)
		f.SetAside, _ = time.Parse(time.RFC3339Nano, aside)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// SummaryColumns are the columns Summaries reads, of games g joined with
// their players p, in order.
const SummaryColumns = `g.id, g.game, g.status, g.updated, p.address, p.undeliverable`

// Summaries reads rows of SummaryColumns, a game's players together in
// seat order, into the games' summaries, in the rows' order of games.
func Summaries(rows Rows) ([]host.GameSummary, error) {
	var out []host.GameSummary
	for rows.Next() {
		var id int64
		var game, status, updated, addr, undeliverable string
		if err := rows.Scan(&id, &game, &status, &updated, &addr, &undeliverable); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			t, _ := time.Parse(time.RFC3339Nano, updated)
			out = append(out, host.GameSummary{ID: id, Game: game, Status: status, Updated: t})
		}
		out[len(out)-1].Players = append(out[len(out)-1].Players, addr)
		if undeliverable != "" {
			out[len(out)-1].Undeliverable = append(out[len(out)-1].Undeliverable, addr)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// MoveColumns are the columns of moves that AppendMoves reads, in order.
const MoveColumns = `player, text, time, source`

// AppendMoves appends to rec the moves of rows of MoveColumns, in the
// rows' order.
func AppendMoves(rec *adjudicator.Record, rows Rows) error {
	for rows.Next() {
		var mv adjudicator.RecordMove
		if err := rows.Scan(&mv.Player, &mv.Text, &mv.Time, &mv.Source); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		rec.Moves = append(rec.Moves, mv)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// Queued is how both stores write a mail queued with Tx.Queue in the
// outbox's columns: the recipient in lower case, the message (raw, never
// NULL: empty for a draft), the draft (nil, NULL, for a message) and the
// answer kind (reply).
type Queued struct {
	Recipient string
	Raw       []byte
	Draft     []byte
	Reply     int
}

// CheckMail refuses a mail that Tx.Queue cannot queue: it needs a message
// or a draft (or a draft being written, Pending), not two, and only a
// draft has a part shared with others.
func CheckMail(m host.Mail) error {
	draft := len(m.Draft) > 0 || m.Pending != nil
	if len(m.Raw) > 0 == draft || len(m.Draft) > 0 && m.Pending != nil {
		return fmt.Errorf("store: a queued mail needs a message or a draft, not both")
	}
	if m.Shared != nil && !draft {
		return fmt.Errorf("store: a queued message has no shared part; only a draft has")
	}
	return nil
}

// QueuedMail returns the columns of m (see Queued).
func QueuedMail(m host.Mail) Queued {
	q := Queued{Recipient: strings.ToLower(m.Recipient), Raw: m.Raw, Reply: int(m.Answer())}
	if q.Raw == nil {
		q.Raw = []byte{}
	}
	if len(m.Draft) > 0 {
		q.Draft = m.Draft
	}
	return q
}

// RecentShared is what a store's transaction remembers of the
// outbox_shared rows it inserted last: the mails of a move are queued one
// after another, with the move's board in English or in French, so a
// board equal to one of the last two rows is that row, and the move's
// mails share one row a language. The zero value remembers none.
type RecentShared struct {
	ids  [2]int64 // the last row first; 0: none
	data [2][]byte
}

// Find returns the row of the last two inserted that holds data, if any.
func (r *RecentShared) Find(data []byte) (int64, bool) {
	for i, id := range r.ids {
		if id != 0 && bytes.Equal(data, r.data[i]) {
			return id, true
		}
	}
	return 0, false
}

// Add remembers that row id, just inserted, holds data.
func (r *RecentShared) Add(id int64, data []byte) {
	r.ids[1], r.data[1] = r.ids[0], r.data[0]
	r.ids[0], r.data[0] = id, data
}
