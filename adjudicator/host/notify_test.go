package host_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/notation"
)

// TestNotify plays a three-player game where bob wants a mail only when he
// must act and carol a daily digest (issue 19): bob's mail when his turn
// comes lists every move since his last one, carol hears of moves only in
// her digest, and everyone gets their own move's confirmation. carol asked
// in French: her digest is French.
func TestNotify(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@x.org", "carol@x.org"}})
	g := r.game(id)
	bob, carol := g.Players[1], g.Players[2]
	if rep := r.send(id, bob.Address, "key "+bob.Secret+"\nnotify turn"); rep.Outcome != host.Answered || rep.Notices[0].Topic != "notify turn" {
		t.Fatalf("notify turn: %+v", rep)
	}
	if rep := r.send(id, carol.Address, "key "+carol.Secret+"\navis résumé"); rep.Outcome != host.Answered || rep.Notices[0].Topic != "notify digest" {
		t.Fatalf("avis résumé: %+v", rep)
	}
	if rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nnotify turn"); rep.Outcome != host.Rejected {
		t.Errorf("notify by the host: %+v", rep)
	}
	if rep := r.send(id, bob.Address, "key "+bob.Secret+"\nnotify sometimes"); rep.Outcome != host.Rejected || !strings.Contains(rep.Notices[0].Text, "notify digest") {
		t.Errorf("a bad notify line: %+v", rep)
	}
	start := r.clock
	bobMails, carolNews := 0, 0
	for range 13 { // the last move is not carol's: her digest has news
		rep := r.playTurn(id)
		m := r.game(id)
		for _, n := range rep.Notices {
			if n.InReplyTo {
				continue // the mover's own confirmation
			}
			switch n.To {
			case bob.Address:
				bobMails++
				if n.Topic != "your turn" {
					t.Errorf("bob, who wants mail only on his turn, got %q:\n%s", n.Topic, n.Text)
				}
				if len(m.Record.Moves) > 3 && !strings.Contains(n.Text, "The moves since your last mail:\n") {
					t.Errorf("bob's turn mail does not list the moves he missed:\n%s", n.Text)
				}
			case carol.Address:
				carolNews++
			}
		}
	}
	if bobMails == 0 || carolNews != 0 {
		t.Errorf("bob got %d turn mails (want some), carol %d news mails (want none: she has a digest)", bobMails, carolNews)
	}
	r.clock = start.Add(23 * time.Hour)
	if got := r.tick(); len(got) != 0 {
		t.Errorf("before a day: %v", kinds(got))
	}
	r.clock = start.Add(25 * time.Hour)
	last := len(r.game(id).Record.Moves)
	got := r.tick()
	if len(got) != 1 || got[0].To != carol.Address || got[0].Topic != "digest" || got[0].Lang != notation.French || !strings.Contains(got[0].Text, "Votre résumé du jour de la partie G1") ||
		!strings.Contains(got[0].Text, fmt.Sprintf("\n%3d  ", last)) {
		t.Fatalf("carol's digest: %v\n%v", kinds(got), got)
	}
	if again := r.tick(); len(again) != 0 {
		t.Errorf("a second digest the same day: %v", kinds(again))
	}
	r.clock = start.Add(49 * time.Hour)
	if got := r.tick(); len(got) != 0 {
		t.Errorf("a digest of a day without moves: %v", kinds(got))
	}
}

// TestDigestUnderDeadlines: a player who asks for a daily digest in a
// game with deadlines is told that no mail says at once that it is their
// turn, the reminder being the first (hand play: a player on digest under
// a forfeit policy learnt of their turn from the reminder); in a game
// without deadlines the confirmation does not say it.
func TestDigestUnderDeadlines(t *testing.T) {
	r, id := timedRaubritter(t, "set deadline 1d")
	alice := r.game(id).Players[0]
	rep := r.send(id, alice.Address, "key "+alice.Secret+"\nnotify digest")
	if rep.Outcome != host.Answered || !strings.Contains(rep.Notices[0].Text, "The game has deadlines: no mail says at once that it is your turn; the\nreminder, at 75% of the deadline, is the first.") {
		t.Errorf("notify digest under deadlines: %+v", rep)
	}
	r2, id2 := timedRaubritter(t)
	bob := r2.game(id2).Players[1]
	if rep := r2.send(id2, bob.Address, "key "+bob.Secret+"\nnotify digest"); rep.Outcome != host.Answered || strings.Contains(rep.Notices[0].Text, "deadlines") {
		t.Errorf("notify digest without deadlines: %+v", rep)
	}
}
