package adjudicator_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// counting is a tiny game for the tests: players take turns adding 1 to 3
// to a running total, in one or more "add N" steps followed by "end"; whoever
// brings the total to the target (10 by default) wins at once.
//
// Its position format is
//
//	total: 7
//	to_move: bob
//	added: 0        # added so far in the current turn
//	scores: [4, 3]
var counting = &adjudicator.Game{
	Name:       "counting",
	Title:      "Counting to ten",
	Rulebook:   "COUNTING.md",
	MinPlayers: 2,
	MaxPlayers: 3,
	Options: []adjudicator.Option{
		{Name: "target", Doc: "the total that wins", Type: adjudicator.OptInt, Default: "10", Min: 5, Max: 50},
		{Name: "misere", Doc: "whoever reaches the target loses", Type: adjudicator.OptBool, Default: "false"},
		{Name: "speed", Doc: "how fast", Type: adjudicator.OptEnum, Default: "normal", Values: []string{"normal", "éclair"}},
	},
	Help:   "add N (1 to 3), then end",
	HelpFR: "ajoute N (1 à 3), puis fin",
	New: func(s adjudicator.Setup) (adjudicator.State, error) {
		c := &countState{players: s.Players, target: s.Options.Int("target"), scores: make([]int, len(s.Players))}
		// The first player is drawn, as some rules do.
		c.turn = s.RNG.IntN(len(s.Players))
		return c, nil
	},
	LoadPosition: func(s adjudicator.Setup, pos *yaml.Node) (adjudicator.State, error) {
		var p countPosition
		if err := pos.Decode(&p); err != nil {
			return nil, err
		}
		c := &countState{players: s.Players, target: s.Options.Int("target"), total: p.Total, added: p.Added, scores: p.Scores}
		c.turn = slices.Index(s.Players, p.ToMove)
		if c.turn < 0 {
			return nil, fmt.Errorf("%d:%d: to_move %q is not a player", pos.Line, pos.Column, p.ToMove)
		}
		if len(c.scores) != len(s.Players) {
			c.scores = make([]int, len(s.Players))
		}
		return c, nil
	},
}

type countPosition struct {
	Total  int    `yaml:"total"`
	ToMove string `yaml:"to_move"`
	Added  int    `yaml:"added"`
	Scores []int  `yaml:"scores,flow"`
}

type countState struct {
	players []string
	target  int
	total   int
	turn    int // index of the player to move
	added   int // in the current turn
	scores  []int
	winner  string
}

// add and end are the counting game's moves.
type (
	add struct {
		n   int
		pos notation.Pos // of the number
	}
	end struct{}
)

func (m add) String() string { return fmt.Sprintf("add %d", m.n) }
func (end) String() string   { return "end" }

var (
	countVerbs = notation.Vocabulary{
		{Name: "add", EN: []string{"plus"}, FR: []string{"ajoute", "ajouter"}},
		{Name: "end", EN: []string{"done"}, FR: []string{"fin"}},
	}
	countVerb   = notation.Noun{EN: "verb", FR: "verbe"}
	errRange    = adjudicator.Rulef("range", "COUNTING.md C-1", "", "")
	errAddFirst = adjudicator.Rulef("add-first", "COUNTING.md C-2", "add something before you end your turn", "ajoutez quelque chose avant de finir votre tour")
)

func (c *countState) ToMove() []string {
	if c.winner != "" {
		return nil
	}
	return []string{c.players[c.turn]}
}

func (c *countState) Legal(player string) []adjudicator.Move {
	if !slices.Contains(c.ToMove(), player) {
		return nil
	}
	var out []adjudicator.Move
	for n := 1; n <= 3-c.added; n++ {
		out = append(out, add{n: n})
	}
	if c.added > 0 {
		out = append(out, end{})
	}
	return out
}

func (c *countState) Parse(player string, step *notation.Step) (adjudicator.Move, error) {
	sc := notation.NewScanner(step)
	verb, err := sc.Expect(countVerbs, countVerb)
	if err != nil {
		err.Example, err.ExampleFR = "add 2", "ajoute 2"
		return nil, err
	}
	var m adjudicator.Move = end{}
	if verb == "add" {
		n, tok, ok := sc.Number()
		if !ok {
			e := sc.ErrorAt(sc.EndPos(), "missing number", "il manque un nombre")
			if tok.Text != "" {
				e = sc.ErrorAtToken(tok, fmt.Sprintf("%q is not a number", tok.Text), fmt.Sprintf("« %s » n'est pas un nombre", tok.Text))
			}
			return nil, e
		}
		m = add{n: n, pos: tok.Pos}
	}
	if err := sc.ExpectEnd(); err != nil {
		return nil, err
	}
	return m, nil
}

func (c *countState) Apply(player string, m adjudicator.Move) error {
	switch m := m.(type) {
	case add:
		if m.n < 1 || c.added+m.n > 3 {
			e := *errRange
			e.Msg = fmt.Sprintf("you may add 1 to 3 in a turn, not %d", c.added+m.n)
			e.MsgFR = fmt.Sprintf("on ajoute de 1 à 3 par tour, pas %d", c.added+m.n)
			return e.At(m.pos)
		}
		c.added += m.n
		c.total += m.n
		c.scores[c.turn] += m.n
		if c.total >= c.target {
			c.winner = player
		}
	case end:
		if c.added == 0 {
			return errAddFirst
		}
		c.added = 0
		c.turn = (c.turn + 1) % len(c.players)
	}
	return nil
}

func (c *countState) Clone() adjudicator.State {
	d := *c
	d.scores = slices.Clone(c.scores)
	return &d
}

func (c *countState) Scores() []int { return slices.Clone(c.scores) }

func (c *countState) Result() adjudicator.Result {
	if c.winner == "" {
		return adjudicator.Result{}
	}
	return adjudicator.Result{Finished: true, Winners: []string{c.winner},
		Summary: fmt.Sprintf("%s reached %d and wins", c.winner, c.target)}
}

func (c *countState) Text(as string) string {
	s := fmt.Sprintf("total %d of %d", c.total, c.target)
	if as != "" {
		s += "; you are " + as
	}
	return s
}

func (c *countState) Board() any {
	return map[string]any{"total": c.total, "target": c.target, "history": []int{}}
}

func (c *countState) Private(player string) any {
	return map[string]string{"note": "nothing hidden from " + player}
}

func (c *countState) Position() any {
	return countPosition{Total: c.total, ToMove: c.players[c.turn], Added: c.added, Scores: slices.Clone(c.scores)}
}

// reg is the registry of the tests' games.
var reg = adjudicator.NewRegistry(counting, &adjudicator.Game{Name: "nogame", MinPlayers: 1, MaxPlayers: 1})

// seed is the seed of the tests' games: with it, the draw for the first
// player of [alice bob] gives alice (with "42" it gives bob).
const seed = "0"

// newMatch starts a game of counting between alice and bob, alice first.
func newMatch(t testing.TB, moves ...string) *adjudicator.Match {
	t.Helper()
	rec, err := adjudicator.NewRecord(counting, []string{"alice", "bob"}, nil, seed, nil)
	if err != nil {
		t.Fatalf("NewRecord: %v", err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	players := []string{"alice", "bob"}
	for i, mv := range moves {
		if _, err := m.Submit(players[i%2], mv, "", "test"); err != nil {
			t.Fatalf("move %d %q: %v", i+1, mv, err)
		}
	}
	return m
}

// splitState is the counting game with its private part apart, as a
// PrivateTexter.
type splitState struct{ *countState }

func (s splitState) Text(as string) string { return s.countState.Text("") + s.PrivateText(as) }
func (s splitState) PrivateText(as string) string {
	if as == "" {
		return ""
	}
	return "; you are " + as
}

// TestTexts checks that Texts gives each player Text(player), whether the
// state renders its shared part apart (PrivateTexter) or not.
func TestTexts(t *testing.T) {
	c := &countState{players: []string{"alice", "bob"}, target: 10, total: 4, scores: []int{0, 0}}
	for _, st := range []adjudicator.State{c, splitState{c}} {
		got := adjudicator.Texts(st, []string{"alice", "bob", ""})
		want := []string{"total 4 of 10; you are alice", "total 4 of 10; you are bob", "total 4 of 10"}
		if !slices.Equal(got, want) {
			t.Errorf("Texts(%T) = %q, want %q", st, got, want)
		}
	}
}
