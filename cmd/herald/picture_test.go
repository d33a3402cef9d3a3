package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShowPicture draws the board with show --format svg and png (issue
// 20): SVG on standard output, PNG into a new file with --out; --out with
// another format, an --as with a picture, and an --out that exists are
// usage errors.
func TestShowPicture(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "g.yaml")
	mustHerald(t, "new", "lowenherz97", "--players", "alice,bob,carol", "--seed", "7", "-o", game)
	r := mustHerald(t, "show", game, "--format", "svg")
	if !strings.HasPrefix(r.stdout, "<svg xmlns=") || !strings.Contains(r.stdout, "alice") {
		t.Errorf("show --format svg:\n%.300s", r.stdout)
	}
	out := filepath.Join(dir, "board.png")
	mustHerald(t, "show", game, "--format", "png", "--out", out)
	data, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("show --format png --out: %d bytes, %v", len(data), err)
	}
	for _, args := range [][]string{
		{"show", game, "--format", "text", "--out", filepath.Join(dir, "x")},
		{"show", game, "--format", "svg", "--as", "alice"},
		{"show", game, "--format", "png", "--out", out},
	} {
		if r := herald(t, "", args...); r.code != 2 {
			t.Errorf("herald %s: exit %d, want 2 (usage)\n%v", strings.Join(args, " "), r.code, r)
		}
	}
}
