package adjudicator_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"gopkg.in/yaml.v3"
)

// record returns a record of counting between alice and bob, seed "0"
// (alice first), with the moves given, alternately by alice and bob.
func record(t *testing.T, moves ...string) *adjudicator.Record {
	t.Helper()
	rec, err := adjudicator.NewRecord(counting, []string{"alice", "bob"}, nil, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"alice", "bob"}
	for i, mv := range moves {
		rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: players[i%2], Text: mv})
	}
	return rec
}

func TestAdjudicateLegal(t *testing.T) {
	rec := record(t, "add 3\nend", "add 3\nend", "plus 3; done", "add 1")
	rep, err := adjudicator.Adjudicate(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Illegal != nil || len(rep.Verdicts) != 4 {
		t.Fatalf("Adjudicate: %d verdicts, illegal %+v; want 4, none", len(rep.Verdicts), rep.Illegal)
	}
	for i, v := range rep.Verdicts {
		if !v.Legal() || v.Number != i+1 || v.Player != rec.Moves[i].Player || v.Text != rec.Moves[i].Text {
			t.Errorf("verdict %d = %+v", i+1, v)
		}
	}
	var b bytes.Buffer
	rep.Write(&b)
	want := `Counting to ten, 2 players (alice, bob), replayed from the setup
seed "0" matches its commitment sha256 5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9
   1  alice  legal    add 3; end
   2  bob    legal    add 3; end
   3  alice  legal    plus 3; done
   4  bob    legal    add 1
scores: alice 6, bob 4
result: bob reached 10 and wins
`
	if b.String() != want {
		t.Errorf("Write =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestAdjudicateIllegal(t *testing.T) {
	rec := record(t, "add 3\nend", "add 2\nend", "add 2\nadd 2\nend", "add 1\nend", "add 1\nend")
	rep, err := adjudicator.Adjudicate(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Verdicts) != 3 || rep.Illegal == nil || rep.Illegal != &rep.Verdicts[2] || rep.Illegal.Number != 3 || rep.Illegal.Legal() {
		t.Fatalf("Adjudicate: verdicts %+v, illegal %+v; want 3 verdicts, the third illegal", rep.Verdicts, rep.Illegal)
	}
	var se *adjudicator.StepError
	if !errors.As(rep.Illegal.Err, &se) || se.Index != 2 {
		t.Errorf("illegal verdict error = %v, want a StepError at step 2", rep.Illegal.Err)
	}
	// The match stands as after move 2.
	if total(rep.Match) != 5 || rep.Match.MoveNumber() != 3 || len(rep.Record.Moves) != 5 {
		t.Errorf("after adjudication: total %d, move number %d, record moves %d; want 5, 3, 5",
			total(rep.Match), rep.Match.MoveNumber(), len(rep.Record.Moves))
	}
	var b bytes.Buffer
	rep.Write(&b)
	want := `Counting to ten, 2 players (alice, bob), replayed from the setup
seed "0" matches its commitment sha256 5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9
   1  alice  legal    add 3; end
   2  bob    legal    add 2; end
   3  alice  ILLEGAL  add 2; add 2; end

move 3 by alice is illegal:
  step 2: 2:5: you may add 1 to 3 in a turn, not 4 [rule: COUNTING.md C-1]
    add 2
        ^
the game stands as after move 2; 2 later move(s) not judged
`
	if b.String() != want {
		t.Errorf("Write =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestAdjudicateReportKinds(t *testing.T) {
	tests := []struct {
		name  string
		rec   *adjudicator.Record
		lines []string // lines the report must hold
	}{
		{"unfinished", record(t, "add 3\nend"), []string{
			"   1  alice  legal    add 3; end\n",
			"scores: alice 3, bob 0\nresult: not finished; waiting for bob\n",
		}},
		{"no moves", record(t), []string{
			"sha256 5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9\nscores: alice 0, bob 0\nresult: not finished; waiting for alice\n",
		}},
		{"unreadable move", record(t, "add 1 $"), []string{
			"   1  alice  ILLEGAL  add 1 $\n\nmove 1 by alice is illegal:\n  1:7: unexpected character '$'\n    add 1 $\n          ^\nthe game stands as after move 0; 0 later move(s) not judged\n",
		}},
		{"not a player", func() *adjudicator.Record {
			r := record(t, "add 1; end", "add 1")
			r.Moves[1].Player = "carol"
			return r
		}(), []string{
			"   2  carol  ILLEGAL  add 1\n\nmove 2 by carol is illegal:\n  \"carol\" is not a player of this game (players: alice, bob)\nthe game stands as after move 1; 0 later move(s) not judged\n",
		}},
		{"from a position", func() *adjudicator.Record {
			r := record(t, "add 2")
			var pos yaml.Node
			if err := yaml.Unmarshal([]byte("{total: 8, to_move: alice, scores: [8, 0]}"), &pos); err != nil {
				t.Fatal(err)
			}
			r.Position = pos.Content[0]
			return r
		}(), []string{
			"replayed from the position given in the record (not from the setup)\n",
			"scores: alice 10, bob 0\nresult: alice reached 10 and wins\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := adjudicator.Adjudicate(reg, tt.rec)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			rep.Write(&b)
			for _, l := range tt.lines {
				if !strings.Contains(b.String(), l) {
					t.Errorf("Write =\n%s\nwant it to hold\n%s", b.String(), l)
				}
			}
		})
	}
}

func TestAdjudicateErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *adjudicator.Record)
		want   string
	}{
		{"unknown game", func(r *adjudicator.Record) { r.Game = "chess" }, `unknown game "chess" (games: counting, nogame)`},
		{"no seed", func(r *adjudicator.Record) { r.Seed = "" },
			"the record has no seed: it is revealed when the game ends; until then only the host's copy can be replayed"},
		{"seed not matching", func(r *adjudicator.Record) { r.Seed = "1" },
			"the seed does not match its commitment 5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9"},
		{"players", func(r *adjudicator.Record) { r.Players = []string{"alice", "ALICE"} }, `player "ALICE" is listed twice`},
		{"options", func(r *adjudicator.Record) { r.Options = map[string]string{"target": "x"} },
			`option target: "x" is not a whole number (expected 5 to 50)`},
		{"position", func(r *adjudicator.Record) {
			var pos yaml.Node
			yaml.Unmarshal([]byte("total: 1\nto_move: carol\n"), &pos)
			r.Position = pos.Content[0]
		}, `position: 1:1: to_move "carol" is not a player`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := record(t, "add 1")
			tt.change(rec)
			if rep, err := adjudicator.Adjudicate(reg, rec); err == nil || err.Error() != tt.want {
				t.Errorf("Adjudicate = %v, %v; want %q", rep, err, tt.want)
			}
			if _, err := adjudicator.Start(reg, rec); err == nil || err.Error() != tt.want {
				t.Errorf("Start = %v; want %q", err, tt.want)
			}
		})
	}
}

func TestStart(t *testing.T) {
	rec := record(t, "add 3\nend", "add 2\nend", "add 2\nadd 2\nend")
	_, err := adjudicator.Start(reg, rec)
	want := `move 3 (alice): step 2 "add 2": 2:5: you may add 1 to 3 in a turn, not 4 [rule: COUNTING.md C-1]`
	if err == nil || err.Error() != want {
		t.Errorf("Start = %v, want %q", err, want)
	}
	var se *adjudicator.StepError
	if !errors.As(err, &se) {
		t.Errorf("Start error does not wrap the StepError")
	}
	rec = record(t, "add 3\nend", "plus 2\ndone")
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	if m.Record != rec || total(m) != 5 || m.MoveNumber() != 3 {
		t.Errorf("Start: record %p (want %p), total %d, move number %d", m.Record, rec, total(m), m.MoveNumber())
	}
	// Replay keeps the text as recorded; a new submission is canonical.
	if _, err := m.Submit("alice", "plus 1", "t", "s"); err != nil {
		t.Fatal(err)
	}
	if got := []string{rec.Moves[1].Text, rec.Moves[2].Text}; got[0] != "plus 2\ndone" || got[1] != "add 1" {
		t.Errorf("record texts = %q", got)
	}
}

func TestSelfPlay(t *testing.T) {
	n := 0
	clock := func() string { n++; return "t" + string(rune('0'+n%10)) }
	m, err := adjudicator.SelfPlay(counting, reg, 3, "7", map[string]string{"target": "20"}, clock)
	if err != nil {
		t.Fatalf("SelfPlay: %v", err)
	}
	res := m.State.Result()
	if !res.Finished || len(res.Winners) != 1 || total(m) != 20 {
		t.Errorf("SelfPlay: result %+v, total %d; want finished at 20", res, total(m))
	}
	if got := m.Record.Players; len(got) != 3 || got[0] != "p1" || got[2] != "p3" {
		t.Errorf("players = %v, want p1 p2 p3", got)
	}
	for i, mv := range m.Record.Moves {
		if mv.Source != "selfplay" || mv.Time == "" {
			t.Errorf("move %d = %+v; want source selfplay and a time", i+1, mv)
		}
	}
	if n != len(m.Record.Moves) {
		t.Errorf("clock called %d times for %d moves", n, len(m.Record.Moves))
	}
	// The same seed plays the same game; the record adjudicates as legal.
	m2, err := adjudicator.SelfPlay(counting, reg, 3, "7", map[string]string{"target": "20"}, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if len(m2.Record.Moves) != len(m.Record.Moves) {
		t.Fatalf("same seed: %d moves, then %d", len(m.Record.Moves), len(m2.Record.Moves))
	}
	for i := range m.Record.Moves {
		if m.Record.Moves[i].Text != m2.Record.Moves[i].Text || m.Record.Moves[i].Player != m2.Record.Moves[i].Player {
			t.Fatalf("same seed: move %d differs: %+v, %+v", i+1, m.Record.Moves[i], m2.Record.Moves[i])
		}
	}
	rep, err := adjudicator.Adjudicate(reg, m.Record)
	if err != nil || rep.Illegal != nil || rep.Match.State.Result().Winners[0] != res.Winners[0] {
		t.Errorf("Adjudicate(self-play record) = %+v, %v", rep, err)
	}
	if _, err := adjudicator.SelfPlay(counting, reg, 1, "7", nil, clock); err == nil || err.Error() != "counting is for 2 to 3 players, not 1" {
		t.Errorf("SelfPlay with 1 player = %v", err)
	}
}

// TestSelfPlayStuck checks that a game whose player must act but has no
// legal step is reported, not looped on.
func TestSelfPlayStuck(t *testing.T) {
	stuck := *counting
	stuck.Name = "stuck"
	stuck.New = func(s adjudicator.Setup) (adjudicator.State, error) {
		st, err := counting.New(s)
		return stuckState{st.(*countState)}, err
	}
	r := adjudicator.NewRegistry(&stuck)
	_, err := adjudicator.SelfPlay(&stuck, r, 2, "0", nil, func() string { return "" })
	if want := "self-play: p1 must act at move 1 but has no legal step"; err == nil || err.Error() != want {
		t.Errorf("SelfPlay = %v, want %q", err, want)
	}
}

type stuckState struct{ *countState }

func (stuckState) Legal(string) []adjudicator.Move { return nil }

func (s stuckState) Clone() adjudicator.State {
	return stuckState{s.countState.Clone().(*countState)}
}
