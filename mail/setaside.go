package mail

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// Poison mail: a mail whose handling fails, not because the store is down
// but because of the mail itself, would stay first in the inbox and be
// tried again and again, every later mail waiting behind it; an outgoing
// mail that cannot be rendered or sent would be retried forever. Each
// failure is noted in the store (host.Failures); a mail that fails the
// same way maxFailures times in a row is set aside: moved to the intake's
// Failed folder, its sender told once (where that is safe), and the intake
// goes on with the next mail. `herald failed` lists what was set aside.

// maxFailures is how many times in a row a mail may fail the same way
// before it is set aside.
const maxFailures = 3

// SetAside is the outcome recorded for a mail set aside.
const SetAside Outcome = "set aside"

// errMailFailed ends a session of the intake whose mail failed for its own
// sake, noted in the store: the intake tries again after Intake.pause,
// without backing off, and the mail's third failure sets it aside.
var errMailFailed = errors.New("mail: a mail failed")

// failedPause is how long the intake waits before it tries a failed mail
// again (Intake.pause, shorter in tests).
const failedPause = time.Second

// renderBudget is how long the outbox lets one mail take to render
// (Outbox.budget, shorter in tests): longer, and it is set aside, so that
// it never holds back another.
const renderBudget = time.Minute

// noteFailure notes that mail k of f failed with cause, and sets it aside
// when it failed so maxFailures times in a row. It reports whether the
// failure was noted: when the store cannot even note it, the store is at
// fault, not the mail, and the mail stays in the inbox for the next round.
func (in *Intake) noteFailure(ctx context.Context, f fetched, k int, cause error) (aside, noted bool) {
	r := f.reads[k]
	fl := host.Failure{Kind: host.FailedMail, Ref: "sha256:" + r.hash, Reason: cause.Error()}
	if r.msg != nil {
		if r.msg.MessageID != "" {
			fl.Ref = r.msg.MessageID
		}
		fl.Party, fl.Subject = r.msg.From, r.msg.Subject
	}
	now := in.svc.cfg.Now().UTC()
	n, err := in.svc.cfg.Store.NoteFailure(ctx, fl, now)
	if err != nil {
		in.log.Warn("cannot note the failure of a mail; it stays in the inbox", "message_id", fl.Ref, "err", err)
		return false, false
	}
	if n < maxFailures {
		in.log.Warn("mail failed; trying again", "message_id", fl.Ref, "from", fl.Party, "attempt", n, "err", cause)
		return false, true
	}
	if err := in.svc.setAside(ctx, fl, r, now); err != nil {
		in.log.Error("cannot set a failing mail aside", "message_id", fl.Ref, "err", err)
		return false, true
	}
	in.log.Error("mail set aside: it failed "+fmt.Sprint(n)+" times the same way", "message_id", fl.Ref, "from", fl.Party,
		"folder", in.cfg.Failed, "err", cause)
	return true, true
}

// setAside records mail r, which failed as fl says, as set aside: its
// identity is recorded as processed (outcome SetAside), so that the same
// mail put back in the inbox is a duplicate; its sender, when it is safe
// to answer them, gets a short answer; and fl is marked set aside.
func (s *Service) setAside(ctx context.Context, fl host.Failure, r readMail, now time.Time) error {
	msg := r.msg
	safe := msg != nil && msg.From != "" && msg.Auto == AutoNone && msg.From != s.cfg.Address
	err := s.host.Do(ctx, host.Intake{MessageID: fl.Ref, BodyHash: r.hash, Sender: fl.Party, Received: now}, func(ses *host.Session) error {
		ses.Tx().SetOutcome(string(SetAside), 0)
		if !safe {
			return nil
		}
		body := "herald could not handle your mail: it failed three times the same\n" +
			"way, so it was set aside for herald's operator, who can see why.\n" +
			"Nothing in it was done.\n\n" +
			"If it was a move or a command, check it and send it again, or ask the\n" +
			"host of your game.\n"
		if msg.Subject != "" {
			body = "Your mail \"" + host.VisibleText(msg.Subject, 60) + "\":\n\n" + body
		}
		return s.reply(ctx, ses.Tx(), outMail{To: msg.From, Subject: "[herald] your mail was set aside", InReplyTo: msg.MessageID,
			References: refs(msg.MessageID, 0, s.domain), Body: body}, 0, now, host.UnkeyedAnswer)
	})
	if err != nil && !errors.Is(err, host.ErrDuplicate) {
		// The answer is a courtesy: the mail is set aside all the same.
		s.log.Error("cannot record a mail set aside, nor answer it", "message_id", fl.Ref, "err", err)
	}
	if o := s.outbox.Load(); o != nil && safe {
		o.Kick()
	}
	return s.cfg.Store.SetAside(ctx, fl.Kind, fl.Ref, now)
}

// setAside gives up on outgoing mail m for reason: it stays in the outbox
// unsent, for the record, and is listed by `herald failed`.
func (o *Outbox) setAside(ctx context.Context, m host.Outgoing, reason error) error {
	o.log.Error("outbox: mail set aside", "id", m.ID, "to", m.Recipient, "err", reason)
	now := o.now().UTC()
	if err := o.store.MarkFailed(ctx, m.ID, now.Add(never), reason); err != nil {
		return err
	}
	fl := host.Failure{Kind: host.FailedDraft, Ref: fmt.Sprintf("outbox:%d", m.ID), Party: m.Recipient, Reason: reason.Error(), Attempts: m.Attempts + 1}
	if d, err := readDraft(m.Draft); err == nil {
		fl.Subject = d.Subject
	}
	if _, err := o.store.NoteFailure(ctx, fl, now); err != nil {
		return err
	}
	return o.store.SetAside(ctx, fl.Kind, fl.Ref, now)
}

// render renders m within the outbox's budget. A render that takes longer is left
// to finish on its own (nothing can stop it), and m is set aside: no mail
// can hold back the others.
func (o *Outbox) render(ctx context.Context, m host.Outgoing) ([]byte, error) {
	type rendered struct {
		raw []byte
		err error
	}
	done := make(chan rendered, 1)
	go func() {
		raw, err := o.svc.Render(ctx, m)
		done <- rendered{raw, err}
	}()
	t := time.NewTimer(o.budget)
	defer t.Stop()
	select {
	case r := <-done:
		return r.raw, r.err
	case <-t.C:
		return nil, &badDraftError{fmt.Errorf("outbox mail %d: not rendered within %v", m.ID, o.budget)}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
