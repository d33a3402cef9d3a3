package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/games/raubritter"
	"gopkg.in/yaml.v3"
)

// TestExportVerifies stores games the way serve does (a header, then one
// row per move, then the ending of a resigned game) and checks that export
// writes records that adjudicate reads and verifies: digests, seal and the
// ended entry (issue 15 items 4 and 16).
func TestExportVerifies(t *testing.T) {
	dir := t.TempDir()
	full, err := adjudicator.SelfPlay(raubritter.Game, games.All, 2, "export", nil, func() string { return fixedTime })
	if err != nil {
		t.Fatal(err)
	}
	part, err := adjudicator.Start(games.All, &adjudicator.Record{Format: adjudicator.FormatVersion, Game: full.Record.Game,
		Options: full.Record.Options, Players: full.Record.Players, SeedSHA256: full.Record.SeedSHA256, Seed: full.Record.Seed,
		Moves: full.Record.Moves[:5]})
	if err != nil {
		t.Fatal(err)
	}
	if err := part.Resign("p2", fixedTime, "mail:<resign@example.org>"); err != nil {
		t.Fatal(err)
	}
	storeGames(t, dir, storedGame{rec: full.Record, status: host.Finished}, storedGame{rec: part.Record, status: host.Abandoned})
	for _, tt := range []struct{ game, want string }{
		{"G1", "\nresult: "},
		{"G2", "\nresult: none by the rules: the game ended early, p2 resigned (" + fixedTime + ", mail:<resign@example.org>) (RULINGS.md H-1)\n"},
	} {
		out := filepath.Join(dir, tt.game+".yaml")
		mustHerald(t, "export", "--db", dir, tt.game, "-o", out)
		r := mustHerald(t, "adjudicate", out)
		for _, want := range []string{"record format 2: every move's digest and the seal match (nothing cut or edited)\n", tt.want} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("adjudicate %s:\n%s\nwant it to hold %q", tt.game, r.stdout, want)
			}
		}
	}
}

// TestStoredGameErrors checks that export and show --db tell a game that
// is not there from a game the store cannot read, and give the store's own
// reason for the latter (issue 15, item 19).
func TestStoredGameErrors(t *testing.T) {
	dir := t.TempDir()
	rec, err := adjudicator.NewRecord(raubritter.Game, []string{"p1", "p2"}, nil, "s", nil)
	if err != nil {
		t.Fatal(err)
	}
	storeGames(t, dir, storedGame{rec: rec})
	db, err := sql.Open("sqlite", filepath.Join(dir, "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE games SET record = 'game: [' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, args := range [][]string{{"export", "--db", dir}, {"show", "--db", dir}} {
		r := herald(t, "", append(args, "G9")...)
		if r.code != 1 || !strings.Contains(r.stderr, "no game G9") {
			t.Errorf("%v G9: exit %d, %q; want 1 and no game G9", args, r.code, r.stderr)
		}
		r = herald(t, "", append(args, "G1")...)
		if r.code == 0 || strings.Contains(r.stderr, "no game") || !strings.Contains(r.stderr, "G1") {
			t.Errorf("%v G1 with a damaged record: exit %d, %q; want the store's reason", args, r.code, r.stderr)
		}
	}
}

// TestExportPublic checks that export --public shares nothing the players
// may not see (issue 25, item 9): while a bid is sealed it refuses, saying
// what the record waits for; otherwise it writes the record without the
// seed and without the Message-IDs of its sources.
func TestExportPublic(t *testing.T) {
	dir := t.TempDir()
	var pos yaml.Node
	if err := yaml.Unmarshal([]byte("card: B 6d 2w 1s\ncastles: {a1: fabienne, n1: georges, o10: henri, a10: ines}\n"), &pos); err != nil {
		t.Fatal(err)
	}
	players := []string{"fabienne", "georges", "henri", "ines"}
	rec, err := adjudicator.NewRecord(lowenherz97.Game, players, nil, "s", pos.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(games.All, rec)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range [][2]string{{"fabienne", "choose 2"}, {"georges", "choose 2"}, {"henri", "choose 2"}, {"ines", "choose 1"}, {"henri", "bid 2"}} {
		if _, err := m.Submit(mv[0], mv[1], fixedTime, fmt.Sprintf("mail:<%d@mx.sender.example>", i)); err != nil {
			t.Fatal(err)
		}
	}
	storeGames(t, dir, storedGame{rec: m.Record, status: host.Playing})
	r := herald(t, "", "export", "--db", dir, "--public", "G1")
	if r.code != 1 || strings.Contains(r.stdout, "bid 2") || !strings.Contains(r.stderr, "once every bid of the confrontation is in") {
		t.Fatalf("export --public with henri's bid sealed: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if out := mustHerald(t, "export", "--db", dir, "G1").stdout; !strings.Contains(out, "bid 2") || !strings.Contains(out, "mx.sender.example") {
		t.Errorf("export without --public is the host's whole copy:\n%s", out)
	}
}

// storedGame is a game for storeGames: its record, the status it is saved
// with ("": left as created, its header alone), and what else to do in
// the transaction that stores it (nil: nothing).
type storedGame struct {
	rec    *adjudicator.Record
	status string
	more   func(ctx context.Context, tx host.Tx, id int64) error
}

// storeGames stores gs in the SQLite store of the data directory dir, as
// serve does, each in a transaction of its own: the game created with its
// header (the record without moves or ending), a player p@x of key kp for
// each of its players p, hosted by host@x; then its record saved whole.
func storeGames(t testing.TB, dir string, gs ...storedGame) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, g := range gs {
		err := st.Process(ctx, host.Intake{MessageID: fmt.Sprintf("<stored-%d@x>", i), Received: time.Now()}, func(tx host.Tx) error {
			header := *g.rec
			header.Moves, header.Ended = nil, nil
			var ps []host.Player
			for _, p := range g.rec.Players {
				ps = append(ps, host.Player{Name: p, Address: p + "@x", Secret: "k" + p})
			}
			id, err := tx.CreateGame(ctx, "host@x", "hk", &header, ps)
			if err != nil {
				return err
			}
			if g.status != "" {
				if _, err := tx.Save(ctx, id, g.rec, g.status); err != nil {
					return err
				}
			}
			if g.more != nil {
				return g.more(ctx, tx, id)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
