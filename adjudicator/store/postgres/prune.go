package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/jackc/pgx/v5"
)

// pruneLock is the key of the advisory lock a Prune holds for its
// transaction, so that workers prune one at a time.
const pruneLock = 0x6865726c6470 // "herldp"

// Prune deletes, in one transaction, up to limit mails sent more than
// host.SentKept before now, the shared parts that none of the mails left
// refers to, up to limit failures not set aside that last failed more
// than host.FailureKept before now, and up to limit requests to observe
// asked more than host.ObserveRequestKept before now (host.Store.Prune);
// and the names of workers (Enlist) not renewed for workerGone, by the
// database's clock, which the workers' leases go by.
//
// Workers prune one at a time: the transaction first takes an advisory
// lock without waiting, and deletes nothing when another worker holds it.
// Two prunes side by side could each delete some of a move's mails, each
// see the other's still there (not committed yet), and leave the move's
// shared part behind for ever; one at a time, the last of them sees the
// others' deletes. Nothing else writes a mail once it is sent, nor a
// shared part once its mails are queued, nor a failure or a request to
// observe once it is old, so a prune mostly waits for no one and no one
// for it.
//
// PostgreSQL's autovacuum makes the space of the rows deleted reusable;
// the tables keep the size of SentKept of mail.
func (s *Store) Prune(ctx context.Context, now time.Time, limit int) (host.Pruned, error) {
	var p host.Pruned
	if limit <= 0 {
		return p, nil
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return p, fmt.Errorf("store: prune: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var mine bool
	if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, pruneLock).Scan(&mine); err != nil {
		return p, fmt.Errorf("store: prune: %w", err)
	}
	if !mine {
		return p, nil // another worker prunes
	}
	p, err = prune(ctx, tx, now, limit)
	if err != nil {
		return host.Pruned{}, conflict(fmt.Errorf("store: prune: %w", err))
	}
	if err := tx.Commit(ctx); err != nil {
		return host.Pruned{}, conflict(fmt.Errorf("store: prune: %w", err))
	}
	return p, nil
}

// prune is Prune's transaction.
func prune(ctx context.Context, tx pgx.Tx, now time.Time, limit int) (host.Pruned, error) {
	var p host.Pruned
	rows, err := tx.Query(ctx, `DELETE FROM outbox WHERE id IN
		(SELECT id FROM outbox WHERE sent IS NOT NULL AND sent < $1 LIMIT $2) RETURNING shared_id`,
		stamp(now.Add(-host.SentKept)), limit)
	if err != nil {
		return p, err
	}
	var shared []int64
	for rows.Next() {
		var id *int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return p, err
		}
		p.Outbox++
		if id != nil {
			shared = append(shared, *id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return p, err
	}
	if len(shared) > 0 {
		tag, err := tx.Exec(ctx, `DELETE FROM outbox_shared s WHERE s.id = ANY($1)
			AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.shared_id = s.id)`, shared)
		if err != nil {
			return p, err
		}
		p.Shared = int(tag.RowsAffected())
	}
	tag, err := tx.Exec(ctx, `DELETE FROM failures WHERE id IN
		(SELECT id FROM failures WHERE set_aside IS NULL AND last < $1 LIMIT $2)`,
		stamp(now.Add(-host.FailureKept)), limit)
	if err != nil {
		return p, err
	}
	p.Failures = int(tag.RowsAffected())
	tag, err = tx.Exec(ctx, `DELETE FROM observe_requests WHERE (game_id, address) IN
		(SELECT game_id, address FROM observe_requests WHERE asked < $1 LIMIT $2)`,
		stamp(now.Add(-host.ObserveRequestKept)), limit)
	if err != nil {
		return p, err
	}
	p.Observe = int(tag.RowsAffected())
	// A worker's name whose holder has not renewed it for workerGone:
	// killed under a name never used again (a restart under it would have
	// taken it back within workerLease). Its claims and intake lease
	// lapsed long ago; a holder that was only stalled finds its name gone
	// when it comes back, as if another had taken it, and stops.
	tag, err = tx.Exec(ctx, `DELETE FROM workers WHERE until < clock_timestamp() - $1 * interval '1 second'`,
		int64(workerGone/time.Second))
	if err != nil {
		return p, err
	}
	p.Workers = int(tag.RowsAffected())
	return p, nil
}
