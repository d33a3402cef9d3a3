package host_test

import (
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// TestVacation pauses deadlines (issue 19): a player away while asked for
// a move gets their deadline moved by the absence; a player away when
// their turn comes gets a clock that starts when they are back; the
// allowance is kept; coming back early gives the rest back; the others
// are told.
func TestVacation(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	r.playTurn(id) // the setup: both keep a tile
	r.playTurn(id)
	g := r.game(id)
	r.send(id, "h@x.org", "key "+g.HostKey+"\nset deadline 2d")
	g = r.game(id)
	mover := g.Clock.ToMove
	p, other := g.Players[0], g.Players[1]
	if p.Name != mover {
		p, other = other, p
	}
	due := g.Clock.DeadlineAt()

	if rep := r.send(id, p.Address, "key "+p.Secret+"\nvacation until 2027-02-01"); rep.Outcome != host.Rejected || !strings.Contains(rep.Notices[0].Text, "You have 14d of vacation left") {
		t.Fatalf("a vacation over the allowance: %+v", rep)
	}
	rep := r.send(id, p.Address, "key "+p.Secret+"\nvacances 3d")
	if rep.Outcome != host.Answered || len(rep.Notices) != 3 {
		t.Fatalf("vacances 3d: %+v", rep)
	}
	if got := r.game(id).Clock.DeadlineAt(); !got.Equal(due.Add(3 * 24 * time.Hour)) {
		t.Errorf("the deadline after 3 days away is %s, want %s", got, due.Add(3*24*time.Hour))
	}
	if !strings.Contains(rep.Notices[1].Text, p.Name+" is away until") {
		t.Errorf("the others' news: %s", rep.Notices[1].Text)
	}
	// Nothing is due while the player is away.
	start := r.clock
	for h := time.Duration(0); h < 3*24*time.Hour; h += time.Hour {
		r.clock = start.Add(h)
		if got := r.tick(); len(got) != 0 {
			t.Fatalf("%s into the vacation: %v", h, kinds(got))
		}
	}
	// Back a day early: the day is given back, the deadline moves back.
	r.clock = start.Add(24 * time.Hour)
	rep = r.send(id, p.Address, "key "+p.Secret+"\nvacation off")
	if !strings.Contains(rep.Notices[0].Text, "Welcome back") {
		t.Fatalf("vacation off: %+v", rep)
	}
	g = r.game(id)
	var me host.Player
	for _, q := range g.Players {
		if q.Name == p.Name {
			me = q
		}
	}
	if !me.AwayUntil.IsZero() || me.AwayUsed > 25*time.Hour || me.AwayUsed < 23*time.Hour {
		t.Errorf("after coming back: away until %s, used %s; want none, about a day", me.AwayUntil, me.AwayUsed)
	}
	// The other player goes away for 5 days; the mover's move then starts
	// their clock at their return.
	r.send(id, other.Address, "key "+other.Secret+"\nvacation 5d")
	back := r.clock.Add(5 * 24 * time.Hour)
	r.playTurn(id)
	if c := r.game(id).Clock; c.ToMove != other.Name || c.Since.Sub(back).Abs() > time.Minute {
		t.Errorf("the clock of %s's turn starts %s, want at their return %s", other.Name, c.Since, back)
	}
	if rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nvacation 2d"); rep.Outcome != host.Rejected {
		t.Errorf("vacation by the host: %+v", rep)
	}
}
