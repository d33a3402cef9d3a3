package games_test

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
)

// TestLegalStepsInFrench checks that every legal step of every game, in
// the positions of self-played games for each player count, written in
// French as herald shows it to a French player (Game.StepIn), reads back
// as the same step, and in French when a word of it changed: the echo of
// a move is one a player may copy into their next mail.
func TestLegalStepsInFrench(t *testing.T) {
	for _, g := range games.All.Games() {
		seen := map[string]bool{}
		french := 0
		for n := max(g.MinPlayers, 2); n <= g.MaxPlayers; n++ {
			m, err := adjudicator.SelfPlay(g, games.All, n, "steps-fr", nil, func() string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			r := &adjudicator.Record{Game: m.Record.Game, Players: m.Record.Players, Seed: m.Record.Seed, SeedSHA256: m.Record.SeedSHA256, Options: m.Record.Options}
			replay, err := adjudicator.Start(games.All, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, mv := range m.Record.Moves {
				for _, p := range replay.State.ToMove() {
					for _, st := range replay.State.Legal(p) {
						text := st.String()
						if seen[text] {
							continue
						}
						seen[text] = true
						fr := g.StepIn(text, notation.French)
						if fr != text {
							french++
						}
						steps, errs := notation.Split(fr)
						if len(errs) > 0 || len(steps) != 1 {
							t.Errorf("%s: %q in French is %q: %d steps, errors %v", g.Name, text, fr, len(steps), errs)
							continue
						}
						back, err := replay.State.Parse(p, steps[0])
						switch {
						case err != nil:
							t.Errorf("%s: %q in French is %q, which does not read: %v", g.Name, text, fr, err)
						case back.String() != text:
							t.Errorf("%s: %q in French is %q, which reads as %q", g.Name, text, fr, back.String())
						case fr != text && steps[0].Lang != notation.French:
							t.Errorf("%s: %q in French is %q, which reads as English", g.Name, text, fr)
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
		}
		if len(seen) < 20 || french < len(seen)/2 {
			t.Errorf("%s: %d legal steps seen, %d of them written otherwise in French", g.Name, len(seen), french)
		}
		t.Logf("%s: %d legal steps, %d written otherwise in French", g.Name, len(seen), french)
	}
}
