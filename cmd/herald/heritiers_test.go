package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeritiersSolo plays the start of a solo game of Les Deux Héritiers
// through the CLI: new with one player and a level, a move after which
// Henri plays at once and says why, a move for Henri refused, legal, the position written and read
// back to the same bytes, adjudicate accepting Henri's moves, and a position at
// Henri's turn read with his turn played.
func TestHeritiersSolo(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "solo.yaml")
	ok := func(args ...string) result {
		t.Helper()
		r := herald(t, "", args...)
		if r.code != 0 {
			t.Fatalf("herald %s: %v", strings.Join(args, " "), r)
		}
		return r
	}
	ok("new", "heritiers", "--players", "alice", "--opt", "level=2", "--seed", "7", "-o", game)
	legal := ok("legal", game, "--as", "alice")
	if legal.stdout != "take 1\ntake 2\ntake 3\n" {
		t.Errorf("legal at the start:\n%s", legal.stdout)
	}
	r := ok("move", game, "--as", "alice", "prendre 1 ; ouvrir pèlerinage l12 ; fin")
	for _, want := range []string{"move 2 by henri (played by the game)", "take 1  (rule 1a: the top of the stack is yellow", "rule C: m12 is the first free place"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("move output lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := herald(t, "", "move", game, "--as", "henri", "take 1"); r.code != 2 || !strings.Contains(r.stderr, "not a player of this game") {
		t.Errorf("a move for henri: %v", r)
	}
	pos := ok("show", game, "--format", "position").stdout
	posFile := filepath.Join(dir, "pos.yaml")
	if err := os.WriteFile(posFile, []byte(pos), 0o644); err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(dir, "again.yaml")
	ok("new", "heritiers", "--players", "alice", "--position", posFile, "-o", again)
	if back := ok("show", again, "--format", "position").stdout; back != pos {
		t.Errorf("the position read back differs:\n%s\n---\n%s", pos, back)
	}
	adj := ok("adjudicate", game)
	if !strings.Contains(adj.stdout, "   2  henri  legal    take 1; build hôtel-2 m12") {
		t.Errorf("adjudicate:\n%s", adj.stdout)
	}
	atHenri := strings.Replace(pos, "turn: alice", "turn: henri", 1)
	if err := os.WriteFile(posFile, []byte(atHenri), 0o644); err != nil {
		t.Fatal(err)
	}
	henriTurn := filepath.Join(dir, "henri.yaml")
	ok("new", "heritiers", "--players", "alice", "--position", posFile, "-o", henriTurn)
	if after := ok("show", henriTurn, "--format", "position").stdout; !strings.Contains(after, "\nturn: alice\n") || after == pos {
		t.Errorf("a position at Henri's turn is read with his turn played:\n%s", after)
	}
}
