package main

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	_ "modernc.org/sqlite" // to count the outbox's rows
)

// TestDeadlineSweepSurvivesKills starts games with a deadline and the
// forfeit policy, then runs the real herald serve with its clock days
// ahead, so that every game's reminder, late notice and forfeit fall due
// at once, and kills it with SIGKILL again and again in the middle of the
// sweep (issue 19). Once a last serve has finished, every game has ended
// by one forfeit, and each reminder, late notice and end of game was
// queued exactly once: none lost, none twice.
func TestDeadlineSweepSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills herald serve a dozen times")
	}
	data := filepath.Join(t.TempDir(), "data")
	const nGames = 40
	// The games, as herald new --mail --deadline 24h --policy forfeit
	// creates them (one process for them all: it is quicker).
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(data, "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	newGameMaker(t, st, "herald.local", host.Timing{Deadline: 24 * time.Hour, Policy: host.PolicyForfeit}).createN(t, nGames)
	st.Close()
	serve := func() *exec.Cmd {
		return startServe(t, "", []string{"HERALD_CLOCK_SHIFT=100h"}, "--data", data, "--pictures", "off")
	}
	ctx := context.Background()
	// done counts the sweep's requests committed so far.
	done := func() int {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(data, "herald.db")+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		db.QueryRow(`SELECT COUNT(*) FROM messages WHERE message_id LIKE 'tick:%'`).Scan(&n)
		return n
	}
	var progress []int
	for range 8 {
		// Kill serve as soon as the sweep has committed some of its work,
		// and not all: in the middle of it.
		before := done()
		cmd := serve()
		for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(2 * time.Millisecond) {
			if n := done(); n > before {
				break
			}
		}
		cmd.Process.Kill() // SIGKILL: no clean stop
		cmd.Wait()
		progress = append(progress, done())
		if progress[len(progress)-1] == 3*nGames {
			break
		}
	}
	t.Logf("sweep requests committed after each kill: %v (of %d)", progress, 3*nGames)
	if progress[0] == 3*nGames {
		t.Log("the first serve finished the sweep before its kill: the kills interrupted nothing")
	}
	cmd := serve()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	deadline := time.Now().Add(90 * time.Second)
	for {
		st, err := store.Open(ctx, filepath.Join(data, "herald.db"))
		if err != nil {
			t.Fatal(err)
		}
		list, err := st.Games(ctx)
		pending, _ := st.Pending(ctx)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		over := 0
		for _, g := range list {
			if g.Status == host.Forfeited {
				over++
			}
		}
		if over == nGames && pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 90 s, %d of %d games ended and %d mails wait", over, nGames, pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()

	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, "herald.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(sweepOutbox)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	checkSweepQueued(t, rows, nGames)
	var forfeits int
	if err := db.QueryRow(`SELECT COUNT(*) FROM messages WHERE outcome = 'forfeit'`).Scan(&forfeits); err != nil || forfeits != nGames {
		t.Errorf("%d forfeits recorded (%v), want one a game: %d", forfeits, err, nGames)
	}
}
