package mail

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/heritiers"
)

// checkHenri checks that a solo game's record holds Henri's moves, played
// by the game, and none in a 2-player game. (TestEmbeddedGames plays both
// modes on the embedded servers.)
func checkHenri(t *testing.T, res *DemoResult, players int) {
	t.Helper()
	henri := 0
	for _, mv := range res.Record.Moves {
		if mv.Player == heritiers.Henri {
			henri++
			if mv.Source != adjudicator.AutomatonSource {
				t.Errorf("Henri's move %q has source %q, want %q", mv.Text, mv.Source, adjudicator.AutomatonSource)
			}
		}
	}
	if (henri > 0) != (players == 1) {
		t.Errorf("%d moves of Henri's in a %d-player game", henri, players)
	}
	if players != 1 {
		return
	}
	// The player's mails say what Henri did and which of his rules chose
	// each step (issue 17).
	told := 0
	for _, ms := range res.Mails {
		for _, m := range ms {
			if strings.Contains(m, "henri (played by the game) played move") && strings.Contains(m, "  (rule ") {
				told++
			}
		}
	}
	if told == 0 {
		t.Errorf("no mail says what Henri played and why")
	}
}
