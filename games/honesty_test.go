package games_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"gopkg.in/yaml.v3"
)

// TestBotHonest is the honesty property of issue 30, for every game and
// player count: at a few points of a game, the bot's search for the seat
// to move is the same, step for step, visit for visit and reward for
// reward, when everything that seat cannot see is changed: the others'
// hands, the order of the decks and stacks, the others' sealed steps. The
// other worlds are the game's own redrawings for that seat (Determinize
// with other seeds), each a state with the same view and other hidden
// cards; the search has the same seed in all. A search that peeked at the
// hidden cards would differ in the rewards at least.
func TestBotHonest(t *testing.T) {
	for _, tb := range tables {
		t.Run(tb.String(), func(t *testing.T) {
			m := startMatch(t, tb, "honest-"+tb.String())
			walk := adjudicator.NewRNG("honest-walk")
			hidden := 0   // the positions where another world hid something else
			searched := 0 // the positions where the bot had a choice
			for _, n := range []int{0, 40, 60} {
				randomSteps(t, m.State, n, walk)
				// On to a seat with a choice, so that the bot searches.
				var seat string
				for range 200 {
					to := slices.DeleteFunc(slices.Clone(m.State.ToMove()), func(p string) bool {
						return slices.Contains(adjudicator.Automata(m.State), p) || adjudicator.SealedIn(m.State, p)
					})
					if len(to) > 0 && len(m.State.Legal(to[0])) > 1 {
						seat = to[0]
						break
					}
					randomSteps(t, m.State, 1, walk)
				}
				if seat == "" {
					break
				}
				o := bot.Options{Iterations: 24, Seed: "honest"}
				want, err := bot.Rank(m.State, m.Seats(), seat, o)
				if err != nil {
					t.Fatal(err)
				}
				searched++
				for w := range 2 {
					other := m.State.(adjudicator.Determinizer).Determinize(seat, adjudicator.NewRNG(fmt.Sprint("other world ", w)))
					if other.Text("") != m.State.Text("") || other.Text(seat) != m.State.Text(seat) {
						t.Fatalf("move %d, world %d: the redrawn state shows %s another board or hand", m.MoveNumber(), w, seat)
					}
					if position(t, other) != position(t, m.State) {
						hidden++
					}
					got, err := bot.Rank(other, m.Seats(), seat, o)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(choices(got), choices(want)) {
						t.Errorf("move %d, %s to move: the search differs when what %s cannot see is redrawn (world %d):\n got %v\nwant %v", m.MoveNumber(), seat, seat, w, got, want)
					}
				}
			}
			if hidden == 0 || searched == 0 {
				t.Errorf("%d positions searched, %d worlds hiding something else: the property was not tried", searched, hidden)
			}
		})
	}
}

// position is st's whole position, hidden cards and all, as YAML.
func position(t *testing.T, st adjudicator.State) string {
	t.Helper()
	b, err := yaml.Marshal(st.Position())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// choices prints a search's result, each step with its visits and mean
// reward in full.
func choices(cs []bot.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprintf("%s %d %v", c.Move, c.Visits, c.Reward)
	}
	return out
}
