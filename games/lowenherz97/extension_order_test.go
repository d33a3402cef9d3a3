package lowenherz97_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/lowenherz97"
)

// extensionPairs checks, at st, every extension of two squares the player
// to act may make in both orders: c1 then c2, and c2 then c1. Both must
// end in the same position and the same board (RULINGS.md L97-20,
// lowenherz-1997-fr.txt:238-241). It returns the pairs checked.
func extensionPairs(t *testing.T, st adjudicator.State, where string) int {
	t.Helper()
	to := st.ToMove()
	if len(to) != 1 {
		return 0
	}
	p := to[0]
	if strings.Contains(st.Text(""), " annexed to the region of ") {
		return 0 // an extension is under way: its first square is taken
	}
	var firsts []adjudicator.Move
	for _, mv := range st.Legal(p) {
		if _, ok := mv.(lowenherz97.Extend); ok {
			firsts = append(firsts, mv)
		}
	}
	pairs := 0
	for _, m1 := range firsts {
		a := st.Clone()
		if err := a.Apply(p, m1); err != nil {
			t.Fatalf("%s: %s's legal %q refused: %v", where, p, m1, err)
		}
		if !strings.Contains(a.Text(""), "1 square annexed") {
			continue // the extension, and the action, are over
		}
		for _, m2 := range a.Legal(p) {
			e2, ok := m2.(lowenherz97.Extend)
			if !ok || e2.Square <= m1.(lowenherz97.Extend).Square {
				continue // each pair once
			}
			b := st.Clone()
			if b.Apply(p, m2) != nil || b.Apply(p, m1) != nil {
				continue // this order is not an extension (l. 174)
			}
			ab := a.Clone()
			if err := ab.Apply(p, m2); err != nil {
				t.Fatalf("%s: %s's legal %q after %q refused: %v", where, p, m2, m1, err)
			}
			pairs++
			if x, y := kit.PositionBytes(t, ab), kit.PositionBytes(t, b); !bytes.Equal(x, y) {
				t.Fatalf("%s: %s: %q then %q gives\n%s\n%q then %q gives\n%s", where, p, m1, m2, x, m2, m1, y)
			}
			if x, y := boardJSON(t, ab), boardJSON(t, b); x != y {
				t.Fatalf("%s: %s: the board after %q, %q and after %q, %q differ:\n%s\n%s", where, p, m1, m2, m2, m1, x, y)
			}
		}
	}
	return pairs
}

// TestExtensionOrder: the result of an extension does not depend on the
// order of its squares (RULINGS.md L97-20), from the rulebook-like
// positions of the l240 scenarios and at every step of random games where
// the player to act may extend.
func TestExtensionOrder(t *testing.T) {
	// The position of testdata/lowenherz97/l240-extension-whole-a.yaml.
	st := mustLoad(t, []string{"gold", "purple"}, `phase: act
map: ["...............", "...............", "...............", "...............", "...............", "...............", "...............", "...............", "...............", "..............."]
card: B 4d 2w 1s
deck: [B 4d 2w 1s]
decisions: [gold 3, gold 1, purple 2]
tier: 3
action: {actor: gold}
castles: {a1: gold, e1: purple, a10: gold, o10: purple}
knights: {a2: gold}
walls: [b1-c1, b2-c2, b3-c3, b4-c4, b5-c5, a5-a6, b5-b6, c5-c6, c2-d2, c3-d3, c4-d4, c5-d5, d1-d2, e1-e2, e1-f1]
players:
  gold: {score: 5}
  purple: {score: 20}
`)
	if n := extensionPairs(t, st, "l240"); n == 0 {
		t.Fatal("l240: no extension of two squares to check")
	}
	games := 16
	if testing.Short() {
		games = 4
	}
	pairs := 0
	for g := range games {
		seed := fmt.Sprintf("order-%d", g)
		rng := adjudicator.NewRNG("order\x00" + seed)
		st := kit.NewState(t, colours[:2+g%3], seed, map[string]string{"setup": []string{"basic", "advanced"}[g%2]})
		for step := 0; len(st.ToMove()) > 0 && step < 3000; step++ {
			pairs += extensionPairs(t, st, fmt.Sprintf("%s step %d", seed, step))
			gametest.Walk(t, st, rng, 1)
		}
	}
	if pairs == 0 {
		t.Fatal("no extension of two squares in the random games")
	}
	t.Logf("%d extensions checked in both orders", pairs)
}
