package lowenherz_test

import (
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/lowenherz"
)

var reg = adjudicator.NewRegistry(lowenherz.Game)

// TestSelfPlayRecords plays whole games through the notation, as
// `herald play` does, 300 seeds per player count, and has `adjudicate`
// accept every record.
func TestSelfPlayRecords(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 5
	}
	for n := 2; n <= 4; n++ {
		for seed := range games {
			m, err := adjudicator.SelfPlay(lowenherz.Game, reg, n, fmt.Sprint(seed), nil, func() string { return "" })
			if err != nil {
				t.Fatalf("%d players seed %d: %v", n, seed, err)
			}
			if !m.State.Result().Finished {
				t.Fatalf("%d players seed %d: not finished", n, seed)
			}
			rep, err := adjudicator.Adjudicate(reg, m.Record)
			if err != nil {
				t.Fatalf("%d players seed %d: adjudicate: %v", n, seed, err)
			}
			if rep.Illegal != nil {
				t.Fatalf("%d players seed %d: adjudicate refused move %v", n, seed, rep.Illegal)
			}
		}
	}
}
