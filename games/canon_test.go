package games

import "testing"

// TestScenarioCanon: a scenario's expect may write a border or a wall
// either way round, or with another mark, as a referee reading the
// rulebook would (Game.Canon); other keys and what is not an edge are
// compared as written.
func TestScenarioCanon(t *testing.T) {
	reg := All
	for _, c := range []struct {
		game, key, in, want string
	}{
		{"lowenherz", "borders", "d1|c1", "c1|d1"},
		{"lowenherz", "borders", "c1-d1", "c1|d1"},
		{"lowenherz", "borders", "a3|a2", "a2|a3"},
		{"lowenherz", "borders", "a2|a3", "a2|a3"},
		{"lowenherz", "borders", "a1|c1", "a1|c1"}, // not an edge: as written
		{"lowenherz", "market", "d1|c1", "d1|c1"},
		{"lowenherz97", "walls", "a2-a1", "a1-a2"},
		{"lowenherz97", "walls", "c1 b1", "b1-c1"},
		{"lowenherz97", "walls", "b1-c1", "b1-c1"},
		{"lowenherz97", "castles", "a2-a1", "a2-a1"},
	} {
		g, err := reg.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if g.Canon == nil {
			got = c.in
		} else {
			got = g.Canon(c.key, c.in)
		}
		if got != c.want {
			t.Errorf("%s Canon(%q, %q) = %q, want %q", c.game, c.key, c.in, got, c.want)
		}
	}
}
