package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// Traffic is a steady stream of move mails, for the tests that show a
// store stays bounded once it prunes: each hour, Moves move mails (their
// identities, body hashes and senders as long as real ones) processed in
// one batch, each queueing MailsAMove drafts of some 500 bytes that share
// one board of some 2.4 kB; then claimed and sent a minute later. Its
// bytes come from a generator seeded the same every time.
type Traffic struct {
	Game  int64 // the game the mails concern
	Moves int   // move mails an hour
	rng   *rand.Rand
	n     int
}

// MailsAMove is how many mails each move of a Traffic queues.
const MailsAMove = 3

// NewTraffic returns moves move mails an hour about game.
func NewTraffic(game int64, moves int) *Traffic {
	return &Traffic{Game: game, Moves: moves, rng: rand.New(rand.NewPCG(1, 2))}
}

// Processed is how many move mails Hour has processed.
func (tr *Traffic) Processed() int { return tr.n }

// bytes returns n to n+n/4 lower-case letters.
func (tr *Traffic) bytes(n int) []byte {
	b := make([]byte, n+tr.rng.IntN(n/4))
	for i := range b {
		b[i] = byte('a' + tr.rng.IntN(26))
	}
	return b
}

// Hour processes the hour's move mails in s at now, and sends their
// mails (Claim, MarkSent) a minute later.
func (tr *Traffic) Hour(t testing.TB, s host.Store, now time.Time) {
	t.Helper()
	ctx := context.Background()
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range tr.Moves {
		tr.n++
		id := fmt.Sprintf("<CAF%d%s@mail.gmail.com>", tr.n, tr.bytes(36))
		hash := fmt.Sprintf("%x", tr.bytes(32)[:32])
		board := tr.bytes(2400)
		err := b.Process(ctx, host.Intake{MessageID: id, BodyHash: hash, Sender: "alice.martin@example.org", Received: now}, func(tx host.Tx) error {
			for k := range MailsAMove {
				if err := tx.Queue(ctx, host.Mail{GameID: tr.Game, Recipient: fmt.Sprintf("p%d@x", k), Draft: tr.bytes(500), Shared: board}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := b.CommitUnsynced(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := s.Claim(ctx, "w", now, time.Minute, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if err := s.MarkSent(ctx, o.ID, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
}

// OutboxBound is the most mails an outbox fed by tr and pruned every
// hour holds: a SentKept of them, and the hour's.
func (tr *Traffic) OutboxBound() int {
	return int(host.SentKept/time.Hour+1) * tr.Moves * MailsAMove
}
