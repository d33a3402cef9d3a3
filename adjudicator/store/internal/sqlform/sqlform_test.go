package sqlform

import (
	"bytes"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
)

// TestQueuedMail holds the outbox columns both stores write for a queued
// mail: the recipient in lower case, a message never NULL, a draft NULL
// for a message, the answer kind of host.Mail.Answer.
func TestQueuedMail(t *testing.T) {
	for _, c := range []struct {
		name string
		m    host.Mail
		want Queued
	}{
		{"draft", host.Mail{Recipient: "Alice@Example.ORG", Draft: []byte("{}")},
			Queued{Recipient: "alice@example.org", Raw: []byte{}, Draft: []byte("{}"), Reply: int(host.NoAnswer)}},
		{"message", host.Mail{Recipient: "bob@x.test", Raw: []byte("raw"), Draft: []byte{}, Reply: true},
			Queued{Recipient: "bob@x.test", Raw: []byte("raw"), Reply: int(host.KeyedAnswer)}},
		{"auth notice", host.Mail{Recipient: "c@x.test", Raw: []byte("raw"), AuthNotice: true, Reply: true},
			Queued{Recipient: "c@x.test", Raw: []byte("raw"), Reply: int(host.AuthAnswer)}},
		{"kind", host.Mail{Recipient: "d@x.test", Draft: []byte("{}"), Kind: host.UnkeyedAnswer},
			Queued{Recipient: "d@x.test", Raw: []byte{}, Draft: []byte("{}"), Reply: int(host.UnkeyedAnswer)}},
	} {
		got := QueuedMail(c.m)
		if got.Recipient != c.want.Recipient || got.Reply != c.want.Reply ||
			got.Raw == nil || !bytes.Equal(got.Raw, c.want.Raw) ||
			(got.Draft == nil) != (c.want.Draft == nil) || !bytes.Equal(got.Draft, c.want.Draft) {
			t.Errorf("%s: QueuedMail = %+v, want %+v", c.name, got, c.want)
		}
	}
}
