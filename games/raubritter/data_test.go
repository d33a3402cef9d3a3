package raubritter_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/raubritter"
)

// A smaller mix: 13 tiles and 20 knights each.
const smallMix = `knights: 20
letters:
  A: [plain castle, plain, plain village, forest village]
  B: [plain castle, plain town, forest castle, mountains]
  C: [plain castle, lake, plain village, plain town, forest town]
`

// TestTilesOption plays whole games with a data file given in the tiles
// option (DESIGN.md: "a game can be started with a different data file")
// and checks the game used it and that the record replays.
func TestTilesOption(t *testing.T) {
	reg := adjudicator.NewRegistry(raubritter.Game)
	for n := 2; n <= 4; n++ {
		m, err := adjudicator.SelfPlay(raubritter.Game, reg, n, "small", map[string]string{"tiles": smallMix}, func() string { return "" })
		if err != nil {
			t.Fatalf("%d players: %v", n, err)
		}
		if !m.State.Result().Finished {
			t.Fatalf("%d players: not finished", n)
		}
		var board struct {
			Squares map[string]any `json:"squares"`
			Knights map[string]int `json:"knights"`
		}
		data, _ := json.Marshal(m.State.Board())
		json.Unmarshal(data, &board)
		if got := len(board.Squares); got != 13*n {
			t.Errorf("%d players: %d tiles on the board, want %d", n, got, 13*n)
		}
		for p, k := range board.Knights {
			if k > 20 {
				t.Errorf("%d players: %s has %d knights left of 20", n, p, k)
			}
		}
		rep, err := adjudicator.Adjudicate(reg, m.Record)
		if err != nil || rep.Illegal != nil {
			t.Fatalf("%d players: the record does not replay: %v %v", n, err, rep.Illegal)
		}
	}
}

func TestTilesOptionErrors(t *testing.T) {
	reg := adjudicator.NewRegistry(raubritter.Game)
	tests := []struct {
		name, tiles, want string
	}{
		{"no castle in A", "knights: 30\nletters:\n  A: [plain, plain, plain, plain]\n", "letter A must hold 4 tiles with at least one castle"},
		{"unknown tile", "knights: 30\nletters:\n  A: [plain castle, plain, plain, swamp]\n", "swamp"},
		{"unknown key", "knights: 30\ntiles: 3\n", "tiles"},
		{"bad letter", "knights: 30\nletters:\n  F: [plain]\n", "letter \"F\""},
		{"too many tiles", "knights: 30\nletters:\n  A: [plain castle, plain, plain, plain]\n  B: [" + strings.Repeat("plain, ", 20) + "plain]\n", "would fill the 7x7 area"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := adjudicator.NewRecord(raubritter.Game, []string{"red", "blue"}, map[string]string{"tiles": tt.tiles}, "1", nil)
			if err == nil {
				_, err = adjudicator.Start(reg, rec)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("a game with %s: error %v, want one containing %q", tt.name, err, tt.want)
			}
		})
	}
}
