package heritiers

import (
	"errors"
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

const goodPos = `turn: alice
sets: [voyage, agriculture, commerce]
reserve: [auberge-1, marché-1, moulin-1, mine-1, ferme-1, scierie-1]
board:
  m13: étable-1 open / alice* bob*
`

const henriTokens = `players:
  henri:
    treasures: [v-green, v-grey, v-yellow, v-any, h-green, h-grey, h-yellow, h-any]
    aside: [d-nw-se, d-ne-sw]
`

// TestPositionErrors checks that a faulty position is refused with the
// line and column of the fault and what would be right.
func TestPositionErrors(t *testing.T) {
	cases := []struct {
		solo      bool
		doc, want string
	}{
		{false, "- a list", "1:1: a Deux Héritiers position is a mapping"},
		{false, goodPos + "turns: bob\n", `6:1: unknown key "turns" in the position; did you mean "turn"?`},
		{false, strings.Replace(goodPos, "sets: [voyage, agriculture, commerce]\n", "", 1), "the position needs sets"},
		{false, strings.Replace(goodPos, "[voyage, agriculture, commerce]", "[voyage, agriculture]", 1), "2:7: sets: name 3 sets, not 2"},
		{false, strings.Replace(goodPos, "[voyage, agriculture, commerce]", "[voyage, agri, chess]", 1), `2:7: sets: "chess" is not a set`},
		{false, strings.Replace(goodPos, "mine-1, ferme-1", "mine-1", 1), "3:10: reserve: expected 6 places clockwise from the shield, not 5"},
		{false, strings.Replace(goodPos, "auberge-1,", "guet-1,", 1), "3:11: reserve: guet-1 is in the set patrouille, not in play"},
		{false, strings.Replace(goodPos, "auberge-1,", "auberge-9,", 1), `3:11: reserve: "auberge-9" is not a tile id`},
		{false, goodPos + "  l13: moulin-1 alice\n", "6:8: board: moulin-1 is already on line 3"},
		{false, goodPos + "  l13: forge-1 carol\n", `6:8: board: l13: owner "carol" is not a player`},
		{false, goodPos + "  z13: forge-1 alice\n", `6:3: board: "z13" is not a square`},
		{false, goodPos + "  l13: forge-1 alice / alice bob\n", "6:8: board: l13: one troop per tile"},
		{false, goodPos + "  l13: forge-1 alice / alice*\n", "6:8: board: l13: alice* has no more such troops"},
		{false, strings.Replace(goodPos, "alice* bob*", "bob*", 1), "alice's cavalry is not on the board"},
		{false, strings.Replace(goodPos, "m13:", "m12:", 1), "the board needs the start tile on m13"},
		{false, goodPos + "players:\n  alice:\n    hand: [forge-1, chalet-1, auberge-2, auberge-3]\n", "8:11: alice's hand: 4 tiles; a hand holds at most 3"},
		{false, goodPos + "players:\n  alice:\n    reserve: 1\n", "8:14: alice's reserve: 1, but 2 of their 2 troops are not on the board"},
		{false, goodPos + "players:\n  alice:\n    moved: [l13]\n", `8:13: alice's moved: no troop of alice's on "l13"`},
		{false, goodPos + "players:\n  carol: {}\n", `7:3: players: "carol" is not a player`},
		{false, goodPos + "taken: maybe\n", "6:8: taken: expected true or false"},
		{false, goodPos + "last: 5\n", "6:7: last: expected a whole number from -1 to 2"},
		{false, goodPos + "removed: [forge-1]\n", "6:10: removed: only Henri discards tiles"},
		{true, strings.Replace(goodPos, " bob*", "", 1), "a solo position needs players: henri"},
		{true, strings.Replace(goodPos, " bob*", "", 1) + "players:\n  henri:\n    treasures: [v-green]\n", "Henri's treasure token v-grey is listed 0 times"},
		{true, strings.Replace(goodPos, " bob*", "", 1) + "players:\n  henri:\n    treasures: [v-gren]\n", `8:17: Henri's treasures: "v-gren" is not a treasure token`},
		{true, strings.Replace(strings.Replace(goodPos, " bob*", "", 1), "turn: alice", "turn: henri", 1) + henriTokens, "1:7: turn: Henri never waits to move"},
	}
	for _, c := range cases {
		players := []string{"alice", "bob"}
		if c.solo {
			players = players[:1]
		}
		_, err := load(players, c.doc, nil)
		var ne *notation.Error
		if !errors.As(err, &ne) {
			t.Errorf("%q: %v, want a notation error", c.want, err)
			continue
		}
		if !strings.Contains(ne.Error(), c.want) {
			t.Errorf("got  %v\nwant %s", ne, c.want)
		}
	}
}

// TestPositionRoundTrip checks that a position written, read and written
// again gives the same bytes, and that a referee's short position fills
// in its defaults: the stack holds the tiles named nowhere.
func TestPositionRoundTrip(t *testing.T) {
	st := mustLoad(t, []string{"alice", "bob"}, goodPos)
	if len(st.stack) != 27-7 {
		t.Errorf("stack holds %d tiles, want 20", len(st.stack))
	}
	a := positionBytes(t, st)
	back := mustLoad(t, []string{"alice", "bob"}, string(a))
	if b := positionBytes(t, back); string(a) != string(b) {
		t.Errorf("round trip differs:\n%s\n---\n%s", a, b)
	}
}
