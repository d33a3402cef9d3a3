package games_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
)

// TestResultInFrench: the sentence that says who won, in every game and
// for every player count, has its French (Result.SummaryFR), which a
// French reader's board ends with after "partie finie :" and their picture
// gives as its status, with no English word
// of the English sentence left; in English SummaryIn is Summary.
func TestResultInFrench(t *testing.T) {
	english := []string{"wins", "win", "beats", "with", "to", "and", "the", "draw", "tie", "breaking", "left",
		"share", "victory", "after", "last", "card", "on", "reaching", "king", "marker", "at", "is", "dead", "long",
		"live", "power", "most", "each", "crown", "player", "must", "do", "better", "than", "in", "royal", "reserve",
		"troop", "troops", "knight", "knights"}
	for _, g := range games.All.Games() {
		for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
			for seed := range 3 {
				m, err := adjudicator.SelfPlay(g, games.All, n, fmt.Sprint("result-fr-", seed), nil, func() string { return "" })
				if err != nil {
					t.Fatal(err)
				}
				res := m.State.Result()
				what := fmt.Sprintf("%s %dp seed %d", g.Name, n, seed)
				if !res.Finished {
					t.Fatalf("%s: self-play did not finish", what)
				}
				if res.SummaryIn(notation.English) != res.Summary {
					t.Errorf("%s: SummaryIn(English) is %q, not %q", what, res.SummaryIn(notation.English), res.Summary)
				}
				fr := res.SummaryIn(notation.French)
				if res.SummaryFR == "" || fr != res.SummaryFR {
					t.Errorf("%s: no French for %q", what, res.Summary)
				}
				if left := gametest.EnglishLeft(fr, english...); left != nil {
					t.Errorf("%s: the French result %q holds %q", what, fr, left)
				}
				// the board wraps its lines at 72 columns
				words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
				if board := adjudicator.TextIn(m.State, "", notation.French); !strings.HasSuffix(words(board), words("partie finie : "+fr)) {
					t.Errorf("%s: the French board does not end with %q:\n%s", what, fr, board)
				}
				if pic, err := adjudicator.PictureAtIn(m, len(m.Record.Moves), "", notation.French); err != nil || pic.Status != "finie : "+fr {
					t.Errorf("%s: the French picture's status is %q (%v), want %q", what, pic.Status, err, "finie : "+fr)
				}
			}
		}
	}
}
