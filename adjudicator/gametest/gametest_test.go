package gametest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"gopkg.in/yaml.v3"
)

func TestCitations(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.txt")
	rulings := filepath.Join(dir, "RULINGS.md")
	os.WriteFile(book, []byte("a\nb\nc\n"), 0o644)
	os.WriteFile(rulings, []byte("### X-1 One\n### X-2 Two\n"), 0o644)
	c := NewCitations(t, book, rulings, "X")
	for rule, ok := range map[string]bool{"book.txt:3": true, "book.txt:9": false, "RULINGS.md X-2": true, "RULINGS.md X-3": false, "other.txt:1": false} {
		if err := c.Check(rule); (err == nil) != ok {
			t.Errorf("Check(%q) = %v", rule, err)
		}
	}
}

func TestGoldenAndMutate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	CheckGolden(t, path, "one\ntwo\n", true)
	CheckGolden(t, path, "one\ntwo\n", false)
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\nb: [x, y]\n"), &doc); err != nil {
		t.Fatal(err)
	}
	rng := adjudicator.NewRNG("m")
	for range 20 {
		Mutate(&doc, rng, []string{"z"})
	}
	if _, err := yaml.Marshal(&doc); err != nil {
		t.Fatal(err)
	}
}

func TestEnglishLeft(t *testing.T) {
	text := "main d'alice : B 2 frontières\nà jouer : alice's knights, hand; tiles\n"
	got := EnglishLeft(text, "knights", "tile", "hand", "alice", "main", "s")
	if want := []string{"knights", "hand", "alice", "main", "s"}; !slices.Equal(got, want) {
		t.Errorf("EnglishLeft = %q, want %q", got, want)
	}
	if got := EnglishLeft(text, "tile", "frontière"); got != nil {
		t.Errorf("EnglishLeft(text, tile, frontière) = %q, want none", got)
	}
}
