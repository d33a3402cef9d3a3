package host_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
)

// TestReplace hands bob's seat to dave (issue 19): dave gets a welcome
// with a new key and bob's private view, bob's key stops working at once,
// the others are told; only the host may.
func TestReplace(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	alice, bob := g.Players[0], g.Players[1]
	if rep := r.send(id, alice.Address, "key "+alice.Secret+"\nreplace bob by eve@z.org"); rep.Outcome != host.Rejected || !strings.Contains(rep.Notices[0].Text, "Only the host") {
		t.Errorf("replace by a player: %+v", rep)
	}
	for _, bad := range []string{"replace carol by dave@z.org", "replace bob by dave", "replace bob by alice@x.org", "replace bob"} {
		if rep := r.send(id, "h@x.org", "key "+g.HostKey+"\n"+bad); rep.Outcome != host.Rejected {
			t.Errorf("%q: %+v", bad, rep)
		}
	}
	rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nremplacer bob par Dave@Z.org")
	if rep.Outcome != host.Answered {
		t.Fatalf("replace: %+v", rep)
	}
	g = r.game(id)
	dave := g.Players[1]
	if dave.Name != "bob" || dave.Address != "dave@z.org" || dave.Secret == bob.Secret {
		t.Fatalf("the seat after the replacement: %+v", dave)
	}
	var got []string
	for _, n := range rep.Notices {
		got = append(got, string(n.Kind)+">"+n.To)
		if n.To != dave.Address && strings.Contains(n.Text, r.clear(dave.Secret)) {
			t.Errorf("%s's notice holds dave's key", n.To)
		}
	}
	if want := []string{"welcome>dave@z.org", "ended>bob@y.org", "news>alice@x.org", "news>h@x.org"}; !slices.Equal(got, want) {
		t.Errorf("notices %v, want %v", got, want)
	}
	if w := rep.Notices[0].Text; !strings.Contains(w, "key "+r.clear(dave.Secret)) || !strings.Contains(w, "the seat of bob") || !strings.Contains(w, "bob's hand") && !strings.Contains(w, "IT IS YOUR TURN, bob") {
		t.Errorf("dave's welcome:\n%s", w)
	}
	if host.Authenticate(g, 1, r.clear(bob.Secret)) {
		t.Error("bob's old key still works")
	}
	// The same address: a new key and token, to revoke leaked ones.
	rep = r.send(id, "h@x.org", "key "+g.HostKey+"\nreplace bob by dave@z.org")
	g2 := r.game(id)
	if rep.Outcome != host.Answered || g2.Players[1].Secret == dave.Secret || g2.Players[1].Token == dave.Token || host.TokenOK(g2, 1, dave.Token) {
		t.Errorf("re-keying dave: %+v, seat %+v", rep, g2.Players[1])
	}
	if got := kinds(rep.Notices); !slices.Equal(got, []string{"welcome>dave@z.org", "news>alice@x.org", "news>h@x.org"}) {
		t.Errorf("re-keying notices: %v", got)
	}
}

// TestObservers subscribes an observer (issue 19): they get every move in
// its public form and never a hand or a key; a player cannot observe; the
// host may forbid observers, which ends the observation.
func TestObservers(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	observe := func(addr string, on bool) host.Reply {
		t.Helper()
		var rep host.Reply
		if err := r.do(addr, func(s *host.Session) error {
			var err error
			rep, err = s.Observe(t.Context(), id, addr, on)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := observe("Olga@w.org", true); rep.Outcome != host.Answered || !strings.Contains(rep.Notices[0].Text, "You now observe game G1") {
		t.Fatalf("observe: %+v", rep)
	}
	if rep := observe("olga@w.org", true); !strings.Contains(rep.Notices[0].Text, "already") {
		t.Errorf("observe twice: %+v", rep)
	}
	if rep := observe("alice@x.org", true); rep.Outcome != host.Rejected {
		t.Errorf("a player observes: %+v", rep)
	}
	for range 6 {
		rep := r.playTurn(id)
		var seen bool
		for _, n := range rep.Notices {
			if n.To != "olga@w.org" {
				continue
			}
			seen = true
			for _, p := range g.Players {
				if strings.Contains(n.Text, r.clear(p.Secret)) || strings.Contains(n.Text, p.Name+"'s hand") || strings.Contains(n.Text, "Your legal steps") {
					t.Fatalf("the observer's news shows what only %s may see:\n%s", p.Name, n.Text)
				}
			}
		}
		if !seen {
			t.Fatalf("the observer got no news of a move: %v", kinds(rep.Notices))
		}
	}
	if rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nset observers off"); rep.Outcome != host.Answered {
		t.Fatalf("set observers off: %+v", rep)
	}
	if rep := observe("olga@w.org", true); rep.Outcome != host.Rejected || !strings.Contains(rep.Notices[0].Text, "allows no observers") {
		t.Errorf("observe when the host forbids it: %+v", rep)
	}
	rep := r.playTurn(id)
	for _, n := range rep.Notices {
		if n.To == "olga@w.org" {
			t.Errorf("an observer got news after the host forbade observers")
		}
	}
}
