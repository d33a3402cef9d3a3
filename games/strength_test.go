package games_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

// A contestant chooses seat's next step in st, from the step's own seed.
type contestant struct {
	name string
	step func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error)
}

// botAt is the bot at level (0: the default), with HERALD_BOT_ITERS and
// HERALD_BOT_DEPTH, when set, overriding the default level's budget.
func botAt(level int) contestant {
	o := bot.Options{Level: level}
	name := "bot"
	if level != 0 {
		name = fmt.Sprint("bot:", level)
	} else {
		o.Iterations, o.Depth = envInt("HERALD_BOT_ITERS", 0), envInt("HERALD_BOT_DEPTH", 0)
		if o.Iterations != 0 {
			name = fmt.Sprint("bot(", o.Iterations, " iterations)")
		}
	}
	return contestant{name, func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error) {
		oi := o
		oi.Seed = seed
		return bot.Step(st, seats, seat, oi)
	}}
}

var (
	randomPlayer = contestant{"random", func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error) {
		return bot.RandomStep(st, seat, adjudicator.NewRNG(seed))
	}}
	greedyPlayer = contestant{"greedy", func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error) {
		return bot.GreedyStep(st, seats, seat, adjudicator.NewRNG(seed))
	}}
)

// outcome is one game's end for the contestant measured.
type outcome struct {
	win    float64 // 1 won, 0 lost, a share of a shared victory
	score  int     // its score
	others float64 // the mean score of the others (Henri in the solo game)
	best   int     // the best score of the others
}

// duel plays one game of tb from seed: hero at seat at, rival at every
// other player's seat, the game's own seats (Henri) playing themselves.
// When several may act at once, the one who does is drawn from seed.
func duel(t testing.TB, tb table, seed string, hero, rival contestant, at int) outcome {
	t.Helper()
	m := startMatch(t, tb, seed)
	seats := m.Seats()
	me := seats[at]
	st := m.State
	order := adjudicator.NewRNG("strength-order\x00" + seed)
	for n := 0; len(st.ToMove()) > 0; n++ {
		to := st.ToMove()
		if auto := adjudicator.Automata(st); len(auto) > 0 && slices.Contains(auto, to[0]) {
			randomSteps(t, st, 1, order) // plays the automaton's steps
			continue
		}
		to = slices.DeleteFunc(slices.Clone(to), func(p string) bool { return adjudicator.SealedIn(st, p) })
		p := to[order.IntN(len(to))]
		c := rival
		if p == me {
			c = hero
		}
		mv, err := c.step(st, seats, p, fmt.Sprint(seed, "/", n))
		if err != nil {
			t.Fatalf("%s, %s at %s, step %d: %v", tb, c.name, p, n, err)
		}
		if err := st.Apply(p, mv); err != nil {
			t.Fatalf("%s, %s at %s, step %d: its step %q was refused: %v", tb, c.name, p, n, mv, err)
		}
		if n > 100_000 {
			t.Fatalf("%s: no end after %d steps", tb, n)
		}
	}
	res := st.Result()
	var o outcome
	winners := append(slices.Clone(res.Winners), res.Shared...)
	if slices.Contains(winners, me) {
		o.win = 1 / float64(len(winners))
	}
	sc := st.Scores()
	o.score = sc[at]
	first := true
	for i, v := range sc {
		if i == at {
			continue
		}
		o.others += float64(v) / float64(len(sc)-1)
		if first || v > o.best {
			o.best, first = v, false
		}
	}
	return o
}

// tally sums the outcomes of a cell of the campaign.
type tally struct {
	games               int
	wins, score, others float64
	margin              float64 // the sum of score - best other
	elapsed, cpu        time.Duration
}

func (ty *tally) add(o outcome, d, cpu time.Duration) {
	ty.games++
	ty.wins += o.win
	ty.score += float64(o.score)
	ty.others += o.others
	ty.margin += float64(o.score - o.best)
	ty.elapsed += d
	ty.cpu += cpu
}

func (ty tally) String() string {
	n := float64(max(ty.games, 1))
	return fmt.Sprintf("won %.1f of %d (%.1f%%); mean score %.1f, the others' %.1f, margin over the best other %+.1f; %.1fs a game, %.2fs of CPU",
		ty.wins, ty.games, 100*ty.wins/n, ty.score/n, ty.others/n, ty.margin/n, ty.elapsed.Seconds()/n, ty.cpu.Seconds()/n)
}

// TestBotStrength is the bot's strength campaign (issue 30). For every
// game and player count it plays the default bot against uniform random
// players (target: 95% of 2-player games won), against greedy one-step
// players (70%), and bot:3 against bot:1 (60%), the measured seat going
// round the table over games of the same seed, so that each deal is
// played from every seat; for Les Deux Héritiers' solo game it plays
// each level against Henri and gives the mean scores. A shared victory
// counts its share. Each game logs a line as it ends (with -v), each cell
// a summary, so that a run cut short still gives its figures; the CPU
// time of a game is its cell's thread's (Linux), the wall's being much
// longer on shared cores.
//
// It runs only with HERALD_BOT_STRENGTH=1: it costs hours of CPU (see
// README's Bots). HERALD_BOT_GAMES sets the games a cell (default 200),
// HERALD_BOT_TABLES the tables ("lowenherz/2p,heritiers/1p"; default all),
// HERALD_BOT_CELLS the cells ("random,greedy,levels,henri"; default all),
// and HERALD_BOT_ITERS and HERALD_BOT_DEPTH the default bot's budget, for
// quick checks. The cells run in parallel as far as -parallel lets them.
func TestBotStrength(t *testing.T) {
	if os.Getenv("HERALD_BOT_STRENGTH") == "" {
		t.Skip("set HERALD_BOT_STRENGTH=1 to run the strength campaign (hours of CPU)")
	}
	games := envInt("HERALD_BOT_GAMES", 200)
	only := func(env, name string) bool {
		v := os.Getenv(env)
		return v == "" || slices.Contains(strings.Split(v, ","), name)
	}
	type cell struct {
		name        string
		hero, rival contestant
		target      float64 // the share of 2-player games to win
	}
	for _, tb := range tables {
		if !only("HERALD_BOT_TABLES", tb.String()) {
			continue
		}
		var cells []cell
		if tb.players == 1 {
			for level := 1; level <= bot.MaxLevel; level++ {
				cells = append(cells, cell{"henri", botAt(level), contestant{}, 0})
			}
		} else {
			cells = []cell{
				{"random", botAt(0), randomPlayer, 0.95},
				{"greedy", botAt(0), greedyPlayer, 0.70},
				{"levels", botAt(3), botAt(1), 0.60},
			}
		}
		for _, c := range cells {
			if !only("HERALD_BOT_CELLS", c.name) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s-vs-%s", tb, c.hero.name, c.name), func(t *testing.T) {
				t.Parallel()
				runtime.LockOSThread() // so that threadCPU is this cell's
				defer runtime.UnlockOSThread()
				var ty tally
				for g := range games {
					seed := fmt.Sprint("strength-", g/tb.players)
					start, cpu := time.Now(), threadCPU()
					o := duel(t, tb, seed, c.hero, c.rival, g%tb.players)
					ty.add(o, time.Since(start), threadCPU()-cpu)
					t.Logf("game %d (seed %s, seat %d): won %.2f, score %d to the others' best %d; so far %s", g+1, seed, g%tb.players+1, o.win, o.score, o.best, ty)
				}
				against := c.rival.name
				if tb.players == 1 {
					against = "Henri"
				}
				target := fmt.Sprintf("a fair share %.0f%%", 100/float64(tb.players))
				if tb.players == 1 {
					target = "solo"
				} else if tb.players == 2 {
					target = fmt.Sprintf("target %.0f%%", 100*c.target)
				}
				t.Logf("STRENGTH %s: %s against %s: %s (%s)", tb, c.hero.name, against, ty, target)
			})
		}
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
