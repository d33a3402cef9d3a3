package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/heraldgames/herald/adjudicator/store/storetest"
	"github.com/jackc/pgx/v5"
)

// TestPruneOneWorkerAtATime: while another worker's prune holds the
// advisory lock (pruneLock), a Prune deletes nothing and returns at once
// rather than wait; once that one ends, it deletes what is due. (Two at
// once could each leave a move's shared part to the other.)
func TestPruneOneWorkerAtATime(t *testing.T) {
	url := pgtest.URL(t)
	s := open(t, url)
	ctx := context.Background()
	storetest.NewGame(t, s, "<one@x>") // its welcome
	out, err := s.Claim(ctx, "w", t0, time.Minute, 10)
	if err != nil || len(out) != 1 {
		t.Fatalf("Claim = %v, %v; want the welcome", out, err)
	}
	if err := s.MarkSent(ctx, out[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(host.SentKept + time.Second)
	other, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	tx, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, pruneLock); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if p, err := s.Prune(wait, now, 10); err != nil || p.Rows() != 0 {
		t.Errorf("Prune while another worker prunes = %+v, %v; want nothing deleted", p, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Prune(ctx, now, 10); err != nil || p.Outbox != 1 {
		t.Errorf("Prune once the other is done = %+v, %v; want the welcome deleted", p, err)
	}
}

// TestPruneKeepsDatabaseBounded feeds a database weeks of moves at a
// steady rate on a clock of its own (storetest.Traffic), pruning every
// hour from the second week: once a SentKept has passed, the outbox holds
// a SentKept of mail, and the outbox's and the boards' tables, indexes
// and TOAST included, stop growing: the space of the rows deleted holds
// the new ones. A plain VACUUM every simulated day stands for autovacuum,
// which a real database runs by itself once a fifth of a table's rows
// are deleted (autovacuum_vacuum_scale_factor), here about every day and
// a half.
func TestPruneKeepsDatabaseBounded(t *testing.T) {
	const weeks, backlogWeeks = 4, 1
	url := pgtest.URL(t)
	s := open(t, url)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// The daily VACUUM alone, not autovacuum too, whose runs at moments
	// of the machine's choosing would move the rows and the sizes from
	// run to run.
	if _, err := conn.Exec(ctx, `ALTER TABLE outbox SET (autovacuum_enabled = false, toast.autovacuum_enabled = false);
		ALTER TABLE outbox_shared SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)`); err != nil {
		t.Fatal(err)
	}
	tr := storetest.NewTraffic(storetest.NewGame(t, s, "<g@x>"), 2)
	var sizes, rows []int64
	now := t0.Add(time.Hour)
	for w := range weeks {
		for range 7 {
			for range 24 {
				now = now.Add(time.Hour)
				tr.Hour(t, s, now)
				if w >= backlogWeeks {
					storetest.PruneAll(t, s, now, 500)
				}
			}
			if _, err := conn.Exec(ctx, `VACUUM outbox, outbox_shared`); err != nil {
				t.Fatal(err)
			}
		}
		var size, n int64
		if err := conn.QueryRow(ctx, `SELECT pg_total_relation_size('outbox') + pg_total_relation_size('outbox_shared'), (SELECT COUNT(*) FROM outbox)`).Scan(&size, &n); err != nil {
			t.Fatal(err)
		}
		sizes, rows = append(sizes, size), append(rows, n)
		t.Logf("week %d: the outbox and its boards %d kB, %d mails", w+1, size/1024, n)
	}
	// The first week of pruning holds a SentKept of mail and the day's
	// deleted rows; after it, nothing more.
	for w := backlogWeeks; w < weeks; w++ {
		if rows[w] > int64(tr.OutboxBound()+1) {
			t.Errorf("week %d: %d mails in the outbox, more than a SentKept's %d and the welcome", w+1, rows[w], tr.OutboxBound())
		}
		if w > backlogWeeks && sizes[w] > sizes[backlogWeeks]*21/20 {
			t.Errorf("week %d: the outbox and its boards take %d kB, more than the %d kB of the first week pruned: the space freed is not reused", w+1, sizes[w]/1024, sizes[backlogWeeks]/1024)
		}
	}
}

// TestPruneWorkersGone: Prune deletes the name of a worker killed under a
// name never used again once its holder has not renewed it for
// workerGone, by the database's clock; a name lapsed for less, and a live
// worker's, stay, and the live worker goes on renewing its own.
func TestPruneWorkersGone(t *testing.T) {
	url := pgtest.URL(t)
	s := open(t, url)
	ctx := context.Background()
	if _, err := s.Enlist(ctx, "live"); err != nil {
		t.Fatal(err)
	}
	for name, lapsed := range map[string]time.Duration{"gone": workerGone + time.Minute, "recent": workerGone - time.Hour} {
		if _, err := s.pool.Exec(ctx, `INSERT INTO workers (name, token, host, pid, started, until)
			VALUES ($1, 't', 'h', 1, clock_timestamp() - $2 * interval '1 second', clock_timestamp() - $2 * interval '1 second')`,
			name, int64(lapsed/time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := s.Prune(ctx, t0, 10); err != nil || p.Workers != 1 || p.Rows() != 1 {
		t.Fatalf("Prune = %+v, %v; want the one worker gone for a day deleted", p, err)
	}
	rows, err := s.pool.Query(ctx, `SELECT name FROM workers ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || strings.Join(names, ",") != "live,recent" {
		t.Fatalf("workers left: %v, %v; want live and recent", names, err)
	}
	time.Sleep(workerRenew + workerRenew/2)
	select {
	case <-s.Lost():
		t.Fatal("the live worker lost its name")
	default:
	}
}
