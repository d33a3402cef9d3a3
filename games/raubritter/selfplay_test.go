package raubritter_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/raubritter"
)

// selfPlay plays a game as adjudicator.SelfPlay does (the same players,
// record, random choices and submissions), calling check after every
// submission: the kit's self-play.
func selfPlay(t testing.TB, n int, seed string, check func(m *adjudicator.Match, sub *adjudicator.Submission)) *adjudicator.Match {
	t.Helper()
	return kit.SelfPlay(t, n, seed, nil, check)
}

// TestSelfPlayInvariants plays 200 games each with 2, 3 and 4 players, as
// adjudicator.SelfPlay plays them (and checks it does), and checks the game's invariants after every submission: 30 knights and 24
// tiles per player, stacks of at most 4, no knight on a lake, tiles joined
// inside the area limit, and scores as the board gives them. At the end
// every tile is laid, and adjudicating the record finds every move legal
// and the same position.
func TestSelfPlayInvariants(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 20
	}
	limits := map[int]int{2: 7, 3: 9, 4: 10}
	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			t.Parallel()
			for i := range games {
				seed := fmt.Sprintf("invariants-%d-%d", n, i)
				laid := map[string]int{}
				check := func(m *adjudicator.Match, sub *adjudicator.Submission) {
					if sub != nil {
						for _, mv := range sub.Moves {
							if _, ok := mv.(raubritter.Place); ok {
								laid[sub.Player]++
							}
						}
					}
					if err := checkInvariants(t, m, laid, limits[n]); err != nil {
						t.Fatalf("%s, after move %d: %v\n%s", seed, m.MoveNumber()-1, err, m.State.Text(""))
					}
				}
				m := selfPlay(t, n, seed, check)
				checkEnd(t, seed, m)
				// The game checked is the one adjudicator.SelfPlay plays.
				sp, err := adjudicator.SelfPlay(raubritter.Game, reg, n, seed, nil, func() string { return "" })
				if err != nil {
					t.Fatalf("%s: %v", seed, err)
				}
				if !slices.Equal(sp.Record.Moves, m.Record.Moves) || !bytes.Equal(kit.PositionBytes(t, sp.State), kit.PositionBytes(t, m.State)) {
					t.Fatalf("%s: adjudicator.SelfPlay plays another game than this test's loop", seed)
				}
			}
		})
	}
}

// checkInvariants checks a match against what the rules keep true.
func checkInvariants(t testing.TB, m *adjudicator.Match, laid map[string]int, limit int) error {
	t.Helper()
	st := m.State
	b := board(t, st)
	players := m.Record.Players
	const knights, tiles = 30, 24

	if b.Area.Limit != limit {
		return fmt.Errorf("area limit %d, want %d", b.Area.Limit, limit)
	}
	onBoard := map[string]int{}
	score := map[string]int{}
	r0, r1, c0, c1 := 1<<30, -1, 1<<30, -1
	cells := map[[2]int]bool{}
	for sq, v := range b.Squares {
		if len(v.Knights) > 4 {
			return fmt.Errorf("%s holds %d knights", sq, len(v.Knights))
		}
		if v.Tile == "lake" && len(v.Knights) > 0 {
			return fmt.Errorf("knights %v on the lake at %s", v.Knights, sq)
		}
		for _, k := range v.Knights {
			onBoard[k]++
		}
		top := ""
		if len(v.Knights) > 0 {
			top = v.Knights[len(v.Knights)-1]
			score[top] += points(v.Tile)
		}
		if v.Top != top {
			return fmt.Errorf("%s: top %q, knights %v", sq, v.Top, v.Knights)
		}
		r, c := squareRC(t, sq)
		cells[[2]int{r, c}] = true
		r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
	}
	if len(cells) > 0 {
		if r1-r0+1 > limit || c1-c0+1 > limit {
			return fmt.Errorf("the tiles span %dx%d, more than %dx%d", c1-c0+1, r1-r0+1, limit, limit)
		}
		if err := joined(cells); err != nil {
			return err
		}
	}
	sum := 0
	scores := st.Scores()
	view := m.View("")
	for i, p := range players {
		if onBoard[p]+b.Knights[p] != knights {
			return fmt.Errorf("%s has %d knights on the board and %d left, not %d in all", p, onBoard[p], b.Knights[p], knights)
		}
		onTable := 0
		if b.Phase != "setup" {
			onTable = laid[p] + 2 // the start layout
		}
		if onTable+b.Tiles[p] != tiles {
			return fmt.Errorf("%s has %d tiles on the table and %d left, not %d in all", p, onTable, b.Tiles[p], tiles)
		}
		sum += onTable
		priv := private(t, st, p)
		if b.Phase != "setup" && (len(priv.Hand) > 2 || len(priv.Hand)+priv.Stack != b.Tiles[p]) {
			return fmt.Errorf("%s's hand %v and stack of %d, %d tiles left", p, priv.Hand, priv.Stack, b.Tiles[p])
		}
		if scores[i] != score[p] || view.Scores[p] != score[p] {
			return fmt.Errorf("%s scores %d (view %d), the board gives %d", p, scores[i], view.Scores[p], score[p])
		}
	}
	if len(b.Squares) != sum {
		return fmt.Errorf("%d tiles on the board, %d laid", len(b.Squares), sum)
	}
	switch b.Phase {
	case "play":
		if to := st.ToMove(); len(to) != 1 || st.Result().Finished {
			return fmt.Errorf("in play, to move %v, finished %v", to, st.Result().Finished)
		}
	case "over":
		if !st.Result().Finished || len(st.ToMove()) != 0 {
			return fmt.Errorf("game over but not finished, or someone to move")
		}
	}
	return nil
}

// joined reports an error unless the cells are joined edge to edge.
func joined(cells map[[2]int]bool) error {
	var start [2]int
	for c := range cells {
		start = c
		break
	}
	seen := map[[2]int]bool{start: true}
	queue := [][2]int{start}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			n := [2]int{c[0] + d[0], c[1] + d[1]}
			if cells[n] && !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	if len(seen) != len(cells) {
		return fmt.Errorf("%d tiles are not joined to the others", len(cells)-len(seen))
	}
	return nil
}

// checkEnd checks a finished game: every tile laid, every hand and stack
// empty, and the record adjudicated legal move by move, to the same
// position.
func checkEnd(t *testing.T, seed string, m *adjudicator.Match) {
	t.Helper()
	st := m.State
	res := st.Result()
	if !res.Finished || res.Summary == "" || (len(res.Winners) == 0) != res.Draw {
		t.Fatalf("%s: result %+v", seed, res)
	}
	b := board(t, st)
	if len(b.Squares) != 24*len(m.Record.Players) {
		t.Fatalf("%s: %d tiles on the board at the end, want all %d", seed, len(b.Squares), 24*len(m.Record.Players))
	}
	for _, p := range m.Record.Players {
		if priv := private(t, st, p); len(priv.Hand) != 0 || priv.Stack != 0 || b.Tiles[p] != 0 {
			t.Fatalf("%s: %s ends with hand %v, stack %d, %d tiles", seed, p, priv.Hand, priv.Stack, b.Tiles[p])
		}
	}
	rep, err := adjudicator.Adjudicate(reg, m.Record)
	if err != nil {
		t.Fatalf("%s: adjudicate: %v", seed, err)
	}
	if rep.Illegal != nil {
		t.Fatalf("%s: adjudicate finds move %d illegal: %v", seed, rep.Illegal.Number, rep.Illegal.Err)
	}
	if len(rep.Verdicts) != len(m.Record.Moves) {
		t.Fatalf("%s: adjudicate judged %d moves of %d", seed, len(rep.Verdicts), len(m.Record.Moves))
	}
	if !bytes.Equal(kit.PositionBytes(t, rep.Match.State), kit.PositionBytes(t, st)) {
		t.Fatalf("%s: adjudicate reaches another position", seed)
	}
}
