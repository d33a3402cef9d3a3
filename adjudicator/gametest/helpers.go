package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// NewState starts a game of the kit's game from the setup, as `herald new`
// does: players in seating order, seed, options by name (nil: defaults).
func (k *Kit) NewState(t testing.TB, players []string, seed string, options map[string]string) adjudicator.State {
	t.Helper()
	opts, err := k.Game.ResolveOptions(options)
	if err != nil {
		t.Fatal(err)
	}
	st, err := k.Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Play parses and applies every step of text directly on st, and fails
// the test at the first step refused.
func Play(t testing.TB, st adjudicator.State, player, text string) {
	t.Helper()
	steps, errs := notation.Split(text)
	if len(errs) > 0 {
		t.Fatalf("%q: %v", text, errs)
	}
	for _, step := range steps {
		mv, err := st.Parse(player, step)
		if err != nil {
			t.Fatalf("%s %q: %v", player, step.Text, err)
		}
		if err := st.Apply(player, mv); err != nil {
			t.Fatalf("%s %q: %v\n%s", player, step.Text, err, st.Text(""))
		}
	}
}

// Walk plays up to n random legal steps on st, a random player among those
// to move each time, and stops early at the end of the game. It returns
// the number of steps played.
func Walk(t testing.TB, st adjudicator.State, rng *adjudicator.RNG, n int) int {
	t.Helper()
	for i := range n {
		to := st.ToMove()
		if len(to) == 0 {
			return i
		}
		p := to[rng.IntN(len(to))]
		legal := st.Legal(p)
		if len(legal) == 0 {
			t.Fatalf("%s must act but has no legal step\n%s", p, st.Text(""))
		}
		mv := legal[rng.IntN(len(legal))]
		if err := st.Apply(p, mv); err != nil {
			t.Fatalf("%s's legal step %q refused: %v", p, mv, err)
		}
	}
	return n
}

// MoveStrings returns the canonical notation of moves.
func MoveStrings(moves []adjudicator.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}

// DecodeView returns v (a Board or Private view) as encoding/json writes
// it, read back into T with unknown fields refused: a test's struct for
// the JSON view of a game's package doc, which so holds every field the
// view has.
func DecodeView[T any](t testing.TB, v any) T {
	t.Helper()
	var out T
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("%T from JSON %s: %v", out, data, err)
	}
	return out
}

// BenchSelfPlay plays complete games of n players with
// adjudicator.SelfPlay, each submission printed and parsed back: one game
// per op, reported as games/s too.
func (k *Kit) BenchSelfPlay(b *testing.B, n int) {
	clock := func() string { return "" }
	i := 0
	for b.Loop() {
		if _, err := adjudicator.SelfPlay(k.Game, k.registry(), n, fmt.Sprintf("bench-%d", i), nil, clock); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
}

// benchStates returns 64 states of games in progress from random(i), the
// i-th random state of the game's tests.
func benchStates(random func(i int) adjudicator.State) []adjudicator.State {
	var states []adjudicator.State
	for i := 0; len(states) < 64; i++ {
		if st := random(i); len(st.ToMove()) > 0 {
			states = append(states, st)
		}
	}
	return states
}

// BenchLegalApply lists the legal steps of the first player to move in a
// game in progress (from random, the i-th random state of the game's
// tests) and applies one of them: one step per op.
func BenchLegalApply(b *testing.B, random func(i int) adjudicator.State) {
	states := benchStates(random)
	i := 0
	for b.Loop() {
		st := states[i%len(states)].Clone()
		p := st.ToMove()[0]
		legal := st.Legal(p)
		if err := st.Apply(p, legal[i%len(legal)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchText renders the board of a game in progress (from random, as for
// BenchLegalApply) as the first player to move sees it: one board per op,
// the text of every mail herald sends.
func BenchText(b *testing.B, random func(i int) adjudicator.State) {
	states := benchStates(random)
	i := 0
	for b.Loop() {
		st := states[i%len(states)]
		_ = st.Text(st.ToMove()[0])
		i++
	}
}

// GoldenBoards compares, for each named state, Text("") with
// testdata/golden/NAME.txt and Text(as) with testdata/golden/NAME-AS.txt,
// and, for a game that writes its board in French too
// (adjudicator.LangTexter), the French boards with NAME-fr.txt and
// NAME-AS-fr.txt; go test -update rewrites them.
func GoldenBoards(t *testing.T, states map[string]adjudicator.State, as string) {
	for name, st := range states {
		langs := []notation.Lang{notation.English}
		if _, ok := st.(adjudicator.LangTexter); ok {
			langs = append(langs, notation.French)
		}
		for _, lang := range langs {
			for _, viewer := range []string{"", as} {
				file := name
				if viewer != "" {
					file += "-" + viewer
				}
				if lang == notation.French {
					file += "-fr"
				}
				file += ".txt"
				t.Run(file, func(t *testing.T) {
					CheckGolden(t, filepath.Join("testdata", "golden", file), adjudicator.TextIn(st, viewer, lang), *Update)
				})
			}
		}
	}
}

// widthNames are the player names of Kit.TextWidth: short ones, names as
// long as the status lines are laid out for (12 characters), and the
// longest names herald accepts (64).
var widthNames = [][]string{
	{"p1", "p2", "p3", "p4"},
	{"alexandrinus", "bartholomeus", "cunibert.dlt", "alphonse-tol"},
	{strings.Repeat("w", 64), strings.Repeat("x", 64), strings.Repeat("y", 64), strings.Repeat("z", 64)},
}

// TextWidth checks that every line of every board fits in 72 columns, for
// every step of games (a sixth of them, at least 3, under -short) of
// size(i) players each, public and private views, with short names, names
// of 12 characters and the longest names herald accepts (64).
func (k *Kit) TextWidth(t *testing.T, games int, size func(i int) int) {
	if testing.Short() {
		games = max(games/6, 3)
	}
	for i := range games {
		players := widthNames[i%len(widthNames)][:size(i)]
		seed := fmt.Sprintf("width-%d", i)
		st := k.NewState(t, players, seed, nil)
		rng := adjudicator.NewRNG(seed)
		for {
			for _, as := range append([]string{""}, players...) {
				CheckWidth(t, seed, st.Text(as))
				if _, ok := st.(adjudicator.LangTexter); ok {
					CheckWidth(t, seed+" in French", adjudicator.TextIn(st, as, notation.French))
				}
			}
			if Walk(t, st, rng, 1) == 0 {
				break
			}
		}
	}
}

// CheckWidth fails the test if a line of text, a board that what names,
// is over 72 columns.
func CheckWidth(t testing.TB, what, text string) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(line); n > 72 {
			t.Fatalf("%s: line %d is %d columns, more than 72:\n%s\n\n%s", what, i+1, n, line, text)
		}
	}
}

// EnglishLeft returns those of words that text holds as whole words
// (between characters that are not letters), in the order of words: a
// test of a board in French (adjudicator.TextIn) names the English words
// of its legend and status lines that must not be left over in it. The
// words are single words; case counts ("Henri" is not "henri").
func EnglishLeft(text string, words ...string) []string {
	in := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		in[w] = true
	}
	var left []string
	for _, w := range words {
		if in[w] {
			left = append(left, w)
		}
	}
	return left
}
