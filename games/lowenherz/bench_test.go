package lowenherz

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
)

// BenchmarkRandomGame plays whole random games through Legal and Apply,
// from the setup to the end (target: 1,000 games a second per core).
func BenchmarkRandomGame(b *testing.B) {
	for i := range b.N {
		play(b, 2+i%3, fmt.Sprint(i), false, false)
	}
}

// BenchmarkWalledGame plays random games whose borders close domains, so
// that every action comes up.
func BenchmarkWalledGame(b *testing.B) {
	for i := range b.N {
		play(b, 2+i%3, fmt.Sprint(i), false, true)
	}
}

// BenchmarkLegalApply measures one Legal and one Apply, the median over a
// game reported as median-ns (target: 5 µs).
func BenchmarkLegalApply(b *testing.B) {
	var times []time.Duration
	for i := 0; i < b.N; {
		s := playSetup(b, 3, fmt.Sprint(i))
		rng := adjudicator.NewRNG(fmt.Sprint(i))
		for ; i < b.N && len(s.ToMove()) > 0; i++ {
			p := s.ToMove()[0]
			t0 := time.Now()
			l := s.Legal(p)
			if err := s.Apply(p, l[rng.IntN(len(l))]); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(t0))
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns")
	}
}

// BenchmarkRecompute measures the domain recomputation after a border.
func BenchmarkRecompute(b *testing.B) {
	s := playSetup(b, 4, "bench")
	e := Edge(sq(3, 3))
	for range b.N {
		s.border[e] = !s.border[e]
		s.recompute()
	}
}
