package main

// Helpers of the tests that run the herald binary's serve on a store they
// fill first: the workers on PostgreSQL (workers_test.go,
// workername_test.go, campaign_test.go), backup of a PostgreSQL store
// (backup_pg_test.go), the deadline sweep on SQLite (sweep_test.go).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/postgres"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/mail"
	"github.com/jackc/pgx/v5"
)

// gameMaker creates Raubritter games on a store as herald new --mail
// does: game i (from 0) between ai@domain and bi@domain, hosted by
// h@domain, herald's address herald@domain, each with the same timing.
type gameMaker struct {
	svc    *mail.Service
	domain string
	timing host.Timing
}

// newGameMaker returns a gameMaker on st.
func newGameMaker(t testing.TB, st host.Store, domain string, timing host.Timing) *gameMaker {
	t.Helper()
	svc, err := mail.NewService(mail.Config{Address: "herald@" + domain, Registry: games.All, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	return &gameMaker{svc: svc, domain: domain, timing: timing}
}

// players returns the addresses of game i's players.
func (m *gameMaker) players(i int) []string {
	return []string{fmt.Sprintf("a%d@%s", i, m.domain), fmt.Sprintf("b%d@%s", i, m.domain)}
}

// create creates game i.
func (m *gameMaker) create(ctx context.Context, i int) error {
	_, err := m.svc.CreateGame(ctx, "h@"+m.domain, "raubritter", m.players(i), nil, m.timing)
	return err
}

// createN creates games 0 to n-1, failing t on an error.
func (m *gameMaker) createN(t testing.TB, n int) {
	t.Helper()
	for i := range n {
		if err := m.create(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
}

// pgGames returns the URL of a new PostgreSQL database (pgtest.URL: the
// test skips where there is none, or fails with HERALD_POSTGRES=1) with
// herald's schema and n games of a gameMaker on domain with timing; the
// store is closed again, for herald serve to open.
func pgGames(t testing.TB, domain string, n int, timing host.Timing) string {
	t.Helper()
	url := pgtest.URL(t)
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	newGameMaker(t, st, domain, timing).createN(t, n)
	return url
}

// pgDB is a test's connection to its PostgreSQL database, closed when the
// test ends.
type pgDB struct {
	*pgx.Conn
	t testing.TB
}

// pgConnect connects to the database at url.
func pgConnect(t testing.TB, url string) *pgDB {
	t.Helper()
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return &pgDB{Conn: c, t: t}
}

// count returns the number query selects (a SELECT COUNT(*)), failing the
// test on an error.
func (db *pgDB) count(query string) int {
	db.t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), query).Scan(&n); err != nil {
		db.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// startServe starts the herald binary's serve with args, env added to its
// environment (none: the test's own), its output appended to the file log
// ("" to drop it). The caller kills it and waits for it.
func startServe(t testing.TB, log string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(heraldBin, append([]string{"serve"}, args...)...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	if log != "" {
		out, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close() // the child has its own descriptor
		cmd.Stdout, cmd.Stderr = out, out
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// outboxRows are the rows of sweepOutbox, read with database/sql (SQLite)
// or pgx (PostgreSQL).
type outboxRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// sweepOutbox selects the mails queued about games, in order.
const sweepOutbox = `SELECT game_id, recipient, draft FROM outbox WHERE game_id IS NOT NULL ORDER BY id`

// checkSweepQueued checks the mails queued about games 1 to nGames, made
// by a gameMaker with a deadline and the forfeit policy and ended by the
// deadline sweep: each player's welcome, reminder, late notice and end of
// game, the host's start, late notice and end, each exactly once.
func checkSweepQueued(t testing.TB, rows outboxRows, nGames int) {
	t.Helper()
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
	for id := int64(1); id <= int64(nGames); id++ {
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
}
