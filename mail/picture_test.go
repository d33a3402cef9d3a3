package mail

import (
	"strings"
	"testing"
)

// TestMailsCarryThePicture checks that the mails that show the board carry
// its picture inline (issue 20), with the HTML pointing at it by
// Content-ID, and that the others do not.
func TestMailsCarryThePicture(t *testing.T) {
	f := newFixture(t)
	f.handle(f.mail("host@herald.test", "new game", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	for _, raw := range []string{got["alice@herald.test"][0], got["bob@herald.test"][0]} {
		if !strings.Contains(raw, "Content-Type: image/png") || !strings.Contains(raw, "Content-Id: <board@herald>") && !strings.Contains(raw, "Content-ID: <board@herald>") ||
			!strings.Contains(raw, "cid:board@herald") {
			t.Fatalf("a welcome mail has no picture of the board:\n%.2000s", raw)
		}
	}
	key := keyLine.FindStringSubmatch(got["alice@herald.test"][0])[1]
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+key+"\nhelp"), Answered)
	if raw := f.sent()["alice@herald.test"][0]; strings.Contains(raw, "image/png") {
		t.Error("the answer to help carries a picture")
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+key+"\nshow"), Answered)
	if raw := f.sent()["alice@herald.test"][0]; !strings.Contains(raw, "image/png") {
		t.Error("the answer to show has no picture")
	}
	msg, err := Extract(strings.NewReader(strings.SplitN(got["alice@herald.test"][0], "\n", 2)[1]), nil)
	if err != nil || !strings.Contains(msg.Body, "Welcome to game G1") || len(msg.Attachments) != 0 {
		t.Errorf("a mail with a picture does not read as its text: %v\n%s", err, msg.Body)
	}
}
