package games_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
)

// TestProseAroundSteps checks, for every game, that the greetings, thanks
// and signatures players write around their steps in a mail are told from
// the steps and ignored (issue 15, item 10): every move of a self-played
// game, wrapped in prose, keeps exactly its steps. Every game must give
// its Keywords; without them, "Hello all!" is a step and refused.
func TestProseAroundSteps(t *testing.T) {
	wraps := []struct {
		body    string // STEPS is replaced
		ignored int
	}{
		{"Hello all!\n\nkey K\nSTEPS\n\nCheers,\nAlice\n-- \nsent from my phone", 5},
		{"Bonjour à tous,\nclé : K\nSTEPS\nMerci et bonne fin de journée !", 2},
		{"Hi herald,\nkey K\nSTEPS\nThanks!", 2},
	}
	for _, g := range games.All.Games() {
		if len(g.Keywords) == 0 {
			t.Errorf("%s has no Keywords: prose around steps is refused", g.Name)
			continue
		}
		n := max(g.MinPlayers, 2)
		m, err := adjudicator.SelfPlay(g, games.All, n, "prose", nil, func() string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		for i, mv := range m.Record.Moves {
			if i >= 40 {
				break
			}
			w := wraps[i%len(wraps)]
			env := notation.ParseEnvelope(strings.Replace(w.body, "STEPS", mv.Text, 1))
			ignored := env.IgnoreProse(g.Keywords)
			want, _ := notation.Split(mv.Text)
			if len(env.Errors) > 0 || len(env.Steps) != len(want) || len(ignored) != w.ignored {
				t.Errorf("%s, move %d %q in %q: steps %v, errors %v, ignored %v", g.Name, i+1, mv.Text, w.body, texts(env.Steps), env.Errors, ignored)
			}
		}
	}
}

func texts(steps []*notation.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Text
	}
	return out
}

// TestHelpFitsMail checks that every line of every game's notation help
// fits the 72 columns herald's mails are wrapped at (the welcome mail
// gives the help): a longer line is broken in the middle of its column.
func TestHelpFitsMail(t *testing.T) {
	for _, g := range games.All.Games() {
		for _, h := range []string{g.Help, g.HelpFR} {
			for _, l := range strings.Split(h, "\n") {
				if n := utf8.RuneCountInString(l); n > 72 {
					t.Errorf("%s: a help line of %d columns: %q", g.Name, n, l)
				}
			}
		}
	}
}
