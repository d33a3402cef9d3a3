package lowenherz97

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

// wallPositions plays random games of n players and calls f at every
// step where the player to move places a wall, until f returns false.
func wallPositions(t *testing.T, n int, f func(s *State, p string) bool) {
	t.Helper()
	names := []string{"gold", "purple", "rose", "blue"}
	for g := 0; g < 10_000; g++ {
		seed := fmt.Sprint("priors", g)
		st, err := newGame(adjudicator.Setup{Players: names[:n], Options: adjudicator.Options{"setup": "basic", "map": ""}, RNG: adjudicator.NewRNG(seed)})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := adjudicator.NewRNG("priors-steps\x00" + seed)
		for len(s.ToMove()) > 0 {
			to := slices.DeleteFunc(s.ToMove(), func(q string) bool { return adjudicator.SealedIn(s, q) })
			if len(to) == 0 {
				t.Fatalf("%s: every player to move has a sealed step in", seed)
			}
			p := to[0]
			if s.phase == phaseAct && s.act.action.Kind == Walls && p == s.names[s.actor] && !f(s, p) {
				return
			}
			m, err := bot.RandomStep(s, p, rng)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Apply(p, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("10,000 random games did not give the positions the test asks for")
}

// TestPriors holds Priors to the rules: a wall's prior is what its step
// gains the player over the best other's gain (a region it closes scores
// for its prince, lowenherz-1997-fr.txt:219-230), the step applied on a
// copy as a player's would be, for every step of every wall position of
// random games where the action has another wall to place (with its last
// wall the round goes on, and what comes next may score: a Silberfund);
// a step other than a wall has none.
func TestPriors(t *testing.T) {
	positions, scoring, gives := 0, 0, 0
	wallPositions(t, 2, func(s *State, p string) bool {
		legal := s.Legal(p)
		prior := make([]int, len(legal))
		got := s.Priors(p, legal, prior)
		any := false
		pi := s.index(p)
		lastWall := s.act.walls+1 >= s.act.action.N && s.act.pol < 0
		if !lastWall {
			positions++
		}
		for i, m := range legal {
			c := s.clone()
			if err := c.Apply(p, m); err != nil {
				t.Fatal(err)
			}
			want := 0
			if _, ok := m.(Wall); ok && lastWall {
				// The action ends with this wall, and the round goes on
				// with what comes next: compared where one is left.
				want = prior[i]
			} else if ok {
				best := 0
				for j := range s.names {
					if g := c.score[j] - s.score[j]; j != pi && g > best {
						best = g
					}
				}
				want = c.score[pi] - s.score[pi] - best
			}
			if prior[i] != want {
				t.Fatalf("%s's %s: prior %d, want %d; scores %v to %v; events %v\nwalls %d of %d, phase %v\n%s", p, m, prior[i], want, s.score, c.score, c.events[len(s.events):], s.act.walls, s.act.budget(), c.phase, c.Text(""))
			}
			any = any || prior[i] != 0
			if prior[i] < 0 {
				gives++
			}
		}
		if got != any {
			t.Fatalf("Priors reports %v, and the priors are %v", got, prior)
		}
		if any && !lastWall {
			scoring++
		}
		return (scoring < 4 || gives == 0) && positions < 20_000
	})
	if scoring < 4 || gives == 0 {
		t.Fatalf("of %d wall positions, %d had a step with a prior, and %d steps gave points to another", positions, scoring, gives)
	}
	t.Logf("%d wall positions, %d with a step that scores or gives, %d steps that give", positions, scoring, gives)
}

// TestBotClosesRegions: the default bot takes a wall that closes a
// region of its own worth 5 points or more, where random games offer one
// with the action's last wall and the game is still open (the player
// leads by 5 points at most), at least 8 times in 10: 10 of 12 (without
// its priors, 1 of 12: the wall was one of ~250 steps, each tried once).
func TestBotClosesRegions(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of CPU")
	}
	seen, taken := 0, 0
	wallPositions(t, 2, func(s *State, p string) bool {
		legal := s.Legal(p)
		prior := make([]int, len(legal))
		if !s.Priors(p, legal, prior) {
			return true
		}
		top := 0
		for _, v := range prior {
			top = max(top, v)
		}
		if top < 5 || s.act.walls+1 < s.act.action.N || s.act.pol >= 0 {
			return true // a later wall of the action may close it
		}
		pi, lead := s.index(p), 0
		for j := range s.names {
			if j != pi {
				lead = max(lead, s.score[pi]-s.score[j])
			}
		}
		if lead > 5 {
			return true // won already: a few points more are worth little
		}
		ch, err := bot.Rank(s, s.names, p, bot.Options{Seed: fmt.Sprint("closes", seen)})
		if err != nil {
			t.Fatal(err)
		}
		seen++
		for i, l := range legal {
			if l.String() != ch[0].Move.String() {
				continue
			}
			if ch[0].Gain != prior[i] {
				t.Errorf("%s's %s: the search says it gains %d at once, its prior is %d", p, l, ch[0].Gain, prior[i])
			}
			if prior[i] > 0 {
				taken++
			}
		}
		return seen < 12
	})
	if taken*10 < seen*8 {
		t.Fatalf("the bot closed a region of its own in %d of %d positions where it could score 5 points or more", taken, seen)
	}
	t.Logf("closed in %d of %d", taken, seen)
}
