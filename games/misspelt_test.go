package games_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
)

// TestMisspeltKeyword: a keyword misspelt inside a step, where the game's
// parser expected something else (a square), is refused with what was
// expected and the keyword it looks like (Game.suggestKeyword), in the
// step's language; a word like no keyword, a short one, a square and a
// keyword out of its place get no suggestion.
func TestMisspeltKeyword(t *testing.T) {
	for _, tt := range []struct {
		game, step string
		want       string // in the error; "" for no suggestion at all
	}{
		{"lowenherz", "castle a1 knigt a2", `; did you mean "knight"?`},
		{"lowenherz", "château a1 chevallier a2", `vouliez-vous dire « chevalier »`},
		{"lowenherz", "castle a1 banana a2", ""},
		{"lowenherz", "castle a1 kni a2", ""},
		{"lowenherz", "castle a1 m77 a2", ""},
		{"lowenherz", "castle a1 castle a2", ""},
		{"lowenherz97", "castle a1 knihgt a2", `did you mean "knight"`},
		{"raubritter", "keep plain vilage", `did you mean "village"`}, // the game's own
	} {
		g, err := games.All.Lookup(tt.game)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := adjudicator.NewRecord(g, []string{"a", "b"}, nil, "misspelt", nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := adjudicator.Start(games.All, rec)
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Submit("a", tt.step, "", "")
		var se *adjudicator.StepError
		if !errors.As(err, &se) {
			t.Fatalf("%s %q: %v, want a step's error", tt.game, tt.step, err)
		}
		lang := notation.English
		if strings.Contains(tt.step, "château") {
			lang = notation.French
		}
		msg := se.Err.(*notation.Error).Localize(lang)
		switch {
		case tt.want == "" && (strings.Contains(msg, "did you mean") || strings.Contains(msg, "vouliez-vous dire")):
			t.Errorf("%s %q: %s; want no suggestion", tt.game, tt.step, msg)
		case tt.want != "" && !strings.Contains(msg, tt.want):
			t.Errorf("%s %q: %s; want %s", tt.game, tt.step, msg, tt.want)
		}
	}
}
