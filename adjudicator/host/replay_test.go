package host_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/games/heritiers"
	"github.com/heraldgames/herald/games/raubritter"
)

// countingGame returns a copy of g whose New counts in *n the games it
// sets up: every replay of a record starts with one.
func countingGame(g *adjudicator.Game, n *int) *adjudicator.Game {
	c := *g
	c.New = func(s adjudicator.Setup) (adjudicator.State, error) {
		*n++
		return g.New(s)
	}
	return &c
}

// TestMoveReplaysOnce plays moves through the host, counting the replays
// of the record: a move replays it at most once (to rebuild the match,
// without the cache), never again to draw the picture of the board with
// what the move changed marked; with the cache, not at all. The picture is
// still the one a replay draws: the board after the move, marked where it
// differs from the board before the move's last record entry (Henri's, in
// a solo Deux Héritiers game).
func TestMoveReplaysOnce(t *testing.T) {
	plain := adjudicator.NewRegistry(raubritter.Game, heritiers.Game)
	for _, tc := range []struct {
		game    *adjudicator.Game
		players []string
	}{
		{raubritter.Game, []string{"alice@x.org", "bob@y.org"}},
		{heritiers.Game, []string{"solo@x.org"}},
	} {
		for _, noCache := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/noCache=%v", tc.game.Name, noCache), func(t *testing.T) {
				replays := 0
				r := newRigOf(t, noCache, adjudicator.NewRegistry(countingGame(tc.game, &replays)))
				id, _ := r.create(host.CreateRequest{Host: tc.players[0], Game: tc.game.Name, Players: tc.players})
				for move := 1; move <= 16; move++ {
					g := r.game(id)
					m, err := adjudicator.Start(plain, g.Record)
					if err != nil {
						t.Fatal(err)
					}
					if m.State.Result().Finished {
						if move < 6 {
							t.Fatalf("the game ended after %d moves", move-1)
						}
						break
					}
					p := g.Players[slices.IndexFunc(g.Players, func(p host.Player) bool { return slices.Contains(m.State.ToMove(), p.Name) })]
					// The player's whole turn in one mail: in a solo game,
					// Henri's move follows it in the same request.
					var steps []string
					for !m.State.Result().Finished && slices.Contains(m.State.ToMove(), p.Name) {
						st := m.State.Legal(p.Name)[0].String()
						sub, err := m.Submit(p.Name, st, "", "")
						if err != nil {
							t.Fatal(err)
						}
						steps = append(steps, st)
						if len(sub.Auto) > 0 {
							break
						}
					}
					before := replays
					rep := r.send(id, p.Address, "key "+p.Secret+"\n"+strings.Join(steps, "\n"))
					if rep.Outcome != host.Applied {
						t.Fatalf("move %d: %+v", move, rep)
					}
					want := 0
					if noCache || move == 1 {
						want = 1
					}
					if got := replays - before; got != want {
						t.Errorf("move %d replayed the record %d times, want %d", move, got, want)
					}
					// The picture a replay draws of the last record entry.
					rec := r.game(id).Record
					am, err := adjudicator.Start(plain, rec)
					if err != nil {
						t.Fatal(err)
					}
					prev := *rec
					prev.Moves = rec.Moves[:len(rec.Moves)-1]
					pm, err := adjudicator.Start(plain, &prev)
					if err != nil {
						t.Fatal(err)
					}
					wantPic := am.State.(adjudicator.Picturer).Picture()
					wantPic.MarkChanges(pm.State.(adjudicator.Picturer).Picture())
					changed := slices.ContainsFunc(wantPic.Cells, func(c picture.Cell) bool { return c.Changed })
					for _, n := range rep.Notices {
						if n.Picture == nil {
							t.Fatalf("move %d: the news to %s has no picture", move, n.To)
						}
						if !reflect.DeepEqual(n.Picture.Cells, wantPic.Cells) || !reflect.DeepEqual(n.Picture.Walls, wantPic.Walls) {
							t.Errorf("move %d: the picture sent to %s is not the replay's (changes marked: %v)", move, n.To, changed)
						}
					}
				}
			})
		}
	}
}
