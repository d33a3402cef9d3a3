package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, to read the SQLite store
)

// A copied table: its name and columns, each with the kind of value
// PostgreSQL takes: t text, i integer, b bytes, o a boolean SQLite keeps
// as 0 or 1.
type copyTable struct {
	name  string
	cols  []string
	kinds string
	order string
}

// copyTables are the SQLite store's tables at its schema version 18 (17
// added indexes only), in an order that respects their references. Every
// column is copied, ids included, so that game tags (G12), tokens and
// threads stay the same.
var copyTables = []copyTable{
	{"games", []string{"id", "game", "host", "host_key", "record", "status", "created", "updated", "rev", "moves", "observers_off", "page_token", "page", "host_lang"}, "itttbtttiiottt", "id"},
	{"players", []string{"game_id", "seat", "name", "address", "secret", "token", "notify", "told", "digest_next", "away_until", "away_used", "undeliverable", "lang", "mail_lang"}, "iitttttittittt", "game_id, seat"},
	{"moves", []string{"game_id", "n", "player", "text", "time", "source"}, "iitttt", "game_id, n"},
	{"messages", []string{"message_id", "body_hash", "sender", "game_id", "outcome", "received"}, "tttitt", "message_id"},
	{"outbox_shared", []string{"id", "data"}, "ib", "id"},
	{"outbox", []string{"id", "game_id", "recipient", "raw", "draft", "reply", "created", "attempts", "next_attempt", "sent", "last_error", "claimed_by", "claimed_until", "shared_id"}, "iitBbitittttti", "id"},
	{"clocks", []string{"game_id", "deadline", "grace", "remind", "policy", "since", "to_move", "stage", "next", "vacation"}, "iiiitttiti", "game_id"},
	{"observers", []string{"game_id", "address", "lang"}, "itt", "game_id, address"},
	{"undo_requests", []string{"game_id", "asked_by", "keep", "moves", "accepted", "until", "source"}, "itiittt", "game_id"},
	{"observe_requests", []string{"game_id", "address", "token", "asked"}, "ittt", "game_id, address"},
	{"failures", []string{"id", "kind", "ref", "party", "subject", "reason", "attempts", "first", "last", "set_aside"}, "itttttittt", "id"},
}

// identityTables have ids PostgreSQL gives: after the copy, the next id
// goes on from the largest copied.
var identityTables = []string{"games", "outbox_shared", "outbox", "failures"}

// Copied is what Migrate copied: the rows of each table, in copyTables'
// order.
type Copied struct {
	Tables []string
	Rows   []int
}

// ErrMigrated is matched (errors.Is) by the error of a Migrate into a
// database that already holds a migration or games.
var ErrMigrated = errors.New("store: the database is not empty")

// Migrate copies the SQLite store of the data directory dir into s, every
// table and every row, in one transaction: either all of it is copied and
// the counts of rows on both sides agree, or nothing is. It refuses a
// database that already holds a migration, or any game, mail or outbox
// row (ErrMigrated): it runs once. The SQLite store is brought up to its
// latest schema first and then read in one snapshot; herald serve should
// be stopped while it runs, or what it does after the snapshot is not
// copied.
func (s *Store) Migrate(ctx context.Context, dir string) (*Copied, error) {
	path := filepath.Join(dir, "herald.db")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("store: %s: no herald database here: %w", dir, err)
	}
	// Open runs the SQLite store's migrations, so that its tables are the
	// ones copyTables names.
	lite, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	lite.Close()
	src, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer src.Close()
	rtx, err := src.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	defer rtx.Rollback()

	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `LOCK TABLE migrated IN EXCLUSIVE MODE`); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var from, at string
	err = tx.QueryRow(ctx, `SELECT source, at FROM migrated LIMIT 1`).Scan(&from, &at)
	if err == nil {
		return nil, fmt.Errorf("%w: %s was copied into it at %s; herald migrate runs once", ErrMigrated, from, at)
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("store: %w", err)
	}
	for _, t := range []string{"games", "messages", "outbox"} {
		var any bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+t+`)`).Scan(&any); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		if any {
			return nil, fmt.Errorf("%w: its table %s has rows (a herald serve ran on it?); migrate into an empty database", ErrMigrated, t)
		}
	}
	out := &Copied{}
	for _, t := range copyTables {
		n, err := copyTable1(ctx, rtx, tx, t)
		if err != nil {
			return nil, fmt.Errorf("store: copying %s: %w", t.name, err)
		}
		var in, got int
		if err := rtx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+t.name).Scan(&in); err != nil {
			return nil, fmt.Errorf("store: counting %s: %w", t.name, err)
		}
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM `+t.name).Scan(&got); err != nil {
			return nil, fmt.Errorf("store: counting %s: %w", t.name, err)
		}
		if in != n || got != n {
			return nil, fmt.Errorf("store: copying %s: SQLite has %d rows, %d were read and PostgreSQL has %d; nothing is copied", t.name, in, n, got)
		}
		out.Tables = append(out.Tables, t.name)
		out.Rows = append(out.Rows, n)
	}
	for _, t := range identityTables {
		if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence('`+t+`', 'id'), COALESCE((SELECT MAX(id) FROM `+t+`), 0) + 1, false)`); err != nil {
			return nil, fmt.Errorf("store: %s ids: %w", t, err)
		}
	}
	var counts []string
	for i, t := range out.Tables {
		counts = append(counts, fmt.Sprintf("%s %d", t, out.Rows[i]))
	}
	abs, _ := filepath.Abs(path)
	if _, err := tx.Exec(ctx, `INSERT INTO migrated (source, at, counts) VALUES ($1, $2, $3)`, abs, stamp(time.Now()), strings.Join(counts, ", ")); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("store: commit: %w", err)
	}
	return out, nil
}

// copyTable1 copies the rows of t from SQLite into PostgreSQL (COPY) and
// returns how many it read.
func copyTable1(ctx context.Context, src *sql.Tx, dst pgx.Tx, t copyTable) (int, error) {
	rows, err := src.QueryContext(ctx, `SELECT `+strings.Join(t.cols, ", ")+` FROM `+t.name+` ORDER BY `+t.order)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var all [][]any
	for rows.Next() {
		vals := make([]any, len(t.cols))
		ptrs := make([]any, len(t.cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return 0, err
		}
		for i, v := range vals {
			if vals[i], err = convert(v, t.kinds[i]); err != nil {
				return 0, fmt.Errorf("column %s: %w", t.cols[i], err)
			}
		}
		all = append(all, vals)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n, err := dst.CopyFrom(ctx, pgx.Identifier{t.name}, t.cols, pgx.CopyFromRows(all))
	if err != nil {
		return 0, err
	}
	if int(n) != len(all) {
		return 0, fmt.Errorf("%d rows read, %d written", len(all), n)
	}
	return len(all), nil
}

// convert gives a value read from SQLite the type its PostgreSQL column
// takes (kind, as in copyTable).
func convert(v any, kind byte) (any, error) {
	if kind == 'B' {
		if b, ok := v.([]byte); v == nil || ok && b == nil {
			return []byte{}, nil
		}
		kind = 'b'
	}
	if v == nil {
		return nil, nil
	}
	switch kind {
	case 't':
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		}
	case 'b':
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
	case 'i':
		if x, ok := v.(int64); ok {
			return x, nil
		}
	case 'o':
		if x, ok := v.(int64); ok {
			return x != 0, nil
		}
	}
	return nil, fmt.Errorf("unexpected value %v (%T)", v, v)
}
