package mail

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/heritiers"
	"github.com/heraldgames/herald/games/lowenherz"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/games/raubritter"
)

// TestEmbeddedGames plays a complete game of every game for each number
// of players it allows by mail on the embedded IMAP and SMTP servers:
// herald's intake, service and outbox on one side, one scripted mail client
// per player on the other. Every player's final mail must show the same
// final board, the mailed record must adjudicate, no mail may hold another
// player's hand or key, and the moves of the seats the game plays itself
// (Henri in Les Deux Héritiers' solo game) are recorded as the automaton's.
func TestEmbeddedGames(t *testing.T) {
	t.Parallel() // beside TestRealmail, which waits on the real servers
	reg := adjudicator.NewRegistry(raubritter.Game, lowenherz.Game, lowenherz97.Game, heritiers.Game)
	for _, g := range reg.Games() {
		for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
			t.Run(fmt.Sprintf("%s-%dp", g.Name, n), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				seed := fmt.Sprintf("e2e-%d", n)
				r, err := Start(ctx, RunConfig{Local: embeddedLocal, OpenStore: openSQLite,
					Dir: t.TempDir(), Registry: reg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
					PlayerPassword: func(string) string { return "pw" },
					NewSeed:        func() string { return seed },
				})
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				var players []string
				for i := 1; i <= n; i++ {
					players = append(players, fmt.Sprintf("p%d@herald.local", i))
				}
				for _, a := range append([]string{"host@herald.local"}, players...) {
					if err := r.Embedded.AddAccount(a, "pw"); err != nil {
						t.Fatal(err)
					}
				}
				res, err := RunDemo(ctx, DemoConfig{
					Game: g.Name, Players: players, Host: "host@herald.local", Herald: r.Address,
					Password: func(string) string { return "pw" },
					IMAPAddr: r.Embedded.IMAPAddr(), SMTPAddr: r.Embedded.SMTPAddr(), Seed: seed,
				})
				if err != nil {
					t.Fatal(err)
				}
				checkDemo(t, reg, res, players)
				if g.Name == heritiers.Game.Name {
					checkHenri(t, res, n)
				}
				if g.Name == lowenherz97.Game.Name {
					checkConflicts(t, res)
				}
				checkAutomatonMoves(t, res)
				if res.Record.Seed != seed {
					t.Errorf("the final record reveals seed %q, want %q", res.Record.Seed, seed)
				}
			})
		}
	}
}

// checkAutomatonMoves checks that every recorded move of a seat that is not
// one of the record's players is an automaton's move.
func checkAutomatonMoves(t *testing.T, res *DemoResult) {
	t.Helper()
	for i, mv := range res.Record.Moves {
		if !slices.Contains(res.Record.Players, mv.Player) && mv.Source != adjudicator.AutomatonSource {
			t.Errorf("move %d by %s, not a player, has source %q, want %q", i+1, mv.Player, mv.Source, adjudicator.AutomatonSource)
		}
	}
}

// checkConflicts checks that a Löwenherz 1997 game by mail went through a
// negotiation (an offer answered) and a confrontation (sealed bids), the
// two ways its conflicts are settled (issue 18).
func checkConflicts(t *testing.T, res *DemoResult) {
	t.Helper()
	var offers, answers, bids int
	for _, mv := range res.Record.Moves {
		for _, line := range strings.Split(mv.Text, "\n") {
			switch f := strings.Fields(line); {
			case len(f) == 0:
			case f[0] == "offer":
				offers++
			case f[0] == "accept" || f[0] == "refuse" || f[0] == "yield":
				answers++
			case f[0] == "bid":
				bids++
			}
		}
	}
	if offers == 0 || answers == 0 || bids == 0 {
		t.Errorf("the game by mail had %d offers, %d answers and %d bids: want a negotiation and a confrontation", offers, answers, bids)
	}
}
