// Package store keeps herald's games, players, processed mail and outgoing
// mail in one SQLite database, so that the mail service can process each
// incoming mail exactly once: the mail's identity, the game's new record and
// every reply it causes are written in one transaction. A crash before the
// commit loses nothing (the mail is still in the inbox and is processed
// again); a crash after it applies nothing twice (the mail's identity is
// known, so it is recognised and skipped), and replies wait in the outbox
// until they are sent.
//
// The database uses WAL mode with a busy timeout, so CLI commands can read
// while `herald serve` writes. The driver is modernc.org/sqlite (pure Go, no
// cgo). The schema sticks to portable SQL (TEXT, INTEGER, BLOB, no
// SQLite-only functions in queries) so that it can move to PostgreSQL: there
// INTEGER PRIMARY KEY becomes BIGINT GENERATED ALWAYS AS IDENTITY and BLOB
// becomes BYTEA. Migrations are in code (migrations below) and run on Open.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// migrations are applied in order; schema_version holds how many ran. Never
// edit one that has shipped: add a new one.
var migrations = []string{
	// 1: games, players, processed mail, outbox.
	`CREATE TABLE games (
		id       INTEGER PRIMARY KEY,
		game     TEXT NOT NULL,            -- the game's name: raubritter
		host     TEXT NOT NULL,            -- the address that started it
		host_key TEXT NOT NULL,            -- the host's key (for abandon), sent only to the host
		record   BLOB NOT NULL,            -- the YAML record, with the seed (the host's copy)
		status   TEXT NOT NULL,            -- playing, finished, abandoned
		created  TEXT NOT NULL,
		updated  TEXT NOT NULL
	);
	CREATE TABLE players (
		game_id  INTEGER NOT NULL REFERENCES games(id),
		seat     INTEGER NOT NULL,
		name     TEXT NOT NULL,            -- the name in the record
		address  TEXT NOT NULL,            -- lower-case mail address
		secret   TEXT NOT NULL,            -- the player's key, sent only in the welcome mail
		PRIMARY KEY (game_id, seat)
	);
	CREATE INDEX players_address ON players(address);
	CREATE TABLE messages (
		message_id TEXT PRIMARY KEY,       -- Message-ID, or sha256: of the raw mail when missing
		body_hash  TEXT NOT NULL,          -- sha256 of the raw mail, to spot a resend with a new id
		sender     TEXT NOT NULL,
		game_id    INTEGER,                -- NULL when no game was concerned
		outcome    TEXT NOT NULL,          -- applied, rejected, ignored, command...
		received   TEXT NOT NULL
	);
	CREATE INDEX messages_body ON messages(body_hash);
	CREATE TABLE outbox (
		id           INTEGER PRIMARY KEY,
		game_id      INTEGER,
		recipient    TEXT NOT NULL,
		raw          BLOB NOT NULL,        -- the whole RFC 5322 message
		created      TEXT NOT NULL,
		attempts     INTEGER NOT NULL DEFAULT 0,
		next_attempt TEXT NOT NULL,
		sent         TEXT,                 -- NULL until sent
		last_error   TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX outbox_due ON outbox(sent, next_attempt);
	CREATE INDEX outbox_recipient ON outbox(recipient, created);`,
}

// Store is an open database.
type Store struct {
	db *sql.DB
}

// Open opens (creating if needed) the database at path and brings its
// schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	var v int
	err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return fmt.Errorf("store: migrate: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("store: the database has schema version %d, newer than this herald knows (%d)", v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("store: migrate: %w", err)
		}
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			tx.Rollback()
			return fmt.Errorf("store: migration %d: %w", i+1, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, i+1); err != nil {
			tx.Rollback()
			return fmt.Errorf("store: migration %d: %w", i+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("store: migration %d: %w", i+1, err)
		}
	}
	return nil
}

// Player is a player of a game as the mail service knows them.
type Player struct {
	Name    string // as in the record
	Address string // lower-case mail address
	Secret  string // the key that authenticates their mail
}

// Game is a stored game.
type Game struct {
	ID      int64
	Host    string
	HostKey string
	Record  *adjudicator.Record
	Players []Player // seating order
	Status  string
	Updated time.Time
}

// Status values of a game.
const (
	Playing   = "playing"
	Finished  = "finished"
	Abandoned = "abandoned"
)

// Outgoing is a mail waiting in the outbox.
type Outgoing struct {
	ID        int64
	GameID    int64 // 0 when the mail concerns no game
	Recipient string
	Raw       []byte
	Attempts  int
}

// Intake identifies an incoming mail for the processed-mail log.
type Intake struct {
	MessageID string
	BodyHash  string
	Sender    string
	Received  time.Time
}

// ErrDuplicate is returned by Process for a mail already processed.
var ErrDuplicate = errors.New("store: mail already processed")

// Tx is the transaction of one incoming mail. Everything done through it
// commits with the mail's identity, or not at all.
type Tx struct {
	tx      *sql.Tx
	now     time.Time
	outcome string
	gameID  int64
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Process runs fn in one transaction that also records in as processed.
// When in's Message-ID is already recorded it returns ErrDuplicate without
// running fn. If fn returns an error, nothing is written and the error is
// returned; the mail stays unprocessed.
func (s *Store) Process(ctx context.Context, in Intake, fn func(tx *Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	var one int
	err = tx.QueryRowContext(ctx, `SELECT 1 FROM messages WHERE message_id = ?`, in.MessageID).Scan(&one)
	if err == nil {
		return ErrDuplicate
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: %w", err)
	}
	t := &Tx{tx: tx, now: in.Received, outcome: "ignored"}
	if err := fn(t); err != nil {
		return err
	}
	var gid any
	if t.gameID != 0 {
		gid = t.gameID
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO messages (message_id, body_hash, sender, game_id, outcome, received) VALUES (?, ?, ?, ?, ?, ?)`,
		in.MessageID, in.BodyHash, in.Sender, gid, t.outcome, stamp(in.Received)); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// SetOutcome records what became of the mail (applied, rejected, ...) and
// the game it concerned.
func (t *Tx) SetOutcome(outcome string, gameID int64) {
	t.outcome, t.gameID = outcome, gameID
}

// SeenBody reports whether a mail with the same raw bytes was processed
// under another Message-ID.
func (t *Tx) SeenBody(ctx context.Context, hash string) (bool, error) {
	var one int
	err := t.tx.QueryRowContext(ctx, `SELECT 1 FROM messages WHERE body_hash = ? LIMIT 1`, hash).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// CreateGame stores a new game and returns its id.
func (t *Tx) CreateGame(ctx context.Context, host, hostKey string, rec *adjudicator.Record, players []Player) (int64, error) {
	data, err := rec.Marshal()
	if err != nil {
		return 0, err
	}
	res, err := t.tx.ExecContext(ctx, `INSERT INTO games (game, host, host_key, record, status, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		rec.Game, strings.ToLower(host), hostKey, data, Playing, stamp(t.now), stamp(t.now))
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	for i, p := range players {
		if _, err := t.tx.ExecContext(ctx, `INSERT INTO players (game_id, seat, name, address, secret) VALUES (?, ?, ?, ?, ?)`,
			id, i, p.Name, strings.ToLower(p.Address), p.Secret); err != nil {
			return 0, fmt.Errorf("store: %w", err)
		}
	}
	return id, nil
}

// Game reads a game inside the transaction.
func (t *Tx) Game(ctx context.Context, id int64) (*Game, error) { return readGame(ctx, t.tx, id) }

// GamesOf returns the ids of the games, playing or not, that address plays
// in or hosts, newest first.
func (t *Tx) GamesOf(ctx context.Context, address string) ([]int64, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT DISTINCT g.id FROM games g LEFT JOIN players p ON p.game_id = g.id
		WHERE p.address = ? OR g.host = ? ORDER BY g.id DESC`, strings.ToLower(address), strings.ToLower(address))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// SaveGame writes a game's record and status.
func (t *Tx) SaveGame(ctx context.Context, id int64, rec *adjudicator.Record, status string) error {
	data, err := rec.Marshal()
	if err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, `UPDATE games SET record = ?, status = ?, updated = ? WHERE id = ?`, data, status, stamp(t.now), id)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("store: no game %d", id)
	}
	return nil
}

// Queue adds a mail to the outbox, due at once.
func (t *Tx) Queue(ctx context.Context, gameID int64, recipient string, raw []byte) error {
	var gid any
	if gameID != 0 {
		gid = gameID
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO outbox (game_id, recipient, raw, created, next_attempt) VALUES (?, ?, ?, ?, ?)`,
		gid, strings.ToLower(recipient), raw, stamp(t.now), stamp(t.now))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// RepliesSince counts the mails queued to recipient since t, for the rate
// limit that keeps two robots from looping.
func (t *Tx) RepliesSince(ctx context.Context, recipient string, since time.Time) (int, error) {
	var n int
	err := t.tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE recipient = ? AND created >= ?`,
		strings.ToLower(recipient), stamp(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func readGame(ctx context.Context, q querier, id int64) (*Game, error) {
	g := &Game{ID: id}
	var data []byte
	var updated string
	err := q.QueryRowContext(ctx, `SELECT host, host_key, record, status, updated FROM games WHERE id = ?`, id).Scan(&g.Host, &g.HostKey, &data, &g.Status, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: no game %d", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	g.Updated, _ = time.Parse(time.RFC3339Nano, updated)
	g.Record, err = adjudicator.ParseRecord(fmt.Sprintf("game %d", id), data)
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	rows, err := q.QueryContext(ctx, `SELECT name, address, secret FROM players WHERE game_id = ? ORDER BY seat`, id)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p Player
		if err := rows.Scan(&p.Name, &p.Address, &p.Secret); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		g.Players = append(g.Players, p)
	}
	return g, rows.Err()
}

// Game reads a game outside any transaction (for CLI reads).
func (s *Store) Game(ctx context.Context, id int64) (*Game, error) { return readGame(ctx, s.db, id) }

// GameSummary is one line of the games list.
type GameSummary struct {
	ID      int64
	Game    string
	Status  string
	Players []string // addresses
	Updated time.Time
}

// Games lists every game, newest first.
func (s *Store) Games(ctx context.Context) ([]GameSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT g.id, g.game, g.status, g.updated, p.address FROM games g
		JOIN players p ON p.game_id = g.id ORDER BY g.id DESC, p.seat`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []GameSummary
	for rows.Next() {
		var id int64
		var game, status, updated, addr string
		if err := rows.Scan(&id, &game, &status, &updated, &addr); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			t, _ := time.Parse(time.RFC3339Nano, updated)
			out = append(out, GameSummary{ID: id, Game: game, Status: status, Updated: t})
		}
		out[len(out)-1].Players = append(out[len(out)-1].Players, addr)
	}
	return out, rows.Err()
}

// Due returns up to limit unsent mails whose next attempt is due at now,
// oldest first.
func (s *Store) Due(ctx context.Context, now time.Time, limit int) ([]Outgoing, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, COALESCE(game_id, 0), recipient, raw, attempts FROM outbox
		WHERE sent IS NULL AND next_attempt <= ? ORDER BY id LIMIT ?`, stamp(now), limit)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []Outgoing
	for rows.Next() {
		var o Outgoing
		if err := rows.Scan(&o.ID, &o.GameID, &o.Recipient, &o.Raw, &o.Attempts); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// Pending returns how many mails wait in the outbox.
func (s *Store) Pending(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE sent IS NULL`).Scan(&n)
	return n, err
}

// MarkSent records that an outgoing mail was accepted by the SMTP server.
func (s *Store) MarkSent(ctx context.Context, id int64, now time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET sent = ?, attempts = attempts + 1 WHERE id = ?`, stamp(now), id)
	return err
}

// MarkFailed records a failed attempt and when to try again.
func (s *Store) MarkFailed(ctx context.Context, id int64, next time.Time, cause error) error {
	_, err := s.db.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, next_attempt = ?, last_error = ? WHERE id = ?`,
		stamp(next), cause.Error(), id)
	return err
}

// Processed reports whether the mail with this Message-ID was processed.
func (s *Store) Processed(ctx context.Context, messageID string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM messages WHERE message_id = ?`, messageID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}
