// Package bot plays any seat of any herald game: an information-set Monte
// Carlo tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse
// 2012) over the engine contract of package adjudicator, that sees only what
// its seat sees.
//
// Each iteration redraws everything the seat cannot see (the game's
// [adjudicator.Determinizer]: the others' hands, the order of the decks,
// the others' sealed steps), walks the tree of the seat's and the others'
// steps that are legal in that drawing (UCB1 over the times a step was
// available), adds one step, plays random legal steps to the end or to a
// depth cap, and scores the end with the game's own Scores and Result. The
// step played is the one tried most often at the root. A game without a
// Determinizer is refused: searching it would peek at the hidden cards.
// A game whose states say what a step gains at once ([Prior]) has each
// node's steps tried in that order, with progressive widening.
//
// Simultaneous and sealed steps are searched as such: where several
// players may act at once, the seat acts first, and another player's
// sealed step (a sealed bid of Löwenherz 1997, a political card taken) is
// drawn at random rather than from the tree, so that neither side of a
// sealed round chooses knowing the other's step. The seats the game plays
// itself ([adjudicator.Automaton], Henri) play their own steps.
//
// Budgets are iterations, never time, and all randomness comes from an
// [adjudicator.RNG] seeded with [Options.Seed]: a bot's step is a function
// of the state as its seat sees it, the seat, the seed and the budget, so
// that a record can be checked by playing the bot again.
package bot

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/heraldgames/herald/adjudicator"
)

// Iteration budgets of the levels bot:1 to bot:3.
var levelIterations = [...]int{1: 100, 2: 250, 3: 1600}

// MaxLevel is the strongest level.
const MaxLevel = len(levelIterations) - 1

// DefaultLevel is the level of a bot whose level is not given.
const DefaultLevel = 2

// DefaultDepth is the number of steps a rollout plays before it stops and
// scores the position, when Options.Depth is 0.
const DefaultDepth = 200

// exploration is UCB1's constant, for rewards in [0, 1].
const exploration = 0.7

// Options say how hard a bot searches. The zero value is the default
// level with the seed "".
type Options struct {
	// Level is 1 to MaxLevel; 0 means DefaultLevel. It gives the
	// iterations when Iterations is 0.
	Level int
	// Iterations, when not 0, is the budget itself, overriding Level.
	Iterations int
	// Depth caps each rollout, in steps; 0 means DefaultDepth.
	Depth int
	// Seed seeds the search. Two searches with the same seed, seat, budget
	// and view of the state choose the same step.
	Seed string
	// Explain, when not nil, is told of each step Step chooses and of
	// what the search found for it (see Reason).
	Explain func(Reason)
}

// Iterations returns the iteration budget of level (1 to MaxLevel).
func Iterations(level int) (int, error) {
	if level < 1 || level > MaxLevel {
		return 0, fmt.Errorf("bot: level %d is not a level; the levels are 1 to %d", level, MaxLevel)
	}
	return levelIterations[level], nil
}

// budget returns the iterations and depth o asks for, defaults filled in.
func (o Options) budget() (iters, depth int, err error) {
	iters, depth = o.Iterations, o.Depth
	if iters < 0 || depth < 0 {
		return 0, 0, fmt.Errorf("bot: iterations %d and depth %d must not be negative", iters, depth)
	}
	if iters == 0 {
		level := o.Level
		if level == 0 {
			level = DefaultLevel
		}
		if iters, err = Iterations(level); err != nil {
			return 0, 0, err
		}
	}
	if depth == 0 {
		depth = DefaultDepth
	}
	return iters, depth, nil
}

// ErrNoDeterminizer is the error for a game whose states cannot redraw
// what a seat cannot see: the bot will not search it by peeking.
var ErrNoDeterminizer = errors.New("bot: this game cannot redraw what a seat cannot see (no Determinize), and the bot does not play by peeking at hidden cards")

// Step returns the step seat takes next in st: the step Rank puts first.
// seats are the names the game's Scores are given for, in order
// (adjudicator.Match.Seats: the players, then the seats the game plays
// itself). st is not changed.
func Step(st adjudicator.State, seats []string, seat string, o Options) (adjudicator.Move, error) {
	ch, err := Rank(st, seats, seat, o)
	if err != nil {
		return nil, err
	}
	if len(ch) == 1 {
		o.explain(Reason{Move: ch[0].Move, Only: true})
	} else {
		iters, _, _ := o.budget() // Rank has checked it
		o.explain(Reason{Move: ch[0].Move, Visits: ch[0].Visits, Iterations: iters, Mean: ch[0].Reward, Gain: ch[0].Gain})
	}
	return ch[0].Move, nil
}

// A Choice is one of the seat's steps as the search saw it.
type Choice struct {
	Move adjudicator.Move
	// Visits is the number of iterations that went through the step.
	Visits int
	// Reward is the mean of the seat's rewards over those iterations, in
	// [0, 1]: half for winning, half for its score against the others'.
	Reward float64
	// Gain is, in a game with priors ([Prior]), what the step gains the
	// seat at once over the best of the others, in the game's points: its
	// prior at the root, from the search's first redrawing (a prior
	// depends on what every redrawing keeps). 0 otherwise.
	Gain int
}

// Rank searches st for seat as Step does and returns each of seat's legal
// steps with the iterations that tried it and their mean reward, the
// most tried first (ties in the order of Legal). A seat with one legal
// step gets it without a search (0 visits).
func Rank(st adjudicator.State, seats []string, seat string, o Options) ([]Choice, error) {
	iters, depth, err := o.budget()
	if err != nil {
		return nil, err
	}
	det, ok := st.(adjudicator.Determinizer)
	if !ok {
		return nil, ErrNoDeterminizer
	}
	if !slices.Contains(seats, seat) {
		return nil, fmt.Errorf("bot: %q is not a seat of this game (seats: %v)", seat, seats)
	}
	if !slices.Contains(st.ToMove(), seat) {
		return nil, fmt.Errorf("bot: %s is not to move (to move: %v)", seat, st.ToMove())
	}
	legal := st.Legal(seat)
	if len(legal) == 0 {
		return nil, fmt.Errorf("bot: %s is to move but has no legal step", seat)
	}
	if len(legal) == 1 {
		return []Choice{{Move: legal[0]}}, nil
	}
	s := &search{seats: seats, seat: seat, legal: legal, depth: depth, rng: adjudicator.NewRNG("herald/bot/v1\x00" + o.Seed)}
	root := &node{}
	for range iters {
		d := det.Determinize(seat, s.rng)
		if err := s.iterate(root, d); err != nil {
			return nil, err
		}
	}
	out := make([]Choice, len(legal))
	for i, m := range legal {
		out[i].Move = m
		if c := root.child(seat, m.String()); c != nil && c.visits > 0 {
			out[i].Visits, out[i].Reward = c.visits, c.reward/float64(c.visits)
		}
		out[i].Gain = root.priors[m.String()]
	}
	slices.SortStableFunc(out, func(a, b Choice) int { return b.Visits - a.Visits })
	return out, nil
}

// Turn returns the steps seat takes from st until its turn is over (it is
// no longer to move, or its sealed step is in), each chosen by Step with
// a seed of its own drawn from o.Seed. st is not changed.
func Turn(st adjudicator.State, seats []string, seat string, o Options) ([]adjudicator.Move, error) {
	scratch := st.Clone()
	var out []adjudicator.Move
	for i := 0; slices.Contains(scratch.ToMove(), seat) && (i == 0 || !adjudicator.SealedIn(scratch, seat)); i++ {
		oi := o
		oi.Seed = fmt.Sprintf("%s/%d", o.Seed, i)
		m, err := Step(scratch, seats, seat, oi)
		if err != nil {
			return out, err
		}
		if err := scratch.Apply(seat, m); err != nil {
			return out, fmt.Errorf("bot: %s's step %q, chosen from the legal steps, was refused: %w", seat, m, err)
		}
		out = append(out, m)
		if i >= maxTurnSteps {
			return out, fmt.Errorf("bot: %s's turn does not end after %d steps", seat, maxTurnSteps)
		}
	}
	return out, nil
}

// maxTurnSteps bounds a turn, so that a game whose turn never ends is an
// error, not a hang.
const maxTurnSteps = 1000

// node is a step in the tree: who took it, and what it gave them.
type node struct {
	player   string
	key      string // the step's notation
	visits   int
	avail    int     // the iterations in which the step was legal here
	reward   float64 // the sum of player's rewards through this step
	children map[childKey]*node
	// In a game with priors (Prior) only: the iterations that chose a
	// step here, and the steps' priors, from the first of them (nil when
	// every step's is 0).
	passes int
	priors map[string]int
}

// childKey names a child: who takes the step, and its notation.
type childKey struct{ player, key string }

func (n *node) child(player, key string) *node { return n.children[childKey{player, key}] }

func (n *node) add(c *node) {
	if n.children == nil {
		n.children = map[childKey]*node{}
	}
	n.children[childKey{c.player, c.key}] = c
}

// search is one Step's search.
type search struct {
	seats []string
	seat  string
	legal []adjudicator.Move // seat's legal steps at the root, the same in every redrawing
	depth int
	rng   *adjudicator.RNG
	buf   []adjudicator.Move // a rollout's list of legal steps, reused from step to step
	prior []int              // Priors' answer, reused
	// Reused from iteration to iteration: a node's untried steps, the
	// path down the tree, and the rewards of a playout.
	untried []adjudicator.Move
	path    []*node
	reward  []float64
}

// A Prior is a state that can tell at a glance which of a player's legal
// steps gain or give away something at once: a border that closes a
// domain, or one that closes another player's. The search of a game
// with priors tries a node's steps in the order of their priors, the
// greatest first, and widens progressively: at a node the iterations
// have chosen from n times, it tries a new step only while fewer than
// widening(n) have been tried, or when the new one's prior is positive;
// else it chooses among those tried (UCB1). So a step that scores at
// once is searched with many iterations rather than one, among hundreds
// of others. A game without priors is searched as before, draw for draw.
type Prior interface {
	// Priors sets prior[i], for each step legal[i] of player's legal
	// steps here (in Legal's order), to what the step gains player at
	// once over the best of the others, in the game's points: 0 for a
	// step that changes no score. It reports whether any is not 0.
	// Priors must depend only on the state (a determinization).
	Priors(player string, legal []adjudicator.Move, prior []int) bool
}

// widening returns how many steps a node of a game with priors has
// tried once its iterations have chosen from it n times: 1 + 2√n.
func widening(n int) int { return 1 + int(2*math.Sqrt(float64(n))) }

// priorsAt returns the priors of p's steps legal at n in d, the first
// time n is reached with steps to choose from, else those found then.
func (s *search) priorsAt(n *node, pr Prior, p string, legal []adjudicator.Move) map[string]int {
	if n.passes > 0 {
		return n.priors
	}
	s.prior = slices.Grow(s.prior[:0], len(legal))[:len(legal)]
	clear(s.prior)
	if !pr.Priors(p, legal, s.prior) {
		return nil
	}
	n.priors = map[string]int{}
	for i, v := range s.prior {
		if v != 0 {
			n.priors[legal[i].String()] = v
		}
	}
	return n.priors
}

// A LegalAppender is a state that can list a player's legal steps into a
// list it is given: AppendLegal(buf, player) returns append(buf,
// Legal(player)...), the same steps in the same order, allocating no
// list when buf has room. A search's rollouts, which list the legal steps
// at every step to take one, use it where a game has it.
type LegalAppender interface {
	AppendLegal(buf []adjudicator.Move, player string) []adjudicator.Move
}

// legalOf returns p's legal steps in d, into s.buf where d can list them
// there: valid until the next call.
func (s *search) legalOf(d adjudicator.State, p string) []adjudicator.Move {
	la, ok := d.(LegalAppender)
	if !ok {
		return d.Legal(p)
	}
	s.buf = la.AppendLegal(s.buf[:0], p)
	return s.buf
}

// iterate runs one iteration on d, a determinization of the root.
func (s *search) iterate(root *node, d adjudicator.State) error {
	path := s.path[:0]
	n := root
	expanded := false
	for !expanded {
		p, done, err := s.advance(d, n == root)
		if err != nil {
			return err
		}
		if done {
			break
		}
		var legal []adjudicator.Move
		if n == root {
			// What seat may do depends on what it sees, the same in
			// every redrawing: listed once, not at each iteration.
			legal = s.legal
		} else {
			legal = s.legalOf(d, p)
		}
		if len(legal) == 0 {
			return fmt.Errorf("bot: %s is to move but has no legal step", p)
		}
		if p != s.seat && sealedStep(d, p, legal) {
			// Another player's sealed step: drawn, not searched, so that
			// the seat's own steps never depend on it.
			if err := apply(d, p, legal[s.rng.IntN(len(legal))]); err != nil {
				return err
			}
			continue
		}
		untried := s.untried[:0]
		var best *node
		var bestMove adjudicator.Move
		bestScore := math.Inf(-1)
		for _, m := range legal {
			c := n.child(p, m.String())
			if c == nil {
				untried = append(untried, m)
				continue
			}
			c.avail++
			if score := c.reward/float64(c.visits) + exploration*math.Sqrt(math.Log(float64(c.avail))/float64(c.visits)); score > bestScore {
				best, bestMove, bestScore = c, m, score
			}
		}
		m := bestMove
		s.untried = untried[:0]
		if pr, ok := d.(Prior); ok {
			untried = s.widen(n, pr, p, legal, untried)
		}
		if len(untried) > 0 {
			m = untried[s.rng.IntN(len(untried))]
			best = &node{player: p, key: m.String(), avail: 1}
			n.add(best)
			expanded = true
		}
		if err := apply(d, p, m); err != nil {
			return err
		}
		path = append(path, best)
		n = best
	}
	s.path = path[:0]
	if err := s.rollout(d); err != nil {
		return err
	}
	r := s.rewards(d)
	for _, c := range path {
		c.visits++
		c.reward += r[slices.Index(s.seats, c.player)]
	}
	return nil
}

// widen returns the steps of untried, p's steps at n not tried yet, that
// a game with priors tries now: none when widening(n's passes) steps of
// legal have been tried already and no untried step's prior is
// positive; else those of the greatest prior. It counts the pass.
func (s *search) widen(n *node, pr Prior, p string, legal, untried []adjudicator.Move) []adjudicator.Move {
	priors := s.priorsAt(n, pr, p, legal)
	passes := n.passes
	n.passes++
	if len(untried) == 0 {
		return nil
	}
	top := 0
	if priors != nil {
		top = math.MinInt
		for _, m := range untried {
			top = max(top, priors[m.String()])
		}
	}
	if tried := len(legal) - len(untried); tried > 0 && top <= 0 && tried >= widening(passes) {
		return nil
	}
	if priors == nil {
		return untried
	}
	return slices.DeleteFunc(untried, func(m adjudicator.Move) bool { return priors[m.String()] != top })
}

// advance plays the seats the game plays itself until a player is to
// act, and returns that player; done when the game is over or nobody can
// act. At the root the seat acts, whatever else.
func (s *search) advance(d adjudicator.State, root bool) (p string, done bool, err error) {
	if root {
		return s.seat, false, nil
	}
	for range maxTurnSteps {
		to := d.ToMove()
		if len(to) == 0 {
			return "", true, nil
		}
		if auto := adjudicator.Automata(d); len(auto) > 0 {
			if i := slices.IndexFunc(to, func(p string) bool { return slices.Contains(auto, p) }); i >= 0 {
				if err := playAutomaton(d, to[i]); err != nil {
					return "", false, err
				}
				continue
			}
		}
		var cands []string
		for _, q := range to {
			if !adjudicator.SealedIn(d, q) {
				cands = append(cands, q)
			}
		}
		switch {
		case len(cands) == 0:
			return "", true, nil
		case slices.Contains(cands, s.seat):
			p = s.seat
		default:
			p = cands[0]
		}
		return p, false, nil
	}
	return "", false, fmt.Errorf("bot: the game's own seats play on for %d turns", maxTurnSteps)
}

// sealedStep reports whether some step of legal, p's legal steps now, is
// sealed.
func sealedStep(d adjudicator.State, p string, legal []adjudicator.Move) bool {
	sl, ok := d.(adjudicator.Sealer)
	if !ok {
		return false
	}
	for _, m := range legal {
		if sl.SealOf(p, m) != 0 {
			return true
		}
	}
	return false
}

// playAutomaton plays seat's automaton steps on d.
func playAutomaton(d adjudicator.State, seat string) error {
	steps, err := d.(adjudicator.Automaton).AutoSteps(seat)
	if err != nil {
		return fmt.Errorf("bot: the game's seat %s: %w", seat, err)
	}
	for _, st := range steps {
		if err := apply(d, seat, st.Move); err != nil {
			return err
		}
	}
	return nil
}

func apply(d adjudicator.State, p string, m adjudicator.Move) error {
	if err := d.Apply(p, m); err != nil {
		return fmt.Errorf("bot: %s's legal step %q was refused: %w", p, m, err)
	}
	return nil
}

// rollout plays random legal steps on d to the end or to the depth cap.
func (s *search) rollout(d adjudicator.State) error {
	for range s.depth {
		to := d.ToMove()
		if len(to) == 0 {
			return nil
		}
		if auto := adjudicator.Automata(d); len(auto) > 0 {
			if i := slices.IndexFunc(to, func(p string) bool { return slices.Contains(auto, p) }); i >= 0 {
				if err := playAutomaton(d, to[i]); err != nil {
					return err
				}
				continue
			}
		}
		cands := to
		if slices.ContainsFunc(to, func(q string) bool { return adjudicator.SealedIn(d, q) }) {
			cands = slices.DeleteFunc(slices.Clone(to), func(q string) bool { return adjudicator.SealedIn(d, q) })
		}
		if len(cands) == 0 {
			return nil
		}
		p := cands[s.rng.IntN(len(cands))]
		legal := s.legalOf(d, p)
		if len(legal) == 0 {
			return fmt.Errorf("bot: %s is to move but has no legal step", p)
		}
		if err := apply(d, p, legal[s.rng.IntN(len(legal))]); err != nil {
			return err
		}
	}
	return nil
}

// rewards scores d for each seat in [0, 1], into s.reward (valid until
// the next call): half for winning (shared among those who share the
// victory, or before the end among those who lead on points), half for
// the seat's margin over the best of the others, as a share of their
// scores: 0.25 × (1 + (s−b)/(|s|+|b|+1)). So
// every point gained, or taken from the best other, is worth something,
// even in a game the seat cannot win (the solo game against Henri).
func (s *search) rewards(d adjudicator.State) []float64 {
	sc := d.Scores()
	out := slices.Grow(s.reward[:0], len(s.seats))[:len(s.seats)]
	clear(out)
	s.reward = out
	if len(sc) < len(s.seats) {
		return out
	}
	sc = sc[:len(s.seats)]
	hi := slices.Max(sc)
	var win []int
	if res := d.Result(); res.Finished {
		for _, w := range append(slices.Clone(res.Winners), res.Shared...) {
			if i := slices.Index(s.seats, w); i >= 0 && !slices.Contains(win, i) {
				win = append(win, i)
			}
		}
	} else {
		for i := range s.seats {
			if sc[i] == hi {
				win = append(win, i)
			}
		}
	}
	for i, v := range sc {
		best, first := 0, true
		for j, w := range sc {
			if j != i && (first || w > best) {
				best, first = w, false
			}
		}
		if first { // one seat alone
			best = v
		}
		out[i] = 0.25 * (1 + float64(v-best)/float64(abs(v)+abs(best)+1))
	}
	for _, i := range win {
		out[i] += 0.5 / float64(len(win))
	}
	return out
}

func abs(v int) int { return max(v, -v) }
