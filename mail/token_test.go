package mail

import (
	"regexp"
	"strings"
	"testing"
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
}
