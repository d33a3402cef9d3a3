package adjudicator_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// scenarioYAML passes: alice adds 3, bob tries 5, then adds 2.
const scenarioYAML = `game: counting
rule: COUNTING.md C-1   # at most 3 a turn
players: [alice, bob]
options: {target: 12}
seed: "0"
moves:
  - player: alice
    steps: add 3; end
    expect: legal
  - player: bob
    steps: add 5
    expect: illegal
    error: not 5
    rule: COUNTING.md C-1
  - player: bob
    steps: |
      ajoute 2
      fin
expect:
  scores: {alice: 3}
  to_move: [alice]
  board: {total: 5, target: 12.0}
  finished: false
  result: null
`

func TestParseScenario(t *testing.T) {
	sc, err := adjudicator.ParseScenario("s.yaml", []byte(scenarioYAML))
	if err != nil {
		t.Fatalf("ParseScenario: %v", err)
	}
	if sc.Name != "s.yaml" || sc.Game != "counting" || sc.Rule != "COUNTING.md C-1" || sc.Seed != "0" ||
		!reflect.DeepEqual(sc.Players, []string{"alice", "bob"}) || !reflect.DeepEqual(sc.Options, map[string]string{"target": "12"}) ||
		sc.Position != nil || sc.Expect == nil || sc.Expect.Kind != yaml.MappingNode {
		t.Errorf("ParseScenario = %+v", sc)
	}
	want := []adjudicator.ScenarioMove{
		{Line: 7, Player: "alice", Steps: "add 3; end"},
		{Line: 10, Player: "bob", Steps: "add 5", Illegal: true, Error: "not 5", Rule: "COUNTING.md C-1"},
		{Line: 15, Player: "bob", Steps: "ajoute 2\nfin\n"},
	}
	if !reflect.DeepEqual(sc.Moves, want) {
		t.Errorf("Moves = %+v\nwant %+v", sc.Moves, want)
	}
	if res := adjudicator.RunScenario(reg, sc, nil); !res.Pass || res.String() != "PASS s.yaml" {
		t.Errorf("RunScenario = %v, want PASS s.yaml", res)
	}
}

// TestScenarioStepsList checks that a move's steps may be a list, as a
// turn file writes them: a step an item, each on its own line.
func TestScenarioStepsList(t *testing.T) {
	sc, err := adjudicator.ParseScenario("s.yaml", []byte("game: counting\nplayers: [alice, bob]\nseed: \"0\"\nmoves:\n  - player: alice\n    steps: [add 2, end]\nexpect: {board: {total: 2}, to_move: [bob]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Moves[0].Steps; got != "add 2\nend" {
		t.Errorf("steps %q, want %q", got, "add 2\nend")
	}
	if res := adjudicator.RunScenario(reg, sc, nil); !res.Pass {
		t.Errorf("RunScenario = %v", res)
	}
}

func TestLoadScenario(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte(scenarioYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := adjudicator.LoadScenario(path)
	if err != nil || sc.Name != path || len(sc.Moves) != 3 {
		t.Errorf("LoadScenario = %+v, %v", sc, err)
	}
	if _, err := adjudicator.LoadScenario(path + ".missing"); err == nil {
		t.Error("LoadScenario(missing) succeeded")
	}
}

func TestParseScenarioErrors(t *testing.T) {
	const head = "game: counting\nplayers: [alice, bob]\n"
	// An alias bomb (a "billion laughs"): &b holds 9 of &a, &c 9 of &b, and
	// so on; &d is the first that expands past what yaml.v3 decodes, at
	// line 4, column 120.
	bomb := `[&a ["x","x","x","x","x","x","x","x","x"]`
	for i, name := range "bcdefgh" {
		bomb += fmt.Sprintf(", &%c [%s]", name, strings.TrimSuffix(strings.Repeat("*"+string("abcdefgh"[i])+",", 9), ","))
	}
	bomb += "]"
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	tests := []struct {
		name string
		data string
		want string
	}{
		{"alias bomb in expect", head + "expect:\n  scores: " + bomb + "\n",
			"s.yaml:4:120: expect: the document expands too far through its aliases (yaml.v3: document contains excessive aliasing)"},
		{"alias bomb in a move's expect", head + "moves:\n  - player: alice\n    steps: add 1\n    expect: {to_move: " + bomb + "}\n",
			"s.yaml:6:132: expect: the document expands too far through its aliases (yaml.v3: document contains excessive aliasing)"},
		{"nesting past the limit", head + "expect:\n  scores: " + deep + "\n",
			"s.yaml:4:1: not a YAML scenario: nested too deep, past 10000 levels (yaml.v3: exceeded max depth of 10000)"},
		{"unknown key with a suggestion", head + "expct: {}\n",
			`s.yaml:3:1: unknown key "expct"; did you mean "expect"?`},
		{"unknown key", head + "colour: red\n",
			`s.yaml:3:1: unknown key "colour" (expected one of [game rule players options seed position moves expect])`},
		{"key twice", head + "game: other\n",
			`s.yaml:3:1: key "game" appears twice`},
		{"unknown move key", head + "moves:\n  - player: alice\n    stesp: add 1\n",
			`s.yaml:5:5: unknown key "stesp"; did you mean "steps"?`},
		{"bad expect value", head + "moves:\n  - player: alice\n    steps: add 1\n    expect: maybe\n",
			`s.yaml:6:13: expect: expected legal, illegal, or a mapping of what the view holds after the move, got "maybe"`},
		{"expect value case", head + "moves:\n  - player: alice\n    steps: add 1\n    expect: Illegal\n",
			`s.yaml:6:13: expect: expected legal, illegal, or a mapping of what the view holds after the move, got "Illegal"`},
		{"private of a stranger", head + "expect:\n  private:\n    carol: {hand: []}\n",
			`s.yaml:5:5: private: "carol" is not a player of the scenario (players: alice, bob)`},
		{"private not a mapping", head + "expect:\n  private: [alice]\n",
			`s.yaml:4:12: private: expected a mapping of players to what show --format json --as PLAYER shows as private`},
		{"set on a mapping", head + "expect:\n  board: !set {total: 0}\n",
			`s.yaml:4:10: !set goes on a list: it holds these entries in any order (walls: !set [b1-c1, a2-a3])`},
		{"empty prefix", head + "expect:\n  to_move: [!prefix \"\"]\n",
			`s.yaml:4:13: !prefix takes the beginning of a string, like a card's letter (!prefix "B ")`},
		{"position not a mapping", head + "expect:\n  position: 3\n",
			`s.yaml:4:13: position: expected a mapping of keys of show --format position (the game's position format)`},
		{"unknown tag", head + "expect:\n  board: !empty\n",
			`s.yaml:4:10: unknown tag !empty in expect (tags: !absent, !exact, !len N, !set, !prefix)`},
		{"absent with a value", head + "expect:\n  board: !absent x\n",
			`s.yaml:4:10: !absent stands alone as the value of a key (e5: !absent): that key must not be there`},
		{"absent in a list", head + "expect:\n  to_move: [!absent ]\n",
			`s.yaml:4:13: !absent stands alone as the value of a key (e5: !absent): that key must not be there`},
		{"exact on a list", head + "expect:\n  to_move: !exact [a]\n",
			`s.yaml:4:12: !exact goes on a mapping: it must have exactly these keys`},
		{"len not a number", head + "moves:\n  - player: alice\n    steps: add 1\n    expect:\n      to_move: !len two\n",
			`s.yaml:7:16: !len takes a whole number: the list or mapping has exactly that many entries (hand: !len 2)`},
		{"error without expect: illegal", head + "moves:\n  - player: alice\n    steps: add 5\n    error: not 5\n",
			`s.yaml:4:5: error: and rule: describe an illegal move; add expect: illegal`},
		{"rule with expect: legal", head + "moves:\n  - player: alice\n    steps: add 5\n    expect: legal\n    rule: C-1\n",
			`s.yaml:4:5: error: and rule: describe an illegal move; add expect: illegal`},
		{"move without steps", head + "moves:\n  - player: alice\n    expect: legal\n",
			`s.yaml:4:5: a move needs a player and steps`},
		{"move without player", head + "moves:\n  - steps: add 1\n",
			`s.yaml:4:5: a move needs a player and steps`},
		{"move a string", head + "moves:\n  - add 1\n",
			`s.yaml:4:5: a move is a mapping with keys [player steps expect error rule]`},
		{"move steps a mapping", head + "moves:\n  - player: alice\n    steps: {add: 1}\n",
			`s.yaml:5:12: expected steps, a single value`},
		{"move step a list", head + "moves:\n  - player: alice\n    steps: [add 1, [end]]\n",
			`s.yaml:5:20: expected a step, a single value`},
		{"moves a mapping", head + "moves: {player: alice}\n",
			`s.yaml:3:8: moves: expected a list of moves`},
		{"expect a list", head + "expect: [scores]\n",
			"s.yaml:3:9: expect: expected a mapping of keys of `show --format json` to their values"},
		{"players a string", "game: counting\nplayers: alice\n",
			`s.yaml:2:10: players: expected a list of player names`},
		{"options a list", head + "options: [target]\n",
			`s.yaml:3:10: options: expected a mapping of option names to values`},
		{"seed a list", head + "seed: [1]\n",
			`s.yaml:3:7: expected a seed, a single value`},
		{"missing game", "players: [alice, bob]\n",
			`s.yaml:1:1: missing key "game" (a scenario has [game rule players options seed position moves expect])`},
		{"missing players", "game: counting\n",
			`s.yaml:1:1: missing key "players" (a scenario has [game rule players options seed position moves expect])`},
		{"not a mapping", "- game: counting\n",
			`s.yaml:1:1: a scenario is a mapping with keys [game rule players options seed position moves expect]`},
		{"not YAML", head + "moves: [\n",
			`s.yaml:3:1: not a YAML scenario: did not find expected node content`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := adjudicator.ParseScenario("s.yaml", []byte(tt.data))
			if err == nil {
				t.Fatalf("ParseScenario = %+v, nil; want %q", sc, tt.want)
			}
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Errorf("error %T, want *notation.Error", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("ParseScenario error =\n  %s\nwant\n  %s", got, tt.want)
			}
		})
	}
}

func TestRunScenario(t *testing.T) {
	const head = "game: counting\nplayers: [alice, bob]\nseed: \"0\"\n"
	tests := []struct {
		name string
		data string
		want string // ScenarioResult.String()
	}{
		{"pass", head + "moves:\n  - player: alice\n    steps: add 3; end\nexpect:\n  to_move: [bob]\n",
			"PASS s.yaml"},
		{"expected legal, got illegal", head + "moves:\n  - player: alice\n    steps: add 1\n  - player: alice\n    steps: add 5\n",
			`FAIL s.yaml: move 2 (line 7) alice "add 5": expected legal, got: step 1 "add 5": 1:5: you may add 1 to 3 in a turn, not 6 [rule: COUNTING.md C-1]`},
		{"expected legal, got a notation error", head + "moves:\n  - player: alice\n    steps: add $\n",
			`FAIL s.yaml: move 1 (line 5) alice "add $": expected legal, got: 1:5: unexpected character '$'`},
		{"expected illegal", head + "moves:\n  - player: alice\n    steps: add 3\n    expect: illegal\n",
			`FAIL s.yaml: move 1 (line 5) alice "add 3": expected illegal, but it was accepted`},
		{"wrong error", head + "moves:\n  - player: bob\n    steps: add 1\n    expect: illegal\n    error: not 7\n",
			`FAIL s.yaml: move 1 (line 5) bob "add 1": expected an error containing "not 7", got: step 1 "add 1": 1:1: it is not bob's turn: waiting for alice`},
		{"error in french", head + "moves:\n  - player: bob\n    steps: add 1\n    expect: illegal\n    error: on attend alice\n",
			"PASS s.yaml"},
		{"error in another case", head + "moves:\n  - player: alice\n    steps: add 4\n    expect: illegal\n    error: Not 4\n",
			"PASS s.yaml"},
		{"error in french without accents", head + "moves:\n  - player: alice\n    steps: add 4\n    expect: illegal\n    error: DE 1 A 3 PAR TOUR\n",
			"PASS s.yaml"},
		{"error in french, words apart", head + "moves:\n  - player: alice\n    steps: add 4\n    expect: illegal\n    error: de 1 à 3 pas 4\n",
			`FAIL s.yaml: move 1 (line 5) alice "add 4": expected an error containing "de 1 à 3 pas 4", got: step 1 "add 4": 1:5: you may add 1 to 3 in a turn, not 4 [rule: COUNTING.md C-1]`},
		{"wrong rule", head + "moves:\n  - player: alice\n    steps: add 4\n    expect: illegal\n    rule: COUNTING.md C-2\n",
			`FAIL s.yaml: move 1 (line 5) alice "add 4": expected the error to cite rule "COUNTING.md C-2", got: step 1 "add 4": 1:5: you may add 1 to 3 in a turn, not 4 [rule: COUNTING.md C-1]`},
		{"no rule cited", head + "moves:\n  - player: bob\n    steps: add 1\n    expect: illegal\n    rule: COUNTING.md C-1\n",
			`FAIL s.yaml: move 1 (line 5) bob "add 1": expected the error to cite rule "COUNTING.md C-1", got: step 1 "add 1": 1:1: it is not bob's turn: waiting for alice`},
		{"expect mismatch", head + "moves:\n  - player: alice\n    steps: add 3; end\nexpect:\n  board: {total: 4}\n",
			`FAIL s.yaml: after the moves, board.total: expected 4, got 3`},
		{"expect missing key", head + "expect:\n  board: {colour: red}\n",
			`FAIL s.yaml: after the moves, board.colour: expected "red", but there is no such key`},
		{"expect list", head + "expect:\n  to_move: [bob]\n",
			`FAIL s.yaml: after the moves, to_move: expected ["bob"], got ["alice"]`},
		{"expect null", head + "expect:\n  result: {winners: []}\n",
			`FAIL s.yaml: after the moves, result: expected a mapping, got null`},
		// issue 15 item 20: expect under a move, private views, absence,
		// exact mappings, lengths.
		{"expect under a move", head + "moves:\n  - player: alice\n    steps: add 3\n    expect:\n      board: {total: 3}\n      to_move: [alice]\n" +
			"  - player: alice\n    steps: end\n    expect: {to_move: [bob]}\n", "PASS s.yaml"},
		{"expect under a move fails", head + "moves:\n  - player: alice\n    steps: add 3\n    expect:\n      board: {total: 4}\n  - player: alice\n    steps: end\n",
			`FAIL s.yaml: after move 1 (line 5) alice "add 3", board.total: expected 4, got 3`},
		{"expect under a move needs it legal", head + "moves:\n  - player: bob\n    steps: add 3\n    expect:\n      board: {total: 0}\n",
			`FAIL s.yaml: move 1 (line 5) bob "add 3": expected legal, got: step 1 "add 3": 1:1: it is not bob's turn: waiting for alice`},
		{"private", head + "expect:\n  private:\n    alice: {note: nothing hidden from alice}\n    bob: {note: nothing hidden from bob}\n", "PASS s.yaml"},
		{"private differs", head + "expect:\n  private:\n    bob: {note: nothing hidden from alice}\n",
			`FAIL s.yaml: after the moves, private.bob.note: expected "nothing hidden from alice", got "nothing hidden from bob"`},
		{"absent", head + "expect:\n  board:\n    colour: !absent\n  private:\n    alice:\n      hand: !absent\n", "PASS s.yaml"},
		{"absent but there", head + "expect:\n  board: {total: !absent }\n",
			`FAIL s.yaml: after the moves, board.total: expected no such key, got 0`},
		{"exact", head + "expect:\n  board: !exact {total: 0, target: 10, history: []}\n", "PASS s.yaml"},
		{"exact with more", head + "expect:\n  board: !exact {total: 0}\n",
			`FAIL s.yaml: after the moves, board: expected exactly the keys given, but it also has history, target`},
		{"len", head + "expect:\n  board: !len 3\n  players: !len 2\n", "PASS s.yaml"},
		{"len differs", head + "expect:\n  players: !len 3\n",
			`FAIL s.yaml: after the moves, players: expected 3 entries, got ["alice","bob"]`},
		// issue 27: the position, lists as sets, strings by their beginning.
		{"position", "game: counting\nplayers: [alice, bob]\nposition: {total: 8, to_move: bob, scores: [4, 3]}\n" +
			"moves:\n  - player: bob\n    steps: add 1\n    expect:\n      position: {total: 9, to_move: bob, added: 1}\n" +
			"expect:\n  position: !exact {total: 9, to_move: bob, added: 1, scores: !len 2}\n", "PASS s.yaml"},
		{"position differs", head + "expect:\n  position: {added: 2}\n",
			`FAIL s.yaml: after the moves, position.added: expected 2, got 0`},
		{"set", head + "expect:\n  players: !set [bob, alice]\n", "PASS s.yaml"},
		{"set differs", head + "expect:\n  players: !set [bob, bob]\n",
			`FAIL s.yaml: after the moves, players: expected ["bob","bob"] in any order, got ["alice","bob"]`},
		{"set, in another order", "game: counting\nplayers: [alice, bob]\nposition: {total: 8, to_move: bob, scores: [4, 3]}\n" +
			"expect:\n  position:\n    scores: !set [3, 4]\n", "PASS s.yaml"},
		{"prefix", head + "expect:\n  to_move: [!prefix al]\n  players: !set [!prefix b, !prefix a]\n", "PASS s.yaml"},
		{"prefix differs", head + "expect:\n  to_move: [!prefix b]\n",
			`FAIL s.yaml: after the moves, to_move: expected ["b"], got ["alice"]`},
		{"a list of one as its entry", head + "expect:\n  to_move: alice\n", "PASS s.yaml"},
		{"a list of one as its entry differs", head + "expect:\n  to_move: bob\n",
			`FAIL s.yaml: after the moves, to_move: expected "bob" (a list of one), got ["alice"]`},
		{"a list of two is no entry", head + "expect:\n  players: alice\n",
			`FAIL s.yaml: after the moves, players: expected "alice", got ["alice","bob"]`},
		{"unknown game", "game: chess\nplayers: [alice, bob]\n",
			`FAIL s.yaml: unknown game "chess" (games: counting, nogame)`},
		{"bad players", "game: counting\nplayers: [alice]\n",
			`FAIL s.yaml: counting is for 2 to 3 players, not 1`},
		{"bad option", head + "options: {target: 100}\n",
			`FAIL s.yaml: option target: 100 is out of range (expected 5 to 50)`},
		{"bad position", head + "position: {total: 1, to_move: carol}\n",
			`FAIL s.yaml: position: 4:11: to_move "carol" is not a player`},
		{"from a position", "game: counting\nplayers: [alice, bob]\nposition: {total: 8, to_move: bob, scores: [4, 4]}\n" +
			"moves:\n  - player: bob\n    steps: add 2\nexpect:\n  finished: true\n  result: {winners: [bob]}\n  scores: {alice: 4, bob: 6}\n  to_move: []\n",
			"PASS s.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := adjudicator.ParseScenario("s.yaml", []byte(tt.data))
			if err != nil {
				t.Fatalf("ParseScenario: %v", err)
			}
			res := adjudicator.RunScenario(reg, sc, nil)
			if got := res.String(); got != tt.want {
				t.Errorf("RunScenario =\n  %s\nwant\n  %s", got, tt.want)
			}
			if res.Pass != (tt.want == "PASS s.yaml") || res.Name != "s.yaml" {
				t.Errorf("RunScenario = %+v", res)
			}
		})
	}
}

func TestRunScenarioVerbose(t *testing.T) {
	sc, err := adjudicator.ParseScenario("s.yaml", []byte("game: counting\nplayers: [alice, bob]\nseed: \"0\"\nmoves:\n"+
		"  - player: alice\n    steps: add 2\n  - player: bob\n    steps: add 1\n    expect: illegal\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if res := adjudicator.RunScenario(reg, sc, &b); !res.Pass {
		t.Fatalf("RunScenario = %v", res)
	}
	want := `== s.yaml: start
total 0 of 10
== s.yaml: move 1 (line 5) alice "add 2": legal
total 2 of 10
== s.yaml: move 2 (line 7) bob "add 1": illegal: step 1 "add 1": 1:1: it is not bob's turn: waiting for alice
total 2 of 10
`
	if b.String() != want {
		t.Errorf("verbose output =\n%s\nwant\n%s", b.String(), want)
	}
}

func TestSubset(t *testing.T) {
	// got values come from JSON, so numbers are float64.
	var got any
	if err := json.Unmarshal([]byte(`{
		"scores": {"alice": 3, "bob": 2.5},
		"to_move": ["bob"],
		"board": {"squares": {"f6": {"knights": ["red", "blue"], "tile": "plain"}}, "list": [{"a": 1, "b": 2}]},
		"finished": false,
		"result": null,
		"name": "3"
	}`), &got); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		want string // YAML
		diff string
	}{
		{"empty map", `{}`, ""},
		{"subset of keys", `{scores: {alice: 3}}`, ""},
		{"nested subset", `{board: {squares: {f6: {tile: plain}}}}`, ""},
		{"int equals float", `{scores: {alice: 3}}`, ""},
		{"float equals float", `{scores: {bob: 2.5}}`, ""},
		{"float written as int-valued float", `{scores: {alice: 3.0}}`, ""},
		{"int is not a nearby float", `{scores: {bob: 2}}`, "scores.bob: expected 2, got 2.5"},
		{"number is not a string", `{name: 3}`, `name: expected 3, got "3"`},
		{"string is not a number", `{scores: {alice: "3"}}`, `scores.alice: expected "3", got 3`},
		{"missing key", `{board: {squares: {g7: {}}}}`, "board.squares.g7: expected {}, but there is no such key"},
		{"nested difference with path", `{board: {squares: {f6: {tile: lake}}}}`, `board.squares.f6.tile: expected "lake", got "plain"`},
		{"list exact", `{board: {squares: {f6: {knights: [red, blue]}}}}`, ""},
		{"list order matters", `{board: {squares: {f6: {knights: [blue, red]}}}}`,
			`board.squares.f6.knights: expected ["blue","red"], got ["red","blue"]`},
		{"list length matters", `{board: {squares: {f6: {knights: [red]}}}}`,
			`board.squares.f6.knights: expected ["red"], got ["red","blue"]`},
		{"maps in a list are subsets", `{board: {list: [{a: 1}]}}`, ""},
		{"maps in a list differ", `{board: {list: [{a: 2}]}}`, `board.list: expected [{"a":2}], got [{"a":1,"b":2}]`},
		{"list is not a map", `{to_move: {bob: 1}}`, `to_move: expected a mapping, got ["bob"]`},
		{"map is not a list", `{scores: [3]}`, `scores: expected [3], got {"alice":3,"bob":2.5}`},
		{"bool", `{finished: false}`, ""},
		{"bool differs", `{finished: true}`, "finished: expected true, got false"},
		{"null", `{result: null}`, ""},
		{"null expected", `{finished: null}`, "finished: expected null, got false"},
		{"null got", `{result: {winners: []}}`, "result: expected a mapping, got null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want any
			if err := yaml.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if d := adjudicator.Subset("", want, got); d != tt.diff {
				t.Errorf("Subset(%s) = %q, want %q", tt.want, d, tt.diff)
			}
		})
	}
	if d := adjudicator.Subset("", map[string]any{"a": 1}, 3.0); d != "the view: expected a mapping, got 3" {
		t.Errorf("Subset at the top = %q", d)
	}
	if d := adjudicator.Subset("", 3, 3.0); d != "" {
		t.Errorf("Subset(3, 3.0) = %q", d)
	}
	if d := adjudicator.Subset("x", int64(3), uint64(3)); d != "" {
		t.Errorf("Subset(int64 3, uint64 3) = %q", d)
	}
	if d := adjudicator.Subset("x", []any{}, []any{}); d != "" {
		t.Errorf("Subset([], []) = %q", d)
	}
	if d := adjudicator.Subset("x", []any{}, nil); d != "x: expected [], got null" {
		t.Errorf("Subset([], null) = %q", d)
	}
}

func TestScenarioResultString(t *testing.T) {
	if got := (adjudicator.ScenarioResult{Name: "a.yaml", Pass: true}).String(); got != "PASS a.yaml" {
		t.Errorf("String() = %q", got)
	}
	if got := (adjudicator.ScenarioResult{Name: "a.yaml", Failure: "x"}).String(); got != "FAIL a.yaml: x" {
		t.Errorf("String() = %q", got)
	}
}
