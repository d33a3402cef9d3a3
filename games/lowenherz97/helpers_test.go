package lowenherz97_test

import (
	"encoding/json"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/lowenherz97"
	"gopkg.in/yaml.v3"
)

// reg is the registry the tests run scenarios and records against, as
// `herald` does with games.All.
var reg = adjudicator.NewRegistry(lowenherz97.Game)

// colours are player names for tests that read like the rulebook.
var colours = []string{"gold", "purple", "rose", "blue"}

// loadPosition reads a position document for players, as `herald new
// --position` does; an empty document is the empty position.
func loadPosition(players []string, doc string) (adjudicator.State, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err == nil && len(n.Content) == 0 {
		doc = "{}"
	}
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

// randomState returns a game of n players (colour names) started from seed
// and walked a random number of steps, possibly to its end.
func randomState(t testing.TB, n int, seed string) adjudicator.State {
	t.Helper()
	rng := adjudicator.NewRNG("state\x00" + seed)
	opts := map[string]string{}
	if rng.IntN(3) == 0 {
		opts["setup"] = "advanced"
	}
	st := kit.NewState(t, colours[:n], seed, opts)
	gametest.Walk(t, st, rng, rng.IntN(300))
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
	return gametest.DecodeView[boardView](t, st.Board())
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
	return gametest.DecodeView[privateView](t, st.Private(player))
}

func boardJSON(t testing.TB, st adjudicator.State) string {
	t.Helper()
	data, err := json.Marshal(st.Board())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
