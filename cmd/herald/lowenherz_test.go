package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLowenherzCLI walks a Löwenherz game through the CLI: new (with a
// tile file), legal, move in French, show --format position, new
// --position from it (byte for byte the same position back), and
// adjudicate.
func TestLowenherzCLI(t *testing.T) {
	dir := t.TempDir()
	path := func(n string) string { return filepath.Join(dir, n) }
	must := func(code int, args ...string) result {
		t.Helper()
		r := herald(t, "", args...)
		if r.code != code {
			t.Fatalf("want exit %d:\n%v", code, r)
		}
		return r
	}
	tiles, err := os.ReadFile("../../games/lowenherz/tiles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path("tiles.yaml"), tiles, 0o644); err != nil {
		t.Fatal(err)
	}
	must(0, "new", "lowenherz", "--players", "alice,bob,carol", "--seed", "7", "--opt", "tiles=@"+path("tiles.yaml"), "--opt", "layout=fixed", "-o", path("g.yaml"))
	legal := must(0, "legal", path("g.yaml"), "--as", "alice").stdout
	if !strings.HasPrefix(legal, "castle a1 knight ") {
		t.Fatalf("legal setup steps:\n%s", legal)
	}
	r := must(1, "move", path("g.yaml"), "--as", "alice", "château c1 chevalier d1")
	if !strings.Contains(r.stderr, "un château se place sur un pré") {
		t.Fatalf("a castle on a mine, in French:\n%v", r)
	}
	must(0, "move", path("g.yaml"), "--as", "alice", "château a1 chevalier b1")
	must(1, "move", path("g.yaml"), "--as", "alice", "castle h1 knight g1")
	pos := must(0, "show", path("g.yaml"), "--format", "position").stdout
	if err := os.WriteFile(path("pos.yaml"), []byte(pos), 0o644); err != nil {
		t.Fatal(err)
	}
	must(0, "new", "lowenherz", "--players", "alice,bob,carol", "--position", path("pos.yaml"), "-o", path("h.yaml"))
	if again := must(0, "show", path("h.yaml"), "--format", "position").stdout; again != pos {
		t.Fatalf("the position read back differs:\n%s\n---\n%s", pos, again)
	}
	board := must(0, "show", path("h.yaml"), "--as", "bob").stdout
	if !strings.Contains(board, "bob's hand: ") || strings.Contains(board, "alice's hand") {
		t.Fatalf("bob's view:\n%s", board)
	}
	must(0, "adjudicate", path("g.yaml"))
	must(0, "play", "lowenherz", "--players", "4", "--seed", "3", "-q", "-o", path("p.yaml"))
	must(0, "adjudicate", path("p.yaml"))
	bad := strings.Replace(pos, "pieces:", "pieces:\n  b2: alice tower", 1)
	if err := os.WriteFile(path("bad.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	r = must(1, "new", "lowenherz", "--players", "alice,bob,carol", "--position", path("bad.yaml"), "-o", path("i.yaml"))
	if !strings.Contains(r.stderr, "b2: expected a colour and castle or knight") {
		t.Fatalf("a bad position:\n%v", r)
	}
}
