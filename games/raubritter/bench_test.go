package raubritter_test

import (
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// BenchmarkSelfPlayGame plays complete 4-player games with
// adjudicator.SelfPlay, each submission printed and parsed back: one game
// per op.
func BenchmarkSelfPlayGame(b *testing.B) { kit.BenchSelfPlay(b, 4) }

// benchState is the i-th state of the benchmarks: a game of 2 to 4
// players in progress, or over.
func benchState(b *testing.B) func(i int) adjudicator.State {
	return func(i int) adjudicator.State { return randomState(b, 2+i%3, fmt.Sprintf("bench-%d", i)) }
}

// BenchmarkLegalApply lists the legal steps of the player to move in a
// game in progress and applies one of them: one step per op.
func BenchmarkLegalApply(b *testing.B) { gametest.BenchLegalApply(b, benchState(b)) }

// BenchmarkText renders the board of a game in progress as one player
// sees it: one board per op, the text of every mail herald sends.
func BenchmarkText(b *testing.B) { gametest.BenchText(b, benchState(b)) }

// BenchmarkPicture draws the picture's board of a game in progress, as a
// move mail does twice (after the move, and before it to mark what it
// changed): one board per op.
func BenchmarkPicture(b *testing.B) {
	states := make([]adjudicator.State, 16)
	for i := range states {
		states[i] = benchState(b)(i)
	}
	i := 0
	for b.Loop() {
		_ = states[i%len(states)].(adjudicator.Picturer).Picture()
		i++
	}
}
