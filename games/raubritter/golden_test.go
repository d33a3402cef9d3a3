package raubritter_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"gopkg.in/yaml.v3"
)

// goldenStates are the states whose boards are pinned: the setup, games in
// progress with 2, 3 and 4 players (one with a castle waiting for its
// knights), and a finished game.
func goldenStates(t *testing.T) map[string]adjudicator.State {
	t.Helper()
	out := map[string]adjudicator.State{}

	out["setup-2p"] = kit.NewState(t, colours[:2], "golden-setup", nil)

	kept := kit.NewState(t, colours[:3], "golden-kept", nil)
	gametest.Play(t, kept, "red", "keep forest village")
	out["setup-kept-3p"] = kept

	mid2 := kit.NewState(t, colours[:2], "golden-mid2", nil)
	gametest.Walk(t, mid2, adjudicator.NewRNG("golden-mid2"), 30)
	out["mid-2p"] = mid2

	mid3 := kit.NewState(t, colours[:3], "golden-mid3", map[string]string{"setup": "random"})
	rng := adjudicator.NewRNG("golden-mid3")
	gametest.Walk(t, mid3, rng, 60)
	for board(t, mid3).Castle == "" {
		if gametest.Walk(t, mid3, rng, 1) == 0 {
			t.Fatal("golden-mid3 ended before a castle waited for knights")
		}
	}
	out["mid-3p-castle"] = mid3

	mid4 := kit.NewState(t, colours, "golden-mid4", map[string]string{"setup": "random"})
	gametest.Walk(t, mid4, adjudicator.NewRNG("golden-mid4"), 60)
	out["mid-4p"] = mid4
	for name, st := range map[string]adjudicator.State{"mid-2p": mid2, "mid-3p-castle": mid3, "mid-4p": mid4} {
		if st.Result().Finished || board(t, st).Phase != "play" {
			t.Fatalf("%s is not a game in progress", name)
		}
	}

	over := kit.NewState(t, colours[:2], "golden-over", nil)
	gametest.Walk(t, over, adjudicator.NewRNG("golden-over"), 1000)
	if !over.Result().Finished {
		t.Fatal("golden-over did not finish")
	}
	out["over-2p"] = over
	return out
}

// TestGoldenBoards compares Text("") and Text("red") with the files in
// testdata/golden; go test -run TestGoldenBoards -update rewrites them.
func TestGoldenBoards(t *testing.T) { gametest.GoldenBoards(t, goldenStates(t), "red") }

// TestTextWidth checks that every line of every board fits in 72 columns,
// for every step of many 4-player games, public and private views, with
// short names, names as long as the status lines are laid out for (12
// characters), and the longest names herald accepts (64).
func TestTextWidth(t *testing.T) { kit.TextWidth(t, 30, func(int) int { return 4 }) }

// TestHandsPrivate checks that hands stay private: the public board (Text
// and Board) is the same whatever the hands hold, and a player's view shows
// their own hand, from Private, and nothing of another's.
func TestHandsPrivate(t *testing.T) {
	seeds := 30
	if testing.Short() {
		seeds = 6
	}
	checked := 0
	for n := 2; n <= 4; n++ {
		players := colours[:n]
		for i := range seeds {
			seed := fmt.Sprintf("private-%d-%d", n, i)
			st := randomState(t, n, seed)
			public, pubBoard := st.Text(""), boardJSON(t, st)
			if strings.Contains(public, "'s hand") || strings.Contains(public, "'s stack") || strings.Contains(pubBoard, `"hand"`) {
				t.Fatalf("%s: the public view shows a hand:\n%s\n%s", seed, public, pubBoard)
			}
			for _, p := range players {
				view := st.Text(p)
				hand := private(t, st, p).Hand
				want := p + "'s hand: " + strings.Join(hand, ", ") + "\n"
				if len(hand) == 0 {
					want = p + "'s hand: empty\n"
				}
				if !strings.Contains(view, want) {
					t.Fatalf("%s: %s's view lacks %q:\n%s", seed, p, want, view)
				}
				for _, q := range players {
					if q != p && strings.Contains(view, q+"'s ") {
						t.Fatalf("%s: %s's view shows %s's private view:\n%s", seed, p, q, view)
					}
				}
			}
			// Give blue another hand (swapped with its stack): nothing public
			// nor red's view may change.
			other, ok := swapHand(t, st, players, "blue")
			if !ok {
				continue
			}
			checked++
			if got := other.Text(""); got != public {
				t.Fatalf("%s: the public board depends on blue's hand:\n%s\n---\n%s", seed, public, got)
			}
			if got := boardJSON(t, other); got != pubBoard {
				t.Fatalf("%s: Board() depends on blue's hand:\n%s\n---\n%s", seed, pubBoard, got)
			}
			if got := other.Text("red"); got != st.Text("red") {
				t.Fatalf("%s: red's view depends on blue's hand:\n%s\n---\n%s", seed, st.Text("red"), got)
			}
			if other.Text("blue") == st.Text("blue") {
				t.Fatalf("%s: blue's view does not show blue's hand", seed)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no state had a hand to swap")
	}
}

func boardJSON(t *testing.T, st adjudicator.State) string {
	t.Helper()
	data, err := json.Marshal(st.Board())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// swapHand returns st with player's first tile in hand swapped with the
// first different tile of their stack that the tile's back letter allows,
// through the position format.
func swapHand(t *testing.T, st adjudicator.State, players []string, player string) (adjudicator.State, bool) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(kit.PositionBytes(t, st), &doc); err != nil {
		t.Fatal(err)
	}
	pl := lookup(lookup(doc.Content[0], "players"), player)
	hand, stack := lookup(pl, "hand"), lookup(pl, "stack")
	if hand == nil || stack == nil || len(hand.Content) == 0 || lookup(pl, "kept") != nil {
		return nil, false
	}
	h := hand.Content[0]
	for _, s := range stack.Content {
		letter, kind, _ := strings.Cut(s.Value, " ")
		if kind == h.Value {
			continue
		}
		was := [2]string{h.Value, s.Value}
		h.Value, s.Value = kind, letter+" "+h.Value
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		if err := enc.Encode(&doc); err != nil {
			t.Fatal(err)
		}
		// A tile whose letter holds no such kind is refused: try the next.
		if other, err := kit.LoadPosition(players, b.String()); err == nil {
			return other, true
		}
		h.Value, s.Value = was[0], was[1]
	}
	return nil, false
}

// lookup returns the value of key in the mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// TestPrivateText checks the contract of adjudicator.PrivateTexter over
// games in every phase and player count: Text(p) is Text("") followed by
// PrivateText(p), which names p, so that a mail service may render the
// shared board once for every player.
func TestPrivateText(t *testing.T) {
	for i := range 60 {
		n := 2 + i%3
		st := randomState(t, n, fmt.Sprintf("private-%d", i))
		pt := st.(adjudicator.PrivateTexter)
		players := colours[:n]
		texts := adjudicator.Texts(st, players)
		for j, p := range players {
			want := st.Text(p)
			if got := st.Text("") + pt.PrivateText(p); got != want || texts[j] != want {
				t.Fatalf("state %d, %s: Text(p) is not Text(\"\")+PrivateText(p)\nText(p):\n%s\nTexts:\n%s", i, p, want, texts[j])
			}
			if !strings.Contains(pt.PrivateText(p), p+"'s hand") {
				t.Fatalf("state %d: PrivateText(%s) does not show their hand:\n%s", i, p, pt.PrivateText(p))
			}
		}
		if pt.PrivateText("nobody") != "" {
			t.Fatalf("state %d: PrivateText of a non-player = %q", i, pt.PrivateText("nobody"))
		}
	}
}
