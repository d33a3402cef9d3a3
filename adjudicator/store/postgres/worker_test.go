package postgres

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestEnlist: a worker's name is held by one live process. A second
// process asking for it is refused, told where the first runs; when the
// first dies without a word (its renewal stops, as on kill -9), the next
// to ask gets the name within the lease and the mails and intake lease
// the dead one held under it are released at once; a worker closed gives
// its name and claims up at once; and a worker whose name another process
// took (it stalled) is told so.
func TestEnlist(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	a, b := open(t, url), open(t, url)
	if n, err := a.Enlist(ctx, "w"); err != nil || n != 0 {
		t.Fatalf("Enlist(w) = %d, %v", n, err)
	}
	if _, err := a.Enlist(ctx, "w2"); err == nil {
		t.Error("a store enlisted twice")
	}
	start := time.Now()
	_, err := b.Enlist(ctx, "w")
	host0, _ := os.Hostname()
	if !errors.Is(err, ErrWorkerRunning) || !strings.Contains(err.Error(), host0) || !strings.Contains(err.Error(), "--worker NAME") {
		t.Fatalf("a second worker named w: %v; want ErrWorkerRunning saying where w runs", err)
	}
	if took := time.Since(start); took > workerLease+2*workerRenew {
		t.Errorf("the refusal took %v", took)
	}
	if _, err := b.Enlist(ctx, "v"); err != nil { // another name is free
		t.Fatal(err)
	}

	// a claims mails and the intake, and dies.
	err = a.Process(ctx, intake("<q@x>"), func(tx host.Tx) error {
		for _, to := range []string{"p@x", "q@x", "r@x"} {
			if err := tx.Queue(ctx, host.Mail{Recipient: to, Raw: []byte("hello")}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if got, err := a.Claim(ctx, "w", now, 5*time.Minute, 10); err != nil || len(got) != 3 {
		t.Fatalf("Claim = %d mails, %v", len(got), err)
	}
	if ok, err := a.HoldIntake(ctx, "w", time.Minute); err != nil || !ok {
		t.Fatalf("HoldIntake = %v, %v", ok, err)
	}
	close(a.worker.stop) // killed: no renewal, no word
	<-a.worker.done
	a.worker = nil
	if got, _ := b.Claim(ctx, "v", now, 5*time.Minute, 10); len(got) != 0 {
		t.Fatalf("v claimed %d of w's mails while w's claims last", len(got))
	}
	c := open(t, url)
	start = time.Now()
	n, err := c.Enlist(ctx, "w")
	if err != nil || n != 3 {
		t.Fatalf("w restarted: Enlist = %d, %v; want its 3 claims released", n, err)
	}
	if took := time.Since(start); took > workerLease+workerRenew {
		t.Errorf("w's restart waited %v for its name", took)
	}
	if got, _ := b.Claim(ctx, "v", now, 5*time.Minute, 1); len(got) != 1 {
		t.Errorf("after w's restart, another worker claims %d of its mails, want them free", len(got))
	}
	if ok, err := b.HoldIntake(ctx, "v", time.Minute); err != nil || !ok {
		t.Errorf("after w's restart, another worker takes the intake: %v, %v; want it free", ok, err)
	}

	// c, closed, gives the name and its claims up at once.
	if got, _ := c.Claim(ctx, "w", now, 5*time.Minute, 10); len(got) != 2 {
		t.Fatalf("w claims %d mails, want the 2 left", len(got))
	}
	c.Close()
	d := open(t, url)
	start = time.Now()
	if n, err := d.Enlist(ctx, "w"); err != nil || n != 0 {
		t.Fatalf("Enlist after a close = %d, %v; want the name, no claims left", n, err)
	}
	if took := time.Since(start); took > workerRenew {
		t.Errorf("the name of a worker closed took %v to get", took)
	}
	if got, _ := b.Claim(ctx, "v", now, 5*time.Minute, 10); len(got) != 3 {
		t.Errorf("after w closed, another worker claims %d mails, want its own one and w's 2", len(got))
	}

	// d stalls: its name lapses and another process takes it.
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE workers SET token = 'another', until = clock_timestamp() + interval '1 hour' WHERE name = 'w'`); err != nil {
		t.Fatal(err)
	}
	select {
	case <-d.Lost():
	case <-time.After(workerLease):
		t.Fatal("d is not told that its name was taken")
	}
}
