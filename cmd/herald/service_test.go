package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemdUnit checks contrib/herald.service with systemd-analyze
// verify (skipped where systemd is not installed): no error and no
// warning, an unknown or misspelt key included, with ExecStart pointing
// at the herald binary built for the tests. It also checks that the unit
// runs serve with the config file README's hosting section writes, and
// that the unit's data directory is where README says the data lives.
func TestSystemdUnit(t *testing.T) {
	unit, err := os.ReadFile("../../contrib/herald.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ExecStart=/usr/local/bin/herald serve --config /etc/herald/serve.yaml\n", "StateDirectory=herald\n", "User=herald\n"} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("contrib/herald.service lacks %q", want)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"contrib/herald.service", "data: /var/lib/herald", "/etc/herald/serve.yaml"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README.md's hosting section lacks %q", want)
		}
	}
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	verify := func(text string) string {
		dir := t.TempDir()
		path := filepath.Join(dir, "herald.service")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(analyze, "verify", path).CombinedOutput()
		if err != nil && len(out) == 0 {
			out = []byte(err.Error())
		}
		return strings.TrimSpace(string(out))
	}
	text := strings.ReplaceAll(string(unit), "/usr/local/bin/herald", heraldBin)
	if out := verify(text); out != "" {
		t.Errorf("systemd-analyze verify contrib/herald.service:\n%s", out)
	}
	// The check catches a mistake.
	if out := verify(strings.Replace(text, "ProtectHome=yes", "ProtectHome=yes\nProtectHomes=yes", 1)); !strings.Contains(out, "ProtectHomes") {
		t.Errorf("systemd-analyze verify did not see a misspelt key: %q", out)
	}
}
