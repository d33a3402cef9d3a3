package host_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/notation"
)

// TestNoticesGivePage checks that every notice that shows the board gives
// the game's page when the game has one, for the transport to put in its
// mail (issue 28, item 8: only the welcome gave it), and none once the
// host turned the page off.
func TestNoticesGivePage(t *testing.T) {
	r := newRig(t, false)
	keys := 0
	h, err := host.New(host.Config{Registry: r.h.Registry(), Store: r.st, Now: func() time.Time { return r.clock }, NewSeed: func() string { return "host-test" },
		NewKey: func() string {
			keys++
			k := fmt.Sprintf("page-key%02d", keys)
			r.keys[host.HashKey(k)] = k
			return k
		},
		PageURL: func(token string) string { return "https://games.example.org/g/" + token }})
	if err != nil {
		t.Fatal(err)
	}
	r.h = h
	id, notices := r.create(host.CreateRequest{Host: "alice@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	want := "https://games.example.org/g/" + g.PageToken
	check := func(what string, notices []host.Notice, page string) {
		t.Helper()
		boards := 0
		for _, n := range notices {
			if n.Picture == nil {
				continue
			}
			boards++
			if n.Page != page {
				t.Errorf("%s: the notice to %s (%s) gives the page %q, want %q", what, n.To, n.Topic, n.Page, page)
			}
		}
		if boards == 0 {
			t.Fatalf("%s: no notice shows the board", what)
		}
	}
	check("the welcomes", notices, want)
	key := func(addr string) string {
		for _, p := range r.game(id).Players {
			if p.Address == addr {
				return "key " + p.Secret + "\n"
			}
		}
		return ""
	}
	rep := r.send(id, "alice@x.org", key("alice@x.org")+"keep plain")
	if rep.Outcome != host.Applied {
		t.Fatalf("alice's move: %s", rep.Reason)
	}
	check("a move", rep.Notices, want)
	check("show", r.send(id, "bob@y.org", key("bob@y.org")+"show").Notices, want)
	r.send(id, "alice@x.org", key("alice@x.org")+"set page off")
	check("show, the page off", r.send(id, "bob@y.org", key("bob@y.org")+"show").Notices, "")

	// A game started in French gives its page in French (?lang=fr) in the
	// welcomes' text.
	id, notices = r.create(host.CreateRequest{Host: "carol@x.org", Game: "raubritter", Players: []string{"carol@x.org", "dan@y.org"}, Lang: notation.French})
	fr := "https://games.example.org/g/" + r.game(id).PageToken + "?lang=fr\n"
	for _, n := range notices {
		if n.Kind == host.Welcome && !strings.Contains(n.Text, fr) {
			t.Errorf("the French welcome to %s does not give the French page %q:\n%s", n.To, fr, n.Text)
		}
	}
}

// TestObserversOffSaysPage: a host who allows no observers any more is
// told, when some observed, that they keep the page's address (their mails
// gave it), which still shows every move, and how to give it a new one;
// not when no one observed, nor when the page is off.
func TestObserversOffSaysPage(t *testing.T) {
	r := newRig(t, false)
	h, err := host.New(host.Config{Registry: r.h.Registry(), Store: r.st, Now: func() time.Time { return r.clock }, NewSeed: func() string { return "host-test" },
		NewKey: func() string {
			k := fmt.Sprintf("off-key%02d", len(r.keys))
			r.keys[host.HashKey(k)] = k
			return k
		},
		PageURL: func(token string) string { return "https://games.example.org/g/" + token }})
	if err != nil {
		t.Fatal(err)
	}
	r.h = h
	for _, tt := range []struct {
		lang      string // the host's mail: English or French words
		observe   bool
		pageOff   bool
		want, not string
	}{
		{"en", true, false, "set page new", ""},
		{"fr", true, false, "réglage page nouvelle", "set page"},
		{"en", false, false, "", "set page"},
		{"en", true, true, "", "set page"},
	} {
		id, _ := r.create(host.CreateRequest{Host: "alice@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
		key := "key " + r.game(id).Players[0].Secret + "\n"
		if tt.observe {
			if rep := invited(r, id, "alice@x.org", key+"observe dave@z.org", "dave@z.org"); rep.Outcome != host.Answered {
				t.Fatalf("observe dave: %s", rep.Reason)
			}
		}
		if tt.pageOff {
			r.send(id, "alice@x.org", key+"set page off")
		}
		cmd := "set observers off"
		if tt.lang == "fr" {
			key, cmd = "clé "+r.game(id).Players[0].Secret+"\n", "réglage observateurs non"
		}
		rep := r.send(id, "alice@x.org", key+cmd)
		var text string
		for _, n := range rep.Notices {
			if n.To == "alice@x.org" && n.Topic == "settings" {
				text = n.Text
			}
		}
		if text == "" {
			t.Fatalf("%+v: the host has no answer: %+v", tt, rep)
		}
		if tt.want != "" && !strings.Contains(text, tt.want) {
			t.Errorf("%+v: the host's answer does not say %q:\n%s", tt, tt.want, text)
		}
		if tt.not != "" && strings.Contains(text, tt.not) {
			t.Errorf("%+v: the host's answer says %q:\n%s", tt, tt.not, text)
		}
	}
}
