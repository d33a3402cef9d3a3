package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games"
)

// The tests of this file run herald commands on one record file at the same
// time, in goroutines through run and as separate processes of the real
// binary, and check that the record lock (lock.go) loses no move and that
// herald new never replaces a file. Their interleavings vary from run to
// run; what they assert does not.

// runner runs one herald command, in-process or as a process.
type runner func(args ...string) result

func inProcess(t *testing.T) runner {
	return func(args ...string) result { return herald(t, "", args...) }
}

func asProcess(t *testing.T, dir string) runner {
	return func(args ...string) result { return heraldExec(t, dir, "", args...) }
}

// scriptedGame writes to dir/race.yaml the record of a new game of n
// players started with setup=random, and returns its path and the first k
// moves a self-played game made from it. Each of those moves is played by
// the only player to move, so exactly one player can play each of them.
func scriptedGame(t *testing.T, dir string, n, k int) (string, []adjudicator.RecordMove) {
	t.Helper()
	g, err := games.All.Lookup("raubritter")
	if err != nil {
		t.Fatal(err)
	}
	played, err := adjudicator.SelfPlay(g, games.All, n, "race", map[string]string{"setup": "random"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(played.Record.Moves) <= k {
		t.Fatalf("the self-played game has %d moves, want more than %d", len(played.Record.Moves), k)
	}
	script := played.Record.Moves[:k]
	start := *played.Record
	start.Moves = nil
	m, err := adjudicator.Start(games.All, &start)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range script {
		if to := m.State.ToMove(); !slices.Equal(to, []string{mv.Player}) {
			t.Fatalf("move %d is %s's, but %v are to move", i+1, mv.Player, to)
		}
		if _, err := m.Submit(mv.Player, mv.Text, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "race.yaml")
	start.Moves = nil
	if err := start.Save(path); err != nil {
		t.Fatal(err)
	}
	return path, script
}

// playConcurrently runs one worker per player at once, each until its
// moves of script are applied. A worker reads the record, and submits its
// own next scripted move with herald move, whether or not it is its turn:
// the lock makes the check and the write one step, so each submission is
// either applied as exactly that move of the script, or refused because
// another player is to move. It returns how many were refused.
func playConcurrently(t *testing.T, run runner, g string, script []adjudicator.RecordMove) int {
	t.Helper()
	var players []string
	for _, mv := range script {
		if !slices.Contains(players, mv.Player) {
			players = append(players, mv.Player)
		}
	}
	var mu sync.Mutex
	applied := map[int]string{} // move number -> player
	refused := 0
	deadline := time.Now().Add(30 * time.Second)
	var wg sync.WaitGroup
	for _, p := range players {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				rec, err := adjudicator.LoadRecord(g)
				if err != nil {
					t.Errorf("%s reads the record: %v", p, err)
					return
				}
				next := slices.IndexFunc(script[len(rec.Moves):], func(mv adjudicator.RecordMove) bool { return mv.Player == p })
				if next < 0 {
					return // all of p's moves are in
				}
				next += len(rec.Moves)
				r := run("move", g, "--as", p, script[next].Text)
				switch {
				case r.code == 0 && strings.HasPrefix(r.stdout, fmt.Sprintf("move %d by %s applied:\n", next+1, p)):
					mu.Lock()
					if q, dup := applied[next+1]; dup {
						t.Errorf("move %d applied twice, by %s and %s", next+1, q, p)
					}
					applied[next+1] = p
					mu.Unlock()
				case r.code == 1 && strings.Contains(r.stderr, fmt.Sprintf("it is not %s's turn: waiting for ", p)):
					mu.Lock()
					refused++
					mu.Unlock()
					time.Sleep(time.Millisecond)
				default:
					t.Errorf("%s submits move %d: want it applied or refused as out of turn, got:\n%v", p, next+1, r)
					return
				}
			}
			t.Errorf("%s: not done after 30s", p)
		})
	}
	wg.Wait()
	if len(applied) != len(script) {
		t.Errorf("%d submissions applied, want %d: %v", len(applied), len(script), applied)
	}
	checkScript(t, g, script)
	return refused
}

// checkScript checks that the record g holds exactly the moves of script,
// that adjudicate finds them all legal, and that the directory holds the
// record only: no lock or temporary file left.
func checkScript(t *testing.T, g string, script []adjudicator.RecordMove) {
	t.Helper()
	rec := loadRecord(t, g)
	if len(rec.Moves) != len(script) {
		t.Errorf("the record has %d moves, want %d: a move was lost", len(rec.Moves), len(script))
	}
	for i := range min(len(rec.Moves), len(script)) {
		if got, want := rec.Moves[i], script[i]; got.Player != want.Player || got.Text != want.Text {
			t.Errorf("move %d: %s %q, want %s %q", i+1, got.Player, got.Text, want.Player, want.Text)
		}
	}
	rep, err := adjudicator.Adjudicate(games.All, rec)
	if err != nil || rep.Illegal != nil {
		t.Errorf("the record does not replay: %v %+v", err, rep)
	}
	checkOnly(t, filepath.Dir(g), filepath.Base(g))
}

// checkOnly fails unless dir holds exactly the files names.
func checkOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

// TestConcurrentMoves: four players each submit their moves as fast as they
// can, all at once, in goroutines; no move is lost or applied twice.
func TestConcurrentMoves(t *testing.T) {
	dir := t.TempDir()
	g, script := scriptedGame(t, dir, 4, 24)
	refused := playConcurrently(t, inProcess(t), g, script)
	t.Logf("%d moves applied, %d submissions refused as out of turn", len(script), refused)
}

// TestConcurrentMovesProcesses is TestConcurrentMoves with each submission a
// process of the real binary.
func TestConcurrentMovesProcesses(t *testing.T) {
	dir := t.TempDir()
	g, script := scriptedGame(t, dir, 2, 10)
	refused := playConcurrently(t, asProcess(t, dir), g, script)
	t.Logf("%d moves applied, %d submissions refused as out of turn", len(script), refused)
}

// raceKeeps plays the setup of rounds new games of four players, where
// every player is to move at once (each keeps tiles), by starting all four
// submissions of a game at the same instant: each is legal whatever the
// others do, so all four must be applied and recorded. Without the lock,
// two of them read the same record and the second write drops the first.
func raceKeeps(t *testing.T, run runner, dir string, rounds int) {
	t.Helper()
	players := []string{"alice", "bob", "carol", "dave"}
	for round := range rounds {
		g := filepath.Join(dir, fmt.Sprint("keep", round, ".yaml"))
		mustHerald(t, "new", "raubritter", "--players", strings.Join(players, ","), "--seed", fmt.Sprint(round), "-o", g)
		steps := map[string]string{}
		for _, p := range players {
			l := lines(mustHerald(t, "legal", g, "--as", p).stdout)
			if len(l) == 0 || !strings.HasPrefix(l[0], "keep ") {
				t.Fatalf("%s cannot keep tiles in the setup: %v", p, l)
			}
			steps[p] = l[round%len(l)]
		}
		results := together(len(players), func(i int) result {
			return run("move", g, "--as", players[i], steps[players[i]])
		})
		for _, r := range results {
			if r.code != 0 {
				t.Errorf("round %d: a keep in the setup was refused:\n%v", round, r)
			}
		}
		rec := loadRecord(t, g)
		var got []string
		for _, mv := range rec.Moves {
			if mv.Text != steps[mv.Player] {
				t.Errorf("round %d: %s's move is %q, want %q", round, mv.Player, mv.Text, steps[mv.Player])
			}
			got = append(got, mv.Player)
		}
		if slices.Sort(got); !slices.Equal(got, players) {
			t.Errorf("round %d: the record holds the moves of %v, want one of each of %v: a move was lost", round, got, players)
		}
		if rep, err := adjudicator.Adjudicate(games.All, rec); err != nil || rep.Illegal != nil {
			t.Errorf("round %d: the record does not replay: %v %+v", round, err, rep)
		}
	}
	var names []string
	for round := range rounds {
		names = append(names, fmt.Sprint("keep", round, ".yaml"))
	}
	checkOnly(t, dir, names...)
}

func TestConcurrentKeeps(t *testing.T) {
	raceKeeps(t, inProcess(t), t.TempDir(), 20)
}

func TestConcurrentKeepsProcesses(t *testing.T) {
	dir := t.TempDir()
	raceKeeps(t, asProcess(t, dir), dir, 4)
}

// raceOneMove starts n submissions of alice's move 3 of seed42-move3.yaml at
// the same instant, half of them by herald move and half by herald turn,
// and checks that exactly one is applied and every other refused, alice's
// turn being over or the turn file stale.
func raceOneMove(t *testing.T, run runner, dir string, n int) {
	t.Helper()
	g := fixture(t, dir, "seed42-move3.yaml")
	tf := fixture(t, dir, "turn-alice-3.yaml")
	results := together(n, func(i int) result {
		if i%2 == 0 {
			return run("move", g, "--as", "alice", "plain castle f5; knights 1; end")
		}
		return run("turn", tf, "--game", g)
	})
	ok := 0
	for _, r := range results {
		switch {
		case r.code == 0 && strings.HasPrefix(r.stdout, "move 3 by alice applied:\n"):
			ok++
		case r.code == 1 && r.args[0] == "move" && strings.Contains(r.stderr, "it is not alice's turn: waiting for bob"):
		case r.code == 1 && r.args[0] == "turn" && strings.Contains(r.stderr, "the turn file answers move 3, but the game is at move 4"):
		default:
			t.Errorf("want move 3 applied or refused as played already, got:\n%v", r)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d submissions of the same move applied, want 1", ok, n)
	}
	rec := loadRecord(t, g)
	if len(rec.Moves) != 3 || rec.Moves[2].Text != "plain castle f5\nknights 1\nend" {
		t.Errorf("the record: %+v", rec.Moves)
	}
	checkOnly(t, dir, "seed42-move3.yaml", "turn-alice-3.yaml")
}

func TestConcurrentSameMove(t *testing.T) {
	raceOneMove(t, inProcess(t), t.TempDir(), 16)
}

func TestConcurrentSameMoveProcesses(t *testing.T) {
	dir := t.TempDir()
	raceOneMove(t, asProcess(t, dir), dir, 8)
}

// raceNew starts n herald new -o game.yaml at the same instant, each with its
// own seed: exactly one writes the record, the others are refused and
// leave it alone.
func raceNew(t *testing.T, run runner, dir string, n int) {
	t.Helper()
	g := filepath.Join(dir, "game.yaml")
	results := together(n, func(i int) result {
		return run("new", "raubritter", "--players", "alice,bob", "--seed", fmt.Sprint("s", i), "-o", g)
	})
	winner := -1
	for i, r := range results {
		switch {
		case r.code == 0:
			if winner >= 0 {
				t.Errorf("two herald new wrote %s:\n%v\n%v", g, results[winner], r)
			}
			winner = i
		case r.code == 2 && strings.HasPrefix(r.stderr, "herald new: "+g+" exists; herald new never overwrites a record: choose another -o or remove it\n"):
		default:
			t.Errorf("want the record written or refused as existing, got:\n%v", r)
		}
	}
	if winner < 0 {
		t.Fatalf("no herald new wrote %s", g)
	}
	if rec := loadRecord(t, g); rec.Seed != fmt.Sprint("s", winner) || len(rec.Moves) != 0 {
		t.Errorf("the record is not the one its writer reported: seed %q, want %q", rec.Seed, fmt.Sprint("s", winner))
	}
	fi, err := os.Stat(g)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("a new record is mode %v, want 0600: it holds the seed", fi.Mode().Perm())
	}
	checkOnly(t, dir, "game.yaml")
}

func TestConcurrentNew(t *testing.T) {
	raceNew(t, inProcess(t), t.TempDir(), 16)
}

func TestConcurrentNewProcesses(t *testing.T) {
	dir := t.TempDir()
	raceNew(t, asProcess(t, dir), dir, 8)
}

// TestCreateNew: of many writers of one new file at once exactly one
// succeeds and the file holds its data, with hard links and without.
func TestCreateNew(t *testing.T) {
	noLink := func(oldname, newname string) error {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.EPERM}
	}
	for _, c := range []struct {
		name string
		link func(oldname, newname string) error
	}{{"link", os.Link}, {"no hard links", noLink}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			const n = 32
			errs := together(n, func(i int) error {
				return createNewWith(path, []byte(fmt.Sprint("writer ", i)), 0o600, c.link)
			})
			winner := -1
			for i, err := range errs {
				switch {
				case err == nil && winner >= 0:
					t.Errorf("writers %d and %d both created %s", winner, i, path)
				case err == nil:
					winner = i
				case !errors.Is(err, fs.ErrExist):
					t.Errorf("writer %d: %v, want an error that is fs.ErrExist", i, err)
				}
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprint("writer ", winner); string(got) != want {
				t.Errorf("%s holds %q, want %q", path, got, want)
			}
			checkOnly(t, dir, "f")
		})
	}
}

// TestRecordLock: the lock excludes every other holder, in this process or
// another, until released; a waiter gives up after its wait with an error
// naming the lock file; and releasing removes the lock file.
func TestRecordLock(t *testing.T) {
	for _, c := range []struct {
		name string
		lock func(path string, wait time.Duration) (func() error, error)
	}{{"lockRecord", lockRecord}, {"O_EXCL", lockRecordExcl}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "g.yaml")
			// Mutual exclusion: a read-modify-write of a counter file
			// by many goroutines at once loses no increment.
			const n, k = 6, 10
			if err := os.WriteFile(path, []byte("0"), 0o600); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					for range k {
						unlock, err := c.lock(path, 10*time.Second)
						if err != nil {
							t.Error(err)
							return
						}
						b, _ := os.ReadFile(path)
						var v int
						fmt.Sscan(string(b), &v)
						if err := os.WriteFile(path, []byte(fmt.Sprint(v+1)), 0o600); err != nil {
							t.Error(err)
						}
						if err := unlock(); err != nil {
							t.Error(err)
						}
					}
				})
			}
			wg.Wait()
			if b, _ := os.ReadFile(path); string(b) != fmt.Sprint(n*k) {
				t.Errorf("counter %s after %d locked increments", b, n*k)
			}
			checkOnly(t, dir, "g.yaml")

			// A waiter gives up, naming the lock file.
			unlock, err := c.lock(path, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			began := time.Now()
			_, err = c.lock(path, 100*time.Millisecond)
			var te *lockTimeoutError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), path+".lock") || !strings.Contains(err.Error(), "after 100ms") {
				t.Errorf("a second locker: %v, want a timeout naming %s.lock", err, path)
			}
			if d := time.Since(began); d < 100*time.Millisecond {
				t.Errorf("the second locker gave up after %v, before its wait", d)
			}
			if err := unlock(); err != nil {
				t.Fatal(err)
			}
			checkOnly(t, dir, "g.yaml")
		})
	}
}

// TestRecordLockStale: an O_EXCL lock file left by a stopped herald is named
// in the error, with what it says of its maker and how to clear it.
func TestRecordLockStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.yaml")
	if err := os.WriteFile(path+".lock", []byte("herald process 4242 since 2026-01-01T00:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := lockRecordExcl(path, 20*time.Millisecond)
	want := path + " is locked: " + path + ".lock (herald process 4242 since 2026-01-01T00:00:00Z) is still there after 20ms; " +
		"another herald is rewriting " + path + ", or one was stopped while doing so: if no herald is running, remove " + path + ".lock"
	if err == nil || err.Error() != want {
		t.Errorf("lockRecordExcl over a stale lock:\n got %v\nwant %s", err, want)
	}
}

// TestMoveWaitsForLock: a herald move process waits while this test holds
// the record's lock, leaves the record alone meanwhile, and applies its
// move once the lock is released.
func TestMoveWaitsForLock(t *testing.T) {
	dir := t.TempDir()
	g := fixture(t, dir, "seed42-move3.yaml")
	before, err := os.ReadFile(g)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := lockRecord(g, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan result)
	go func() { done <- heraldExec(t, dir, "", "move", g, "--as", "alice", "plain castle f5; knights 1; end") }()
	time.Sleep(300 * time.Millisecond)
	select {
	case r := <-done:
		t.Fatalf("herald move did not wait for the lock:\n%v", r)
	default:
	}
	if now, err := os.ReadFile(g); err != nil || string(now) != string(before) {
		t.Errorf("the record changed while locked (%v)", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.code != 0 || !strings.HasPrefix(r.stdout, "move 3 by alice applied:\n") {
		t.Errorf("herald move after the lock was released:\n%v", r)
	}
	checkOnly(t, dir, "seed42-move3.yaml")
}

// together runs f(0) ... f(n-1) on n goroutines released at the same
// instant, and returns their results in order.
func together[T any](n int, f func(i int) T) []T {
	out := make([]T, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			out[i] = f(i)
		})
	}
	close(start)
	wg.Wait()
	return out
}
