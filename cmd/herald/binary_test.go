package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// execStep runs the real binary in dir (heraldExec) and fails t unless it
// exits with code; a command that fails must leave dir as it was.
func execStep(t testing.TB, dir string, code int, stdin string, args ...string) result {
	t.Helper()
	before := snapshot(t, dir)
	r := heraldExec(t, dir, stdin, args...)
	if r.code != code {
		t.Fatalf("want exit %d, got:\n%v", code, r)
	}
	if code != 0 {
		checkUnchanged(t, dir, before, r)
	}
	return r
}

// wantOutput reports where r's standard output lacks out or its standard
// error lacks errOut.
func wantOutput(t testing.TB, r result, out, errOut string) {
	t.Helper()
	if !strings.Contains(r.stdout, out) {
		t.Errorf("stdout lacks %q:\n%v", out, r)
	}
	if !strings.Contains(r.stderr, errOut) {
		t.Errorf("stderr lacks %q:\n%v", errOut, r)
	}
}

// TestBinary drives the real herald binary, built by TestMain, the way a
// user at a shell does: relative file names, exit statuses, standard input.
func TestBinary(t *testing.T) {
	dir := t.TempDir()
	fixture(t, dir, "turn-alice-3.yaml")
	fixture(t, dir, "finished-2p.yaml")
	fixture(t, dir, "tampered.yaml")
	step := func(code int, stdin string, args ...string) result {
		t.Helper()
		return execStep(t, dir, code, stdin, args...)
	}

	wantOutput(t, step(0, "", "games"), "raubritter   2-4 players", "")
	wantOutput(t, step(0, "", "--help"), "Exit status: 0 done, 1 rejected (files unchanged), 2 usage error.", "")
	wantOutput(t, step(0, "", "move", "--help"), "usage: herald move FILE --as PLAYER 'STEPS'", "")
	if r := step(2, ""); r.stdout != "" || !strings.Contains(r.stderr, "usage:") {
		t.Errorf("herald alone prints its usage on stderr:\n%v", r)
	}
	wantOutput(t, step(2, "", "frob"), "", `herald: unknown command "frob"`)

	wantOutput(t, step(0, "", "new", "raubritter", "--players", "alice,bob", "--seed", "42", "-o", "game.yaml"),
		"game.yaml: new raubritter game for alice, bob\nseed commitment (publish it): sha256 ", "")
	r := step(2, "", "new", "raubritter", "--players", "alice,bob", "-o", "game.yaml")
	if !strings.HasPrefix(r.stderr, "herald new: game.yaml exists; herald new never overwrites a record: choose another -o or remove it\n") {
		t.Errorf("new over an existing file:\n%v", r)
	}
	// Flags after the positional arguments, and between them.
	wantOutput(t, step(0, "", "move", "game.yaml", "--as", "alice", "keep plain village"), "move 1 by alice applied:\n  keep plain village\n", "")
	wantOutput(t, step(0, "", "move", "game.yaml", "garde plaine", "--as", "bob"), "move 2 by bob applied:\n  keep plain\n", "")
	wantOutput(t, step(1, "", "move", "game.yaml", "--as", "bob", "end"), "", "step 1: 1:1: it is not bob's turn: waiting for alice [rule: raubritter-fr-scan.txt:87]\n  end\n  ^\n")
	wantOutput(t, step(1, "", "move", "game.yaml", "--as", "alice", "plaine château a1"), "", "[règle : raubritter-fr-scan.txt:121]")
	r = step(2, "", "move", "game.yaml", "--as", "carol", "end")
	if !strings.HasPrefix(r.stderr, "herald move: --as carol: not a player") {
		t.Errorf("move as a stranger:\n%v", r)
	}
	// STEPS from standard input.
	wantOutput(t, step(0, "plain castle f5\nknights 1\nend\n", "move", "game.yaml", "--as", "alice", "-"), "move 3 by alice applied:\n  plain castle f5\n  knights 1\n  end\n", "")
	wantOutput(t, step(1, "", "turn", "turn-alice-3.yaml", "--game", "game.yaml"), "",
		"turn-alice-3.yaml: the turn file answers move 3, but the game is at move 4; it is stale (move 3 was played already): look at the board again with show\n")

	var v jsonView
	r = step(0, "", "show", "game.yaml", "--format", "json", "--as", "bob")
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("%v\n%v", err, r)
	}
	if v.MoveNumber != 4 || len(v.ToMove) != 1 || v.ToMove[0] != "bob" || v.Scores["alice"] != 1 || v.As != "bob" || v.Private == nil {
		t.Errorf("show --format json --as bob: %+v", v)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "game.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(rec), "time: \""+fixedTime+"\"") != 3 {
		t.Errorf("the record does not hold HERALD_TIME for each move:\n%s", rec)
	}

	adj := step(0, "", "adjudicate", "game.yaml")
	wantOutput(t, adj, "   3  alice  legal    plain castle f5; knights 1; end\n\nsealed steps", "")
	wantOutput(t, adj, "\nscores: alice 1, bob 0\nresult: not finished; waiting for bob\n", "")
	wantOutput(t, step(1, "", "adjudicate", "tampered.yaml"), "   4  p2  ILLEGAL  ", "tampered.yaml: move 4 is illegal\n")
	// The binary and run agree, byte for byte.
	a := step(0, "", "adjudicate", "finished-2p.yaml")
	if b := mustHerald(t, "adjudicate", filepath.Join(dir, "finished-2p.yaml")); a.stdout != b.stdout {
		t.Errorf("the binary and run differ:\n%s", firstDiff(b.stdout, a.stdout))
	}

	wantOutput(t, step(0, "", "play", "raubritter", "--players", "4", "--seed", "5", "-q", "-o", "p4.yaml"), " moves; scores: p1 ", "")
	wantOutput(t, step(0, "", "adjudicate", "p4.yaml"), "4 players (p1, p2, p3, p4)", "")
	wantOutput(t, step(2, "", "play", "raubritter", "--players", "1"), "", "herald play: raubritter is for 2 to 4 players, not 1\n")
	checkNoTemp(t, dir)
}

// TestScenarioOutputInOrder runs the real binary's scenario with its
// standard output and error on one pipe, as a terminal or `2>&1` shows
// them: one PASS or FAIL line per file in the order given, then the
// summary as the last line, "ok" with exit 0 or "FAIL" with exit 1. The
// summary went to stderr and the FAIL lines to stdout, so the two came
// out interleaved.
func TestScenarioOutputInOrder(t *testing.T) {
	dir := t.TempDir()
	pass, fail := fixture(t, dir, "scenario-pass.yaml"), fixture(t, dir, "scenario-fail.yaml")
	missing := filepath.Join(dir, "nope.yaml")
	for _, c := range []struct {
		name  string
		files []string
		code  int
		want  []string // each line's start
	}{
		{"all pass", []string{pass, pass}, 0, []string{"PASS " + pass, "PASS " + pass, "ok: 2 scenarios passed"}},
		{"one passes", []string{pass}, 0, []string{"PASS " + pass, "ok: 1 scenario passed"}},
		{"failures", []string{fail, pass, missing}, 1,
			[]string{"FAIL " + fail + ": after the moves", "PASS " + pass, "FAIL " + missing + ": ", "FAIL: 2 of 3 scenarios failed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(heraldBin, append([]string{"scenario"}, c.files...)...)
			cmd.Dir = dir
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			ok := code == c.code && len(got) == len(c.want)
			for i := 0; ok && i < len(got); i++ {
				ok = strings.HasPrefix(got[i], c.want[i])
			}
			if !ok {
				t.Errorf("exit %d, output:\n%s\nwant exit %d and lines starting:\n%s", code, out.String(), c.code, strings.Join(c.want, "\n"))
			}
		})
	}
}
