package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/mail/embedded"
)

// TestWorkerRestartTakesBackItsClaims runs herald serve on PostgreSQL
// without --worker: its default name is the host's and the data
// directory's. Its outbox claims the welcomes of two games and hangs on
// an SMTP server that never answers; it is killed (SIGKILL) and started
// again with a working one, under the same default name: the welcomes go
// out within seconds, each once, not after the claims' 5 minutes. A
// second serve started beside it with the same name refuses to start and
// says where the first runs.
func TestWorkerRestartTakesBackItsClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("runs herald serve three times")
	}
	url := pgGames(t, "herald.test", 2, host.Timing{})
	players := []string{"a0@herald.test", "b0@herald.test", "a1@herald.test", "b1@herald.test"} // gameMaker's
	db := pgConnect(t, url)
	ctx := context.Background()
	queued := db.count(`SELECT COUNT(*) FROM outbox`)

	dir := t.TempDir()
	accounts := []embedded.Account{{Address: "herald@herald.test", Password: "pw"}, {Address: "h@herald.test", Password: "pw"}}
	for _, p := range players {
		accounts = append(accounts, embedded.Account{Address: p, Password: "pw"})
	}
	srv, err := embedded.Start(embedded.Config{Dir: filepath.Join(dir, "mail"), Accounts: accounts})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	pw := filepath.Join(dir, "password")
	if err := os.WriteFile(pw, []byte("pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// An SMTP server that greets, takes the login, and never answers a
	// mail's MAIL FROM.
	hole, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	var heldMu sync.Mutex
	go func() {
		for {
			c, err := hole.Accept()
			if err != nil {
				return
			}
			heldMu.Lock()
			held = append(held, c)
			heldMu.Unlock()
			go func() {
				fmt.Fprintf(c, "220 hole ESMTP\r\n")
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					switch verb := strings.ToUpper(strings.Fields(line + " x")[0]); verb {
					case "EHLO", "HELO":
						fmt.Fprintf(c, "250-hole\r\n250 AUTH PLAIN\r\n")
					case "AUTH":
						fmt.Fprintf(c, "235 2.7.0 ok\r\n")
					case "QUIT":
						fmt.Fprintf(c, "221 bye\r\n")
						return
					case "MAIL":
						// never a word
					default:
						fmt.Fprintf(c, "250 ok\r\n")
					}
				}
			}()
		}
	}()
	defer func() {
		hole.Close()
		heldMu.Lock()
		for _, c := range held {
			c.Close()
		}
		heldMu.Unlock()
	}()
	data := filepath.Join(dir, "data")
	serve := func(smtp, log string) (*exec.Cmd, string) {
		log = filepath.Join(dir, log)
		return startServe(t, log, nil, "--store", url, "--data", data, "--pictures", "off",
			"--address", "herald@herald.test", "--imap-host", srv.IMAPAddr(), "--smtp-host", smtp,
			"--security", "none", "--password-file", pw, "--poll", "1s"), log
	}
	first, out1 := serve(hole.Addr().String(), "first.log")
	defer func() { first.Process.Kill(); first.Wait() }()
	wait := func(what, log string, limit time.Duration, cond func() bool) time.Duration {
		t.Helper()
		start := time.Now()
		for !cond() {
			if time.Since(start) > limit {
				out, _ := os.ReadFile(log)
				t.Fatalf("%s: not after %v; its output:\n%s", what, limit, out)
			}
			time.Sleep(50 * time.Millisecond)
		}
		return time.Since(start)
	}
	wait("the first serve claims the welcomes", out1, 30*time.Second, func() bool {
		return db.count(`SELECT COUNT(*) FROM outbox WHERE claimed_by IS NOT NULL AND sent IS NULL`) > 0
	})
	var name string
	if err := db.QueryRow(ctx, `SELECT claimed_by FROM outbox WHERE claimed_by IS NOT NULL LIMIT 1`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	hostName, _ := os.Hostname()
	if want := hostName + ":" + data; name != want {
		t.Errorf("the default worker name is %q, want %q", name, want)
	}
	first.Process.Kill()
	first.Wait()
	if n := db.count(`SELECT COUNT(*) FROM outbox WHERE sent IS NOT NULL`); n != 0 {
		t.Fatalf("%d mails sent through an SMTP server that never answers", n)
	}

	second, out2 := serve(srv.SMTPAddr(), "second.log")
	defer func() {
		if second.ProcessState == nil {
			second.Process.Kill()
			second.Wait()
		}
	}()
	took := wait("the restarted serve sends the welcomes", out2, time.Minute, func() bool {
		return db.count(`SELECT COUNT(*) FROM outbox WHERE sent IS NULL`) == 0
	})
	t.Logf("the welcomes went %v after the restart", took)
	if took > 30*time.Second {
		t.Errorf("the welcomes claimed by the killed serve went %v after its restart", took)
	}

	// A second serve with the same name, beside the live one.
	third := exec.Command(heraldBin, "serve", "--store", url, "--data", data, "--pictures", "off",
		"--address", "herald@herald.test", "--imap-host", srv.IMAPAddr(), "--smtp-host", srv.SMTPAddr(),
		"--security", "none", "--password-file", pw)
	done := make(chan struct{})
	var out3 []byte
	go func() { out3, _ = third.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		third.Process.Kill()
		<-done
		t.Fatalf("a second serve under a live worker's name still runs after 30 s:\n%s", out3)
	}
	if code := third.ProcessState.ExitCode(); code != 1 || !strings.Contains(string(out3), fmt.Sprintf("%q is the name of the worker on %s", name, hostName)) {
		t.Errorf("a second serve under a live worker's name: exit %d\n%s", code, out3)
	}

	// The live serve stalls (SIGSTOP) past its name's lease: another takes
	// the name, and the stalled one, resumed, finds it taken and stops.
	second.Process.Signal(syscall.SIGSTOP)
	fourth, out4 := serve(srv.SMTPAddr(), "fourth.log")
	defer func() { fourth.Process.Kill(); fourth.Wait() }()
	wait("a serve takes the name of one stalled", out4, 30*time.Second, func() bool {
		log, _ := os.ReadFile(out4)
		return strings.Contains(string(log), "this worker's name")
	})
	second.Process.Signal(syscall.SIGCONT)
	exited := make(chan error, 1)
	go func() { exited <- second.Wait() }()
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the stalled serve, resumed, still runs 30 s after another took its name")
	}
	if log, _ := os.ReadFile(out2); second.ProcessState.ExitCode() != 1 || !strings.Contains(string(log), "another serve took this worker's name") {
		t.Errorf("the stalled serve, resumed: exit %d\n%s", second.ProcessState.ExitCode(), log)
	}
	second = fourth

	// Each welcome reached its recipient once.
	got := 0
	for _, a := range append([]string{"h@herald.test"}, players...) {
		c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Login(a, "pw").Wait(); err != nil {
			t.Fatal(err)
		}
		sel, err := c.Select("INBOX", nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		got += int(sel.NumMessages)
		c.Close()
	}
	if got != queued {
		t.Errorf("%d mails delivered, want the %d queued, each once", got, queued)
	}
}
