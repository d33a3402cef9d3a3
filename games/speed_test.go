package games_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

// engineStep returns the engine's own cost of a step of tb: a random
// legal step (Legal, then Apply), the game started again when it ends,
// averaged over n steps, in CPU time.
func engineStep(b *testing.B, tb table, n int) time.Duration {
	m := startMatch(b, tb, "bench")
	rng := adjudicator.NewRNG("bench-engine")
	st := m.State.Clone()
	start := cpuTime()
	for range n {
		if len(st.ToMove()) == 0 {
			st = m.State.Clone()
		}
		randomSteps(b, st, 1, rng)
	}
	return (cpuTime() - start) / time.Duration(n)
}

// BenchmarkBot measures the search's iterations a second on each game,
// from a position 30 random steps in (20 iterations a step, the default
// rollout depth), and gives beside them the engine's own cost of a step,
// a random legal step (Legal, then Apply), in µs of CPU: an iteration is
// a redrawing, a walk down the tree and a rollout of up to DefaultDepth
// such steps. iter/s is in wall time, iter/cpu-s in CPU time.
func BenchmarkBot(b *testing.B) {
	for _, tb := range tables {
		b.Run(tb.String(), func(b *testing.B) {
			m := startMatch(b, tb, "bench")
			randomSteps(b, m.State, 30, adjudicator.NewRNG("bench"))
			seat := botSeat(m.State)
			const iters = 20
			engine := engineStep(b, tb, 2000)
			b.ResetTimer()
			cpu := cpuTime()
			for i := range b.N {
				if _, err := bot.Step(m.State, m.Seats(), seat, bot.Options{Iterations: iters, Seed: fmt.Sprint(i)}); err != nil {
					b.Fatal(err)
				}
			}
			cpu = cpuTime() - cpu
			b.ReportMetric(float64(iters*b.N)/b.Elapsed().Seconds(), "iter/s")
			b.ReportMetric(float64(iters*b.N)/cpu.Seconds(), "iter/cpu-s")
			b.ReportMetric(float64(engine.Nanoseconds())/1e3, "engine-µs/step")
		})
	}
}

// BenchmarkBotGame measures the search's iterations a CPU second at
// bot:3 (the budget that makes bot:3 against bot:1 the dearest cell of
// the strength campaign) over a whole game rather than one position: it
// searches every 24th position of a random game of each table, where the
// player to move has a choice.
func BenchmarkBotGame(b *testing.B) {
	for _, tb := range tables {
		b.Run(tb.String(), func(b *testing.B) {
			per, err := bot.Iterations(3)
			if err != nil {
				b.Fatal(err)
			}
			iters, cpu := 0, time.Duration(0)
			for i := range b.N {
				m := startMatch(b, tb, fmt.Sprint("bench-game", i))
				rng := adjudicator.NewRNG(fmt.Sprint("bench-game", i))
				for n := 0; len(m.State.ToMove()) > 0; n++ {
					if seat := botSeat(m.State); seat != "" && n%24 == 0 && len(m.State.Legal(seat)) > 1 {
						start := cpuTime()
						if _, err := bot.Step(m.State, m.Seats(), seat, bot.Options{Level: 3, Seed: fmt.Sprint(n)}); err != nil {
							b.Fatal(err)
						}
						cpu += cpuTime() - start
						iters += per
					}
					randomSteps(b, m.State, 1, rng)
				}
			}
			b.ReportMetric(float64(iters)/cpu.Seconds(), "iter/cpu-s")
		})
	}
}

// botSeat returns the player to move in st that the bot would play for,
// "" when none is (the game over, or only the game's own seats to move).
func botSeat(st adjudicator.State) string {
	to := slices.DeleteFunc(slices.Clone(st.ToMove()), func(p string) bool {
		return slices.Contains(adjudicator.Automata(st), p) || adjudicator.SealedIn(st, p)
	})
	if len(to) == 0 {
		return ""
	}
	return to[0]
}

// BenchmarkBotDefault is the proof that the default level answers within
// 2 seconds on one core for every game: it times bot.Step at
// bot.DefaultLevel on the worst position of each game it finds. The
// candidates are the positions of a random game, every 5th step with a
// choice; each is searched with 16 iterations, and the slowest in CPU
// time is the one benchmarked. Run it with -benchtime=3x -cpu 1: cpu-s/op
// is the CPU time of one step (the figure to hold under 2), ns/op the
// wall's, longer on a shared machine.
func BenchmarkBotDefault(b *testing.B) {
	for _, tb := range tables {
		m := startMatch(b, tb, "bench-default")
		worst, at := worstPosition(b, m)
		seat := botSeat(worst)
		b.Run(tb.String(), func(b *testing.B) {
			b.Logf("%s: the worst position found is %d steps in, %s to move with %d legal steps", tb, at, seat, len(worst.Legal(seat)))
			cpu := cpuTime()
			for i := range b.N {
				if _, err := bot.Step(worst, m.Seats(), seat, bot.Options{Seed: fmt.Sprint(i)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// worstPosition plays a random game of m and returns the position, among
// every 5th with a choice for a player, where a search of 16 iterations
// took the most CPU time, and the steps it lies in.
func worstPosition(b *testing.B, m *adjudicator.Match) (adjudicator.State, int) {
	rng := adjudicator.NewRNG("bench-default")
	st := m.State.Clone()
	var worst adjudicator.State
	var worstCost time.Duration
	worstAt := 0
	for n := 0; len(st.ToMove()) > 0; n++ {
		if seat := botSeat(st); seat != "" && n%5 == 0 && len(st.Legal(seat)) > 1 {
			start := cpuTime()
			if _, err := bot.Step(st, m.Seats(), seat, bot.Options{Iterations: 16, Seed: "probe"}); err != nil {
				b.Fatal(err)
			}
			if c := cpuTime() - start; c > worstCost {
				worst, worstCost, worstAt = st.Clone(), c, n
			}
		}
		randomSteps(b, st, 1, rng)
	}
	return worst, worstAt
}

// TestAppendLegal holds every game's AppendLegal (bot.LegalAppender, the
// rollouts' way to list steps without a new list each time) to Legal: at
// every step of a random game of each table, for each player to move,
// AppendLegal after a few steps already in the list appends Legal's
// steps, in Legal's order, and leaves those before them alone.
func TestAppendLegal(t *testing.T) {
	for _, tb := range tables {
		t.Run(tb.String(), func(t *testing.T) {
			m := startMatch(t, tb, "append-legal")
			la, ok := m.State.(bot.LegalAppender)
			if !ok {
				t.Fatalf("%T has no AppendLegal", m.State)
			}
			rng := adjudicator.NewRNG("append-legal")
			buf := make([]adjudicator.Move, 0, 4)
			for n := 0; len(m.State.ToMove()) > 0; n++ {
				for _, p := range m.State.ToMove() {
					prefix := []adjudicator.Move{nil, nil}
					buf = la.AppendLegal(append(buf[:0], prefix...), p)
					want := m.State.Legal(p)
					if len(buf) != len(prefix)+len(want) || buf[0] != nil || buf[1] != nil {
						t.Fatalf("step %d, %s: AppendLegal gave %d steps after the 2 given, or changed them; Legal %d", n, p, len(buf)-2, len(want))
					}
					for i, mv := range want {
						if got := buf[len(prefix)+i]; got.String() != mv.String() {
							t.Fatalf("step %d, %s: AppendLegal's step %d is %q, Legal's %q", n, p, i, got, mv)
						}
					}
				}
				randomSteps(t, m.State, 1, rng)
				if n > 100_000 {
					t.Fatalf("no end after %d steps", n)
				}
			}
			if !m.State.Result().Finished {
				t.Fatal("the game stopped with nobody to move, unfinished")
			}
		})
	}
}
