package adjudicator_test

import (
	"crypto/sha256"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// The first values of NewRNG("42"). They are part of the record format: if
// they change, every recorded game replays differently. Do not update them
// unless the format version changes.
func TestRNGPinned(t *testing.T) {
	r := adjudicator.NewRNG("42")
	if got, want := r.Uint64(), uint64(0x2eba210a7d6bf551); got != want {
		t.Errorf("Uint64() = %#x, want %#x", got, want)
	}
	var ints []int
	for range 10 {
		ints = append(ints, r.IntN(10))
	}
	if want := []int{2, 3, 8, 5, 7, 8, 8, 4, 0, 0}; !slices.Equal(ints, want) {
		t.Errorf("IntN(10) x 10 = %v, want %v", ints, want)
	}
	p := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	if want := []int{4, 1, 0, 7, 5, 6, 2, 9, 3, 8}; !slices.Equal(p, want) {
		t.Errorf("Shuffle(10) = %v, want %v", p, want)
	}
}

// TestRNGSpec checks NewRNG against its documented definition, built here
// from the standard library: ChaCha8 keyed with
// SHA-256("herald/rng/v1\x00" + seed), IntN by rejection from Uint64, and
// Fisher-Yates from the last element down.
func TestRNGSpec(t *testing.T) {
	for _, seed := range []string{"42", "", "a long seed with spaces and é"} {
		ref := rand.NewChaCha8(sha256.Sum256([]byte("herald/rng/v1\x00" + seed)))
		r := adjudicator.NewRNG(seed)
		for i := range 5 {
			if got, want := r.Uint64(), ref.Uint64(); got != want {
				t.Fatalf("seed %q: Uint64() #%d = %#x, want %#x", seed, i, got, want)
			}
		}
		for _, n := range []int{1, 2, 3, 10, 52, 1000} {
			// The rejection zone is far smaller than 2^-40 for these n.
			if got, want := r.IntN(n), int(ref.Uint64()%uint64(n)); got != want {
				t.Fatalf("seed %q: IntN(%d) = %d, want %d", seed, n, got, want)
			}
		}
		a := []int{0, 1, 2, 3, 4, 5}
		r.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
		b := []int{0, 1, 2, 3, 4, 5}
		for i := len(b) - 1; i > 0; i-- {
			j := int(ref.Uint64() % uint64(i+1))
			b[i], b[j] = b[j], b[i]
		}
		if !slices.Equal(a, b) {
			t.Fatalf("seed %q: Shuffle = %v, want %v", seed, a, b)
		}
	}
}

func TestRNGDeterministic(t *testing.T) {
	a, b, c := adjudicator.NewRNG("seed"), adjudicator.NewRNG("seed"), adjudicator.NewRNG("seed2")
	same := true
	for range 100 {
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		if x != y {
			t.Fatal("two RNGs with the same seed differ")
		}
		same = same && x == z
	}
	if same {
		t.Error("two RNGs with different seeds give the same stream")
	}
}

// TestRNGIntNUniform is a chi-square sanity check of IntN on a fixed seed.
func TestRNGIntNUniform(t *testing.T) {
	const n, draws = 10, 100_000
	r := adjudicator.NewRNG("uniformity")
	var counts [n]int
	for range draws {
		counts[r.IntN(n)]++
	}
	chi2 := 0.0
	expected := float64(draws) / n
	for _, c := range counts {
		d := float64(c) - expected
		chi2 += d * d / expected
	}
	// 9 degrees of freedom: P(chi2 > 27.88) = 0.001.
	if chi2 > 27.88 {
		t.Errorf("IntN(%d) counts %v: chi-square %.1f > 27.88", n, counts, chi2)
	}
	// A bound that is not a power of two and near 2^63 exercises the
	// rejection: every value must still be in range.
	big := 1<<62 + 12345
	for range 1000 {
		if v := r.IntN(big); v < 0 || v >= big {
			t.Fatalf("IntN(%d) = %d", big, v)
		}
	}
	for range 100 {
		if v := r.IntN(1); v != 0 {
			t.Fatalf("IntN(1) = %d", v)
		}
	}
}

func TestRNGIntNPanics(t *testing.T) {
	for _, n := range []int{0, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("IntN(%d) did not panic", n)
				}
			}()
			adjudicator.NewRNG("x").IntN(n)
		}()
	}
}

func TestRNGShuffleSmall(t *testing.T) {
	r := adjudicator.NewRNG("x")
	for _, n := range []int{0, 1} {
		r.Shuffle(n, func(i, j int) { t.Errorf("Shuffle(%d) swapped %d, %d", n, i, j) })
	}
	// Every permutation of three appears.
	seen := map[[3]int]bool{}
	for range 600 {
		p := [3]int{0, 1, 2}
		r.Shuffle(3, func(i, j int) { p[i], p[j] = p[j], p[i] })
		seen[p] = true
	}
	if len(seen) != 6 {
		t.Errorf("Shuffle(3) gave %d permutations in 600 tries, want 6", len(seen))
	}
}

func TestCommit(t *testing.T) {
	if got, want := adjudicator.Commit("42"), "73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049"; got != want {
		t.Errorf(`Commit("42") = %s, want %s`, got, want)
	}
	if got, want := adjudicator.Commit(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"; got != want {
		t.Errorf(`Commit("") = %s, want %s`, got, want)
	}
}

func TestNewSeed(t *testing.T) {
	a, b := adjudicator.NewSeed(), adjudicator.NewSeed()
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	if !hex32.MatchString(a) || !hex32.MatchString(b) {
		t.Errorf("NewSeed() = %q, %q; want 32 hex digits", a, b)
	}
	if a == b {
		t.Errorf("NewSeed() twice = %q", a)
	}
}
