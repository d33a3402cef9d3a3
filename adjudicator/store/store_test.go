package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"gopkg.in/yaml.v3"
)

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func open(t *testing.T) (*Store, string) {
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

func newGame(t *testing.T, s *Store, id string) int64 {
	t.Helper()
	var gid int64
	err := s.Process(context.Background(), Intake{MessageID: id, BodyHash: "h-" + id, Sender: "host@x", Received: t0}, func(tx *Tx) error {
		var err error
		gid, err = tx.CreateGame(context.Background(), "host@x", "hk", record(), []Player{
			{Name: "alice", Address: "Alice@X", Secret: "k1"}, {Name: "bob", Address: "bob@y", Secret: "k2"}})
		if err != nil {
			return err
		}
		tx.SetOutcome("created", gid)
		return tx.Queue(context.Background(), gid, "alice@x", []byte("welcome"))
	})
	if err != nil {
		t.Fatal(err)
	}
	return gid
}

func TestProcessExactlyOnce(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<m1@x>")
	g, err := s.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != Playing || g.Record.Game != "raubritter" || len(g.Players) != 2 || g.Players[0].Address != "alice@x" {
		t.Fatalf("Game(%d) = %+v", gid, g)
	}
	// The same Message-ID again: fn must not run.
	ran := false
	err = s.Process(ctx, Intake{MessageID: "<m1@x>", BodyHash: "h", Sender: "host@x", Received: t0}, func(tx *Tx) error {
		ran = true
		return nil
	})
	if !errors.Is(err, ErrDuplicate) || ran {
		t.Fatalf("second Process = %v, ran %v; want ErrDuplicate and fn not run", err, ran)
	}
	if ok, _ := s.Processed(ctx, "<m1@x>"); !ok {
		t.Errorf("Processed(<m1@x>) = false")
	}
}

func TestProcessRollsBackOnError(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	boom := errors.New("boom")
	err := s.Process(ctx, Intake{MessageID: "<m2@x>", BodyHash: "h2", Sender: "a@x", Received: t0}, func(tx *Tx) error {
		if _, err := tx.CreateGame(ctx, "a@x", "hk", record(), []Player{{Name: "alice", Address: "a@x", Secret: "k"}}); err != nil {
			return err
		}
		if err := tx.Queue(ctx, 0, "a@x", []byte("x")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Process = %v, want boom", err)
	}
	if games, _ := s.Games(ctx); len(games) != 0 {
		t.Errorf("a game survived the rollback: %+v", games)
	}
	if n, _ := s.Pending(ctx); n != 0 {
		t.Errorf("Pending = %d after rollback, want 0", n)
	}
	if ok, _ := s.Processed(ctx, "<m2@x>"); ok {
		t.Errorf("the mail is marked processed after a rollback")
	}
}

func TestOutbox(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<m3@x>")
	due, err := s.Due(ctx, t0, 10)
	if err != nil || len(due) != 1 || string(due[0].Raw) != "welcome" || due[0].GameID != gid {
		t.Fatalf("Due = %+v, %v", due, err)
	}
	if err := s.MarkFailed(ctx, due[0].ID, t0.Add(time.Minute), errors.New("421 try later")); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.Due(ctx, t0.Add(30*time.Second), 10); len(due) != 0 {
		t.Errorf("Due before the retry time = %d mails, want 0", len(due))
	}
	due, _ = s.Due(ctx, t0.Add(time.Minute), 10)
	if len(due) != 1 || due[0].Attempts != 1 {
		t.Fatalf("Due at the retry time = %+v", due)
	}
	if err := s.MarkSent(ctx, due[0].ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Pending(ctx); n != 0 {
		t.Errorf("Pending = %d after sending, want 0", n)
	}
	err = s.Process(ctx, Intake{MessageID: "<m4@x>", BodyHash: "h4", Sender: "alice@x", Received: t0.Add(time.Hour / 2)}, func(tx *Tx) error {
		n, err := tx.RepliesSince(ctx, "ALICE@x", t0.Add(-time.Hour))
		if err != nil || n != 1 {
			t.Errorf("RepliesSince = %d, %v; want 1", n, err)
		}
		seen, err := tx.SeenBody(ctx, "h-<m3@x>")
		if err != nil || !seen {
			t.Errorf("SeenBody = %v, %v; want true", seen, err)
		}
		ids, err := tx.GamesOf(ctx, "bob@y")
		if err != nil || len(ids) != 1 || ids[0] != gid {
			t.Errorf("GamesOf(bob@y) = %v, %v", ids, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadWhileWriting checks that a second connection (a CLI command) can
// read while a write transaction (the service) is open, thanks to WAL.
func TestReadWhileWriting(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	newGame(t, s, "<m5@x>")
	reader, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	err = s.Process(ctx, Intake{MessageID: "<m6@x>", BodyHash: "h6", Sender: "a@x", Received: t0}, func(tx *Tx) error {
		games, err := reader.Games(ctx)
		if err != nil {
			return err
		}
		if len(games) != 1 || games[0].Game != "raubritter" || len(games[0].Players) != 2 {
			t.Errorf("Games during a write = %+v", games)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestReopenKeepsData(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<m7@x>")
	s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	g, err := s2.Game(ctx, gid)
	if err != nil || g.Record.Seed != "7" {
		t.Fatalf("after reopen Game = %+v, %v", g, err)
	}
	if ok, _ := s2.Processed(ctx, "<m7@x>"); !ok {
		t.Errorf("processed mail forgotten after reopen")
	}
}

// TestBatch processes several mails in one transaction: a mail whose fn
// fails is rolled back alone (its SQL writes and the record it saved), the
// others commit together, and a record saved in the batch is read back
// inside it before it is written at the commit.
func TestBatch(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<b0@x>")
	before, err := s.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if before.Moves != 0 || before.Rev == 0 {
		t.Fatalf("a new game has moves %d, rev %d; want 0 and a revision", before.Moves, before.Rev)
	}
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Rollback()
	move := func(id, who string, fail error) error {
		return b.Process(ctx, Intake{MessageID: id, BodyHash: "h-" + id, Sender: who, Received: t0}, func(tx *Tx) error {
			rec, err := tx.Record(ctx, gid)
			if err != nil {
				return err
			}
			rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: who, Text: "keep plain " + id})
			if _, err := tx.Save(ctx, gid, rec, Playing); err != nil {
				return err
			}
			tx.SetOutcome("applied", gid)
			if err := tx.Queue(ctx, gid, who+"@x", []byte("reply to "+id)); err != nil {
				return err
			}
			return fail
		})
	}
	boom := errors.New("boom")
	if err := move("<b1@x>", "alice", nil); err != nil {
		t.Fatal(err)
	}
	if err := move("<b2@x>", "bob", boom); !errors.Is(err, boom) {
		t.Fatalf("failing mail: %v, want boom", err)
	}
	if err := move("<b1@x>", "alice", nil); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("the same Message-ID again in the batch: %v, want ErrDuplicate", err)
	}
	if err := move("<b3@x>", "bob", nil); err != nil {
		t.Fatal(err)
	}
	// Inside the batch: the saved record, with the failed mail's move gone.
	err = b.Process(ctx, Intake{MessageID: "<b4@x>", BodyHash: "h4", Sender: "x", Received: t0}, func(tx *Tx) error {
		g, err := tx.Game(ctx, gid)
		if err != nil {
			return err
		}
		info, err := tx.GameInfo(ctx, gid)
		if err != nil {
			return err
		}
		if len(g.Record.Moves) != 2 || g.Record.Moves[1].Text != "keep plain <b3@x>" || g.Moves != 2 || info.Moves != 2 || info.Record != nil || info.Rev != g.Rev || g.Rev == before.Rev {
			t.Errorf("inside the batch: record moves %v, Moves %d/%d, rev %d/%d (before %d)", g.Record.Moves, g.Moves, info.Moves, g.Rev, info.Rev, before.Rev)
		}
		if none, err := tx.GameInfo(ctx, gid+100); none != nil || err != nil {
			t.Errorf("GameInfo of no game = %v, %v; want nil, nil", none, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Another connection sees nothing of the batch before the commit.
	reader, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if g, err := reader.Game(ctx, gid); err != nil || len(g.Record.Moves) != 0 || g.Rev != before.Rev {
		t.Fatalf("before the commit another connection reads %+v, %v", g, err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Process(ctx, Intake{MessageID: "<b5@x>"}, func(*Tx) error { return nil }); err == nil {
		t.Errorf("Process after Commit succeeded")
	}
	g, err := reader.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Record.Moves) != 2 || g.Moves != 2 || g.Record.Moves[0].Player != "alice" || g.Record.Moves[1].Player != "bob" {
		t.Errorf("after the commit: %d moves (column %d): %v", len(g.Record.Moves), g.Moves, g.Record.Moves)
	}
	for id, want := range map[string]bool{"<b1@x>": true, "<b2@x>": false, "<b3@x>": true, "<b4@x>": true} {
		if ok, _ := reader.Processed(ctx, id); ok != want {
			t.Errorf("Processed(%s) = %v, want %v", id, ok, want)
		}
	}
	due, err := reader.Due(ctx, t0, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range due {
		got = append(got, string(m.Raw))
	}
	if want := []string{"welcome", "reply to <b1@x>", "reply to <b3@x>"}; !slices.Equal(got, want) {
		t.Errorf("outbox = %q, want %q", got, want)
	}
}

// TestBatchRollback checks that a batch rolled back, or whose commit fails,
// writes nothing.
func TestBatchRollback(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<r0@x>")
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Process(ctx, Intake{MessageID: "<r1@x>", BodyHash: "h", Sender: "a", Received: t0}, func(tx *Tx) error {
		rec, err := tx.Record(ctx, gid)
		if err != nil {
			return err
		}
		rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "x"})
		_, err = tx.Save(ctx, gid, rec, Finished)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err == nil {
		t.Errorf("Commit after Rollback succeeded")
	}
	g, err := s.Game(ctx, gid)
	if err != nil || len(g.Record.Moves) != 0 || g.Status != Playing || g.Moves != 0 {
		t.Fatalf("after a rollback: %+v, %v", g, err)
	}
	if ok, _ := s.Processed(ctx, "<r1@x>"); ok {
		t.Errorf("a rolled-back mail is marked processed")
	}
	// A record that cannot be written fails the commit, and nothing of the
	// batch is written.
	b, err = s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Process(ctx, Intake{MessageID: "<r2@x>", BodyHash: "h", Sender: "a", Received: t0}, func(tx *Tx) error {
		if err := tx.Queue(ctx, gid, "a@x", []byte("reply")); err != nil {
			return err
		}
		bad := record()
		bad.Position = &yaml.Node{Kind: yaml.Kind(99)} // yaml.v3 cannot encode it
		_, err := tx.Save(ctx, gid, bad, Playing)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("game %d", gid)) {
		t.Fatalf("a batch with a record that cannot be encoded: commit = %v", err)
	}
	if ok, _ := s.Processed(ctx, "<r2@x>"); ok {
		t.Errorf("a mail of a failed commit is marked processed")
	}
	if n, _ := s.Pending(ctx); n != 1 {
		t.Errorf("Pending = %d after a failed commit, want 1 (the welcome)", n)
	}
}

// TestMigrateFromVersion1 opens a database written before the rev and
// moves columns: its games read with moves unknown (-1).
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herald.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := record().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
		`INSERT INTO schema_version (version) VALUES (1)`,
		migrations[0],
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
	g, err := s.Game(context.Background(), 1)
	if err != nil || g.Moves != -1 || g.Rev != 0 || g.Record.Game != "raubritter" {
		t.Fatalf("a game from version 1: %+v, %v", g, err)
	}
}

// TestBeginAfterClose checks that a closed store refuses a batch rather
// than waiting for one.
func TestBeginAfterClose(t *testing.T) {
	s, _ := open(t)
	newGame(t, s, "<c1@x>")
	s.Close()
	if _, err := s.Begin(context.Background()); err == nil {
		t.Fatalf("Begin on a closed store succeeded")
	}
}
