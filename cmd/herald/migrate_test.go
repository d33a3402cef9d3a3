package main

import (
	"context"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator/store/postgres"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
)

// TestMigrateCommand copies a data directory with a game started by mail
// into PostgreSQL: herald migrate prints the rows of each table, the game
// reads back from the new store, and a second run is refused (exit 1)
// without touching anything. Bad arguments are usage errors.
func TestMigrateCommand(t *testing.T) {
	dir := t.TempDir()
	mustHerald(t, "new", "raubritter", "--mail", "--players", "alice@games.test,bob@games.test", "--data", dir)
	url := pgtest.URL(t)
	r := mustHerald(t, "migrate", "--from", dir, "--to", url)
	for _, want := range []string{"games             1 rows", "players           2 rows", "the counts agree"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("migrate says:\n%s\nwant %q", r.stdout, want)
		}
	}
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := st.Game(context.Background(), 1)
	if err != nil || g.Record.Game != "raubritter" || len(g.Players) != 2 || g.Players[1].Address != "bob@games.test" {
		t.Fatalf("the copied game: %+v, %v", g, err)
	}
	if n, _ := st.Pending(context.Background()); n == 0 {
		t.Errorf("the welcomes waiting to be sent were not copied")
	}
	again := herald(t, "", "migrate", "--from", dir, "--to", url)
	if again.code != 1 || !strings.Contains(again.stderr, "runs once") {
		t.Errorf("a second migrate:\n%v", again)
	}
	for _, args := range [][]string{
		{"migrate", "--from", dir},
		{"migrate", "--from", dir, "--to", "mysql://x"},
		{"migrate", "--from", dir, "--to", url, "extra"},
	} {
		if r := herald(t, "", args...); r.code != 2 {
			t.Errorf("want a usage error:\n%v", r)
		}
	}
}

// TestReadCommandsOnPostgres: the commands that read a serve's store
// (games --db, export --db, failed --data) take a PostgreSQL URL in place
// of the data directory, and new --mail --store creates its game there.
func TestReadCommandsOnPostgres(t *testing.T) {
	dir := t.TempDir()
	mustHerald(t, "new", "raubritter", "--mail", "--players", "alice@games.test,bob@games.test", "--data", dir)
	url := pgtest.URL(t)
	mustHerald(t, "migrate", "--from", dir, "--to", url)
	if r := mustHerald(t, "games", "--db", url); !strings.Contains(r.stdout, "G1") || !strings.Contains(r.stdout, "alice@games.test, bob@games.test") {
		t.Errorf("games --db URL:\n%v", r)
	}
	if r := mustHerald(t, "export", "--db", url, "G1"); !strings.Contains(r.stdout, "game: raubritter") {
		t.Errorf("export --db URL:\n%v", r)
	}
	mustHerald(t, "failed", "--data", url)
	// new --mail --store creates the game in the PostgreSQL store.
	mustHerald(t, "new", "heritiers", "--mail", "--players", "carol@games.test", "--data", t.TempDir(), "--store", url)
	if r := mustHerald(t, "games", "--db", url); !strings.Contains(r.stdout, "G2") || !strings.Contains(r.stdout, "heritiers") {
		t.Errorf("games --db URL after new --mail --store:\n%v", r)
	}
}
