package adjudicator_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"gopkg.in/yaml.v3"
)

// soloState is the counting game for one player against "robot", a seat
// the game plays itself: robot adds what brings the total to the next
// multiple of 4 (at least 1), then ends its turn. cheat makes it choose a
// step the rules refuse, to test what a faulty automaton does.
type soloState struct {
	*countState
	cheat bool
}

func (s *soloState) Automata() []string { return []string{"robot"} }

func (s *soloState) AutoSteps(seat string) ([]adjudicator.AutoStep, error) {
	if seat != "robot" || !slices.Contains(s.ToMove(), seat) {
		return nil, fmt.Errorf("%s may not act now", seat)
	}
	n := 4 - s.total%4
	if n == 4 || s.cheat {
		n = 3
	}
	if s.cheat {
		n = 5
	}
	return []adjudicator.AutoStep{
		{Move: add{n: n}, Why: fmt.Sprintf("rule R: %d reaches a multiple of 4", n), WhyFR: "règle R"},
		{Move: end{}, Why: "rule E: always end", WhyFR: "règle E"},
	}, nil
}

func (s *soloState) Clone() adjudicator.State {
	return &soloState{countState: s.countState.Clone().(*countState), cheat: s.cheat}
}

// solo is the counting game for one player against the robot.
var solo = &adjudicator.Game{
	Name: "solo", Title: "Counting against a robot", Rulebook: "COUNTING.md",
	MinPlayers: 1, MaxPlayers: 1,
	Options: []adjudicator.Option{
		{Name: "cheat", Doc: "the robot cheats", Type: adjudicator.OptBool, Default: "false"},
	},
	New: func(s adjudicator.Setup) (adjudicator.State, error) {
		c := &countState{players: []string{s.Players[0], "robot"}, target: 10, scores: make([]int, 2)}
		return &soloState{countState: c, cheat: s.Options.Bool("cheat")}, nil
	},
	LoadPosition: func(adjudicator.Setup, *yaml.Node) (adjudicator.State, error) {
		return nil, errors.New("no positions")
	},
}

var soloReg = adjudicator.NewRegistry(solo)

func newSolo(t *testing.T, opts map[string]string) *adjudicator.Match {
	t.Helper()
	rec, err := adjudicator.NewRecord(solo, []string{"alice"}, opts, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(soloReg, rec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAutomatonPlaysAfterPlayer checks that the automaton's turn follows a
// player's submission at once, is recorded with its source, and carries
// its reasons.
func TestAutomatonPlaysAfterPlayer(t *testing.T) {
	m := newSolo(t, nil)
	sub, err := m.Submit("alice", "add 2; end", "t1", "mail:1")
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	if len(sub.Auto) != 1 {
		t.Fatalf("Submit: %d automaton moves, want 1", len(sub.Auto))
	}
	a := sub.Auto[0]
	if a.Player != "robot" || a.Number != 2 || a.Text() != "add 2\nend" {
		t.Errorf("automaton move = %s #%d %q, want robot #2 \"add 2\\nend\"", a.Player, a.Number, a.Text())
	}
	if want := []string{"rule R: 2 reaches a multiple of 4", "rule E: always end"}; !slices.Equal(a.Why, want) {
		t.Errorf("Why = %q, want %q", a.Why, want)
	}
	want := []adjudicator.RecordMove{
		{Player: "alice", Text: "add 2\nend", Time: "t1", Source: "mail:1"},
		{Player: "robot", Text: "add 2\nend", Time: "t1", Source: adjudicator.AutomatonSource},
	}
	if !slices.Equal(m.Record.Moves, want) {
		t.Errorf("record moves = %+v, want %+v", m.Record.Moves, want)
	}
	if got := m.State.ToMove(); !slices.Equal(got, []string{"alice"}) {
		t.Errorf("ToMove = %q, want [alice]", got)
	}
	if got := m.View("").Scores; got["alice"] != 2 || got["robot"] != 2 || len(got) != 2 {
		t.Errorf("View scores = %v, want alice 2, robot 2", got)
	}
	if got := m.Seats(); !slices.Equal(got, []string{"alice", "robot"}) {
		t.Errorf("Seats = %q", got)
	}
}

// TestAutomatonSeatRefused checks that nobody may submit for the
// automaton's seat.
func TestAutomatonSeatRefused(t *testing.T) {
	m := newSolo(t, nil)
	_, err := m.Submit("robot", "add 1; end", "", "cli")
	var re *adjudicator.RuleError
	if !errors.As(err, &re) || re.Code != adjudicator.CodeAutomatonSeat {
		t.Fatalf("Submit as robot: %v, want code %s", err, adjudicator.CodeAutomatonSeat)
	}
	if len(m.Record.Moves) != 0 {
		t.Errorf("record changed: %+v", m.Record.Moves)
	}
}

// TestAutomatonFaultChangesNothing checks that an automaton choosing an
// illegal step is an error and leaves the match as it was, the player's
// submission included.
func TestAutomatonFaultChangesNothing(t *testing.T) {
	m := newSolo(t, map[string]string{"cheat": "true"})
	before := m.State.Position()
	_, err := m.Submit("alice", "add 1; end", "", "cli")
	if err == nil || !strings.Contains(err.Error(), "the automaton robot chose a step the rules refuse") {
		t.Fatalf("Submit = %v, want the automaton's fault", err)
	}
	if len(m.Record.Moves) != 0 || fmt.Sprint(m.State.Position()) != fmt.Sprint(before) {
		t.Errorf("the match changed: %+v", m.Record.Moves)
	}
}

// TestAdjudicateAutomatonMoves checks that replay accepts the automaton's
// own moves and refuses a record that puts another move in its mouth.
func TestAdjudicateAutomatonMoves(t *testing.T) {
	m := newSolo(t, nil)
	for _, s := range []string{"add 3; end", "add 1; end"} {
		if _, err := m.Submit("alice", s, "", "cli"); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := adjudicator.Adjudicate(soloReg, m.Record)
	if err != nil || rep.Illegal != nil {
		t.Fatalf("Adjudicate = %v, %+v", err, rep.Illegal)
	}
	var b strings.Builder
	rep.Write(&b)
	if !strings.Contains(b.String(), "   2  robot  legal    add 1; end") || !strings.Contains(b.String(), "scores: alice 4, robot 4") {
		t.Errorf("report:\n%s", b.String())
	}

	forged := *m.Record
	forged.Moves = slices.Clone(m.Record.Moves)
	forged.Moves[1].Text = "add 3\nend" // legal, but not what robot plays
	rep, err = adjudicator.Adjudicate(soloReg, &forged)
	if err != nil {
		t.Fatal(err)
	}
	var re *adjudicator.RuleError
	if rep.Illegal == nil || rep.Illegal.Number != 2 || !errors.As(rep.Illegal.Err, &re) || re.Code != adjudicator.CodeNotTheAutomaton {
		t.Fatalf("forged record: illegal = %+v, want move 2 %s", rep.Illegal, adjudicator.CodeNotTheAutomaton)
	}
	if !strings.Contains(re.Error(), "robot does not play add 3; end here: in this position robot plays add 1; end") {
		t.Errorf("error = %q", re.Error())
	}
	if _, err := adjudicator.Start(soloReg, &forged); err == nil {
		t.Error("Start accepted the forged record")
	}
}

// TestSelfPlayWithAutomaton checks that self-play leaves the automaton's
// seat to the automaton.
func TestSelfPlayWithAutomaton(t *testing.T) {
	m, err := adjudicator.SelfPlay(solo, soloReg, 1, "s", nil, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if !m.State.Result().Finished {
		t.Fatal("not finished")
	}
	for i, mv := range m.Record.Moves {
		if want := []string{"p1", "robot"}[i%2]; mv.Player != want {
			t.Fatalf("move %d by %s, want %s", i+1, mv.Player, want)
		}
	}
}

var _ adjudicator.Automaton = (*soloState)(nil)

// TestAdjudicateSoloHeader: the report of a solo game names its one
// player as one (field test: "1 players (dave)").
func TestAdjudicateSoloHeader(t *testing.T) {
	m := newSolo(t, nil)
	if _, err := m.Submit("alice", "add 2; end", "t1", "mail:1"); err != nil {
		t.Fatal(err)
	}
	rep, err := adjudicator.Adjudicate(soloReg, m.Record)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.Write(&b)
	if first, _, _ := strings.Cut(b.String(), "\n"); first != "Counting against a robot, 1 player (alice), replayed from the setup" {
		t.Errorf("the report begins %q", first)
	}
}
