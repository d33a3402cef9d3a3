package games_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
)

// TestNoFormatVerbs checks that no answer of any game holds a misused
// format verb such as %!(EXTRA string=…) or %!d(MISSING) (issue 27, item
// 6): over self-played games of every game and player count, every view
// (each player's text, the board and each private view) and the refusal of
// steps taken from other moments of the game, in English and in French.
func TestNoFormatVerbs(t *testing.T) {
	seeds := 2
	if testing.Short() {
		seeds = 1
	}
	for _, g := range games.All.Games() {
		for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
			for seed := range seeds {
				name := fmt.Sprintf("%s/%d-players/seed-%d", g.Name, n, seed)
				t.Run(name, func(t *testing.T) { checkFormatVerbs(t, g, n, fmt.Sprint("verbs-", seed)) })
			}
		}
	}
}

func checkFormatVerbs(t *testing.T, g *adjudicator.Game, n int, seed string) {
	played, err := adjudicator.SelfPlay(g, games.All, n, seed, nil, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	// Every step of the game, in English and in French where the move was
	// written in French, tried at other moments: most are refused there.
	var pool []*notation.Step
	for _, mv := range played.Record.Moves {
		steps, _ := notation.Split(mv.Text)
		pool = append(pool, steps...)
	}
	rec := *played.Record
	rec.Moves = nil
	m, err := adjudicator.Start(games.All, &rec)
	if err != nil {
		t.Fatal(err)
	}
	seats := m.Seats()
	rng := adjudicator.NewRNG("verbs\x00" + seed)
	check := func(where, text string) {
		t.Helper()
		if i := strings.Index(text, "%!"); i >= 0 {
			t.Fatalf("%s, move %d: %q holds a misused format verb:\n%s", where, m.MoveNumber(), text[max(0, i-80):min(len(text), i+80)], text)
		}
	}
	for i, mv := range played.Record.Moves {
		if len(m.Record.Moves) > i {
			continue // an automaton's move, played with the one before
		}
		st := m.State
		check("board", st.Text(""))
		for _, p := range seats {
			check(p+"'s view", st.Text(p))
			data, err := json.Marshal(st.Private(p))
			if err != nil {
				t.Fatal(err)
			}
			check(p+"'s private view", string(data))
		}
		data, err := json.Marshal(st.Board())
		if err != nil {
			t.Fatal(err)
		}
		check("the board", string(data))
		for range 6 {
			step := pool[rng.IntN(len(pool))]
			p := seats[rng.IntN(len(seats))]
			mv, err := st.Parse(p, step)
			if err == nil {
				err = st.Clone().Apply(p, mv)
			}
			if err != nil {
				for _, lang := range []notation.Lang{notation.English, notation.French} {
					check(fmt.Sprintf("%s's %q refused", p, step.Text), adjudicator.Localize(err, lang))
				}
			}
		}
		if _, err := m.Submit(mv.Player, mv.Text, mv.Time, mv.Source); err != nil {
			t.Fatalf("move %d of the self-played game refused: %v", i+1, err)
		}
	}
}

// TestScenarioRefusalsNoFormatVerbs checks every refusal the scenario
// files of testdata/ trigger, in English and in French, for a misused
// format verb: a scenario reaches refusals self-play seldom does (an
// extension onto an opponent's knight, a square already taken).
func TestScenarioRefusalsNoFormatVerbs(t *testing.T) {
	files, err := filepath.Glob("../testdata/*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		sc, err := adjudicator.LoadScenario(f)
		if err != nil || len(sc.Moves) == 0 {
			continue // not a scenario (a record, a turn file) or nothing refused
		}
		g, err := games.All.Lookup(sc.Game)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		seed := sc.Seed
		if seed == "" {
			seed = "scenario"
		}
		rec, err := adjudicator.NewRecord(g, sc.Players, sc.Options, seed, sc.Position)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		m, err := adjudicator.Start(games.All, rec)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, mv := range sc.Moves {
			_, err := m.Submit(mv.Player, mv.Steps, "", "scenario")
			if err == nil {
				continue
			}
			for _, lang := range []notation.Lang{notation.English, notation.French} {
				if text := adjudicator.Localize(err, lang); strings.Contains(text, "%!") {
					t.Errorf("%s, line %d, %q refused with a misused format verb: %s", f, mv.Line, mv.Steps, text)
				}
			}
		}
	}
}
