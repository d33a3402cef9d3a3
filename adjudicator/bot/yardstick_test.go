package bot_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

// TestRandomStep: every legal step comes, and only those; a seat with
// none is an error.
func TestRandomStep(t *testing.T) {
	s := newSwap(3, 4, 1, 2, 5, 6)
	rng := adjudicator.NewRNG("random")
	seen := map[string]int{}
	for range 100 {
		m, err := bot.RandomStep(s, "a", rng)
		if err != nil {
			t.Fatal(err)
		}
		seen[m.String()]++
	}
	if len(seen) != 2 || seen["keep"] < 30 || seen["swap"] < 30 {
		t.Errorf("100 random steps gave %v, want keep and swap about half each", seen)
	}
	if _, err := bot.RandomStep(s, "b", rng); err == nil || !strings.Contains(err.Error(), "b has no legal step") {
		t.Errorf("RandomStep for a seat not to move = %v, want an error", err)
	}
}

// TestGreedyStep: the greedy player takes the step that scores best at
// once (a 1 is swapped for any card of the deck, a 6 kept), breaks ties
// with its RNG, and does not see the deck: on a deck of 1s and 6s under a
// 4, what it does depends on its draw, never on the deck's order.
func TestGreedyStep(t *testing.T) {
	for _, tc := range []struct {
		hand int
		deck []int
		want string
	}{
		{1, []int{2, 3, 5}, "swap"},
		{6, []int{2, 3, 5}, "keep"},
	} {
		for seed := range 5 {
			m, err := bot.GreedyStep(newSwap(tc.hand, 4, tc.deck...), names, "a", adjudicator.NewRNG(fmt.Sprint(seed)))
			if err != nil {
				t.Fatal(err)
			}
			if m.String() != tc.want {
				t.Errorf("holding %d, seed %d: GreedyStep = %s, want %s", tc.hand, seed, m, tc.want)
			}
		}
	}
	// Ties: keeping a 3 or swapping it for another 3.
	seen := map[string]bool{}
	for seed := range 20 {
		m, err := bot.GreedyStep(newSwap(3, 4, 3, 3, 3), names, "a", adjudicator.NewRNG(fmt.Sprint(seed)))
		if err != nil {
			t.Fatal(err)
		}
		seen[m.String()] = true
	}
	if !seen["keep"] || !seen["swap"] {
		t.Errorf("ties broken over 20 seeds gave only %v", seen)
	}
	// Honest: the same seed, decks in other orders, the same step; a
	// game that lets the deck through changes it.
	for seed := range 10 {
		var got, peeked []string
		for _, deck := range [][]int{{6, 1, 1}, {1, 6, 1}, {1, 1, 6}} {
			s := newSwap(4, 2, deck...)
			m, err := bot.GreedyStep(s, names, "a", adjudicator.NewRNG(fmt.Sprint(seed)))
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, m.String())
			s.peeks = true
			if m, err = bot.GreedyStep(s, names, "a", adjudicator.NewRNG(fmt.Sprint(seed))); err != nil {
				t.Fatal(err)
			}
			peeked = append(peeked, m.String())
		}
		if len(slices.Compact(got)) != 1 {
			t.Errorf("seed %d: the greedy steps differ with the deck's order: %v", seed, got)
		}
		if !slices.Equal(peeked, []string{"swap", "keep", "keep"}) {
			t.Errorf("seed %d: a peeking greedy player chose %v, want [swap keep keep]", seed, peeked)
		}
	}
	if _, err := bot.GreedyStep(noDeterminize{newSwap(3, 4, 1, 2)}, names, "a", adjudicator.NewRNG("")); !errors.Is(err, bot.ErrNoDeterminizer) {
		t.Errorf("GreedyStep on a game without Determinize = %v, want ErrNoDeterminizer", err)
	}
	if _, err := bot.GreedyStep(newSwap(3, 4, 1, 2), names, "c", adjudicator.NewRNG("")); err == nil || !strings.Contains(err.Error(), `"c" is not a seat`) {
		t.Errorf("GreedyStep for no seat = %v, want an error naming it", err)
	}
}
