package adjudicator

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	mrand "math/rand/v2"
)

// RNG is a game's deterministic random source.
//
// The algorithm is part of the record format, so a record replays to the
// same game on every machine and every Go release: the stream is ChaCha8
// (math/rand/v2's ChaCha8, whose output is fixed by the chacha8rand
// specification, c2sp.org/chacha8rand) keyed with
// SHA-256("herald/rng/v1\x00" + seed); IntN draws by rejection from
// Uint64 and Shuffle is Fisher-Yates from the last element down, both
// written here rather than borrowed from math/rand, whose algorithms may
// change.
type RNG struct {
	src *mrand.ChaCha8
}

// NewRNG returns the random source of a game with the given seed.
func NewRNG(seed string) *RNG {
	key := sha256.Sum256([]byte("herald/rng/v1\x00" + seed))
	return &RNG{src: mrand.NewChaCha8(key)}
}

// Uint64 returns the next 64 random bits.
func (r *RNG) Uint64() uint64 { return r.src.Uint64() }

// IntN returns a uniform integer in [0, n). It panics if n <= 0.
func (r *RNG) IntN(n int) int {
	if n <= 0 {
		panic("adjudicator: RNG.IntN with n <= 0")
	}
	bound := uint64(n)
	// Reject the top partial block so every value is equally likely.
	limit := ^uint64(0) - (^uint64(0)%bound+1)%bound
	for {
		v := r.src.Uint64()
		if v <= limit {
			return int(v % bound)
		}
	}
}

// Shuffle permutes n elements with swap, Fisher-Yates from the last down.
func (r *RNG) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.IntN(i+1))
	}
}

// Commit returns the seed commitment published at the start of a game: the
// lower-case hex SHA-256 of the seed's bytes. Anyone can check it with
// `printf %s SEED | sha256sum` once the seed is revealed.
func Commit(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return hex.EncodeToString(sum[:])
}

// NewSeed returns a fresh secret seed: 128 bits from the operating system's
// cryptographic source, in hex. A short seed such as "42" is fine for tests
// and self-play but can be guessed from its commitment; real games use this.
func NewSeed() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("adjudicator: crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
