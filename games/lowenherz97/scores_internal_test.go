package lowenherz97

import (
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
)

// areaInfo is an area recomputed by the test from the walls alone.
type areaInfo struct {
	squares []grid.Square
	castles []grid.Square
	cities  int
	hills   int
}

// areasOf flood-fills st's board on its own, without State.info.
func areasOf(st *State) (map[grid.Square]int, []areaInfo) {
	label := map[grid.Square]int{}
	var out []areaInfo
	for q := range grid.Square(board.Len()) {
		if _, ok := label[q]; ok {
			continue
		}
		id := len(out)
		a := areaInfo{}
		queue := []grid.Square{q}
		label[q] = id
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			a.squares = append(a.squares, x)
			if st.castle[x] >= 0 {
				a.castles = append(a.castles, x)
			}
			switch st.terrain[x] {
			case City:
				a.cities++
			case Hill:
				a.hills++
			}
			for _, y := range board.Neighbours(nil, x) {
				if _, seen := label[y]; !seen && st.g.Open(x, y) {
					label[y] = id
					queue = append(queue, y)
				}
			}
		}
		out = append(out, a)
	}
	return label, out
}

// table is the scoring table, written out again from the rulebook
// (lowenherz-1997-fr.txt:35-48).
func table(squares, cities int) int {
	for _, row := range []struct{ upTo, points int }{{4, 3}, {10, 5}, {20, 7}, {30, 9}} {
		if squares <= row.upTo {
			return row.points + 5*cities
		}
	}
	return 12 + 5*cities
}

// expectedScores recomputes, from scratch, the scores after mv: the
// regions created (for whoever owns them), the squares annexed and lost,
// the neutral zones cut off, then each Silberfund and the end turned
// after the action.
func expectedScores(before, after *State, player int, mv adjudicator.Move) []int {
	n := len(before.names)
	neg := make([]int, n)
	pos := make([]int, n)
	add := func(c, d int) {
		if c < 0 || c >= n {
			return // the neutral prince has no marker
		}
		if d < 0 {
			neg[c] += d
		} else {
			pos[c] += d
		}
	}
	bl, ba := areasOf(before)
	al, aa := areasOf(after)
	regionBefore := map[grid.Square]bool{}
	for _, a := range ba {
		if len(a.castles) == 1 {
			regionBefore[a.castles[0]] = true
		}
	}
	if ext, ok := mv.(Extend); ok {
		gain := 1
		if before.terrain[ext.Square] == City {
			gain += 5
		}
		add(player, gain)
		if v := ba[bl[ext.Square]]; len(v.castles) == 1 {
			victim := int(before.castle[v.castles[0]])
			add(victim, -gain)
			seen := map[int]bool{}
			for _, q := range v.squares {
				if l := al[q]; q != ext.Square && len(aa[l].castles) == 0 && !seen[l] {
					seen[l] = true
					add(victim, -table(len(aa[l].squares), aa[l].cities))
				}
			}
		}
	}
	for _, a := range aa {
		// Castles placed in the setup score nothing (lowenherz-1997-fr.txt:295-300).
		if len(a.castles) == 1 && !regionBefore[a.castles[0]] && before.phase != phasePlace {
			add(int(after.castle[a.castles[0]]), table(len(a.squares), a.cities))
		}
	}
	want := make([]int, n)
	for p := range n {
		want[p] = max(0, before.score[p]+neg[p]) + pos[p]
	}
	hills := make([]int, n)
	for _, a := range aa {
		if len(a.castles) == 1 {
			if c := int(after.castle[a.castles[0]]); c < n {
				hills[c] += a.hills
			}
		}
	}
	for _, c := range before.deck[:len(before.deck)-len(after.deck)] {
		if c.Special != 0 {
			for p := range n {
				want[p] += hills[p]
			}
		}
		if c.Special == kingDead {
			for p := range n {
				for _, pc := range after.hands[p] {
					if pc.Kind == Fief {
						want[p] += pc.Value
					}
				}
			}
		}
	}
	return want
}

// TestScoresFromScratch plays random games step by step and checks every
// score against expectedScores, computed from the board alone.
func TestScoresFromScratch(t *testing.T) {
	games := 90
	if testing.Short() {
		games = 15
	}
	names := []string{"gold", "purple", "rose", "blue"}
	scored := 0
	for i := range games {
		n := 2 + i%3
		seed := fmt.Sprintf("scores-%d", i)
		opts := adjudicator.Options{"setup": "basic", "map": ""}
		if i%4 == 3 {
			opts["setup"] = "advanced"
		}
		st0, err := newGame(adjudicator.Setup{Players: names[:n], Options: opts, RNG: adjudicator.NewRNG(seed)})
		if err != nil {
			t.Fatal(err)
		}
		st := st0.(*State)
		rng := adjudicator.NewRNG("walk\x00" + seed)
		for step := 0; len(st.ToMove()) > 0; step++ {
			to := st.ToMove()
			pname := to[rng.IntN(len(to))]
			legal := st.Legal(pname)
			mv := legal[rng.IntN(len(legal))]
			before := st.clone()
			if err := st.Apply(pname, mv); err != nil {
				t.Fatalf("%s step %d: %v", seed, step, err)
			}
			want := expectedScores(before, st, st.index(pname), mv)
			for p := range want {
				if st.score[p] != want[p] {
					t.Fatalf("%s step %d: %s's %q: %s scores %d, recomputed %d\n%s", seed, step, pname, mv, names[p], st.score[p], want[p], st.Text(""))
				}
				if st.score[p] != before.score[p] {
					scored++
				}
			}
		}
	}
	if scored == 0 {
		t.Fatal("no score ever moved")
	}
	t.Logf("%d score changes checked", scored)
}
