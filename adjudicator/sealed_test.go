package adjudicator_test

import (
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// sealedCount is the counting game in which every "add" taken while the
// total is under 6 is sealed, in round 1, until the total reaches 6: a
// stand-in for a round of sealed bids that closes when the last is in.
type sealedCount struct{ *countState }

func (s sealedCount) SealOf(player string, m adjudicator.Move) int {
	if _, ok := m.(add); ok && s.total < 6 {
		return 1
	}
	return 0
}

func (s sealedCount) SealOpen(r int) bool { return r == 1 && s.total < 6 }

func (s sealedCount) PublicStep(player string, m adjudicator.Move, lang notation.Lang) string {
	if lang == notation.French {
		return adjudicator.Subject(player, "a ajouté")
	}
	return adjudicator.Subject(player, "has added")
}

func (s sealedCount) Clone() adjudicator.State {
	return sealedCount{s.countState.Clone().(*countState)}
}

var sealedGame = &adjudicator.Game{
	Name: "sealed", Title: "Sealed counting", Rulebook: "COUNTING.md", MinPlayers: 2, MaxPlayers: 2,
	Options: counting.Options,
	New: func(s adjudicator.Setup) (adjudicator.State, error) {
		st, err := counting.New(s)
		if err != nil {
			return nil, err
		}
		c := st.(*countState)
		c.turn = 0
		return sealedCount{c}, nil
	},
}

// TestStepTextHidesSealedSteps checks that another player sees a sealed
// step in its public form, and its author the step itself.
func TestStepTextHidesSealedSteps(t *testing.T) {
	_, m := sealedMatch(t)
	sub, err := m.Submit("alice", "add 2; end", "", "test")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sub.Rounds, []int{1, 0}) {
		t.Errorf("Rounds = %v, want [1 0]: the add sealed in round 1, the end open", sub.Rounds)
	}
	for _, c := range []struct{ viewer, want string }{
		{"alice", "add 2"}, {"bob", "alice has added"}, {"", "alice has added"},
	} {
		if got := adjudicator.StepText(m.State, sub, 0, c.viewer, notation.English); got != c.want {
			t.Errorf("StepText(viewer %q) = %q, want %q", c.viewer, got, c.want)
		}
	}
	if got := adjudicator.StepText(m.State, sub, 1, "bob", notation.English); got != "end" {
		t.Errorf("StepText(end) = %q, want end", got)
	}
}

// sealedMatch starts a game of sealed counting between alice and bob, and
// returns it with its registry.
func sealedMatch(t *testing.T) (*adjudicator.Registry, *adjudicator.Match) {
	t.Helper()
	reg := adjudicator.NewRegistry(sealedGame)
	rec, err := adjudicator.NewRecord(sealedGame, []string{"alice", "bob"}, nil, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	return reg, m
}

// TestHistoryRevealsClosedRounds checks that History keeps a step hidden
// only while the round it was sealed in is open.
func TestHistoryRevealsClosedRounds(t *testing.T) {
	reg, m := sealedMatch(t)
	for i, s := range []string{"add 2; end", "add 2; end"} {
		if _, err := m.Submit([]string{"alice", "bob"}[i%2], s, "", "test"); err != nil {
			t.Fatal(err)
		}
	}
	got, err := m.History(reg, "bob", notation.French)
	if want := []string{"alice a ajouté; end", "add 2; end"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("History(bob) = %q, %v; want %q", got, err, want)
	}
	got, err = m.TurnHistory(reg, "", notation.English)
	if want := []string{"has added; end", "has added; end"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("TurnHistory = %q, %v; want %q", got, err, want)
	}
	got, err = m.TurnHistory(reg, "bob", notation.English)
	if want := []string{"has added; end", "add 2; end"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("TurnHistory(bob) = %q, %v; want %q", got, err, want)
	}
	// The total reaches 6: every earlier step is revealed for good.
	if _, err := m.Submit("alice", "add 2; end", "", "test"); err != nil {
		t.Fatal(err)
	}
	got, err = m.History(reg, "", notation.English)
	if want := []string{"add 2; end", "add 2; end", "add 2; end"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("History(public) after the reveal = %q, %v; want %q", got, err, want)
	}
}
