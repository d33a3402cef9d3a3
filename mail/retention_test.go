package mail

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/raubritter"
)

// pruneT0 is when the mails of the retention tests were sent.
var pruneT0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// pruneStore is a store that notes its Prune calls.
type pruneStore struct {
	host.Store
	mu    sync.Mutex
	calls []pruneCall
	done  chan host.Pruned // a round's total, when a Prune deletes nothing
	total host.Pruned
}

type pruneCall struct {
	now   time.Time
	limit int
	got   host.Pruned
}

func (s *pruneStore) Prune(ctx context.Context, now time.Time, limit int) (host.Pruned, error) {
	p, err := s.Store.Prune(ctx, now, limit)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, pruneCall{now, limit, p})
	s.total.Outbox += p.Outbox
	if p.Rows() == 0 && s.done != nil {
		s.done <- s.total
		s.done = nil
	}
	return p, err
}

// sentMails queues n mails in st at pruneT0 and marks them sent then.
func sentMails(t *testing.T, st host.Store, n int) {
	t.Helper()
	ctx := context.Background()
	err := st.Process(ctx, host.Intake{MessageID: "<old@x>", Received: pruneT0}, func(tx host.Tx) error {
		for range n {
			if err := tx.Queue(ctx, host.Mail{Recipient: "alice@x", Draft: []byte("draft"), Shared: []byte("board")}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := st.Claim(ctx, "w", pruneT0, time.Minute, n)
	if err != nil || len(out) != n {
		t.Fatalf("Claim = %d mails, %v; want %d", len(out), err, n)
	}
	for _, o := range out {
		if err := st.MarkSent(ctx, o.ID, pruneT0); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPruneRounds: a round of pruning calls the store until it deletes
// nothing, each call a transaction of at most limit rows a table.
func TestPruneRounds(t *testing.T) {
	st, err := openSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sentMails(t, st, 5)
	ps := &pruneStore{Store: st}
	now := pruneT0.Add(host.SentKept + time.Hour)
	got, err := prune(context.Background(), ps, now, 2)
	if err != nil || got.Outbox != 5 || got.Shared != 1 {
		t.Fatalf("prune = %+v, %v; want 5 mails and their board", got, err)
	}
	if len(ps.calls) != 4 {
		t.Errorf("%d calls to Prune, want 4 (2, 2 and 1 mails, then none)", len(ps.calls))
	}
	for _, c := range ps.calls {
		if c.limit != 2 || !c.now.Equal(now) || c.got.Outbox > 2 {
			t.Errorf("a call to Prune: %+v", c)
		}
	}
}

// TestServePrunes: herald serve prunes when it starts (and every
// pruneEvery), at the service's clock, pruneRows rows a transaction.
func TestServePrunes(t *testing.T) {
	dir := t.TempDir()
	st, err := openSQLite(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	sentMails(t, st, 3)
	st.Close()
	now := pruneT0.Add(host.SentKept + time.Hour)
	ps := &pruneStore{done: make(chan host.Pruned, 1)}
	r, err := Start(context.Background(), RunConfig{Local: embeddedLocal, Dir: dir, Registry: adjudicator.NewRegistry(raubritter.Game),
		Logger: slog.New(slog.DiscardHandler), Now: func() time.Time { return now },
		OpenStore: func(ctx context.Context, dir string) (host.Store, error) {
			st, err := openSQLite(ctx, dir)
			ps.Store = st
			return ps, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	select {
	case total := <-ps.done:
		if total.Outbox != 3 {
			t.Errorf("serve's first round pruned %d mails, want the 3 sent a SentKept ago", total.Outbox)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not prune within 20 s of its start")
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, c := range ps.calls {
		if !c.now.Equal(now) || c.limit != pruneRows {
			t.Errorf("serve called Prune(%v, %d), want Prune(%v, %d)", c.now, c.limit, now, pruneRows)
		}
	}
}
