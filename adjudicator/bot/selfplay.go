package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
)

// SelfPlay plays a whole game of g between bots p1..pN. With a level's
// budget (o.Iterations and o.Depth 0), every seat is a bot's seat as in a
// game with bot seats (RULINGS.md H-6): the record lists them in its bots,
// each move has the source bot:LEVEL and is the turn [Play] plays there,
// so that adjudicator.Adjudicate, with [Robot] registered, plays every
// move again and checks it. With another budget (for tests and tuning)
// the moves have the source "selfplay", which nothing checks: the player
// to move (one drawn from the seed when several may act) plays a whole
// turn chosen by Turn with o's budget and a seed drawn from seed and the
// move number. Either way the steps are submitted through the notation as
// a player's would be, and the same seed and options give the same game.
// clock gives the time recorded with each move.
func SelfPlay(g *adjudicator.Game, reg *adjudicator.Registry, n int, seed string, options map[string]string, clock func() string, o Options) (*adjudicator.Match, error) {
	if _, _, err := o.budget(); err != nil {
		return nil, err
	}
	players := make([]string, n)
	for i := range players {
		players[i] = "p" + strconv.Itoa(i+1)
	}
	rec, err := adjudicator.NewRecord(g, players, options, seed, nil)
	if err != nil {
		return nil, err
	}
	byLevel := o.Iterations == 0 && o.Depth == 0
	if byLevel {
		level := o.Level
		if level == 0 {
			level = DefaultLevel
		}
		rec.Bots = map[string]int{}
		for _, p := range players {
			rec.Bots[p] = level
		}
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		return nil, err
	}
	if _, ok := m.State.(adjudicator.Determinizer); !ok {
		return nil, ErrNoDeterminizer
	}
	if byLevel {
		if _, err := Play(m, rec.Bots, clock()); err != nil {
			return m, fmt.Errorf("bot self-play: %w", err)
		}
		if !m.State.Result().Finished {
			return m, fmt.Errorf("bot self-play: move %d: no bot can move and the game is not over", m.MoveNumber())
		}
		return m, nil
	}
	rng := adjudicator.NewRNG("herald/bot/selfplay\x00" + seed)
	const maxSubmissions = 100_000
	for range maxSubmissions {
		to := m.State.ToMove()
		if len(to) == 0 {
			return m, nil
		}
		to = slices.DeleteFunc(slices.Clone(to), func(p string) bool {
			return slices.Contains(adjudicator.Automata(m.State), p) || adjudicator.SealedIn(m.State, p)
		})
		if len(to) == 0 {
			return m, fmt.Errorf("bot self-play: move %d: only the game's own seats are to move, and none moved", m.MoveNumber())
		}
		p := to[rng.IntN(len(to))]
		oi := o
		oi.Seed = seed + "/" + strconv.Itoa(m.MoveNumber())
		moves, err := Turn(m.State, m.Seats(), p, oi)
		if err != nil {
			return m, fmt.Errorf("bot self-play: move %d: %w", m.MoveNumber(), err)
		}
		steps := make([]string, len(moves))
		for i, mv := range moves {
			steps[i] = mv.String()
		}
		if _, err := m.Submit(p, strings.Join(steps, "\n"), clock(), "selfplay"); err != nil {
			return m, fmt.Errorf("bot self-play: move %d: %s's steps %q, printed and parsed back, were refused: %w", m.MoveNumber(), p, steps, err)
		}
	}
	return m, fmt.Errorf("bot self-play: no end after %d submissions", maxSubmissions)
}
