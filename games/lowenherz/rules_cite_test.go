package lowenherz

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRuleReferences: every rule an error cites is a line of the texts or
// a ruling of RULINGS.md.
func TestRuleReferences(t *testing.T) {
	src, err := os.ReadFile("lowenherz.go")
	if err != nil {
		t.Fatal(err)
	}
	rulings, err := os.ReadFile("../../RULINGS.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for _, f := range []string{"lowenherz-2003-fr-scan.txt", "lowenherz-2003-fr.txt"} {
		b, err := os.ReadFile("../../../shared/rules/" + f)
		if err != nil {
			t.Skipf("rulebook not found: %v", err)
		}
		lines[f] = strings.Count(string(b), "\n") + 1
	}
	re := regexp.MustCompile(`(?m)^\s*rule\w+\s*=\s*"([^"]+)"`)
	refs := re.FindAllStringSubmatch(string(src), -1)
	if len(refs) < 20 {
		t.Fatalf("found only %d rule references", len(refs))
	}
	for _, m := range refs {
		ref := m[1]
		if id, ok := strings.CutPrefix(ref, "RULINGS.md "); ok {
			if !strings.Contains(string(rulings), "### "+id+" ") {
				t.Errorf("%s: RULINGS.md has no %s", ref, id)
			}
			continue
		}
		file, line, ok := strings.Cut(ref, ":")
		n, err := strconv.Atoi(line)
		if !ok || err != nil || lines[file] == 0 || n < 1 || n > lines[file] {
			t.Errorf("%s is not a line of the Löwenherz texts", ref)
		}
	}
}
