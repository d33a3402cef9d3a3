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
	r, id := timedRaubritter(t, "set deadline 2d")
	g := r.game(id)
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

// TestVacationWhenLate: a player already late who goes away keeps their
// lateness and the grace left, paused, and is told so; nothing is due
// while they are away; the late notice goes again when they are back;
// the policy comes only when the grace left has run after their return
// (hand play: the deadline moved to 8 minutes before her return, the
// answer gave it as due, and she forfeited 50 minutes after coming back,
// told nothing).
func TestVacationWhenLate(t *testing.T) {
	r, id := timedRaubritter(t, "set deadline 1h", "set grace 1h", "set policy forfeit")
	g := r.game(id)
	p := g.Players[0]
	if p.Name != g.Clock.ToMove {
		p = g.Players[1]
	}
	start := r.clock
	r.clock = start.Add(50 * time.Minute)
	r.tick() // the reminder
	r.clock = start.Add(65 * time.Minute)
	if got := kinds(r.tick()); len(got) == 0 {
		t.Fatal("no late notice 5 minutes past the deadline")
	}
	rep := r.send(id, p.Address, "key "+p.Secret+"\nvacation 1d")
	back := r.clock.Add(24 * time.Hour)
	if rep.Outcome != host.Answered || !strings.Contains(rep.Notices[0].Text, "The move you are asked for is late: it was due by") ||
		strings.Contains(rep.Notices[0].Text, "is due by") {
		t.Fatalf("vacation while late: %+v", rep)
	}
	for h := time.Duration(0); h < 24*time.Hour; h += time.Hour {
		r.clock = back.Add(-24*time.Hour + h)
		if got := r.tick(); len(got) != 0 {
			t.Fatalf("%s into the vacation: %v", h, kinds(got))
		}
	}
	r.clock = back
	late := r.tick()
	told := false
	for _, n := range late {
		told = told || n.To == p.Address && n.Kind == host.Late
	}
	if !told {
		t.Fatalf("back from vacation, %s is not told their move is late: %v", p.Name, kinds(late))
	}
	// The grace left at the vacation (55 minutes) runs from the return.
	r.clock = back.Add(50 * time.Minute)
	if got := r.tick(); len(got) != 0 || r.game(id).Status != host.Playing {
		t.Fatalf("50 minutes after the return, within the grace left: %v, %s", kinds(got), r.game(id).Status)
	}
	r.clock = back.Add(56 * time.Minute)
	r.tick()
	if r.game(id).Status == host.Playing {
		t.Errorf("the grace left has run after the return, and the game still plays")
	}
}

// timedRaubritter starts a Raubritter game between alice and bob, plays
// its setup (both keep a tile), and has its host h@x.org send each of the
// set lines in a mail of its own.
func timedRaubritter(t *testing.T, set ...string) (*rig, int64) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	r.playTurn(id)
	r.playTurn(id)
	for _, line := range set {
		r.send(id, "h@x.org", "key "+r.game(id).HostKey+"\n"+line)
	}
	return r, id
}
