package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlayBots: play --bots plays a game between bots to the end, the
// same for the same seed, not the random players' game, and adjudicate
// accepts its record.
func TestPlayBots(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "b.yaml")
	args := []string{"play", "raubritter", "--players", "2", "--seed", "7", "--bots", "--iterations", "4", "-q"}
	r := mustHerald(t, append(args, "-o", rec)...)
	if l := lines(r.stdout); len(l) != 1 || !strings.Contains(l[0], " moves; scores: p1 ") {
		t.Errorf("play --bots -q prints one result line:\n%v", r)
	}
	a := mustHerald(t, "adjudicate", rec)
	if !strings.Contains(a.stdout, "\nresult: ") || strings.Contains(a.stdout, "not finished") {
		t.Errorf("adjudicate of a game between bots:\n%v", a)
	}
	mustHerald(t, append(args, "-o", filepath.Join(dir, "b2.yaml"))...)
	mustHerald(t, "play", "raubritter", "--players", "2", "--seed", "7", "-q", "-o", filepath.Join(dir, "r.yaml"))
	b1, _ := os.ReadFile(rec)
	b2, _ := os.ReadFile(filepath.Join(dir, "b2.yaml"))
	random, _ := os.ReadFile(filepath.Join(dir, "r.yaml"))
	if string(b1) != string(b2) {
		t.Errorf("play --bots is not deterministic:\n%s", firstDiff(string(b1), string(b2)))
	}
	if string(b1) == string(random) {
		t.Error("play --bots played the random players' game")
	}
	// At a level, the record lists the bots and adjudicate plays each
	// move again (RULINGS.md H-6); with --iterations nothing can check
	// the moves, and the record says selfplay.
	lv := filepath.Join(dir, "lv.yaml")
	mustHerald(t, "play", "raubritter", "--players", "2", "--seed", "7", "--bots", "--level", "1", "-q", "-o", lv)
	lb, _ := os.ReadFile(lv)
	if !strings.Contains(string(lb), "\nbots: {p1: 1, p2: 1}\n") || strings.Contains(string(lb), "selfplay") {
		t.Errorf("play --bots --level 1: the record does not list its bots, or has selfplay moves:\n%s", lb)
	}
	a = mustHerald(t, "adjudicate", lv)
	if n := strings.Count(a.stdout, "(bot:1: the bot's move, played again)"); n < 10 || strings.Contains(a.stdout, "illegal") {
		t.Errorf("adjudicate of a game between bots of level 1: %d moves played again:\n%v", n, a)
	}
	if !strings.Contains(string(b1), "source: selfplay") || strings.Contains(string(b1), "bots:") {
		t.Errorf("play --bots --iterations 4: the record should hold selfplay moves and no bots:\n%s", b1)
	}
	runCases(t, []cliCase{
		{name: "level 4", args: []string{"play", "raubritter", "--bots", "--level", "4"}, code: 2,
			stderr: []string{"--level is 1 to 3 and --iterations not negative, not 4 and 0"}},
		{name: "iterations -1", args: []string{"play", "raubritter", "--bots", "--iterations", "-1"}, code: 2,
			stderr: []string{"not 1 and -1"}},
	})
}
