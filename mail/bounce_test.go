package mail

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readBounce(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "bounce", name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestParseBounce reads the delivery reports of Postfix, Gmail, Microsoft
// 365 and Exim as they write them: who failed, why, and the mail that
// bounced; a report of a delay is no failure.
func TestParseBounce(t *testing.T) {
	for _, tt := range []struct {
		file string
		want *Bounce
	}{
		{"postfix.eml", &Bounce{
			Failed:    []BouncedRecipient{{"alice@herald.test", "5.1.1", "550 5.1.1 <alice@herald.test>: Recipient address rejected: User unknown in virtual mailbox table"}},
			MessageID: "6b1f0e2a9c@herald.test", References: []string{"game-1@herald.test", "m1@test", "m1@test"},
			Recipients: []string{"alice@herald.test", "herald+g1.tok1@herald.test"}}},
		{"gmail.eml", &Bounce{
			Failed:    []BouncedRecipient{{"bob@herald.test", "5.1.1", "The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. For more information, go to https://support.google.com/mail/?p=NoSuchUser 4fb4d7f45d1cf-5cf8a6b5a1csi123456a12.2 - gsmtp"}},
			MessageID: "7c2e11ab@herald.test", References: []string{"game-1@herald.test", "m1@test"},
			Recipients: []string{"bob@herald.test", "herald+g1.tok2@herald.test"}}},
		{"microsoft.eml", &Bounce{
			Failed:     []BouncedRecipient{{"carol@herald.test", "5.1.10", "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient carol@herald.test not found by SMTP address lookup"}},
			MessageID:  "9d8e7f6a@herald.test",
			Recipients: []string{"carol@herald.test", "herald+g1.tok3@herald.test"}}},
		{"exim.eml", &Bounce{
			Failed:    []BouncedRecipient{{Address: "alice@herald.test"}},
			MessageID: "aa11bb22@herald.test", References: []string{"game-1@herald.test", "m5@test"},
			Recipients: []string{"alice@herald.test", "herald+g1.tok1@herald.test"}}},
		{"delayed.eml", nil},
	} {
		t.Run(tt.file, func(t *testing.T) {
			got := ParseBounce(readBounce(t, tt.file))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseBounce(%s) = %+v\nwant %+v", tt.file, got, tt.want)
			}
			if got != nil {
				if g := got.game("herald@herald.test"); g != 1 {
					t.Errorf("the game of %s = %d, want 1", tt.file, g)
				}
				if g := got.game("other@herald.test"); g != 0 && got.References == nil {
					t.Errorf("another herald's bounce is taken for game %d", g)
				}
			}
		})
	}
	if b := ParseBounce([]byte("From: alice@herald.test\r\nSubject: hi\r\n\r\nhello\r\n")); b != nil {
		t.Errorf("a plain mail is a bounce: %+v", b)
	}
}

// TestBounceMarksSeat: a bounce of a mail herald sent marks the seat
// undeliverable and tells the host once, in words, whose address fails
// and why; the bounce is never answered; herald games shows the seat; a
// mail from the player clears the mark.
func TestBounceMarksSeat(t *testing.T) {
	f := newFixture(t)
	f.start()
	ctx := context.Background()
	f.handle(readBounce(t, "postfix.eml"), Ignored)
	got := f.sent()
	if len(got) != 1 || len(got["host@herald.test"]) != 1 {
		t.Fatalf("after a bounce, mails = %v; want one notice to the host", keysOf(got))
	}
	_, raw, _ := strings.Cut(got["host@herald.test"][0], "\n")
	notice, err := Extract(strings.NewReader(raw), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mail to alice bounces", "alice (alice@herald.test)", "the address does not exist", "User unknown", "replace alice by", "clock goes on"} {
		if !strings.Contains(notice.Subject+"\n"+notice.Body, want) {
			t.Errorf("the host's notice lacks %q:\n%s\n%s", want, notice.Subject, notice.Body)
		}
	}
	g, err := f.st.Game(ctx, 1)
	if err != nil || g.Players[0].Undeliverable == "" || g.Players[1].Undeliverable != "" {
		t.Fatalf("after alice's bounce the players are %+v, %v", g.Players, err)
	}
	list, _ := f.st.Games(ctx)
	if len(list) != 1 || !reflect.DeepEqual(list[0].Undeliverable, []string{"alice@herald.test"}) {
		t.Errorf("Games = %+v, want alice undeliverable", list)
	}

	// The host is told once: another bounce for alice tells no one.
	f.handle(readBounce(t, "exim.eml"), Ignored)
	if got := f.sent(); len(got) != 0 {
		t.Errorf("a second bounce for alice: mails %v", keysOf(got))
	}
	// A bounce for an address that plays no game of its, a delay: nothing.
	f.handle(readBounce(t, "microsoft.eml"), Ignored)
	f.handle(readBounce(t, "delayed.eml"), Ignored)
	if got := f.sent(); len(got) != 0 {
		t.Errorf("a bounce of no player's, or a delay: mails %v", keysOf(got))
	}
	// A mail from alice clears the mark.
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nkeep plain village"), Applied)
	if g, _ := f.st.Game(ctx, 1); g.Players[0].Undeliverable != "" {
		t.Errorf("alice's mark stays after her move: %q", g.Players[0].Undeliverable)
	}
	f.sent()
	// A forged mail in alice's name does not clear it.
	f.handle([]byte(strings.Replace(string(readBounce(t, "exim.eml")), "E1tGzxE-0004Xq-2s@", "again@", 1)), Ignored)
	if got := f.sent(); len(got["host@herald.test"]) != 1 {
		t.Errorf("a bounce after the mark was cleared: mails %v, want the host told again", keysOf(got))
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key wrong\nshow"), Rejected)
	if g, _ := f.st.Game(ctx, 1); g.Players[0].Undeliverable == "" {
		t.Errorf("a mail with a wrong key cleared alice's mark")
	}
}

// FuzzParseBounce: no panic, and every failed address it reports is one
// address in lower case.
func FuzzParseBounce(f *testing.F) {
	files, _ := filepath.Glob("testdata/bounce/*.eml")
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		b := ParseBounce(raw)
		if b == nil {
			return
		}
		if len(b.Failed) == 0 {
			t.Fatalf("ParseBounce = %+v with no failed recipient", b)
		}
		for _, r := range b.Failed {
			if r.Address != strings.ToLower(r.Address) || !strings.Contains(r.Address, "@") || strings.ContainsAny(r.Address, " \t\r\n") {
				t.Errorf("failed address %q", r.Address)
			}
			_ = r.why()
		}
		_ = b.game("herald@herald.test")
	})
}

// TestForgedBounceMarksNothing: a delivery report anyone may write (a
// stranger who knows a game's number and a player's address) marks no
// seat and tells the host nothing unless the mail it returns carries that
// seat's reply-token address, which only herald's own mails to the seat
// do; the genuine report then marks it.
func TestForgedBounceMarksNothing(t *testing.T) {
	f := newFixture(t)
	f.start()
	ctx := context.Background()
	genuine := string(readBounce(t, "postfix.eml"))
	if !strings.Contains(genuine, "herald+g1.tok1@herald.test") {
		t.Fatal("postfix.eml no longer returns alice's token address")
	}
	for _, forged := range []string{
		strings.ReplaceAll(genuine, "herald+g1.tok1@herald.test", "herald+g1.tok2@herald.test"), // another seat's token
		strings.ReplaceAll(genuine, "herald+g1.tok1@herald.test", "herald+g1.guess@herald.test"),
		strings.ReplaceAll(genuine, "Reply-To: herald+g1.tok1@herald.test\r\n", ""), // the game named by its References alone
	} {
		if forged == genuine {
			t.Fatal("the forgery changed nothing of postfix.eml")
		}
		forged = strings.ReplaceAll(forged, "20261127091203.4ZgH1x3Jq1z9sWF", fmt.Sprint("forged", len(forged)))
		f.handle([]byte(forged), Ignored)
		if got := f.sent(); len(got) != 0 {
			t.Errorf("a forged bounce told %v", keysOf(got))
		}
		if g, err := f.st.Game(ctx, 1); err != nil || g.Players[0].Undeliverable != "" {
			t.Fatalf("a forged bounce marked alice: %+v, %v", g.Players, err)
		}
	}
	f.handle([]byte(genuine), Ignored)
	if got := f.sent(); len(got["host@herald.test"]) != 1 {
		t.Errorf("the genuine bounce: mails %v, want the host told", keysOf(got))
	}
}
