package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
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
