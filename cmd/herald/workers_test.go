package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/postgres"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/mail"
	"github.com/jackc/pgx/v5"
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
	url := pgtest.URL(t)
	ctx := context.Background()
	const nGames = 20
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := mail.NewService(mail.Config{Address: "herald@herald.local", Registry: games.All, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	for i := range nGames {
		if _, err := svc.CreateGame(ctx, "h@herald.local", "raubritter",
			[]string{fmt.Sprintf("a%d@herald.local", i), fmt.Sprintf("b%d@herald.local", i)}, nil,
			host.Timing{Deadline: 24 * time.Hour, Policy: host.PolicyForfeit}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	db, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	count := func(query string) int {
		var n int
		if err := db.QueryRow(ctx, query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	base := t.TempDir()
	serve := func(w int) *exec.Cmd {
		cmd := exec.Command(heraldBin, "serve", "--store", url, "--worker", fmt.Sprint("w", w),
			"--data", filepath.Join(base, fmt.Sprint("worker", w)), "--pictures", "off")
		cmd.Env = append(os.Environ(), "HERALD_CLOCK_SHIFT=100h")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
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
		before := count(ticks)
		for start := time.Now(); time.Since(start) < 20*time.Second && count(ticks) == before; time.Sleep(5 * time.Millisecond) {
		}
		workers[k].Process.Kill()
		workers[k].Wait()
		progress = append(progress, count(ticks))
		workers[k] = serve(k)
	}
	t.Logf("sweep requests committed at each kill: %v (of %d)", progress, 3*nGames)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		over := count(`SELECT COUNT(*) FROM games WHERE status = 'forfeited'`)
		pending := count(`SELECT COUNT(*) FROM outbox WHERE sent IS NULL`)
		if over == nGames && pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 2 minutes, %d of %d games ended and %d mails wait", over, nGames, pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
	rows, err := db.Query(ctx, `SELECT game_id, recipient, draft FROM outbox WHERE game_id IS NOT NULL ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64][]string{}
	for rows.Next() {
		var id int64
		var to string
		var draft []byte
		if err := rows.Scan(&id, &to, &draft); err != nil {
			t.Fatal(err)
		}
		var d struct {
			Subject string `json:"subject"`
		}
		if err := json.Unmarshal(draft, &d); err != nil {
			t.Fatal(err)
		}
		_, topic, _ := strings.Cut(d.Subject, "): ")
		local, _, _ := strings.Cut(to, "@")
		got[id] = append(got[id], strings.TrimRight(local, "0123456789")+" "+topic)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{"a game ended", "a late: a0, b0", "a reminder: your turn", "a welcome", "b game ended", "b late: a0, b0", "b reminder: your turn", "b welcome",
		"h game ended", "h game started", "h late: a0, b0"}
	for id := int64(1); id <= nGames; id++ {
		mails := got[id]
		slices.Sort(mails)
		w := slices.Clone(want)
		for i := range w {
			w[i] = strings.ReplaceAll(strings.ReplaceAll(w[i], "a0", fmt.Sprintf("a%d", id-1)), "b0", fmt.Sprintf("b%d", id-1))
		}
		slices.Sort(w)
		if !slices.Equal(mails, w) {
			t.Errorf("game %d queued:\n  %s\nwant each once:\n  %s", id, strings.Join(mails, "\n  "), strings.Join(w, "\n  "))
		}
	}
	if n := count(`SELECT COUNT(*) FROM messages WHERE outcome = 'forfeit'`); n != nGames {
		t.Errorf("%d forfeits recorded, want one a game: %d", n, nGames)
	}
}
