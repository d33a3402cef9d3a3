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
			go func() { done <- matchSet("deck", tt.want, tt.got) }()
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
