package adjudicator_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestCommitments follows the sealed counting game through a round: each
// sealed step gets a commitment when taken, the step that closes the round
// reveals them all, and every commitment is sha256 of the step, a line
// feed and its nonce, as README tells players to check it.
func TestCommitments(t *testing.T) {
	reg, m := sealedMatch(t)
	var told []adjudicator.SealCommit
	for i, s := range []string{"add 2; end", "add 2; end"} {
		sub, err := m.Submit([]string{"alice", "bob"}[i%2], s, "", "test")
		if err != nil {
			t.Fatal(err)
		}
		cs := m.Commitments(sub)
		if len(cs) != 1 || cs[0].Move != i+1 || cs[0].Step != 1 || cs[0].Text != "add 2" {
			t.Fatalf("move %d: commitments %+v, want one for its add", i+1, cs)
		}
		told = append(told, cs...)
	}
	before, err := m.SealedSteps(reg)
	if err != nil || len(before) != 2 {
		t.Fatalf("SealedSteps before the reveal = %+v, %v", before, err)
	}
	// The last step of the round is sealed when taken (its bidder gets its
	// commitment) and revealed by the same move, with the others.
	sub, err := m.Submit("alice", "add 2; end", "", "test")
	if err != nil {
		t.Fatal(err)
	}
	cs := m.Commitments(sub)
	if len(cs) != 1 || cs[0].Move != 3 || cs[0].Step != 1 {
		t.Errorf("the step that closes the round has commitments %+v, want one", cs)
	}
	told = append(told, cs...)
	after, err := m.SealedSteps(reg)
	if err != nil || len(after) != 0 {
		t.Fatalf("SealedSteps after the reveal = %+v, %v", after, err)
	}
	revealed := adjudicator.Revealed(append(before, cs...), after)
	ever, err := m.EverSealed(reg)
	if err != nil || len(revealed) != 3 || len(ever) != 3 {
		t.Fatalf("revealed %+v, ever sealed %+v, %v", revealed, ever, err)
	}
	for i, c := range revealed {
		if c != told[i] || c != ever[i] {
			t.Errorf("the reveal of move %d (%+v) is not what its bidder was told (%+v) or what adjudicate shows (%+v)", c.Move, c, told[i], ever[i])
		}
		sum := sha256.Sum256([]byte(c.Text + "\n" + c.Nonce))
		if c.Hash != hex.EncodeToString(sum[:]) || len(c.Nonce) != 32 {
			t.Errorf("commitment %+v is not sha256(text, LF, nonce)", c)
		}
	}
	// adjudicate shows the same, for anyone to check once the seed is out.
	rep, err := adjudicator.Adjudicate(reg, m.Record)
	if err != nil || !slices.Equal(rep.Sealed, ever) {
		t.Fatalf("Adjudicate: sealed %+v, %v; want %+v", rep.Sealed, err, ever)
	}
	var out strings.Builder
	rep.Write(&out)
	if !strings.Contains(out.String(), "nonce "+ever[1].Nonce+"  sha256 "+ever[1].Hash) {
		t.Errorf("adjudicate's report does not give the sealed steps:\n%s", out.String())
	}

	// Stable for a fixed seed, and different for another bid or seed.
	if got := adjudicator.SealNonce("s", 3, "alice", 1); got != "55c75e7b192e076a0e94f43a8bb9d619" {
		t.Errorf("SealNonce changed: %s", got)
	}
	if adjudicator.Commitment("bid 3", "n") == adjudicator.Commitment("bid 4", "n") ||
		adjudicator.SealNonce("s", 3, "alice", 1) == adjudicator.SealNonce("t", 3, "alice", 1) {
		t.Error("commitments or nonces do not depend on the bid or the seed")
	}
}

// TestSealNonceTellsNothingOfTheSeed checks that the nonces cannot be
// computed from what every record publishes, the seed's SHA-256: HMAC
// hashes a key longer than 64 bytes, so a long seed used as the key would
// be replaced by exactly that published hash.
func TestSealNonceTellsNothingOfTheSeed(t *testing.T) {
	for _, seed := range []string{"s", strings.Repeat("a long seed, ", 10)} {
		published := sha256.Sum256([]byte(seed))
		for _, key := range [][]byte{[]byte(seed), published[:], []byte(hex.EncodeToString(published[:]))} {
			mac := hmac.New(sha256.New, key)
			fmt.Fprintf(mac, "herald sealed step\x00%d\x00%s\x00%d", 3, "alice", 1)
			if hex.EncodeToString(mac.Sum(nil)[:16]) == adjudicator.SealNonce(seed, 3, "alice", 1) {
				t.Errorf("seed of %d bytes: the nonce is an HMAC keyed by %q, computable from the published seed_sha256", len(seed), key)
			}
		}
	}
}
