package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// TestWorkersShareDeadlineSweep runs three herald serve workers on one
// PostgreSQL store (--store), their clocks days ahead, so that every
// game's reminder, late notice and forfeit fall due at once on all three,
// and kills one of them with SIGKILL in the middle of the sweep, twice,
// restarting it under its name (issue 29, items 4 and 5). Once the workers have finished, every game
// ended by one forfeit, and each notice was queued exactly once and sent:
// a stage is fired by one worker, never two.
func TestWorkersShareDeadlineSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three herald serve workers")
	}
	const nGames = 20
	url := pgGames(t, "herald.local", nGames, host.Timing{Deadline: 24 * time.Hour, Policy: host.PolicyForfeit})
	db := pgConnect(t, url)
	base := t.TempDir()
	serve := func(w int) *exec.Cmd {
		return startServe(t, "", []string{"HERALD_CLOCK_SHIFT=100h"}, "--store", url, "--worker", fmt.Sprint("w", w),
			"--data", filepath.Join(base, fmt.Sprint("worker", w)), "--pictures", "off")
	}
	workers := []*exec.Cmd{serve(0), serve(1), serve(2)}
	defer func() {
		for _, c := range workers {
			c.Process.Kill()
			c.Wait()
		}
	}()
	ticks := `SELECT COUNT(*) FROM messages WHERE message_id LIKE 'tick:%'`
	var progress []int
	for k := range 2 {
		// Kill a worker as soon as the sweep has done more work.
		before := db.count(ticks)
		for start := time.Now(); time.Since(start) < 20*time.Second && db.count(ticks) == before; time.Sleep(5 * time.Millisecond) {
		}
		workers[k].Process.Kill()
		workers[k].Wait()
		progress = append(progress, db.count(ticks))
		workers[k] = serve(k)
	}
	t.Logf("sweep requests committed at each kill: %v (of %d)", progress, 3*nGames)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		over := db.count(`SELECT COUNT(*) FROM games WHERE status = 'forfeited'`)
		pending := db.count(`SELECT COUNT(*) FROM outbox WHERE sent IS NULL`)
		if over == nGames && pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 2 minutes, %d of %d games ended and %d mails wait", over, nGames, pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
	rows, err := db.Query(context.Background(), sweepOutbox)
	if err != nil {
		t.Fatal(err)
	}
	checkSweepQueued(t, rows, nGames)
	if n := db.count(`SELECT COUNT(*) FROM messages WHERE outcome = 'forfeit'`); n != nGames {
		t.Errorf("%d forfeits recorded, want one a game: %d", n, nGames)
	}
}
