package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEExamples runs the command-line examples of README.md, the
// blocks whose lines begin with "$ herald", in a fresh directory each, and
// checks that each command prints what the README shows (issue 26, README),
// the repository's testdata at hand:
// the lines under a command are its output, standard output and error
// together; a last line "…" stands for the rest of it, which is not
// compared. Spaces at the ends of lines are not compared.
func TestREADMEExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(string(readme))
	if len(blocks) == 0 {
		t.Fatal("README.md has no example of the command line")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range blocks {
		t.Run(b[0].line, func(t *testing.T) {
			// As at the root of the repository, but for the files the
			// example writes.
			dir := t.TempDir()
			if err := os.Symlink(filepath.Join(root, "testdata"), filepath.Join(dir, "testdata")); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			for _, c := range b {
				args, err := shellWords(strings.TrimPrefix(c.line, "$ herald "))
				if err != nil {
					t.Fatalf("block %d: %q: %v", i+1, c.line, err)
				}
				var out bytes.Buffer
				run(context.Background(), args, strings.NewReader(""), &out, &out)
				got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
				want, rest := c.output, false
				if n := len(want); n > 0 && want[n-1] == "…" {
					want, rest = want[:n-1], true
				}
				if rest && len(got) > len(want) {
					got = got[:len(want)]
				}
				if !equalTrimmed(got, want) {
					t.Errorf("%s\nprints:\n%s\nREADME.md shows:\n%s", c.line, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		})
	}
}

// readmeCommand is a command of a README example and the output shown.
type readmeCommand struct {
	line   string
	output []string
}

// readmeBlocks returns the fenced blocks of readme that hold "$ herald"
// commands, each as its commands.
func readmeBlocks(readme string) [][]readmeCommand {
	var blocks [][]readmeCommand
	var cur []readmeCommand
	in := false
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			if in && len(cur) > 0 {
				blocks = append(blocks, cur)
			}
			in, cur = !in, nil
		case !in:
		case strings.HasPrefix(line, "$ herald "):
			cur = append(cur, readmeCommand{line: line})
		case len(cur) > 0:
			cur[len(cur)-1].output = append(cur[len(cur)-1].output, line)
		}
	}
	return blocks
}

// shellWords splits a command line as sh would one with single quotes and
// no other quoting.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, w.String())
				w.Reset()
			}
			inWord = false
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, os.ErrInvalid
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// equalTrimmed reports whether a and b hold the same lines but for spaces
// at their ends.
func equalTrimmed(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.TrimRight(a[i], " ") != strings.TrimRight(b[i], " ") {
			return false
		}
	}
	return true
}
