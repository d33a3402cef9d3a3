package mail

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// repeated reports whether msg, recognised as a duplicate, may be a mail
// its sender meant to send again: one with neither Message-ID nor Date,
// whose identity is the hash of its fields and text (originID), which a
// second mail with the same subject and text has too.
func repeated(msg *Message) bool {
	return strings.HasPrefix(msg.MessageID, "sha256:") && msg.Date.IsZero()
}

// repeatNotice tells the sender of msg, a duplicate that repeated says may
// be meant, that herald took it for a copy of an earlier mail and how to
// send it again on purpose (issue 25, item 17). The notice is recorded
// under an identity of its own, so that a third copy gets none.
func (s *Service) repeatNotice(ctx context.Context, b *host.Batch, msg *Message, hash string, now time.Time) error {
	if msg.Auto != AutoNone || msg.From == "" || msg.From == "unknown" || msg.From == s.cfg.Address {
		return nil
	}
	in := host.Intake{MessageID: msg.MessageID + ".again", BodyHash: hash, Sender: msg.From, Received: now}
	err := b.Do(ctx, in, func(ses *host.Session) error {
		ses.Tx().SetOutcome(string(Duplicate), 0)
		subject := "(no subject)"
		if msg.Subject != "" {
			subject = "\"" + host.VisibleText(msg.Subject, 60) + "\""
		}
		body := "herald received a mail from you with the same subject, " + subject + ",\n" +
			"and the same text as one it had already received. Your mail carries\n" +
			"neither a Message-ID nor a Date to tell the two apart, so herald took it\n" +
			"for a second copy of the first, and did nothing with it.\n\n" +
			"If you meant to send it again, change its subject (add \"again\", say)\n" +
			"and send it once more.\n"
		return s.reply(ctx, ses.Tx(), outMail{To: msg.From, Subject: "[herald] your mail was taken for a copy", Body: body}, 0, now, host.UnkeyedAnswer)
	})
	if errors.Is(err, host.ErrDuplicate) {
		return nil
	}
	return err
}
