package adjudicator

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// TestMatchSet: !set finds a way to pair every expected entry with a
// different entry of the list whenever there is one, moving an earlier
// pair to make room, and answers in polynomial time a list whose entries
// each match many: !prefix "B " fourteen times over a deck of 54 cards
// never finished when every way was tried (hostile campaign: a scenario a
// stranger sends to a referee stopped herald scenario for good).
func TestMatchSet(t *testing.T) {
	deck := make([]any, 0, 54)
	for _, l := range []struct {
		letter string
		n      int
	}{{"A", 9}, {"B", 15}, {"C", 15}, {"D", 15}} {
		for i := range l.n {
			deck = append(deck, fmt.Sprintf("%s card %d", l.letter, i))
		}
	}
	list := func(entries ...string) []*yaml.Node {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("["+strings.Join(entries, ", ")+"]"), &n); err != nil {
			t.Fatal(err)
		}
		return n.Content[0].Content
	}
	repeat := func(s string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	tests := []struct {
		name string
		want []*yaml.Node
		got  []any
		ok   bool
	}{
		{"in any order", list("b", "a"), []any{"a", "b"}, true},
		{"an earlier pair moves", list(`!prefix "a"`, "ab"), []any{"ab", "ac"}, true},
		{"one entry for two", list("a", "a"), []any{"a", "b"}, false},
		{"the deck by letters", list(append(append(append(repeat(`!prefix "B "`, 15), repeat(`!prefix "A "`, 9)...), repeat(`!prefix "D "`, 15)...), repeat(`!prefix "C "`, 15)...)...), deck, true},
		{"fourteen Bs and no such card", list(append(repeat(`!prefix "B "`, 14), repeat("zzz", 40)...)...), deck, false},
		{"sixteen Bs", list(append(repeat(`!prefix "B "`, 16), repeat(`!prefix ""`, 38)...)...), deck, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan bool)
			go func() { done <- (matcher{}).set("deck", tt.want, tt.got) }()
			select {
			case ok := <-done:
				if ok != tt.ok {
					t.Errorf("matchSet = %v, want %v", ok, tt.ok)
				}
			case <-time.After(time.Minute):
				t.Fatal("matchSet did not return within a minute")
			}
		})
	}
}

// TestSetListsAnyOrder: a list the game declares a set (Game.SetLists:
// Löwenherz's borders, its neutral zones, each a list of squares) and a
// hand match in any order, a border written either way round
// (Game.Canon), as a referee who read the rulebook writes
// them: a review's scenario listed Löwenherz's borders in its own order
// and failed on an order herald chose. Other lists keep their order, and
// a set still needs every entry, once.
func TestSetListsAnyOrder(t *testing.T) {
	flip := func(key, v string) string { // Game.Canon: a border either way round
		if a, b, ok := strings.Cut(v, "|"); ok && key == "borders" && a > b {
			return b + "|" + a
		}
		return v
	}
	m := &Match{Game: &Game{SetLists: []string{"borders", "neutral_zones"}, Canon: flip}}
	mt := m.matcher()
	got := map[string]any{
		"board": map[string]any{
			"borders":       []any{"c1|d1", "b3|c3", "a2|a3"},
			"neutral_zones": []any{[]any{"c1", "c2"}, []any{"l6"}},
			"terrain":       []any{"F.", ".G"},
		},
		"to_move": []any{"red", "blue"},
		"hand":    []any{"A 1 border", "B extension", "A 1 border"},
	}
	for _, c := range []struct {
		want string
		ok   bool
	}{
		{"board: {borders: [a2|a3, c1|d1, b3|c3]}", true},
		{"board: {borders: [c1|d1, b3|c3, a2|a3]}", true},
		{"board: {borders: [a2|a3, c1|d1]}", false},
		{"board: {borders: [a3|a2, d1|c1, c3|b3]}", true},
		{"board: {borders: [a3|a2, d1|c1, c3|b4]}", false},
		{"board: {borders: [a2|a3, c1|d1, c1|d1]}", false},
		{"board: {neutral_zones: [[l6], [c2, c1]]}", true},
		{"board: {neutral_zones: [[l6], [c2]]}", false},
		{"board: {terrain: [F., .G]}", true},
		{"board: {terrain: [.G, F.]}", false},
		{"to_move: [blue, red]", true},
		{"hand: [B extension, A 1 border, A 1 border]", true},
		{"hand: [B extension, B extension, A 1 border]", false},
	} {
		checkExpects(t, mt, got, c.want, c.ok)
	}
}

// TestKeysInAnyCase: an expect's key matches the view's key in another
// case (a square written E5, a player Red), as a referee might write it,
// and so does a value (PLAIN); where two keys differ only in case, the key
// must be exact.
func TestKeysInAnyCase(t *testing.T) {
	got := map[string]any{
		"squares": map[string]any{"e5": "plain", "f6": "lake"},
		"scores":  map[string]any{"red": 3.0, "Ab": 1.0, "ab": 2.0},
	}
	for _, c := range []struct {
		want string
		ok   bool
	}{
		{"squares: {E5: plain}", true},
		{"squares: {E5: lake}", false},
		{"squares: {e5: plain, F6: lake}", true},
		{"squares:\n  G7: !absent", true},
		{"squares:\n  E5: !absent", false},
		{"scores: {Red: 3}", true},
		{"scores: {AB: 1}", false}, // Ab or ab?
		{"scores: {ab: 2, Ab: 1}", true},
		{"squares: {e5: PLAIN}", true},
		{"squares: {e5: plains}", false},
	} {
		checkExpects(t, matcher{}, got, c.want, c.ok)
	}
}

// checkExpects checks that want, an expect mapping of one key, matches
// the view got under mt, or not (ok).
func checkExpects(t *testing.T, mt matcher, got map[string]any, want string, ok bool) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(want), &doc); err != nil {
		t.Fatal(err)
	}
	e := doc.Content[0]
	k := e.Content[0].Value
	if d := mt.node(k, e.Content[1], got[k], true); (d == "") != ok {
		t.Errorf("%s: matched %v (%s), want %v", want, d == "", d, ok)
	}
}
