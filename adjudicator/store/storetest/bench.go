package storetest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// BenchMoves measures a store's share of incoming move mails with workers
// stores (workers) on one database, each processing its own mails in
// batches of 64 (the mail intake's), every mail a move of one of the
// worker's four games that queues two drafts of a board's size; one op is
// one mail, the commit included. It reports moves/s over all workers, and
// turn-ms: the latency of one mail processed alone (Store.Process, its
// commit included), the median of those measured beside the batches.
func BenchMoves(b *testing.B, db DB, workers int) {
	ctx := context.Background()
	stores := make([]host.Store, workers)
	games := make([][]int64, workers)
	for w := range stores {
		stores[w] = db.Open(b)
		for g := range 4 {
			games[w] = append(games[w], NewGame(b, stores[w], fmt.Sprintf("<g%d.%d@bench>", w, g)))
		}
	}
	draft := bytes.Repeat([]byte("| F v | P c |   . |\n"), 115) // ~2.3 KB
	move := func(tx host.Tx, g int64, id string) error {
		rec, err := tx.Record(ctx, g)
		if err != nil {
			return err
		}
		rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "plain castle e5\nknights 1", Time: "2026-11-23T09:00:00Z", Source: "mail:" + id})
		if _, err := tx.Save(ctx, g, rec, host.Playing); err != nil {
			return err
		}
		tx.SetOutcome("applied", g)
		for _, to := range []string{"alice@x", "bob@y"} {
			if err := tx.Queue(ctx, host.Mail{GameID: g, Recipient: to, Draft: draft}); err != nil {
				return err
			}
		}
		return nil
	}
	var next atomic.Int64
	var mu sync.Mutex
	var turns []time.Duration
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w, s := range stores {
		wg.Go(func() {
			for k := 0; ; k++ {
				if k%8 == 7 {
					// One mail alone now and then: a turn's latency.
					n := next.Add(1)
					if n > int64(b.N) {
						return
					}
					id := fmt.Sprintf("<t%d@bench>", n)
					t := time.Now()
					if err := s.Process(ctx, host.Intake{MessageID: id, Received: t0}, func(tx host.Tx) error { return move(tx, games[w][n%4], id) }); err != nil {
						b.Error(err)
						return
					}
					mu.Lock()
					turns = append(turns, time.Since(t))
					mu.Unlock()
					continue
				}
				batch, err := s.Begin(ctx)
				if err != nil {
					b.Error(err)
					return
				}
				// The batch's mails, told to the store at once, and run
				// without a savepoint each, as the intake does
				// (StoreBatch.Expect, Unguarded).
				batch.Unguarded()
				first := next.Add(64) - 63
				var ids []string
				for n := first; n < first+64 && n <= int64(b.N); n++ {
					ids = append(ids, fmt.Sprintf("<%d@bench>", n))
				}
				if err := batch.Expect(ctx, ids); err != nil {
					b.Error(err)
					batch.Rollback()
					return
				}
				for i, id := range ids {
					n := first + int64(i)
					if err := batch.Process(ctx, host.Intake{MessageID: id, Received: t0}, func(tx host.Tx) error { return move(tx, games[w][n%4], id) }); err != nil {
						b.Error(err)
						batch.Rollback()
						return
					}
				}
				if err := batch.Commit(ctx); err != nil {
					b.Error(err)
					return
				}
				if next.Load() >= int64(b.N) {
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "moves/s")
	if len(turns) > 0 {
		slices.Sort(turns)
		b.ReportMetric(float64(turns[len(turns)/2].Microseconds())/1000, "turn-ms")
	}
}
