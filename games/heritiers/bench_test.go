package heritiers

import (
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// benchGames plays complete games of n players (1: solo against Henri)
// with adjudicator.SelfPlay, each submission printed and parsed back, and
// Henri's moves played and recorded by the Match: one game per op.
func benchGames(b *testing.B, n int) {
	clock := func() string { return "" }
	i := 0
	for b.Loop() {
		if _, err := adjudicator.SelfPlay(Game, reg, n, fmt.Sprintf("bench-%d", i), nil, clock); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkSelfPlayGame2p plays complete 2-player games.
func BenchmarkSelfPlayGame2p(b *testing.B) { benchGames(b, 2) }

// BenchmarkSelfPlayGameSolo plays complete solo games against Henri.
func BenchmarkSelfPlayGameSolo(b *testing.B) { benchGames(b, 1) }

// BenchmarkScoreFullBoard scores finished boards from scratch, both seats:
// one board per op.
func BenchmarkScoreFullBoard(b *testing.B) {
	var states []*State
	for i := range 16 {
		m := selfPlay(b, 1+i%2, fmt.Sprintf("bench-score-%d", i), nil, func(*adjudicator.Match) {})
		states = append(states, m.State.(*State))
	}
	i := 0
	for b.Loop() {
		_ = states[i%len(states)].Scores()
		i++
	}
}

// BenchmarkHenriTurn plays one turn of Henri's: his steps chosen, then
// applied, from positions right after the player's turn: one turn per op.
func BenchmarkHenriTurn(b *testing.B) {
	var states []*State
	for i := 0; len(states) < 64; i++ {
		st := newState(b, []string{"alice"}, fmt.Sprintf("bench-henri-%d", i), nil)
		rng := adjudicator.NewRNG(fmt.Sprintf("bench-henri-%d", i))
		for steps := rng.IntN(150); steps > 0 && !st.over; steps-- {
			p := st.ToMove()[0]
			legal := st.Legal(p)
			if err := st.Apply(p, legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
		if !st.over && st.turn == 1 {
			states = append(states, st)
		}
	}
	i := 0
	for b.Loop() {
		st := states[i%len(states)].clone()
		steps, err := st.AutoSteps(Henri)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range steps {
			if err := st.Apply(Henri, s.Move); err != nil {
				b.Fatal(err)
			}
		}
		i++
	}
}

// BenchmarkLegal lists the legal steps of the player to move in games in
// progress: one list per op.
func BenchmarkLegal(b *testing.B) {
	var states []*State
	for i := 0; len(states) < 64; i++ {
		if st := randomState(b, 1+i%2, fmt.Sprintf("bench-legal-%d", i)); !st.over {
			states = append(states, st)
		}
	}
	i := 0
	for b.Loop() {
		st := states[i%len(states)]
		_ = st.Legal(st.ToMove()[0])
		i++
	}
}

// BenchmarkText renders the board as the player to move sees it: the text
// of every mail herald sends.
func BenchmarkText(b *testing.B) {
	var states []*State
	for i := 0; len(states) < 64; i++ {
		if st := randomState(b, 1+i%2, fmt.Sprintf("bench-text-%d", i)); !st.over {
			states = append(states, st)
		}
	}
	i := 0
	for b.Loop() {
		st := states[i%len(states)]
		_ = st.Text(st.ToMove()[0])
		i++
	}
}
