package lowenherz97_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
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
		gametest.Play(t, st, step.p, step.text)
	}
	bidders, in := s.SealedRound()
	if !slices.Equal(bidders, []string{"fabienne", "georges", "henri"}) || slices.Contains(in, true) {
		t.Fatalf("SealedRound = %v %v", bidders, in)
	}
	if !slices.Equal(st.ToMove(), bidders) {
		t.Fatalf("ToMove = %v, want every bidder", st.ToMove())
	}
	bid, err := gametest.ParseOne(st, "georges", "bid 7")
	if err != nil {
		t.Fatal(err)
	}
	if s.SealOf("georges", bid) == 0 || s.SealOf("ines", bid) != 0 {
		t.Errorf("SealOf: georges's bid %v, ines's %v", s.SealOf("georges", bid), s.SealOf("ines", bid))
	}
	if got := s.PublicStep("georges", bid, notation.English); got != "georges has bid" {
		t.Errorf("PublicStep = %q", got)
	}
	if got := s.PublicStep("georges", bid, notation.French); got != "georges a misé" {
		t.Errorf("PublicStep in French = %q", got)
	}
	if got := s.PublicStep("", bid, notation.English); got != "has bid" {
		t.Errorf("PublicStep without its subject = %q", got)
	}
	gametest.Play(t, st, "georges", "bid 7")
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
	gametest.Play(t, st, "georges", "bid 9") // replaced
	gametest.Play(t, st, "fabienne", "bid 8")
	if _, in := s.SealedRound(); !slices.Equal(in, []bool{true, true, false}) {
		t.Fatalf("in = %v", in)
	}
	gametest.Play(t, st, "henri", "bid 2")
	if b, _ := s.SealedRound(); b != nil {
		t.Fatalf("the round is still open after the last bid: %v", b)
	}
	if !strings.Contains(st.Text(""), "bids revealed: fabienne 8, georges 9, henri 2") || !slices.Equal(st.ToMove(), []string{"georges"}) {
		t.Fatalf("after the reveal:\n%s", st.Text(""))
	}
	if s.SealOf("georges", bid) != 0 {
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

// TestTakenCardsStayHidden checks (RULINGS.md L97-21) that the political
// card a player takes is hidden from the others until the end (l. 244:
// « il la regarde sans la montrer »): in a whole game replayed move by move, no other player's
// history, nor the public one, names the card while the game goes on, and
// every card taken is revealed, with its commitment, once it is over.
func TestTakenCardsStayHidden(t *testing.T) {
	played, err := adjudicator.SelfPlay(lowenherz97.Game, reg, 3, "takes", nil, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	rec, err := adjudicator.NewRecord(lowenherz97.Game, played.Record.Players, played.Record.Options, played.Record.Seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	takes := 0
	for _, mv := range played.Record.Moves {
		if _, err := m.Submit(mv.Player, mv.Text, "", "test"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(mv.Text, "take ") || m.State.Result().Finished {
			continue
		}
		takes++
		for _, viewer := range append(slices.Clone(m.Record.Players), "") {
			if viewer == mv.Player {
				continue
			}
			h, err := m.History(reg, viewer, notation.English)
			if err != nil {
				t.Fatal(err)
			}
			if last := h[len(h)-1]; strings.Contains(last, "take ") || !strings.Contains(last, mv.Player+" takes a political card") {
				t.Fatalf("%q sees %s's %q as %q", viewer, mv.Player, mv.Text, last)
			}
		}
	}
	if takes == 0 || !m.State.Result().Finished {
		t.Fatalf("the game took %d cards and is finished: %v; the test checked nothing", takes, m.State.Result().Finished)
	}
	h, err := m.History(reg, "", notation.English)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(h, "\n"), "takes a political card") {
		t.Error("a card taken is still hidden once the game is over")
	}
	ever, err := m.EverSealed(reg)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range ever {
		if strings.HasPrefix(c.Text, "take ") {
			n++
		}
	}
	if n < takes {
		t.Errorf("%d cards taken have commitments, want at least %d", n, takes)
	}
}
