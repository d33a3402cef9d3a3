package games_test

import (
	"errors"
	"fmt"
	"slices"
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

// TestMisspeltAlso: a refused turn tells, under its error, every other
// word after the fault that looks like a misspelt keyword, with the
// keyword it looks like (StepError.Also), so that a turn with two typos
// costs one answer: the words after a notation error in the refused step,
// and those of the steps after it, never read; not a player's name, nor a
// word like no keyword.
func TestMisspeltAlso(t *testing.T) {
	for _, tt := range []struct {
		name, game string
		players    []string
		text       string
		lang       notation.Lang
		want       []string // each Also: "line:col word: first suggestion"
		pretty     string   // in Pretty, when not ""
	}{
		{"two typos in a step", "lowenherz", []string{"a", "b"}, "castel b1 knigth a1", notation.English,
			[]string{`1:11 knigth: knight`}, "also: 1:11: \"knigth\" is not a word of this game; did you mean \"knight\""},
		{"a typo in each step", "lowenherz", []string{"a", "b"}, "castle a1 knigt a2\ncastle b2 kniht b3", notation.English,
			[]string{`2:11 kniht: knight`}, ""},
		{"a typo after a step refused by the rules", "lowenherz", []string{"a", "b"}, "castle b1 knight a1\ncastle e1 knigth f1", notation.English,
			[]string{`2:11 knigth: knight`}, ""},
		{"a player's name is no typo", "lowenherz", []string{"castel", "b"}, "castle a1 knigt a2\nbanana castel", notation.English,
			nil, ""},
		{"in French", "lowenherz", []string{"a", "b"}, "château a1 chevallier a2\nchâteau b2 chevalir b3", notation.French,
			[]string{`2:12 chevalir: chevalier`}, "et aussi : 2:12: « chevalir » n'est pas un mot de ce jeu ; vouliez-vous dire « chevalier »"},
		{"the game's own words", "raubritter", []string{"a", "b"}, "keep plain vilage\nkeep plian village", notation.English,
			[]string{`2:6 plian: plain`}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := games.All.Lookup(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := adjudicator.NewRecord(g, tt.players, nil, "misspelt", nil)
			if err != nil {
				t.Fatal(err)
			}
			m, err := adjudicator.Start(games.All, rec)
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Submit(tt.players[0], tt.text, "", "")
			var se *adjudicator.StepError
			if !errors.As(err, &se) {
				t.Fatalf("%v, want a step's error", err)
			}
			var got []string
			for _, a := range se.Also {
				word, _, _ := strings.Cut(string([]rune(a.Source)[a.Pos.Col-1:]), " ")
				got = append(got, fmt.Sprintf("%s %s: %s", a.Pos, word, a.Suggest[0]))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("also %q, want %q (error: %v)", got, tt.want, err)
			}
			if p := adjudicator.Pretty(err, tt.lang); tt.pretty != "" && !strings.Contains(p, tt.pretty) {
				t.Errorf("Pretty:\n%s\nwant it to hold %q", p, tt.pretty)
			}
		})
	}
}

// TestNoLegalWordMisspelt: no word of a legal step, in English or in
// French, is ever taken for a misspelt keyword (StepError.Also): over a
// self-played game of every game and player count, each player's legal
// steps (up to 40 at every third move), sent after a step that cannot be
// read, are refused for that step alone, with nothing else named.
func TestNoLegalWordMisspelt(t *testing.T) {
	for _, g := range games.All.Games() {
		for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
			t.Run(fmt.Sprintf("%s/%dp", g.Name, n), func(t *testing.T) {
				full, err := adjudicator.SelfPlay(g, games.All, n, "misspelt-"+g.Name, nil, func() string { return "" })
				if err != nil {
					t.Fatal(err)
				}
				checked := 0
				for k := 0; k < len(full.Record.Moves); k += 3 {
					rec := *full.Record
					rec.Moves = rec.Moves[:k]
					m, err := adjudicator.Start(games.All, &rec)
					if err != nil {
						t.Fatal(err)
					}
					for _, who := range m.State.ToMove() {
						if slices.Contains(adjudicator.Automata(m.State), who) {
							continue // Henri: the game plays him
						}
						legal := m.State.Legal(who)
						for i, mv := range legal {
							if i == 40 {
								break
							}
							for _, lang := range []notation.Lang{notation.English, notation.French} {
								step := g.StepIn(mv.String(), lang)
								_, err := m.Submit(who, "zzzz\n"+step, "", "")
								var se *adjudicator.StepError
								if !errors.As(err, &se) || se.Index != 1 {
									t.Fatalf("move %d, %s: %q after an unreadable step: %v, want step 1 refused", k+1, who, step, err)
								}
								if len(se.Also) > 0 {
									t.Errorf("move %d, %s: the legal step %q is taken for a misspelling: %v", k+1, who, step, se.Also[0])
								}
								checked++
							}
						}
					}
				}
				if checked == 0 {
					t.Fatal("no legal step checked")
				}
			})
		}
	}
}
