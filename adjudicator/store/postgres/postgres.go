// Package postgres implements [host.Store] on PostgreSQL, for herald run as
// several `herald serve` workers sharing one database: a club, a league or
// a site that outgrows one machine, or wants no single point of failure.
// The default store, one process on SQLite, is package
// adjudicator/store; this one keeps the same tables and the same
// semantics, and adds what several workers need.
//
// Every request is processed exactly once, by whichever worker gets it
// first: Process inserts the request's identity into messages (its
// primary key) before running it, inside the transaction that applies it.
// A second worker processing the same mail waits on that row until the
// first commits, and then finds it (host.ErrDuplicate), or gets it if the
// first rolled back or died. The deadlines' stages and the digests are
// requests with identities of their own (host.Tick), so a stage is fired
// once however many workers tick.
//
// Inside a transaction a game is read FOR UPDATE: two workers applying
// mails to one game take turns, the second reading what the first wrote.
// The outbox's Claim takes due rows FOR UPDATE SKIP LOCKED and leases them
// to the worker, so two workers never send the same mail; a worker that
// dies loses its claims when the lease runs out. The intake of the
// mailbox is held by one worker at a time (HoldIntake, a lease row
// renewed while the worker lives).
//
// What the database keeps is the SQLite store's (host.Retention): Prune,
// run by every worker every hour, deletes the mails sent more than
// SentKept ago and the boards they shared, one worker at a time (an
// advisory lock tried without waiting), a few hundred rows a transaction;
// autovacuum makes their space reusable.
//
// The driver is github.com/jackc/pgx/v5, used directly rather than
// through database/sql: its pool, its per-connection statement cache and
// its error codes (unique and serialization failures) are what this store
// needs, with no cgo. Migrations are versioned (schema_version, as in the
// SQLite store) and run at Open under an advisory lock, so workers starting
// together migrate once.
//
// A commit in PostgreSQL is durable when it returns (synchronous_commit),
// so CommitUnsynced commits as Commit does and Sync has nothing to do.
package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/internal/sqlform"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

var _ host.Store = (*Store)(nil)

// Store is an open PostgreSQL database of games and mail.
type Store struct {
	pool *pgxpool.Pool
	// writing holds the token of the batch under way: one batch at a
	// time in a process, as on SQLite (the host's cache and the mail
	// service expect it). Workers in other processes run their batches
	// beside it, kept apart by row locks.
	writing chan struct{}
	closing sync.Once
	closed  chan struct{}
	// conflicts notes the connections on which a statement ended in a
	// conflict with another transaction, whatever became of its error.
	conflicts *conflictTracer
	// worker is the name this process holds among the workers (Enlist),
	// or nil.
	worker *enlisted
}

// IsURL reports whether s names a PostgreSQL database (postgres:// or
// postgresql://) rather than a data directory.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database at url (postgres://user@host/db, or a
// socket directory: postgres:///db?host=/run/postgresql) and brings its
// schema up to date.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", redact(url), err)
	}
	cfg.MaxConns = max(cfg.MaxConns, 8)
	conflicts := &conflictTracer{}
	cfg.ConnConfig.Tracer = conflicts
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", redact(url), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: %s: %w", redact(url), err)
	}
	s := &Store{pool: pool, writing: make(chan struct{}, 1), closed: make(chan struct{}), conflicts: conflicts}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// redact returns url without its password, for errors and logs.
func redact(url string) string {
	cfg, err := pgconn.ParseConfig(url)
	if err != nil || cfg.Password == "" {
		return url
	}
	return strings.Replace(url, ":"+cfg.Password+"@", ":xxxxx@", 1)
}

// Close closes the database, once the batch under way (if any) ends.
func (s *Store) Close() error {
	s.closing.Do(func() {
		s.writing <- struct{}{} // after the batch under way, if any
		close(s.closed)
		s.discharge()
		s.pool.Close()
		<-s.writing
	})
	return nil
}

// Sync does nothing: a PostgreSQL commit is durable when it returns.
func (s *Store) Sync() error { return nil }

// The PostgreSQL store writes stamps, revisions and record headers as the
// SQLite store does (package sqlform): herald migrate copies SQLite's rows
// as they are.
var (
	stamp         = sqlform.Stamp
	newRev        = sqlform.NewRev
	marshalHeader = sqlform.MarshalHeader
)

// parseStamp reads a stamp back; the zero time for none.
func parseStamp(s *string) time.Time {
	if s == nil {
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339Nano, *s)
	return t
}

// querier is a pool or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Process runs fn in one transaction that also records in as processed.
func (s *Store) Process(ctx context.Context, in host.Intake, fn func(tx host.Tx) error) error {
	b, err := s.Begin(ctx)
	if err != nil {
		return err
	}
	defer b.Rollback()
	if err := b.Process(ctx, in, fn); err != nil {
		return err
	}
	return b.Commit(ctx)
}

// Batch is one transaction in which several requests are processed, each
// inside a savepoint of its own unless the batch is Unguarded
// (host.StoreBatch).
type Batch struct {
	s      *Store
	tx     pgx.Tx
	err    error // set when a savepoint could not be rolled back
	done   bool
	queued []int64 // the outbox rows inserted, those of requests rolled back excepted
	// expected are the identities Expect claimed or found processed: true
	// while the batch holds the claim and no request of it was processed,
	// false once one was (before the batch, or by it).
	expected map[string]bool
	// unguarded runs the requests without a savepoint each (Unguarded).
	unguarded bool
	// records are the outcomes of the requests processed, written into
	// their claims when the batch commits (record).
	records records
}

var errBatchDone = errors.New("store: the batch is already committed or rolled back")

// Begin starts a batch; until it ends, the process's other batches wait.
// Its statements run without ctx's cancellation (a cancelled statement
// would lose the connection mid-transaction); ctx bounds the wait for the
// batch's turn and its connection.
func (s *Store) Begin(ctx context.Context) (host.StoreBatch, error) {
	select {
	case <-s.closed:
		return nil, errors.New("store: closed")
	default:
	}
	select {
	case s.writing <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("store: %w", ctx.Err())
	case <-s.closed:
		return nil, errors.New("store: closed")
	}
	select {
	case <-s.closed:
		<-s.writing
		return nil, errors.New("store: closed")
	default:
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		<-s.writing
		return nil, fmt.Errorf("store: %w", err)
	}
	bg := context.WithoutCancel(ctx)
	// Another worker with a newer herald may have migrated the database
	// since it was opened: writing with the old schema could corrupt it.
	var v int
	if err := tx.QueryRow(bg, `SELECT version FROM schema_version`).Scan(&v); err != nil || v != len(migrations) {
		tx.Rollback(bg)
		<-s.writing
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		return nil, fmt.Errorf("store: the database is at schema version %d, this herald writes version %d: it was upgraded by another herald; restart with that one", v, len(migrations))
	}
	return &Batch{s: s, tx: tx}, nil
}

// Process runs fn for one request inside the batch. It first claims the
// request's identity, an insert into messages, unless Expect claimed it
// for the batch: a request already processed, by this batch or by any
// worker's committed one, is host.ErrDuplicate, and one that another
// worker's open transaction claimed waits for that transaction to end.
func (b *Batch) Process(ctx context.Context, in host.Intake, fn func(tx host.Tx) error) error {
	if b.done {
		return errBatchDone
	}
	if b.err != nil {
		return b.err
	}
	claimed, ok := b.expected[in.MessageID]
	if ok && !claimed {
		return host.ErrDuplicate
	}
	ctx = context.WithoutCancel(ctx)
	b.s.conflicts.take(b.tx.Conn())
	if !b.unguarded {
		if _, err := b.tx.Exec(ctx, `SAVEPOINT mail`); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if !ok {
		tag, err := b.tx.Exec(ctx, `INSERT INTO messages (message_id, body_hash, sender, outcome, received) VALUES ($1, $2, $3, 'ignored', $4)
			ON CONFLICT (message_id) DO NOTHING`, in.MessageID, in.BodyHash, in.Sender, stamp(in.Received))
		if err == nil && tag.RowsAffected() == 0 {
			if !b.unguarded {
				b.rollbackMail(ctx)
			}
			return host.ErrDuplicate
		}
		if err != nil {
			err = conflict(fmt.Errorf("store: %w", err))
			if b.unguarded {
				b.Rollback()
				return host.BatchLost(err)
			}
			b.rollbackMail(ctx)
			return err
		}
	}
	t := &Tx{b: b, now: in.Received, outcome: "ignored"}
	queued := len(b.queued)
	err := fn(t)
	if err == nil && !b.unguarded {
		if _, err = b.tx.Exec(ctx, `RELEASE SAVEPOINT mail`); err != nil {
			err = fmt.Errorf("store: %w", err)
		}
	}
	if err != nil {
		b.queued = b.queued[:queued]
		// A conflict may have ended a statement whose error fn did not
		// return (the statements after it then fail, the transaction
		// being aborted): the conflict is the cause all the same.
		seen := b.s.conflicts.take(b.tx.Conn())
		if seen || isConflict(err) {
			err = fmt.Errorf("%w: %w", host.ErrConflict, err)
		}
		if b.unguarded {
			b.Rollback()
			return host.BatchLost(err)
		}
		b.rollbackMail(ctx)
		return err
	}
	if ok {
		b.expected[in.MessageID] = false
	}
	// The claim gets the request's outcome when the batch commits, with
	// the others' (record).
	var gid *int64
	if t.gameID != 0 {
		gid = &t.gameID
	}
	r := &b.records
	r.id = append(r.id, in.MessageID)
	r.game = append(r.game, gid)
	r.outcome = append(r.outcome, t.outcome)
	r.bodyHash = append(r.bodyHash, in.BodyHash)
	r.sender = append(r.sender, in.Sender)
	r.received = append(r.received, stamp(in.Received))
	return nil
}

// records are the columns of the messages rows of the requests a batch
// processed, one slice a column.
type records struct {
	id, outcome, bodyHash, sender, received []string
	game                                    []*int64
}

// record writes the outcomes of the requests the batch processed into
// their claims, in one statement: a claim of Expect's holds the identity
// alone, one of Process's the rest already.
func (b *Batch) record(ctx context.Context) error {
	r := &b.records
	if len(r.id) == 0 {
		return nil
	}
	if _, err := b.tx.Exec(ctx, `UPDATE messages m SET game_id = u.game, outcome = u.outcome, body_hash = u.body_hash, sender = u.sender, received = u.received
		FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(id, game, outcome, body_hash, sender, received)
		WHERE m.message_id = u.id`, r.id, r.game, r.outcome, r.bodyHash, r.sender, r.received); err != nil {
		return conflict(fmt.Errorf("store: %w", err))
	}
	*r = records{}
	return nil
}

// Unguarded runs the batch's requests from then on without a savepoint
// each: one that fails rolls the batch back whole
// (host.StoreBatch.Unguarded).
func (b *Batch) Unguarded() { b.unguarded = true }

// Expect claims ids in one statement, as Process claims one identity
// (host.StoreBatch.Expect): an insert into messages of each that is not
// there yet, which waits for another worker's open transaction that
// claimed the same; the ones found processed are duplicates for Process.
// The claims are taken in the order of the identities, so that two
// workers' batches claiming some of the same wait for each other rather
// than deadlock. The claims of identities not processed when the batch
// commits are given up then.
func (b *Batch) Expect(ctx context.Context, ids []string) error {
	if b.done {
		return errBatchDone
	}
	if b.err != nil {
		return b.err
	}
	var claim []string
	for _, id := range ids {
		if _, ok := b.expected[id]; !ok {
			claim = append(claim, id)
		}
	}
	slices.Sort(claim)
	claim = slices.Compact(claim)
	if len(claim) == 0 {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	b.s.conflicts.take(b.tx.Conn())
	rows, err := b.tx.Query(ctx, `INSERT INTO messages (message_id, body_hash, sender, outcome, received)
		SELECT id, '', '', 'ignored', '' FROM unnest($1::text[]) WITH ORDINALITY AS c(id, n) ORDER BY n
		ON CONFLICT (message_id) DO NOTHING RETURNING message_id`, claim)
	if err != nil {
		b.err = conflict(fmt.Errorf("store: %w", err))
		return b.err
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		b.err = conflict(fmt.Errorf("store: %w", err))
		return b.err
	}
	if b.expected == nil {
		b.expected = make(map[string]bool, len(claim))
	}
	for _, id := range claim {
		b.expected[id] = false
	}
	for _, id := range got {
		b.expected[id] = true
	}
	return nil
}

// giveUpClaims deletes the claims of Expect whose requests were not
// processed.
func (b *Batch) giveUpClaims(ctx context.Context) error {
	var left []string
	for id, claimed := range b.expected {
		if claimed {
			left = append(left, id)
		}
	}
	if len(left) == 0 {
		return nil
	}
	if _, err := b.tx.Exec(ctx, `DELETE FROM messages WHERE message_id = ANY($1)`, left); err != nil {
		return conflict(fmt.Errorf("store: %w", err))
	}
	return nil
}

// conflictTracer is the pool's query tracer: it notes the connections
// on which a statement ended in a conflict (isConflict).
type conflictTracer struct{ seen sync.Map } // *pgx.Conn to true

// TraceQueryStart does nothing.
func (c *conflictTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

// TraceQueryEnd notes conn when its statement ended in a conflict inside
// a transaction (a batch's; a statement of its own has its error alone).
func (c *conflictTracer) TraceQueryEnd(_ context.Context, conn *pgx.Conn, data pgx.TraceQueryEndData) {
	if isConflict(data.Err) && conn.PgConn().TxStatus() != 'I' {
		c.seen.Store(conn, true)
	}
}

// take reports whether a conflict was noted on conn since the last take,
// and forgets it.
func (c *conflictTracer) take(conn *pgx.Conn) bool {
	_, ok := c.seen.LoadAndDelete(conn)
	return ok
}

// isConflict reports whether err is PostgreSQL's deadlock (40P01) or
// serialization failure (40001).
func isConflict(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// conflict returns err marked as host.ErrConflict when PostgreSQL ended
// a statement or a commit for a deadlock with another transaction (40P01)
// or a serialization failure (40001, under REPEATABLE READ or SERIALIZABLE,
// a database's default_transaction_isolation): the request is no worse for
// it and goes again in a transaction of its own, once the batch ends and
// the other transaction holds its locks no more.
func conflict(err error) error {
	if isConflict(err) {
		return fmt.Errorf("%w: %w", host.ErrConflict, err)
	}
	return err
}

// rollbackMail undoes the current request's writes; when that fails, the
// batch can no longer commit.
func (b *Batch) rollbackMail(ctx context.Context) {
	if _, err := b.tx.Exec(ctx, `ROLLBACK TO SAVEPOINT mail`); err != nil {
		b.err = fmt.Errorf("store: rollback to savepoint: %w", err)
		return
	}
	if _, err := b.tx.Exec(ctx, `RELEASE SAVEPOINT mail`); err != nil {
		b.err = fmt.Errorf("store: release savepoint: %w", err)
	}
}

// ClaimQueued claims for worker until until the mails the batch queued so
// far, as Claim would once the batch commits, and returns them, oldest
// first. The claims commit with the batch, or not at all.
func (b *Batch) ClaimQueued(ctx context.Context, worker string, until time.Time) ([]host.Outgoing, error) {
	if b.done {
		return nil, errBatchDone
	}
	if b.err != nil {
		return nil, b.err
	}
	if len(b.queued) == 0 {
		return nil, nil
	}
	rows, err := b.tx.Query(context.WithoutCancel(ctx), `UPDATE outbox o SET claimed_by = $1, claimed_until = $2
		WHERE o.sent IS NULL AND o.id = ANY($3) AND `+queuedInOrder+`
		RETURNING `+outgoingColumns, worker, stamp(until), b.queued, stamp(until.Add(givenUp)))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return scanOutgoing(rows)
}

// Commit commits the batch; a PostgreSQL commit is durable.
func (b *Batch) Commit(ctx context.Context) error {
	return b.CommitUnsynced(ctx)
}

// CommitUnsynced commits the batch, as Commit does.
func (b *Batch) CommitUnsynced(ctx context.Context) error {
	if b.done {
		return errBatchDone
	}
	if b.err != nil {
		b.Rollback()
		return b.err
	}
	if err := b.giveUpClaims(context.WithoutCancel(ctx)); err != nil {
		b.Rollback()
		return err
	}
	if err := b.record(context.WithoutCancel(ctx)); err != nil {
		b.Rollback()
		return err
	}
	b.done = true
	err := b.tx.Commit(context.WithoutCancel(ctx))
	<-b.s.writing
	if err != nil {
		return conflict(fmt.Errorf("store: commit: %w", err))
	}
	return nil
}

// Rollback abandons the batch; after a commit it does nothing.
func (b *Batch) Rollback() error {
	if b.done {
		return nil
	}
	b.done = true
	err := b.tx.Rollback(context.Background())
	<-b.s.writing
	if err != nil && !errors.Is(err, pgx.ErrTxClosed) {
		return fmt.Errorf("store: rollback: %w", err)
	}
	return nil
}

// inOrder keeps the mails of one game, and the mails to one recipient
// about one game or none, in the order they were queued, as in the SQLite
// store: a mail is not claimed while an older one of the same line
// (sameLine) failed and waits to be tried again ($3, now), unless that
// one was given up (its next attempt past the given parameter).
const inOrder = `NOT EXISTS (SELECT 1 FROM outbox e WHERE ` + sameLine + ` AND e.id < o.id
			AND e.sent IS NULL AND e.next_attempt > $3 AND e.next_attempt < $6)`

// queuedInOrder is inOrder for the mails a batch hands the outbox.
const queuedInOrder = `NOT EXISTS (SELECT 1 FROM outbox e WHERE ` + sameLine + ` AND e.id < o.id
			AND e.sent IS NULL AND e.attempts > 0 AND e.next_attempt < $4)`

// sameLine is when a mail e must go before the newer mail o.
const sameLine = `(e.game_id = o.game_id OR e.recipient = o.recipient
			AND (e.game_id IS NULL OR o.game_id IS NULL))`

// givenUp is how far off a mail's next attempt must be for it to count as
// given up (the outbox puts them a century off).
const givenUp = 50 * 365 * 24 * time.Hour

// outgoingColumns are the columns scanOutgoing reads.
const outgoingColumns = `o.id, COALESCE(o.game_id, 0), o.recipient, o.raw, o.draft, o.created, o.attempts,
	(SELECT s.data FROM outbox_shared s WHERE s.id = o.shared_id)`

// scanOutgoing reads the outbox rows of outgoingColumns, oldest first.
func scanOutgoing(rows pgx.Rows) ([]host.Outgoing, error) {
	defer rows.Close()
	var out []host.Outgoing
	for rows.Next() {
		var o host.Outgoing
		var created string
		if err := rows.Scan(&o.ID, &o.GameID, &o.Recipient, &o.Raw, &o.Draft, &created, &o.Attempts, &o.Shared); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		o.Created = parseStamp(&created)
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	slices.SortFunc(out, func(a, b host.Outgoing) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// Claim returns up to limit unsent mails due at now, oldest first, and
// claims them for worker until now+lease. The rows are taken FOR UPDATE
// SKIP LOCKED: two workers claiming at once never wait for each other and
// never get the same row. A worker gets its own claims back.
func (s *Store) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration, limit int) ([]host.Outgoing, error) {
	rows, err := s.pool.Query(ctx, `UPDATE outbox o SET claimed_by = $1, claimed_until = $2
		WHERE o.id IN (SELECT id FROM outbox o WHERE o.sent IS NULL AND o.next_attempt <= $3
			AND (o.claimed_by IS NULL OR o.claimed_by = $4 OR o.claimed_until <= $3) AND `+inOrder+`
			ORDER BY o.id LIMIT $5 FOR UPDATE SKIP LOCKED)
		RETURNING `+outgoingColumns, worker, stamp(now.Add(lease)), stamp(now), worker, limit, stamp(now.Add(givenUp)))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return scanOutgoing(rows)
}

// Due returns up to limit unsent mails due at now, oldest first, claimed
// or not, without claiming them: what a tool or a test may look at.
func (s *Store) Due(ctx context.Context, now time.Time, limit int) ([]host.Outgoing, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+outgoingColumns+` FROM outbox o
		WHERE o.sent IS NULL AND o.next_attempt <= $1 ORDER BY o.id LIMIT $2`, stamp(now), limit)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return scanOutgoing(rows)
}

// MarkSent records that an outgoing mail was accepted by the SMTP server.
func (s *Store) MarkSent(ctx context.Context, id int64, now time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE outbox SET sent = $1, attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL WHERE id = $2`, stamp(now), id)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// MarkFailed records a failed attempt and when to try again, and releases
// the claim.
func (s *Store) MarkFailed(ctx context.Context, id int64, next time.Time, cause error) error {
	_, err := s.pool.Exec(ctx, `UPDATE outbox SET attempts = attempts + 1, next_attempt = $1, last_error = $2, claimed_by = NULL, claimed_until = NULL WHERE id = $3`,
		stamp(next), cause.Error(), id)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// Pending returns how many mails wait in the outbox.
func (s *Store) Pending(ctx context.Context) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM outbox WHERE sent IS NULL`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// Processed reports whether the request with this identity was processed.
func (s *Store) Processed(ctx context.Context, messageID string) (bool, error) {
	var one int
	err := s.pool.QueryRow(ctx, `SELECT 1 FROM messages WHERE message_id = $1`, messageID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	return true, nil
}

// Known reports whether address (lower case) plays in, hosts or observes
// a game, ended or not.
func (s *Store) Known(ctx context.Context, address string) (bool, error) {
	var one int
	err := s.pool.QueryRow(ctx, `SELECT 1 FROM players WHERE address = $1
		UNION ALL SELECT 1 FROM games WHERE host = $1
		UNION ALL SELECT 1 FROM observers WHERE address = $1 LIMIT 1`, address).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	return true, nil
}

// Game reads a game outside any transaction, with its record.
func (s *Store) Game(ctx context.Context, id int64) (*host.Game, error) {
	return readGame(ctx, s.pool, id, true, false)
}

// Games lists every game, newest first.
func (s *Store) Games(ctx context.Context) ([]host.GameSummary, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+sqlform.SummaryColumns+` FROM games g
		JOIN players p ON p.game_id = g.id ORDER BY g.id DESC, p.seat`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	return sqlform.Summaries(rows)
}

// DueClocks returns up to limit playing games whose clock has work due at
// now, the earliest first.
func (s *Store) DueClocks(ctx context.Context, now time.Time, limit int) ([]host.DueClock, error) {
	rows, err := s.pool.Query(ctx, `SELECT c.game_id, c.stage, c.since FROM clocks c JOIN games g ON g.id = c.game_id
		WHERE c.next IS NOT NULL AND c.next <= $1 AND g.status = $2 ORDER BY c.next, c.game_id LIMIT $3`, stamp(now), host.Playing, limit)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []host.DueClock
	for rows.Next() {
		var d host.DueClock
		var since string
		if err := rows.Scan(&d.Game, &d.Stage, &since); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		d.Since = parseStamp(&since)
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// DueDigests returns up to limit seats of playing games whose digest is
// due at now, the earliest first.
func (s *Store) DueDigests(ctx context.Context, now time.Time, limit int) ([]host.DueDigest, error) {
	rows, err := s.pool.Query(ctx, `SELECT p.game_id, p.seat, p.digest_next FROM players p JOIN games g ON g.id = p.game_id
		WHERE p.digest_next IS NOT NULL AND p.digest_next <= $1 AND g.status = $2 ORDER BY p.digest_next, p.game_id, p.seat LIMIT $3`, stamp(now), host.Playing, limit)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []host.DueDigest
	for rows.Next() {
		var d host.DueDigest
		var next string
		if err := rows.Scan(&d.Game, &d.Seat, &next); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		d.Next = parseStamp(&next)
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// GameByPage reads the game whose web page has token, with its record;
// ErrNoGame when there is none or its page is off.
func (s *Store) GameByPage(ctx context.Context, token string) (*host.Game, error) {
	var id int64
	err := s.pool.QueryRow(ctx, `SELECT id FROM games WHERE page_token = $1 AND page_token <> '' AND page <> 'off'`, token).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, host.ErrNoGame
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return readGame(ctx, s.pool, id, true, false)
}

// PublicPages lists the games whose page is public, newest first.
func (s *Store) PublicPages(ctx context.Context) ([]host.PageSummary, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, game, status, updated, page_token FROM games WHERE page = 'public' AND page_token <> '' ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []host.PageSummary
	for rows.Next() {
		var p host.PageSummary
		var updated string
		if err := rows.Scan(&p.ID, &p.Game, &p.Status, &updated, &p.Token); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		p.Updated = parseStamp(&updated)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// NoteFailure notes that f.Ref failed with f.Reason at now and returns how
// many times in a row it has failed with that reason.
func (s *Store) NoteFailure(ctx context.Context, f host.Failure, now time.Time) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `INSERT INTO failures (kind, ref, party, subject, reason, attempts, first, last)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
		ON CONFLICT (kind, ref) DO UPDATE SET
			attempts = CASE WHEN failures.reason = excluded.reason THEN failures.attempts + 1 ELSE 1 END,
			reason = excluded.reason, last = excluded.last
		RETURNING attempts`,
		f.Kind, f.Ref, f.Party, f.Subject, f.Reason, max(f.Attempts, 1), stamp(now)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: noting a failure: %w", err)
	}
	return n, nil
}

// SetAside marks the failure of kind and ref as set aside at now.
func (s *Store) SetAside(ctx context.Context, kind, ref string, now time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE failures SET set_aside = $1 WHERE kind = $2 AND ref = $3`, stamp(now), kind, ref)
	if err != nil {
		return fmt.Errorf("store: setting aside: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store: setting aside %s %s: no failure noted", kind, ref)
	}
	return nil
}

// SetAsideList returns what was set aside, the oldest first.
func (s *Store) SetAsideList(ctx context.Context) ([]host.Failure, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+sqlform.FailureColumns+` FROM failures WHERE set_aside IS NOT NULL ORDER BY set_aside, id`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	return sqlform.Failures(rows)
}
