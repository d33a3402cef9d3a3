package mail

import (
	"context"
	"strings"
	"testing"
	"time"
)

// testRealmailRefusedRecipient: a real Postfix refuses a player's address
// for good (an unknown user at herald.test: 550 5.1.1 at RCPT). herald
// sets that mail aside at once with the server's own reason, tells the
// game's host in words, and the other player's mail of the same game
// still goes (issue 31, item 3: a draft refused with a 5xx is set aside,
// the host is told).
func testRealmailRefusedRecipient(t *testing.T) {
	needRealmail(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := &featureRig{t: t, imap: realIMAP, smtp: realSMTP, herald: "herald@herald.test",
		password: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" },
		clock:    time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), seen: map[string]int{}}
	r.start(ctx, "herald-pw")
	r.send("dave@herald.test", "", "new", "new raubritter players nobody@herald.test alice@herald.test")
	r.await("alice@herald.test", "welcome")
	notice := r.await("dave@herald.test", "mail to nobody@herald.test refused")
	for _, want := range []string{"nobody@herald.test", "550", "herald failed"} {
		if !strings.Contains(notice, want) {
			t.Errorf("the host's notice lacks %q:\n%s", want, notice)
		}
	}
	list, err := r.svc.cfg.Store.SetAsideList(ctx)
	if err != nil || len(list) != 1 || list[0].Party != "nobody@herald.test" || !strings.Contains(list[0].Reason, "550") {
		t.Errorf("set aside: %+v, %v; want the welcome to nobody with Postfix's reason", list, err)
	}
}

// testRealmailFrench: a game started by a French "nouvelle" line through
// the real Postfix and Dovecot welcomes its players in French; a player
// who writes "langue fr" gets the board and its legend in French; a prose
// line with a terminal escape is listed as ignored with the escape written
// out; and the host's "replace bob by herald@…" is refused.
func testRealmailFrench(t *testing.T) {
	needRealmail(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := &featureRig{t: t, imap: realIMAP, smtp: realSMTP, herald: "herald@herald.test",
		password: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" },
		clock:    time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), seen: map[string]int{}}
	r.start(ctx, "herald-pw")
	const host, alice = "dave@herald.test", "alice@herald.test"
	text := func(raw string) string { return unwrap(strings.ReplaceAll(raw, "\r\n", "\n")) }
	r.send(host, "", "nouvelle partie", "nouvelle raubritter joueurs alice@herald.test bob@herald.test")
	welcome := text(r.await(alice, "bienvenue"))
	key := keyLineFR.FindStringSubmatch(welcome)
	hk := hostKeyLineFR.FindStringSubmatch(text(r.await(host, "commenc=C3=A9e?=")))
	if key == nil || hk == nil || !strings.Contains(welcome, "Bienvenue dans la partie G1 de Raubritter.") {
		t.Fatalf("the French welcome, the host's key %v:\n%s", hk, welcome)
	}
	r.send(alice, "", "Re: [herald G1]", "clé "+key[1]+"\nlangue fr")
	r.await(alice, "langue")
	r.send(alice, "", "Re: [herald G1]", "Salut \x1b[2J,\nclé "+key[1]+"\nmontre")
	got := text(r.await(alice, "montre"))
	for _, want := range []string{"Partie G1, coup 1 : C'EST VOTRE TOUR, alice.", "P plaine  F for", `1: Salut \x1b[2J,`} {
		if !strings.Contains(got, want) {
			t.Errorf("alice's show lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("alice's show sends back a raw escape:\n%q", got)
	}
	r.send(host, "", "Re: [herald G1]", "key "+hk[1]+"\nreplace bob by herald@herald.test")
	if got := text(r.await(host, "replace refused")); !strings.Contains(got, "herald@herald.test is herald's own address:") {
		t.Errorf("the host's replace by herald:\n%s", got)
	}
}
