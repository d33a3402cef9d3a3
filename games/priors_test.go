package games_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

// plain is a state with the game's priors (bot.Prior) hidden: the bot
// searches it as it searched every game before priors, draw for draw.
type plain struct{ adjudicator.State }

func (p plain) Determinize(seat string, rng *adjudicator.RNG) adjudicator.State {
	return plain{p.State.(adjudicator.Determinizer).Determinize(seat, rng)}
}

func (p plain) AppendLegal(buf []adjudicator.Move, player string) []adjudicator.Move {
	if la, ok := p.State.(bot.LegalAppender); ok {
		return la.AppendLegal(buf, player)
	}
	return append(buf, p.State.Legal(player)...)
}

// plainBot is the default bot blind to the game's priors: the bot as it
// was before them.
var plainBot = contestant{"bot without priors", func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error) {
	return bot.Step(plain{st}, seats, seat, bot.Options{Seed: seed})
}}

// TestBotPriorsHeadToHead, with HERALD_BOT_PRIORS=1, plays the default
// bot against itself blind to the game's priors (plainBot) on every table
// of a game with priors (Löwenherz 2003; HERALD_BOT_TABLES to choose),
// HERALD_BOT_GAMES games a table (default 24), the seat measured going
// round the table over games of one seed, and logs the games won. It
// measures what the priors are worth; minutes of CPU a game.
func TestBotPriorsHeadToHead(t *testing.T) {
	if os.Getenv("HERALD_BOT_PRIORS") == "" {
		t.Skip("set HERALD_BOT_PRIORS=1 to play the bot against itself without priors (minutes of CPU a game)")
	}
	games := envInt("HERALD_BOT_GAMES", 24)
	for _, tb := range tables {
		if v := os.Getenv("HERALD_BOT_TABLES"); v != "" && !slices.Contains(strings.Split(v, ","), tb.String()) {
			continue
		}
		if _, ok := startMatch(t, tb, "priors").State.(bot.Prior); !ok {
			continue
		}
		t.Run(tb.String(), func(t *testing.T) {
			var mu sync.Mutex
			var won, score, best float64
			next := 0
			t.Run("workers", func(t *testing.T) {
				for w := range envInt("HERALD_BOT_WORKERS", runtime.GOMAXPROCS(0)) {
					t.Run(fmt.Sprint(w+1), func(t *testing.T) {
						t.Parallel()
						for {
							mu.Lock()
							g := next
							next++
							mu.Unlock()
							if g >= games {
								return
							}
							seed := fmt.Sprint("priors-", g/tb.players)
							o := duel(t, tb, seed, botAt(0), plainBot, g%tb.players)
							mu.Lock()
							won += o.win
							score += float64(o.score)
							best += float64(o.best)
							t.Logf("game %d (seed %s, seat %d): won %.2f, %d to %d", g+1, seed, g%tb.players+1, o.win, o.score, o.best)
							mu.Unlock()
						}
					})
				}
			})
			t.Logf("%s: the bot with priors won %.1f of %d games against the bot without (%.0f%%), scoring %.1f to the others' best %.1f",
				tb, won, games, 100*won/float64(games), score/float64(games), best/float64(games))
		})
	}
}
