package lowenherz97_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// goldenStates are the states whose boards are pinned: the basic start
// with 3 and 4 players, the 2-player placement, games in progress, a
// confrontation with a bid in, and a finished game.
func goldenStates(t *testing.T) map[string]adjudicator.State {
	t.Helper()
	out := map[string]adjudicator.State{}
	out["start-4p"] = kit.NewState(t, colours, "golden-start", nil)
	out["start-3p"] = kit.NewState(t, colours[:3], "golden-start", nil)
	place := kit.NewState(t, colours[:2], "golden-place", nil)
	gametest.Play(t, place, "gold", "castle a1 knight a2")
	out["place-2p"] = place
	mid := kit.NewState(t, colours, "golden-mid4", nil)
	gametest.Walk(t, mid, adjudicator.NewRNG("golden-mid4"), 120)
	out["mid-4p"] = mid
	adv := kit.NewState(t, colours[:3], "golden-adv", map[string]string{"setup": "advanced"})
	gametest.Walk(t, adv, adjudicator.NewRNG("golden-adv"), 200)
	out["mid-3p-advanced"] = adv
	if b := bidState(t, 4, "golden-bid"); b != nil {
		out["bid-4p"] = b
	} else {
		t.Fatal("golden-bid reached no confrontation")
	}
	over := kit.NewState(t, colours[:2], "golden-over", nil)
	gametest.Walk(t, over, adjudicator.NewRNG("golden-over"), 100000)
	if !over.Result().Finished {
		t.Fatal("golden-over did not finish")
	}
	out["over-2p"] = over
	return out
}

// TestGoldenBoards compares Text("") and Text("gold") with the files in
// testdata/golden; go test -run TestGoldenBoards -update rewrites them.
func TestGoldenBoards(t *testing.T) { gametest.GoldenBoards(t, goldenStates(t), "gold") }

// TestTextWidth checks that every line of every board fits in 72 columns,
// for every step of games with short names, 12-character names and the
// longest names herald accepts (64).
func TestTextWidth(t *testing.T) { kit.TextWidth(t, 12, func(i int) int { return 2 + i%3 }) }

// TestPrivateText checks the contract of adjudicator.PrivateTexter: Text(p)
// is Text("") followed by PrivateText(p), which shows p's ducats.
func TestPrivateText(t *testing.T) {
	for i := range 45 {
		n := 2 + i%3
		st := randomState(t, n, fmt.Sprintf("private-%d", i))
		pt := st.(adjudicator.PrivateTexter)
		players := colours[:n]
		texts := adjudicator.Texts(st, players)
		for j, p := range players {
			want := st.Text(p)
			if got := st.Text("") + pt.PrivateText(p); got != want || texts[j] != want {
				t.Fatalf("state %d, %s: Text(p) is not Text(\"\")+PrivateText(p)", i, p)
			}
			if !strings.Contains(pt.PrivateText(p), fmt.Sprintf("%s's ducats: %d\n", p, private(t, st, p).Ducats)) {
				t.Fatalf("state %d: PrivateText(%s) does not show their ducats:\n%s", i, p, pt.PrivateText(p))
			}
		}
		if pt.PrivateText("nobody") != "" {
			t.Fatalf("state %d: PrivateText of a non-player = %q", i, pt.PrivateText("nobody"))
		}
	}
}
