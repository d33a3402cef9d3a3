package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

func init() {
	tests = append(tests,
		struct {
			name string
			fn   func(t *testing.T, db DB)
		}{"WorkersApplyEachMailOnce", func(t *testing.T, db DB) { testWorkersApplyEachMailOnce(t, db, false) }},
		struct {
			name string
			fn   func(t *testing.T, db DB)
		}{"WorkersApplyEachMailOnceExpected", func(t *testing.T, db DB) { testWorkersApplyEachMailOnce(t, db, true) }},
		struct {
			name string
			fn   func(t *testing.T, db DB)
		}{"WorkersClaimEachMailOnce", testWorkersClaimEachMailOnce},
	)
}

// testWorkersApplyEachMailOnce has two stores on one database (two
// workers) process the same mails at once, in batches, each mail a move
// of one game: every mail is applied once, by one of them, the other
// finding it processed (host.ErrDuplicate), and the game's record holds
// each move once, in the order applied. With expect, each batch first
// tells the store its four mails' identities (StoreBatch.Expect), the
// second worker in the reverse order: the claims made at once for a batch
// keep each mail to one worker too, and do not deadlock.
func testWorkersApplyEachMailOnce(t *testing.T, db DB, expect bool) {
	const mails = 40
	ctx := context.Background()
	workers := []host.Store{db.Open(t), db.Open(t)}
	gid := NewGame(t, workers[0], "<w0@x>")
	var mu sync.Mutex
	applied := map[string]int{}
	var wg sync.WaitGroup
	errs := make([]error, len(workers))
	for w, s := range workers {
		wg.Go(func() {
			for i := 0; i < mails; i += 4 {
				b, err := s.Begin(ctx)
				if err != nil {
					errs[w] = err
					return
				}
				if expect {
					var ids []string
					for j := i; j < i+4; j++ {
						ids = append(ids, fmt.Sprintf("<w%d@x>", j+1))
					}
					if w == 1 {
						slices.Reverse(ids)
					}
					if err := b.Expect(ctx, ids); err != nil {
						errs[w] = err
						b.Rollback()
						return
					}
				}
				for j := i; j < i+4; j++ {
					id := fmt.Sprintf("<w%d@x>", j+1)
					err := b.Process(ctx, host.Intake{MessageID: id, BodyHash: "h", Sender: "alice@x", Received: t0}, func(tx host.Tx) error {
						rec, err := tx.Record(ctx, gid)
						if err != nil {
							return err
						}
						rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: id, Source: fmt.Sprint("worker ", w)})
						if _, err := tx.Save(ctx, gid, rec, host.Playing); err != nil {
							return err
						}
						tx.SetOutcome("applied", gid)
						return tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "alice@x", Raw: []byte("applied " + id)})
					})
					if errors.Is(err, host.ErrDuplicate) {
						continue
					}
					if err != nil {
						errs[w] = err
						b.Rollback()
						return
					}
					mu.Lock()
					applied[id]++
					mu.Unlock()
				}
				if err := b.Commit(ctx); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for w, err := range errs {
		if err != nil {
			t.Fatalf("worker %d: %v", w, err)
		}
	}
	g, err := workers[1].Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Record.Moves) != mails || g.Moves != mails {
		t.Fatalf("the game has %d moves (column %d), want %d, one per mail", len(g.Record.Moves), g.Moves, mails)
	}
	seen := map[string]bool{}
	for _, mv := range g.Record.Moves {
		if seen[mv.Text] {
			t.Errorf("mail %s applied twice", mv.Text)
		}
		seen[mv.Text] = true
	}
	for i := 1; i <= mails; i++ {
		if id := fmt.Sprintf("<w%d@x>", i); applied[id] != 1 {
			t.Errorf("mail %s: applied %d times by the workers, want 1", id, applied[id])
		}
	}
	if n, _ := workers[0].Pending(ctx); n != mails+1 {
		t.Errorf("Pending = %d, want %d (the welcome and one reply per mail)", n, mails+1)
	}
}

// testWorkersClaimEachMailOnce has three stores on one database claim the
// outbox at once, a few mails at a time, until it is empty: each mail is
// claimed by one worker, and every mail by some worker.
func testWorkersClaimEachMailOnce(t *testing.T, db DB) {
	const mails = 60
	ctx := context.Background()
	s := db.Open(t)
	err := s.Process(ctx, host.Intake{MessageID: "<q@x>", Received: t0}, func(tx host.Tx) error {
		for i := range mails - 1 {
			// Each to a recipient of its own: the order kept per recipient
			// does not hold any back.
			if err := tx.Queue(ctx, host.Mail{Recipient: fmt.Sprintf("r%d@x", i), Raw: []byte("m")}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	NewGame(t, s, "<g@x>") // one more mail
	var mu sync.Mutex
	claimed := map[int64][]string{}
	var wg sync.WaitGroup
	for w := range 3 {
		st := db.Open(t)
		name := fmt.Sprint("w", w)
		wg.Go(func() {
			for {
				got, err := st.Claim(ctx, name, t0.Add(time.Minute), time.Hour, 3)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, m := range got {
					claimed[m.ID] = append(claimed[m.ID], name)
				}
				mu.Unlock()
				for _, m := range got {
					if err := st.MarkSent(ctx, m.ID, t0.Add(time.Minute)); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if len(claimed) != mails {
		t.Errorf("%d mails claimed, want %d", len(claimed), mails)
	}
	for id, by := range claimed {
		if len(by) != 1 {
			slices.Sort(by)
			t.Errorf("mail %d claimed by %v, want one worker", id, by)
		}
	}
	if n, _ := s.Pending(ctx); n != 0 {
		t.Errorf("Pending = %d, want 0", n)
	}
}
