package heritiers

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// reg is the registry the tests run records and scenarios against.
var reg = adjudicator.NewRegistry(Game)

// startMatch starts a match of n players (1: the solo game) from seed.
func startMatch(t testing.TB, n int, seed string, opts map[string]string) *adjudicator.Match {
	t.Helper()
	players := []string{"alice", "bob"}[:n]
	rec, err := adjudicator.NewRecord(Game, players, opts, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// newState starts a state from the setup, as `herald new` does.
func newState(t testing.TB, players []string, seed string, opts map[string]string) *State {
	t.Helper()
	o, err := Game.ResolveOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Game.New(adjudicator.Setup{Players: players, Options: o, RNG: adjudicator.NewRNG(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// load reads a position document for players.
func load(players []string, doc string, opts map[string]string) (*State, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		return nil, err
	}
	o, err := Game.ResolveOptions(opts)
	if err != nil {
		return nil, err
	}
	st, err := Game.LoadPosition(adjudicator.Setup{Players: players, Options: o, RNG: adjudicator.NewRNG("test")}, &n)
	if err != nil {
		return nil, err
	}
	return st.(*State), nil
}

func mustLoad(t testing.TB, players []string, doc string) *State {
	t.Helper()
	st, err := load(players, doc, nil)
	if err != nil {
		t.Fatalf("position: %v\n%s", err, doc)
	}
	return st
}

// positionBytes writes st's position as `herald show --format position`.
func positionBytes(t testing.TB, st adjudicator.State) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(st.Position()); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// parseStep reads one step of text for player.
func parseStep(st adjudicator.State, player, text string) (adjudicator.Move, error) {
	steps, errs := notation.Split(text)
	if len(errs) > 0 {
		return nil, errs
	}
	if len(steps) != 1 {
		return nil, fmt.Errorf("%q is %d steps, not one", text, len(steps))
	}
	return st.Parse(player, steps[0])
}

// play parses and applies every step of text on st.
func play(t testing.TB, st adjudicator.State, player, text string) {
	t.Helper()
	if err := try(st, player, text); err != nil {
		t.Fatal(err)
	}
}

// try parses and applies the steps of text on st, stopping at an error.
func try(st adjudicator.State, player, text string) error {
	steps, errs := notation.Split(text)
	if len(errs) > 0 {
		return errs
	}
	for _, step := range steps {
		mv, err := st.Parse(player, step)
		if err != nil {
			return fmt.Errorf("%s %q: %w", player, step.Text, err)
		}
		if err := st.Apply(player, mv); err != nil {
			return fmt.Errorf("%s %q: %w", player, step.Text, err)
		}
	}
	return nil
}

// selfPlay plays a game as adjudicator.SelfPlay does, calling check after
// every submission.
func selfPlay(t testing.TB, n int, seed string, opts map[string]string, check func(m *adjudicator.Match)) *adjudicator.Match {
	t.Helper()
	m := startMatch(t, n, seed, opts)
	check(m)
	rng := adjudicator.NewRNG("selfplay\x00" + seed)
	for range 10_000 {
		to := m.State.ToMove()
		if len(to) == 0 {
			return m
		}
		p := to[rng.IntN(len(to))]
		scratch := m.State.Clone()
		var steps []string
		for slices.Contains(scratch.ToMove(), p) {
			legal := scratch.Legal(p)
			if len(legal) == 0 {
				t.Fatalf("%s: %s must act at move %d but has no legal step\n%s", seed, p, m.MoveNumber(), scratch.Text(""))
			}
			mv := legal[rng.IntN(len(legal))]
			if err := scratch.Apply(p, mv); err != nil {
				t.Fatalf("%s: %s's legal step %q refused: %v\n%s", seed, p, mv, err, scratch.Text(p))
			}
			steps = append(steps, mv.String())
		}
		if _, err := m.Submit(p, strings.Join(steps, "\n"), "", "selfplay"); err != nil {
			t.Fatalf("%s: move %d: %s's steps %q refused: %v", seed, m.MoveNumber(), p, steps, err)
		}
		check(m)
	}
	t.Fatalf("%s: no end after 10000 submissions", seed)
	return nil
}

// randomState returns a game of n players from seed walked a random number
// of steps (the solo game's Henri moving as a Match moves him).
func randomState(t testing.TB, n int, seed string) *State {
	t.Helper()
	rng := adjudicator.NewRNG("state\x00" + seed)
	stop := rng.IntN(120)
	var out *State
	steps := 0
	m := startMatch(t, n, seed, nil)
	for steps < stop && !m.State.Result().Finished {
		p := m.State.ToMove()[0]
		legal := m.State.Legal(p)
		mv := legal[rng.IntN(len(legal))]
		if _, err := m.Submit(p, mv.String(), "", "test"); err != nil {
			t.Fatalf("%s: %q: %v", seed, mv, err)
		}
		steps++
	}
	out = m.State.(*State)
	return out
}

// moveStrings returns the canonical notation of moves.
func moveStrings(moves []adjudicator.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
}

// setupFor returns a setup of players with options o.
func setupFor(players []string, o adjudicator.Options) adjudicator.Setup {
	return adjudicator.Setup{Players: players, Options: o, RNG: adjudicator.NewRNG("setup")}
}

// matchFrom returns a match started from st's position, as `herald new
// --position` starts one.
func matchFrom(t testing.TB, st *State) *adjudicator.Match {
	t.Helper()
	var node yaml.Node
	if err := node.Encode(st.Position()); err != nil {
		t.Fatal(err)
	}
	players := []string{st.names[0], st.names[1]}[:st.players()]
	rec, err := adjudicator.NewRecord(Game, players, nil, "test", &node)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
