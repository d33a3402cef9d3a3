package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

// TestHostileFilesNoEscapes: a record or a scenario a stranger sends, whose
// strings hold escape sequences (a terminal's title, its screen cleared)
// or a bidirectional override, is refused with the line and column of the
// string, and nothing herald prints holds a control character: a referee
// runs adjudicate and scenario in a terminal (hostile campaign).
func TestHostileFilesNoEscapes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"move.yaml": "herald: 1\ngame: raubritter\nplayers: [alice, bob]\nseed_sha256: 6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b\nseed: \"1\"\nmoves:\n" +
			"  - player: alice\n    text: \"keep plain\\e]0;pwned\\a\\e[2J\"\n",
		"undone.yaml": "herald: 2\ngame: raubritter\nplayers: [alice, bob]\nseed_sha256: 6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b\nseed: \"1\"\nmoves: []\n" +
			"undone:\n  - after: 0\n    by: alice\n    source: \"mail:<x\\u202e@y>\"\n    moves: [{player: alice, text: keep plain}]\n",
		"scenario.yaml": "game: raubritter\nplayers: [red, blue]\nseed: 1\nmoves:\n  - player: red\n    steps: \"keep \\e[2Jplain\"\n    expect: legal\n",
		"rule.yaml":     "game: raubritter\nrule: \"l. 1\\e[2J\"\nplayers: [red, blue]\nseed: 1\n",
	}
	want := map[string]string{
		"move.yaml":     "move.yaml:8:11: text holds the control character U+001B (after \"keep plain\")",
		"undone.yaml":   "undone.yaml:10:13: source holds the control character U+202E (after \"mail:<x\")",
		"scenario.yaml": "scenario.yaml:6:12: steps holds the control character U+001B (after \"keep \")",
		"rule.yaml":     "rule.yaml:2:7: the rule checked holds the control character U+001B (after \"l. 1\")",
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := "adjudicate"
		if strings.HasPrefix(data, "game:") {
			cmd = "scenario"
		}
		r := herald(t, "", cmd, path)
		if r.code != 1 {
			t.Errorf("%s %s: exit %d, want 1:\n%v", cmd, name, r.code, r)
		}
		if !strings.Contains(r.stdout+r.stderr, want[name]) {
			t.Errorf("%s %s does not say %q:\n%v", cmd, name, want[name], r)
		}
		for _, out := range []string{r.stdout, r.stderr} {
			if c, _, bad := notation.Unprintable(out); bad {
				t.Errorf("%s %s printed %U:\n%q", cmd, name, c, out)
			}
		}
	}
}

// TestHostileFilesBounded: a scenario, a position, a turn file or an
// option's data file past 1 MiB is refused before it is read, with its
// size: each was read whole, so /dev/zero as any of them grew herald to
// gigabytes until it was killed (hostile campaign). The file here is a
// sparse 64 MiB one, which the old reading read whole.
func TestHostileFilesBounded(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rec := filepath.Join(dir, "game.yaml")
	if r := herald(t, "", "new", "raubritter", "--players", "a,b", "--seed", "1", "-o", rec); r.code != 0 {
		t.Fatal(r)
	}
	want := big + ": 67108864 bytes or more, more than herald reads of such a file (1048576 bytes)"
	for _, args := range [][]string{
		{"scenario", big},
		{"new", "raubritter", "--players", "a,b", "--position", big, "-o", filepath.Join(dir, "p.yaml")},
		{"turn", big, "--game", rec},
		{"new", "raubritter", "--players", "a,b", "--opt", "tiles=@" + big, "-o", filepath.Join(dir, "t.yaml")},
	} {
		r := herald(t, "", args...)
		if r.code == 0 || !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("herald %s: exit %d, want a refusal saying %q:\n%v", strings.Join(args, " "), r.code, want, r)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "p.yaml")); err == nil {
		t.Error("a refused position wrote a record")
	}
}

// TestHostileYAMLSaysWhy: a YAML alias bomb (a "billion laughs") in a
// scenario's expect, and nesting past yaml.v3's 10,000 levels in a
// scenario, a position, a turn file or a record, are refused with
// yaml.v3's real cause at their line (and column, where yaml.v3 gives a
// node): the bomb read "scores: expected null, got {...}", its cause
// swallowed.
func TestHostileYAMLSaysWhy(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "game.yaml")
	if r := herald(t, "", "new", "raubritter", "--players", "a,b", "--seed", "1", "-o", rec); r.code != 0 {
		t.Fatal(r)
	}
	bomb := `[&a ["x","x","x","x","x","x","x","x","x"]`
	for i, name := range "bcdefgh" {
		bomb += fmt.Sprintf(", &%c [%s]", name, strings.TrimSuffix(strings.Repeat("*"+string("abcdefgh"[i])+",", 9), ","))
	}
	bomb += "]"
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	const (
		expands = "the document expands too far through its aliases (yaml.v3: document contains excessive aliasing)"
		tooDeep = "nested too deep, past 10000 levels (yaml.v3: exceeded max depth of 10000)"
	)
	for _, c := range []struct {
		name, data string
		args       []string
		want       string
	}{
		{"bomb.yaml", "game: raubritter\nplayers: [a, b]\nseed: \"1\"\nexpect:\n  scores: " + bomb + "\n",
			[]string{"scenario"}, "bomb.yaml:5:120: expect: " + expands},
		{"deep.yaml", "game: raubritter\nplayers: [a, b]\nexpect:\n  scores: " + deep + "\n",
			[]string{"scenario"}, "deep.yaml:4:1: not a YAML scenario: " + tooDeep},
		{"position.yaml", "phase: play\nboard: " + deep + "\n",
			[]string{"new", "raubritter", "--players", "a,b", "-o", filepath.Join(dir, "p.yaml"), "--position"}, "position.yaml:2:1: not YAML: " + tooDeep},
		// yaml.v3 names no line for a fault on the first: no "position.yaml:0:".
		{"line1.yaml", "board: " + deep + "\n",
			[]string{"new", "raubritter", "--players", "a,b", "-o", filepath.Join(dir, "p.yaml"), "--position"}, "line1.yaml: not YAML: " + tooDeep},
		{"turn.yaml", "game: g1\nplayer: a\nmove: 1\nsteps: " + deep + "\n",
			[]string{"turn", "--game", rec}, "turn.yaml:4:1: not a YAML turn file: " + tooDeep},
		{"record.yaml", "herald: 1\ngame: raubritter\nmoves: " + deep + "\n",
			[]string{"adjudicate"}, "record.yaml:3:1: not a YAML game record: " + tooDeep},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, []byte(c.data), 0o600); err != nil {
				t.Fatal(err)
			}
			r := herald(t, "", append(c.args, path)...)
			if r.code != 1 || !strings.Contains(r.stdout+r.stderr, c.want) {
				t.Errorf("exit %d, want 1 and %q:\n%v", r.code, c.want, r)
			}
		})
	}
}
