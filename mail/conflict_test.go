package mail

import (
	"context"
	"fmt"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
)

// conflictStore is a store whose batches end the request of one mail in
// a conflict with another worker's transaction (host.ErrConflict, as
// PostgreSQL's deadlocks are) its first times.
type conflictStore struct {
	host.Store
	messageID string
	left      atomic.Int64 // conflicts still to come
}

func (s *conflictStore) Begin(ctx context.Context) (host.StoreBatch, error) {
	b, err := s.Store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &conflictBatch{b, s}, nil
}

type conflictBatch struct {
	host.StoreBatch
	s *conflictStore
}

func (b *conflictBatch) Process(ctx context.Context, in host.Intake, fn func(tx host.Tx) error) error {
	if in.MessageID == b.s.messageID && b.s.left.Add(-1) >= 0 {
		return fmt.Errorf("%w: deadlock detected (SQLSTATE 40P01)", host.ErrConflict)
	}
	return b.StoreBatch.Process(ctx, in, fn)
}

// TestConflictNotCountedAgainstMail: a move whose transaction conflicts
// with another worker's (a deadlock) more times than a mail may fail is
// tried again each time, neither counted as a failure nor set aside, and
// applied once the conflicts end, as the move after it.
func TestConflictNotCountedAgainstMail(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.sent()
	good := f.moveMails(1, 2)
	st := &conflictStore{Store: f.st, messageID: regexp.MustCompile(`Message-ID: <([^>]+)>`).FindStringSubmatch(string(good[0]))[1]}
	st.left.Store(2 * maxFailures)
	cfg := f.svc.cfg
	cfg.Store = st
	svc, err := NewService(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := drainInbox(t, svc, good...)
	if left := st.left.Load(); left >= 0 {
		t.Fatalf("%d conflicts left: the move was not tried again after each", left+1)
	}
	if n := count(t, c, "herald/processed"); n != 2 {
		t.Errorf("herald/processed holds %d mails, want both moves", n)
	}
	if n := count(t, c, "herald/failed"); n != 0 {
		t.Errorf("herald/failed holds %d mails: a conflict was counted against the mail", n)
	}
	if list, err := f.st.SetAsideList(context.Background()); err != nil || len(list) != 0 {
		t.Errorf("set aside: %+v (%v), want nothing", list, err)
	}
	g, err := f.st.Game(context.Background(), 1)
	if err != nil || len(g.Record.Moves) != 2 {
		t.Fatalf("the game has %d moves (%v), want both", len(g.Record.Moves), err)
	}
	// The first failure of the mail that is noted counts from one: none
	// was noted for its conflicts.
	ref := st.messageID
	if n, err := f.st.NoteFailure(context.Background(), host.Failure{Kind: host.FailedMail, Ref: ref, Reason: "probe"}, f.clock); err != nil || n != 1 {
		t.Errorf("a failure noted after the conflicts counts %d (%v), want 1", n, err)
	}
}
