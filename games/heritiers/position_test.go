package heritiers

import (
	"errors"
	"slices"
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
		{false, goodPos + "  l13: forge-1 alice / alice*\n", "6:8: board: l13: alice* is already on the board"},
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
	}
	cases = append(cases, namedFieldErrors...)
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

// soloPos is goodPos for the solo game.
var soloPos = strings.Replace(goodPos, " bob*", "", 1) + henriTokens

// namedFieldErrors are the faults in the fields of issue 27: who started,
// where the start tile lies, the troops by name, the troops moved, the
// discounts, Henri's troops beside the board and Henri's turn.
var namedFieldErrors = []struct {
	solo      bool
	doc, want string
}{
	{false, goodPos + "first: carol\n", `6:8: first: "carol" is not a player of this game (players: alice, bob)`},
	{true, soloPos + "first: henri\n", "10:8: first: the player starts the solo game, never Henri (deux-heritiers-fr.txt:474); write first: alice"},
	{false, goodPos + "start: z30\n", `6:8: start: "z30" is not a square: a column letter and a row number, a1 to y25`},
	{false, goodPos + "start: c3\n", "6:8: start: the board has no tile on c3; the start tile lies there"},
	{false, strings.Replace(goodPos, "m13:", "m12:", 1), "1:1: the board needs the start tile on m13 (or start: names the square where it lies)"},
	{false, strings.Replace(goodPos, "m13:", "c3:", 1) + "start: m13\n", "6:8: start: the board has no tile on m13"},
	{false, strings.Replace(goodPos, "étable-1 open", "étable-1 alice", 1), `5:8: board: m13: the start tile lies face down, nobody's (deux-heritiers-fr.txt:112): write "étable-1 open"`},
	{false, goodPos + "  l13: forge-1 alice / alice-3\n", `6:8: board: l13: troop "alice-3": write a player's name, with * for their cavalry, -1 or -2 for their other troops`},
	{false, goodPos + "  l13: forge-1 alice / alice-1\n  l14: chalet-1 alice / alice-1\n", "7:8: board: l14: alice-1 is already on the board"},
	{false, goodPos + "  l13: forge-1 alice / alice-1\n  l14: chalet-1 alice / alice\n  l12: auberge-2 alice / alice\n",
		"8:8: board: l12: alice has no more troops on the board: a cavalry (alice*) and 2 troops (alice-1, alice-2)"},
	{true, strings.Replace(soloPos, "players:", "  l13: forge-1 alice / henri-blue\nplayers:", 1), `6:8: board: l13: troop "henri-blue": write a player's name, with * for their cavalry, -1 or -2 for their other troops, or henri-green, henri-grey, henri-yellow`},
	{false, goodPos + "players:\n  alice:\n    moved: [alice-2, alice-2]\n", "8:22: alice's moved: alice-2 is given twice"},
	{false, goodPos + "players:\n  alice:\n    moved: [alice]\n", `8:13: alice's moved: "alice" is not one of alice's troops: write alice*, alice-1 or alice-2, the square where it stands, or reserve`},
	{false, goodPos + "players:\n  alice:\n    moved: [bob-1]\n", `8:13: alice's moved: "bob-1" is not one of alice's troops`},
	{false, goodPos + "players:\n  alice:\n    moved: [reserve, reserve, reserve]\n", "8:31: alice's moved: no more troops of alice's in the royal reserve"},
	{false, goodPos + "discounts: -1\n", "6:12: discounts: expected a whole number from 0 to 54"},
	{false, goodPos + "discounts: 1\n", "6:12: discounts: 1, but the board holds 0 open terrains besides the start tile; each discount is an open terrain laid this turn (deux-heritiers-fr.txt:136)"},
	{false, goodPos + "  l13: forge-1 open\ndiscounts: 2\n", "7:12: discounts: 2, but the board holds 1 open terrain besides the start tile"},
	{true, soloPos + "    beside: [henri-blue]\n", `10:14: Henri's beside: "henri-blue" is not one of Henri's troops (henri-green, henri-grey, henri-yellow)`},
	{true, soloPos + "    beside: [henri-grey, henri-grey]\n", "10:26: Henri's beside: henri-grey is given twice"},
	{true, soloPos + "    beside: [henri-green]\n", "10:13: Henri's beside: henri-grey is not on the board, so it is beside it: list it too"},
	{true, strings.Replace(soloPos, "players:", "  l13: forge-1 henri / henri-green $d-nw-se\nplayers:", 1) + "    beside: [henri-green, henri-grey, henri-yellow]\n",
		"11:14: Henri's beside: henri-green stands on l13; his troops beside the board are those it does not hold"},
	{true, strings.Replace(soloPos, "turn: alice", "turn: henri", 1) + "taken: true\n", "1:7: turn: henri: the position stops as alice's turn ends, so taken has nothing of it: leave it out"},
	{true, strings.Replace(soloPos, "turn: alice", "turn: henri", 1) + "  alice:\n    moved: [alice*]\n", "1:7: turn: henri: the position stops as alice's turn ends, so moved has nothing of it"},
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

// TestPositionNamedFields checks the fields of issue 27 read and written
// back: who started, the start tile elsewhere, troops by name (a troop
// written by its owner alone takes the first one named nowhere else), the
// troops moved, Henri's troops beside the board; and that a position at
// Henri's turn is read with his turn played.
func TestPositionNamedFields(t *testing.T) {
	const duo = `turn: alice
first: bob
sets: [voyage, agriculture, commerce]
reserve: [auberge-1, marché-1, moulin-1, mine-1, ferme-1, scierie-1]
start: c3
board:
  c3: étable-1 open / alice* bob*
  c4: forge-1 open / alice
  d4: chalet-1 open / alice-1
players:
  alice:
    moved: [alice-2, c3]
`
	const solo = `turn: alice
sets: [voyage, agriculture, commerce]
reserve: [auberge-1, marché-1, moulin-1, mine-1, ferme-1, scierie-1]
board:
  m13: étable-1 open / alice*
  m12: forge-1 henri / henri-green
players:
  henri:
    treasures: [v-green, v-grey, v-yellow, v-any, h-green, h-grey, h-yellow, h-any]
    aside: [d-nw-se, d-ne-sw]
    beside: [henri-yellow, henri-grey]
`
	for _, c := range []struct {
		players []string
		doc     string
		want    []string // lines the position written holds
	}{
		{[]string{"alice", "bob"}, duo, []string{"first: bob", "start: c3", "  c3: étable-1 open / alice* bob*", "  c4: forge-1 open / alice-2",
			"  d4: chalet-1 open / alice-1", "    moved: [alice*, alice-2]"}},
		{[]string{"alice"}, solo, []string{"first: alice", "start: m13", "  m12: forge-1 henri / henri-green", "    beside: [henri-grey, henri-yellow]"}},
		// A solo player whose name begins as Henri's troops do.
		{[]string{"henri-x"}, strings.NewReplacer("alice*", "henri-x*", "turn: alice", "turn: henri-x", "  m12: forge-1 henri / henri-green\n",
			"  m12: forge-1 henri / henri-green\n  l12: chalet-1 open / henri-x-2\n").Replace(solo),
			[]string{"  m13: étable-1 open / henri-x*", "  l12: chalet-1 open / henri-x-2", "  m12: forge-1 henri / henri-green"}},
		{[]string{"alice"}, strings.Replace(solo, "turn: alice", "turn: henri", 1), []string{"turn: alice", "taken: false",
			"  m12: forge-1 henri", "  n12: scierie-1 henri / henri-green $v-green", "    beside: [henri-grey, henri-yellow]"}},
	} {
		st := mustLoad(t, c.players, c.doc)
		a := positionBytes(t, st)
		for _, w := range c.want {
			if !slices.Contains(strings.Split(string(a), "\n"), w) {
				t.Errorf("position lacks %q:\n%s", w, a)
			}
		}
		back := mustLoad(t, c.players, string(a))
		if b := positionBytes(t, back); string(a) != string(b) {
			t.Errorf("round trip differs:\n%s\n---\n%s", a, b)
		}
	}
}
