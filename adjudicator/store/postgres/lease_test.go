package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
)

// TestIntakeLease checks that one worker at a time holds the intake: a
// second is refused while the first renews, takes over once the first
// stops renewing (it died) for the lease, and at once when the first
// releases it.
func TestIntakeLease(t *testing.T) {
	url := pgtest.URL(t)
	a, b := open(t, url), open(t, url)
	ctx := context.Background()
	const lease = 2 * time.Second
	hold := func(s *Store, w string, want bool) {
		t.Helper()
		got, err := s.HoldIntake(ctx, w, lease)
		if err != nil || got != want {
			t.Fatalf("HoldIntake(%s) = %v, %v; want %v", w, got, err, want)
		}
	}
	hold(a, "a", true)
	hold(b, "b", false)
	hold(a, "a", true) // renewed
	hold(b, "b", false)
	// a dies: it renews no more.
	start := time.Now()
	for {
		ok, err := b.HoldIntake(ctx, "b", lease)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Since(start) > 10*lease {
			t.Fatalf("b has not taken the intake over %v after a stopped renewing it", time.Since(start))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if took := time.Since(start); took < lease/2 {
		t.Errorf("b took the intake over %v after a's last renewal, before its lease of %v ran out", took, lease)
	}
	hold(a, "a", false)
	if err := a.ReleaseIntake(ctx, "a"); err != nil { // not a's: nothing happens
		t.Fatal(err)
	}
	hold(a, "a", false)
	if err := b.ReleaseIntake(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	hold(a, "a", true)
}
