package mail

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
)

// playRig starts herald on the embedded servers with accounts for host,
// alice, bob, carol and dan @herald.local, on the games of reg
// (Raubritter's alone when nil) and a fake clock.
func playRig(t *testing.T, reg *adjudicator.Registry, replies int) *queued {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	srv, err := embeddedLocal(t.TempDir(), "127.0.0.1:0", "127.0.0.1:0", LocalAccount{Address: "herald@herald.local", Password: "pw"}, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, a := range []string{"host", "alice", "bob", "carol", "dan"} {
		if err := srv.AddAccount(a+"@herald.local", "pw"); err != nil {
			t.Fatal(err)
		}
	}
	r := &featureRig{t: t, imap: srv.IMAPAddr(), smtp: srv.SMTPAddr(), herald: "herald@herald.local", registry: reg, replies: replies,
		password: func(string) string { return "pw" }, clock: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), seen: map[string]int{}}
	r.start(ctx, "pw")
	return &queued{featureRig: r, pending: map[string][]string{}}
}

// queued is a featureRig whose await keeps the mails it read past the
// one it returns, for the next await: mails that arrive together are
// each found.
type queued struct {
	*featureRig
	pending map[string][]string
}

// await returns the first mail to addr not returned yet whose subject
// ends with topic, waiting for it.
func (q *queued) await(addr, topic string) string {
	q.t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		for i, raw := range q.pending[addr] {
			if m := subjectLine.FindStringSubmatch(raw); m != nil && strings.HasSuffix(strings.TrimSpace(m[1]), topic) {
				q.pending[addr] = append(q.pending[addr][:i:i], q.pending[addr][i+1:]...)
				return raw
			}
		}
		if time.Now().After(deadline) {
			q.t.Fatalf("%s got no mail about %q in 45 s", addr, topic)
		}
		q.pending[addr] = append(q.pending[addr], q.fetchNew(addr)...)
		time.Sleep(100 * time.Millisecond)
	}
}

// unwrap undoes quoted-printable soft breaks, so that a test reads the
// lines as written.
func unwrap(raw string) string { return strings.ReplaceAll(raw, "=\n", "") }

// TestMailCommandsBesideSteps: a mail with a command line that changes
// something (notify, set, vacation, ...) above the steps has each carried
// out, in order, and its answer says what became of each (issue 26, items
// 1 and 7): carol's `notify all` above her move once dropped the move in
// silence, and only the first of three `set` lines was applied.
func TestMailCommandsBesideSteps(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, bob, host = "alice@herald.local", "bob@herald.local", "host@herald.local"
	r.send(host, "", "new", "new raubritter players "+alice+" "+bob+" deadline 3d")
	aw := unwrap(r.await(alice, "welcome"))
	r.await(bob, "welcome")
	hw := r.await(host, "game started")
	key := featureKey.FindStringSubmatch(aw)
	step := featureLegal.FindStringSubmatch(aw)
	hostKey := hostKeyLine.FindStringSubmatch(hw)
	if key == nil || step == nil || hostKey == nil {
		t.Fatalf("no key, legal step or host key:\n%s\n%s", aw, hw)
	}

	r.send(alice, "", "Re: [herald G1] welcome", "key "+key[1]+"\nnotify turn\n"+step[1])
	got := unwrap(r.await(alice, "move applied"))
	for _, want := range []string{"[line 2: notify turn]", "only when you must act", "Your move 1 was applied:\n  " + step[1]} {
		if !strings.Contains(got, want) {
			t.Errorf("alice's answer lacks %q:\n%s", want, got)
		}
	}
	if n := unwrap(r.await(bob, "")); !strings.Contains(n, "alice played move 1:") {
		t.Errorf("bob was not told of alice's move:\n%s", n)
	}

	r.send(host, "", "Re: [herald G1]", "key "+hostKey[1]+"\nset grace 12h\nset policy forfeit\nset reminder 50%\nset colour blue")
	got = unwrap(r.await(host, "set refused"))
	for _, want := range []string{"[line 2: set grace 12h]", "[line 3: set policy forfeit]", "[line 4: set reminder 50%]",
		"[line 5: set colour blue]", "There is no setting \"colour\"", "grace 12h", "forfeit", "at 50%"} {
		if !strings.Contains(got, want) {
			t.Errorf("the host's answer lacks %q:\n%s", want, got)
		}
	}
}

// TestMailRateLimitSaysSo: past its answers an hour, herald tells the
// player once that it stops answering and until when, still plays and
// announces their moves, and answers again after the hour (issue 26, item
// 2); mails that carry no key, such as forged `observe G1` in a player's
// name, are counted apart and never silence the player's keyed mails
// (issue 25, item 13); the one-an-hour notice for a mail that failed
// authentication says that more such mails get no answer, and until when.
func TestMailRateLimitSaysSo(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 3)
	const alice, dan, host = "alice@herald.local", "dan@herald.local", "host@herald.local"
	r.send(host, "", "new", "new raubritter players "+alice+" "+dan)
	r.await(alice, "welcome")
	dw := unwrap(r.await(dan, "welcome"))
	key := featureKey.FindStringSubmatch(dw)
	step := featureLegal.FindStringSubmatch(dw)
	if key == nil || step == nil {
		t.Fatalf("no key or legal step in dan's welcome:\n%s", dw)
	}

	// Forged: four mails in dan's name with no key. Three answers, then
	// the notice that answers to such mails pause.
	for range 4 {
		r.send(dan, "", "watch", "observe G1")
	}
	for range 3 {
		r.await(dan, "observe refused")
	}
	if p := unwrap(r.await(dan, "answers paused")); !strings.Contains(p, "carry no key") || !strings.Contains(p, "answer them again from 2026-11-24 10:00 UTC") {
		t.Errorf("the pause notice for unkeyed mails:\n%s", p)
	}
	// dan's own keyed mails are answered all the same: three, then one
	// notice, then nothing; his move is played and he is told.
	for range 5 {
		r.send(dan, "", "Re: [herald G1]", "key "+key[1]+"\nshow")
	}
	for range 3 {
		r.await(dan, "show")
	}
	p := unwrap(r.await(dan, "answers paused"))
	for _, want := range []string{"herald has answered your mails 3 times in the last hour", "again from 2026-11-24 10:00 UTC", "Moves are still played"} {
		if !strings.Contains(p, want) {
			t.Errorf("the pause notice lacks %q:\n%s", want, p)
		}
	}
	r.send(dan, "", "Re: [herald G1]", "key "+key[1]+"\n"+step[1])
	if got := unwrap(r.await(dan, "")); !strings.Contains(got, "Your move 1 was applied") {
		t.Errorf("dan's move, past the limit, is not answered with its news (a second pause notice?):\n%s", got)
	}
	r.advance(61 * time.Minute)
	r.send(dan, "", "Re: [herald G1]", "key "+key[1]+"\nhistory")
	r.await(dan, "history")

	// A wrong key: one notice, which says until when no other comes.
	r.send(alice, "", "Re: [herald G1]", "key nope\nshow")
	if a := unwrap(r.await(alice, "mail not authenticated")); !strings.Contains(a, "until 2026-11-24 11:01 UTC,\nmails from your address that fail the same way get no answer") {
		t.Errorf("the authentication notice does not say the next ones go unanswered:\n%s", a)
	}
}

// TestMailQuotedInOtherLanguages: a reply that quotes herald's mail under
// the header of a German or Spanish Outlook, or under an "On ... wrote:"
// or "Le ... a écrit :" line with no '>' marks, is read for the lines
// above the quote alone; a first line "game on!" is prose, not a game
// line; and herald's own lines copied back ("Game G1, move 1: IT IS YOUR
// TURN") are never commands (issue 26, item 5; issue 32, item 3).
func TestMailQuotedInOtherLanguages(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, bob, host = "alice@herald.local", "bob@herald.local", "host@herald.local"
	r.send(host, "", "new", "new raubritter players "+alice+" "+bob)
	aw := unwrap(r.await(alice, "welcome"))
	r.await(bob, "welcome")
	key := featureKey.FindStringSubmatch(aw)
	if key == nil {
		t.Fatalf("no key in alice's welcome:\n%s", aw)
	}
	quoted := "Game G1, move 1: IT IS YOUR TURN, alice.\nScores: alice 0, bob 0\n\nYour legal steps (2), any one per line:\n  keep plain\n  keep forest\n"
	for name, body := range map[string]string{
		"german outlook":     "show\n\nVon: herald <herald@herald.local>\nGesendet: Dienstag, 24. November 2026 09:00\nAn: alice@herald.local\nBetreff: [herald G1] welcome\n\n" + quoted,
		"spanish outlook":    "show\n\nDe: herald <herald@herald.local>\nEnviado: martes, 24 de noviembre de 2026 9:00\nPara: alice@herald.local\nAsunto: [herald G1] welcome\n\n" + quoted,
		"english unprefixed": "show\n\nOn Tue, 24 Nov 2026 at 09:00, herald <herald@herald.local> wrote:\n\n" + quoted,
		"french unprefixed":  "show\n\nLe mar. 24 nov. 2026 à 09:00, herald <herald@herald.local> a écrit :\n\n" + quoted,
		"game on":            "game on!\nshow",
		"echo unquoted":      "show\n\n" + strings.SplitN(quoted, "\n", 2)[0],
	} {
		r.send(alice, "", "Re: [herald G1] "+name, "key "+key[1]+"\n"+body)
		got := unwrap(r.await(alice, "show"))
		// "game on!" is prose, and the answer lists it as ignored.
		if !strings.Contains(got, "In-Reply-To:") || strings.Contains(got, "not a game id") || strings.Contains(got, "ignored") != (name == "game on") {
			t.Errorf("%s: the answer to show:\n%s", name, got)
		}
	}
}
