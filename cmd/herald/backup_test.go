package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
)

// TestBackupDuringWrites backs up a database while another connection
// creates games and plays moves in it, as serve does: each copy is a new
// file, mode 0600, that opens, passes SQLite's integrity check, and holds
// every game created before the backup began, with its moves.
func TestBackupDuringWrites(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o700)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(data, "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var created atomic.Int64
	newGame := func(i int) error {
		return st.Process(ctx, host.Intake{MessageID: fmt.Sprintf("<m%d@x>", i), BodyHash: fmt.Sprint(i), Sender: "host@x", Received: time.Unix(1e9, 0)}, func(tx host.Tx) error {
			rec := &adjudicator.Record{Format: adjudicator.FormatVersion, Game: "raubritter", Players: []string{"alice", "bob"},
				SeedSHA256: adjudicator.Commit("7"), Seed: "7"}
			id, err := tx.CreateGame(ctx, "host@x", "hk", rec, []host.Player{{Name: "alice", Address: "a@x", Secret: "k1"}, {Name: "bob", Address: "b@x", Secret: "k2"}})
			if err != nil {
				return err
			}
			rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "end"})
			if _, err := tx.Save(ctx, id, rec, host.Playing); err != nil {
				return err
			}
			tx.SetOutcome("created", id)
			return tx.Queue(ctx, host.Mail{GameID: id, Recipient: "a@x", Raw: []byte(strings.Repeat("board ", 200))})
		})
	}
	for i := range 20 {
		if err := newGame(i); err != nil {
			t.Fatal(err)
		}
		created.Add(1)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var werr error
	wg.Go(func() {
		for i := 20; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := newGame(i); err != nil {
				werr = err
				return
			}
			created.Add(1)
		}
	})
	for k := range 3 {
		before := created.Load()
		to := filepath.Join(dir, fmt.Sprintf("backup-%d.db", k))
		r := herald(t, "", "backup", "--data", data, "--to", to)
		if r.code != 0 || !strings.Contains(r.stdout, "game(s), checked") {
			t.Fatalf("backup:\n%v", r)
		}
		if fi, err := os.Stat(to); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("the backup %s: %v, mode %v; want 0600", to, err, fi.Mode().Perm())
		}
		copyStore, err := store.Open(ctx, to)
		if err != nil {
			t.Fatal(err)
		}
		games, err := copyStore.Games(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(games)) < before {
			t.Errorf("backup %d holds %d games, want at least the %d created before it began", k, len(games), before)
		}
		for _, g := range games {
			full, err := copyStore.Game(ctx, g.ID)
			if err != nil || len(full.Record.Moves) != 1 {
				t.Errorf("backup %d: game %d: %v", k, g.ID, err)
				break
			}
		}
		copyStore.Close()
	}
	close(stop)
	wg.Wait()
	if werr != nil {
		t.Fatalf("the writer failed during the backups: %v", werr)
	}
	if created.Load() <= 20 {
		t.Errorf("no game was created during the backups: the test proves nothing")
	}

	// An existing file is never overwritten; a missing database is said.
	r := herald(t, "", "backup", "--data", data, "--to", filepath.Join(dir, "backup-0.db"))
	if r.code != 1 || !strings.Contains(r.stderr, "exists: backup writes a new file") {
		t.Errorf("backup over an existing file:\n%v", r)
	}
	r = herald(t, "", "backup", "--data", filepath.Join(dir, "none"), "--to", filepath.Join(dir, "b.db"))
	if r.code != 1 || !strings.Contains(r.stderr, "no database to back up") {
		t.Errorf("backup without a database:\n%v", r)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".herald-backup-*")); len(left) != 0 {
		t.Errorf("backup left %v", left)
	}
}
