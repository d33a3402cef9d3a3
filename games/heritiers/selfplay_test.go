package heritiers

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// checkInvariants checks what holds in every position: the tiles of the
// sets in play each in exactly one place and the others nowhere (54 in
// all), at most one troop per tile once the two cavalry have parted,
// hands within their limit, Henri never to move, the position read back
// to the same bytes and the same scores.
func checkInvariants(t *testing.T, seed string, st *State) {
	t.Helper()
	count := make([]int, len(st.data.Tiles))
	for i := range st.cells {
		if tl := st.cells[i].tile; tl >= 0 {
			count[tl]++
		}
	}
	for _, tl := range st.ring {
		if tl >= 0 {
			count[tl]++
		}
	}
	for _, l := range [][]int16{st.stack, st.hands[0], st.hands[1], st.removed} {
		for _, tl := range l {
			count[tl]++
		}
	}
	if st.henriTile >= 0 {
		count[st.henriTile]++
	}
	inPlay := 0
	for i, c := range count {
		want := 0
		if slices.Contains(st.sets, st.data.Tiles[i].Set) {
			want = 1
			inPlay++
		}
		if c != want {
			t.Fatalf("%s: tile %s is in %d places, want %d", seed, st.data.Tiles[i].ID, c, want)
		}
	}
	if inPlay != 27 || len(count) != 54 {
		t.Fatalf("%s: %d tiles in play of %d, want 27 of 54", seed, inPlay, len(count))
	}
	occ := map[int16][]int{}
	for seat := range 2 {
		for k, tr := range st.troops[seat] {
			if tr.at >= 0 {
				occ[tr.at] = append(occ[tr.at], seat*3+k)
			}
			if k == 0 && tr.at < 0 && !(st.solo && seat == 1) {
				t.Fatalf("%s: seat %d's cavalry left the board", seed, seat)
			}
		}
	}
	for q, ts := range occ {
		if len(ts) > 1 && !(q == start && slices.Equal(ts, []int{0, 3})) {
			t.Fatalf("%s: %d troops on %s\n%s", seed, len(ts), squareName(int(q)), st.Text(""))
		}
		if !st.hasTile(int(q)) {
			t.Fatalf("%s: a troop on the empty square %s", seed, squareName(int(q)))
		}
	}
	for seat := range 2 {
		if len(st.hands[seat]) > handLimit {
			t.Fatalf("%s: seat %d holds %d tiles", seed, seat, len(st.hands[seat]))
		}
	}
	if st.solo && !st.over && st.turn == 1 {
		t.Fatalf("%s: Henri is left to move", seed)
	}
	players := []string{st.names[0], st.names[1]}[:st.players()]
	pos := positionBytes(t, st)
	back, err := load(players, string(pos), map[string]string{"roads": fmt.Sprint(st.roads)})
	if err != nil {
		t.Fatalf("%s: position read back: %v\n%s", seed, err, pos)
	}
	if again := positionBytes(t, back); !bytes.Equal(pos, again) {
		t.Fatalf("%s: position round trip differs:\n%s\n---\n%s", seed, pos, again)
	}
	if a, b := st.Scores(), back.Scores(); !slices.Equal(a, b) {
		t.Fatalf("%s: scores %v, from the position %v", seed, a, b)
	}
}

// TestSelfPlay plays 300 games in each mode as adjudicator.SelfPlay does,
// checking the invariants after every submission, every legal step read
// back from its notation to the same move (parse(print(m)) == m) in the
// first games, and adjudicate accepting each record with the same final
// scores.
func TestSelfPlay(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 30
	}
	for _, n := range []int{2, 1} {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			t.Parallel()
			for i := range games {
				seed := fmt.Sprintf("self-%d-%d", n, i)
				roundTrip := i < 20
				m := selfPlay(t, n, seed, nil, func(m *adjudicator.Match) {
					st := m.State.(*State)
					checkInvariants(t, seed, st)
					if !roundTrip || st.over {
						return
					}
					p := st.ToMove()[0]
					for _, mv := range st.Legal(p) {
						back, err := parseStep(st, p, mv.String())
						if err != nil {
							t.Fatalf("%s: legal step %q does not parse back: %v", seed, mv, err)
						}
						if !reflect.DeepEqual(bare(back), bare(mv)) {
							t.Fatalf("%s: legal step %q parses back as %#v, want %#v", seed, mv, bare(back), bare(mv))
						}
						if err := st.Clone().Apply(p, back); err != nil {
							t.Fatalf("%s: legal step %q, parsed back, refused: %v", seed, mv, err)
						}
					}
				})
				if !m.State.Result().Finished {
					t.Fatalf("%s: not finished", seed)
				}
				rep, err := adjudicator.Adjudicate(reg, m.Record)
				if err != nil || rep.Illegal != nil {
					t.Fatalf("%s: adjudicate: %v %+v", seed, err, rep.Illegal)
				}
				if got := rep.Match.State.Scores(); !slices.Equal(got, m.State.Scores()) {
					t.Fatalf("%s: adjudicate scores %v, game %v", seed, got, m.State.Scores())
				}
			}
		})
	}
}

// bare returns a copy of move m without the positions in the text it was
// read from, so that a parsed step compares equal to the listed one.
func bare(m adjudicator.Move) any {
	v := reflect.New(reflect.TypeOf(m)).Elem()
	v.Set(reflect.ValueOf(m))
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Type() {
		case reflect.TypeOf(notation.Pos{}), reflect.TypeOf([]notation.Pos{}):
			reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem().Set(reflect.Zero(f.Type()))
		}
	}
	return v.Interface()
}
