package embedded

import (
	"bytes"
	"errors"
	"fmt"
	"net/smtp"
	"net/textproto"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

func TestMain(m *testing.M) {
	pbkdf2Iterations = 1000 // keep AddAccount fast in tests
	os.Exit(m.Run())
}

const (
	alice   = "alice@localhost"
	alicePW = "alice-secret"
	bob     = "bob@localhost"
	bobPW   = "bob-secret"
)

// startServer starts a server on dir (a new temp dir if empty) with the
// accounts alice and bob, and closes it at the end of the test.
func startServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	srv, err := Start(cfg)
	if err != nil {
		t.Fatalf("Start() = %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close() = %v", err)
		}
	})
	for _, acct := range [][2]string{{alice, alicePW}, {bob, bobPW}} {
		if err := srv.AddAccount(acct[0], acct[1]); err != nil {
			t.Fatalf("AddAccount(%q) = %v", acct[0], err)
		}
	}
	return srv
}

// dialIMAP connects and logs in; the wire trace goes to stderr under -v.
func dialIMAP(t *testing.T, srv *Server, user, pass string, options *imapclient.Options) *imapclient.Client {
	t.Helper()
	c := dialIMAPNoLogin(t, srv, options)
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatalf("Login(%q) = %v", user, err)
	}
	return c
}

// watchInbox logs in as alice and selects INBOX, with a handler that
// passes on exists each count of its mails the server announces.
func watchInbox(t *testing.T, srv *Server) (*imapclient.Client, <-chan uint32) {
	t.Helper()
	exists := make(chan uint32, 16)
	c := dialIMAP(t, srv, alice, alicePW, &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(data *imapclient.UnilateralDataMailbox) {
				if data.NumMessages != nil {
					exists <- *data.NumMessages
				}
			},
		},
	})
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	return c, exists
}

func dialIMAPNoLogin(t *testing.T, srv *Server, options *imapclient.Options) *imapclient.Client {
	t.Helper()
	if options == nil {
		options = &imapclient.Options{}
	}
	if testing.Verbose() {
		options.DebugWriter = os.Stderr
	}
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), options)
	if err != nil {
		t.Fatalf("DialInsecure() = %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// testMessage returns a small RFC 5322 message with CRLF line endings.
func testMessage(from, to, subject, body string) []byte {
	return []byte(strings.ReplaceAll(fmt.Sprintf(`From: %s
To: %s
Subject: %s
Message-ID: <%s@test.invalid>
Date: Mon, 02 Jun 2025 10:00:00 +0000
Content-Type: text/plain; charset=utf-8

%s
`, from, to, subject, strings.ReplaceAll(subject, " ", "-"), body), "\n", "\r\n"))
}

// sendSMTP sends msg over SMTP; auth may be nil.
func sendSMTP(srv *Server, auth smtp.Auth, from string, to []string, msg []byte) error {
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		return err
	}
	if auth != nil {
		if err := c.Auth(auth); err != nil {
			return err
		}
	}
	if err := c.Mail(from); err != nil {
		return err
	}
	for _, rcpt := range to {
		if err := c.Rcpt(rcpt); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

func mustSend(t *testing.T, srv *Server, from string, to []string, msg []byte) {
	t.Helper()
	if err := sendSMTP(srv, nil, from, to, msg); err != nil {
		t.Fatalf("sendSMTP() = %v", err)
	}
}

// smtpCode returns the reply code of an SMTP error, or 0.
func smtpCode(err error) int {
	var tpErr *textproto.Error
	if errors.As(err, &tpErr) {
		return tpErr.Code
	}
	return 0
}

// fetched is one message as read back over IMAP.
type fetched struct {
	uid   imap.UID
	flags []imap.Flag
	raw   []byte
}

var wholeBody = &imap.FetchItemBodySection{Peek: true}

// fetchAll selects mailbox and returns all its messages, without marking
// them \Seen.
func fetchAll(t *testing.T, c *imapclient.Client, mailbox string) []fetched {
	t.Helper()
	data, err := c.Select(mailbox, nil).Wait()
	if err != nil {
		t.Fatalf("Select(%q) = %v", mailbox, err)
	}
	if data.NumMessages == 0 {
		return nil
	}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{
		UID:         true,
		Flags:       true,
		BodySection: []*imap.FetchItemBodySection{wholeBody},
	}).Collect()
	if err != nil {
		t.Fatalf("Fetch(%q) = %v", mailbox, err)
	}
	l := make([]fetched, len(msgs))
	for i, m := range msgs {
		l[i] = fetched{uid: m.UID, flags: m.Flags, raw: m.FindBodySection(wholeBody)}
	}
	return l
}

func hasFlag(flags []imap.Flag, want imap.Flag) bool {
	for _, f := range flags {
		if strings.EqualFold(string(f), string(want)) {
			return true
		}
	}
	return false
}

// bodyOf returns what follows the header of a raw message.
func bodyOf(raw []byte) []byte {
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		return raw[i+4:]
	}
	return nil
}

// waitGoroutines waits until at most n goroutines run, and fails after 5s
// with their stacks.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("NumGoroutine() = %d, want <= %d; goroutines:\n%s", runtime.NumGoroutine(), n, buf)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
