package lowenherz97_test

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/lowenherz97"
)

// sealedIn reports whether player's sealed bid is in.
func sealedIn(st adjudicator.State, player string) bool {
	return st.(*lowenherz97.State).SealedIn(player)
}

// selfPlay plays a game as adjudicator.SelfPlay does (the same players,
// record, random choices and submissions), calling check after every
// submission.
func selfPlay(t testing.TB, n int, seed string, options map[string]string, check func(m *adjudicator.Match, sub *adjudicator.Submission)) *adjudicator.Match {
	t.Helper()
	players := make([]string, n)
	for i := range players {
		players[i] = "p" + strconv.Itoa(i+1)
	}
	rec, err := adjudicator.NewRecord(lowenherz97.Game, players, options, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	check(m, nil)
	rng := adjudicator.NewRNG("selfplay\x00" + seed)
	for range 100_000 {
		to := m.State.ToMove()
		if len(to) == 0 {
			return m
		}
		to = slices.DeleteFunc(slices.Clone(to), func(p string) bool { return sealedIn(m.State, p) })
		p := to[rng.IntN(len(to))]
		scratch := m.State.Clone()
		var steps []string
		for slices.Contains(scratch.ToMove(), p) && !sealedIn(scratch, p) {
			legal := scratch.Legal(p)
			if len(legal) == 0 {
				t.Fatalf("%s: %s must act at move %d but has no legal step\n%s", seed, p, m.MoveNumber(), scratch.Text(""))
			}
			mv := legal[rng.IntN(len(legal))]
			if err := scratch.Apply(p, mv); err != nil {
				t.Fatalf("%s: %s's legal step %q refused: %v", seed, p, mv, err)
			}
			steps = append(steps, mv.String())
		}
		sub, err := m.Submit(p, strings.Join(steps, "\n"), "", "selfplay")
		if err != nil {
			t.Fatalf("%s: move %d: %s's steps %q refused: %v", seed, m.MoveNumber(), p, steps, err)
		}
		check(m, sub)
	}
	t.Fatalf("%s: no end after 100000 submissions", seed)
	return nil
}

// TestSelfPlayInvariants plays 300 games each with 2, 3 and 4 players, as
// adjudicator.SelfPlay plays them (and checks it does), and checks the
// game's invariants after every submission: money conserved between the
// players and the bank, 12 knights and at most 4 castles per colour, 100
// walls, scores never below 0. At the end the record is adjudicated legal
// move by move, to the same position. (The scores are recomputed from
// scratch in the internal TestScoresFromScratch.)
func TestSelfPlayInvariants(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 20
	}
	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			t.Parallel()
			for i := range games {
				seed := fmt.Sprintf("invariants-%d-%d", n, i)
				var opts map[string]string
				if i%5 == 4 {
					opts = map[string]string{"setup": "advanced"}
				}
				check := func(m *adjudicator.Match, sub *adjudicator.Submission) {
					if err := checkInvariants(t, m); err != nil {
						t.Fatalf("%s, after move %d: %v\n%s", seed, m.MoveNumber()-1, err, m.State.Text(""))
					}
				}
				m := selfPlay(t, n, seed, opts, check)
				checkEnd(t, seed, m)
				if i%10 == 0 {
					sp, err := adjudicator.SelfPlay(lowenherz97.Game, reg, n, seed, opts, func() string { return "" })
					if err != nil {
						t.Fatalf("%s: %v", seed, err)
					}
					if !slices.Equal(sp.Record.Moves, m.Record.Moves) || !bytes.Equal(kit.PositionBytes(t, sp.State), kit.PositionBytes(t, m.State)) {
						t.Fatalf("%s: adjudicator.SelfPlay plays another game than this test's loop", seed)
					}
				}
			}
		})
	}
}

// checkInvariants checks a match against what the rules keep true.
func checkInvariants(t testing.TB, m *adjudicator.Match) error {
	t.Helper()
	st := m.State
	b := board(t, st)
	money := b.Bank
	for _, p := range m.Record.Players {
		money += private(t, st, p).Ducats
	}
	if money != 110 {
		return fmt.Errorf("the players and the bank hold %d ducats, not the 110 of the money cards", money)
	}
	knights := map[string]int{}
	castles := map[string]int{}
	for _, c := range b.Knights {
		knights[c]++
	}
	for _, c := range b.Castles {
		castles[c]++
	}
	for c, n := range b.Reserve {
		if knights[c]+n != 12 {
			return fmt.Errorf("%s has %d knights on the board and %d in reserve", c, knights[c], n)
		}
		if castles[c] > 4 {
			return fmt.Errorf("%s has %d castles", c, castles[c])
		}
	}
	if len(b.Walls)+b.WallsLeft != 100 || b.WallsLeft < 0 {
		return fmt.Errorf("%d walls on the board and %d left", len(b.Walls), b.WallsLeft)
	}
	regions := map[string]int{}
	for _, r := range b.Regions {
		regions[r.Owner]++
		if r.Squares < 1 || r.Knights < 0 {
			return fmt.Errorf("region %+v", r)
		}
	}
	for i, s := range st.Scores() {
		if s < 0 {
			return fmt.Errorf("%s scores %d", m.Record.Players[i], s)
		}
	}
	for _, p := range m.Record.Players {
		if b.Political[p] != len(private(t, st, p).Political) {
			return fmt.Errorf("%s holds %d political cards, the board says %d", p, len(private(t, st, p).Political), b.Political[p])
		}
	}
	held := b.Piles[0] + b.Piles[1]
	for _, n := range b.Political {
		held += n
	}
	if held > 13 {
		return fmt.Errorf("%d political cards in piles and hands", held)
	}
	switch {
	case b.Phase == "over":
		if !st.Result().Finished || len(st.ToMove()) != 0 {
			return fmt.Errorf("game over but not finished, or someone to move")
		}
	case b.Phase == "bid":
		if len(st.ToMove()) < 2 || !slices.Equal(st.ToMove(), b.Confrontation.Bidders) {
			return fmt.Errorf("confrontation: to move %v, bidders %v", st.ToMove(), b.Confrontation.Bidders)
		}
	default:
		if len(st.ToMove()) != 1 {
			return fmt.Errorf("to move %v in phase %s", st.ToMove(), b.Phase)
		}
	}
	return nil
}

// checkEnd checks a finished game and adjudicates its record: every move
// legal, to the same position.
func checkEnd(t *testing.T, seed string, m *adjudicator.Match) {
	t.Helper()
	st := m.State
	res := st.Result()
	if !res.Finished || res.Summary == "" || len(res.Winners) == 0 {
		t.Fatalf("%s: result %+v", seed, res)
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

// TestApplyOnlyLegal checks that Apply accepts no step that Legal does not
// list: over random games, a sample of the steps seen legal anywhere, and
// end, is tried on the player to move, and one that Legal leaves out must
// be refused (a step Legal lists is accepted: TestSelfPlay walks them).
// It found `look 1; end`, a free look at a political pile (l. 160).
func TestApplyOnlyLegal(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	tried := 0
	for i := range seeds {
		n := 2 + i%3
		st := kit.NewState(t, colours[:n], fmt.Sprintf("only-legal-%d", i), nil)
		rng := adjudicator.NewRNG(fmt.Sprintf("only-legal-%d", i))
		pool := map[string]bool{"end": true}
		for range 600 {
			to := st.ToMove()
			if len(to) == 0 {
				break
			}
			p := to[rng.IntN(len(to))]
			legal := st.Legal(p)
			listed := map[string]bool{}
			for _, mv := range legal {
				listed[mv.String()] = true
				pool[mv.String()] = true
			}
			texts := slices.Sorted(maps.Keys(pool))
			for range 24 { // a sample, to keep the test fast
				text := texts[rng.IntN(len(texts))]
				if listed[text] && text != "end" {
					text = "end"
				}
				if listed[text] {
					continue
				}
				c := st.Clone()
				mv, err := gametest.ParseOne(c, p, text)
				if err != nil {
					continue
				}
				tried++
				if err := c.Apply(p, mv); err == nil {
					t.Fatalf("%s's %q is accepted but not listed by Legal %v\n%s", p, text, legal, st.Text(""))
				}
			}
			if err := st.Apply(p, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if tried == 0 {
		t.Fatal("no step outside Legal was tried")
	}
}

// TestClonesIndependent checks that a clone and its original never share
// what a step writes: over random games, a clone is taken before every
// step, then the original and the clone each play a different legal step,
// and each must still read as it did (its position, every player's view)
// but for its own step.
func TestClonesIndependent(t *testing.T) {
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	snapshot := func(st adjudicator.State) string {
		var b strings.Builder
		b.Write(kit.PositionBytes(t, st))
		for _, p := range colours[:4] {
			b.WriteString(st.Text(p))
		}
		return b.String()
	}
	for i := range seeds {
		n := 2 + i%3
		st := kit.NewState(t, colours[:n], fmt.Sprintf("clones-%d", i), nil)
		rng := adjudicator.NewRNG(fmt.Sprintf("clones-%d", i))
		for range 300 {
			to := st.ToMove()
			if len(to) == 0 {
				break
			}
			p := to[rng.IntN(len(to))]
			legal := st.Legal(p)
			a, b := legal[rng.IntN(len(legal))], legal[rng.IntN(len(legal))]
			// What each should read as: a fresh copy from the position,
			// which shares nothing, plays the same step.
			want := func(mv adjudicator.Move) string {
				fresh := mustLoad(t, colours[:n], string(kit.PositionBytes(t, st)))
				if err := fresh.Apply(p, mv); err != nil {
					t.Fatal(err)
				}
				return snapshot(fresh)
			}
			wantA, wantB := want(a), want(b)
			c := st.Clone()
			if err := st.Apply(p, a); err != nil {
				t.Fatal(err)
			}
			if err := c.Apply(p, b); err != nil {
				t.Fatal(err)
			}
			if snapshot(st) != wantA || snapshot(c) != wantB {
				t.Fatalf("seed %d: after %s's %q on the original and %q on its clone, one reads as if it had seen the other's step", i, p, a, b)
			}
		}
	}
}
