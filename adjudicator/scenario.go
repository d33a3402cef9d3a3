package adjudicator

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Scenario is a rules check or a dispute: a position (or a seed to start
// from the setup), moves with the verdict each should get, and what the
// game's JSON view should show after any move and at the end.
//
//	game: raubritter
//	rule: raubritter-fr-scan.txt:191   # what it checks
//	players: [red, blue]
//	position: {...}                    # the game's position format; or seed: to start from the setup
//	moves:
//	  - player: red
//	    steps: plain castle e6         # or a list, a step an item, as in a turn file
//	    expect:                        # a mapping: the move is legal, and then the view holds this
//	      board: {castle: e6}
//	      private: {red: {hand: [plain, plain town]}}
//	  - player: red
//	    steps: knights east 1 2 1
//	    expect: legal                  # or illegal, with error: (a substring) and/or rule:
//	expect:                            # after the moves
//	  scores: {red: 3}
//
// An expect mapping names keys of `show --format json` and their values;
// maps compare only the keys given, lists element by element, numbers by
// value; a list of one may be written as its entry (to_move: blue). A
// list whose order means nothing (Game.SetLists: the borders on the board,
// a hand, the winners) may be given in any order, a border either way
// round (Game.Canon), and a key or a string in another case (E5 for e5).
// Its key private maps players to what `show --format json --as P`
// shows as P's private view (a hand, a stack's next letter), for any
// player. Its key position is compared with `show --format position`: the
// whole state as a referee sees it, hidden parts included (the deck's
// order, every hand). Five YAML tags say more than "holds this":
//
//	e5: !absent            # no such key: the square is empty, the stack has no next letter
//	squares: !exact {...}  # this mapping has exactly these keys, no others
//	hand: !len 2           # this list or mapping has exactly 2 entries
//	walls: !set [b1-c1, a2-a3]  # this list holds these, in any order
//	market: [!prefix "B "] # a string that begins so: a card by its letter
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
	Illegal bool       // expect: illegal
	Error   string     // for an illegal move: a substring of the error (see errorSays), optional
	Rule    string     // for an illegal move: the rule it must cite (a line of it: see citesRule), optional
	Expect  *yaml.Node // expect: as a mapping: the view after this (legal) move, or nil
}

var scenarioKeys = []string{"game", "rule", "players", "options", "seed", "position", "moves", "expect"}
var scenarioMoveKeys = []string{"player", "steps", "expect", "error", "rule"}

// LoadScenario reads a scenario file of at most MaxRecordBytes (else a
// *FileTooLargeError). Unknown keys and malformed values are errors with
// the file's line and column.
func LoadScenario(path string) (*Scenario, error) {
	data, err := ReadLimited(path, MaxRecordBytes)
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
	checks := []*yaml.Node{sc.Expect}
	for _, mv := range sc.Moves {
		checks = append(checks, mv.Expect)
	}
	for _, e := range checks {
		if e == nil {
			continue
		}
		if err := checkExpectNode(e, sc.Players, errAt); err != nil {
			return nil, err
		}
		if err := checkDecodes(e, errAt); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// checkDecodes checks that an expect mapping decodes to values, as its
// check will decode them: an alias bomb (a "billion laughs") does not,
// past the limit yaml.v3 sets, and its check then read "expected null".
// The error names yaml.v3's cause at the innermost node that does not
// decode, found key by key and entry by entry in document order: a
// decode stops at yaml.v3's limit, and the entries before the failing one
// decode within it together, so the search costs a few decodes a level,
// for at most maxDescent levels.
func checkDecodes(e *yaml.Node, errAt func(*yaml.Node, string, ...any) error) error {
	const maxDescent = 16
	var v any
	err := e.Decode(&v)
	if err == nil {
		return nil
	}
	at := e
	for range maxDescent {
		var next *yaml.Node
		for _, c := range at.Content {
			var v any
			if cerr := c.Decode(&v); cerr != nil {
				next, err = c, cerr
				break
			}
		}
		if next == nil {
			break
		}
		at = next
	}
	return errAt(at, "expect: %s", notation.YAMLErrorText(err))
}

// checkExpectNode checks an expect mapping: its tags, and that private
// names players.
func checkExpectNode(e *yaml.Node, players []string, errAt func(*yaml.Node, string, ...any) error) error {
	for i := 0; i+1 < len(e.Content); i += 2 {
		k, v := e.Content[i], e.Content[i+1]
		if k.Value == "position" && v.Kind != yaml.MappingNode {
			return errAt(v, "position: expected a mapping of keys of show --format position (the game's position format)")
		}
		if k.Value != "private" {
			continue
		}
		if v.Kind != yaml.MappingNode {
			return errAt(v, "private: expected a mapping of players to what show --format json --as PLAYER shows as private")
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			if !slices.Contains(players, v.Content[j].Value) {
				return errAt(v.Content[j], "private: %q is not a player of the scenario (players: %s)", v.Content[j].Value, strings.Join(players, ", "))
			}
		}
	}
	return checkTags(e, false, errAt)
}

// checkTags checks the tags of an expected value: !absent only as the
// value of a key, !exact on a mapping, !len on a whole number.
func checkTags(n *yaml.Node, isValue bool, errAt func(*yaml.Node, string, ...any) error) error {
	switch n.Tag {
	case tagAbsent:
		if !isValue || n.Kind != yaml.ScalarNode || n.Value != "" {
			return errAt(n, "!absent stands alone as the value of a key (e5: !absent): that key must not be there")
		}
	case tagExact:
		if n.Kind != yaml.MappingNode {
			return errAt(n, "!exact goes on a mapping: it must have exactly these keys")
		}
	case tagLen:
		if k, err := strconv.Atoi(n.Value); n.Kind != yaml.ScalarNode || err != nil || k < 0 {
			return errAt(n, "!len takes a whole number: the list or mapping has exactly that many entries (hand: !len 2)")
		}
	case tagSet:
		if n.Kind != yaml.SequenceNode {
			return errAt(n, "!set goes on a list: it holds these entries in any order (walls: !set [b1-c1, a2-a3])")
		}
	case tagPrefix:
		if n.Kind != yaml.ScalarNode || n.Value == "" {
			return errAt(n, "!prefix takes the beginning of a string, like a card's letter (!prefix \"B \")")
		}
	default:
		if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") {
			return errAt(n, "unknown tag %s in expect (tags: !absent, !exact, !len N, !set, !prefix)", n.Tag)
		}
	}
	for i, c := range n.Content {
		if err := checkTags(c, n.Kind == yaml.MappingNode && i%2 == 1, errAt); err != nil {
			return err
		}
	}
	return nil
}

// The tags of an expect mapping.
const (
	tagAbsent = "!absent"
	tagExact  = "!exact"
	tagLen    = "!len"
	tagSet    = "!set"
	tagPrefix = "!prefix"
)

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
		if k.Value == "expect" && v.Kind == yaml.MappingNode {
			mv.Expect = v
			continue
		}
		if k.Value == "steps" && v.Kind == yaml.SequenceNode {
			// A list of steps, as a turn file writes them: one a line.
			var lines []string
			for _, item := range v.Content {
				var line string
				if err := decodeScalar(item, &line, "a step", errAt); err != nil {
					return mv, err
				}
				lines = append(lines, line)
			}
			mv.Steps = strings.Join(lines, "\n")
			continue
		}
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
			return mv, errAt(v, "expect: expected legal, illegal, or a mapping of what the view holds after the move, got %q", expect)
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

// errorSays reports whether an error, in English (en) or in French (fr),
// holds want, the words a scenario's error: gives: the very text, or the
// same words in another case, with or without accents ("Chateau",
// "château").
func errorSays(en, fr, want string) bool {
	if strings.Contains(en, want) || strings.Contains(fr, want) {
		return true
	}
	w := notation.Fold(want)
	return strings.Contains(notation.Fold(en), w) || strings.Contains(notation.Fold(fr), w)
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
			if mv.Error != "" && !errorSays(msg, Localize(err, notation.French), mv.Error) {
				return fail("%s: expected an error containing %q, got: %v", what, mv.Error, err)
			}
			if mv.Rule != "" && !citesRule(msg, mv.Rule) {
				return fail("%s: expected the error to cite rule %q, got: %v", what, mv.Rule, err)
			}
		}
		if mv.Expect != nil {
			if diff := m.checkExpect(mv.Expect); diff != "" {
				return fail("after %s, %s", what, diff)
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
		if diff := m.checkExpect(sc.Expect); diff != "" {
			return fail("after the moves, %s", diff)
		}
	}
	res.Pass = true
	return res
}

// checkExpect compares an expect mapping with the match's views: each key
// with the public view, private with each player's private view. It
// returns "" or the first difference.
func (m *Match) checkExpect(e *yaml.Node) string {
	public, err := viewJSON(m.View(""))
	if err != nil {
		return err.Error()
	}
	pub, _ := public.(map[string]any)
	mt := m.matcher()
	for i := 0; i+1 < len(e.Content); i += 2 {
		k, v := e.Content[i], e.Content[i+1]
		if k.Value == "position" {
			got, err := positionValue(m.State)
			if err != nil {
				return err.Error()
			}
			if d := mt.node("position", v, got, true); d != "" {
				return d
			}
			continue
		}
		if k.Value != "private" {
			got, ok := pub[k.Value]
			if d := mt.node(k.Value, v, got, ok); d != "" {
				return d
			}
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			p := v.Content[j].Value
			view, err := viewJSON(m.View(p))
			if err != nil {
				return err.Error()
			}
			got, ok := view.(map[string]any)["private"]
			if d := mt.node("private."+p, v.Content[j+1], got, ok); d != "" {
				return d
			}
		}
	}
	return ""
}

// positionValue returns st's position as `show --format position` writes
// it, read back as YAML gives it: maps, lists, strings, numbers.
func positionValue(st State) (any, error) {
	data, err := yaml.Marshal(st.Position())
	if err != nil {
		return nil, fmt.Errorf("position: %v", err)
	}
	var got any
	if err := yaml.Unmarshal(data, &got); err != nil {
		return nil, fmt.Errorf("position: %v", err)
	}
	return got, nil
}

// viewJSON returns v as encoding/json would give it back: maps, lists,
// float64s.
func viewJSON(v *View) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("view: %v", err)
	}
	var got any
	if err := json.Unmarshal(data, &got); err != nil {
		return nil, fmt.Errorf("view: %v", err)
	}
	return got, nil
}

// matcher compares a scenario's expectations with a match's views.
type matcher struct {
	// sets are the keys whose lists are sets (Game.SetLists and
	// commonSets): an untagged list under one of them matches in any
	// order, as !set does, and so do the lists inside it.
	sets map[string]bool
	// canon is the game's Game.Canon, or nil.
	canon func(key, value string) string
}

// commonSets are the keys of every game's view whose lists are sets.
var commonSets = []string{"to_move", "winners", "shared", "hand"}

// matcher returns the matcher of m's game.
func (m *Match) matcher() matcher {
	mt := matcher{sets: map[string]bool{}}
	for _, k := range commonSets {
		mt.sets[k] = true
	}
	if m.Game != nil {
		for _, k := range m.Game.SetLists {
			mt.sets[k] = true
		}
		mt.canon = m.Game.Canon
	}
	return mt
}

// listKey returns the key a path ends with, without the indexes after
// it: "neutral_zones" for "board.neutral_zones[0]".
func listKey(path string) string {
	for strings.HasSuffix(path, "]") {
		path = path[:strings.LastIndexByte(path, '[')]
	}
	return path[strings.LastIndexByte(path, '.')+1:]
}

// node compares an expected YAML value with got, the value of path in
// the view (present is false when the key is not there), as Subset does,
// and heeds the tags !absent, !exact and !len.
func (mt matcher) node(path string, want *yaml.Node, got any, present bool) string {
	for want.Kind == yaml.AliasNode && want.Alias != nil {
		want = want.Alias
	}
	if mt.canon != nil && want.Kind == yaml.ScalarNode && want.Tag == "!!str" {
		if c := mt.canon(listKey(path), want.Value); c != want.Value {
			n := *want
			n.Value = c
			want = &n
		}
	}
	if want.Tag == tagAbsent {
		if present {
			return fmt.Sprintf("%s: expected no such key, got %s", path, show(got))
		}
		return ""
	}
	if !present {
		w, err := decodeWant(want)
		if err != nil {
			return fmt.Sprintf("%s: %v", path, err)
		}
		return fmt.Sprintf("%s: expected %s, but there is no such key", path, show(w))
	}
	switch {
	case want.Tag == tagLen:
		n, _ := strconv.Atoi(want.Value)
		l := -1
		switch g := got.(type) {
		case []any:
			l = len(g)
		case map[string]any:
			l = len(g)
		}
		if l != n {
			return fmt.Sprintf("%s: expected %d entries, got %s", path, n, show(got))
		}
		return ""
	case want.Kind == yaml.MappingNode:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected a mapping, got %s", path, show(got))
		}
		keys := map[string]bool{}
		for i := 0; i+1 < len(want.Content); i += 2 {
			k := want.Content[i].Value
			gv, ok := g[k]
			if !ok {
				// E5 for e5, Red for red: a key in another case.
				k, gv, ok = foldedKey(g, k)
			}
			keys[k] = true
			if d := mt.node(path+"."+k, want.Content[i+1], gv, ok); d != "" {
				return d
			}
		}
		if want.Tag == tagExact {
			var extra []string
			for k := range g {
				if !keys[k] {
					extra = append(extra, k)
				}
			}
			if len(extra) > 0 {
				sort.Strings(extra)
				return fmt.Sprintf("%s: expected exactly the keys given, but it also has %s", path, strings.Join(extra, ", "))
			}
		}
		return ""
	case want.Tag == tagPrefix:
		if g, ok := got.(string); !ok || !strings.HasPrefix(g, want.Value) {
			return fmt.Sprintf("%s: expected a string beginning %q, got %s", path, want.Value, show(got))
		}
		return ""
	case want.Kind == yaml.SequenceNode && (want.Tag == tagSet || mt.sets[listKey(path)]):
		g, ok := got.([]any)
		w, err := decodeWant(want)
		if err != nil {
			return fmt.Sprintf("%s: %v", path, err)
		}
		if !ok || len(g) != len(want.Content) || !mt.set(path, want.Content, g) {
			order := " in any order"
			if len(want.Content) < 2 {
				order = ""
			}
			return fmt.Sprintf("%s: expected %s%s, got %s", path, show(w), order, show(got))
		}
		return ""
	case want.Kind == yaml.SequenceNode:
		g, ok := got.([]any)
		w, err := decodeWant(want)
		if err != nil {
			return fmt.Sprintf("%s: %v", path, err)
		}
		if !ok || len(g) != len(want.Content) {
			return fmt.Sprintf("%s: expected %s, got %s", path, show(w), show(got))
		}
		for i, c := range want.Content {
			if d := mt.node(fmt.Sprintf("%s[%d]", path, i), c, g[i], true); d != "" {
				return fmt.Sprintf("%s: expected %s, got %s", path, show(w), show(got))
			}
		}
		return ""
	case want.Kind == yaml.ScalarNode && want.Tag != "!!null":
		// "to_move: blue", "winners: red": a list of one, written as
		// its only entry.
		if g, ok := got.([]any); ok && len(g) == 1 {
			if d := mt.node(path, want, g[0], true); d != "" {
				w, _ := decodeWant(want) // it decodes: ParseScenario checked
				return fmt.Sprintf("%s: expected %s (a list of one), got %s", path, show(w), show(got))
			}
			return ""
		}
	}
	w, err := decodeWant(want)
	if err != nil {
		return fmt.Sprintf("%s: %v", path, err)
	}
	return Subset(path, w, got)
}

// foldedKey finds in g the one key that is k in another case, and its
// value; k itself and false when there is none, or more than one.
func foldedKey(g map[string]any, k string) (string, any, bool) {
	found, n := "", 0
	for gk := range g {
		if strings.EqualFold(gk, k) {
			found, n = gk, n+1
		}
	}
	if n != 1 {
		return k, nil, false
	}
	return found, g[found], true
}

// decodeWant decodes an expected value, an error in yaml.v3's cause said
// as herald says it, at the value's line and column (ParseScenario checks
// every expect mapping decodes, so a loaded scenario meets none).
func decodeWant(want *yaml.Node) (any, error) {
	var w any
	if err := want.Decode(&w); err != nil {
		return nil, fmt.Errorf("%d:%d: %s", want.Line, want.Column, notation.YAMLErrorText(err))
	}
	return w, nil
}

// set reports whether each of want matches a different entry of got:
// a perfect matching of the graph whose edges are the pairs that match,
// found by augmenting paths (Kuhn's algorithm), in polynomial time
// whatever the tags. Trying every way instead took factorial time on a
// list of entries that each match many (!prefix "B " over a deck of 54
// cards never finished: hostile campaign).
func (mt matcher) set(path string, want []*yaml.Node, got []any) bool {
	fits := make([][]int, len(want)) // the entries of got each want matches
	for i, w := range want {
		for j, g := range got {
			if mt.node(path, w, g, true) == "" {
				fits[i] = append(fits[i], j)
			}
		}
		if len(fits[i]) == 0 {
			return false
		}
	}
	owner := make([]int, len(got)) // the want matched to each got, or -1
	for j := range owner {
		owner[j] = -1
	}
	var augment func(i int, seen []bool) bool
	augment = func(i int, seen []bool) bool {
		for _, j := range fits[i] {
			if seen[j] {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || augment(owner[j], seen) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	for i := range want {
		if !augment(i, make([]bool, len(got))) {
			return false
		}
	}
	return true
}

// Subset compares an expected value (from YAML) with a got value (from
// JSON): maps compare only the keys the expected map names (a key in
// another case matches, as foldedKey finds it), lists compare element by
// element and must have the same length, numbers compare by value,
// strings in any case (E5 is e5). It returns "" when they match, or the first difference with its
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
			if !ok {
				_, gv, ok = foldedKey(g, k)
			}
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
	if ws, ok := want.(string); ok {
		if gs, ok := got.(string); ok && strings.EqualFold(ws, gs) {
			return ""
		}
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
