package heritiers

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/notation"
)

// englishWords are the English words of the board's legend, status lines
// and hand, none of which a board in French may hold.
var englishWords = []string{"building", "resource", "wood", "stone", "grain", "owner", "open", "troops", "below",
	"capitals", "the", "cavalry", "moved", "this", "turn", "treasure", "treasures", "roads", "as", "they", "lie", "and", "where",
	"join", "sets", "royal", "reserve", "clockwise", "from", "shield", "empty", "reach", "costs", "row", "column",
	"green", "grey", "yellow", "stack", "top", "one", "left", "in", "won", "back", "by", "then", "troop", "tile", "tiles",
	"hand", "on", "comes", "off", "with", "last", "builds", "next", "to", "it", "move", "taken", "not", "yet", "discount",
	"discounts", "paid", "may", "destroy", "round", "after", "turns", "its", "corners"}

// TestGoldenBoardsFR pins each golden state's board in French as its first
// player sees it (TextIn), in the files ending in -fr; go test -update
// rewrites them.
func TestGoldenBoardsFR(t *testing.T) {
	for name, st := range goldenStates(t) {
		t.Run(name, func(t *testing.T) {
			got := adjudicator.TextIn(st, st.names[0], notation.French)
			for i, line := range strings.Split(got, "\n") {
				if n := utf8.RuneCountInString(line); n > textWidth {
					t.Errorf("line %d has %d columns, more than %d:\n%s", i+1, n, textWidth, line)
				}
			}
			gametest.CheckGolden(t, filepath.Join("testdata", "golden", name+"-fr.txt"), got, *gametest.Update)
		})
	}
}

// TestPictureInFrench: the picture of every golden board in French has
// the same squares as in English and its keys, legend and players' notes
// in the words of the French board, none of englishWords or "road",
// "free", "square", "label", "discs", "colour" left.
func TestPictureInFrench(t *testing.T) {
	states := map[string]adjudicator.State{}
	for name, st := range goldenStates(t) {
		states[name] = st
	}
	// The treasures' names (h-green) are the notation's, in a player's note.
	english := slices.DeleteFunc(slices.Clone(englishWords), func(w string) bool { return w == "green" || w == "grey" || w == "yellow" })
	gametest.PicturesInFrench(t, states, append(english, "road", "free", "square", "label", "discs", "colour", "a")...)
}

// TestTextInFrench: a board in French, as each player and as everyone
// sees it, has the same squares as in English, and its legend, reserve,
// scores, treasures, turn and hand in French with no English word of
// them left over, the result's sentence too (but the treasure tokens' names of the position format); Text is TextIn in
// English, and the French board is the public one followed by the
// player's lines.
func TestTextInFrench(t *testing.T) {
	states := goldenStates(t)
	for i := range 30 {
		states[fmt.Sprint("random-", i)] = randomState(t, 1+i%2, fmt.Sprintf("textin-%d", i))
	}
	for name, st := range states {
		for _, as := range []string{"", st.names[0], st.names[1]} {
			en, fr := st.Text(as), adjudicator.TextIn(st, as, notation.French)
			if en != adjudicator.TextIn(st, as, notation.English) {
				t.Errorf("%s as %q: TextIn in English differs from Text", name, as)
			}
			board := func(s string) string { return s[:strings.Index(s, "\nAUB s a")] }
			if board(en) != board(fr) {
				t.Errorf("%s as %q: the squares differ in French:\n%s\n%s", name, as, en, fr)
			}
			if pub := adjudicator.TextIn(st, "", notation.French); !strings.HasPrefix(fr, pub) {
				t.Errorf("%s as %q: the French board is not the public one and the player's lines:\n%s", name, as, fr)
			}
			words := fr
			for _, k := range treasureKinds {
				words = strings.ReplaceAll(words, k.name, "")
			}
			if left := gametest.EnglishLeft(words, englishWords...); left != nil {
				t.Errorf("%s as %q: the French board holds %q:\n%s", name, as, left, fr)
			}
			if mine := as != "" && !(st.solo && as == Henri); mine != strings.Contains(fr, "main "+adjudicator.OfName(as).FR+" :") {
				t.Errorf("%s as %q: the French board shows a hand: %v, want %v:\n%s", name, as, !mine, mine, fr)
			}
		}
	}
	st := states["mid-solo"]
	fr := adjudicator.TextIn(st, st.names[0], notation.French)
	for _, w := range []string{"AUB s a : bâtiment, ressource (w bois, s pierre, g blé), propriétaire ;", "réserve royale, en sens horaire depuis le bouclier :",
		"réserve commune : ", "trésors", "à jouer : ", ", coûte "} {
		if !strings.Contains(fr, w) {
			t.Errorf("the French board lacks %q:\n%s", w, fr)
		}
	}
}
