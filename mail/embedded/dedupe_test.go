package embedded

import (
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// TestSMTPDropsHeldMessageID checks that a message whose Message-ID its
// recipient's mailboxes already hold is not delivered again, wherever the
// first copy went (here moved to another folder), across a restart, and
// only for the recipient that holds it; a message without Message-ID is
// always delivered (issue 15, item 6: herald's outbox resends a reply
// after a crash between the SMTP delivery and marking it sent).
func TestSMTPDropsHeldMessageID(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, Config{Dir: dir})
	noID := func(body string) []byte {
		m := string(testMessage(bob, alice, "no id", body))
		i := strings.Index(m, "Message-ID:")
		j := i + strings.Index(m[i:], "\r\n") + 2
		return []byte(m[:i] + m[j:])
	}
	withID := func(id, body string) []byte {
		return []byte(strings.ReplaceAll("Message-ID: <"+id+">\n", "\n", "\r\n") + string(testMessage(bob, alice, "reply", body)))
	}
	mustSend(t, srv, bob, []string{alice}, withID("r1@herald", "first"))
	c := dialIMAP(t, srv, alice, alicePW, nil)
	if err := c.Create("Archive", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.SeqSetNum(1), "Archive").Wait(); err != nil {
		t.Fatal(err)
	}
	// The same mail again, and to bob too (who has not got it).
	mustSend(t, srv, bob, []string{alice, bob}, withID("r1@herald", "first"))
	if n := len(fetchAll(t, c, "INBOX")); n != 0 {
		t.Errorf("alice's INBOX has %d messages after a resend of a mail she holds, want 0", n)
	}
	if n := len(fetchAll(t, dialIMAP(t, srv, bob, bobPW, nil), "INBOX")); n != 1 {
		t.Errorf("bob's INBOX has %d messages, want 1", n)
	}
	c.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}

	// After a restart the ids are read back from the message files.
	srv2, err := Start(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	mustSend(t, srv2, bob, []string{alice}, withID("r1@herald", "first"))
	mustSend(t, srv2, bob, []string{alice}, withID("r2@herald", "second"))
	mustSend(t, srv2, bob, []string{alice}, noID("x"))
	mustSend(t, srv2, bob, []string{alice}, noID("x"))
	c2 := dialIMAP(t, srv2, alice, alicePW, nil)
	if n := len(fetchAll(t, c2, "INBOX")); n != 3 {
		t.Errorf("alice's INBOX has %d messages, want 3 (a new id and two without id)", n)
	}
	if n := len(fetchAll(t, c2, "Archive")); n != 1 {
		t.Errorf("alice's Archive has %d messages, want 1", n)
	}
}

// TestIdleSendsPendingNews checks that a client that starts IDLE gets at
// once the news that came while it sent no command: go-imap's
// SessionTracker.Idle waits for the next change, so a mail delivered
// between a client's last command and its IDLE went unannounced until
// another one came (found by BenchmarkTurnLatency: herald's intake missed
// a move mail for its whole IDLE refresh interval).
func TestIdleSendsPendingNews(t *testing.T) {
	srv := startServer(t, Config{})
	c, exists := watchInbox(t, srv)
	mustSend(t, srv, bob, []string{alice}, testMessage(bob, alice, "meanwhile", "your turn"))
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { idle.Close(); idle.Wait() }()
	select {
	case n := <-exists:
		if n != 1 {
			t.Errorf("EXISTS %d, want 1", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("IDLE did not announce a mail delivered before it started")
	}
}
