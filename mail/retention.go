package mail

import (
	"context"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// Retention: herald serve prunes what it keeps no more (host.Retention:
// the mails sent more than host.SentKept ago, the boards they shared, the
// failures not set aside after host.FailureKept, the requests to observe
// never confirmed) when it starts and every
// pruneEvery, on every worker (on PostgreSQL one prunes at a time, the
// others finding nothing to do), a transaction of at most pruneRows rows
// a table at a time, so that a year's backlog never holds a long lock: the
// intake's batches go between them.

// pruneEvery is how often the serve loop prunes: an hour adds an hour's
// mail to the SentKept the outbox keeps.
const pruneEvery = time.Hour

// pruneRows is how many rows a table a pruning transaction deletes at
// most: some milliseconds of SQLite's time.
const pruneRows = 500

// Prune deletes what herald keeps no more at the service's now, pruneRows
// rows at a time until nothing is left or ctx ends, and returns what it
// deleted.
func (s *Service) Prune(ctx context.Context) (host.Pruned, error) {
	return prune(ctx, s.cfg.Store, s.cfg.Now().UTC(), pruneRows)
}

// prune calls st.Prune until it deletes nothing or ctx ends, and adds up
// what it deleted.
func prune(ctx context.Context, st host.Store, now time.Time, limit int) (host.Pruned, error) {
	var all host.Pruned
	for ctx.Err() == nil {
		p, err := st.Prune(ctx, now, limit)
		all.Outbox += p.Outbox
		all.Shared += p.Shared
		all.Failures += p.Failures
		all.Observe += p.Observe
		all.Workers += p.Workers
		if err != nil || p.Rows() == 0 {
			return all, err
		}
	}
	return all, nil
}
