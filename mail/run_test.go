package mail

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/raubritter"
)

// syncBuffer is a bytes.Buffer safe for the log's concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPlayerPasswordsFile checks that the passwords of the player accounts
// the embedded setup opens are written to a file that only its owner may
// read, whose path is logged, and never to the log (issue 15, item 18).
func TestPlayerPasswordsFile(t *testing.T) {
	dir := t.TempDir()
	var logBuf syncBuffer
	pw := map[string]string{"alice@herald.local": "secret-alice-1", "bob@herald.local": "secret-bob-2"}
	r, err := Start(context.Background(), RunConfig{Local: embeddedLocal, OpenStore: openSQLite,
		Dir: dir, Registry: adjudicator.NewRegistry(raubritter.Game), Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
		PlayerPassword: func(a string) string { return pw[a] },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Service.CreateGame(context.Background(), "alice@herald.local", "raubritter", []string{"alice@herald.local", "bob@herald.local"}, nil, host.Timing{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, PlayerPasswordsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "alice@herald.local secret-alice-1\nbob@herald.local secret-bob-2\n"; string(data) != want {
		t.Errorf("%s holds %q, want %q", path, data, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v (%v), want 0600", path, fi.Mode().Perm(), err)
	}
	log := logBuf.String()
	for _, p := range pw {
		if strings.Contains(log, p) {
			t.Errorf("the log holds a password:\n%s", log)
		}
	}
	if !strings.Contains(log, path) {
		t.Errorf("the log does not say where the passwords are:\n%s", log)
	}
}

// TestPortsOpenAfterAccounts checks that on the very first start the
// embedded SMTP server accepts no connection before herald's own account
// exists (issue 15, item 7): a client that dials the port in a tight loop
// while Start runs is never told that herald's address has no mailbox.
func TestPortsOpenAfterAccounts(t *testing.T) {
	for i := range 3 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		stop := make(chan struct{})
		result := make(chan error, 1)
		go func() {
			for {
				select {
				case <-stop:
					result <- nil
					return
				default:
				}
				c, err := smtp.Dial(addr)
				if err != nil {
					continue
				}
				defer c.Close()
				if err := c.Mail("alice@herald.local", nil); err != nil {
					result <- err
					return
				}
				result <- c.Rcpt("herald@herald.local", nil)
				return
			}
		}()
		r, err := Start(context.Background(), RunConfig{Local: embeddedLocal, OpenStore: openSQLite,
			Dir: t.TempDir(), Registry: adjudicator.NewRegistry(raubritter.Game), Logger: slog.New(slog.DiscardHandler),
			EmbeddedSMTPAddr: addr,
		})
		if err != nil {
			t.Fatal(err)
		}
		// The dialer connects at the latest once Start has returned.
		time.Sleep(50 * time.Millisecond)
		close(stop)
		if err := <-result; err != nil {
			t.Errorf("start %d: the first connection to the SMTP port: RCPT TO herald = %v, want accepted", i+1, err)
		}
		r.Close()
	}
}

// TestForgedSendersOpenNoMailbox mails herald on the embedded setup from
// forged senders (issue 25, item 5): herald answers them, but opens no
// mailbox for them and writes no password line; the server refuses the
// answers as to an unknown user and the outbox drops each after one try,
// while the players' mail goes as ever.
func TestForgedSendersOpenNoMailbox(t *testing.T) {
	const forged = 12
	dir := t.TempDir()
	var logBuf syncBuffer
	r, err := Start(context.Background(), RunConfig{Local: embeddedLocal, OpenStore: openSQLite,
		Dir: dir, Registry: adjudicator.NewRegistry(raubritter.Game), Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
		PlayerPassword: func(string) string { return "pw" },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Service.CreateGame(context.Background(), "alice@herald.local", "raubritter", []string{"alice@herald.local", "bob@herald.local"}, nil, host.Timing{}); err != nil {
		t.Fatal(err)
	}
	r.Outbox.Kick()
	for i := range forged {
		from := fmt.Sprintf("forged%d@elsewhere.test", i)
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: hello\r\nMessage-ID: <forged-%d@elsewhere.test>\r\nDate: Mon, 23 Nov 2026 09:00:00 +0000\r\n\r\nhelp\r\n", from, r.Address, i)
		c, err := smtp.Dial(r.Embedded.SMTPAddr())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SendMail(from, []string{r.Address}, strings.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	for deadline := time.Now().Add(30 * time.Second); strings.Count(logBuf.String(), "outbox: giving up") < forged; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the outbox gave up on %d answers to forged senders, want %d; accounts %v; log:\n%s",
				strings.Count(logBuf.String(), "outbox: giving up"), forged, r.Embedded.Accounts(), logBuf.String())
		}
	}
	if got, want := r.Embedded.Accounts(), []string{"alice@herald.local", "bob@herald.local", "herald@herald.local"}; !slices.Equal(got, want) {
		t.Errorf("accounts %v, want %v", got, want)
	}
	data, err := os.ReadFile(filepath.Join(dir, PlayerPasswordsFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := "alice@herald.local pw\nbob@herald.local pw\n"; string(data) != want {
		t.Errorf("%s holds %q, want %q", PlayerPasswordsFile, data, want)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if n, err := r.Store.Pending(context.Background()); err != nil {
			t.Fatal(err)
		} else if n == forged {
			break // the welcomes went; only the dropped answers are unsent
		}
		if time.Now().After(deadline) {
			t.Fatal("the players' welcomes were never sent")
		}
	}
}

// TestDataDirPrivate runs the embedded setup under umask 0 in a data
// directory everyone may read (issue 25, item 15): herald warns about the
// directory, and every file it writes there, the database, the mail, the
// passwords and its own address included, is 0600.
func TestDataDirPrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var logBuf syncBuffer
	r, err := Start(context.Background(), RunConfig{Local: embeddedLocal, OpenStore: openSQLite,
		Dir: dir, Registry: adjudicator.NewRegistry(raubritter.Game), Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
		PlayerPassword: func(string) string { return "pw" },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Service.CreateGame(context.Background(), "alice@herald.local", "raubritter", []string{"alice@herald.local", "bob@herald.local"}, nil, host.Timing{}); err != nil {
		t.Fatal(err)
	}
	r.Outbox.Kick()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if n, err := r.Store.Pending(context.Background()); err != nil || n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the welcomes were never sent")
		}
	}
	files := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", strings.TrimPrefix(path, dir+"/"), fi.Mode().Perm())
		}
		return nil
	})
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if files < 8 {
		t.Errorf("only %d files in the data directory", files)
	}
	if !strings.Contains(logBuf.String(), "readable by others (mode 0755)") {
		t.Errorf("no warning about the data directory; log:\n%s", logBuf.String())
	}
}
