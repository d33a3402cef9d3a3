package games_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/games"
)

// table is a game and a player count the bot is tried on.
type table struct {
	game    string
	players int
}

// tables lists every game, the solo game of Les Deux Héritiers included.
var tables = []table{
	{"raubritter", 2}, {"raubritter", 4},
	{"lowenherz", 2}, {"lowenherz", 3},
	{"lowenherz97", 2}, {"lowenherz97", 4},
	{"heritiers", 2}, {"heritiers", 1},
}

func (tb table) String() string { return fmt.Sprintf("%s/%dp", tb.game, tb.players) }

// startMatch starts tb's game with players p1..pN and the given seed.
func startMatch(t testing.TB, tb table, seed string) *adjudicator.Match {
	t.Helper()
	g, err := games.All.Lookup(tb.game)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]string, tb.players)
	for i := range players {
		players[i] = "p" + strconv.Itoa(i+1)
	}
	rec, err := adjudicator.NewRecord(g, players, nil, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(games.All, rec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// randomSteps plays n random legal steps on st (the game's own seats play
// theirs), stopping early at the end of the game.
func randomSteps(t testing.TB, st adjudicator.State, n int, rng *adjudicator.RNG) {
	t.Helper()
	for range n {
		to := st.ToMove()
		if len(to) == 0 {
			return
		}
		if auto := adjudicator.Automata(st); len(auto) > 0 && slices.Contains(auto, to[0]) {
			steps, err := st.(adjudicator.Automaton).AutoSteps(to[0])
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range steps {
				if err := st.Apply(to[0], s.Move); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		to = slices.DeleteFunc(slices.Clone(to), func(p string) bool { return adjudicator.SealedIn(st, p) })
		p := to[rng.IntN(len(to))]
		legal := st.Legal(p)
		if err := st.Apply(p, legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBotPlaysEveryGame asks the bot for a step at a few points of every
// game, the start included: each must be one of the seat's legal steps,
// and the same again with the same seed.
func TestBotPlaysEveryGame(t *testing.T) {
	for _, tb := range tables {
		t.Run(tb.String(), func(t *testing.T) {
			m := startMatch(t, tb, "bot-"+tb.String())
			rng := adjudicator.NewRNG("walk")
			for _, walk := range []int{0, 40, 40} {
				randomSteps(t, m.State, walk, rng)
				to := slices.DeleteFunc(slices.Clone(m.State.ToMove()), func(p string) bool { return slices.Contains(adjudicator.Automata(m.State), p) })
				if len(to) == 0 {
					return
				}
				seat := to[0]
				o := bot.Options{Iterations: 30, Depth: 40, Seed: "s"}
				mv, err := bot.Step(m.State, m.Seats(), seat, o)
				if err != nil {
					t.Fatal(err)
				}
				legal := m.State.Legal(seat)
				if !slices.ContainsFunc(legal, func(l adjudicator.Move) bool { return l.String() == mv.String() }) {
					t.Fatalf("bot.Step = %q, not one of %s's legal steps %v", mv, seat, legal)
				}
				again, err := bot.Step(m.State, m.Seats(), seat, o)
				if err != nil || again.String() != mv.String() {
					t.Fatalf("bot.Step again = %v, %v; want %q", again, err, mv)
				}
			}
		})
	}
}
