// Package pgtest gives tests a real PostgreSQL: one private cluster per
// test process, made with Debian's initdb in a temporary directory and
// listening only on a unix socket there, and a fresh database for each
// test that asks (URL).
//
// Where no cluster can start (no PostgreSQL installed), the tests that
// need one skip; with HERALD_POSTGRES=1 in the environment (CI sets it)
// they fail instead. As root, the cluster runs as the unprivileged user
// nobody (initdb refuses root). The server dies with the test process,
// however that ends (an exit, a panic, a -timeout, kill -9): it is started
// with a parent-death signal, and a watchdog (a shell waiting on a pipe
// that only the test process holds) removes the cluster's directory once
// the server is gone. Where the watchdog was killed too, the next test
// process removes the directories of clusters whose process is gone.
package pgtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env is the variable that makes a cluster that cannot start a failure
// rather than a skip.
const Env = "HERALD_POSTGRES"

// FsyncEnv, set, starts the cluster syncing its commits to disk as a real
// one does (fsync=on), for benchmarks beside SQLite, which syncs; tests
// run without (fsync=off), quicker.
const FsyncEnv = "HERALD_POSTGRES_FSYNC"

// binDirs are where initdb and postgres are looked for, newest first,
// after $PATH.
var binDirs = []string{"/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/14/bin"}

var (
	once    sync.Once
	cluster string // the socket directory, once started
	admin   string // the URL of the cluster's postgres database
	failure error
	dbs     atomic.Int64
)

// URL returns the URL of a new, empty database on the process's cluster,
// starting the cluster on the first call. It skips t when no cluster can
// start, or fails it when HERALD_POSTGRES=1.
func URL(t testing.TB) string {
	t.Helper()
	if err := Start(); err != nil {
		if os.Getenv(Env) != "" {
			t.Fatalf("pgtest: %s is set and PostgreSQL cannot start: %v", Env, err)
		}
		t.Skipf("pgtest: no PostgreSQL here (%v); set %s=1 to make this a failure", err, Env)
	}
	name := fmt.Sprintf("herald_%d_%d", os.Getpid(), dbs.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+name+` TEMPLATE template0`); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return dbURL(name)
}

func dbURL(name string) string {
	return "postgres:///" + name + "?host=" + cluster + "&user=herald&sslmode=disable"
}

// Available reports whether a cluster runs or could be started, starting
// it; the error says why not.
func Available() error { return Start() }

// Installed reports whether PostgreSQL's programs are here, without
// starting anything; the error says what is missing.
func Installed() error {
	for _, p := range []string{"initdb", "postgres"} {
		if _, err := find(p); err != nil {
			return err
		}
	}
	return nil
}

// Start starts the process's cluster, once.
func Start() error {
	once.Do(func() { failure = start() })
	return failure
}

func start() error {
	initdb, err := find("initdb")
	if err != nil {
		return err
	}
	postgres, err := find("postgres")
	if err != nil {
		return err
	}
	cleanStale()
	dir, err := os.MkdirTemp("", "herald-pg-")
	if err != nil {
		return err
	}
	// The lock says the cluster is in use: cleanStale leaves it alone.
	lock, err := os.Create(filepath.Join(dir, "lock"))
	if err != nil {
		return err
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return err
	}
	keep = append(keep, lock) // held until the process ends
	if err := watch(dir); err != nil {
		os.RemoveAll(dir)
		return err
	}
	cred, err := credential()
	if err != nil {
		return err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	data := filepath.Join(dir, "data")
	cmd := exec.Command(initdb, "-D", data, "-U", "herald", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %v: %s", err, lastLines(out))
	}
	// The server runs from a goroutine locked to its thread, which never
	// exits: the parent-death signal goes when the process ends, not when
	// the thread that started the server does.
	started := make(chan error, 1)
	var logBuf syncBuffer
	go func() {
		runtime.LockOSThread()
		fsync := "off" // tests need no durability across a power loss
		if os.Getenv(FsyncEnv) != "" {
			fsync = "on"
		}
		cmd := exec.Command(postgres, "-D", data, "-k", dir, "-c", "listen_addresses=",
			"-c", "fsync="+fsync, "-c", "full_page_writes="+fsync, "-c", "max_connections=200", "-c", "shared_buffers=32MB")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
		cmd.Stdout, cmd.Stderr = &logBuf, &logBuf
		cmd.Dir = dir
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		cmd.Wait()
	}()
	if err := <-started; err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	cluster = dir
	admin = dbURL("postgres")
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, admin)
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not start: %v; its log: %s", err, lastLines(logBuf.Bytes()))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// keep holds the lock files, and the watchdog's pipe, open for the life
// of the process.
var keep []*os.File

// watchdog waits until its standard input ends, which is when the test
// process ends (it alone holds the pipe's other end), then until the
// server is gone (its postmaster.pid removed, or 30 s), and removes the
// cluster's directory $1.
const watchdog = `cat >/dev/null
i=0
while [ -e "$1/data/postmaster.pid" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
rm -rf "$1"`

// watch starts the watchdog of the cluster in dir. It has no output (go
// test would wait for it) and a process group of its own (a Ctrl-C to the
// test does not stop it before the test process ends).
func watch(dir string) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", watchdog, "pgtest-watchdog", dir)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return fmt.Errorf("the cluster's watchdog: %w", err)
	}
	go cmd.Wait() // reaped if it ends first (it should not)
	keep = append(keep, w)
	return nil
}

// credential is the user the cluster runs as: nobody when the process
// runs as root, nil (the process's own) otherwise.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("running as root, and no user nobody to run PostgreSQL as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// find returns the path of a PostgreSQL program.
func find(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, d := range binDirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found (Debian: apt-get install postgresql)", name)
}

// cleanStale removes the directories of clusters whose test process is
// gone (its lock is free).
func cleanStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "herald-pg-*"))
	for _, d := range dirs {
		f, err := os.Open(filepath.Join(d, "lock"))
		if err != nil {
			continue // being made, or not ours
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.RemoveAll(d)
		}
		f.Close()
	}
}

func lastLines(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// syncBuffer is a bytes.Buffer safe for the server's output and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.b.Bytes())
}
