package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
)

func TestParseAddress(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"alice@example.org", "alice@example.org"},
		{"Alice.Smith@Example.ORG", "alice.smith@example.org"},
		{"herald+g12.tok@herald.local", "herald+g12.tok@herald.local"},
		{"o'brien!#$%&*/=?^_`{|}~-@x.org", "o'brien!#$%&*/=?^_`{|}~-@x.org"},
		{"root@localhost", "root@localhost"},
		{"u@[192.0.2.1]", "u@[192.0.2.1]"},
	} {
		got, err := host.ParseAddress(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseAddress(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, why string }{
		// Issue 25, item 2: each of these made a game whose mailbox could
		// not open, and stopped the inbox.
		{"a@b@c.local", "more than one @"},
		{"bob@", "nothing comes after the @"},
		{"bob@x.org,", `holds ','`},
		{"x@y@z", "more than one @"},
		{"", "empty"},
		{"bob", "no @"},
		{"@x.org", "nothing comes before"},
		{"a..b@x.org", "two dots"},
		{".a@x.org", "begins with a dot"},
		{"a@x.org.", "ends with a dot"},
		{"a b@x.org", `holds ' '`},
		{"<a@x.org>", `holds '<'`},
		{"Bob <b@x.org>", `holds ' '`},
		{"a@x.org\r\nBcc: c@x.org", "control character"},
		{`"a@x.org`, "no quoted part"},
		{`"a b"@x.org`, "no quoted part"},
		{"a@[1.2.3.4", "does not close"},
		{"0@[0]", "not an IPv4 address"},
		{"u@[IPv6:2001:DB8::1]", "not an IPv4 address"},
		{strings.Repeat("a", 65) + "@x.org", "64 characters"},
		{"a@" + strings.Repeat("b.", 130) + "org", "254 characters"},
		// Unicode lower-casing maps the Kelvin sign U+212A to "k": folded
		// so, "\u212Aate@x.org" would be kate@x.org, another player's
		// address. herald takes ASCII only, and folds ASCII only.
		{"\u212Aate@x.org", "ASCII only"},
		{"jos\u00e9@exemple.fr", "ASCII only"},
	} {
		got, err := host.ParseAddress(c.in)
		var ae *host.AddressError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "is not a mail address") {
			t.Errorf("ParseAddress(%q) = %q, %v; want an AddressError saying %q", c.in, got, err, c.why)
		}
	}
}

// FuzzParseAddress: an address ParseAddress takes is ASCII without
// capitals, and is taken again as it is; it never panics.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"alice@example.org", "a@b@c.local", `"q\"x"@y`, "\u212Aate@x.org", "u@[::1]", "bob@x.org,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := host.ParseAddress(s)
		if err != nil {
			return
		}
		if !strings.EqualFold(got, s) || got != strings.Map(func(r rune) rune {
			if 'A' <= r && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, s) {
			t.Fatalf("ParseAddress(%q) = %q: more than ASCII case changed", s, got)
		}
		for i := 0; i < len(got); i++ {
			if got[i] < 0x20 || got[i] > 0x7e {
				t.Fatalf("ParseAddress(%q) = %q holds byte %#x", s, got, got[i])
			}
		}
		again, err := host.ParseAddress(got)
		if err != nil || again != got {
			t.Fatalf("ParseAddress(%q) = %q, but that gives %q, %v", s, got, again, err)
		}
	})
}

// TestBadAddressCreatesNothing: a game with one address no mail server
// takes is refused, and nothing of it is written (issue 25, item 2); so is
// a replace by such an address, and an observer with one gets no answer.
func TestBadAddressCreatesNothing(t *testing.T) {
	r := newRig(t, false)
	for _, req := range []host.CreateRequest{
		{Host: "h@x.org", Game: "raubritter", Players: []string{"a@b@c.local", "zed@herald.local"}},
		{Host: "h@x.org", Game: "raubritter", Players: []string{"bob@", "zed@herald.local"}},
		{Host: "h@x.org", Game: "raubritter", Players: []string{"bob@x.org,", "zed@herald.local"}},
		{Host: "h@x@y", Game: "raubritter", Players: []string{"alice@x.org", "zed@herald.local"}},
		{Host: "h@x.org", Game: "raubritter", Players: []string{"\u212Aate@x.org", "kate@x.org"}},
	} {
		err := r.do(req.Host, func(s *host.Session) error {
			_, _, err := s.Create(context.Background(), req)
			return err
		})
		var refused *host.RefusedError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), "is not a mail address") {
			t.Errorf("Create(%v) = %v, want a refusal naming the address", req.Players, err)
		}
	}
	if games, err := r.st.Games(context.Background()); err != nil || len(games) != 0 {
		t.Fatalf("after refusals, %d games (%v), want none", len(games), err)
	}

	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	for _, bad := range []string{"x@y@z", "bob@", "dave@z.org,"} {
		rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nreplace bob by "+bad)
		if rep.Outcome != host.Rejected || len(rep.Notices) != 1 || !strings.Contains(rep.Notices[0].Text, "is not a mail address") {
			t.Errorf("replace bob by %s: %+v", bad, rep)
		}
	}
	if p := r.game(id).Players[1]; p.Address != "bob@y.org" {
		t.Errorf("after refused replacements bob's seat is %s's", p.Address)
	}
	err := r.do("x@y@z", func(s *host.Session) error {
		rep, err := s.Observe(context.Background(), id, "x@y@z", true)
		if err == nil && (rep.Outcome != host.Rejected || len(rep.Notices) != 0) {
			t.Errorf("observe by x@y@z: %+v, want a refusal with no answer", rep)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
