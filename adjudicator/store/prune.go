package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// Prune deletes, in one transaction, up to limit mails sent more than
// host.SentKept before now, the shared parts that none of the mails left
// refers to, up to limit failures not set aside that last failed more
// than host.FailureKept before now, and up to limit requests to observe
// asked more than host.ObserveRequestKept before now (host.Store.Prune). The transaction
// waits for the batch under way, if any, and the next waits for it: a
// year's backlog is deleted a few hundred rows at a time, each
// transaction a few milliseconds, the intake's batches going between
// them.
//
// The pages freed go to the database's free list, and the mails queued
// next are written into them (auto_vacuum stays off: the file keeps its
// size, the size of SentKept of mail, rather than giving pages back to
// the disk and growing again). After the first prune of a long backlog,
// an operator who wants the disk back runs VACUUM once.
func (s *Store) Prune(ctx context.Context, now time.Time, limit int) (host.Pruned, error) {
	var p host.Pruned
	if limit <= 0 {
		return p, nil
	}
	select {
	case s.writing <- struct{}{}:
	case <-ctx.Done():
		return p, fmt.Errorf("store: prune: %w", ctx.Err())
	}
	defer func() { <-s.writing }()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return p, fmt.Errorf("store: prune: %w", err)
	}
	defer tx.Rollback()
	p, err = prune(ctx, tx, now, limit)
	if err != nil {
		return host.Pruned{}, fmt.Errorf("store: prune: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return host.Pruned{}, fmt.Errorf("store: prune: %w", err)
	}
	// The games pruned may be cached: written by another connection than
	// the writer's, they would be forgotten at the next batch anyway.
	s.headers.clear()
	if p.Rows() > 0 {
		// A lost prune (a power loss before the WAL reaches the disk) is
		// done again: no Sync is owed, only a checkpoint, signalled while
		// the writing token is held (see CommitUnsynced).
		select {
		case s.wrote <- struct{}{}:
		default:
		}
	}
	return p, nil
}

// Prune's statements, each of at most limit rows, each finding them by an
// index (TestPrunePlans): a year's backlog costs each transaction what a
// week's does.
const (
	// The mails sent before the cutoff, by outbox_due (sent,
	// next_attempt): an unsent mail (sent NULL) is never one of them.
	pruneOutbox = `DELETE FROM outbox WHERE id IN
		(SELECT id FROM outbox WHERE sent IS NOT NULL AND sent < ? LIMIT ?) RETURNING shared_id`
	// The shared parts of the mails deleted that no mail left refers to,
	// by outbox_shared_ref.
	pruneShared = `DELETE FROM outbox_shared WHERE id IN (SELECT value FROM json_each(?))
		AND NOT EXISTS (SELECT 1 FROM outbox WHERE shared_id = outbox_shared.id)`
	// The failures not set aside, by failures_set_aside.
	pruneFailures = `DELETE FROM failures WHERE id IN
		(SELECT id FROM failures WHERE set_aside IS NULL AND last < ? LIMIT ?)`
	// The requests to observe asked before the cutoff, by
	// observe_requests_asked.
	pruneObserve = `DELETE FROM observe_requests WHERE rowid IN
		(SELECT rowid FROM observe_requests WHERE asked < ? LIMIT ?)`
)

// prune is Prune's transaction.
func prune(ctx context.Context, tx *sql.Tx, now time.Time, limit int) (host.Pruned, error) {
	var p host.Pruned
	rows, err := tx.QueryContext(ctx, pruneOutbox, stamp(now.Add(-host.SentKept)), limit)
	if err != nil {
		return p, err
	}
	var shared []int64
	for rows.Next() {
		var id sql.NullInt64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return p, err
		}
		p.Outbox++
		if id.Valid {
			shared = append(shared, id.Int64)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return p, err
	}
	// A shared part goes with the last of its mails (a move's mails are
	// sent within minutes of each other, so that is mostly the same
	// transaction); outbox_shared_ref finds whether one is left.
	if len(shared) > 0 {
		list, err := json.Marshal(shared)
		if err != nil {
			return p, err
		}
		res, err := tx.ExecContext(ctx, pruneShared, string(list))
		if err != nil {
			return p, err
		}
		n, _ := res.RowsAffected()
		p.Shared = int(n)
	}
	res, err := tx.ExecContext(ctx, pruneFailures, stamp(now.Add(-host.FailureKept)), limit)
	if err != nil {
		return p, err
	}
	n, _ := res.RowsAffected()
	p.Failures = int(n)
	res, err = tx.ExecContext(ctx, pruneObserve, stamp(now.Add(-host.ObserveRequestKept)), limit)
	if err != nil {
		return p, err
	}
	n, _ = res.RowsAffected()
	p.Observe = int(n)
	return p, nil
}
