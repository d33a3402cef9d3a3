package mail

import (
	"strings"
	"testing"
	"time"
)

// TestKeyLines checks that the key lines players write are accepted
// (issue 15, item 9) and that a mail that fails authentication is told
// whether it had no key line or a wrong key, and nothing about the game.
func TestKeyLines(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.sent()
	a, b := f.keys["alice@herald.test"], f.keys["bob@herald.test"]
	for i, tt := range []struct {
		from, body string
		want       Outcome
		says       string // in the reply to the sender
	}{
		{"alice@herald.test", "Key: " + a + "\nkeep plain village", Applied, "Your move 1 was applied"},
		{"bob@herald.test", "KEY=" + strings.ToUpper(b) + "\nkeep forest village", Applied, "Your move 2 was applied"},
		{"alice@herald.test", "Hello\nclé : 0000\nplain castle f5", Rejected, "the key on line 2 is not your key"},
		{"alice@herald.test", "plain castle f5", Rejected, "it holds no key line"},
	} {
		// One notice an hour answers unauthenticated mail (item 3).
		f.clock = f.clock.Add(time.Hour)
		f.handle(f.mail(tt.from, "Re: [herald G1]", tt.body), tt.want)
		got := f.sent()[tt.from]
		if len(got) == 0 || !strings.Contains(got[0], tt.says) {
			t.Errorf("mail %d (%q): reply lacks %q:\n%s", i+1, tt.body, tt.says, strings.Join(got, "\n"))
			continue
		}
		if tt.want == Rejected {
			_, body, _ := strings.Cut(got[0], "\r\n\r\n")
			for _, detail := range []string{"+-----", "Scores", "hand", "Raubritter", "0000"} {
				if strings.Contains(body, detail) {
					t.Errorf("mail %d: an unauthenticated mail got a game detail (%q):\n%s", i+1, detail, body)
				}
			}
		}
	}
}

// TestForgedMailsDoNotSilence checks that mails failing authentication,
// however many, get one notice an hour between them and never use up the
// player's own replies: alice's genuine command is still answered (issue
// 15, item 3).
func TestForgedMailsDoNotSilence(t *testing.T) {
	f := newFixture(t)
	f.svc.cfg.RepliesPerHour = 3
	f.start()
	f.sent()
	for i := 0; i < 10; i++ {
		f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key 0000\nshow"), Rejected)
	}
	if got := f.sent()["alice@herald.test"]; len(got) != 1 || !strings.Contains(got[0], "not authenticated") {
		t.Fatalf("10 forged mails got %d answers, want 1 notice: %q", len(got), got)
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nshow"), Answered)
	if got := f.sent()["alice@herald.test"]; len(got) != 1 || !strings.Contains(got[0], "IT IS YOUR TURN") {
		t.Fatalf("alice's genuine show after forged mails: %q", got)
	}
	f.clock = f.clock.Add(time.Hour)
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key 0000\nshow"), Rejected)
	if got := f.sent()["alice@herald.test"]; len(got) != 1 {
		t.Fatalf("a forged mail an hour later got %d answers, want 1", len(got))
	}
}
