package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func open(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "herald.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func record() *adjudicator.Record {
	return &adjudicator.Record{
		Format: adjudicator.FormatVersion, Game: "raubritter", Players: []string{"alice", "bob"},
		SeedSHA256: adjudicator.Commit("7"), Seed: "7",
	}
}

func newGame(t testing.TB, s *Store, id string) int64 {
	t.Helper()
	var gid int64
	err := s.Process(context.Background(), host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: "host@x", Received: t0}, func(tx host.Tx) error {
		var err error
		gid, err = tx.CreateGame(context.Background(), "host@x", "hk", record(), []host.Player{
			{Name: "alice", Address: "Alice@X", Secret: "k1"}, {Name: "bob", Address: "bob@y", Secret: "k2"}})
		if err != nil {
			return err
		}
		tx.SetOutcome("created", gid)
		return tx.Queue(context.Background(), host.Mail{GameID: gid, Recipient: "alice@x", Raw: []byte("welcome")})
	})
	if err != nil {
		t.Fatal(err)
	}
	return gid
}

// TestMigrateFromVersion1 opens a database written by the first herald,
// before the rev and moves columns and the moves table: its records, moves
// included, are split into their headers and one row per move, and play
// goes on from there.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herald.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	old := record()
	old.Moves = []adjudicator.RecordMove{
		{Player: "alice", Text: "keep plain", Time: "2026-01-02T03:04:05Z", Source: "mail:<a@x>"},
		{Player: "bob", Text: "keep forest\nlay f5 forest", Source: "cli"},
	}
	data, err := old.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
		`INSERT INTO schema_version (version) VALUES (1)`,
		migrations[0].sql,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO games (game, host, host_key, record, status, created, updated) VALUES ('raubritter', 'h@x', 'hk', ?, 'playing', '', '')`, data); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	g, err := s.Game(ctx, 1)
	if err != nil || g.Moves != 2 || g.Rev != 0 || g.Record.Game != "raubritter" || !slices.Equal(g.Record.Moves, old.Moves) {
		t.Fatalf("a game from version 1: %+v, %v", g, err)
	}
	var header []byte
	if err := s.db.QueryRow(`SELECT record FROM games WHERE id = 1`).Scan(&header); err != nil || bytes.Contains(header, []byte("keep plain")) {
		t.Fatalf("the stored header still holds moves (%v):\n%s", err, header)
	}
	err = s.Process(ctx, host.Intake{MessageID: "<m@x>", Received: t0}, func(tx host.Tx) error {
		rec, err := tx.Record(ctx, 1)
		if err != nil {
			return err
		}
		rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "end"})
		_, err = tx.Save(ctx, 1, rec, host.Finished)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if g, err := s.Game(ctx, 1); err != nil || len(g.Record.Moves) != 3 || g.Record.Moves[2].Text != "end" || g.Status != host.Finished {
		t.Fatalf("after a move: %+v, %v", g, err)
	}
}

// BenchmarkBatch measures the store's share of an incoming move mail: in
// batches of 64 (the mail intake's), each mail is recorded, appends a move
// to one of a few games and queues two drafts of a board's size; one op is
// one mail, commit and its sync to disk included.
func BenchmarkBatch(b *testing.B) {
	s, _ := open(b)
	ctx := context.Background()
	var games []int64
	for i := range 4 {
		games = append(games, newGame(b, s, fmt.Sprintf("<g%d@x>", i)))
	}
	recs := map[int64]*adjudicator.Record{}
	for _, g := range games {
		gm, err := s.Game(ctx, g)
		if err != nil {
			b.Fatal(err)
		}
		recs[g] = gm.Record
	}
	draft := bytes.Repeat([]byte("| F v | P c |   . |\n"), 115) // ~2.3 KB
	n := 0
	for n < b.N {
		batch, err := s.Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < 64 && n < b.N; i++ {
			n++
			id := fmt.Sprintf("<%d.%x@bench>", n, adjudicator.Commit(fmt.Sprint(n))[:16])
			g := games[n%len(games)]
			err := batch.Process(ctx, host.Intake{MessageID: id, BodyHash: adjudicator.Commit(id), Sender: "alice@x", Received: t0}, func(tx host.Tx) error {
				rec := recs[g]
				rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "plain castle e5\nknights 1", Time: "2026-11-23T09:00:00Z", Source: "mail:" + id})
				if _, err := tx.Save(ctx, g, rec, host.Playing); err != nil {
					return err
				}
				tx.SetOutcome("applied", g)
				for _, to := range []string{"alice@x", "bob@y"} {
					if err := tx.Queue(ctx, host.Mail{GameID: g, Recipient: to, Draft: draft}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := batch.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCommitUnsynced checks that a batch committed without a sync is
// visible at once to other connections, and that Sync then succeeds,
// whether the WAL file exists or not.
func TestCommitUnsynced(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Process(ctx, host.Intake{MessageID: "<u1@x>", BodyHash: "h", Sender: "a@x", Received: t0}, func(tx host.Tx) error {
		return tx.Queue(ctx, host.Mail{Recipient: "a@x", Raw: []byte("reply")})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.CommitUnsynced(ctx); err != nil {
		t.Fatal(err)
	}
	reader, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := reader.Processed(ctx, "<u1@x>"); !ok || err != nil {
		t.Errorf("another connection does not see the unsynced commit: %v, %v", ok, err)
	}
	reader.Close()
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Closed, the WAL was copied in and removed or emptied; Sync of a store
	// without a WAL file has nothing to do.
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	os.Remove(path + "-wal")
	if err := s2.Sync(); err != nil {
		t.Errorf("Sync without a WAL file: %v", err)
	}
}

// TestSchemaUpgradedElsewhere checks that a store refuses to write once
// another herald has migrated the database past what it knows, and that
// two stores opening an old database at once migrate it once.
func TestSchemaUpgradedElsewhere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herald.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`, `INSERT INTO schema_version (version) VALUES (1)`, migrations[0].sql} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	// A record the migration cannot read stays as it is, for its game alone.
	if _, err := db.Exec(`INSERT INTO games (game, host, host_key, record, status, created, updated) VALUES ('raubritter', 'h@x', 'hk', 'herald: 99', 'playing', '', '')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ctx := context.Background()
	stores := make([]*Store, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = Open(ctx, path) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("store %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	s := stores[0]
	if _, err := s.Game(ctx, 1); err == nil {
		t.Errorf("the unreadable record reads")
	}
	gid := newGame(t, s, "<s1@x>")
	if g, err := s.Game(ctx, gid); err != nil || g.Record.Game != "raubritter" {
		t.Fatalf("a new game beside the unreadable one: %+v, %v", g, err)
	}
	if _, err := s.db.Exec(`UPDATE schema_version SET version = version + 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Begin(ctx); err == nil || !strings.Contains(err.Error(), "upgraded by another herald") {
		t.Errorf("Begin on a database migrated by a newer herald: %v", err)
	}
}

// TestOpenWaitsForRollbackJournalWriter checks that opening a database
// still in rollback-journal mode while another process writes to it waits
// for that writer, rather than fail at once: SQLite does not call the busy
// handler for the switch to WAL, so the store must wait itself (firstConn).
func TestOpenWaitsForRollbackJournalWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herald.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`, `INSERT INTO schema_version (version) VALUES (1)`, migrations[0].sql, `BEGIN IMMEDIATE`, `INSERT INTO schema_version (version) VALUES (1)`} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	opened := make(chan error, 1)
	var s *Store
	go func() {
		var err error
		s, err = Open(context.Background(), path)
		opened <- err
	}()
	select {
	case err := <-opened:
		t.Fatalf("Open returned while another connection held the write lock: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	if _, err := conn.ExecContext(context.Background(), `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatalf("Open once the writer rolled back: %v", err)
	}
	defer s.Close()
	b, err := s.Begin(context.Background())
	if err != nil {
		t.Fatalf("Begin on the opened store: %v", err)
	}
	b.Rollback()
}

// TestPageSize checks that a new database gets pages of pageSize, and in
// WAL mode, while one that has pages already (made by an older herald,
// with SQLite's 4 KiB) keeps its size and opens as before.
func TestPageSize(t *testing.T) {
	ctx := context.Background()
	header := func(path string) (size int, wal bool) {
		b, err := os.ReadFile(path)
		if err != nil || len(b) < 100 {
			t.Fatalf("the header of %s: %d bytes, %v", path, len(b), err)
		}
		size = int(b[16])<<8 | int(b[17])
		if size == 1 {
			size = 65536
		}
		return size, b[18] == 2 && b[19] == 2 // the file format's WAL versions
	}
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.db")
	s, err := Open(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	newGame(t, s, "<p1@x>")
	s.Close()
	if size, wal := header(fresh); size != pageSize || !wal {
		t.Errorf("a new database has pages of %d bytes (WAL %v), want %d in WAL mode", size, wal, pageSize)
	}
	old := filepath.Join(dir, "old.db")
	db, err := sql.Open("sqlite", "file:"+old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA page_size = 4096; CREATE TABLE kept (x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err = Open(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	gid := newGame(t, s, "<p2@x>")
	if g, err := s.Game(ctx, gid); err != nil || g.Record.Game != "raubritter" {
		t.Fatalf("a game in a database of 4 KiB pages: %+v, %v", g, err)
	}
	s.Close()
	if size, wal := header(old); size != 4096 || !wal {
		t.Errorf("a database of 4 KiB pages has pages of %d bytes (WAL %v) once opened, want 4096 in WAL mode", size, wal)
	}
}

// TestStampsSortInTimeOrder checks that the stored times compare as
// strings in time order, as the outbox and the rate limit compare them.
func TestStampsSortInTimeOrder(t *testing.T) {
	times := []time.Time{t0, t0.Add(time.Nanosecond), t0.Add(500 * time.Millisecond), t0.Add(time.Second), t0.Add(90 * time.Minute)}
	for i := 1; i < len(times); i++ {
		a, b := stamp(times[i-1]), stamp(times[i])
		if a >= b {
			t.Errorf("stamp(%v) = %s does not sort before stamp(%v) = %s", times[i-1], a, times[i], b)
		}
		if back, err := time.Parse(time.RFC3339Nano, b); err != nil || !back.Equal(times[i]) {
			t.Errorf("stamp %s reads back as %v, %v", b, back, err)
		}
	}
}

// TestSyncOnlyWhenNeeded checks that Sync goes to the disk only when a
// write is not yet covered by a sync that succeeded: after a batch, and
// after MarkSent and MarkFailed, but not twice for the same writes (the
// intake and the outbox both sync after a batch). A WAL path that cannot
// be opened shows each sync that goes to the disk, as an error.
func TestSyncOnlyWhenNeeded(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<s1@x>")
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	wal := s.wal
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(file, "wal") // opening it fails: file is no directory
	s.wal = bad
	defer func() { s.wal = wal }()
	if err := s.Sync(); err != nil {
		t.Errorf("Sync with nothing new went to the disk: %v", err)
	}
	due, err := s.Claim(ctx, "w1", t0, time.Minute, 10)
	if err != nil || len(due) != 1 || due[0].GameID != gid {
		t.Fatalf("Claim = %+v, %v", due, err)
	}
	if err := s.Sync(); err != nil {
		t.Errorf("Sync after a claim alone went to the disk: %v", err)
	}
	write := map[string]func() error{
		"a batch": func() error {
			return s.Process(ctx, host.Intake{MessageID: "<s2@x>", BodyHash: "h", Sender: "a@x", Received: t0}, func(tx host.Tx) error { return nil })
		},
		"MarkFailed": func() error { return s.MarkFailed(ctx, due[0].ID, t0, errors.New("421 later")) },
		"MarkSent":   func() error { return s.MarkSent(ctx, due[0].ID, t0) },
	}
	for _, name := range []string{"a batch", "MarkFailed", "MarkSent"} {
		err := write[name]()
		if name == "a batch" {
			// Process syncs on commit, and fails here: it is committed all the same.
			if !errors.Is(err, host.ErrNotSynced) {
				t.Fatalf("Process with an unopenable WAL = %v, want ErrNotSynced", err)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		if err := s.Sync(); err == nil {
			t.Errorf("Sync after %s did not go to the disk", name)
		}
		s.wal = wal
		if err := s.Sync(); err != nil {
			t.Fatalf("Sync after %s: %v", name, err)
		}
		if err := s.Sync(); err != nil {
			t.Fatalf("second Sync after %s: %v", name, err)
		}
		s.wal = bad
		if err := s.Sync(); err != nil {
			t.Errorf("Sync after %s, already synced, went to the disk: %v", name, err)
		}
	}
}

// TestCheckpointWhenQuiet checks that the checkpointer copies a batch
// into the database file once no batch has committed for a while: a copy
// of the database file alone, without its WAL, then holds it.
func TestCheckpointWhenQuiet(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	newGame(t, s, "<cq@x>")
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cp := filepath.Join(t.TempDir(), "copy.db")
		if err := os.WriteFile(cp, data, 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Open(ctx, cp)
		if err != nil {
			t.Fatal(err)
		}
		ok, err := c.Processed(ctx, "<cq@x>")
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the batch is not in the database file %v after it committed", 10*time.Second)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// BenchmarkRecordRows measures what the per-statement cost of a batch's
// writes is beside the per-row cost (issue 29): 64 messages rows written
// in one transaction on the batch's connection, one statement a row
// ("row-statements") or recordChunk rows a statement ("multi-row", as
// Batch.record does). One op is one row; cpu-us/row is the process's CPU
// time a row, which a busy machine inflates less than the wall clock.
func BenchmarkRecordRows(b *testing.B) {
	for _, multi := range []bool{false, true} {
		name := "row-statements"
		if multi {
			name = "multi-row"
		}
		b.Run(name, func(b *testing.B) {
			s, _ := open(b)
			ctx := context.Background()
			n := 0
			cpu0, cpuOK := cpuTime()
			for n < b.N {
				batch, err := s.Begin(ctx)
				if err != nil {
					b.Fatal(err)
				}
				bt := batch.(*Batch)
				for i := 0; i < 64 && n < b.N; i++ {
					n++
					id := fmt.Sprintf("<%d@bench>", n)
					row := []any{id, adjudicator.Commit(id), "alice@x", int64(1), "applied", stamp(t0)}
					if multi {
						bt.records = append(bt.records, row...)
						continue
					}
					if _, err := bt.stmts.ExecContext(ctx, `INSERT INTO messages (message_id, body_hash, sender, game_id, outcome, received) VALUES (?, ?, ?, ?, ?, ?)`, row...); err != nil {
						b.Fatal(err)
					}
				}
				if err := batch.CommitUnsynced(ctx); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, ok := cpuTime(); cpuOK && ok {
				b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(b.N), "cpu-us/row")
			}
		})
	}
}
