package postgres

import (
	"context"
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
