// Package gametest is the test kit every game's tests share, so that each
// game is held to the same checks in a few lines: its scenario files run
// as `herald scenario` runs them, with the rules they cite checked (Kit.
// Scenarios); golden files with -update (Golden); self-play from seeds,
// with the game's own invariants after every submission (Kit.SelfPlay),
// and the record adjudicated and the position round-tripped at the end
// (Kit.CheckRecord); and the bodies of the notation and position fuzz
// targets (Kit.CheckParse, Kit.CheckPosition), with the mutation of
// position documents that byte fuzzing seldom reaches (Mutate).
package gametest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"gopkg.in/yaml.v3"
)

// CheckGolden compares got with the file at path, or rewrites the file
// when update is set; a difference is reported at its first line.
func CheckGolden(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := GoldenDiff(path, got); err != nil {
		t.Error(err)
	}
}

// GoldenDiff returns nil when the file at path holds got, else what
// differs, at its first line.
func GoldenDiff(path, got string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%v (go test -update writes it)", err)
	}
	want := string(data)
	if got == want {
		return nil
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Errorf("%s: line %d differs:\n got %q\nwant %q\nfull text:\n%s", path, i+1, g, w, got)
		}
	}
	return nil
}

// Citations knows a rulebook's line count and the ids of RULINGS.md, so
// that every rule a scenario cites exists.
type Citations struct {
	rulebook string // its file name, as cited
	prefix   string // of the game's ruling ids: "RB", "L97"
	lines    int
	rulings  map[string]bool
	re       *regexp.Regexp
}

// NewCitations reads the rulebook at rulebookPath and the rulings file. It
// skips the test when the rulebook is not there.
func NewCitations(t *testing.T, rulebookPath, rulingsPath, prefix string) *Citations {
	t.Helper()
	name := filepath.Base(rulebookPath)
	c := &Citations{rulebook: name, prefix: prefix, rulings: map[string]bool{},
		re: regexp.MustCompile(`^(?:` + regexp.QuoteMeta(name) + `:(\d+)|RULINGS\.md (` + regexp.QuoteMeta(prefix) + `-\d+))$`)}
	data, err := os.ReadFile(rulebookPath)
	if err != nil {
		t.Skipf("rulebook not found: %v", err)
	}
	c.lines = strings.Count(string(data), "\n") + 1
	f, err := os.Open(rulingsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "### "); ok {
			c.rulings[strings.Fields(id)[0]] = true
		}
	}
	return c
}

// Check returns an error unless rule is FILE:LINE of the rulebook or
// RULINGS.md PREFIX-N of an existing ruling.
func (c *Citations) Check(rule string) error {
	m := c.re.FindStringSubmatch(rule)
	switch {
	case m == nil:
		return fmt.Errorf("%q is neither %s:LINE nor RULINGS.md %s-N", rule, c.rulebook, c.prefix)
	case m[1] != "":
		if n, _ := strconv.Atoi(m[1]); n < 1 || n > c.lines {
			return fmt.Errorf("%q: the rulebook has %d lines", rule, c.lines)
		}
	case !c.rulings[m[2]]:
		return fmt.Errorf("%q: RULINGS.md has no %s", rule, m[2])
	}
	return nil
}

// Mutated returns doc, a YAML document, with one thing changed by Mutate
// and written again.
func Mutated(t testing.TB, doc string, rng *adjudicator.RNG, pool []string) string {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Fatal(err)
	}
	Mutate(&n, rng, pool)
	var b bytes.Buffer
	if err := yaml.NewEncoder(&b).Encode(&n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Mutate changes one thing in a YAML document: a scalar's value (from
// pool), or drops or repeats an entry of a mapping or a list.
func Mutate(doc *yaml.Node, rng *adjudicator.RNG, pool []string) {
	var nodes []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		nodes = append(nodes, n)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc)
	n := nodes[1+rng.IntN(len(nodes)-1)]
	switch {
	case n.Kind == yaml.ScalarNode:
		n.Value = pool[rng.IntN(len(pool))]
		n.Tag, n.Style = "", 0
	case n.Kind == yaml.MappingNode && len(n.Content) >= 2:
		i := 2 * rng.IntN(len(n.Content)/2)
		if rng.IntN(2) == 0 {
			n.Content = append(n.Content[:i:i], n.Content[i+2:]...)
		} else {
			n.Content = append(n.Content, n.Content[i], n.Content[i+1])
		}
	case n.Kind == yaml.SequenceNode && len(n.Content) > 0:
		i := rng.IntN(len(n.Content))
		if rng.IntN(2) == 0 {
			n.Content = append(n.Content[:i:i], n.Content[i+1:]...)
		} else {
			n.Content = append(n.Content, n.Content[i])
		}
	}
}
