package gametest

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"gopkg.in/yaml.v3"
)

// CheckDeterminize checks a game's adjudicator.Determinizer at st for
// seat, given other, a state seat sees alike but whose hidden part the
// game's test changed (the others' hands, the order of the decks):
//
//   - the two states show seat the same (Text(seat), Board, Private(seat));
//   - a determinization keeps what seat sees, and can be played to the end
//     with random legal steps;
//   - the honesty of the search: st and other give equal determinizations
//     from equal random streams, and when seat is to move the bot
//     (bot.Step, a small budget) chooses the same step in both.
//
// seats are the names the game's Scores are given for (Match.Seats).
func CheckDeterminize(t testing.TB, st, other adjudicator.State, seats []string, seat string) {
	t.Helper()
	if view(st, seat) != view(other, seat) {
		t.Fatalf("the test's two states do not show %s the same:\n%s\n---\n%s", seat, view(st, seat), view(other, seat))
	}
	d, ok := st.(adjudicator.Determinizer)
	if !ok {
		t.Fatalf("%T has no Determinize", st)
	}
	for k := range 3 {
		seed := fmt.Sprint("determinize/", k)
		a := d.Determinize(seat, adjudicator.NewRNG(seed))
		b := other.(adjudicator.Determinizer).Determinize(seat, adjudicator.NewRNG(seed))
		if got, want := view(a, seat), view(st, seat); got != want {
			t.Fatalf("Determinize(%s) changed what %s sees:\n%s\n--- want\n%s", seat, seat, got, want)
		}
		pa, pb := position(t, a), position(t, b)
		if pa != pb {
			t.Fatalf("Determinize(%s) of two states %s sees alike differ: it lets the hidden part through\n%s\n---\n%s", seat, seat, pa, pb)
		}
		playOut(t, a, seed)
	}
	if !slices.Contains(st.ToMove(), seat) || slices.Contains(adjudicator.Automata(st), seat) {
		return
	}
	o := bot.Options{Iterations: 24, Depth: 30, Seed: "honest"}
	ra, err := bot.Rank(st, seats, seat, o)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := bot.Rank(other, seats, seat, o)
	if err != nil {
		t.Fatal(err)
	}
	if ca, cb := choices(ra), choices(rb); !slices.Equal(ca, cb) {
		t.Fatalf("the bot's search for %s differs when only what %s cannot see differs: it chose %s, then %s\n%v\n---\n%v", seat, seat, ra[0].Move, rb[0].Move, ca, cb)
	}
}

// choices prints a search's result: each step with its visits and mean
// reward in full, so that a search that peeked differs in the rewards
// even where it chose the same step.
func choices(cs []bot.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprintf("%s %d %v", c.Move, c.Visits, c.Reward)
	}
	return out
}

// view is everything seat is shown of st.
func view(st adjudicator.State, seat string) string {
	board, _ := json.Marshal(st.Board())
	priv, _ := json.Marshal(st.Private(seat))
	return st.Text(seat) + "\n" + string(board) + "\n" + string(priv)
}

func position(t testing.TB, st adjudicator.State) string {
	t.Helper()
	b, err := yaml.Marshal(st.Position())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// playOut plays random legal steps on st to the end, or for 2000 steps.
func playOut(t testing.TB, st adjudicator.State, seed string) {
	t.Helper()
	rng := adjudicator.NewRNG(seed)
	for range 2000 {
		to := st.ToMove()
		if len(to) == 0 {
			return
		}
		if auto := adjudicator.Automata(st); len(auto) > 0 && slices.Contains(auto, to[0]) {
			steps, err := st.(adjudicator.Automaton).AutoSteps(to[0])
			if err != nil {
				t.Fatalf("a determinization cannot be played on: %s: %v", to[0], err)
			}
			for _, s := range steps {
				if err := st.Apply(to[0], s.Move); err != nil {
					t.Fatalf("a determinization cannot be played on: %s's step %q: %v", to[0], s.Move, err)
				}
			}
			continue
		}
		to = slices.DeleteFunc(slices.Clone(to), func(p string) bool { return adjudicator.SealedIn(st, p) })
		if len(to) == 0 {
			t.Fatalf("a determinization cannot be played on: everyone to move has a sealed step in")
		}
		p := to[rng.IntN(len(to))]
		legal := st.Legal(p)
		if len(legal) == 0 {
			t.Fatalf("a determinization cannot be played on: %s has no legal step", p)
		}
		m := legal[rng.IntN(len(legal))]
		if err := st.Apply(p, m); err != nil {
			t.Fatalf("a determinization cannot be played on: %s's legal step %q: %v", p, m, err)
		}
	}
}
