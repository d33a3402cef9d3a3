package adjudicator_test

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestTakeBack takes moves back by consent (RULINGS.md H-5): the match
// goes on from the kept moves, the record keeps the moves taken back as
// history, writes and reads back with them, notices an edit of them, and
// adjudicate lists them.
func TestTakeBack(t *testing.T) {
	reg := adjudicator.NewRegistry(counting)
	rec, err := adjudicator.NewRecord(counting, []string{"alice", "bob"}, nil, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range []string{"add 2; end", "add 3; end", "add 1; end"} {
		if _, err := m.Submit([]string{"alice", "bob"}[i%2], s, "", "test"); err != nil {
			t.Fatal(err)
		}
	}
	back, err := m.TakeBack(reg, 1, "bob", "2026-11-24T10:00:00Z", "mail:<u@x>")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Record.Moves) != 3 || len(back.Record.Moves) != 1 || len(back.Record.Undone) != 1 || len(back.Record.Undone[0].Moves) != 2 {
		t.Fatalf("after taking back: %d moves left of 3, undone %+v", len(back.Record.Moves), back.Record.Undone)
	}
	if to := back.State.ToMove(); len(to) != 1 || to[0] != "bob" {
		t.Errorf("after taking back bob's move and alice's, %v is to move, want bob", to)
	}
	if _, err := back.Submit("bob", "add 1; end", "", "test"); err != nil {
		t.Fatalf("the game does not go on after the take-back: %v", err)
	}
	data, err := back.Record.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	read, err := adjudicator.ParseRecord("u.yaml", data)
	if err != nil || !adjudicator.SameUndone(read.Undone, back.Record.Undone) || len(read.Moves) != 2 {
		t.Fatalf("the record with an undone entry does not read back: %v\n%s", err, data)
	}
	if !strings.Contains(string(data), "undone:\n  - after: 1\n    by: bob\n") {
		t.Errorf("the undone entry as written:\n%s", data)
	}

	edited := strings.Replace(string(data), "add 3\n", "add 4\n", 1)
	if _, err := adjudicator.ParseRecord("u.yaml", []byte(edited)); err == nil || !strings.Contains(err.Error(), "an undone entry") {
		t.Errorf("an edited undone move: %v", err)
	}
	rep, err := adjudicator.Adjudicate(reg, read)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.Write(&out)
	if !strings.Contains(out.String(), "taken back by consent after move 1, asked by bob") || !strings.Contains(out.String(), "   2  bob    undone   add 3; end") {
		t.Errorf("adjudicate does not show the moves taken back:\n%s", out.String())
	}
	if _, err := back.TakeBack(reg, 5, "bob", "", ""); err == nil {
		t.Error("taking back after the last move is allowed")
	}
}
