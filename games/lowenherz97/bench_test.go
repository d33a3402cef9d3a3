package lowenherz97_test

import (
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/lowenherz97"
)

// BenchmarkSelfPlayGame plays complete 4-player games with
// adjudicator.SelfPlay, each submission printed and parsed back: one game
// per op. The target is 1,000 games a second per core.
func BenchmarkSelfPlayGame(b *testing.B) {
	clock := func() string { return "" }
	i := 0
	for b.Loop() {
		if _, err := adjudicator.SelfPlay(lowenherz97.Game, reg, 4, fmt.Sprintf("bench-%d", i), nil, clock); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkLegalApply lists the legal steps of a player to move in a game
// in progress and applies one of them: one step per op.
func BenchmarkLegalApply(b *testing.B) {
	var states []adjudicator.State
	for i := 0; len(states) < 64; i++ {
		st := randomState(b, 2+i%3, fmt.Sprintf("bench-%d", i))
		if len(st.ToMove()) > 0 {
			states = append(states, st)
		}
	}
	i := 0
	for b.Loop() {
		st := states[i%len(states)].Clone()
		p := st.ToMove()[0]
		legal := st.Legal(p)
		if err := st.Apply(p, legal[i%len(legal)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkText renders the board of a game in progress as one player
// sees it: one board per op.
func BenchmarkText(b *testing.B) {
	var states []adjudicator.State
	for i := 0; len(states) < 64; i++ {
		if st := randomState(b, 2+i%3, fmt.Sprintf("bench-%d", i)); len(st.ToMove()) > 0 {
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
