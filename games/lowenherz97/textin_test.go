package lowenherz97_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/notation"
)

// englishWords are the English words of the board's legend, status lines
// and hidden information, none of which a board in French may hold.
var englishWords = []string{"empty", "forest", "hill", "city", "castle", "knight", "knights", "rd", "region", "regions",
	"of", "neutral", "walls", "and", "the", "power", "left", "political", "bank",
	"card", "cards", "latest", "setup", "places", "beside", "it", "game", "over", "first", "player",
	"with", "decisions", "to", "move", "lay", "decision", "negotiation", "on", "offers", "answers", "between", "speaks",
	"has", "bid", "not", "rebid", "tie", "sealed", "bids", "carrying", "out", "placed", "square",
	"squares", "annexed", "wall", "looking", "at", "none", "may", "be", "replaced", "until", "every",
	"is", "in", "renegade", "treasure", "crown", "shield", "shields"}

// TestPictureInFrench: the picture of every golden board in French has
// the same squares as in English and its keys, legend and players' notes
// in the words of the French board, none of englishWords or "wall",
// "letter", "framed", "small" left.
func TestPictureInFrench(t *testing.T) {
	gametest.PicturesInFrench(t, goldenStates(t), append(englishWords, "letter", "framed", "small", "its")...)
}

// TestTextInFrench: a board in French, as each player and as everyone
// sees it, has the same squares as in English, and its legend, round,
// players, latest events and hidden information in French with no
// English word of them left over, the result's sentence too (in the
// events and the last status line); Text is TextIn in English, and the French board is the
// public one followed by the player's lines.
func TestTextInFrench(t *testing.T) {
	states := goldenStates(t)
	for i := range 30 {
		states[fmt.Sprint("random-", i)] = randomState(t, 2+i%3, fmt.Sprintf("textin-%d", i))
	}
	for name, st := range states {
		for _, as := range append([]string{""}, colours...) {
			en, fr := st.Text(as), adjudicator.TextIn(st, as, notation.French)
			if en != adjudicator.TextIn(st, as, notation.English) {
				t.Errorf("%s as %q: TextIn in English differs from Text", name, as)
			}
			board := func(s string) string { return s[:strings.Index(s, "\n. ")] }
			if board(en) != board(fr) {
				t.Errorf("%s as %q: the squares differ in French:\n%s\n%s", name, as, en, fr)
			}
			if pub := adjudicator.TextIn(st, "", notation.French); !strings.HasPrefix(fr, pub) {
				t.Errorf("%s as %q: the French board is not the public one and the player's lines:\n%s", name, as, fr)
			}
			if left := gametest.EnglishLeft(fr, englishWords...); left != nil {
				t.Errorf("%s as %q: the French board holds %q:\n%s", name, as, left, fr)
			}
			if mine := en != st.Text(""); mine != strings.Contains(fr, "ducats "+adjudicator.OfName(as).FR+" :") {
				t.Errorf("%s as %q: the French board shows the ducats: %v, want %v:\n%s", name, as, !mine, mine, fr)
			}
		}
	}
	fr := adjudicator.TextIn(states["bid-4p"], "gold", notation.French)
	for _, w := range []string{". vide  * forêt  ^ colline  # ville ; château X, chevalier x ;", "confrontation sur ", "mises secrètes : ",
		"premier joueur ", "carte d'action ", "banque ", "pouvoir"} {
		if !strings.Contains(fr, w) {
			t.Errorf("the French board lacks %q:\n%s", w, fr)
		}
	}
}
