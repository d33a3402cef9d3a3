// Package store implements [host.Store] on SQLite: it keeps herald's games, players, processed mail and outgoing
// mail in one SQLite database, so that the mail service can process each
// incoming mail exactly once: the mail's identity, the game's new record and
// every reply it causes are written in one transaction. A crash before the
// commit loses nothing (the mail is still in the inbox and is processed
// again); a crash after it applies nothing twice (the mail's identity is
// known, so it is recognised and skipped), and replies wait in the outbox
// until they are sent.
//
// A Batch processes several mails in one transaction, each inside its own
// savepoint, so that a burst of mail costs one commit (one fsync) rather than
// one per mail while every mail still commits with its own effects or not at
// all; or, unguarded, without the savepoints, a failing mail rolling back
// the whole batch, which the caller then processes again guarded.
//
// A game's record is stored as its header (the YAML record without moves,
// written when the game starts, and again with its ended entry if a player
// resigns or the host abandons it) and one row per move, so that a move
// costs one insert however long the game; Game and Tx.Record put the two
// back together. The outbox holds each mail either whole (RFC 5322) or as a
// draft that the mail layer renders when it sends it: the transaction of an
// incoming mail stores what to say, not its MIME encoding.
//
// The database keeps the games and the identities of the mails processed
// for ever, and a sent mail SentKept after it was sent (host.Retention):
// Prune, run by herald serve every hour, deletes the mails sent before, the
// boards (outbox_shared) none of the mails left refers to, the failures
// not set aside after FailureKept and the requests to observe never
// confirmed after ObserveRequestKept, a few hundred rows a transaction. A mail not sent stays (set aside, herald failed names it).
// The pages freed go to SQLite's free list and hold the next mails
// (auto_vacuum is off: the file keeps its size, a SentKept of mail beside
// the games, and never pays for giving pages back and taking them again).
//
// The store keeps the header of the games it read lately (headerCache), so
// that a burst of moves reads each game's players and clock once; every
// write this process makes goes through its one writing connection, and a
// write by another process (a CLI command) empties the cache at the next
// batch (PRAGMA data_version).
//
// The database uses WAL mode with a busy timeout, so CLI commands can read
// while `herald serve` writes; the store checkpoints the WAL in the
// background after commits rather than inside them. The driver is modernc.org/sqlite (pure Go, no
// cgo). The schema sticks to portable SQL (TEXT, INTEGER, BLOB, no
// SQLite-only functions in queries) so that it can move to PostgreSQL: there
// INTEGER PRIMARY KEY becomes BIGINT GENERATED ALWAYS AS IDENTITY and BLOB
// becomes BYTEA. Migrations are in code (migrations below) and run on Open.
package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/internal/sqlform"
	"modernc.org/sqlite" // the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"
)

// migrations are applied in order; schema_version holds how many ran. Never
// edit one that has shipped: add a new one.
var migrations = []migration{
	// 1: games, players, processed mail, outbox.
	{sql: `CREATE TABLE games (
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
	CREATE INDEX outbox_recipient ON outbox(recipient, created);`},
	// 2: a revision that changes on every write of a game, and its number
	// of moves, so that the mail service can keep replayed games in memory
	// and know when its copy is stale without decoding the record. -1 moves
	// means unknown (a row written before this migration).
	{sql: `ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN moves INTEGER NOT NULL DEFAULT -1;`},
	// 3: one row per move, the record keeping only its header, so that a
	// move costs an insert rather than re-encoding the whole record (data
	// step: splitRecords); outbox drafts (the mail layer's description of a
	// mail, rendered when sent) beside whole messages; and which mails are
	// replies to the recipient's own mail, the only ones the rate limit
	// counts (the news of a move is not a reply, whoever receives it). The
	// index on messages.body_hash goes: equal bytes always carry equal
	// Message-IDs (the id of a mail without one is its hash), so the
	// primary key already recognises them, and a random key costs a page
	// write per mail.
	{sql: `CREATE TABLE moves (
		game_id INTEGER NOT NULL REFERENCES games(id),
		n       INTEGER NOT NULL,          -- 1 for the game's first move
		player  TEXT NOT NULL,
		text    TEXT NOT NULL,             -- the steps, canonical, one per line
		time    TEXT NOT NULL,
		source  TEXT NOT NULL,
		PRIMARY KEY (game_id, n)
	);
	ALTER TABLE outbox ADD COLUMN draft BLOB;  -- when raw is empty: rendered by the mail layer when sent
	ALTER TABLE outbox ADD COLUMN reply INTEGER NOT NULL DEFAULT 0;
	DROP INDEX outbox_recipient;
	CREATE INDEX outbox_replies ON outbox(recipient, reply, created);
	DROP INDEX messages_body;`, data: splitRecords},
	// 4: claims, so that several workers can share the outbox.
	{sql: `ALTER TABLE outbox ADD COLUMN claimed_by TEXT;     -- the worker sending it, until claimed_until
	ALTER TABLE outbox ADD COLUMN claimed_until TEXT;`},
	// 5: the clock of a game with a deadline: its settings, where its
	// current turn stands, and when the host's Tick next has work for it.
	{sql: `CREATE TABLE clocks (
		game_id  INTEGER PRIMARY KEY REFERENCES games(id),
		deadline INTEGER NOT NULL,          -- seconds the players to move have
		grace    INTEGER NOT NULL,          -- seconds after the deadline before the policy applies
		remind   INTEGER NOT NULL,          -- percent of the deadline at which the reminder goes
		policy   TEXT NOT NULL,             -- what happens after the grace: wait, forfeit
		since    TEXT NOT NULL,             -- when the current turn began
		to_move  TEXT NOT NULL,             -- who was to move then, comma-separated
		stage    INTEGER NOT NULL,          -- 0 nothing sent, 1 reminded, 2 late notice sent, 3 policy applied
		next     TEXT                       -- when Tick next has work for the game; NULL: never
	);
	CREATE INDEX clocks_next ON clocks(next);`},
	// 6: observers, who get the public view of a game's moves, and the
	// host's choice to allow them or not.
	{sql: `CREATE TABLE observers (
		game_id INTEGER NOT NULL REFERENCES games(id),
		address TEXT NOT NULL,
		PRIMARY KEY (game_id, address)
	);
	ALTER TABLE games ADD COLUMN observers_off INTEGER NOT NULL DEFAULT 0;`},
	// 7: each seat's reply token: a reply to herald+g12.TOKEN@… from the
	// seat's address authenticates without the key. '' for seats of
	// games started before.
	{sql: `ALTER TABLE players ADD COLUMN token TEXT NOT NULL DEFAULT '';`},
	// 8: how much mail each player wants (all, turn, digest), how many
	// moves they have been told of, and when their next digest is due.
	{sql: `ALTER TABLE players ADD COLUMN notify TEXT NOT NULL DEFAULT 'all';
	ALTER TABLE players ADD COLUMN told INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE players ADD COLUMN digest_next TEXT;
	CREATE INDEX players_digest ON players(digest_next);`},
	// 9: vacations: each game's allowance (seconds per player), and each
	// seat's absence and how much of the allowance it has used.
	{sql: `ALTER TABLE clocks ADD COLUMN vacation INTEGER NOT NULL DEFAULT 1209600;
	ALTER TABLE players ADD COLUMN away_until TEXT;
	ALTER TABLE players ADD COLUMN away_used INTEGER NOT NULL DEFAULT 0;`},
	// 10: each game's web page: the unguessable token of its address, and
	// whether it is listed (public), only reachable by its address (link)
	// or not served (off).
	{sql: `ALTER TABLE games ADD COLUMN page_token TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN page TEXT NOT NULL DEFAULT 'link';
	CREATE INDEX games_page ON games(page_token);`},
	// 11: a request to take moves back, waiting for every other player's
	// consent (the moves taken back go into the record's header).
	{sql: `CREATE TABLE undo_requests (
		game_id  INTEGER PRIMARY KEY REFERENCES games(id),
		asked_by TEXT NOT NULL,             -- the player who asked
		keep     INTEGER NOT NULL,          -- the moves kept if everyone agrees
		moves    INTEGER NOT NULL,          -- the game's moves when asked: a later move ends the request
		accepted TEXT NOT NULL,             -- who has agreed, comma-separated
		until    TEXT NOT NULL,             -- when the request lapses
		source   TEXT NOT NULL
	);`},
	// 12: keys kept as hashes (host.HashKey), never in clear: they are
	// only ever checked (data step: hashKeys); and the requests to
	// observe a game that wait for the confirmation mail's token, kept as
	// a hash too.
	{sql: `CREATE TABLE observe_requests (
		game_id INTEGER NOT NULL REFERENCES games(id),
		address TEXT NOT NULL,
		token   TEXT NOT NULL,              -- host.HashKey of the confirmation token
		asked   TEXT NOT NULL,              -- when the confirmation mail went
		PRIMARY KEY (game_id, address)
	);`, data: hashKeys},
	// 13: mails and outgoing mails herald failed to handle, and those it
	// set aside after failing the same way again and again (host.Failure).
	// Portable to PostgreSQL as it is (BIGSERIAL for the id there).
	{sql: `CREATE TABLE failures (
		id        INTEGER PRIMARY KEY,
		kind      TEXT NOT NULL,             -- mail (incoming) or draft (the outbox's)
		ref       TEXT NOT NULL,             -- Message-ID, or outbox:ID
		party     TEXT NOT NULL,             -- the mail's sender or the draft's recipient
		subject   TEXT NOT NULL,
		reason    TEXT NOT NULL,             -- the last failure
		attempts  INTEGER NOT NULL,          -- failures in a row with this reason
		first     TEXT NOT NULL,
		last      TEXT NOT NULL,
		set_aside TEXT,                      -- NULL while retried
		UNIQUE (kind, ref)
	);
	CREATE INDEX failures_set_aside ON failures(set_aside);`},
	// 14: why mail to a seat's address bounces, from the delivery report
	// herald last read for it ('' while mail reaches it; issue 31, item 2).
	{sql: `ALTER TABLE players ADD COLUMN undeliverable TEXT NOT NULL DEFAULT '';`},
	// 15: the language each player chose for herald's mails (lang fr):
	// "fr", or '' for English.
	{sql: `ALTER TABLE players ADD COLUMN lang TEXT NOT NULL DEFAULT '';`},
	// 16: what the drafts of several outbox mails share (host.Mail.Shared:
	// a move's board, two thirds of each of its mails' drafts), stored once;
	// NULL for a mail without it, as every mail queued before.
	{sql: `CREATE TABLE outbox_shared (
		id   INTEGER PRIMARY KEY,
		data BLOB NOT NULL
	);
	ALTER TABLE outbox ADD COLUMN shared_id INTEGER REFERENCES outbox_shared(id);`},
	// 17: the outbox's mails by their shared part, so that Prune finds
	// whether a shared part is still referred to (and SQLite checks the
	// foreign key of a shared part deleted) without reading the outbox
	// whole; and the requests to observe by when they were asked, so that
	// it finds those past their token's validity.
	{sql: `CREATE INDEX outbox_shared_ref ON outbox(shared_id);
	CREATE INDEX observe_requests_asked ON observe_requests(asked);`},
	// 18: the languages herald writes in where no one chose one: a
	// player's last mail's that said which (host.Player.MailLang), the
	// host's (host.Game.HostLang), an observer's when they observed;
	// "fr", or '' for English.
	{sql: `ALTER TABLE players ADD COLUMN mail_lang TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN host_lang TEXT NOT NULL DEFAULT '';
	ALTER TABLE observers ADD COLUMN lang TEXT NOT NULL DEFAULT '';`},
	// 19: the answers to mails that do not prove their sender (outbox.reply
	// 2 and 3, host.AuthAnswer and host.UnkeyedAnswer) by when they were
	// queued, for their cap as a whole (StrangerAnswersSince); partial, so
	// that no other mail pays for it.
	{sql: `CREATE INDEX outbox_strangers ON outbox(created) WHERE reply IN (2, 3);`},
}

var _ host.Store = (*Store)(nil)

// A migration is SQL, and optionally a data step that runs after it in the
// same transaction.
type migration struct {
	sql  string
	data func(ctx context.Context, tx *sql.Tx) error
}

// splitRecords moves the moves of every stored record into the moves table
// and leaves the record's header in games.record (migration 3).
func splitRecords(ctx context.Context, tx *sql.Tx) error {
	type game struct {
		id  int64
		rec *adjudicator.Record
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, record FROM games ORDER BY id`)
	if err != nil {
		return err
	}
	var all []game
	for rows.Next() {
		var id int64
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			rows.Close()
			return err
		}
		rec, err := adjudicator.ParseRecord(fmt.Sprintf("game %d", id), data)
		if err != nil {
			// Left as it is: reading the game fails as it did before, for
			// that game alone, rather than every Open of the database.
			continue
		}
		all = append(all, game{id, rec})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, g := range all {
		header, err := marshalHeader(g.rec)
		if err != nil {
			return fmt.Errorf("game %d: %w", g.id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET record = ?, moves = ? WHERE id = ?`, header, len(g.rec.Moves), g.id); err != nil {
			return err
		}
		for i, mv := range g.rec.Moves {
			if _, err := tx.ExecContext(ctx, insertMove, g.id, i+1, mv.Player, mv.Text, mv.Time, mv.Source); err != nil {
				return err
			}
		}
	}
	return nil
}

// hashKeys replaces every player's and host's key kept in clear by its
// hash (migration 12).
func hashKeys(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []struct{ sel, upd string }{
		{`SELECT rowid, secret FROM players`, `UPDATE players SET secret = ? WHERE rowid = ?`},
		{`SELECT id, host_key FROM games`, `UPDATE games SET host_key = ? WHERE id = ?`},
	} {
		rows, err := tx.QueryContext(ctx, q.sel)
		if err != nil {
			return err
		}
		type row struct {
			id  int64
			key string
		}
		var clear []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.key); err != nil {
				rows.Close()
				return err
			}
			if r.key != "" && !host.IsHashedKey(r.key) {
				clear = append(clear, r)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, r := range clear {
			if _, err := tx.ExecContext(ctx, q.upd, host.HashKey(r.key), r.id); err != nil {
				return err
			}
		}
	}
	return nil
}

const insertMove = `INSERT INTO moves (game_id, n, player, text, time, source) VALUES (?, ?, ?, ?, ?, ?)`

// Store is an open database.
type Store struct {
	db      *sql.DB
	closing sync.Once
	wal     string // the WAL file, which Sync syncs
	// writer is the connection of batches, one at a time (a token in
	// writing), kept with its prepared statements from one batch to the
	// next; nil until the first batch and after a failure.
	writing chan struct{}
	writer  *prepared
	// wrote tells the checkpointer that a batch committed (one pending
	// signal is enough); stopped is closed once it has stopped.
	wrote   chan struct{}
	stopped chan struct{}
	// failed is the first checkpoint error that may have lost a write to
	// disk; Sync returns it from then on.
	failMu sync.Mutex
	failed error
	// writes counts the writes Sync must make durable: batches committed,
	// and outbox rows marked sent or failed (so that a mail is not sent
	// again after a power loss). It starts at 1: the first Sync always
	// syncs. synced is the value of writes read before the last sync to
	// disk that succeeded: every write it counts is durable, and a Sync
	// with nothing newer to cover returns at once (the intake and the
	// outbox both sync after a batch; only the first pays for the disk).
	writes atomic.Uint64
	syncMu sync.Mutex
	synced uint64 // guarded by syncMu
	// stmts are the outbox's statements, prepared once: the outbox runs
	// them for every mail, and preparing costs as much as running them.
	stmtsMu sync.Mutex
	stmts   map[string]*sql.Stmt
	// statements counts the statements batches ran (Statements).
	statements atomic.Int64
	// headers are the games' headers the writer read lately (see
	// headerCache); used only by the holder of the writing token.
	headers headerCache
}

// Statements returns how many SQL statements the store's batches have run
// since it opened, their BEGIN and COMMIT included: what a request costs
// in statements, which tests and benchmarks guard.
func (s *Store) Statements() int64 { return s.statements.Load() }

// Open opens (creating if needed) the database at path and brings its
// schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	// synchronous(NORMAL): SQLite writes a commit to the WAL without
	// waiting for the disk; Commit then syncs the WAL itself (Sync), and
	// CommitUnsynced leaves that to a later Sync, so that the mail intake
	// can process its next batch while the disk catches up, and sync once
	// before it moves the mail out of the inbox. Either way a commit is on
	// disk, even across a power loss, before anything outside the database
	// depends on it. temp_store(2): the journal of
	// a batch's savepoints stays in memory (it only ever rolls back a mail
	// within the open transaction; durability is the WAL's).
	// wal_autocheckpoint(0): the store checkpoints in the background (see
	// checkpointer), not in the commit that happens to fill the WAL.
	if err := privateFiles(path); err != nil {
		return nil, err
	}
	if err := newDatabase(ctx, path); err != nil {
		return nil, err
	}
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(" + strconv.FormatInt(busyTimeout.Milliseconds(), 10) + ")&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=temp_store(2)&_pragma=wal_autocheckpoint(0)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s := &Store{db: db, wal: path + "-wal", writing: make(chan struct{}, 1), wrote: make(chan struct{}, 1), stopped: make(chan struct{})}
	s.writes.Store(1)
	s.stmts = map[string]*sql.Stmt{}
	if err := firstConn(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	go s.checkpointer()
	return s, nil
}

// firstConn opens the store's first connection, waiting while another
// process holds the database in a way SQLite will not wait for. The first
// connection to a database still in rollback-journal mode (one made by an
// older herald, or by hand) switches it to WAL; two processes doing that at
// once deadlock, each holding a read lock and wanting to write, and SQLite
// answers one of them at once with SQLITE_BUSY without calling its busy
// handler (see sqlite3_busy_handler). That one tries again, for as long as
// the busy timeout it would otherwise have had: by then the database is in
// WAL mode and opening needs no lock.
func firstConn(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(busyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := db.PingContext(ctx)
		if err == nil {
			return nil
		}
		if !busy(err) || time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("store: open: %w", err)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return fmt.Errorf("store: open: %w", ctx.Err())
		}
	}
}

// pageSize is the size of a new database's pages. SQLite's default, 4
// KiB, makes a batch of move mails write its WAL frames (two system calls
// each, the pure-Go SQLite writing a page a call) four times as often:
// BenchmarkIntake's COMMITs took about twice as long, the whole intake
// some 10% more (interleaved runs, 28 November). A database made with
// other pages (by an older herald, or by hand) keeps them: the size is
// fixed once a database has its first page, and changing it means a
// VACUUM outside WAL mode, which herald does not do behind a host's back.
const pageSize = 16384

// newDatabase gives the database at path its page size (pageSize) and
// switches it to WAL mode, if it has no page yet (privateFiles just made
// it): the DSN's pragmas run in the order of their names, journal_mode
// before page_size, so the switch to WAL, which writes the first page,
// would fix the size first. A database with pages is left alone. When
// another process is making the same database at that moment, the first
// to write its first page decides, and this one goes on (firstConn waits
// for it).
func newDatabase(ctx context.Context, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if fi.Size() > 0 {
		return nil
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout("+strconv.FormatInt(busyTimeout.Milliseconds(), 10)+")")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, `PRAGMA page_size = `+strconv.Itoa(pageSize)+`; PRAGMA journal_mode = WAL`)
	if err != nil && !busy(err) {
		return fmt.Errorf("store: new database: %w", err)
	}
	return nil
}

// busyTimeout is how long a statement waits for a lock another connection
// holds before it fails with SQLITE_BUSY (the DSN's busy_timeout).
const busyTimeout = 10 * time.Second

// privateFiles creates the database file at path, if it is missing, with
// mode 0600, and makes it and its WAL and shared-memory files 0600 if they
// are not (a store made before, under the process's umask): they hold the
// games' seeds and hands, and the page and reply tokens. SQLite creates the
// -wal and -shm files with the mode of the database file.
func privateFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		if fi.Mode().Perm() != 0o600 {
			if err := os.Chmod(p, 0o600); err != nil {
				return fmt.Errorf("store: %w", err)
			}
		}
	}
	return nil
}

// checkpointer copies committed pages from the WAL into the database file,
// on a connection of its own, so that a commit never pays for a
// checkpoint: the next batch goes on while it works. It checkpoints once
// checkpointBatches batches have committed since the last checkpoint, or
// when no batch has committed for checkpointQuiet: not at once after
// every commit, when the disk is busy making the batch durable and the
// mail it answers is about to go (its two syncs to disk would compete
// with them). A passive checkpoint neither waits for nor blocks the
// writer or readers; once one has copied the whole WAL and no reader
// still uses an older snapshot, the next write transaction starts the WAL
// over, so it does not grow without bound. It stops when the store
// closes; the last connection to close checkpoints and removes the WAL
// (SQLite does).
//
// A checkpoint that could not finish (a reader on an old snapshot) leaves
// the pages in the WAL, which stays correct. Any other error, an I/O error
// above all, is kept and returned by every later Sync: the kernel reports
// a failed write-back once, perhaps to the checkpoint's fsync rather than
// to Sync's, and mail must not leave the inbox on a disk that failed.
func (s *Store) checkpointer() {
	defer close(s.stopped)
	quiet := time.NewTimer(checkpointQuiet)
	quiet.Stop()
	defer quiet.Stop()
	batches := 0
	for {
		select {
		case _, ok := <-s.wrote:
			if !ok {
				return
			}
			if batches++; batches < checkpointBatches {
				quiet.Reset(checkpointQuiet)
				continue
			}
			quiet.Stop()
		case <-quiet.C:
		}
		batches = 0
		if _, err := s.db.Exec(`PRAGMA wal_checkpoint(PASSIVE)`); err != nil && !busy(err) {
			s.failMu.Lock()
			if s.failed == nil {
				s.failed = fmt.Errorf("store: checkpoint: %w", err)
			}
			s.failMu.Unlock()
		}
	}
}

// When the checkpointer checkpoints: after this many batches, or when no
// batch committed for this long.
const (
	checkpointBatches = 16
	checkpointQuiet   = 250 * time.Millisecond
)

// busy reports whether err is SQLite's "busy" or "locked": another
// connection, perhaps of another process, holds what was needed, and
// nothing was lost.
func busy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff // the primary result code
	return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
}

// Close closes the database, once the batch under way (if any) ends.
func (s *Store) Close() error {
	var err error
	s.closing.Do(func() {
		s.writing <- struct{}{} // after the batch under way, if any
		if s.writer != nil {
			s.writer.close(false)
			s.writer = nil
		}
		close(s.wrote)
		<-s.stopped
		s.stmtsMu.Lock()
		for _, st := range s.stmts {
			st.Close()
		}
		clear(s.stmts)
		s.stmtsMu.Unlock()
		err = s.db.Close() // a later Begin fails: the database is closed
		<-s.writing
	})
	return err
}

// migrate brings the schema up to date, one migration per transaction.
// Each transaction is a BEGIN IMMEDIATE that reads the version itself, so
// two processes opening an old database at once do not both migrate it.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	// Up to date, the usual case: no write lock (a CLI read beside serve).
	var v int
	if err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err == nil && v == len(migrations) {
		return nil
	}
	for {
		done, err := s.migrateOne(ctx)
		if err != nil {
			return err
		}
		if done {
			return s.Sync()
		}
	}
}

// migrateOne applies the next migration, if any, and reports whether the
// schema is up to date.
func (s *Store) migrateOne(ctx context.Context) (done bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store: migrate: %w", err)
	}
	defer tx.Rollback()
	var v int
	err = tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (0)`)
	}
	if err != nil {
		return false, fmt.Errorf("store: migrate: %w", err)
	}
	if v > len(migrations) {
		return false, fmt.Errorf("store: the database has schema version %d, newer than this herald knows (%d)", v, len(migrations))
	}
	if v == len(migrations) {
		return true, tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, migrations[v].sql); err != nil {
		return false, fmt.Errorf("store: migration %d: %w", v+1, err)
	}
	if data := migrations[v].data; data != nil {
		if err := data(ctx, tx); err != nil {
			return false, fmt.Errorf("store: migration %d: %w", v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, v+1); err != nil {
		return false, fmt.Errorf("store: migration %d: %w", v+1, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store: migration %d: %w", v+1, err)
	}
	return false, nil
}

// Tx is the transaction of one incoming mail. Everything done through it
// commits with the mail's identity, or not at all.
type Tx struct {
	b       *Batch
	now     time.Time
	outcome string
	gameID  int64
	// known is what the transaction learnt of the games it read and
	// wrote, so as not to ask the database again (see known).
	known map[int64]known
	// touched are the games whose header the transaction read or wrote:
	// if it rolls back, the store's cache forgets them (see headerCache).
	touched []int64
}

// cache records game g's header, as the transaction read it, in the
// store's cache.
func (t *Tx) cache(g *host.Game, flags gameFlags) {
	t.touched = append(t.touched, g.ID)
	t.b.s.headers.put(g, flags)
}

// changed forgets game id's header in the store's cache: the transaction
// is about to write it.
func (t *Tx) changed(id int64) {
	t.touched = append(t.touched, id)
	t.b.s.headers.forget(id)
}

// changedTo updates game id's header in the store's cache with change,
// which makes it what the transaction is writing.
func (t *Tx) changedTo(id int64, change func(g *host.Game)) {
	t.touched = append(t.touched, id)
	t.b.s.headers.update(id, change)
}

// known is what a Tx knows of a game it read, true until the Tx itself
// changes it (nothing else writes while it runs): its observers and
// request to take moves back (whether there are any), and its stored
// number of moves (-1: unknown).
type known struct {
	gameFlags
	moves int
}

// unknown forgets what forget says of game id: the transaction is about
// to change it, and asks the database next time. (An observer flag or an
// undo flag set to true means "ask"; moves -1 the same.)
func (t *Tx) unknown(id int64, forget func(k *known)) {
	if k, ok := t.known[id]; ok {
		forget(&k)
		t.known[id] = k
	}
}

// learn records what a read of game g taught the transaction.
func (t *Tx) learn(g *host.Game, flags gameFlags) {
	if t.known == nil {
		t.known = map[int64]known{}
	}
	t.known[g.ID] = known{gameFlags: flags, moves: g.Moves}
}

// Process runs fn in one transaction that also records in as processed.
// When in's Message-ID is already recorded it returns host.ErrDuplicate without
// running fn. If fn returns an error, nothing is written and the error is
// returned; the mail stays unprocessed.
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

// Batch is one database transaction in which several mails are processed,
// one after another, each by Process inside a savepoint of its own: a mail
// whose fn fails is rolled back alone, and the mails before it can still be
// committed (unless the batch is Unguarded). Nothing is durable before
// Commit, which costs one sync to disk for the whole batch. A Batch is not
// safe for concurrent use.
type Batch struct {
	s     *Store
	stmts *prepared
	err   error // set when a savepoint could not be rolled back
	done  bool
	// queued are the ids of the outbox rows the batch inserted, in order,
	// those of mails rolled back excepted (ClaimQueued).
	queued []int64
	// expected are the identities Expect checked: true while a mail of
	// that identity may be processed without asking (none is recorded),
	// false once one is (before the batch, or by it).
	expected map[string]bool
	// unguarded runs the mails without a savepoint each (Unguarded).
	unguarded bool
	// records are the messages rows of the mails processed, their
	// columns one after another, inserted when the batch commits.
	records []any
	// queue are the mails Queue was given and not yet inserted (flush):
	// those of the current mail, which go into the outbox together when
	// it ends; in an unguarded batch, those of all its mails so far, which
	// go when it commits, or before the outbox is read in it, so that a
	// mail's drafts written apart (host.Mail.Pending) are waited for only
	// then.
	queue []queuedMail
	// recent are the outbox_shared rows the batch inserted last (see
	// shared); none after a mail is rolled back.
	recent sqlform.RecentShared
}

var errBatchDone = errors.New("store: the batch is already committed or rolled back")

// Begin starts a batch. The caller must Commit or Rollback it; until then
// other batches wait.
//
// The batch's transaction is a BEGIN IMMEDIATE on the store's writing
// connection, not a database/sql Tx, and its statements run without ctx's
// cancellation: both would cost a goroutine per statement. ctx bounds only
// the wait for the write lock; a caller that wants to stop between mails
// checks ctx itself, and then commits or rolls back.
func (s *Store) Begin(ctx context.Context) (host.StoreBatch, error) {
	select {
	case s.writing <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("store: %w", ctx.Err())
	}
	if err := s.connectWriter(ctx); err != nil {
		<-s.writing
		return nil, err
	}
	s.statements.Add(2) // BEGIN and the data version, below
	if _, err := s.writer.conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		s.release(true)
		return nil, fmt.Errorf("store: %w", err)
	}
	// Has another connection written since the last batch? Not one of
	// this process's (they all write through this one, see withWriter,
	// or clear the cache): another process's.
	var dv int64
	if err := s.writer.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&dv); err != nil {
		s.writer.conn.ExecContext(ctx, `ROLLBACK`)
		s.release(true)
		return nil, fmt.Errorf("store: %w", err)
	}
	if !s.headers.valid || dv != s.headers.version {
		s.headers.clear()
		s.headers.version, s.headers.valid = dv, true
		// Another process with a newer herald may have migrated the
		// database since it was opened: writing with the old schema could
		// corrupt it.
		s.statements.Add(1)
		var v int
		if err := s.writer.conn.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil || v != len(migrations) {
			s.writer.conn.ExecContext(ctx, `ROLLBACK`)
			s.headers.valid = false
			s.release(err != nil)
			if err != nil {
				return nil, fmt.Errorf("store: %w", err)
			}
			return nil, fmt.Errorf("store: the database is at schema version %d, this herald writes version %d: it was upgraded by another herald; restart with that one", v, len(migrations))
		}
	}
	return &Batch{s: s, stmts: s.writer}, nil
}

// connectWriter makes the writing connection, if there is none. The
// caller holds the writing token.
func (s *Store) connectWriter(ctx context.Context) error {
	if s.writer != nil {
		return nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	s.writer = &prepared{conn: conn, cache: map[string]*sql.Stmt{}, count: &s.statements}
	return nil
}

// release ends a batch: the next may begin. A bad connection (its state
// unknown after a failure) is dropped, and with it what the cache knew.
func (s *Store) release(bad bool) {
	if bad {
		s.writer.close(true)
		s.writer = nil
		s.headers.clear()
		s.headers.valid = false
	}
	<-s.writing
}

// withWriter runs fn's statements on the writing connection, between two
// batches, each in a transaction of its own: the writes this process makes
// outside its batches (the outbox's, the failures') go through that one
// connection, so that PRAGMA data_version on it changes only for another
// process's writes (see headerCache). It waits for the batch under way, if
// any, as long as SQLite would wait for its lock, and its statements are
// not counted in Statements (they are no request's).
func (s *Store) withWriter(ctx context.Context, fn func(p *prepared) error) error {
	timer := time.NewTimer(busyTimeout)
	defer timer.Stop()
	select {
	case s.writing <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("store: %w", ctx.Err())
	case <-timer.C:
		return fmt.Errorf("store: the database is busy: a batch held it for %v", busyTimeout)
	}
	if err := s.connectWriter(ctx); err != nil {
		<-s.writing
		return err
	}
	p := &prepared{conn: s.writer.conn, cache: s.writer.cache}
	err := fn(p)
	// An error of the statement (a constraint) leaves the connection as
	// it was; one of the connection drops it.
	s.release(errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone))
	return err
}

// Process runs fn for one mail inside the batch, as Store.Process does:
// host.ErrDuplicate without running fn when in's Message-ID is already recorded
// (by an earlier commit or earlier in this batch); when fn fails, what it
// wrote is rolled back, the error is returned and the batch can go on.
func (b *Batch) Process(ctx context.Context, in host.Intake, fn func(tx host.Tx) error) error {
	if b.done {
		return errBatchDone
	}
	if b.err != nil {
		return b.err
	}
	if free, ok := b.expected[in.MessageID]; ok {
		if !free {
			return host.ErrDuplicate
		}
	} else {
		var one int
		err := b.stmts.QueryRowContext(ctx, `SELECT 1 FROM messages WHERE message_id = ?`, in.MessageID).Scan(&one)
		if err == nil {
			return host.ErrDuplicate
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: %w", err)
		}
	}
	if !b.unguarded {
		if _, err := b.stmts.ExecContext(ctx, `SAVEPOINT mail`); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	t := &Tx{b: b, now: in.Received, outcome: "ignored"}
	queued, queue := len(b.queued), len(b.queue)
	err := fn(t)
	if err == nil && !b.unguarded {
		err = b.flush(ctx)
	}
	if err == nil && !b.unguarded {
		if _, err = b.stmts.ExecContext(ctx, `RELEASE SAVEPOINT mail`); err != nil {
			err = fmt.Errorf("store: %w", err)
		}
	}
	if err != nil && b.unguarded {
		b.Rollback()
		return host.BatchLost(err)
	}
	if err != nil {
		b.queued, b.queue = b.queued[:queued], b.queue[:queue]
		b.recent = sqlform.RecentShared{}
		b.rollbackMail(ctx)
		for _, id := range t.touched {
			b.s.headers.forget(id)
		}
		return err
	}
	// The mail is recorded when the batch commits, with the others: until
	// then expected says it is.
	var gid any
	if t.gameID != 0 {
		gid = t.gameID
	}
	b.records = append(b.records, in.MessageID, in.BodyHash, in.Sender, gid, t.outcome, stamp(in.Received))
	if b.expected == nil {
		b.expected = map[string]bool{}
	}
	b.expected[in.MessageID] = false
	return nil
}

// record inserts the messages rows of the mails the batch processed, up
// to recordChunk in one statement.
func (b *Batch) record(ctx context.Context) error {
	for args := range slices.Chunk(b.records, recordChunk*messageColumns) {
		n := len(args) / messageColumns
		if _, err := b.stmts.ExecContext(ctx, `INSERT INTO messages (message_id, body_hash, sender, game_id, outcome, received) VALUES (?, ?, ?, ?, ?, ?)`+
			strings.Repeat(", (?, ?, ?, ?, ?, ?)", n-1), args...); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	b.records = nil
	return nil
}

// messageColumns is the number of columns of a messages row; recordChunk
// is how many rows record inserts in one statement (each count a
// statement of its own, prepared once).
const messageColumns, recordChunk = 6, 32

// Unguarded runs the batch's mails from then on without a savepoint each:
// one that fails rolls the batch back whole (host.StoreBatch.Unguarded).
func (b *Batch) Unguarded() { b.unguarded = true }

// Expect checks in one statement which of ids are recorded already, so
// that Process need not ask for each (host.StoreBatch.Expect). The batch
// holds the write lock: no other writer records one before it commits,
// and the messages' unique key still refuses a second record of one.
// An identity that is not valid UTF-8 (which the statement's JSON list
// could not carry) is left to Process to check.
func (b *Batch) Expect(ctx context.Context, ids []string) error {
	if b.done {
		return errBatchDone
	}
	if b.err != nil {
		return b.err
	}
	var check []string
	for _, id := range ids {
		if _, ok := b.expected[id]; !ok && utf8.ValidString(id) {
			check = append(check, id)
		}
	}
	if len(check) == 0 {
		return nil
	}
	list, err := json.Marshal(check)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	rows, err := b.stmts.QueryContext(ctx, `SELECT message_id FROM messages WHERE message_id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	recorded := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		recorded[id] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if b.expected == nil {
		b.expected = make(map[string]bool, len(check))
	}
	for _, id := range check {
		b.expected[id] = !recorded[id]
	}
	return nil
}

// ClaimQueued claims for worker until until the mails the batch queued so
// far, as Claim would once the batch commits, and returns them, oldest
// first: the worker's outbox gets them without a Claim of its own. The
// claims commit with the batch, or not at all.
func (b *Batch) ClaimQueued(ctx context.Context, worker string, until time.Time) ([]host.Outgoing, error) {
	if b.done {
		return nil, errBatchDone
	}
	if b.err != nil {
		return nil, b.err
	}
	if err := b.flush(ctx); err != nil {
		// Part of the queue may be in: the batch cannot commit.
		b.err = err
		return nil, err
	}
	var out []host.Outgoing
	for ids := range slices.Chunk(b.queued, claimChunk) {
		args := []any{worker, stamp(until)}
		for _, id := range ids {
			args = append(args, id)
		}
		args = append(args, stamp(until.Add(givenUp)))
		rows, err := b.stmts.QueryContext(ctx, `UPDATE outbox SET claimed_by = ?, claimed_until = ?
			WHERE sent IS NULL AND id IN (?`+strings.Repeat(", ?", len(ids)-1)+`) AND `+queuedInOrder+`
			RETURNING `+outgoingColumns, args...)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		got, err := scanOutgoing(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	slices.SortFunc(out, func(a, b host.Outgoing) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// inOrder keeps the mails of one game, and the mails to one recipient
// about one game or none, in the order they were queued (issue 32, item
// 4; issue 31, item 3): a mail is not claimed while an older one of the
// same game, or to the same recipient about the same game or with one of
// the two about none, failed and waits to be tried again (its next attempt
// after the first parameter, now), unless that one was given up (its next
// attempt is further off than the second, givenUp from now). The older
// one goes first; the newer with it or after it. (A mail held back by its
// game is held by the same failed mail as every later mail of that game:
// no chain of holds is needed. One recipient's mails about two games need
// no order between them.)
const inOrder = `NOT EXISTS (SELECT 1 FROM outbox e WHERE ` + sameLine + ` AND e.id < outbox.id
			AND e.sent IS NULL AND e.next_attempt > ? AND e.next_attempt < ?)`

// sameLine is when a mail e must go before the newer mail outbox.
const sameLine = `(e.game_id = outbox.game_id OR e.recipient = outbox.recipient
			AND (e.game_id IS NULL OR outbox.game_id IS NULL))`

// queuedInOrder is inOrder for the mails a batch hands the outbox, which
// sends them at once: none goes while an older one of the same line
// failed and is not given up, due or not (a Claim takes them in order).
const queuedInOrder = `NOT EXISTS (SELECT 1 FROM outbox e WHERE ` + sameLine + ` AND e.id < outbox.id
			AND e.sent IS NULL AND e.attempts > 0 AND e.next_attempt < ?)`

// givenUp is how far off a mail's next attempt must be for it to count as
// given up (the outbox puts them a century off).
const givenUp = 50 * 365 * 24 * time.Hour

// claimChunk is how many ids ClaimQueued names in one statement: each
// count is a statement of its own, prepared once.
const claimChunk = 16

// rollbackMail undoes the current mail's writes. If SQLite cannot roll back
// to the savepoint (an error that aborted the whole transaction), the batch
// can no longer commit.
func (b *Batch) rollbackMail(ctx context.Context) {
	if _, err := b.stmts.ExecContext(ctx, `ROLLBACK TO SAVEPOINT mail`); err != nil {
		b.err = fmt.Errorf("store: rollback to savepoint: %w", err)
		return
	}
	if _, err := b.stmts.ExecContext(ctx, `RELEASE SAVEPOINT mail`); err != nil {
		b.err = fmt.Errorf("store: release savepoint: %w", err)
	}
}

// Commit commits the batch and syncs it to disk. On an error that is not
// host.ErrNotSynced, nothing of the batch is written.
func (b *Batch) Commit(ctx context.Context) error {
	if err := b.CommitUnsynced(ctx); err != nil {
		return err
	}
	if err := b.s.Sync(); err != nil {
		return fmt.Errorf("%w: %w", host.ErrNotSynced, err)
	}
	return nil
}

// CommitUnsynced commits the batch without waiting for the disk: the
// batch is visible at once, survives a crash of the process, and survives
// a power loss once Sync (or a later Commit) has returned. Whatever
// depends on it outside the database, such as moving its mail out of the
// inbox or sending its replies, must wait for that Sync.
func (b *Batch) CommitUnsynced(ctx context.Context) error {
	if b.done {
		return errBatchDone
	}
	if b.err != nil {
		b.Rollback()
		return b.err
	}
	if err := b.flush(ctx); err != nil {
		b.Rollback()
		return err
	}
	if err := b.record(ctx); err != nil {
		b.Rollback()
		return err
	}
	if _, err := b.stmts.ExecContext(ctx, `COMMIT`); err != nil {
		b.Rollback()
		return fmt.Errorf("store: commit: %w", err)
	}
	b.done = true
	b.s.writes.Add(1)
	// Signal the checkpointer while the writing token is held: Close takes
	// the token before it closes the channel.
	select {
	case b.s.wrote <- struct{}{}:
	default: // a checkpoint is due already
	}
	b.s.release(false)
	return nil
}

// Sync makes every batch committed so far durable: it syncs the WAL file
// to disk. (A checkpoint syncs the WAL before it copies from it, and the
// database file after, so a commit already copied is durable too.) When a
// sync that began after the last write has succeeded, there is nothing to
// do; callers at once share one sync to disk.
func (s *Store) Sync() error {
	if err := s.checkpointFailure(); err != nil {
		return err
	}
	n := s.writes.Load() // the sync below, if any, begins after these writes
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if s.synced >= n {
		return nil
	}
	if err := s.syncWAL(); err != nil {
		return err
	}
	s.synced = n
	return nil
}

// checkpointFailure returns the first checkpoint error that may have lost
// a write, or nil.
func (s *Store) checkpointFailure() error {
	s.failMu.Lock()
	defer s.failMu.Unlock()
	return s.failed
}

// syncWAL syncs the WAL file to disk.
func (s *Store) syncWAL() error {
	// Read-write: Windows flushes only a handle open for writing.
	f, err := os.OpenFile(s.wal, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no WAL: everything is in the database file, synced
	}
	if err != nil {
		return fmt.Errorf("store: sync: %w", err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("store: sync: %w", err)
	}
	return nil
}

// Rollback abandons the batch; after Commit it does nothing.
func (b *Batch) Rollback() error {
	if b.done {
		return nil
	}
	b.done = true
	b.s.headers.clear() // what the batch read or wrote is undone
	_, err := b.stmts.ExecContext(context.Background(), `ROLLBACK`)
	// Without a transaction to roll back (SQLite ends it by itself on some
	// errors) the connection is fine; otherwise its state is unknown.
	b.s.release(err != nil && !strings.Contains(err.Error(), "no transaction is active"))
	return err
}

// prepared runs statements on a connection, each prepared once, without
// cancellation (see Begin).
type prepared struct {
	conn  *sql.Conn
	cache map[string]*sql.Stmt
	count *atomic.Int64 // every statement run
}

// close closes the statements and gives the connection back to the pool,
// or drops it when bad.
func (p *prepared) close(bad bool) {
	for _, st := range p.cache {
		st.Close()
	}
	clear(p.cache)
	if bad {
		p.conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	p.conn.Close()
}

func (p *prepared) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if p.count != nil {
		p.count.Add(1)
	}
	if st, ok := p.cache[query]; ok {
		return st, nil
	}
	st, err := p.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	p.cache[query] = st
	return st, nil
}

func (p *prepared) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = context.WithoutCancel(ctx)
	st, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

func (p *prepared) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = context.WithoutCancel(ctx)
	st, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (p *prepared) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = context.WithoutCancel(ctx)
	st, err := p.stmt(ctx, query)
	if err != nil {
		return p.conn.QueryRowContext(ctx, query, args...) // fails the same way, as a *sql.Row
	}
	return st.QueryRowContext(ctx, args...)
}

// SetOutcome records what became of the mail (applied, rejected, ...) and
// the game it concerned.
func (t *Tx) SetOutcome(outcome string, gameID int64) {
	t.outcome, t.gameID = outcome, gameID
}

// CreateGame stores a new game and returns its id. The record's header
// (everything but the moves) is written once, here: Save only adds moves.
func (t *Tx) CreateGame(ctx context.Context, hostAddr, hostKey string, rec *adjudicator.Record, players []host.Player) (int64, error) {
	data, err := marshalHeader(rec)
	if err != nil {
		return 0, err
	}
	res, err := t.b.stmts.ExecContext(ctx, `INSERT INTO games (game, host, host_key, record, status, created, updated, rev, moves) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rec.Game, strings.ToLower(hostAddr), host.HashKey(hostKey), data, host.Playing, stamp(t.now), stamp(t.now), newRev(), len(rec.Moves))
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	t.changed(id)
	if err := t.insertMoves(ctx, id, rec.Moves, 0); err != nil {
		return 0, err
	}
	for i, p := range players {
		if _, err := t.b.stmts.ExecContext(ctx, `INSERT INTO players (game_id, seat, name, address, secret, token) VALUES (?, ?, ?, ?, ?, ?)`,
			id, i, p.Name, strings.ToLower(p.Address), host.HashKey(p.Secret), p.Token); err != nil {
			return 0, fmt.Errorf("store: %w", err)
		}
	}
	return id, nil
}

// Game reads a game inside the transaction, with its record.
func (t *Tx) Game(ctx context.Context, id int64) (*host.Game, error) {
	g, flags, err := readGame(ctx, t.b.stmts, id, true)
	if err != nil {
		return nil, err
	}
	t.learn(g, flags)
	t.cache(g, flags)
	return g, nil
}

// GameInfo reads a game inside the transaction without its record: Record
// is nil. It returns nil and no error when there is no game id.
func (t *Tx) GameInfo(ctx context.Context, id int64) (*host.Game, error) {
	if g, flags, ok := t.b.s.headers.get(id); ok {
		t.learn(g, flags)
		return g, nil
	}
	g, flags, err := readGame(ctx, t.b.stmts, id, false)
	if errors.Is(err, host.ErrNoGame) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t.learn(g, flags)
	t.cache(g, flags)
	return g, nil
}

// Record reads the record of game id inside the transaction.
func (t *Tx) Record(ctx context.Context, id int64) (*adjudicator.Record, error) {
	var data []byte
	err := t.b.stmts.QueryRowContext(ctx, `SELECT record FROM games WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, host.NoGame(id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return readRecord(ctx, t.b.stmts, id, data)
}

// readRecord decodes the header data of game id's record and appends its
// moves.
func readRecord(ctx context.Context, q querier, id int64, data []byte) (*adjudicator.Record, error) {
	rec, err := adjudicator.ParseRecord(fmt.Sprintf("game %d", id), data)
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	rows, err := q.QueryContext(ctx, `SELECT `+sqlform.MoveColumns+` FROM moves WHERE game_id = ? ORDER BY n`, id)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	if err := sqlform.AppendMoves(rec, rows); err != nil {
		return nil, err
	}
	return rec, nil
}

// GamesOf returns the ids of the games, playing or not, that address plays
// in or hosts, newest first.
func (t *Tx) GamesOf(ctx context.Context, address string) ([]int64, error) {
	return t.ids(ctx, `SELECT DISTINCT g.id FROM games g LEFT JOIN players p ON p.game_id = g.id
		WHERE p.address = ? OR g.host = ? ORDER BY g.id DESC`, strings.ToLower(address), strings.ToLower(address))
}

// PlayingGamesOf returns the ids of the games still playing that address
// plays in or hosts, newest first.
func (t *Tx) PlayingGamesOf(ctx context.Context, address string) ([]int64, error) {
	return t.ids(ctx, `SELECT DISTINCT g.id FROM games g LEFT JOIN players p ON p.game_id = g.id
		WHERE (p.address = ? OR g.host = ?) AND g.status = ? ORDER BY g.id DESC`, strings.ToLower(address), strings.ToLower(address), host.Playing)
}

// GamesStartedSince counts the games host (anyone's when "") started
// since a time.
func (t *Tx) GamesStartedSince(ctx context.Context, hostAddr string, since time.Time) (int, error) {
	var n int
	err := t.b.stmts.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE created >= ? AND (? = '' OR host = ?)`,
		stamp(since), strings.ToLower(hostAddr), strings.ToLower(hostAddr)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// GamesNamingSince counts the games started since a time by a host
// other than address that give address a seat.
func (t *Tx) GamesNamingSince(ctx context.Context, address string, since time.Time) (int, error) {
	var n int
	a := strings.ToLower(address)
	err := t.b.stmts.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE created >= ? AND host <> ? AND id IN (SELECT game_id FROM players WHERE address = ?)`,
		stamp(since), a, a).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

func (t *Tx) ids(ctx context.Context, query string, args ...any) ([]int64, error) {
	rows, err := t.b.stmts.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	ids, err := scanIDs(rows)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return ids, nil
}

// SaveGame writes a game's record and status.
func (t *Tx) SaveGame(ctx context.Context, id int64, rec *adjudicator.Record, status string) error {
	_, err := t.Save(ctx, id, rec, status)
	return err
}

// Save is SaveGame returning the game's new revision. It writes the
// status and the moves of rec beyond those stored: a record only ever grows
// (its header never changes after CreateGame), so a record with fewer moves
// than stored is refused.
func (t *Tx) Save(ctx context.Context, id int64, rec *adjudicator.Record, status string) (int64, error) {
	if k, ok := t.known[id]; ok && k.moves >= 0 && k.moves <= len(rec.Moves) {
		rev, done, err := t.saveKnown(ctx, id, rec, status, k.moves)
		if done || err != nil {
			return rev, err
		}
	}
	// The stored number of moves, and the last stored move: the record
	// must go on from it (a cheap check that catches a record of another
	// game, or one that changed its history).
	var stored int
	var last struct{ player, text, time, source sql.NullString }
	err := t.b.stmts.QueryRowContext(ctx, `SELECT g.moves, m.player, m.text, m.time, m.source
		FROM games g LEFT JOIN moves m ON m.game_id = g.id AND m.n = g.moves WHERE g.id = ?`, id).
		Scan(&stored, &last.player, &last.text, &last.time, &last.source)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, host.NoGame(id)
	}
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	if len(rec.Moves) < stored {
		return 0, fmt.Errorf("store: game %d: the record has %d moves, fewer than the %d stored; moves are never taken back", id, len(rec.Moves), stored)
	}
	if stored > 0 {
		mv := rec.Moves[stored-1]
		if !last.player.Valid || (adjudicator.RecordMove{Player: last.player.String, Text: last.text.String, Time: last.time.String, Source: last.source.String}) != mv {
			return 0, fmt.Errorf("store: game %d: move %d of the record is not the stored one; moves are never changed", id, stored)
		}
	}
	rev := newRev()
	if _, err := t.b.stmts.ExecContext(ctx, `UPDATE games SET status = ?, updated = ?, rev = ?, moves = ? WHERE id = ?`,
		status, stamp(t.now), rev, len(rec.Moves), id); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	t.unknown(id, func(k *known) { k.moves = -1 })
	t.saved(id, rev, len(rec.Moves), status)
	if err := t.saveRest(ctx, id, rec, stored); err != nil {
		return 0, err
	}
	return rev, nil
}

// saveKnown is Save when the transaction read game id and learnt it had
// stored moves: one statement checks that the game still has them, the
// last the same as rec's, and updates the game; done is false, and
// nothing written, when it does not (Save then reads what is stored, and
// says what is wrong).
func (t *Tx) saveKnown(ctx context.Context, id int64, rec *adjudicator.Record, status string, stored int) (rev int64, done bool, err error) {
	var last adjudicator.RecordMove
	if stored > 0 {
		last = rec.Moves[stored-1]
	}
	rev = newRev()
	res, err := t.b.stmts.ExecContext(ctx, `UPDATE games SET status = ?, updated = ?, rev = ?, moves = ? WHERE id = ? AND moves = ?
		AND (moves = 0 OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = games.id AND m.n = games.moves
			AND m.player = ? AND m.text = ? AND m.time = ? AND m.source = ?))`,
		status, stamp(t.now), rev, len(rec.Moves), id, stored, last.Player, last.Text, last.Time, last.Source)
	if err != nil {
		return 0, false, fmt.Errorf("store: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return 0, false, err
	}
	t.unknown(id, func(k *known) { k.moves = -1 })
	t.saved(id, rev, len(rec.Moves), status)
	if err := t.saveRest(ctx, id, rec, stored); err != nil {
		return 0, true, err
	}
	return rev, true, nil
}

// saved updates the store's cache of game id's header with what Save
// wrote to the game's row.
func (t *Tx) saved(id, rev int64, moves int, status string) {
	updated := stored(t.now)
	t.changedTo(id, func(g *host.Game) {
		g.Status, g.Updated, g.Rev, g.Moves = status, updated, rev, moves
	})
}

// saveRest writes what Save writes once the game's row is updated: the
// header when the game ended early, and the moves beyond stored; then
// the transaction knows the game has rec's moves.
func (t *Tx) saveRest(ctx context.Context, id int64, rec *adjudicator.Record, stored int) error {
	if rec.Ended != nil {
		// The ending (a resignation, an abandon) is part of the header:
		// written once, when the game ends early.
		header, err := marshalHeader(rec)
		if err != nil {
			return fmt.Errorf("store: game %d: %w", id, err)
		}
		if _, err := t.b.stmts.ExecContext(ctx, `UPDATE games SET record = ? WHERE id = ?`, header, id); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if err := t.insertMoves(ctx, id, rec.Moves[stored:], stored); err != nil {
		return err
	}
	t.unknown(id, func(k *known) { k.moves = len(rec.Moves) })
	return nil
}

// insertMoves stores moves as game id's moves after the first `after`.
func (t *Tx) insertMoves(ctx context.Context, id int64, moves []adjudicator.RecordMove, after int) error {
	for i, mv := range moves {
		if _, err := t.b.stmts.ExecContext(ctx, insertMove, id, after+i+1, mv.Player, mv.Text, mv.Time, mv.Source); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	return nil
}

// Queue adds a mail to the outbox, due at once. The mails a request
// queues are inserted together when it ends (flush), in an unguarded
// batch when the batch commits, or before the outbox is read inside it.
func (t *Tx) Queue(ctx context.Context, m host.Mail) error {
	if err := sqlform.CheckMail(m); err != nil {
		return err
	}
	t.b.queue = append(t.b.queue, queuedMail{m, t.now})
	return nil
}

// queuedMail is a mail queued by a request at now, not yet inserted.
type queuedMail struct {
	host.Mail
	now time.Time
}

// flush is Batch.flush, before the outbox is read inside the request.
func (t *Tx) flush(ctx context.Context) error { return t.b.flush(ctx) }

// flush inserts the mails queued so far into the outbox, up to
// queueChunk in one statement, and notes their ids for ClaimQueued. It
// waits for the drafts written apart (host.Mail.Pending) in turn.
func (b *Batch) flush(ctx context.Context) error {
	for ms := range slices.Chunk(b.queue, queueChunk) {
		args := make([]any, 0, 8*len(ms))
		for i := range ms {
			if ms[i].Pending != nil { // a draft written apart
				if err := ms[i].Written(); err != nil {
					return err
				}
				if err := sqlform.CheckMail(ms[i].Mail); err != nil {
					return err
				}
			}
		}
		for _, m := range ms {
			var gid, draft, shared any
			if m.GameID != 0 {
				gid = m.GameID
			}
			q := sqlform.QueuedMail(m.Mail)
			if q.Draft != nil {
				draft = q.Draft
			}
			if m.Shared != nil {
				id, err := b.shared(ctx, m.Shared)
				if err != nil {
					return err
				}
				shared = id
			}
			args = append(args, gid, q.Recipient, q.Raw, draft, q.Reply, stamp(m.now), stamp(m.now), shared)
		}
		rows, err := b.stmts.QueryContext(ctx, `INSERT INTO outbox (game_id, recipient, raw, draft, reply, created, next_attempt, shared_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`+strings.Repeat(", (?, ?, ?, ?, ?, ?, ?, ?)", len(ms)-1)+` RETURNING id`, args...)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		ids, err := scanIDs(rows)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		if len(ids) != len(ms) {
			return fmt.Errorf("store: %d mails queued, %d inserted", len(ms), len(ids))
		}
		// Inserted in order, so in the order of their ids (RETURNING
		// gives them in no promised order).
		slices.Sort(ids)
		b.queued = append(b.queued, ids...)
	}
	b.queue = b.queue[:0]
	return nil
}

// shared returns the id of the outbox_shared row holding data: one the
// batch inserted last when it holds the same bytes (sqlform.RecentShared),
// else a new one.
func (b *Batch) shared(ctx context.Context, data []byte) (int64, error) {
	if id, ok := b.recent.Find(data); ok {
		return id, nil
	}
	res, err := b.stmts.ExecContext(ctx, `INSERT INTO outbox_shared (data) VALUES (?)`, data)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	b.recent.Add(id, data)
	return id, nil
}

// queueChunk is how many mails flush inserts in one statement: each count
// is a statement of its own, prepared once.
const queueChunk = 16

// scanIDs reads the one integer column of rows and closes them.
func scanIDs(rows *sql.Rows) ([]int64, error) {
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// ReplacePlayer gives seat of game id to address, with secret as its key
// and token as its reply token.
func (t *Tx) ReplacePlayer(ctx context.Context, id int64, seat int, address, secret, token string) error {
	t.changed(id)
	res, err := t.b.stmts.ExecContext(ctx, `UPDATE players SET address = ?, secret = ?, token = ? WHERE game_id = ? AND seat = ?`,
		strings.ToLower(address), host.HashKey(secret), token, id, seat)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("store: game %d has no seat %d", id, seat)
	}
	return nil
}

// Observers returns the addresses that observe game id, in order.
func (t *Tx) Observers(ctx context.Context, id int64) ([]string, error) {
	if k, ok := t.known[id]; ok && !k.observers {
		return nil, nil
	}
	rows, err := t.b.stmts.QueryContext(ctx, `SELECT address FROM observers WHERE game_id = ? ORDER BY address`, id)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// ObserverLangs returns the language of each observer of game id who has
// one ("fr"), by address.
func (t *Tx) ObserverLangs(ctx context.Context, id int64) (map[string]string, error) {
	if k, ok := t.known[id]; ok && !k.observers {
		return nil, nil
	}
	rows, err := t.b.stmts.QueryContext(ctx, `SELECT address, lang FROM observers WHERE game_id = ? AND lang <> ''`, id)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var a, l string
		if err := rows.Scan(&a, &l); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out[a] = l
	}
	return out, rows.Err()
}

// SetObserverLang records the language of address, an observer of game
// id: "fr", or "" for English.
func (t *Tx) SetObserverLang(ctx context.Context, id int64, address, lang string) error {
	t.changed(id)
	if _, err := t.b.stmts.ExecContext(ctx, `UPDATE observers SET lang = ? WHERE game_id = ? AND address = ?`, lang, id, strings.ToLower(address)); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// Observe adds address to the observers of game id, or takes it away;
// it reports whether that changed anything.
func (t *Tx) Observe(ctx context.Context, id int64, address string, on bool) (bool, error) {
	t.changed(id)
	q := `INSERT INTO observers (game_id, address) VALUES (?, ?) ON CONFLICT DO NOTHING`
	if !on {
		q = `DELETE FROM observers WHERE game_id = ? AND address = ?`
	}
	t.unknown(id, func(k *known) { k.observers = true })
	res, err := t.b.stmts.ExecContext(ctx, q, id, strings.ToLower(address))
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// ObserveRequest returns the hash of the token of address's request to
// observe game id, and when its confirmation mail went; "" when there is
// none.
func (t *Tx) ObserveRequest(ctx context.Context, id int64, address string) (string, time.Time, error) {
	var token, asked string
	err := t.b.stmts.QueryRowContext(ctx, `SELECT token, asked FROM observe_requests WHERE game_id = ? AND address = ?`, id, strings.ToLower(address)).Scan(&token, &asked)
	if errors.Is(err, sql.ErrNoRows) {
		return "", time.Time{}, nil
	}
	if err != nil {
		return "", time.Time{}, fmt.Errorf("store: %w", err)
	}
	at, _ := time.Parse(time.RFC3339Nano, asked)
	return token, at, nil
}

// ObserveRequestsSince counts the requests to observe game id waiting
// for their confirmation whose mail went at since or after.
func (t *Tx) ObserveRequestsSince(ctx context.Context, id int64, since time.Time) (int, error) {
	var n int
	err := t.b.stmts.QueryRowContext(ctx, `SELECT COUNT(*) FROM observe_requests WHERE game_id = ? AND asked >= ?`, id, stamp(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// SetObserveRequest records address's request to observe game id, with
// the hash of its confirmation token and when the mail went; an empty
// tokenHash removes it.
func (t *Tx) SetObserveRequest(ctx context.Context, id int64, address, tokenHash string, asked time.Time) error {
	t.changed(id)
	var err error
	if tokenHash == "" {
		_, err = t.b.stmts.ExecContext(ctx, `DELETE FROM observe_requests WHERE game_id = ? AND address = ?`, id, strings.ToLower(address))
	} else {
		_, err = t.b.stmts.ExecContext(ctx, `INSERT INTO observe_requests (game_id, address, token, asked) VALUES (?, ?, ?, ?)
			ON CONFLICT (game_id, address) DO UPDATE SET token = excluded.token, asked = excluded.asked`, id, strings.ToLower(address), tokenHash, stamp(asked))
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetObserversOff records whether the host of game id forbids observers;
// forbidding them also ends every observation.
func (t *Tx) SetObserversOff(ctx context.Context, id int64, off bool) error {
	t.changed(id)
	v := 0
	if off {
		v = 1
		if _, err := t.b.stmts.ExecContext(ctx, `DELETE FROM observers WHERE game_id = ?`, id); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if _, err := t.b.stmts.ExecContext(ctx, `UPDATE games SET observers_off = ? WHERE id = ?`, v, id); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetNotify records how much mail the player of seat in game id wants,
// how many moves they have been told of, and when their next digest is
// due (zero: none).
func (t *Tx) SetNotify(ctx context.Context, id int64, seat int, mode string, told int, digestNext time.Time) error {
	t.changed(id)
	var next any
	if !digestNext.IsZero() {
		next = stamp(digestNext)
	}
	_, err := t.b.stmts.ExecContext(ctx, `UPDATE players SET notify = ?, told = ?, digest_next = ? WHERE game_id = ? AND seat = ?`,
		mode, told, next, id, seat)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetLang records the language the player of seat in game id chose for
// herald's mails: "fr", or "" for English.
func (t *Tx) SetLang(ctx context.Context, id int64, seat int, lang string) error {
	t.changed(id)
	if _, err := t.b.stmts.ExecContext(ctx, `UPDATE players SET lang = ? WHERE game_id = ? AND seat = ?`, lang, id, seat); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetMailLang records the language of the last mail of the player of
// seat in game id that said which: "fr", or "" for English.
func (t *Tx) SetMailLang(ctx context.Context, id int64, seat int, lang string) error {
	t.changed(id)
	if _, err := t.b.stmts.ExecContext(ctx, `UPDATE players SET mail_lang = ? WHERE game_id = ? AND seat = ?`, lang, id, seat); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetHostLang records the language of game id's host: "fr", or "" for
// English.
func (t *Tx) SetHostLang(ctx context.Context, id int64, lang string) error {
	t.changed(id)
	if _, err := t.b.stmts.ExecContext(ctx, `UPDATE games SET host_lang = ? WHERE id = ?`, lang, id); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetAway records that the player of seat in game id is away until a time
// (zero: not away), having used so much of the game's vacation allowance.
func (t *Tx) SetAway(ctx context.Context, id int64, seat int, until time.Time, used time.Duration) error {
	t.changed(id)
	var u any
	if !until.IsZero() {
		u = stamp(until)
	}
	_, err := t.b.stmts.ExecContext(ctx, `UPDATE players SET away_until = ?, away_used = ? WHERE game_id = ? AND seat = ?`,
		u, int64(used/time.Second), id, seat)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetUndeliverable records why mail to the player of seat in game id
// bounces ("" when it reaches them again).
func (t *Tx) SetUndeliverable(ctx context.Context, id int64, seat int, reason string) error {
	t.changed(id)
	_, err := t.b.stmts.ExecContext(ctx, `UPDATE players SET undeliverable = ? WHERE game_id = ? AND seat = ?`, reason, id, seat)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetPage sets the token of game id's web page and whether it is served.
func (t *Tx) SetPage(ctx context.Context, id int64, mode, token string) error {
	t.changed(id)
	if _, err := t.b.stmts.ExecContext(ctx, `UPDATE games SET page = ?, page_token = ? WHERE id = ?`, mode, token, id); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// TakeBack stores rec, game id's record with moves taken back: its header
// (with the undone entry) and its moves, fewer than stored. It returns the
// game's new revision.
func (t *Tx) TakeBack(ctx context.Context, id int64, rec *adjudicator.Record) (int64, error) {
	t.changed(id)
	if len(rec.Undone) == 0 {
		return 0, fmt.Errorf("store: game %d: a take-back without an undone entry", id)
	}
	header, err := marshalHeader(rec)
	if err != nil {
		return 0, fmt.Errorf("store: game %d: %w", id, err)
	}
	rev := newRev()
	t.unknown(id, func(k *known) { k.moves = -1 })
	res, err := t.b.stmts.ExecContext(ctx, `UPDATE games SET record = ?, moves = ?, rev = ?, updated = ? WHERE id = ?`,
		header, len(rec.Moves), rev, stamp(t.now), id)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return 0, host.NoGame(id)
	}
	if _, err := t.b.stmts.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ? AND n > ?`, id, len(rec.Moves)); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return rev, nil
}

// UndoRequest returns the request to take moves back of game id, or nil.
func (t *Tx) UndoRequest(ctx context.Context, id int64) (*host.UndoRequest, error) {
	if k, ok := t.known[id]; ok && !k.undo {
		return nil, nil
	}
	u := &host.UndoRequest{}
	var accepted, until string
	err := t.b.stmts.QueryRowContext(ctx, `SELECT asked_by, keep, moves, accepted, until, source FROM undo_requests WHERE game_id = ?`, id).
		Scan(&u.AskedBy, &u.Keep, &u.Moves, &accepted, &until, &u.Source)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if accepted != "" {
		u.Accepted = strings.Split(accepted, ",")
	}
	u.Until, _ = time.Parse(time.RFC3339Nano, until)
	return u, nil
}

// SetUndoRequest writes the request to take moves back of game id, or
// removes it (nil).
func (t *Tx) SetUndoRequest(ctx context.Context, id int64, u *host.UndoRequest) error {
	t.changed(id)
	t.unknown(id, func(k *known) { k.undo = true })
	var err error
	if u == nil {
		_, err = t.b.stmts.ExecContext(ctx, `DELETE FROM undo_requests WHERE game_id = ?`, id)
	} else {
		_, err = t.b.stmts.ExecContext(ctx, `INSERT INTO undo_requests (game_id, asked_by, keep, moves, accepted, until, source) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET asked_by = excluded.asked_by, keep = excluded.keep, moves = excluded.moves,
				accepted = excluded.accepted, until = excluded.until, source = excluded.source`,
			id, u.AskedBy, u.Keep, u.Moves, strings.Join(u.Accepted, ","), stamp(u.Until), u.Source)
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// SetClock writes the clock of game id, replacing the one it had.
func (t *Tx) SetClock(ctx context.Context, id int64, c host.Clock) error {
	var next any
	if !c.Next.IsZero() {
		next = stamp(c.Next)
	}
	_, err := t.b.stmts.ExecContext(ctx, `INSERT INTO clocks (game_id, deadline, grace, remind, policy, since, to_move, stage, next, vacation)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id) DO UPDATE SET deadline = excluded.deadline, grace = excluded.grace, remind = excluded.remind,
			policy = excluded.policy, since = excluded.since, to_move = excluded.to_move, stage = excluded.stage, next = excluded.next,
			vacation = excluded.vacation`,
		id, int64(c.Deadline/time.Second), int64(c.Grace/time.Second), c.Remind, c.Policy, stamp(c.Since), c.ToMove, c.Stage, next,
		int64(c.Vacation/time.Second))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	// The clock as readGame reads back the row just written.
	row := clockScan{
		deadline: sql.NullInt64{Int64: int64(c.Deadline / time.Second), Valid: true}, grace: sql.NullInt64{Int64: int64(c.Grace / time.Second), Valid: true},
		remind: sql.NullInt64{Int64: int64(c.Remind), Valid: true}, stage: sql.NullInt64{Int64: int64(c.Stage), Valid: true},
		vacation: sql.NullInt64{Int64: int64(c.Vacation / time.Second), Valid: true},
		policy:   sql.NullString{String: c.Policy, Valid: true}, since: sql.NullString{String: stamp(c.Since), Valid: true},
		toMove: sql.NullString{String: c.ToMove, Valid: true}, next: sql.NullString{String: stamp(c.Next), Valid: !c.Next.IsZero()},
	}
	t.changedTo(id, func(g *host.Game) { g.Clock = row.clock() })
	return nil
}

// RepliesSince counts the replies (Mail.Reply) queued to recipient since
// t, for the rate limit that keeps two robots from looping. Other mail to
// them, such as the news of a move, does not count.
func (t *Tx) RepliesSince(ctx context.Context, recipient string, since time.Time) (int, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	var n int
	err := t.b.stmts.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE recipient = ? AND reply = 1 AND created >= ?`,
		strings.ToLower(recipient), stamp(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// AuthNoticesSince counts the answers to mails that failed
// authentication (Mail.AuthNotice) queued to recipient since t.
func (t *Tx) AuthNoticesSince(ctx context.Context, recipient string, since time.Time) (int, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	var n int
	err := t.b.stmts.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE recipient = ? AND reply = 2 AND created >= ?`,
		strings.ToLower(recipient), stamp(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// StrangerAnswersSince counts the answers of kinds host.AuthAnswer and
// host.UnkeyedAnswer queued to anyone since a time. The kinds are written
// in the statement, so that SQLite reads the partial index
// outbox_strangers.
func (t *Tx) StrangerAnswersSince(ctx context.Context, since time.Time) (int, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	var n int
	if err := t.b.stmts.QueryRowContext(ctx, countStrangers, stamp(since)).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: %w", err)
	}
	return n, nil
}

// countStrangers counts the outbox's answers to mails that do not prove
// their sender since a time, the kinds written as the outbox stores them
// (outbox.reply) and as the partial index outbox_strangers names them
// (TestStrangerCountPlan).
var countStrangers = `SELECT count(*) FROM outbox WHERE reply IN (` + sqlform.StrangerKinds + `) AND created >= ?`

// AnswersSince returns when the answers of kind were queued to recipient
// since t, oldest first.
func (t *Tx) AnswersSince(ctx context.Context, recipient string, kind host.AnswerKind, since time.Time) ([]time.Time, error) {
	if err := t.flush(ctx); err != nil {
		return nil, err
	}
	rows, err := t.b.stmts.QueryContext(ctx, `SELECT created FROM outbox WHERE recipient = ? AND reply = ? AND created >= ? ORDER BY created, id`,
		strings.ToLower(recipient), int(kind), stamp(since))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []time.Time
	for rows.Next() {
		var created string
		if err := rows.Scan(&created); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		at, err := time.Parse(time.RFC3339Nano, created)
		if err != nil {
			return nil, fmt.Errorf("store: outbox time %q: %w", created, err)
		}
		out = append(out, at)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// readGame reads game id, with its record decoded when withRecord, in one
// query: the game's row, its clock, its players and whether it has
// observers and a request to take moves back (gameFlags, which a Tx keeps
// so as not to ask again).
func readGame(ctx context.Context, q querier, id int64, withRecord bool) (*host.Game, gameFlags, error) {
	g := &host.Game{ID: id}
	var flags gameFlags
	var data []byte
	var updated string
	var c clockScan
	var p host.Player
	var next, away sql.NullString
	var used int64
	dest := []any{&g.Host, &g.HostKey, &g.Status, &updated, &g.Rev, &g.Moves, &g.ObserversOff, &g.PageToken, &g.Page, &g.HostLang,
		&c.deadline, &c.grace, &c.remind, &c.policy, &c.since, &c.toMove, &c.stage, &c.next, &c.vacation,
		&flags.observers, &flags.undo, &p.Name, &p.Address, &p.Secret, &p.Token, &p.Notify, &p.Told, &next, &away, &used, &p.Undeliverable, &p.Lang, &p.MailLang}
	query := readGameQuery
	if withRecord {
		query = readGameRecordQuery
		dest = append(dest, &data)
	}
	rows, err := q.QueryContext(ctx, query, id)
	if err != nil {
		return nil, flags, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	first := true
	for rows.Next() {
		if !first && withRecord {
			dest[len(dest)-1] = new(sql.RawBytes) // the record once
		}
		p = host.Player{}
		if err := rows.Scan(dest...); err != nil {
			return nil, flags, fmt.Errorf("store: %w", err)
		}
		p.AwayUsed = time.Duration(used) * time.Second
		if away.Valid {
			p.AwayUntil, _ = time.Parse(time.RFC3339Nano, away.String)
		}
		if next.Valid {
			p.DigestNext, _ = time.Parse(time.RFC3339Nano, next.String)
		}
		g.Players = append(g.Players, p)
		first = false
	}
	if err := rows.Err(); err != nil {
		return nil, flags, fmt.Errorf("store: %w", err)
	}
	if first {
		// No game, or a game without players, which the query above
		// (a join) does not return.
		return readGameAlone(ctx, q, id, withRecord)
	}
	return finishGame(ctx, q, g, flags, &c, updated, withRecord, data)
}

// finishGame completes g, read by readGame or readGameAlone: its clock,
// when it was updated (updated, as stored) and, withRecord, its record
// from data, the header stored in its row.
func finishGame(ctx context.Context, q querier, g *host.Game, flags gameFlags, c *clockScan, updated string, withRecord bool, data []byte) (*host.Game, gameFlags, error) {
	g.Clock = c.clock()
	g.Updated, _ = time.Parse(time.RFC3339Nano, updated)
	if withRecord {
		var err error
		if g.Record, err = readRecord(ctx, q, g.ID, data); err != nil {
			return nil, flags, err
		}
	}
	return g, flags, nil
}

// clockScan is a game's clock as readGame scans it (clockColumns): NULL
// without a clock.
type clockScan struct {
	deadline, grace, remind, stage, vacation sql.NullInt64
	policy, since, toMove, next              sql.NullString
}

// clock returns the game's clock, or nil when it has none.
func (c *clockScan) clock() *host.Clock {
	if !c.deadline.Valid || c.deadline.Int64 <= 0 {
		return nil
	}
	k := &host.Clock{
		Deadline: time.Duration(c.deadline.Int64) * time.Second, Grace: time.Duration(c.grace.Int64) * time.Second,
		Remind: int(c.remind.Int64), Policy: c.policy.String, ToMove: c.toMove.String, Stage: int(c.stage.Int64),
		Vacation: time.Duration(c.vacation.Int64) * time.Second,
	}
	k.Since, _ = time.Parse(time.RFC3339Nano, c.since.String)
	if c.next.Valid {
		k.Next, _ = time.Parse(time.RFC3339Nano, c.next.String)
	}
	return k
}

// gameFlags are what readGame learns of a game beside its row: whether
// it has observers and a request to take moves back.
type gameFlags struct {
	observers, undo bool
}

// The columns of readGame's query, and of readGameAlone's.
const (
	gameColumns  = `g.host, g.host_key, g.status, g.updated, g.rev, g.moves, g.observers_off, g.page_token, g.page, g.host_lang`
	clockColumns = `c.deadline, c.grace, c.remind, c.policy, c.since, c.to_move, c.stage, c.next, c.vacation`
	flagColumns  = `EXISTS (SELECT 1 FROM observers o WHERE o.game_id = g.id), EXISTS (SELECT 1 FROM undo_requests u WHERE u.game_id = g.id)`
	playerCols   = `p.name, p.address, p.secret, p.token, p.notify, p.told, p.digest_next, p.away_until, p.away_used, p.undeliverable, p.lang, p.mail_lang`
	readGameFrom = ` FROM games g LEFT JOIN clocks c ON c.game_id = g.id JOIN players p ON p.game_id = g.id WHERE g.id = ? ORDER BY p.seat`

	readGameQuery       = `SELECT ` + gameColumns + `, ` + clockColumns + `, ` + flagColumns + `, ` + playerCols + readGameFrom
	readGameRecordQuery = `SELECT ` + gameColumns + `, ` + clockColumns + `, ` + flagColumns + `, ` + playerCols + `, g.record` + readGameFrom
)

// readGameAlone reads game id when it has no players: host.NoGame when
// there is no such game either.
func readGameAlone(ctx context.Context, q querier, id int64, withRecord bool) (*host.Game, gameFlags, error) {
	g := &host.Game{ID: id}
	var flags gameFlags
	var data []byte
	var updated string
	var c clockScan
	err := q.QueryRowContext(ctx, `SELECT `+gameColumns+`, `+clockColumns+`, `+flagColumns+`, g.record
		FROM games g LEFT JOIN clocks c ON c.game_id = g.id WHERE g.id = ?`, id).
		Scan(&g.Host, &g.HostKey, &g.Status, &updated, &g.Rev, &g.Moves, &g.ObserversOff, &g.PageToken, &g.Page, &g.HostLang,
			&c.deadline, &c.grace, &c.remind, &c.policy, &c.since, &c.toMove, &c.stage, &c.next, &c.vacation,
			&flags.observers, &flags.undo, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, flags, host.NoGame(id)
	}
	if err != nil {
		return nil, flags, fmt.Errorf("store: %w", err)
	}
	return finishGame(ctx, q, g, flags, &c, updated, withRecord, data)
}

// Game reads a game outside any transaction (for CLI reads).
func (s *Store) Game(ctx context.Context, id int64) (*host.Game, error) {
	g, _, err := readGame(ctx, s.db, id, true)
	return g, err
}

// Games lists every game, newest first.
func (s *Store) Games(ctx context.Context) ([]host.GameSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+sqlform.SummaryColumns+` FROM games g
		JOIN players p ON p.game_id = g.id ORDER BY g.id DESC, p.seat`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	return sqlform.Summaries(rows)
}

// stmt returns query prepared on the database (database/sql prepares it
// again on each connection that runs it), once.
func (s *Store) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	s.stmtsMu.Lock()
	defer s.stmtsMu.Unlock()
	if st, ok := s.stmts[query]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s.stmts[query] = st
	return st, nil
}

// Claim returns up to limit unsent mails due at now, oldest first, and
// claims them for worker until now+lease, in one write transaction: a
// second worker on the same database never gets a row claimed and not yet
// expired. A worker gets its own claimed rows back: after a crash, the
// worker that restarts under the same name sends at once what it had
// claimed. (On PostgreSQL the inner SELECT takes FOR UPDATE SKIP LOCKED.)
// A claim needs no Sync: one lost to a power loss died with the worker
// that held it.
func (s *Store) Claim(ctx context.Context, worker string, now time.Time, lease time.Duration, limit int) ([]host.Outgoing, error) {
	var out []host.Outgoing
	err := s.withWriter(ctx, func(p *prepared) error {
		rows, err := p.QueryContext(ctx, `UPDATE outbox SET claimed_by = ?, claimed_until = ?
		WHERE id IN (SELECT id FROM outbox WHERE sent IS NULL AND next_attempt <= ?
			AND (claimed_by IS NULL OR claimed_by = ? OR claimed_until <= ?) AND `+inOrder+` ORDER BY id LIMIT ?)
		RETURNING `+outgoingColumns, worker, stamp(now.Add(lease)), stamp(now), worker, stamp(now), stamp(now), stamp(now.Add(givenUp)), limit)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		out, err = scanOutgoing(rows)
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b host.Outgoing) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// outgoingColumns are the columns scanOutgoing reads.
const outgoingColumns = `id, COALESCE(game_id, 0), recipient, raw, draft, created, attempts,
	(SELECT s.data FROM outbox_shared s WHERE s.id = outbox.shared_id)`

// scanOutgoing reads the outbox rows of outgoingColumns, and closes rows.
func scanOutgoing(rows *sql.Rows) ([]host.Outgoing, error) {
	defer rows.Close()
	var out []host.Outgoing
	for rows.Next() {
		var o host.Outgoing
		var created string
		if err := rows.Scan(&o.ID, &o.GameID, &o.Recipient, &o.Raw, &o.Draft, &created, &o.Attempts, &o.Shared); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		o.Created, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// Due returns up to limit unsent mails due at now, oldest first, claimed
// or not, without claiming them: what a tool or a test may look at.
// Workers that send use Claim.
func (s *Store) Due(ctx context.Context, now time.Time, limit int) ([]host.Outgoing, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+outgoingColumns+` FROM outbox
		WHERE sent IS NULL AND next_attempt <= ? ORDER BY id LIMIT ?`, stamp(now), limit)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return scanOutgoing(rows)
}

// DueClocks returns up to limit playing games whose clock has work due at
// now, the earliest first, with the stage and start of the turn it is for.
func (s *Store) DueClocks(ctx context.Context, now time.Time, limit int) ([]host.DueClock, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.game_id, c.stage, c.since FROM clocks c JOIN games g ON g.id = c.game_id
		WHERE c.next IS NOT NULL AND c.next <= ? AND g.status = ? ORDER BY c.next LIMIT ?`, stamp(now), host.Playing, limit)
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
		d.Since, _ = time.Parse(time.RFC3339Nano, since)
		out = append(out, d)
	}
	return out, rows.Err()
}

// DueDigests returns up to limit seats of playing games whose digest is
// due at now, the earliest first.
func (s *Store) DueDigests(ctx context.Context, now time.Time, limit int) ([]host.DueDigest, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.game_id, p.seat, p.digest_next FROM players p JOIN games g ON g.id = p.game_id
		WHERE p.digest_next IS NOT NULL AND p.digest_next <= ? AND g.status = ? ORDER BY p.digest_next LIMIT ?`, stamp(now), host.Playing, limit)
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
		d.Next, _ = time.Parse(time.RFC3339Nano, next)
		out = append(out, d)
	}
	return out, rows.Err()
}

// GameByPage reads, outside any transaction, the game whose web page has
// token, with its record; ErrNoGame when there is none or its page is off.
func (s *Store) GameByPage(ctx context.Context, token string) (*host.Game, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `SELECT id FROM games WHERE page_token = ? AND page_token <> '' AND page <> 'off'`, token).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, host.ErrNoGame
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	g, _, err := readGame(ctx, s.db, id, true)
	return g, err
}

// PublicPages lists the games whose host made their page public, newest
// first.
func (s *Store) PublicPages(ctx context.Context) ([]host.PageSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, game, status, updated, page_token FROM games WHERE page = 'public' AND page_token <> '' ORDER BY id DESC`)
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
		p.Updated, _ = time.Parse(time.RFC3339Nano, updated)
		out = append(out, p)
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
// It is durable once a later Sync returns.
func (s *Store) MarkSent(ctx context.Context, id int64, now time.Time) error {
	err := s.withWriter(ctx, func(p *prepared) error {
		_, err := p.ExecContext(ctx, `UPDATE outbox SET sent = ?, attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL WHERE id = ?`, stamp(now), id)
		return err
	})
	s.writes.Add(1)
	return err
}

// MarkFailed records a failed attempt and when to try again. It is
// durable once a later Sync returns.
func (s *Store) MarkFailed(ctx context.Context, id int64, next time.Time, cause error) error {
	err := s.withWriter(ctx, func(p *prepared) error {
		_, err := p.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, next_attempt = ?, last_error = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ?`, stamp(next), cause.Error(), id)
		return err
	})
	s.writes.Add(1)
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

// Known reports whether address (lower case) plays in, hosts or observes
// a game, ended or not: the people herald may open a mailbox for.
func (s *Store) Known(ctx context.Context, address string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM players WHERE address = ?
		UNION ALL SELECT 1 FROM games WHERE host = ?
		UNION ALL SELECT 1 FROM observers WHERE address = ? LIMIT 1`, address, address, address).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	return true, nil
}
