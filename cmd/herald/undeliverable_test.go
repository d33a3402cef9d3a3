package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/games/raubritter"
)

// TestGamesUndeliverable: herald games shows the seats whose mail bounces
// (issue 31, item 2).
func TestGamesUndeliverable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.SelfPlay(raubritter.Game, games.All, 2, "bounce", nil, func() string { return fixedTime })
	if err != nil {
		t.Fatal(err)
	}
	err = st.Process(ctx, host.Intake{MessageID: "new", Received: time.Now()}, func(tx host.Tx) error {
		header := *m.Record
		header.Moves, header.Ended = nil, nil
		id, err := tx.CreateGame(ctx, "host@x", "hk", &header, []host.Player{{Name: "p1", Address: "p1@x", Secret: "k1"}, {Name: "p2", Address: "p2@x", Secret: "k2"}})
		if err != nil {
			return err
		}
		return tx.SetUndeliverable(ctx, id, 1, "the address does not exist (status 5.1.1)")
	})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	out := mustHerald(t, "games", "--db", dir).stdout
	if !strings.Contains(out, "p1@x, p2@x") || !strings.Contains(out, "undeliverable: p2@x (mail to them bounces)") || strings.Contains(out, "undeliverable: p1@x") {
		t.Errorf("herald games:\n%s", out)
	}
}
