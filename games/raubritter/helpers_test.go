package raubritter_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// reg is the registry the tests run scenarios and records against, as
// `herald` does with games.All.
var reg = adjudicator.NewRegistry(raubritter.Game)

// colours are player names for tests that read like the rulebook.
var colours = []string{"red", "blue", "yellow", "green"}

// newGame starts a game from the setup, as `herald new` does.
func newGame(t testing.TB, players []string, seed string, options map[string]string) adjudicator.State {
	t.Helper()
	opts, err := raubritter.Game.ResolveOptions(options)
	if err != nil {
		t.Fatal(err)
	}
	st, err := raubritter.Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// loadPosition reads a position document for players, as `herald new
// --position` does.
func loadPosition(players []string, doc string) (adjudicator.State, error) {
	return kit.LoadPosition(players, doc)
}

func mustLoad(t testing.TB, players []string, doc string) adjudicator.State {
	t.Helper()
	st, err := loadPosition(players, doc)
	if err != nil {
		t.Fatalf("position: %v\n%s", err, doc)
	}
	return st
}

// positionBytes writes st's position as `herald show --format position`
// does.
func positionBytes(t testing.TB, st adjudicator.State) []byte {
	t.Helper()
	return kit.PositionBytes(t, st)
}

// parseStep reads one step of text for player; text must hold exactly one.
func parseStep(st adjudicator.State, player, text string) (adjudicator.Move, error) {
	return gametest.ParseOne(st, player, text)
}

// play parses and applies every step of text directly on st.
func play(t testing.TB, st adjudicator.State, player, text string) {
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
			t.Fatalf("%s %q: %v", player, step.Text, err)
		}
	}
}

// walk plays up to n random legal steps on st, a random player among those
// to move each time, and stops early at the end of the game. It returns the
// number of steps played.
func walk(t testing.TB, st adjudicator.State, rng *adjudicator.RNG, n int) int {
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

// randomState returns a game of n players (colour names) started from seed
// and walked a random number of steps, possibly to its end.
func randomState(t testing.TB, n int, seed string) adjudicator.State {
	t.Helper()
	rng := adjudicator.NewRNG("state\x00" + seed)
	opts := map[string]string{}
	if rng.IntN(2) == 0 {
		opts["setup"] = "random"
	}
	st := newGame(t, colours[:n], seed, opts)
	walk(t, st, rng, rng.IntN(45*n))
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

// moveStrings returns the canonical notation of moves.
func moveStrings(moves []adjudicator.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.String()
	}
	return out
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
	data, err := json.Marshal(st.Board())
	if err != nil {
		t.Fatal(err)
	}
	var v boardView
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("board JSON %s: %v", data, err)
	}
	return v
}

// privateView is the JSON private view of the package doc.
type privateView struct {
	Hand  []string `json:"hand"`
	Stack int      `json:"stack"`
	Next  string   `json:"next"`
}

func private(t testing.TB, st adjudicator.State, player string) privateView {
	t.Helper()
	data, err := json.Marshal(st.Private(player))
	if err != nil {
		t.Fatal(err)
	}
	var v privateView
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("private JSON %s: %v", data, err)
	}
	return v
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
