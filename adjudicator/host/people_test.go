package host_test

import (
	"fmt"
	"regexp"
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
	// The host wrote French (remplacer ... par): dave's welcome is French.
	if w := rep.Notices[0].Text; !strings.Contains(w, "clé "+r.clear(dave.Secret)) || !strings.Contains(w, "la place de bob") || !strings.Contains(w, "bob's hand") && !strings.Contains(w, "C'EST VOTRE TOUR, bob") {
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
	rep := observe("Olga@w.org", true)
	token := confirmToken.FindStringSubmatch(rep.Notices[0].Text)
	if rep.Outcome != host.Answered || token == nil {
		t.Fatalf("observe: %+v", rep)
	}
	if rep := confirmObserve(r, id, "olga@w.org", token[1]); rep.Outcome != host.Answered || !strings.Contains(rep.Notices[0].Text, "You now observe game G1") {
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
	rep = r.playTurn(id)
	for _, n := range rep.Notices {
		if n.To == "olga@w.org" {
			t.Errorf("an observer got news after the host forbade observers")
		}
	}
}

// confirmToken finds the token in a confirmation mail of observing.
var confirmToken = regexp.MustCompile(`(?m)^  observe G\d+ (\S+)$`)

// confirmObserve sends addr's confirmation of observing game id.
func confirmObserve(r *rig, id int64, addr, token string) host.Reply {
	r.t.Helper()
	var rep host.Reply
	if err := r.do(addr, func(s *host.Session) error {
		var err error
		rep, err = s.ConfirmObserve(r.t.Context(), id, addr, token)
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	return rep
}

// invited sends body, a mail of by's that asks (observe ADDRESS) that
// addr observe game id, and has addr confirm with the token of the
// invitation herald mails them; it returns the confirmation's reply.
func invited(r *rig, id int64, by, body, addr string) host.Reply {
	r.t.Helper()
	rep := r.send(id, by, body)
	for _, n := range rep.Notices {
		if n.To != addr {
			continue
		}
		token := confirmToken.FindStringSubmatch(n.Text)
		if token == nil {
			r.t.Fatalf("%s's invitation gives no token:\n%s", addr, n.Text)
		}
		return confirmObserve(r, id, addr, token[1])
	}
	r.t.Fatalf("%s asked that %s observe game %d; no invitation went: %+v", by, addr, id, rep)
	return host.Reply{}
}

// TestObserveNeedsConsent checks that herald mails an observer only once
// they agreed (issue 25, item 14): a request to observe, forged or not,
// gets one confirmation mail a day and subscribes no one; the token it
// gives subscribes the address, a wrong one does not; a player or the
// host invites someone, who is told who asked and confirms the same way.
func TestObserveNeedsConsent(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	ask := func(addr string) host.Reply {
		t.Helper()
		var rep host.Reply
		if err := r.do(addr, func(s *host.Session) error {
			var err error
			rep, err = s.Observe(t.Context(), id, addr, true)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	news := func(rep host.Reply, addr string) bool {
		for _, n := range rep.Notices {
			if n.To == addr {
				return true
			}
		}
		return false
	}
	rep := ask("dan@w.org")
	if rep.Outcome != host.Answered || len(rep.Notices) != 1 || rep.Notices[0].Topic != "confirm observe" || strings.Contains(rep.Notices[0].Text, "You now observe") {
		t.Fatalf("a request to observe: %+v", rep)
	}
	token := confirmToken.FindStringSubmatch(rep.Notices[0].Text)
	if token == nil {
		t.Fatalf("the confirmation gives no token:\n%s", rep.Notices[0].Text)
	}
	if news(r.playTurn(id), "dan@w.org") {
		t.Fatal("dan got the news of a move before he agreed")
	}
	if rep := ask("dan@w.org"); rep.Outcome != host.Ignored || len(rep.Notices) != 0 {
		t.Errorf("a second request the same day: %+v, want no mail", rep)
	}
	if rep := confirmObserve(r, id, "dan@w.org", "not-the-token"); rep.Outcome != host.Rejected {
		t.Errorf("a wrong token: %+v", rep)
	}
	if rep := confirmObserve(r, id, "eve@w.org", token[1]); rep.Outcome != host.Rejected {
		t.Errorf("dan's token from eve: %+v", rep)
	}
	if rep := confirmObserve(r, id, "dan@w.org", token[1]); rep.Outcome != host.Answered || !strings.Contains(rep.Notices[0].Text, "You now observe game G1") {
		t.Fatalf("dan confirms: %+v", rep)
	}
	if !news(r.playTurn(id), "dan@w.org") {
		t.Fatal("dan got no news of a move once he agreed")
	}
	if rep := confirmObserve(r, id, "dan@w.org", token[1]); !strings.Contains(rep.Notices[0].Text, "already") {
		t.Errorf("the token used again: %+v", rep)
	}

	// The host, and a player, invite someone, who is told who asked and
	// observes once they write the line back (hostile campaign: a
	// stranger who starts a game had herald mail every move to 40
	// addresses that never wrote).
	for _, tc := range []struct{ by, key, who, addr string }{
		{"h@x.org", g.HostKey, "the host", "fay@w.org"},
		{"alice@x.org", g.Players[0].Secret, "a player", "gus@w.org"},
	} {
		rep := r.send(id, tc.by, "key "+tc.key+"\nobserve G1 "+tc.addr)
		if rep.Outcome != host.Answered || len(rep.Notices) != 2 || rep.Notices[0].To != tc.by || !strings.Contains(rep.Notices[0].Text, "herald mailed a confirmation to\n"+tc.addr) {
			t.Fatalf("%s invites %s: %+v", tc.by, tc.addr, rep)
		}
		n := rep.Notices[1]
		token := confirmToken.FindStringSubmatch(n.Text)
		if n.To != tc.addr || !strings.Contains(n.Text, tc.by+",\n"+tc.who+" of game G1, asked herald") || token == nil {
			t.Fatalf("the invitation: %+v", n)
		}
		if news(r.playTurn(id), tc.addr) {
			t.Errorf("%s, invited by %s, got the news of a move before they agreed", tc.addr, tc.by)
		}
		if rep := r.send(id, tc.by, "key "+tc.key+"\nobserve G1 "+tc.addr); len(rep.Notices) != 1 || !strings.Contains(rep.Notices[0].Text, "less than a day ago, and asks no more today") {
			t.Errorf("%s invites %s again: %+v, want no second mail to them", tc.by, tc.addr, rep)
		}
		if rep := confirmObserve(r, id, tc.addr, token[1]); rep.Outcome != host.Answered || !strings.Contains(rep.Notices[0].Text, "You now observe game G1") {
			t.Fatalf("%s confirms: %+v", tc.addr, rep)
		}
		if !news(r.playTurn(id), tc.addr) {
			t.Errorf("%s, invited by %s, got no news of a move once they agreed", tc.addr, tc.by)
		}
	}
	// Ten invitations a day wait at most: the eleventh mails no one.
	invited := 0
	for i := range 12 {
		addr := fmt.Sprintf("x%d@w.org", i)
		rep := r.send(id, "alice@x.org", "key "+g.Players[0].Secret+"\nobserve G1 "+addr)
		if news(rep, addr) {
			invited++
		} else if !strings.Contains(rep.Notices[0].Text, "herald asks no more until they do") {
			t.Errorf("invitation %d mailed no one and says: %+v", i, rep)
		}
	}
	if invited != 10 { // dan, fay and gus confirmed: theirs wait no more
		t.Errorf("%d invitations went in a day, want 10", invited)
	}
	if rep := r.send(id, "alice@x.org", "key "+g.Players[0].Secret+"\nobserve G1 bob@y.org"); rep.Outcome != host.Rejected {
		t.Errorf("alice subscribes bob, a player: %+v", rep)
	}
	if rep := r.send(id, "alice@x.org", "key "+g.Players[0].Secret+"\nobserve G1 not@an@address"); rep.Outcome != host.Rejected {
		t.Errorf("alice subscribes a bad address: %+v", rep)
	}
}

// TestObserverFirstMailHasPicture: an observer's first mail shows the
// board as every mail with the board does, its picture too (field test:
// "You now observe game G4" came with the text board alone), whether they
// confirmed their own request or a player's invitation.
func TestObserverFirstMailHasPicture(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	r.playTurn(id)
	var rep host.Reply
	if err := r.do("olga@w.org", func(s *host.Session) error {
		var err error
		rep, err = s.Observe(t.Context(), id, "olga@w.org", true)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	token := confirmToken.FindStringSubmatch(rep.Notices[0].Text)
	if token == nil {
		t.Fatalf("no confirmation: %+v", rep)
	}
	rep = confirmObserve(r, id, "olga@w.org", token[1])
	if n := rep.Notices[0]; !strings.Contains(n.Text, "You now observe game G1") || n.Picture == nil {
		t.Errorf("olga's first mail as an observer, picture %v:\n%s", n.Picture != nil, n.Text)
	}
	alice := r.game(id).Players[0]
	rep = r.send(id, alice.Address, "key "+alice.Secret+"\nobserve G1 dan@w.org")
	if len(rep.Notices) != 2 || rep.Notices[1].To != "dan@w.org" {
		t.Fatalf("alice invites dan: %+v", rep)
	}
	if token = confirmToken.FindStringSubmatch(rep.Notices[1].Text); token == nil {
		t.Fatalf("dan's invitation gives no token:\n%s", rep.Notices[1].Text)
	}
	rep = confirmObserve(r, id, "dan@w.org", token[1])
	if n := rep.Notices[0]; !strings.Contains(n.Text, "You now observe game G1") || n.Picture == nil {
		t.Errorf("dan's first mail as an observer, picture %v:\n%s", n.Picture != nil, n.Text)
	}
}

// TestReplaceByHostWhoPlays: a host who plays hands their own seat to
// another address, and another player's seat to the bot, but not to an
// address: its welcome shows that seat's hand (found over real mail: the
// host handed carol's seat to an address of their own and read it).
func TestReplaceByHostWhoPlays(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "alice@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org", "carol@z.org"}})
	alice := r.game(id).Players[0]
	key := "key " + alice.Secret + "\n"
	rep := r.send(id, alice.Address, key+"replace carol by alice+spy@x.org")
	if rep.Outcome != host.Rejected || len(rep.Notices) != 1 || !strings.Contains(rep.Notices[0].Text, "another player's seat only to the bot (replace carol by bot:2)") {
		t.Fatalf("alice hands carol's seat to her own alias: %+v", rep)
	}
	if p := r.game(id).Players[2]; p.Address != "carol@z.org" {
		t.Errorf("carol's seat went to %s", p.Address)
	}
	if rep := r.send(id, alice.Address, key+"replace carol by bot:2"); rep.Outcome == host.Rejected {
		t.Errorf("alice hands carol's seat to the bot: %+v", rep)
	}
	if rep := r.send(id, alice.Address, key+"replace alice by alice2@x.org"); rep.Outcome == host.Rejected {
		t.Errorf("alice hands her own seat on: %+v", rep)
	}
}

// TestReplaceLang: a seat handed to someone new does not keep the
// language its last player chose (lang fr): the newcomer's welcome and
// mails are in the language of the host's mail until they choose; a seat
// given a new key at the same address keeps its player's choice. The
// language of the seat's last mail (Player.MailLang) goes and stays alike.
func TestReplaceLang(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	bob := g.Players[1]
	if rep := r.send(id, bob.Address, "key "+bob.Secret+"\nlangue fr"); rep.Outcome != host.Answered {
		t.Fatalf("lang fr: %+v", rep)
	}
	rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nreplace bob by bob@y.org")
	if g = r.game(id); rep.Outcome != host.Answered || g.Players[1].Lang != host.LangFrench || g.Players[1].MailLang != host.LangFrench || !strings.Contains(rep.Notices[0].Text, "Bienvenue dans la partie") {
		t.Errorf("bob's new key: lang %q, mail lang %q, %+v", g.Players[1].Lang, g.Players[1].MailLang, rep.Notices[0])
	}
	rep = r.send(id, "h@x.org", "key "+g.HostKey+"\nreplace bob by dave@z.org")
	if g = r.game(id); rep.Outcome != host.Answered || g.Players[1].Lang != "" || g.Players[1].MailLang != "" || !strings.Contains(rep.Notices[0].Text, "Welcome to game") {
		t.Errorf("dave in bob's seat: lang %q, mail lang %q, %+v", g.Players[1].Lang, g.Players[1].MailLang, rep.Notices[0])
	}
}
