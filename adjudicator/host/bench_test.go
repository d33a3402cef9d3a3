package host_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/raubritter"
)

// BenchmarkTickSweep measures the host's deadline sweep over 10,000 live
// games with deadlines in one store (issue 19): an idle sweep (nothing
// due, the common case: one indexed query), and a sweep that sends every
// game's reminders (each game its own request). It reports the heap in
// use with the 10,000 games' clocks and cached matches.
func BenchmarkTickSweep(b *testing.B) {
	const games = 10000
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "herald.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	clock := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	h, err := host.New(host.Config{Registry: adjudicator.NewRegistry(raubritter.Game), Store: st, Now: func() time.Time { return clock },
		NewSeed: func() string { return "bench" }})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; i < games; i += 500 {
		batch, err := h.Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for j := i; j < i+500; j++ {
			err := batch.Do(ctx, host.Intake{MessageID: fmt.Sprintf("new-%d", j), Sender: "h@x", Received: clock}, func(s *host.Session) error {
				_, _, err := s.Create(ctx, host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{fmt.Sprintf("a%d@x.org", j), fmt.Sprintf("b%d@x.org", j)},
					Timing: host.Timing{Deadline: 72 * time.Hour}})
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := batch.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	none := func(*host.Session, []host.Notice) error { return nil }
	b.Run("idle", func(b *testing.B) {
		for b.Loop() {
			if n, err := h.Tick(ctx, clock.Add(time.Hour), none); err != nil || n != 0 {
				b.Fatal(n, err)
			}
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
	})
	b.Run("reminders", func(b *testing.B) {
		at := clock.Add(54 * time.Hour) // 75% of 72h
		sent := 0
		for b.Loop() {
			n, err := h.Tick(ctx, at, func(_ *host.Session, ns []host.Notice) error { sent += len(ns); return nil })
			if err != nil {
				b.Fatal(err)
			}
			if n != games && n != 0 {
				b.Fatalf("a sweep did %d games' work, want all %d or (done already) none", n, games)
			}
			at = at.Add(time.Nanosecond)
		}
		b.ReportMetric(float64(sent), "notices")
	})
}
