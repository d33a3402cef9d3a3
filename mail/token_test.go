package mail

import (
	"regexp"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/raubritter"
)

var replyToLine = regexp.MustCompile(`(?m)^Reply-To: "herald" <(herald\+g(\d+)\.(\w+)@herald\.test)>`)

// TestReplyTokens plays by replying to the Reply-To address of herald's
// mails, with no key line (issue 19): the token in the address and the
// seat's From authenticate. Another seat's token, a token with another
// From, or a token of another game do not; the key line still works.
func TestReplyTokens(t *testing.T) {
	f := newFixture(t)
	f.handle(f.mail("host@herald.test", "new game", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	addr := map[string]string{}
	for _, who := range []string{"alice@herald.test", "bob@herald.test"} {
		m := replyToLine.FindStringSubmatch(got[who][0])
		if m == nil {
			t.Fatalf("%s's welcome has no Reply-To with a token:\n%s", who, got[who][0])
		}
		addr[who] = m[1]
		if strings.Contains(got["host@herald.test"][0], m[3]) {
			t.Errorf("the host's confirmation holds %s's token", who)
		}
	}
	if addr["alice@herald.test"] == addr["bob@herald.test"] {
		t.Fatal("alice and bob have the same reply address")
	}
	// Alice replies to her Reply-To address with no key and no game line.
	f.handle(f.mail("alice@herald.test", "Re: welcome", "keep plain village", "Cc: "+addr["alice@herald.test"]), Applied)
	f.sent()
	// Bob's token from alice's address, alice's token from bob's: refused.
	f.handle(f.mail("alice@herald.test", "Re: x", "show", "Delivered-To: "+addr["bob@herald.test"]), Rejected)
	f.handle(f.mail("bob@herald.test", "Re: x", "keep forest village", "Delivered-To: "+addr["alice@herald.test"]), Rejected)
	// A token of a game that does not exist, or tampered with.
	f.handle(f.mail("bob@herald.test", "Re: x", "keep forest village", "Delivered-To: herald+g9."+strings.Repeat("0", 24)+"@herald.test"), Rejected)
	tampered := strings.Replace(addr["bob@herald.test"], ".", ".0", 1)
	f.handle(f.mail("bob@herald.test", "Re: x", "keep forest village", "Delivered-To: "+tampered), Rejected)
	f.sent()
	// Bob's own token from bob's address.
	f.handle(f.mail("bob@herald.test", "Re: [herald G1] your turn", "keep forest village", "Delivered-To: "+addr["bob@herald.test"]), Applied)
	if text := textOf(t, f.sent()["bob@herald.test"][0]); strings.Contains(text, "Note:") {
		t.Errorf("bob's answer has a note though his mail had no key line:\n%s", text)
	}
	// Alice's token with a wrong key line: her token proves her, and her
	// answer says, before anything else, that the key would not.
	f.handle(f.mail("alice@herald.test", "Re: [herald G1] your turn", "Hello,\nkey 5f0c93d2e1a4b7c8\nshow", "Delivered-To: "+addr["alice@herald.test"]), Answered)
	text := textOf(t, f.sent()["alice@herald.test"][0])
	const note = "Note: the key on line 2 is not your key for game G1. herald read\nyour mail because it answers one of herald's"
	if _, after, _ := strings.Cut(text, "\n\n"); !strings.HasPrefix(after, note) { // after the status line
		t.Errorf("alice's answer to a wrong key beside her token does not begin with the note %q:\n%s", note, text)
	}
	if regexp.MustCompile(`key-\d`).MatchString(text) { // the fixture's keys
		t.Errorf("the note gives alice's key away:\n%s", text)
	}
}

// TestMoveHintFollowsTokens: a mail that asks for a move says how to
// answer truly. With reply tokens, a reply to it needs no key line, and
// the key line is for a new mail; with reply tokens off (serve
// --reply-tokens off), every answer needs the key line, and the mail has
// no token address to reply to.
func TestMoveHintFollowsTokens(t *testing.T) {
	const (
		reply   = "To play, reply to this mail with your steps, one per line. In a new\nmail, put your key line first (key YOUR-KEY).\n"
		keyed   = "To play, reply with your key line (key YOUR-KEY) and your steps,\none per line.\n"
		replyFR = "Pour jouer, répondez à ce courrier avec vos étapes, une par ligne.\nDans un nouveau courrier, ajoutez votre ligne de clé (clé VOTRE-CLÉ).\n"
	)
	for _, tc := range []struct {
		name     string
		noTokens bool
		want     string
	}{
		{"tokens", false, reply},
		{"no tokens", true, keyed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureOf(t, adjudicator.NewRegistry(raubritter.Game), func(c *Config) { c.NoReplyTokens = tc.noTokens })
			f.handle(f.mail("host@herald.test", "new game", "new raubritter players alice@herald.test bob@herald.test"), Created)
			welcome := f.sent()["alice@herald.test"][0] // the subject, a newline, the mail
			if text := textOf(t, welcome); !strings.Contains(text, "IT IS YOUR TURN") || !strings.Contains(text, tc.want) {
				t.Errorf("alice's welcome asks for her move without %q:\n%s", tc.want, text)
			}
			if has := replyToLine.MatchString(welcome); has == tc.noTokens {
				t.Errorf("alice's welcome has a Reply-To with a token: %v", has)
			}
			if !tc.noTokens {
				token := "Cc: " + replyToLine.FindStringSubmatch(welcome)[1]
				f.handle(f.mail("alice@herald.test", "Re: welcome", "lang fr", token), Answered)
				f.sent()
				f.handle(f.mail("alice@herald.test", "Re: welcome", "montrer", token), Answered)
				fr := f.sent()["alice@herald.test"]
				if len(fr) == 0 {
					t.Fatal("alice's montrer got no answer")
				}
				if text := textOf(t, fr[len(fr)-1]); !strings.Contains(text, replyFR) {
					t.Errorf("alice's montrer does not say %q:\n%s", replyFR, text)
				}
			}
		})
	}
}

// textOf returns the text of a mail f.sent returned (its subject, a
// newline, the mail), its lines ended by \n.
func textOf(t *testing.T, sent string) string {
	t.Helper()
	return strings.ReplaceAll(plainText(t, []byte(sent[strings.IndexByte(sent, '\n')+1:])), "\r\n", "\n")
}
