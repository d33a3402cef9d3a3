package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMoveSealed plays a Löwenherz 1997 confrontation with herald move:
// each bid that stays sealed prints its commitment, and the last bid prints
// every bid of the round with its nonce, each nonce checking its
// commitment as README says (issue 18; lowenherz-1997-fr.txt:214-215).
func TestMoveSealed(t *testing.T) {
	dir := t.TempDir()
	pos, game := filepath.Join(dir, "pos.yaml"), filepath.Join(dir, "g.yaml")
	if err := os.WriteFile(pos, []byte("card: B 6d 2w 1s\ncastles: {a1: fabienne, n1: georges, o10: henri, a10: ines}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustHerald(t, "new", "lowenherz97", "--players", "fabienne,georges,henri,ines", "--position", pos, "--seed", "s", "-o", game)
	for _, mv := range [][2]string{{"fabienne", "choose 2"}, {"georges", "choose 2"}, {"henri", "choose 2"}, {"ines", "choose 1"}} {
		mustHerald(t, "move", game, "--as", mv[0], mv[1])
	}
	commit := regexp.MustCompile(`sealed, hidden from the others until revealed: (bid \d+), commitment sha256 ([0-9a-f]{64})`)
	told := map[string]string{}
	for _, mv := range [][2]string{{"henri", "bid 2"}, {"fabienne", "bid 4"}} {
		out := mustHerald(t, "move", game, "--as", mv[0], mv[1]).stdout
		m := commit.FindStringSubmatch(out)
		if m == nil || m[1] != mv[1] {
			t.Fatalf("%s's %q prints no commitment:\n%s", mv[0], mv[1], out)
		}
		told[mv[0]] = m[2]
	}
	out := mustHerald(t, "move", game, "--as", "georges", "bid 5").stdout
	if commit.MatchString(out) {
		t.Errorf("the last bid is said sealed, though it reveals the round:\n%s", out)
	}
	reveal := regexp.MustCompile(`move \d+, (\w+): (bid \d+)  nonce ([0-9a-f]{32})  sha256 ([0-9a-f]{64})`)
	got := reveal.FindAllStringSubmatch(out, -1)
	if len(got) != 3 {
		t.Fatalf("the last bid reveals %d bids, want 3:\n%s", len(got), out)
	}
	for _, r := range got {
		sum := sha256.Sum256([]byte(r[2] + "\n" + r[3]))
		if hex.EncodeToString(sum[:]) != r[4] || (told[r[1]] != "" && told[r[1]] != r[4]) {
			t.Errorf("%s's revealed %q does not check against its commitment:\n%s", r[1], r[2], out)
		}
	}
	if adj := mustHerald(t, "adjudicate", game).stdout; !strings.Contains(adj, got[2][3]) {
		t.Errorf("adjudicate does not give georges's nonce:\n%s", adj)
	}
}
