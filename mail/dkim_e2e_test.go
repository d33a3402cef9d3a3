package mail

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/raubritter"
)

// TestDKIMTemporarySetAside: with verify-dkim and require-dmarc, a mail
// whose DKIM key cannot be looked up for now (the DNS server fails) is
// not decided: the intake leaves it in the inbox and tries it again, and
// after the third failure sets it aside with the reason, listed for the
// operator (herald failed), its sender told to send it again. A DNS that
// answers again lets the next mail through. On the embedded servers,
// with a fake DNS.
func TestDKIMTemporarySetAside(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := embeddedLocal(t.TempDir(), "127.0.0.1:0", "127.0.0.1:0", LocalAccount{Address: "herald@herald.test", Password: "hpw"}, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, a := range []string{"alice@herald.test", "host@herald.test"} {
		if err := srv.AddAccount(a, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	k := newDKIMKey("herald.test", "sel", 9)
	temporary := &net.DNSError{Err: "server misbehaving", Name: k.name(), IsTemporary: true}
	dns := &fakeDNS{records: map[string][]string{k.name(): {k.record()}}, errs: map[string]error{k.name(): temporary}}
	svc, err := NewService(Config{Address: "herald@herald.test", Registry: adjudicator.NewRegistry(raubritter.Game), Store: st, Logger: testLogger(t),
		VerifyDKIM: true, RequireDMARC: true, LookupTXT: dns.LookupTXT})
	if err != nil {
		t.Fatal(err)
	}
	out := NewOutbox(OutboxConfig{Server: Server{Addr: srv.SMTPAddr(), Security: Plain, Username: "herald@herald.test", Password: "hpw"}, Every: 100 * time.Millisecond}, svc)
	in := NewIntake(IntakeConfig{Server: Server{Addr: srv.IMAPAddr(), Security: Plain, Username: "herald@herald.test", Password: "hpw"},
		Handled: func(Outcome) { out.Kick() }}, svc)
	in.pause = 100 * time.Millisecond
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 2)
	go func() { done <- in.Run(runCtx) }()
	go func() { done <- out.Run(runCtx) }()
	t.Cleanup(func() { stop(); <-done; <-done })
	rig := &featureRig{t: t, imap: srv.IMAPAddr(), smtp: srv.SMTPAddr(), herald: "herald@herald.test", password: func(string) string { return "pw" }, seen: map[string]int{}}

	send := func(from, subject, body string) {
		t.Helper()
		raw := fmt.Sprintf("From: %s\r\nTo: herald@herald.test\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
			from, subject, newMessageID("dkim.test"), time.Now().UTC().Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"))
		c, err := smtp.Dial(srv.SMTPAddr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.SendMail(from, []string{"herald@herald.test"}, bytes.NewReader(k.sign(t, []byte(raw)))); err != nil {
			t.Fatal(err)
		}
	}
	send("alice@herald.test", "hello", "help")
	notice := rig.await("alice@herald.test", "your mail was set aside")
	if !strings.Contains(notice, "send it again") {
		t.Errorf("alice's notice:\n%s", notice)
	}
	list, err := st.SetAsideList(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("set aside: %+v, %v; want alice's mail", list, err)
	}
	if f := list[0]; f.Party != "alice@herald.test" || f.Attempts != maxFailures ||
		!strings.Contains(f.Reason, "herald's DKIM check could not be made now (dkim=temperror header.d=herald.test (key unavailable") ||
		!strings.Contains(f.Reason, "require_dmarc") {
		t.Errorf("set aside %+v; want alice's mail after %d attempts, with the DKIM reason", f, maxFailures)
	}
	if n := len(dns.lookups()); n != maxFailures {
		t.Errorf("%d lookups, want one an attempt: %d", n, maxFailures)
	}

	// The DNS answers again: a signed mail is read and answered.
	dns.mu.Lock()
	dns.errs = nil
	dns.mu.Unlock()
	send("host@herald.test", "new", "new raubritter players alice@herald.test host@herald.test")
	rig.await("host@herald.test", "game started")
}
