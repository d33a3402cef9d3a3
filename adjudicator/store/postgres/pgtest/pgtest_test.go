package pgtest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// childEnv makes the test binary a child of TestClusterRemovedAtEnd: it
// starts a cluster, prints its directory, and then exits ("exit") or
// waits to be killed ("kill").
const childEnv = "PGTEST_CHILD"

// TestClusterRemovedAtEnd runs a test process that starts a cluster and
// ends, once by exiting and once by kill -9: either way, within seconds,
// the cluster's server is gone and its directory (some 40 MB) removed.
func TestClusterRemovedAtEnd(t *testing.T) {
	if mode := os.Getenv(childEnv); mode != "" {
		if err := Start(); err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("cluster " + cluster + "\n")
		if mode == "kill" {
			time.Sleep(time.Minute)
		}
		return
	}
	if err := Installed(); err != nil {
		if os.Getenv(Env) != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	for _, mode := range []string{"exit", "kill"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestClusterRemovedAtEnd$")
			cmd.Env = append(os.Environ(), childEnv+"="+mode)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			dir := ""
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if d, ok := strings.CutPrefix(sc.Text(), "cluster "); ok {
					dir = d
					break
				}
			}
			if dir == "" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("the child printed no cluster")
			}
			if _, err := os.Stat(filepath.Join(dir, "data", "postmaster.pid")); err != nil {
				t.Fatalf("the child's cluster does not run: %v", err)
			}
			if mode == "kill" {
				cmd.Process.Kill()
			}
			go func() { // the rest of its output, so that it can end
				for sc.Scan() {
				}
			}()
			cmd.Wait()
			deadline := time.Now().Add(40 * time.Second)
			for {
				if _, err := os.Stat(dir); os.IsNotExist(err) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s is still there %v after its test process ended (%s)", dir, 40*time.Second, mode)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}
