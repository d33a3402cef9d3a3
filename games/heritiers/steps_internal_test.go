package heritiers

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestStepTables holds the steps Legal takes from tables made once
// (takeSteps, frameSteps, moveSteps) to the steps made anew: on every
// square of the frame and toward every square around it.
func TestStepTables(t *testing.T) {
	for p := 1; p <= 6; p++ {
		if takeSteps[p] != adjudicator.Move(Take{Place: p}) {
			t.Errorf("takeSteps[%d] is %#v", p, takeSteps[p])
		}
	}
	moves := moveSteps()
	for q := range frameW * frameH {
		if frameSteps.deploy[q] != adjudicator.Move(Deploy{To: q}) || frameSteps.withdraw[q] != adjudicator.Move(Withdraw{From: q}) {
			t.Errorf("square %d: deploy %#v, withdraw %#v", q, frameSteps.deploy[q], frameSteps.withdraw[q])
		}
		for i, d := range around {
			n := neighbour(q, d[0], d[1])
			switch {
			case n < 0 && moves[q][i] != nil:
				t.Errorf("square %d, direction %v: off the frame, but %#v", q, d, moves[q][i])
			case n >= 0 && moves[q][i] != adjudicator.Move(Move{From: q, To: n}):
				t.Errorf("square %d, direction %v: %#v, want the move to %d", q, d, moves[q][i], n)
			}
		}
	}
}

// TestToMoveShared: ToMove's list shares the names, capped at its length,
// so that a caller's append (which the contract forbids writing into, but
// not appending to) leaves the other seat's name alone.
func TestToMoveShared(t *testing.T) {
	s := &State{names: [2]string{"alice", "bob"}}
	for turn := range 2 {
		s.turn = turn
		to := s.ToMove()
		_ = append(to, "mallory")
		if len(to) != 1 || to[0] != s.names[turn] || s.names[0] != "alice" || s.names[1] != "bob" {
			t.Fatalf("turn %d: ToMove %v, names %v", turn, to, s.names)
		}
	}
}
