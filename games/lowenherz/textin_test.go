package lowenherz

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/notation"
)

// englishWords are the English words of the board's legend, status lines
// and hand, none of which a board in French may hold.
var englishWords = []string{"meadow", "forest", "king", "gold", "silver", "copper", "precious", "stones", "column",
	"castle", "capital", "knight", "knights", "colour", "whose", "domain", "domains", "neutral", "borders", "and",
	"left", "never", "acts", "scores", "in", "hand", "card", "cards", "marker", "at", "deck", "market", "empty",
	"setup", "places", "their", "to", "move", "income", "sell", "play", "playing", "for", "done", "draw", "take",
	"from", "the", "out", "are", "played", "no", "refills", "cost", "sells", "kn", "s"}

// TestPictureInFrench: the picture of every golden board in French has
// the same squares as in English and its keys, legend and players' notes
// in the words of the French board, none of englishWords or "border",
// "small", "letter", "framed", "owner" left.
func TestPictureInFrench(t *testing.T) {
	states := map[string]adjudicator.State{}
	for name, st := range goldenStates(t) {
		states[name] = st
	}
	gametest.PicturesInFrench(t, states, append(englishWords, "border", "small", "letter", "framed", "owner")...)
}

// TestTextInFrench: every golden board in French has the same squares as
// in English, its legend, status lines and hand in the rulebook's French
// terms with no English word of them left over, the result's sentence
// too, and the cards as the French notation names
// them; Text is TextIn in English.
func TestTextInFrench(t *testing.T) {
	english := englishWords
	for name, st := range goldenStates(t) {
		for _, as := range []string{"", st.names[0]} {
			en, fr := st.Text(as), adjudicator.TextIn(st, as, notation.French)
			if en != adjudicator.TextIn(st, as, notation.English) {
				t.Errorf("%s as %q: TextIn in English differs from Text", name, as)
			}
			board := func(s string) string { return s[:strings.Index(s, "\n. ")] }
			if board(en) != board(fr) {
				t.Errorf("%s as %q: the squares differ in French:\n%s\n%s", name, as, en, fr)
			}
			if left := gametest.EnglishLeft(fr, english...); left != nil {
				t.Errorf("%s as %q: the French board holds %q:\n%s", name, as, left, fr)
			}
			if as != "" && !strings.Contains(fr, "main de "+as+" : ") {
				t.Errorf("%s as %q: the French board lacks the hand:\n%s", name, as, fr)
			}
			if as == "" && strings.Contains(fr, "main ") {
				t.Errorf("%s: the public board in French shows a hand:\n%s", name, fr)
			}
		}
	}
	st := goldenStates(t)["mid-4p"]
	fr := adjudicator.TextIn(st, st.names[0], notation.French)
	for _, w := range []string{". pré F forêt V village K cité du Roi ; mines G or S argent", "chevaliers en réserve", "pion du Roi à ",
		"à jouer : ", "se vend", st.players[0].hand[0].French()} {
		if !strings.Contains(fr, w) {
			t.Errorf("the French board lacks %q:\n%s", w, fr)
		}
	}
}
