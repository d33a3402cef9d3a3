package adjudicator

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Scenario is a rules check or a dispute: a position (or a seed to start
// from the setup), moves with the verdict each should get, and what the
// game's JSON view should show afterwards.
//
//	game: raubritter
//	rule: raubritter-fr-scan.txt:191   # what it checks
//	players: [red, blue]
//	position: {...}                    # the game's position format; or seed: to start from the setup
//	moves:
//	  - player: red
//	    steps: knights east 1 2 1
//	    expect: legal                  # or illegal, with error: (a substring) and/or rule:
//	expect:                            # keys of `show --format json`; maps compare only the keys given
//	  scores: {red: 3}
type Scenario struct {
	Name     string // file name, for messages
	Game     string
	Rule     string
	Players  []string
	Options  map[string]string
	Seed     string
	Position *yaml.Node
	Moves    []ScenarioMove
	Expect   *yaml.Node // nil when the scenario checks only verdicts
}

// ScenarioMove is one submission of a scenario and the verdict it should get.
type ScenarioMove struct {
	Line    int // in the scenario file
	Player  string
	Steps   string
	Illegal bool   // expect: illegal
	Error   string // for an illegal move: a substring of the error, optional
	Rule    string // for an illegal move: the rule it must cite, optional
}

var scenarioKeys = []string{"game", "rule", "players", "options", "seed", "position", "moves", "expect"}
var scenarioMoveKeys = []string{"player", "steps", "expect", "error", "rule"}

// LoadScenario reads a scenario file. Unknown keys and malformed values are
// errors with the file's line and column.
func LoadScenario(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseScenario(path, data)
}

// ParseScenario reads a scenario from data; name is used in messages.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return &notation.Error{File: name, Pos: notation.Pos{Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &notation.Error{File: name, Pos: notation.Pos{Line: notation.YAMLErrorLine(err), Col: 1},
			Msg: "not a YAML scenario: " + notation.YAMLErrorText(err)}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errAt(&doc, "a scenario is a mapping with keys %v", scenarioKeys)
	}
	root := doc.Content[0]
	if err := checkKeys(root, scenarioKeys, errAt); err != nil {
		return nil, err
	}
	sc := &Scenario{Name: name}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		var err error
		switch k.Value {
		case "game":
			err = decodeScalar(v, &sc.Game, "the game's name", errAt)
		case "rule":
			err = decodeScalar(v, &sc.Rule, "the rule checked", errAt)
		case "seed":
			err = decodeScalar(v, &sc.Seed, "a seed", errAt)
		case "players":
			sc.Players, err = decodePlayers(v, errAt)
		case "options":
			sc.Options, err = decodeOptions(v, errAt)
		case "position":
			sc.Position = v
		case "expect":
			if v.Kind != yaml.MappingNode {
				return nil, errAt(v, "expect: expected a mapping of keys of `show --format json` to their values")
			}
			sc.Expect = v
		case "moves":
			if v.Kind != yaml.SequenceNode {
				return nil, errAt(v, "moves: expected a list of moves")
			}
			for _, mn := range v.Content {
				mv, err := parseScenarioMove(mn, errAt)
				if err != nil {
					return nil, err
				}
				sc.Moves = append(sc.Moves, mv)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	for _, key := range []string{"game", "players"} {
		if !hasKey(root, key) {
			return nil, errAt(root, "missing key %q (a scenario has %v)", key, scenarioKeys)
		}
	}
	return sc, nil
}

func parseScenarioMove(n *yaml.Node, errAt func(*yaml.Node, string, ...any) error) (ScenarioMove, error) {
	mv := ScenarioMove{Line: n.Line}
	if n.Kind != yaml.MappingNode {
		return mv, errAt(n, "a move is a mapping with keys %v", scenarioMoveKeys)
	}
	if err := checkKeys(n, scenarioMoveKeys, errAt); err != nil {
		return mv, err
	}
	expect := ""
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], n.Content[j+1]
		var dst *string
		switch k.Value {
		case "player":
			dst = &mv.Player
		case "steps":
			dst = &mv.Steps
		case "expect":
			dst = &expect
		case "error":
			dst = &mv.Error
		case "rule":
			dst = &mv.Rule
		}
		if err := decodeScalar(v, dst, k.Value, errAt); err != nil {
			return mv, err
		}
		if k.Value == "expect" && expect != "legal" && expect != "illegal" {
			return mv, errAt(v, "expect: expected legal or illegal, got %q", expect)
		}
	}
	if mv.Player == "" || mv.Steps == "" {
		return mv, errAt(n, "a move needs a player and steps")
	}
	mv.Illegal = expect == "illegal"
	if !mv.Illegal && (mv.Error != "" || mv.Rule != "") {
		return mv, errAt(n, "error: and rule: describe an illegal move; add expect: illegal")
	}
	return mv, nil
}

// ScenarioResult is the outcome of running a scenario.
type ScenarioResult struct {
	Name    string
	Pass    bool
	Failure string // the first difference, when not Pass
}

// String returns "PASS name" or "FAIL name: difference".
func (r ScenarioResult) String() string {
	if r.Pass {
		return "PASS " + r.Name
	}
	return "FAIL " + r.Name + ": " + r.Failure
}

// RunScenario plays sc and compares. With verbose non-nil it writes the
// board after each move there.
func RunScenario(reg *Registry, sc *Scenario, verbose io.Writer) ScenarioResult {
	res := ScenarioResult{Name: sc.Name}
	fail := func(format string, args ...any) ScenarioResult {
		res.Failure = fmt.Sprintf(format, args...)
		return res
	}
	g, err := reg.Lookup(sc.Game)
	if err != nil {
		return fail("%v", err)
	}
	seed := sc.Seed
	if seed == "" {
		seed = "scenario"
	}
	rec, err := NewRecord(g, sc.Players, sc.Options, seed, sc.Position)
	if err != nil {
		return fail("%v", err)
	}
	m, err := Start(reg, rec)
	if err != nil {
		return fail("%v", err)
	}
	if verbose != nil {
		fmt.Fprintf(verbose, "== %s: start\n%s\n", sc.Name, m.State.Text(""))
	}
	for i, mv := range sc.Moves {
		_, err := m.Submit(mv.Player, mv.Steps, "", "scenario")
		what := fmt.Sprintf("move %d (line %d) %s %q", i+1, mv.Line, mv.Player, mv.Steps)
		switch {
		case err != nil && !mv.Illegal:
			return fail("%s: expected legal, got: %v", what, err)
		case err == nil && mv.Illegal:
			return fail("%s: expected illegal, but it was accepted", what)
		case err != nil:
			msg := err.Error()
			if mv.Error != "" && !strings.Contains(msg, mv.Error) && !strings.Contains(Localize(err, notation.French), mv.Error) {
				return fail("%s: expected an error containing %q, got: %v", what, mv.Error, err)
			}
			if mv.Rule != "" && !strings.Contains(msg, "rule: "+mv.Rule) {
				return fail("%s: expected the error to cite rule %q, got: %v", what, mv.Rule, err)
			}
		}
		if verbose != nil {
			verdict := "legal"
			if err != nil {
				verdict = "illegal: " + err.Error()
			}
			fmt.Fprintf(verbose, "== %s: %s: %s\n%s\n", sc.Name, what, verdict, m.State.Text(""))
		}
	}
	if sc.Expect != nil {
		var want any
		if err := sc.Expect.Decode(&want); err != nil {
			return fail("expect: %v", err)
		}
		data, err := json.Marshal(m.View(""))
		if err != nil {
			return fail("view: %v", err)
		}
		var got any
		if err := json.Unmarshal(data, &got); err != nil {
			return fail("view: %v", err)
		}
		if diff := Subset("", want, got); diff != "" {
			return fail("after the moves, %s", diff)
		}
	}
	res.Pass = true
	return res
}

// Subset compares an expected value (from YAML) with a got value (from
// JSON): maps compare only the keys the expected map names, lists compare
// element by element and must have the same length, numbers compare by
// value. It returns "" when they match, or the first difference with its
// path ("board.squares.f6.knights: expected [red], got [red blue]").
func Subset(path string, want, got any) string {
	at := path
	if at == "" {
		at = "the view"
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected a mapping, got %s", at, show(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			p := k
			if path != "" {
				p = path + "." + k
			}
			if !ok {
				return fmt.Sprintf("%s: expected %s, but there is no such key", p, show(w[k]))
			}
			if d := Subset(p, w[k], gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: expected %s, got %s", at, show(want), show(got))
		}
		for i := range w {
			if d := Subset(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return fmt.Sprintf("%s: expected %s, got %s", at, show(want), show(got))
			}
		}
		return ""
	}
	if wn, ok := number(want); ok {
		if gn, ok := number(got); ok && wn == gn {
			return ""
		}
		return fmt.Sprintf("%s: expected %s, got %s", at, show(want), show(got))
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: expected %s, got %s", at, show(want), show(got))
	}
	return ""
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
