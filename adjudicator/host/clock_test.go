package host_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// tick runs the host's Tick at the rig's clock and returns the notices it
// delivered.
func (r *rig) tick() []host.Notice {
	r.t.Helper()
	var got []host.Notice
	if _, err := r.h.Tick(context.Background(), r.clock, func(_ *host.Session, n []host.Notice) error {
		got = append(got, n...)
		return nil
	}); err != nil {
		r.t.Fatal(err)
	}
	return got
}

// playTurn plays the whole turn of the player to move with their first
// legal steps.
func (r *rig) playTurn(id int64) host.Reply {
	r.t.Helper()
	g := r.game(id)
	m, err := adjudicator.Start(r.h.Registry(), g.Record)
	if err != nil {
		r.t.Fatal(err)
	}
	who := m.State.ToMove()[0]
	var steps []string
	for slices.Contains(m.State.ToMove(), who) {
		st := m.State.Legal(who)[0].String()
		if _, err := m.Submit(who, st, "", ""); err != nil {
			r.t.Fatal(err)
		}
		steps = append(steps, st)
	}
	p := g.Players[slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == who })]
	return r.send(id, p.Address, "key "+p.Secret+"\n"+strings.Join(steps, "\n"))
}

func kinds(ns []host.Notice) []string {
	var out []string
	for _, n := range ns {
		out = append(out, string(n.Kind)+">"+n.To)
	}
	return out
}

// TestDeadlines runs a month of hourly ticks on a fake clock over a game
// with a 48h deadline, a 24h grace and the forfeit policy (issue 19): the
// reminder at 75% of the deadline to the player on move alone, once; a
// move starts the next player's clock; the late notice to everyone at the
// deadline; the forfeit after the grace, which ends the game.
func TestDeadlines(t *testing.T) {
	r := newRig(t, false)

	id, notices := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"},
		Timing: host.Timing{Deadline: 48 * time.Hour, Policy: host.PolicyForfeit}})
	created := r.clock
	due := created.Add(48 * time.Hour)
	for _, n := range notices {
		if n.Status == nil || !n.Status.Deadline.Equal(due) {
			t.Errorf("%s's %s notice: status %+v, want the deadline %s", n.To, n.Kind, n.Status, due)
		}
	}
	if !strings.Contains(notices[0].Text, "Timing:\n  each move is due within 2d\n  a reminder at 75% of that time") {
		t.Errorf("the host's confirmation does not give the timing:\n%s", notices[0].Text)
	}
	if !strings.Contains(notices[1].Text, "This move is due by "+due.Format("2006-01-02 15:04 UTC")) {
		t.Errorf("the welcome does not give the deadline:\n%s", notices[1].Text)
	}

	r.clock = created.Add(35 * time.Hour)
	if got := r.tick(); len(got) != 0 {
		t.Fatalf("before the reminder: %v", kinds(got))
	}
	// Both players keep a tile first (the setup, Raubritter's rule 72):
	// both are reminded.
	r.clock = created.Add(36 * time.Hour)
	got := r.tick()
	if want := []string{"reminder>alice@x.org", "reminder>bob@y.org"}; !slices.Equal(kinds(got), want) {
		t.Fatalf("at 75%% of the deadline: %v, want %v", kinds(got), want)
	}
	if !strings.Contains(got[0].Text, "It is due by "+due.Format("2006-01-02 15:04 UTC")+", in 12h.") {
		t.Errorf("the reminder:\n%s", got[0].Text)
	}
	if again := r.tick(); len(again) != 0 {
		t.Errorf("a second tick at the same time sent %v", kinds(again))
	}

	// Alice keeps her tile: bob is still waited for, the clock goes on.
	r.clock = created.Add(40 * time.Hour)
	r.playTurn(id)
	if c := r.game(id).Clock; c == nil || !c.Since.Equal(created) || c.Stage != 1 || c.ToMove != "bob" {
		t.Fatalf("after alice's setup step the clock is %+v, want the same turn, waiting for bob", c)
	}
	// Bob keeps his: the first turn begins, its clock with it.
	r.clock = created.Add(41 * time.Hour)
	r.playTurn(id)
	moved := r.clock
	c := r.game(id).Clock
	if c == nil || !c.Since.Equal(moved) || c.Stage != 0 || strings.Contains(c.ToMove, ",") {
		t.Fatalf("after the setup the clock is %+v, want one player's turn from %s", c, moved)
	}
	late := "alice"
	if c.ToMove == "bob" {
		late = "bob"
	}
	addr := map[string]string{"alice": "alice@x.org", "bob": "bob@y.org"}

	// A month of hourly ticks: bob's reminder, the late notice, the
	// forfeit, then nothing.
	var all []string
	for h := time.Duration(0); h < 30*24*time.Hour; h += time.Hour {
		r.clock = moved.Add(h)
		for _, n := range r.tick() {
			all = append(all, string(n.Kind)+">"+n.To+"@"+r.clock.Sub(moved).String())
		}
	}
	want := []string{
		"reminder>" + addr[late] + "@36h0m0s",
		"late>alice@x.org@48h0m0s", "late>bob@y.org@48h0m0s", "late>h@x.org@48h0m0s",
		"ended>alice@x.org@72h0m0s", "ended>bob@y.org@72h0m0s", "ended>h@x.org@72h0m0s",
	}

	if !slices.Equal(all, want) {
		t.Errorf("a month of ticks:\n%s\nwant:\n%s", strings.Join(all, "\n"), strings.Join(want, "\n"))
	}
	g := r.game(id)
	if g.Status != host.Forfeited || g.Record.Ended == nil || g.Record.Ended.By != late || !strings.Contains(g.Record.Ended.Source, "forfeit") {
		t.Errorf("after the forfeit: status %s, ending %+v", g.Status, g.Record.Ended)
	}

}

// TestTickExactlyOnce fails the delivery of a tick's notices: nothing of
// it stays (the clock has not moved on), and the next tick sends them,
// once.
func TestTickExactlyOnce(t *testing.T) {
	r := newRig(t, false)
	r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"},
		Timing: host.Timing{Deadline: 24 * time.Hour}})
	r.clock = r.clock.Add(20 * time.Hour)
	boom := errors.New("the outbox is down")
	if _, err := r.h.Tick(context.Background(), r.clock, func(*host.Session, []host.Notice) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("Tick = %v, want the delivery's error", err)
	}
	if got := r.tick(); len(got) != 2 || got[0].Kind != host.Reminder || got[1].Kind != host.Reminder {
		t.Fatalf("the tick after the failure: %v", kinds(got))
	}
	if got := r.tick(); len(got) != 0 {
		t.Fatalf("a third tick: %v", kinds(got))
	}
}

// TestSet changes a game's timing by the host's set lines: a player may
// not; the wait policy sends the late notice and nothing after; off
// removes the deadline.
func TestSet(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	alice := g.Players[0]
	if rep := r.send(id, alice.Address, "key "+alice.Secret+"\nset deadline 1d"); rep.Outcome != host.Rejected || !strings.Contains(rep.Notices[0].Text, "Only the host") {
		t.Errorf("set by a player: %+v", rep)
	}
	for _, bad := range []string{"set deadline soon", "set deadline 10m", "set policy dice", "set colour blue", "set reminder 120%", "set deadline"} {
		if rep := r.send(id, "h@x.org", "key "+g.HostKey+"\n"+bad); rep.Outcome != host.Rejected || !strings.Contains(rep.Notices[0].Text, "set deadline 72h") {
			t.Errorf("%q: %+v", bad, rep)
		}
	}
	if r.game(id).Clock != nil {
		t.Fatal("a refused set line left a clock")
	}
	rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nset deadline 2 days")
	if rep.Outcome != host.Answered || len(rep.Notices) != 3 || !strings.Contains(rep.Notices[0].Text, "each move is due within 2d") {
		t.Fatalf("set deadline: %+v", rep)
	}
	since := r.clock
	r.send(id, "h@x.org", "key "+g.HostKey+"\nrégler grace 12h")
	// A zero grace or allowance is refused, not read as the default.
	for _, zero := range []string{"set grace 0h", "set vacation 0d"} {
		if rep := r.send(id, "h@x.org", "key "+g.HostKey+"\n"+zero); rep.Outcome != host.Rejected || !strings.Contains(rep.Notices[0].Text, "is no time at all") {
			t.Errorf("%q: %+v", zero, rep)
		}
	}
	r.send(id, "h@x.org", "key "+g.HostKey+"\nset policy wait")
	c := r.game(id).Clock
	if c == nil || c.Deadline != 48*time.Hour || c.Grace != 12*time.Hour || c.Policy != host.PolicyWait || !c.Since.Equal(since) {
		t.Fatalf("the clock after the set lines: %+v", c)
	}
	var all []string
	for h := time.Duration(0); h < 10*24*time.Hour; h += time.Hour {
		r.clock = since.Add(h)
		for _, n := range r.tick() {
			all = append(all, string(n.Kind))
		}
	}
	if want := []string{"reminder", "reminder", "late", "late", "late"}; !slices.Equal(all, want) {
		t.Errorf("ten days of ticks with the wait policy: %v, want %v", all, want)
	}
	r.send(id, "h@x.org", "key "+g.HostKey+"\nset deadline off")
	if c := r.game(id).Clock; c != nil {
		t.Errorf("set deadline off left %+v", c)
	}
}

// TestParseSpan reads spans of time as hosts write them.
func TestParseSpan(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want time.Duration
	}{
		{"72h", 72 * time.Hour}, {"3d", 72 * time.Hour}, {"2 days", 48 * time.Hour}, {"1d12h", 36 * time.Hour},
		{"90m", 90 * time.Minute}, {"36 heures", 36 * time.Hour}, {"2 jours", 48 * time.Hour}, {"1H", time.Hour},
	} {
		if got, err := host.ParseSpan(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseSpan(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "h", "3", "3 weeks", "-3h", "2y", "400d", "0h", "0d0m"} {
		if got, err := host.ParseSpan(bad); err == nil {
			t.Errorf("ParseSpan(%q) = %v, want an error", bad, got)
		}
	}
	if got := host.FormatSpan(36*time.Hour + 30*time.Minute); got != "1d12h30m" {
		t.Errorf("FormatSpan = %q", got)
	}
}

// TestMissingBidIsABidOfNothing runs Löwenherz 1997 into a confrontation,
// gives the game a deadline with the forfeit policy, and lets it pass: the
// bids that never came are bids of nothing, played for their bidders, and
// nobody forfeits (RULINGS.md H-3).
func TestMissingBidIsABidOfNothing(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "lowenherz97", Players: []string{"a@x.org", "b@x.org", "c@x.org", "d@x.org"}})
	g := r.game(id)
	var bidders []string
	for i := 0; i < 400 && bidders == nil; i++ {
		m, err := adjudicator.Start(r.h.Registry(), r.game(id).Record)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m.State.ToMove() {
			for _, mv := range m.State.Legal(p) {
				if strings.HasPrefix(mv.String(), "bid ") {
					bidders = m.State.ToMove()
				}
			}
		}
		if bidders != nil {
			break
		}
		to := m.State.ToMove()
		who := to[i%len(to)]
		legal := m.State.Legal(who)
		seat := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == who })
		r.send(id, g.Players[seat].Address, "key "+g.Players[seat].Secret+"\n"+legal[(i*7)%len(legal)].String())
	}
	if bidders == nil {
		t.Fatal("no confrontation in 400 steps")
	}
	r.send(id, "h@x.org", "key "+g.HostKey+"\nset deadline 1d")
	r.send(id, "h@x.org", "key "+g.HostKey+"\nset policy forfeit")
	before := len(r.game(id).Record.Moves)
	start := r.clock
	var kinds []string
	for h := time.Duration(0); h < 3*24*time.Hour && r.game(id).Status == host.Playing; h += time.Hour {
		r.clock = start.Add(h)
		for _, n := range r.tick() {
			kinds = append(kinds, string(n.Kind))
		}
		if len(r.game(id).Record.Moves) > before {
			break
		}
	}
	g = r.game(id)
	if g.Status != host.Playing || g.Record.Ended != nil {
		t.Fatalf("the game ended (%s, %+v) instead of counting the missing bids as nothing; notices %v", g.Status, g.Record.Ended, kinds)
	}
	added := g.Record.Moves[before:]
	if len(added) == 0 {
		t.Fatalf("no bid was played for the late bidders %v; notices %v", bidders, kinds)
	}
	for _, mv := range added {
		if !strings.HasPrefix(mv.Source, "host default") || mv.Text != "bid 0" {
			t.Errorf("a default move %+v, want bid 0 from the host's default", mv)
		}
	}
}

// TestSetLinesOneMail: a host's mail with several set lines of timing
// sends each other player one mail with the timing as it then stands,
// not one a line (hand play: five set lines, up to five mails each).
func TestSetLinesOneMail(t *testing.T) {
	r, id := timedRaubritter(t)
	rep := r.send(id, "h@x.org", "key "+r.game(id).HostKey+"\nset deadline 48h\nset reminder 50%\nset grace 12h")
	if rep.Outcome != host.Answered {
		t.Fatalf("three set lines: %+v", rep)
	}
	for _, who := range []string{"alice@x.org", "bob@y.org"} {
		var got []string
		for _, n := range rep.Notices {
			if n.To == who && n.Topic == "settings" {
				got = append(got, n.Text)
			}
		}
		if len(got) != 1 || !strings.Contains(got[0], "2d") || !strings.Contains(got[0], "50%") || !strings.Contains(got[0], "12h") {
			t.Errorf("%s got %d mails of the timing, want one with all three lines: %q", who, len(got), got)
		}
	}
}
