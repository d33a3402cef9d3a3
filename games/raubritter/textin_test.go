package raubritter

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// TestTextInFrench: the board in French has the same cells as in English,
// and its legend, status lines and hand in the rulebook's French terms;
// Text is TextIn in English.
func TestTextInFrench(t *testing.T) {
	st, err := Game.New(adjudicator.Setup{Players: []string{"alice", "bob"}, RNG: adjudicator.NewRNG("textin")})
	if err != nil {
		t.Fatal(err)
	}
	en, fr := st.Text("alice"), adjudicator.TextIn(st, "alice", notation.French)
	if en != adjudicator.TextIn(st, "alice", notation.English) {
		t.Error("TextIn in English differs from Text")
	}
	cells := func(s string) string { return s[:strings.Index(s, "P pla")] }
	if cells(en) != cells(fr) {
		t.Errorf("the cells differ in French:\n%s\n%s", en, fr)
	}
	for _, w := range []string{"P plaine  F forêt  M montagnes  L lac", "chevaliers de bas en haut", "a alice         0 points ; reste 30 chevaliers",
		"mise en place : on attend la plaquette A gardée par alice, bob", "main d'alice : ", "pile d'alice : 20 plaquettes, prochaine lettre"} {
		if !strings.Contains(fr, w) {
			t.Errorf("the French board lacks %q:\n%s", w, fr)
		}
	}
	for _, w := range []string{"knights", "tiles", "hand", "setup"} {
		if strings.Contains(fr, w) {
			t.Errorf("the French board holds %q:\n%s", w, fr)
		}
	}
	if strings.Contains(adjudicator.TextIn(st, "", notation.French), "main ") {
		t.Error("the public board in French shows a hand")
	}
}
