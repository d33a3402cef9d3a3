package mail

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/store/postgres"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestIntakeHeldByOneWorker runs the intake of two workers on one
// PostgreSQL store through leased: one reads the mailbox, the other waits;
// when the first stops, the second takes over within seconds; and a
// worker whose lease another took stops reading.
func TestIntakeHeldByOneWorker(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	open := func() *postgres.Store {
		s, err := postgres.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	log := slog.New(slog.DiscardHandler)
	var running [2]atomic.Bool
	intake := func(w int) func(context.Context) error {
		return func(ctx context.Context) error {
			running[w].Store(true)
			<-ctx.Done()
			running[w].Store(false)
			return nil
		}
	}
	wait := func(what string, cond func() bool) {
		t.Helper()
		for start := time.Now(); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Since(start) > intakeLease+5*intakeRenew {
				t.Fatalf("%s: not after %v", what, time.Since(start))
			}
		}
	}
	a, b := open(), open()
	ctxA, stopA := context.WithCancel(ctx)
	doneA := make(chan error, 1)
	go func() { doneA <- leased(a, "a", log, intake(0))(ctxA) }()
	wait("a reads the mailbox", running[0].Load)
	ctxB, stopB := context.WithCancel(ctx)
	defer stopB()
	doneB := make(chan error, 1)
	go func() { doneB <- leased(b, "b", log, intake(1))(ctxB) }()
	time.Sleep(3 * intakeRenew)
	if running[1].Load() {
		t.Fatal("b reads the mailbox while a holds it")
	}
	stopA() // a stops, giving the lease up
	if err := <-doneA; err != nil {
		t.Fatal(err)
	}
	wait("b takes the mailbox over", running[1].Load)
	if running[0].Load() {
		t.Fatal("a still reads the mailbox")
	}
	// a worker whose lease was taken (it stalled past its lease) stops:
	// here the lease row is given to another by hand.
	db, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	if _, err := db.Exec(ctx, `UPDATE leases SET holder = 'c', until = clock_timestamp() + interval '1 hour' WHERE name = 'intake'`); err != nil {
		t.Fatal(err)
	}
	wait("b stops reading once it lost the lease", func() bool { return !running[1].Load() })
	stopB()
	if err := <-doneB; err != nil {
		t.Fatal(err)
	}
}
