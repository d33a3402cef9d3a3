package main

// Shared helpers of the herald CLI tests: the in-process runner, the real
// binary built once in TestMain, fixtures from testdata/cli, the check that a
// failed command left its directory byte for byte as it was, and golden files.
//
// The tests run with HERALD_TIME fixed, so every record they write is
// reproducible. Rewrite the golden files with
//
//	go test ./cmd/herald -run Golden -update

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fixedTime is what the CLI records as the time of every move in the tests.
const fixedTime = "2026-01-01T00:00:00Z"

// cliData holds the turn files, records, positions and scenarios the tests use.
const cliData = "../../testdata/cli"

// heraldBin is the herald binary, built once by TestMain.
var heraldBin string

func TestMain(m *testing.M) {
	os.Setenv("HERALD_TIME", fixedTime)
	dir, err := os.MkdirTemp("", "herald-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	heraldBin = filepath.Join(dir, "herald")
	// go test puts its own GOROOT/bin first in PATH, so "go" is the go
	// command running this test.
	build := exec.Command("go", "build", "-o", heraldBin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building herald: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one herald command did.
type result struct {
	args   []string
	code   int
	stdout string
	stderr string
}

func (r result) String() string {
	return fmt.Sprintf("herald %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
}

// herald runs the CLI in-process through run, with stdin as standard input.
func herald(t testing.TB, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return result{args: args, code: code, stdout: out.String(), stderr: errb.String()}
}

// mustHerald is herald for a command that must succeed.
func mustHerald(t testing.TB, args ...string) result {
	t.Helper()
	r := herald(t, "", args...)
	if r.code != 0 {
		t.Fatalf("want exit 0, got:\n%v", r)
	}
	return r
}

// heraldExec runs the real binary in dir.
func heraldExec(t testing.TB, dir, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(heraldBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HERALD_TIME="+fixedTime)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running herald %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return result{args: args, code: code, stdout: out.String(), stderr: errb.String()}
}

// fixture copies testdata/cli/name into dir and returns the copy's path.
func fixture(t testing.TB, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(cliData, name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// snapshot returns every file of dir with its bytes, hidden files included.
func snapshot(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

// checkUnchanged fails unless dir holds exactly the files of before, byte for
// byte: a rejected command must leave the game file alone and no temporary
// file behind.
func checkUnchanged(t testing.TB, dir string, before map[string][]byte, r result) {
	t.Helper()
	after := snapshot(t, dir)
	for name, data := range before {
		got, ok := after[name]
		switch {
		case !ok:
			t.Errorf("%s was removed by a failed command:\n%v", name, r)
		case !bytes.Equal(got, data):
			t.Errorf("%s changed although the command failed:\n%v\n%s", name, r, firstDiff(string(data), string(got)))
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("a failed command left %s in the directory:\n%v", name, r)
		}
	}
}

// checkNoTemp fails if dir holds a temporary file of an atomic write.
func checkNoTemp(t testing.TB, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

// loadRecord reads a record the CLI wrote.
func loadRecord(t testing.TB, path string) *adjudicator.Record {
	t.Helper()
	rec, err := adjudicator.LoadRecord(path)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// verdictLines returns the per-move lines of adjudicate's output.
func verdictLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 && (f[2] == "legal" || f[2] == "ILLEGAL") && strings.HasPrefix(l, "  ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -run %s -update rewrites it):\n%s", path, t.Name(), firstDiff(string(want), got))
	}
}

// firstDiff describes the first line where got differs from want.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || i >= len(wl) || i >= len(gl) {
			return fmt.Sprintf("first difference at line %d:\nwant %q\ngot  %q", i+1, w, g)
		}
	}
	return "no difference"
}

// lines splits output into its non-empty lines.
func lines(s string) []string {
	return slices.DeleteFunc(strings.Split(s, "\n"), func(l string) bool { return l == "" })
}
