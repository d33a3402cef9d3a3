package lowenherz97_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// TestSealedRound walks a three-way confrontation through a Match: every
// bidder is to move, a bid is sealed and replaceable, the others see only
// that it is in, and the last bid reveals them all (RULINGS.md L97-5).
func TestSealedRound(t *testing.T) {
	doc := `card: B 6d 2w 1s
castles: {a1: fabienne, n1: georges, o10: henri, a10: ines}
`
	st := mustLoad(t, []string{"fabienne", "georges", "henri", "ines"}, doc)
	s := st.(*lowenherz97.State)
	for _, step := range []struct{ p, text string }{{"fabienne", "choose 2"}, {"georges", "choose 2"}, {"henri", "choose 2"}, {"ines", "choose 1"}} {
		play(t, st, step.p, step.text)
	}
	bidders, in := s.SealedRound()
	if !slices.Equal(bidders, []string{"fabienne", "georges", "henri"}) || slices.Contains(in, true) {
		t.Fatalf("SealedRound = %v %v", bidders, in)
	}
	if !slices.Equal(st.ToMove(), bidders) {
		t.Fatalf("ToMove = %v, want every bidder", st.ToMove())
	}
	bid, err := parseStep(st, "georges", "bid 7")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Sealed("georges", bid) || s.Sealed("ines", bid) {
		t.Errorf("Sealed: georges's bid %v, ines's %v", s.Sealed("georges", bid), s.Sealed("ines", bid))
	}
	if got := s.PublicStep("georges", bid, notation.English); got != "georges has bid" {
		t.Errorf("PublicStep = %q", got)
	}
	if got := s.PublicStep("georges", bid, notation.French); got != "georges a misé" {
		t.Errorf("PublicStep in French = %q", got)
	}
	play(t, st, "georges", "bid 7")
	if !s.SealedIn("georges") || s.SealedIn("fabienne") || !slices.Contains(st.ToMove(), "georges") {
		t.Fatalf("after georges's bid: SealedIn %v, ToMove %v", s.SealedIn("georges"), st.ToMove())
	}
	for _, view := range []string{st.Text(""), st.Text("fabienne"), st.Text("henri"), boardJSON(t, st), privateJSON(t, st, "henri")} {
		if strings.Contains(view, "bid 7") || strings.Contains(view, "sealed bid:") || strings.Contains(view, `"bid":`) {
			t.Fatalf("georges's bid shows:\n%s", view)
		}
		flat := strings.Join(strings.Fields(view), " ")
		if !strings.Contains(flat, "georges has bid") && !strings.Contains(view, `"georges":true`) && !strings.Contains(view, `"ducats"`) {
			t.Fatalf("the view does not say georges has bid:\n%s", view)
		}
	}
	if !strings.Contains(st.Text("georges"), "georges's sealed bid: 7") {
		t.Errorf("georges does not see his bid:\n%s", st.Text("georges"))
	}
	play(t, st, "georges", "bid 9") // replaced
	play(t, st, "fabienne", "bid 8")
	if _, in := s.SealedRound(); !slices.Equal(in, []bool{true, true, false}) {
		t.Fatalf("in = %v", in)
	}
	play(t, st, "henri", "bid 2")
	if b, _ := s.SealedRound(); b != nil {
		t.Fatalf("the round is still open after the last bid: %v", b)
	}
	if !strings.Contains(st.Text(""), "bids revealed: fabienne 8, georges 9, henri 2") || !slices.Equal(st.ToMove(), []string{"georges"}) {
		t.Fatalf("after the reveal:\n%s", st.Text(""))
	}
	if s.Sealed("georges", bid) {
		t.Errorf("a bid is sealed outside a confrontation")
	}
	var _ adjudicator.Move = bid
}

// TestTieRevealsFirstRound plays the tie of l216-tie-rebid.yaml through a
// Match: the bids of the first round are revealed when it ends in a tie,
// as the rulebook's players show their cards before they bid again
// (lowenherz-1997-fr.txt:215-216), while the rebid is sealed anew; every
// bid, the last of each round too, gets its commitment.
func TestTieRevealsFirstRound(t *testing.T) {
	var pos yaml.Node
	if err := yaml.Unmarshal([]byte("card: B 6d 2w 1s\ndeck: [C crown 1w 2w]\ncastles: {a1: fabienne, n1: georges, o10: henri, a10: ines}\n"), &pos); err != nil {
		t.Fatal(err)
	}
	players := []string{"fabienne", "georges", "henri", "ines"}
	rec, err := adjudicator.NewRecord(lowenherz97.Game, players, nil, "tie", pos.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range []struct{ p, text string }{
		{"fabienne", "choose 2"}, {"georges", "choose 2"}, {"henri", "choose 2"}, {"ines", "choose 1"},
		{"henri", "bid 2"}, {"fabienne", "bid 4"}, {"georges", "bid 4"}, {"fabienne", "bid 3"},
	} {
		sub, err := m.Submit(mv.p, mv.text, "", "test")
		if err != nil {
			t.Fatalf("%s %q: %v", mv.p, mv.text, err)
		}
		if strings.HasPrefix(mv.text, "bid") && len(m.Commitments(sub)) != 1 {
			t.Errorf("%s's %q has no commitment", mv.p, mv.text)
		}
	}
	got, err := m.History(reg, "ines", notation.English)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"bid 2", "bid 4", "bid 4", "fabienne has bid"}; !slices.Equal(got[4:], want) {
		t.Errorf("ines sees the bids as %q, want %q", got[4:], want)
	}
	still, err := m.SealedSteps(reg)
	if err != nil || len(still) != 1 || still[0].Move != 8 {
		t.Errorf("SealedSteps = %+v, %v; want fabienne's rebid alone", still, err)
	}
	sub, err := m.Submit("georges", "bid 3", "", "test")
	if err != nil {
		t.Fatal(err)
	}
	ever, err := m.EverSealed(reg)
	if err != nil || len(ever) != 5 || len(m.Commitments(sub)) != 1 {
		t.Errorf("EverSealed = %+v, %v; want the five bids", ever, err)
	}
	if still, err := m.SealedSteps(reg); err != nil || len(still) != 0 {
		t.Errorf("SealedSteps after the rebid = %+v, %v; want none", still, err)
	}
}
