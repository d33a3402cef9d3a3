package lowenherz97_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// reg is the registry the tests run scenarios and records against, as
// `herald` does with games.All.
var reg = adjudicator.NewRegistry(lowenherz97.Game)

// colours are player names for tests that read like the rulebook.
var colours = []string{"gold", "purple", "rose", "blue"}

// newGame starts a game from the setup, as `herald new` does.
func newGame(t testing.TB, players []string, seed string, options map[string]string) adjudicator.State {
	t.Helper()
	opts, err := lowenherz97.Game.ResolveOptions(options)
	if err != nil {
		t.Fatal(err)
	}
	st, err := lowenherz97.Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// loadPosition reads a position document for players, as `herald new
// --position` does.
func loadPosition(players []string, doc string) (adjudicator.State, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		return nil, err
	}
	opts, err := lowenherz97.Game.ResolveOptions(nil)
	if err != nil {
		return nil, err
	}
	if len(n.Content) == 0 {
		n = yaml.Node{Kind: yaml.MappingNode}
	}
	return lowenherz97.Game.LoadPosition(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG("test")}, &n)
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
// does: yaml.v3 with a 2-space indent.
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

// parseStep reads one step of text for player; text must hold exactly one.
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
			t.Fatalf("%s %q: %v\n%s", player, step.Text, err, st.Text(""))
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
	if rng.IntN(3) == 0 {
		opts["setup"] = "advanced"
	}
	st := newGame(t, colours[:n], seed, opts)
	walk(t, st, rng, rng.IntN(300))
	return st
}

// boardView is the JSON board of the package doc.
type boardView struct {
	Phase        string            `json:"phase"`
	First        string            `json:"first"`
	Card         string            `json:"card"`
	Deck         int               `json:"deck"`
	Castles      map[string]string `json:"castles"`
	Knights      map[string]string `json:"knights"`
	Walls        []string          `json:"walls"`
	Regions      []regionView      `json:"regions"`
	NeutralZones int               `json:"neutral_zones"`
	Decisions    []string          `json:"decisions"`
	Negotiation  *struct {
		Between []string `json:"between"`
		Speaker string   `json:"speaker"`
		Offer   int      `json:"offer"`
		OfferBy string   `json:"offer_by"`
	} `json:"negotiation"`
	Confrontation *struct {
		Bidders []string        `json:"bidders"`
		In      map[string]bool `json:"in"`
		Rebid   bool            `json:"rebid"`
	} `json:"confrontation"`
	Actor     string         `json:"actor"`
	Action    string         `json:"action"`
	Reserve   map[string]int `json:"reserve"`
	Political map[string]int `json:"political"`
	Piles     [2]int         `json:"piles"`
	Bank      int            `json:"bank"`
	WallsLeft int            `json:"walls_left"`
	Alliances [][2]string    `json:"alliances"`
	Events    []string       `json:"events"`
}

type regionView struct {
	Owner   string `json:"owner"`
	Castle  string `json:"castle"`
	Squares int    `json:"squares"`
	Cities  int    `json:"cities"`
	Hills   int    `json:"hills"`
	Knights int    `json:"knights"`
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
	Ducats    int      `json:"ducats"`
	Political []string `json:"political"`
	Pile      []string `json:"pile"`
	Bid       string   `json:"bid"`
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

func boardJSON(t testing.TB, st adjudicator.State) string {
	t.Helper()
	data, err := json.Marshal(st.Board())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
