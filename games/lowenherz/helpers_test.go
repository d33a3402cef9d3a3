package lowenherz

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// newState starts a game of n players (red, blue, yellow, green) from the
// setup with the default options.
func newState(t testing.TB, n int, seed string) *State {
	t.Helper()
	players := []string{"red", "blue", "yellow", "green"}[:n]
	opts, _ := Game.ResolveOptions(nil)
	st, err := Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// parseText reads one step of text for player.
func parseText(s *State, player, text string) (adjudicator.Move, error) {
	steps, errs := notation.Split(text)
	if len(errs) > 0 {
		return nil, errs
	}
	return s.Parse(player, steps[0])
}
