package mail

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Keys and tokens as herald's French mails give them.
var (
	keyLineFR     = regexp.MustCompile(`Votre clé est (\S+)`)
	hostKeyLineFR = regexp.MustCompile(`Votre clé d'hôte est :\s+(\S+)`)
)

// TestGoldenMailsFR renders the mails of French players and hosts, from
// fixed games as TestGoldenMails does, and compares their subject and
// text with testdata/golden/fr/KIND.txt (-update rewrites them): a game
// started by a French "nouvelle" line (welcome, confirmation), alice
// choosing French (langue fr) and bob, who writes English, not; each
// command's answer in French, the news a French player gets of an English
// player's moves, sealed steps, timing, reminders, take-backs, a seat
// handed over, observers, an unauthenticated mail and a resignation; the
// host's notices of a bounce and of a forged mail.
// TestGoldenMails pins the same mails in English, unchanged.
func TestGoldenMailsFR(t *testing.T) {
	golden := map[string]string{}
	keep := func(kind string, mails []string) {
		t.Helper()
		if len(mails) == 0 {
			t.Fatalf("%s: no mail", kind)
		}
		raw := mails[len(mails)-1]
		subject, mime, _ := strings.Cut(raw, "\n")
		msg, err := Extract(strings.NewReader(mime), &ExtractOptions{MaxAttachment: 1 << 20})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		var b strings.Builder
		b.WriteString("Subject: " + subject + "\n")
		for _, a := range msg.Attachments {
			b.WriteString("Attachment: " + a.Name + "\n")
		}
		b.WriteString("\n" + msg.Body)
		golden[kind] = b.String()
	}
	const alice, bob, carol, hostAddr = "alice@herald.test", "bob@herald.test", "carol@herald.test", "host@herald.test"
	f := newFixture(t)
	f.handle(f.mail(hostAddr, "nouvelle partie", "nouvelle raubritter joueurs alice@herald.test bob@herald.test délai 2j politique forfeit"), Created)
	got := f.sent()
	keep("welcome", got[alice])
	keep("host-confirmation", got[hostAddr])
	text := func(raw string) string { return unwrap(strings.ReplaceAll(raw, "\r\n", "\n")) }
	a := "clé " + keyLineFR.FindStringSubmatch(text(got[alice][0]))[1] + "\n"
	b := "key " + keyLineFR.FindStringSubmatch(text(got[bob][0]))[1] + "\n"
	hk := "clé " + hostKeyLineFR.FindStringSubmatch(text(got[hostAddr][0]))[1] + "\n"

	f.handle(f.mail(alice, "Re: [herald G1]", a+"langue fr"), Answered)
	keep("lang", f.sent()[alice])
	// alice writes English steps: she chose French, her mails are French.
	f.handle(f.mail(alice, "Re: [herald G1]", a+"keep plain village"), Applied)
	keep("applied-sealed", f.sent()[alice])
	// bob, welcomed in French as the game was started in French, chooses
	// English.
	f.handle(f.mail(bob, "Re: [herald G1]", b+"lang en"), Answered)
	f.sent()
	f.handle(f.mail(bob, "Re: [herald G1]", b+"keep forest village"), Applied)
	got = f.sent()
	keep("news-revealed", got[alice])
	keep("news-english", got[bob])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"avis tour"), Answered)
	keep("notify", f.sent()[alice])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"avis tout\nvacances 1j"), Answered)
	got = f.sent()
	keep("notify-vacation", got[alice])
	keep("vacation-news-english", got[bob])
	f.handle(f.mail(bob, "Re: [herald G1]", b+"vacation 1d"), Answered)
	keep("vacation-news", f.sent()[alice])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"vacances fin"), Answered)
	keep("vacation-back", f.sent()[alice])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"reprendre"), Answered)
	got = f.sent()
	keep("undo-asked", got[alice])
	keep("undo-asked-english", got[bob])
	f.handle(f.mail(bob, "Re: [herald G1]", b+"undo refuse"), Answered)
	keep("undo-refused", f.sent()[alice])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"reprendre accepte"), Rejected)
	keep("undo-none", f.sent()[alice])
	f.handle(f.mail(hostAddr, "Re: [herald G1]", hk+"réglage grace 12h"), Answered)
	got = f.sent()
	keep("settings-host", got[hostAddr])
	keep("settings", got[alice])
	f.handle(f.mail(hostAddr, "Re: [herald G1]", hk+"réglage vitesse 2"), Rejected)
	keep("settings-refused", f.sent()[hostAddr])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"historique"), Answered)
	keep("history", f.sent()[alice])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"annule"), Answered)
	keep("abandon-not-host", f.sent()[alice])
	f.handle(f.mail(alice, "Re: [herald G1]", "clé 0000\nmontre"), Rejected)
	keep("not-authenticated", f.sent()[alice])
	f.handle(f.mail(carol, "bonjour", "montre"), Rejected)
	keep("which-game", f.sent()[carol])
	f.handle(f.mail(carol, "observer", "observer G1"), Answered)
	confirm := f.sent()[carol]
	keep("observe-confirm", confirm)
	token := regexp.MustCompile(`(?m)^  observer G1 (\S+)\r?$`).FindStringSubmatch(text(confirm[0]))
	if token == nil {
		t.Fatalf("no token in the confirmation:\n%s", confirm[0])
	}
	f.handle(f.mail(carol, "Re: [herald G1]", "observer G1 "+token[1]), Answered)
	keep("observe", f.sent()[carol])
	f.clock = f.clock.Add(36 * time.Hour)
	if _, err := f.svc.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	got = f.sent()
	keep("reminder", got[alice])
	f.clock = f.clock.Add(12 * time.Hour)
	if _, err := f.svc.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
	keep("late", f.sent()[alice])
	// The host started the game in French: the notices of a bounce and of
	// a forged mail are French.
	f.handle(readBounce(t, "postfix.eml"), Ignored)
	keep("bounce-host", f.sent()[hostAddr])
	f.svc.cfg.TrustAuthservIDs = []string{"mx.herald.test"}
	f.handle(f.mail(bob, "Re: [herald G1]", b+"show", "Authentication-Results: mx.herald.test; dmarc=fail (p=reject) header.from=herald.test"), Rejected)
	keep("forged-host", f.sent()[hostAddr])
	f.svc.cfg.TrustAuthservIDs = nil
	f.handle(f.mail(hostAddr, "Re: [herald G1]", hk+"remplace bob par dan@herald.test"), Answered)
	got = f.sent()
	keep("replaced-welcome", got["dan@herald.test"])
	keep("replaced-news", got[alice])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"keep plain village\nabandonne"), Rejected)
	keep("resign-beside-steps", f.sent()[alice])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"abandonne"), Ended)
	got = f.sent()
	keep("resigned", got[alice])
	keep("resigned-observer", got[carol])
	f.handle(f.mail(alice, "Re: [herald G1]", a+"montre"), Rejected)
	keep("game-over", f.sent()[alice])
	f.handle(f.mail(hostAddr, "nouvelle", "nouvelle échecs joueurs alice@herald.test bob@herald.test"), Rejected)
	keep("new-refused", f.sent()[hostAddr])

	for kind, text := range golden {
		path := filepath.Join("testdata", "golden", "fr", kind+".txt")
		checkGolden(t, path, text)
	}
}

// TestReplyRateLimitFR: the notice that herald pauses its answers is in
// the language of the answer it holds back: a French player's "montre"
// past the limit gets it in French, and an English player's in English.
func TestReplyRateLimitFR(t *testing.T) {
	f := newFixture(t)
	f.svc.cfg.RepliesPerHour = 1
	f.start()
	f.sent()
	text := func(raw string) string { return unwrap(strings.ReplaceAll(raw, "\r\n", "\n")) }
	for _, tt := range []struct{ who, body, want, bad string }{
		{"alice@herald.test", "clé " + f.keys["alice@herald.test"] + "\nmontre", "herald a répondu à vos courriers 1 fois dans la dernière heure", "herald has answered"},
		{"bob@herald.test", "key " + f.keys["bob@herald.test"] + "\nshow", "herald has answered your mails 1 times in the last hour", "herald a répondu"},
	} {
		f.handle(f.mail(tt.who, "Re: [herald G1]", tt.body), Answered)
		f.sent()
		f.handle(f.mail(tt.who, "Re: [herald G1]", tt.body), Answered)
		got := f.sent()[tt.who]
		if len(got) != 1 || !strings.Contains(text(got[0]), tt.want) || strings.Contains(text(got[0]), tt.bad) {
			t.Errorf("%s's pause notice:\n%v", tt.who, got)
		}
	}
}
