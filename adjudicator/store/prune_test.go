package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/storetest"
)

// TestPruneKeepsDatabaseBounded feeds a store weeks of moves at a steady
// rate, on a clock of its own: every hour, movesAnHour move mails each
// queue three drafts sharing one board, all sent within the hour. For
// backlogWeeks nothing is pruned (a herald before Prune: the outbox keeps
// everything); from then on the serve loop's sweep prunes every hour.
// Once a SentKept has passed, the outbox holds only the mails of the last
// SentKept (and the hour's), and the database file stops growing but for
// the tables kept for ever (the processed mails' identities): the pages
// the first prune freed, then each hour's, hold the new mails (SQLite's
// free list; auto_vacuum stays off).
func TestPruneKeepsDatabaseBounded(t *testing.T) {
	const weeks, backlogWeeks = 5, 1
	s, path := open(t)
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func(q string) int {
		t.Helper()
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	tr := storetest.NewTraffic(newGame(t, s, "<g@x>"), 3)
	type week struct{ pages, free, outbox, kept int }
	var seen []week
	now := t0.Add(time.Hour)
	for w := range weeks {
		for range 7 * 24 {
			now = now.Add(time.Hour)
			tr.Hour(t, s, now)
			if w >= backlogWeeks {
				storetest.PruneAll(t, s, now, 500)
			}
		}
		// Checkpoint, so that the database file holds every page.
		if _, err := s.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			t.Fatal(err)
		}
		wk := week{
			pages:  count(`PRAGMA page_count`),
			free:   count(`PRAGMA freelist_count`),
			outbox: count(`SELECT COUNT(*) FROM outbox`),
			kept:   count(`SELECT COUNT(*) FROM dbstat WHERE name IN ('messages', 'sqlite_autoindex_messages_1')`),
		}
		seen = append(seen, wk)
		t.Logf("week %d: %d pages, %d free; %d mails in the outbox; %d pages of processed mails' identities, %d bytes a mail", w+1, wk.pages, wk.free, wk.outbox, wk.kept, wk.kept*count(`PRAGMA page_size`)/tr.Processed())
	}
	// The outbox: a SentKept of mail, and the hour's.
	most := tr.OutboxBound()
	for w := backlogWeeks; w < weeks; w++ {
		if seen[w].outbox > most+1 {
			t.Errorf("week %d: %d mails in the outbox, more than a SentKept's %d and the welcome", w+1, seen[w].outbox, most)
		}
	}
	// The file: the size it had when the backlog was pruned, and the
	// identities kept since; a little slack for the tables' own pages: 2%
	// of the file, or a page for each table and index (each B-tree's pages
	// fill as it goes, and a page is 16 KiB: pageSize), whichever is more.
	// Were the pages freed not reused, the file would grow by the outbox's
	// week of mail, hundreds of pages.
	ref := seen[backlogWeeks-1]
	slack := max(ref.pages/50, count(`SELECT COUNT(*) FROM sqlite_schema WHERE rootpage > 0`))
	for w := backlogWeeks; w < weeks; w++ {
		if grew := seen[w].pages - ref.pages; grew > seen[w].kept-ref.kept+slack {
			t.Errorf("week %d: %d pages, %d more than at the first prune, the processed mails' identities %d more: the pages freed are not reused", w+1, seen[w].pages, grew, seen[w].kept-ref.kept)
		}
	}
	// Steady state: once the backlog's free pages are used up, the file
	// grows as the identities do, and no faster.
	last, mid := seen[weeks-1], seen[weeks-3]
	if grew := last.pages - mid.pages; grew > last.kept-mid.kept+slack {
		t.Errorf("weeks %d to %d: %d pages more, the processed mails' identities %d more", weeks-2, weeks, grew, last.kept-mid.kept)
	}
}

// TestPrunePlans: each of Prune's statements finds its rows by an index,
// never by reading its table whole, so that a transaction of a year's
// backlog costs what one of a week's does.
func TestPrunePlans(t *testing.T) {
	s, _ := open(t)
	for _, q := range []string{pruneOutbox, pruneShared, pruneFailures, pruneObserve} {
		plan := queryPlan(t, s.db, q, "2026-11-23", 500)
		for _, d := range plan {
			if strings.HasPrefix(d, "SCAN ") && !strings.HasPrefix(d, "SCAN json_each") {
				t.Errorf("%s\nreads a table whole: %q", q, plan)
			}
		}
	}
}

// TestStrangerCountPlan: the count of unkeyed answers of the last hour,
// made for each of them, reads the partial index outbox_strangers, never the
// outbox whole (a forger's flood would make each answer cost the outbox's
// size); which also checks that the index's kind is the one counted.
func TestStrangerCountPlan(t *testing.T) {
	s, _ := open(t)
	plan := queryPlan(t, s.db, countStrangers, "2026-11-23")
	if !slices.ContainsFunc(plan, func(d string) bool { return strings.Contains(d, "outbox_strangers") }) {
		t.Errorf("%s\ndoes not read the index outbox_strangers: %q", countStrangers, plan)
	}
}

// queryPlan returns the details of SQLite's EXPLAIN QUERY PLAN of q with
// args, one a step.
func queryPlan(t *testing.T, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// BenchmarkPrune measures one of serve's pruning transactions (500 mails
// sent long ago, a board for each three) on a backlog of b.N of them: the
// time the transaction holds the database, which the intake's batches
// wait for. ns/op is a transaction's.
func BenchmarkPrune(b *testing.B) {
	s, _ := open(b)
	ctx := context.Background()
	const rows = 500
	board, draft := make([]byte, 2400), make([]byte, 500)
	for i := range board {
		board[i] = byte('a' + i%26)
	}
	n := 0
	for left := b.N * rows; left > 0; left -= 3 * 64 {
		bt, err := s.Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for range 64 {
			n++
			id := fmt.Sprintf("<b%d@x>", n)
			err := bt.Process(ctx, host.Intake{MessageID: id, Received: t0}, func(tx host.Tx) error {
				for k := range 3 {
					if err := tx.Queue(ctx, host.Mail{Recipient: fmt.Sprintf("p%d@x", k), Draft: draft, Shared: board}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := bt.CommitUnsynced(ctx); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE outbox SET sent = ?`, stamp(t0)); err != nil {
		b.Fatal(err)
	}
	now := t0.Add(host.SentKept + time.Hour)
	b.ResetTimer()
	deleted := 0
	for range b.N {
		p, err := s.Prune(ctx, now, rows)
		if err != nil {
			b.Fatal(err)
		}
		deleted += p.Outbox
	}
	b.StopTimer()
	if deleted != min(b.N*rows, 3*n) {
		b.Fatalf("%d mails deleted, want %d", deleted, min(b.N*rows, 3*n))
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(deleted), "us/mail")
}
