package games_test

import (
	"errors"
	"slices"
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
		// Sentences that name the game's words (a field test, 27 November
		// 2026): "je garde le village :", "I'll keep the forest village".
		{"Salut,\nje joue la carte du chevalier :\nSTEPS\nA+", 3},
		{"Hello! I'll play the knights and the castle now, thanks\nSTEPS\n--\nBob", 3},
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

// TestLegalStepsAreNoProse checks that no legal step of any game, written
// as herald writes it, is taken for a sentence around the steps and
// ignored (notation's sentence): every legal step of every position of a
// self-played game of each game, alone in a mail under a greeting, is kept.
func TestLegalStepsAreNoProse(t *testing.T) {
	for _, g := range games.All.Games() {
		n := max(g.MinPlayers, 2)
		m, err := adjudicator.SelfPlay(g, games.All, n, "prose-legal", nil, func() string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		r := &adjudicator.Record{Game: m.Record.Game, Players: m.Record.Players, Seed: m.Record.Seed, SeedSHA256: m.Record.SeedSHA256, Options: m.Record.Options}
		replay, err := adjudicator.Start(games.All, r)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, mv := range m.Record.Moves {
			for _, p := range replay.State.ToMove() {
				for _, st := range replay.State.Legal(p) {
					text := st.String()
					if seen[text] {
						continue
					}
					seen[text] = true
					env := notation.ParseEnvelope("Hello herald, thanks!\n" + text)
					if ignored := env.IgnoreProse(g.Keywords); len(ignored) != 1 {
						t.Errorf("%s: the legal step %q under a greeting: ignored %v", g.Name, text, ignored)
					}
				}
			}
			if mv.Source == adjudicator.AutomatonSource {
				continue // played by the move before it
			}
			if _, err := replay.Submit(mv.Player, mv.Text, mv.Time, mv.Source); err != nil {
				t.Fatal(err)
			}
		}
		if len(seen) < 20 {
			t.Errorf("%s: only %d legal steps seen", g.Name, len(seen))
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

// TestUnknownStepExampleFitsPhase checks that the "for example" of a step
// herald does not know shows a step the player may take now: in a
// setup, the setup's step, not a turn's (field test: alice's first mail
// to a Löwenherz game in setup got "for example: play A 2 borders; border
// e5|e6; draw", steps the setup refuses). For every game and player
// count, at the start and after a few moves, a step of the example begins
// with the word of one of the player's legal steps.
func TestUnknownStepExampleFitsPhase(t *testing.T) {
	for _, g := range games.All.Games() {
		for n := g.MinPlayers; n <= min(g.MaxPlayers, 3); n++ {
			names := []string{"alice", "bob", "carol"}[:n]
			rec, err := adjudicator.NewRecord(g, names, nil, "example", nil)
			if err != nil {
				t.Fatal(err)
			}
			m, err := adjudicator.Start(games.All, rec)
			if err != nil {
				t.Fatal(err)
			}
			for move := 0; move < 6 && !m.State.Result().Finished; move++ {
				p := m.State.ToMove()[0]
				legal := m.State.Legal(p)
				steps, _ := notation.Split("hullo there")
				_, err := m.State.Parse(p, steps[0])
				var ne *notation.Error
				if !errors.As(err, &ne) || ne.Example == "" {
					t.Fatalf("%s %dp, move %d: %q gave %v, not an error with an example", g.Name, n, move+1, "hullo there", err)
				}
				fits := false // one of the example's steps begins as a legal step does
				for _, ex := range strings.Split(ne.Example, ";") {
					verb := strings.Fields(ex)[0]
					fits = fits || slices.ContainsFunc(legal, func(l adjudicator.Move) bool { return strings.Fields(l.String())[0] == verb })
				}
				if !fits {
					t.Errorf("%s %dp, move %d: the example %q begins no legal step of %s (%d, the first %q)", g.Name, n, move+1, ne.Example, p, len(legal), legal[0])
				}
				if _, err := m.Submit(p, legal[0].String(), "", ""); err != nil {
					t.Fatalf("%s %dp, move %d: %s %q: %v", g.Name, n, move+1, p, legal[0], err)
				}
			}
		}
	}
}
