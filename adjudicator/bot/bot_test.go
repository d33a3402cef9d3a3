package bot_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/notation"
)

// swap is a small game of hidden cards for the tests: each of two players
// holds one card of 1 to 6 that only they see, the rest lie in a deck; in
// turn, twice each, a player keeps their card or swaps it for the deck's
// top card. The higher card wins.
type swap struct {
	hand  [2]int
	deck  []int
	turn  int // 0 to 3
	peeks bool
}

type step string

func (s step) String() string { return string(s) }

var names = []string{"a", "b"}

func newSwap(a, b int, deck ...int) *swap { return &swap{hand: [2]int{a, b}, deck: deck} }

func (s *swap) ToMove() []string {
	if s.turn >= 4 {
		return nil
	}
	return []string{names[s.turn%2]}
}

func (s *swap) Legal(p string) []adjudicator.Move {
	if !slices.Contains(s.ToMove(), p) {
		return nil
	}
	if len(s.deck) == 0 {
		return []adjudicator.Move{step("keep")}
	}
	return []adjudicator.Move{step("keep"), step("swap")}
}

func (s *swap) Parse(p string, st *notation.Step) (adjudicator.Move, error) {
	return step(st.Text), nil
}

func (s *swap) Apply(p string, m adjudicator.Move) error {
	if !slices.ContainsFunc(s.Legal(p), func(l adjudicator.Move) bool { return l == m }) {
		return errors.New("illegal")
	}
	if m == step("swap") {
		i := s.turn % 2
		s.hand[i], s.deck[0] = s.deck[0], s.hand[i]
	}
	s.turn++
	return nil
}

func (s *swap) Clone() adjudicator.State {
	c := *s
	c.deck = slices.Clone(s.deck)
	return &c
}

func (s *swap) Scores() []int { return s.hand[:] }

func (s *swap) Result() adjudicator.Result {
	if s.turn < 4 {
		return adjudicator.Result{}
	}
	switch {
	case s.hand[0] > s.hand[1]:
		return adjudicator.Result{Finished: true, Winners: []string{"a"}}
	case s.hand[1] > s.hand[0]:
		return adjudicator.Result{Finished: true, Winners: []string{"b"}}
	}
	return adjudicator.Result{Finished: true, Draw: true, Shared: names}
}

func (s *swap) Text(as string) string { return fmt.Sprint(s.turn, len(s.deck)) }
func (s *swap) Board() any            { return s.turn }
func (s *swap) Private(p string) any  { return s.hand[slices.Index(names, p)] }
func (s *swap) Position() any         { return s }

// Determinize deals the other hand and the deck again, sorted first; with
// peeks set it keeps them, as a dishonest game would.
func (s *swap) Determinize(seat string, rng *adjudicator.RNG) adjudicator.State {
	c := s.Clone().(*swap)
	if s.peeks {
		return c
	}
	o := 1 - slices.Index(names, seat)
	pool := append([]int{c.hand[o]}, c.deck...)
	slices.Sort(pool)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	c.hand[o], c.deck = pool[0], pool[1:]
	return c
}

// noDeterminize is swap without Determinize.
type noDeterminize struct{ adjudicator.State }

// TestStepPlaysWell: at the last decision, the bot swaps a low card and
// keeps a high one.
func TestStepPlaysWell(t *testing.T) {
	for _, tc := range []struct {
		hand int
		want string
	}{
		{1, "swap"}, {2, "swap"}, {5, "keep"}, {6, "keep"},
	} {
		s := newSwap(tc.hand, 4, 3, 6, 1, 2, 5)
		s.turn = 2 // a's last decision
		for seed := range 3 {
			m, err := bot.Step(s, names, "a", bot.Options{Level: 1, Seed: fmt.Sprint(seed)})
			if err != nil {
				t.Fatal(err)
			}
			if m.String() != tc.want {
				t.Errorf("holding %d, seed %d: Step = %s, want %s", tc.hand, seed, m, tc.want)
			}
		}
	}
}

// TestStepHonest: the bot's step does not change with the cards it cannot
// see, though a search that peeked would see a 6 on the deck.
func TestStepHonest(t *testing.T) {
	var got []string
	for _, deck := range [][]int{{6, 1, 2, 3, 5}, {1, 2, 3, 5, 6}, {1, 6, 5, 2, 3}} {
		for other := range 2 {
			hand := deck[other]
			s := newSwap(4, hand, slices.Delete(slices.Clone(deck), other, other+1)...)
			m, err := bot.Step(s, names, "a", bot.Options{Iterations: 200, Seed: "x"})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, m.String())
		}
	}
	if len(slices.Compact(slices.Clone(got))) != 1 {
		t.Errorf("the steps differ with what a cannot see: %v", got)
	}
	// The same search on a game that lets the hidden cards through does
	// change its mind: the check above can fail.
	var peeked []string
	for _, top := range []int{6, 1} {
		s := newSwap(4, 3, top, 2, 5, 1)
		s.peeks = true
		m, err := bot.Step(s, names, "a", bot.Options{Iterations: 200, Seed: "x"})
		if err != nil {
			t.Fatal(err)
		}
		peeked = append(peeked, m.String())
	}
	if peeked[0] == peeked[1] {
		t.Errorf("a peeking search chose %v whatever the deck's top", peeked)
	}
}

// TestStepReproducible: the same seed gives the same step.
func TestStepReproducible(t *testing.T) {
	s := newSwap(3, 4, 1, 2, 5, 6)
	var got []string
	for range 2 {
		for _, seed := range []string{"1", "2", "3", "4"} {
			m, err := bot.Step(s, names, "a", bot.Options{Iterations: 20, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, m.String())
		}
	}
	if !slices.Equal(got[:4], got[4:]) {
		t.Errorf("the same seeds gave %v, then %v", got[:4], got[4:])
	}
}

// TestStepRefuses: each error says what is wrong.
func TestStepRefuses(t *testing.T) {
	s := newSwap(3, 4, 1, 2, 5, 6)
	for _, tc := range []struct {
		st   adjudicator.State
		seat string
		o    bot.Options
		want string
	}{
		{noDeterminize{s}, "a", bot.Options{}, "peeking"},
		{s, "b", bot.Options{}, "b is not to move"},
		{s, "c", bot.Options{}, `"c" is not a seat`},
		{s, "a", bot.Options{Level: 4}, "level 4 is not a level; the levels are 1 to 3"},
		{s, "a", bot.Options{Iterations: -1}, "must not be negative"},
	} {
		_, err := bot.Step(tc.st, names, tc.seat, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Step(%s, %+v) = %v, want an error with %q", tc.seat, tc.o, err, tc.want)
		}
	}
	if _, err := bot.Step(noDeterminize{s}, names, "a", bot.Options{}); !errors.Is(err, bot.ErrNoDeterminizer) {
		t.Errorf("Step on a game without Determinize = %v, want ErrNoDeterminizer", err)
	}
}

// TestTurn: a turn is the steps up to the seat's last, the state unchanged.
func TestTurn(t *testing.T) {
	s := newSwap(1, 4, 6, 2, 5, 3)
	steps, err := bot.Turn(s, names, "a", bot.Options{Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 1 || steps[0].String() != "swap" {
		t.Errorf("Turn = %v, want [swap]", steps)
	}
	if s.turn != 0 {
		t.Errorf("Turn changed the state")
	}
}

// TestIterations: each level searches more than the one below.
func TestIterations(t *testing.T) {
	prev := 0
	for level := 1; level <= bot.MaxLevel; level++ {
		n, err := bot.Iterations(level)
		if err != nil || n <= prev {
			t.Errorf("Iterations(%d) = %d, %v; want more than %d", level, n, err, prev)
		}
		prev = n
	}
	if _, err := bot.Iterations(0); err == nil {
		t.Error("Iterations(0) gave no error")
	}
}
