package raubritter_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/raubritter"
)

// reg is the registry the tests run scenarios and records against, as
// `herald` does with games.All.
var reg = adjudicator.NewRegistry(raubritter.Game)

// colours are player names for tests that read like the rulebook.
var colours = []string{"red", "blue", "yellow", "green"}

func mustLoad(t testing.TB, players []string, doc string) adjudicator.State {
	t.Helper()
	st, err := kit.LoadPosition(players, doc)
	if err != nil {
		t.Fatalf("position: %v\n%s", err, doc)
	}
	return st
}

// randomState returns a game of n players (colour names) started from seed
// and walked a random number of steps, possibly to its end.
func randomState(t testing.TB, n int, seed string) adjudicator.State {
	t.Helper()
	rng := adjudicator.NewRNG("state\x00" + seed)
	opts := map[string]string{}
	if rng.IntN(2) == 0 {
		opts["setup"] = "random"
	}
	st := kit.NewState(t, colours[:n], seed, opts)
	gametest.Walk(t, st, rng, rng.IntN(45*n))
	return st
}

// sameMove reports whether a and b are the same step: same kind, tile and
// square; knights with the same counts, and the same direction when they
// march (a direction means nothing when all stay on the castle).
func sameMove(a, b adjudicator.Move) bool {
	switch a := a.(type) {
	case raubritter.Keep:
		b, ok := b.(raubritter.Keep)
		return ok && a.Kind == b.Kind
	case raubritter.Place:
		b, ok := b.(raubritter.Place)
		return ok && a.Kind == b.Kind && a.Square == b.Square
	case raubritter.Knights:
		b, ok := b.(raubritter.Knights)
		if !ok || !slices.Equal(a.Counts, b.Counts) {
			return false
		}
		return len(a.Counts) <= 1 || a.Dir == b.Dir
	case raubritter.End:
		_, ok := b.(raubritter.End)
		return ok
	}
	return false
}

// boardView is the JSON board of the package doc, as `show --format json`
// gives it.
type boardView struct {
	Phase   string `json:"phase"`
	Squares map[string]struct {
		Tile    string   `json:"tile"`
		Knights []string `json:"knights"`
		Top     string   `json:"top"`
	} `json:"squares"`
	Knights map[string]int `json:"knights"`
	Tiles   map[string]int `json:"tiles"`
	Area    struct {
		Limit   int    `json:"limit"`
		Columns string `json:"columns"`
		Rows    string `json:"rows"`
	} `json:"area"`
	Placed int    `json:"placed"`
	Castle string `json:"castle"`
}

func board(t testing.TB, st adjudicator.State) boardView {
	t.Helper()
	return gametest.DecodeView[boardView](t, st.Board())
}

// privateView is the JSON private view of the package doc.
type privateView struct {
	Hand  []string `json:"hand"`
	Stack int      `json:"stack"`
	Next  string   `json:"next"`
}

func private(t testing.TB, st adjudicator.State, player string) privateView {
	t.Helper()
	return gametest.DecodeView[privateView](t, st.Private(player))
}

// points is what the top knight of a tile scores, by the tile's building
// (raubritter-fr-scan.txt:243-245), recomputed here from the tile's name.
func points(tile string) int {
	switch {
	case strings.HasSuffix(tile, " castle"):
		return 1
	case strings.HasSuffix(tile, " village"):
		return 2
	case strings.HasSuffix(tile, " town"):
		return 3
	}
	return 0
}

// squareRC returns the 0-based row and column of a square name.
func squareRC(t testing.TB, name string) (row, col int) {
	t.Helper()
	q, err := raubritter.ParseSquare(name)
	if err != nil {
		t.Fatalf("square %q: %v", name, err)
	}
	return q.Row, q.Col
}
