package mail

import (
	"strings"
	"testing"
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
