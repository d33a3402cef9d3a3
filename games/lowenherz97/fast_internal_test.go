package lowenherz97

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
)

// TestFastChecks holds the checks Legal makes without building an error
// (placeFail, allianceFail, annexFail, payOK) to the checks that build
// the error a player gets (checkPlace, checkAlliance, checkAnnex,
// checkPay): over random games, at every step of the setup on every
// placement, and every 7th step on every pair of regions for an
// alliance, every square a region might annex and every payment, both
// say yes or both no; and at every step the walls appendWallSteps lists
// are those edgeFail passes.
func TestFastChecks(t *testing.T) {
	names := []string{"gold", "purple", "rose", "blue"}
	checked := map[string]int{}
	for i := range 12 {
		n := 2 + i%3
		seed := fmt.Sprintf("fast-%d", i)
		st0, err := newGame(adjudicator.Setup{Players: names[:n], Options: adjudicator.Options{"setup": "basic", "map": ""}, RNG: adjudicator.NewRNG(seed)})
		if err != nil {
			t.Fatal(err)
		}
		st := st0.(*State)
		rng := adjudicator.NewRNG("walk\x00" + seed)
		for step := 0; len(st.ToMove()) > 0; step++ {
			for c := range n {
				if st.phase != phasePlace {
					break
				}
				for q := range grid.Square(board.Len()) {
					var nb [4]grid.Square
					for _, k := range append(board.Neighbours(nb[:0], q), q, (q+7)%grid.Square(board.Len())) {
						m := Place{Castle: q, Knight: k}
						fail, _ := st.placeFail(c, m)
						if ok := st.checkPlace(c, m) == nil; ok != (fail == placeOK) {
							t.Fatalf("%s step %d: colour %d, %s: checkPlace passes %v, placeFail %d", seed, step, c, m, ok, fail)
						}
						checked["place"]++
					}
				}
			}
			var walls []adjudicator.Move
			for i, e := range allEdges {
				if st.edgeFail(e) == wallOK {
					walls = append(walls, steps.wall[i])
				}
			}
			if got := st.appendWallSteps(nil); !slices.Equal(got, walls) {
				t.Fatalf("%s step %d: appendWallSteps lists %v, edgeFail passes %v", seed, step, got, walls)
			}
			checked["walls"]++
			if step%7 == 0 {
				for p := range n {
					for _, a := range st.regionCastles() {
						for _, b := range st.regionCastles() {
							m := AllianceMove{Mine: a, Theirs: b}
							if ok := st.checkAlliance(p, m) == nil; ok != (st.allianceFail(p, m) == allyOK) {
								t.Fatalf("%s step %d: %s for %d: checkAlliance passes %v, allianceFail %d", seed, step, m, p, ok, st.allianceFail(p, m))
							}
							checked["alliance"]++
						}
					}
					for _, from := range st.regionCastles() {
						for q := range grid.Square(board.Len()) {
							fail, _ := st.annexFail(p, from, q)
							if ok := st.checkAnnex(p, from, q) == nil; ok != (fail == annexOK) {
								t.Fatalf("%s step %d: %d's region at %s annexing %s: checkAnnex passes %v, annexFail %d", seed, step, p, board.Name(from), board.Name(q), ok, fail)
							}
							checked["annex"]++
						}
					}
					for cost := range 12 {
						for tv := range 7 {
							if ok := st.checkPay(p, cost, tv, ruleBreak) == nil; ok != st.payOK(p, cost, tv) {
								t.Fatalf("%s step %d: %d pays %d with treasure %d: checkPay passes %v, payOK %v", seed, step, p, cost, tv, ok, !ok)
							}
							checked["pay"]++
						}
					}
				}
			}
			to := st.ToMove()
			pname := to[rng.IntN(len(to))]
			legal := st.Legal(pname)
			if err := st.Apply(pname, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatalf("%s step %d: %v", seed, step, err)
			}
		}
	}
	t.Logf("checked %v", checked)
}

// TestBidSteps holds the bids made once (steps.bid) to the bids Legal
// made for itself: for every set of treasures, largest first, and every
// sum of ducats, the same bid; a set with a treasure of another value or
// one treasure twice has no row (bidSet), and Legal makes its bids.
func TestBidSteps(t *testing.T) {
	for mask := range 1 << len(treasureValues) {
		var sub [4]uint8
		k := 0
		for i := len(treasureValues) - 1; i >= 0; i-- {
			if mask&(1<<i) != 0 {
				sub[k] = treasureValues[i]
				k++
			}
		}
		set, ok := bidSet(sub)
		if !ok || set != mask {
			t.Fatalf("bidSet(%v) = %d, %v; want %d, true", sub, set, ok, mask)
		}
		for n := 0; n <= totalMoney; n++ {
			b, ok := steps.bid[set][n].(*Bid)
			if !ok || *b != (Bid{Ducats: n, Treasures: sub}) {
				t.Fatalf("steps.bid[%d][%d] is %#v, want the bid of %d ducats and %v", set, n, steps.bid[set][n], n, sub)
			}
		}
	}
	for _, sub := range [][4]uint8{{5, 5}, {9}, {8, 4}} {
		if _, ok := bidSet(sub); ok {
			t.Errorf("bidSet(%v) found a row", sub)
		}
	}
}

// TestStepNames holds the notation made once for the search (stepNames,
// cardNames) to the notation made anew: walls and placements from every
// square to each neighbour, and across the board's edges, knights and
// extensions on every square, every action card.
func TestStepNames(t *testing.T) {
	n := grid.Square(width * height)
	for a := grid.Square(-1); a <= n; a++ {
		for _, b := range []grid.Square{a - width, a - 1, a + 1, a + width, a + 2, a} {
			if b < -1 || b > n {
				continue
			}
			w := Wall{Edge: grid.Edge{A: a, B: b}}
			if got, want := w.String(), w.name(); got != want {
				t.Errorf("wall %d %d: %q, want %q", a, b, got, want)
			}
			p := Place{Castle: a, Knight: b}
			if got, want := p.String(), p.name(); got != want {
				t.Errorf("castle %d knight %d: %q, want %q", a, b, got, want)
			}
		}
		if a < 0 || a >= n {
			continue
		}
		for _, v := range []int{0, 5} {
			if got, want := (Knight{Square: a, Treasure: v}).String(), "knight "+board.Name(a)+treasureSuffix(v); got != want {
				t.Errorf("knight %d treasure %d: %q, want %q", a, v, got, want)
			}
		}
		if got, want := (Extend{Square: a}).String(), "extend "+board.Name(a); got != want {
			t.Errorf("extend %d: %q, want %q", a, got, want)
		}
	}
	for _, c := range append(slices.Clone(actionCards), Card{Letter: 'Z', Special: silberfund}) {
		if got, want := c.name(), c.String(); got != want {
			t.Errorf("card %#v: %q, want %q", c, got, want)
		}
	}
}
