package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
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

// TestShowLang: show --lang fr writes the board's text and its pictures
// in French (the game's French title, « coup », the French legend), the
// PNG byte for byte the match's French picture; en is the default; a
// language herald does not write, and --lang with json or position (the
// same in every language), are usage errors that say what would do.
func TestShowLang(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "g.yaml")
	mustHerald(t, "new", "lowenherz97", "--players", "alice,bob", "--seed", "7", "-o", game)
	text := mustHerald(t, "show", game, "--lang", "fr").stdout
	if !strings.HasPrefix(text, "Löwenherz (édition originale de 1997), coup 1\n") || !strings.Contains(text, "mise en place : alice pose un château") {
		t.Errorf("show --lang fr:\n%s", text)
	}
	if fr := mustHerald(t, "show", game, "--lang", "Français").stdout; fr != text {
		t.Errorf("show --lang Français is not show --lang fr:\n%s", fr)
	}
	if en := mustHerald(t, "show", game, "--lang", "EN").stdout; en != mustHerald(t, "show", game).stdout || !strings.Contains(en, ", move 1\n") {
		t.Errorf("show --lang EN is not show's default English text:\n%s", en)
	}
	if svg := mustHerald(t, "show", game, "--format", "svg", "--lang", "fr").stdout; !strings.Contains(svg, "coup 1 : on attend alice") || strings.Contains(svg, "waiting for") {
		t.Errorf("show --format svg --lang fr is not French:\n%.600s", svg)
	}
	out := filepath.Join(dir, "fr.png")
	mustHerald(t, "show", game, "--format", "png", "--lang", "fr", "--out", out)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := load(game)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := adjudicator.PictureAtIn(m, len(m.Record.Moves), "Löwenherz (édition originale de 1997), coup 1", notation.French)
	if err != nil {
		t.Fatal(err)
	}
	want, err := pic.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("show --format png --lang fr: %d bytes, not the match's French picture (%d bytes)", len(got), len(want))
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"show", game, "--lang", "de"}, `--lang "de": expected en or fr`},
		{[]string{"show", game, "--format", "json", "--lang", "fr"}, "--format json is the same in every language; --lang is for text, svg and png"},
		{[]string{"show", game, "--format", "position", "--lang", "fr"}, "--format position is the same in every language"},
	} {
		if r := herald(t, "", tc.args...); r.code != 2 || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("herald %s: exit %d, want 2 and %q\n%v", strings.Join(tc.args, " "), r.code, tc.msg, r)
		}
	}
}
