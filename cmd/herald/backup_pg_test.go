package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/postgres"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/mail"
	"github.com/jackc/pgx/v5"
)

// TestBackupPostgres: herald backup of games kept in PostgreSQL (store:
// in serve's config, --store, or a URL as --data) writes nothing and says
// to use pg_dump, with the commands whole. Run as printed while a writer
// creates games, they round-trip: every table of the database, restored
// into a new one, holds what the dump's snapshot held, each game whole,
// and herald serves on the copy, its next game numbered after the last.
func TestBackupPostgres(t *testing.T) {
	url := pgtest.URL(t)
	if _, err := exec.LookPath("pg_dump"); err != nil {
		if os.Getenv(pgtest.Env) != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	ctx := context.Background()
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	maker := newGameMaker(t, st, "herald.test", host.Timing{Deadline: 24 * time.Hour})
	maker.createN(t, 10)
	if _, err := st.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: "<f@x>", Reason: "r"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.HoldIntake(ctx, "i", time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Enlist(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	// A row in each table the games above leave empty.
	src := pgConnect(t, url)
	for _, q := range []string{
		`INSERT INTO moves (game_id, n, player, text, time, source) VALUES (1, 1, 'p1', 'end', '', '')`,
		`INSERT INTO observers (game_id, address) VALUES (1, 'o@herald.test')`,
		`INSERT INTO observe_requests (game_id, address, token, asked) VALUES (2, 'o@herald.test', 'tok', '2026-01-01T00:00:00Z')`,
		`INSERT INTO undo_requests (game_id, asked_by, keep, moves, accepted, until, source) VALUES (1, 'p1', 0, 1, '', '2026-01-01T00:00:00Z', '')`,
		`INSERT INTO migrated (source, at, counts) VALUES ('/var/lib/herald/herald.db', '2026-01-01T00:00:00Z', '')`,
	} {
		if _, err := src.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	dir := t.TempDir()
	config := filepath.Join(dir, "serve.yaml")
	if err := os.WriteFile(config, []byte("address: herald@herald.test\nstore: "+url+"\ndata: data\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dumpFile := filepath.Join(dir, "herald.dump")
	var advice string
	for _, args := range [][]string{
		{"backup", "--config", config, "--to", dumpFile},
		{"backup", "--store", url, "--to", dumpFile},
		{"backup", "--data", url, "--to", dumpFile},
	} {
		r := herald(t, "", args...)
		if r.code != 1 || !strings.Contains(r.stderr, "the games are in PostgreSQL") || !strings.Contains(r.stderr, "  pg_dump --format=custom") {
			t.Fatalf("backup of a PostgreSQL store:\n%v", r)
		}
		if advice == "" {
			advice = r.stderr
		} else if r.stderr != advice {
			t.Errorf("backup %v says otherwise:\n%s\nthan with --config:\n%s", args, r.stderr, advice)
		}
		if _, err := os.Stat(dumpFile); err == nil {
			t.Fatalf("backup %v wrote %s", args, dumpFile)
		}
	}
	t.Logf("%s", advice)
	command := func(prog string) string {
		for line := range strings.SplitSeq(advice, "\n") {
			if c, ok := strings.CutPrefix(line, "  "+prog+" "); ok {
				return prog + " " + c
			}
		}
		t.Fatalf("no %s command in:\n%s", prog, advice)
		return ""
	}
	dumpCmd, restoreCmd := command("pg_dump"), command("pg_restore")

	// The dump, while a writer creates games.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var werr error
	created := 0
	wg.Go(func() {
		for i := 100; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if werr = maker.create(ctx, i); werr != nil {
				return
			}
			created++
		}
	})
	out, err := exec.Command("sh", "-c", dumpCmd).CombinedOutput()
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("%s: %v\n%s", dumpCmd, err, out)
	}
	if werr != nil {
		t.Fatal(werr)
	}
	if created == 0 {
		t.Error("no game was created during the dump: it proves nothing of a snapshot")
	}

	// The restore, into a new database.
	var name string
	if err := src.QueryRow(ctx, `SELECT current_database()`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Exec(ctx, `CREATE DATABASE `+name+`_restored TEMPLATE template0`); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", "-c", restoreCmd).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", restoreCmd, err, out)
	}
	restoredURL := strings.Replace(url, "/"+name+"?", "/"+name+"_restored?", 1)
	dst := pgConnect(t, restoredURL).Conn

	// Every table of the copy is the source's as of one moment: the games
	// the copy has, with everything of theirs, and nothing else.
	tables := func(c *pgx.Conn) []string {
		rows, err := c.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return names
	}
	all := tables(src.Conn)
	if got := tables(dst); !slices.Equal(got, all) {
		t.Fatalf("the copy has tables %v, the source %v", got, all)
	}
	var last int64
	if err := dst.QueryRow(ctx, `SELECT MAX(id) FROM games`).Scan(&last); err != nil {
		t.Fatal(err)
	}
	if last < 10 {
		t.Fatalf("the copy holds games up to G%d, want the 10 made before the dump", last)
	}
	for _, table := range all {
		var cols []string
		rows, err := src.Query(ctx, `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY 1`, table)
		if err != nil {
			t.Fatal(err)
		}
		if cols, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			t.Fatal(err)
		}
		// The source's rows as of the copy: those of games up to the
		// copy's last (the writer's later games, and the mails and
		// messages of theirs, are after the snapshot).
		where := ""
		switch {
		case table == "games":
			where = fmt.Sprintf(" WHERE id <= %d", last)
		case slices.Contains(cols, "game_id"):
			where = fmt.Sprintf(" WHERE game_id <= %d OR game_id IS NULL", last)
		case table == "outbox_shared": // a move's board: its outbox mails'
			where = fmt.Sprintf(" WHERE id IN (SELECT shared_id FROM outbox WHERE game_id <= %d OR game_id IS NULL)", last)
		}
		row := "t::text"
		if table == "workers" { // its live worker renews its row meanwhile
			row = "(t.name, t.token, t.host, t.pid, t.started)::text"
		}
		digest := func(c *pgx.Conn) (int, string) {
			var n int
			var sum string
			q := `SELECT COUNT(*), COALESCE(md5(string_agg(` + row + `, '|' ORDER BY ` + row + `)), '') FROM ` + table + ` t` + where
			if err := c.QueryRow(ctx, q).Scan(&n, &sum); err != nil {
				t.Fatalf("%s: %v", table, err)
			}
			return n, sum
		}
		n, want := digest(src.Conn)
		m, got := digest(dst)
		if m != n || got != want {
			t.Errorf("table %s: the copy has %d rows (%s), the source %d (%s)", table, m, got, n, want)
		}
		if m == 0 {
			t.Errorf("table %s is empty: its round trip is not shown", table)
		}
	}

	// herald serves on the copy: its schema is current, and a new game
	// comes after the last (pg_dump reads the sequences outside its
	// snapshot: the ids of the games created meanwhile are skipped, as
	// those of a rolled back transaction are).
	cp, err := postgres.Open(ctx, restoredURL)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	svc2, err := mail.NewService(mail.Config{Address: "herald@herald.test", Registry: games.All, Store: cp})
	if err != nil {
		t.Fatal(err)
	}
	id, err := svc2.CreateGame(ctx, "h@herald.test", "raubritter", []string{"x@herald.test", "y@herald.test"}, nil, host.Timing{})
	if err != nil || id <= last {
		t.Errorf("a new game on the copy is G%d (%v), want one after G%d", id, err, last)
	}
	for g := int64(1); g <= last; g++ {
		if _, err := cp.Game(ctx, g); err != nil {
			t.Errorf("the copy's G%d: %v", g, err)
		}
	}
}

// TestLibpqURLs: the URL in backup's pg_dump and pg_restore commands is
// serve's without its password and pgx's own parameters, which libpq
// refuses; the restore's names a database beside it.
func TestLibpqURLs(t *testing.T) {
	for _, c := range []struct{ url, dump, restore string }{
		{"postgres://herald@db.example.org/herald", "postgres://herald@db.example.org/herald", "postgres://herald@db.example.org/herald_restored"},
		{"postgres://herald:s3cret@db.example.org:5433/games?sslmode=require&pool_max_conns=20&statement_cache_capacity=64",
			"postgres://herald@db.example.org:5433/games?sslmode=require", "postgres://herald@db.example.org:5433/games_restored?sslmode=require"},
		{"postgres:///herald?host=/run/postgresql", "postgres:///herald?host=%2Frun%2Fpostgresql", "postgres:///herald_restored?host=%2Frun%2Fpostgresql"},
		{"postgresql://alice@localhost", "postgresql://alice@localhost", "postgresql://alice@localhost/alice_restored"},
	} {
		dump, restore, _ := libpqURLs(c.url)
		if dump != c.dump || restore != c.restore {
			t.Errorf("libpqURLs(%s) = %s, %s; want %s, %s", c.url, dump, restore, c.dump, c.restore)
		}
	}
	advice := pgBackupAdvice("postgres://herald:s3cret@db.example.org/herald", "/var/backups/it's.dump")
	if strings.Contains(advice, "s3cret") || !strings.Contains(advice, "~/.pgpass") ||
		!strings.Contains(advice, `pg_dump --format=custom --file='/var/backups/it'\''s.dump' --dbname=postgres://herald@db.example.org/herald`) {
		t.Errorf("the advice for a URL with a password:\n%s", advice)
	}
}
