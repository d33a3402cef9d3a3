package notation_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// TestIgnoreProse checks which lines around the steps are prose (issue 15,
// item 10): greetings, thanks and signatures before the first step line or
// after the last one are ignored; a line with a keyword, a square or a
// misspelt keyword is a step, and a bad line between steps stays an error.
func TestIgnoreProse(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		steps      []string // the steps left
		errs       int      // errors left
		ignored    []int    // lines ignored
	}{
		{"greeting and thanks", "Hi herald,\nplain castle f5\nknights 0\nThanks!", []string{"plain castle f5", "knights 0"}, 0, []int{1, 4}},
		{"iphone", "plain castle f5; end\n\nSent from my iPhone", []string{"plain castle f5", "end"}, 0, []int{3}},
		{"french", "Bonjour,\nVoici mon coup :\nplaine château f5\nchevaliers sud 1 2\nfin\nMerci — ok\nBonne fin de journée", []string{"plaine château f5", "chevaliers sud 1 2", "fin"}, 0, []int{1, 2, 6, 7}},
		{"key line kept", "key 5f0c\nHello herald\nkeep plain village\nCheers, Bob", []string{"keep plain village"}, 0, []int{2, 4}},
		{"outlook", "plain castle f5\nknights east 1 1\nend\n\nBest regards,\nAlice Martin\nTel: +33 6 12 34 56 78\nGet Outlook for Android", []string{"plain castle f5", "knights east 1 1", "end"}, 0, []int{5, 6, 7, 8}},
		{"all done", "knights 0\nAll done!", []string{"knights 0"}, 0, []int{2}},
		{"misspelt keyword is a step", "Hi,\nplian castle e5\nThanks", []string{"plian castle e5"}, 0, []int{1, 3}},
		{"misspelt keyword alone", "castel\nThanks", []string{"castel"}, 0, []int{2}},
		{"take care is a step", "keep plain village\nTake care", []string{"keep plain village", "Take care"}, 0, nil},
		{"please with a keyword", "Please lay the plain castle\nplain castle e5", []string{"Please lay the plain castle", "plain castle e5"}, 0, nil},
		{"bad line between steps", "plain castle f5\nthanks!\nknights 0", []string{"plain castle f5", "thanks", "knights 0"}, 1, nil},
		{"only prose", "Hi herald,\nhow are you?", nil, 0, []int{1, 2}},
		{"square alone", "e5\nThanks", []string{"e5"}, 0, []int{2}},
		// Sentences that name the game's words around the steps (a field
		// test's two mails, 27 November 2026).
		{"french sentence with a colon", "Salut,\n\nje garde le village:\nkeep plain village\n\nA+\nAlice", []string{"keep plain village"}, 0, []int{1, 3, 6, 7}},
		{"english sentence", "Hello! I'll keep the forest village, thanks\nkeep forest vilage\n\n--\nBob\nSent from my phone", []string{"keep forest vilage"}, 0, []int{1, 4, 5, 6}},
		{"sentence with a stop", "Please lay the plain castle.\nplain castle e5", []string{"plain castle e5"}, 0, []int{1}},
		{"sentence after the steps", "plain castle e5\nknights 0\nend\nI kept the forest village for later, see you", []string{"plain castle e5", "knights 0", "end"}, 0, []int{4}},
		{"sentence with a square is a step", "I'll put the plain castle on e5, thanks\nknights 0", []string{"I'll put the plain castle on e5, thanks", "knights 0"}, 0, nil},
		{"sentence between steps stays", "plain castle e5\nthen the knights, as we said\nknights 0", []string{"plain castle e5", "then the knights, as we said", "knights 0"}, 0, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := notation.ParseEnvelope(tt.body)
			ignored := env.IgnoreProse(raubritter.Game.Keywords)
			var steps []string
			for _, st := range env.Steps {
				steps = append(steps, st.Text)
			}
			var lines []int
			for _, l := range ignored {
				lines = append(lines, l.Line)
				if want := strings.Split(tt.body, "\n")[l.Line-1]; l.Text != want {
					t.Errorf("ignored line %d is %q, want %q", l.Line, l.Text, want)
				}
			}
			if !slices.Equal(steps, tt.steps) || len(env.Errors) != tt.errs || !slices.Equal(lines, tt.ignored) {
				t.Errorf("IgnoreProse(%q):\n steps %q, %d errors %v, ignored lines %v\n want %q, %d errors, ignored %v",
					tt.body, steps, len(env.Errors), env.Errors, lines, tt.steps, tt.errs, tt.ignored)
			}
		})
	}
	// An envelope error is never ignored, and without keywords nothing is.
	env := notation.ParseEnvelope("Hi\nkey\nplain castle f5")
	if env.IgnoreProse(raubritter.Game.Keywords); len(env.Errors) != 1 {
		t.Errorf("the error of a key line with no key was dropped: %v", env.Errors)
	}
	env = notation.ParseEnvelope("Hi herald,\nplain castle f5")
	if got := env.IgnoreProse(nil); got != nil || len(env.Steps) != 2 {
		t.Errorf("IgnoreProse(nil) = %v, steps %d; want nothing ignored", got, len(env.Steps))
	}
}
