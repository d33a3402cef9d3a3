package lowenherz

import (
	"fmt"
	"os"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

// TestYardstickStats, with HERALD_LH_YARDSTICK=1 and -v, says why the
// bot's strength campaign (issue 30) sees 2-player games end 5 to 3
// against random and greedy players: it plays 2-player games between two
// uniform random players (bot.RandomStep) and between two greedy ones
// (bot.GreedyStep), and counts the games that end with anyone holding
// points from the board, the borders placed, and the steps at which one
// border would have closed a domain for the player to move (the only
// steps where greedy differs from random). About half a minute of CPU.
func TestYardstickStats(t *testing.T) {
	if os.Getenv("HERALD_LH_YARDSTICK") == "" || !testing.Verbose() {
		t.Skip("statistics: set HERALD_LH_YARDSTICK=1 and run with -v")
	}
	const games = 50
	seats := []string{"red", "blue"}
	for _, kind := range []string{"random", "greedy"} {
		scored, borders, chances, taken := 0, 0, 0, 0
		for g := range games {
			s := newState(t, 2, fmt.Sprint("yardstick", g))
			rng := adjudicator.NewRNG(fmt.Sprint("yardstick-steps", g))
			for n := 0; len(s.ToMove()) > 0; n++ {
				p := s.ToMove()[0]
				pi := s.index(p)
				before := s.players[pi].score
				chance := false
				for _, m := range s.Legal(p) {
					if _, ok := m.(*BorderStep); !ok {
						continue
					}
					c := s.clone()
					if err := c.Apply(p, m); err != nil {
						t.Fatal(err)
					}
					if c.players[pi].score > before {
						chance = true
						break
					}
				}
				var mv adjudicator.Move
				var err error
				if kind == "random" {
					mv, err = bot.RandomStep(s, p, rng)
				} else {
					mv, err = bot.GreedyStep(s, seats, p, rng)
				}
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := mv.(*BorderStep); ok {
					borders++
				}
				if err := s.Apply(p, mv); err != nil {
					t.Fatal(err)
				}
				if chance {
					chances++
					if s.players[pi].score > before {
						taken++
					}
				}
			}
			for i := range seats {
				if s.kingEnd || s.players[i].score > s.bonus[i] {
					scored++
					break
				}
			}
		}
		t.Logf("%s against %s, %d games: %d ending with points from the board; %.1f borders placed a game; %d steps at which a border closed a domain for the player to move, %d of them taken",
			kind, kind, games, scored, float64(borders)/games, chances, taken)
	}
}
