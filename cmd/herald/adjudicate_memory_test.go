package main

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
)

// paddedRecord writes a raubritter record of about size bytes, padded with
// moves, as the attack of issue 25, item 6 did, and returns its path.
func paddedRecord(t *testing.T, size int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("herald: 1\ngame: raubritter\nplayers: [p1, p2]\nseed_sha256: " + adjudicator.Commit("s") + "\nseed: s\nmoves:\n")
	move := "  - player: p1\n    text: keep plain\n"
	for b.Len()+len(move) <= size {
		b.WriteString(move)
	}
	path := filepath.Join(t.TempDir(), "padded.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// heapGrowth runs f and returns how much the live heap grew at its peak,
// sampled every 200 µs.
func heapGrowth(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(20)) // little garbage: the peak is what is live
	runtime.GC()
	read := func() uint64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	base := read()
	var peak atomic.Uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	f()
	close(done)
	<-finished
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// TestAdjudicateMemory adjudicates the largest record herald reads and a
// 32 MB one (issue 25, item 6: 1.97 GB before): the first stays well under
// 256 MB, the second is refused before it is read, with an error that says
// why.
func TestAdjudicateMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 32 MB record")
	}
	const budget = 256 << 20
	for _, tc := range []struct {
		name    string
		size    int
		refused bool
	}{
		{"at-the-limit", adjudicator.MaxRecordBytes, false},
		{"32MB", 32 << 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := paddedRecord(t, tc.size)
			var r result
			grew := heapGrowth(func() { r = herald(t, "", "adjudicate", path) })
			t.Logf("a %d-byte record: heap grew by %.1f MiB", tc.size, float64(grew)/(1<<20))
			if grew > budget {
				t.Errorf("adjudicating a %d-byte record grew the heap by %.1f MiB, want under %d MiB", tc.size, float64(grew)/(1<<20), budget>>20)
			}
			if r.code != 1 {
				t.Fatalf("want exit 1 (the padding is illegal, or the file too large):\n%v", r)
			}
			tooLarge := strings.Contains(r.stderr, "more than a game record can be")
			if tooLarge != tc.refused {
				t.Errorf("refused as too large: %v, want %v:\n%v", tooLarge, tc.refused, r)
			}
			if tc.refused && grew > 8<<20 {
				t.Errorf("refusing a %d-byte record grew the heap by %.1f MiB: it was read", tc.size, float64(grew)/(1<<20))
			}
		})
	}
}
