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
