package adjudicator_test

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestCommitments follows the sealed counting game through a round: each
// sealed step gets a commitment when taken, the step that closes the round
// reveals them all, and every commitment is sha256 of the step, a line
// feed and its nonce, as README tells players to check it.
func TestCommitments(t *testing.T) {
	reg := adjudicator.NewRegistry(sealedGame)
	rec, err := adjudicator.NewRecord(sealedGame, []string{"alice", "bob"}, nil, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
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
	sub, err := m.Submit("alice", "add 2; end", "", "test")
	if err != nil {
		t.Fatal(err)
	}
	if cs := m.Commitments(sub); len(cs) != 0 {
		t.Errorf("the step that closes the round is sealed: %+v", cs)
	}
	after, err := m.SealedSteps(reg)
	if err != nil || len(after) != 0 {
		t.Fatalf("SealedSteps after the reveal = %+v, %v", after, err)
	}
	revealed := adjudicator.Revealed(before, after)
	ever, err := m.EverSealed(reg)
	if err != nil || len(revealed) != 2 || len(ever) != 2 {
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
	if err != nil || len(rep.Sealed) != 2 || rep.Sealed[0] != ever[0] || rep.Sealed[1] != ever[1] {
		t.Fatalf("Adjudicate: sealed %+v, %v; want %+v", rep.Sealed, err, ever)
	}
	var out strings.Builder
	rep.Write(&out)
	if !strings.Contains(out.String(), "nonce "+ever[1].Nonce+"  sha256 "+ever[1].Hash) {
		t.Errorf("adjudicate's report does not give the sealed steps:\n%s", out.String())
	}

	// Stable for a fixed seed, and different for another bid or seed.
	if got := adjudicator.SealNonce("s", 3, "alice", 1); got != "5dc349f1dc35882b65d9aaf4d1f24cf4" {
		t.Errorf("SealNonce changed: %s", got)
	}
	if adjudicator.Commitment("bid 3", "n") == adjudicator.Commitment("bid 4", "n") ||
		adjudicator.SealNonce("s", 3, "alice", 1) == adjudicator.SealNonce("t", 3, "alice", 1) {
		t.Error("commitments or nonces do not depend on the bid or the seed")
	}
}
