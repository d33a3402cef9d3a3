package main

import (
	"context"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/games/raubritter"
)

// TestGamesUndeliverable: herald games shows the seats whose mail bounces
// (issue 31, item 2).
func TestGamesUndeliverable(t *testing.T) {
	dir := t.TempDir()
	m, err := adjudicator.SelfPlay(raubritter.Game, games.All, 2, "bounce", nil, func() string { return fixedTime })
	if err != nil {
		t.Fatal(err)
	}
	storeGames(t, dir, storedGame{rec: m.Record, more: func(ctx context.Context, tx host.Tx, id int64) error {
		return tx.SetUndeliverable(ctx, id, 1, "the address does not exist (status 5.1.1)")
	}})
	out := mustHerald(t, "games", "--db", dir).stdout
	if !strings.Contains(out, "p1@x, p2@x") || !strings.Contains(out, "undeliverable: p2@x (mail to them bounces)") || strings.Contains(out, "undeliverable: p1@x") {
		t.Errorf("herald games:\n%s", out)
	}
}
