package embedded

import (
	"bytes"
	"errors"
	"fmt"
	"net/smtp"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
)

func TestSMTPThenIMAPFetch(t *testing.T) {
	srv := startServer(t, Config{})
	msg := testMessage(bob, alice, "move 1", "play 3 ; border b2")
	mustSend(t, srv, bob, []string{"Alice@LOCALHOST"}, msg)

	c := dialIMAP(t, srv, alice, alicePW, nil)
	got := fetchAll(t, c, "INBOX")
	if len(got) != 1 {
		t.Fatalf("INBOX has %d messages, want 1", len(got))
	}
	raw := got[0].raw
	if !bytes.HasSuffix(raw, msg) {
		t.Errorf("fetched message does not end with the sent one:\n%s", raw)
	}
	header := string(raw[:len(raw)-len(msg)])
	if !strings.HasPrefix(header, "Return-Path: <"+bob+">\r\nReceived: from client.test ([127.0.0.1])\r\n\tby localhost (herald embedded) with ESMTP id ") {
		t.Errorf("added header = %q, want Return-Path then Received", header)
	}
	if !strings.Contains(header, "\r\n\tfor <Alice@LOCALHOST>;\r\n\t") {
		t.Errorf("Received header lacks the recipient: %q", header)
	}
	if hasFlag(got[0].flags, imap.FlagSeen) {
		t.Errorf("flags = %v after BODY.PEEK[], want no \\Seen", got[0].flags)
	}

	// bob got nothing.
	c2 := dialIMAP(t, srv, bob, bobPW, nil)
	if got := fetchAll(t, c2, "INBOX"); len(got) != 0 {
		t.Errorf("bob's INBOX has %d messages, want 0", len(got))
	}
}

func TestSMTPMultipleRecipientsAndNullSender(t *testing.T) {
	srv := startServer(t, Config{})
	msg := testMessage("mailer-daemon@elsewhere", alice, "bounce", "undeliverable")
	mustSend(t, srv, "", []string{alice, bob}, msg)
	for _, acct := range [][2]string{{alice, alicePW}, {bob, bobPW}} {
		c := dialIMAP(t, srv, acct[0], acct[1], nil)
		got := fetchAll(t, c, "INBOX")
		if len(got) != 1 {
			t.Fatalf("%s: INBOX has %d messages, want 1", acct[0], len(got))
		}
		if !bytes.HasPrefix(got[0].raw, []byte("Return-Path: <>\r\n")) {
			t.Errorf("%s: message starts %q, want Return-Path: <>", acct[0], got[0].raw[:40])
		}
		if bytes.Contains(got[0].raw, []byte("\tfor <")) {
			t.Errorf("%s: Received names a recipient of a multi-recipient message", acct[0])
		}
	}
}

func TestSMTPUnknownRecipient(t *testing.T) {
	srv := startServer(t, Config{})
	err := sendSMTP(srv, nil, bob, []string{"nobody@localhost"}, testMessage(bob, "nobody@localhost", "hi", "hi"))
	if smtpCode(err) != 550 || !strings.Contains(err.Error(), "5.1.1") {
		t.Errorf("RCPT TO unknown = %v, want 550 5.1.1", err)
	}
	// A relay attempt is the same.
	err = sendSMTP(srv, nil, bob, []string{"someone@example.com"}, testMessage(bob, "someone@example.com", "hi", "hi"))
	if smtpCode(err) != 550 {
		t.Errorf("RCPT TO remote = %v, want 550", err)
	}
}

func TestSMTPTooLarge(t *testing.T) {
	srv := startServer(t, Config{MaxMessageBytes: 2048})
	big := testMessage(bob, alice, "big", strings.Repeat(strings.Repeat("x", 70)+"\n", 60))
	err := sendSMTP(srv, nil, bob, []string{alice}, big)
	if smtpCode(err) != 552 {
		t.Errorf("DATA of %d bytes = %v, want 552", len(big), err)
	}
	if err := srv.Deliver(bob, []string{alice}, big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Deliver(big) = %v, want ErrTooLarge", err)
	}

	// A small one still goes through on a new connection.
	mustSend(t, srv, bob, []string{alice}, testMessage(bob, alice, "small", "ok"))
	c := dialIMAP(t, srv, alice, alicePW, nil)
	if got := fetchAll(t, c, "INBOX"); len(got) != 1 {
		t.Errorf("INBOX has %d messages, want 1", len(got))
	}
	// APPEND beyond the limit is refused too.
	appendCmd := c.Append("INBOX", int64(len(big)), nil)
	appendCmd.Write(big)
	appendCmd.Close()
	if _, err := appendCmd.Wait(); err == nil {
		t.Errorf("APPEND of %d bytes succeeded, want an error", len(big))
	}
}

func TestWrongPassword(t *testing.T) {
	srv := startServer(t, Config{})

	c := dialIMAPNoLogin(t, srv, nil)
	if err := c.Login(alice, "wrong").Wait(); err == nil {
		t.Errorf("IMAP LOGIN with a wrong password succeeded")
	}
	if err := c.Login("nobody@localhost", alicePW).Wait(); err == nil {
		t.Errorf("IMAP LOGIN of an unknown user succeeded")
	}
	if err := c.Login(alice, bobPW).Wait(); err == nil {
		t.Errorf("IMAP LOGIN with another account's password succeeded")
	}
	if err := c.Login(alice, alicePW).Wait(); err != nil {
		t.Errorf("IMAP LOGIN after failures = %v", err)
	}

	c2 := dialIMAPNoLogin(t, srv, nil)
	if err := c2.Authenticate(sasl.NewPlainClient("", alice, "wrong")); err == nil {
		t.Errorf("AUTHENTICATE PLAIN with a wrong password succeeded")
	}
	if err := c2.Authenticate(sasl.NewPlainClient("", strings.ToUpper(alice), alicePW)); err != nil {
		t.Errorf("AUTHENTICATE PLAIN = %v", err)
	}

	msg := testMessage(alice, bob, "auth", "hi")
	err := sendSMTP(srv, smtp.PlainAuth("", alice, "wrong", "127.0.0.1"), alice, []string{bob}, msg)
	if smtpCode(err) != 535 {
		t.Errorf("SMTP AUTH with a wrong password = %v, want 535", err)
	}
	if err := sendSMTP(srv, smtp.PlainAuth("", alice, alicePW, "127.0.0.1"), alice, []string{bob}, msg); err != nil {
		t.Fatalf("SMTP AUTH PLAIN = %v", err)
	}
	cb := dialIMAP(t, srv, bob, bobPW, nil)
	got := fetchAll(t, cb, "INBOX")
	if len(got) != 1 || !bytes.Contains(got[0].raw, []byte(" with ESMTPA id ")) {
		t.Errorf("after SMTP AUTH, INBOX = %d messages, want 1 received with ESMTPA", len(got))
	}
}

func TestCapabilities(t *testing.T) {
	srv := startServer(t, Config{})
	c := dialIMAP(t, srv, alice, alicePW, nil)
	caps, err := c.Capability().Wait()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []imap.Cap{imap.CapIMAP4rev1, imap.CapIdle, imap.CapMove, imap.CapUIDPlus, imap.CapNamespace, "APPENDLIMIT=10485760"} {
		if !caps.Has(want) {
			t.Errorf("capabilities %v lack %v", caps, want)
		}
	}
	ns, err := c.Namespace().Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(ns.Personal) != 1 || ns.Personal[0].Prefix != "" || ns.Personal[0].Delim != '/' {
		t.Errorf("NAMESPACE personal = %+v, want one with prefix \"\" and delimiter /", ns.Personal)
	}
}

func TestIdleGetsNewMail(t *testing.T) {
	srv := startServer(t, Config{})
	c, exists := watchInbox(t, srv)
	idle, err := c.Idle()
	if err != nil {
		t.Fatalf("Idle() = %v", err)
	}
	mustSend(t, srv, bob, []string{alice}, testMessage(bob, alice, "wake up", "your turn"))
	select {
	case n := <-exists:
		if n != 1 {
			t.Errorf("EXISTS %d, want 1", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no EXISTS while idling after an SMTP delivery")
	}
	// Deliver pushes too.
	if err := srv.Deliver(bob, []string{alice}, testMessage(bob, alice, "again", "still your turn")); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-exists:
		if n != 2 {
			t.Errorf("EXISTS %d, want 2", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no EXISTS while idling after Deliver")
	}
	if err := idle.Close(); err != nil {
		t.Fatal(err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatalf("IDLE = %v", err)
	}
	if got := fetchAll(t, c, "INBOX"); len(got) != 2 {
		t.Errorf("INBOX has %d messages, want 2", len(got))
	}
}

func TestUIDMoveToCreatedFolder(t *testing.T) {
	srv := startServer(t, Config{})
	for i := 1; i <= 2; i++ {
		mustSend(t, srv, bob, []string{alice}, testMessage(bob, alice, fmt.Sprintf("move %d", i), "x"))
	}
	c := dialIMAP(t, srv, alice, alicePW, nil)
	for _, name := range []string{"herald/processed", "herald/rejected"} {
		if err := c.Create(name, nil).Wait(); err != nil {
			t.Fatalf("Create(%q) = %v", name, err)
		}
	}
	if err := c.Create("herald/processed", nil).Wait(); err == nil {
		t.Errorf("Create of an existing mailbox succeeded")
	}

	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
		if l.Delim != '/' {
			t.Errorf("LIST %q delimiter %q, want /", l.Mailbox, l.Delim)
		}
	}
	if want := "INBOX herald herald/processed herald/rejected"; strings.Join(names, " ") != want {
		t.Errorf("LIST \"\" * = %v, want %s", names, want)
	}
	top, err := c.List("", "%", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	if len(top) != 2 || top[1].Mailbox != "herald" || !hasAttr(top[1].Attrs, imap.MailboxAttrHasChildren) {
		t.Errorf("LIST \"\" %% = %+v, want INBOX and herald with \\HasChildren", top)
	}

	inbox := fetchAll(t, c, "INBOX")
	if len(inbox) != 2 {
		t.Fatalf("INBOX has %d messages, want 2", len(inbox))
	}
	data, err := c.Move(imap.UIDSetNum(inbox[0].uid), "herald/processed").Wait()
	if err != nil {
		t.Fatalf("UID MOVE = %v", err)
	}
	if src, ok := data.SourceUIDs.(imap.UIDSet); !ok || !src.Contains(inbox[0].uid) {
		t.Errorf("COPYUID source = %v, want %v", data.SourceUIDs, inbox[0].uid)
	}
	if dst, ok := data.DestUIDs.(imap.UIDSet); !ok || !dst.Contains(1) {
		t.Errorf("COPYUID dest = %v, want 1", data.DestUIDs)
	}
	// The client saw exactly one EXPUNGE: its view has one message left.
	if mbox := c.Mailbox(); mbox == nil || mbox.NumMessages != 1 {
		t.Errorf("client's INBOX count after MOVE = %+v, want 1", mbox)
	}
	// Moving to a missing mailbox asks to create it.
	if _, err := c.Move(imap.UIDSetNum(inbox[1].uid), "nowhere").Wait(); err == nil || !strings.Contains(err.Error(), "TRYCREATE") {
		t.Errorf("MOVE to a missing mailbox = %v, want NO [TRYCREATE]", err)
	}

	left := fetchAll(t, c, "INBOX")
	if len(left) != 1 || left[0].uid != inbox[1].uid {
		t.Errorf("INBOX after MOVE = %+v, want only uid %d", left, inbox[1].uid)
	}
	moved := fetchAll(t, c, "herald/processed")
	if len(moved) != 1 || !bytes.Equal(moved[0].raw, inbox[0].raw) {
		t.Errorf("herald/processed = %d messages, want the moved one", len(moved))
	}

	// ESEARCH through imapclient, on the folder.
	sd, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "move 1"}}}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if uids := sd.AllUIDs(); len(uids) != 1 || uids[0] != 1 {
		t.Errorf("UID SEARCH HEADER Subject = %v, want [1]", uids)
	}
}

func hasAttr(attrs []imap.MailboxAttr, want imap.MailboxAttr) bool {
	for _, a := range attrs {
		if strings.EqualFold(string(a), string(want)) {
			return true
		}
	}
	return false
}

func TestRestartPersistence(t *testing.T) {
	dir := t.TempDir()
	srv, err := Start(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.AddAccount(alice, alicePW); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		mustSend(t, srv, bob, []string{alice}, testMessage(bob, alice, fmt.Sprintf("message %d", i), fmt.Sprintf("body %d", i)))
	}
	c := dialIMAP(t, srv, alice, alicePW, nil)
	if err := c.Create("herald/processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	before := fetchAll(t, c, "INBOX")
	if len(before) != 3 {
		t.Fatalf("INBOX has %d messages, want 3", len(before))
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	uidValidity := sel.UIDValidity
	// 1 -> herald/processed; 2 expunged; 3 stays, \Seen and a keyword.
	if _, err := c.Move(imap.UIDSetNum(before[0].uid), "herald/processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(before[1].uid), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.UIDSetNum(before[2].uid), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen, "$Herald"}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := srv.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}

	srv = startServer(t, Config{Dir: dir})
	c = dialIMAP(t, srv, alice, alicePW, nil)
	inbox := fetchAll(t, c, "INBOX")
	if len(inbox) != 1 {
		t.Fatalf("after restart INBOX has %d messages, want 1", len(inbox))
	}
	if inbox[0].uid != before[2].uid || !bytes.Equal(inbox[0].raw, before[2].raw) {
		t.Errorf("after restart INBOX holds uid %d %q, want uid %d, same bytes", inbox[0].uid, inbox[0].raw, before[2].uid)
	}
	if !hasFlag(inbox[0].flags, imap.FlagSeen) || !hasFlag(inbox[0].flags, "$Herald") {
		t.Errorf("after restart flags = %v, want \\Seen and $Herald", inbox[0].flags)
	}
	processed := fetchAll(t, c, "herald/processed")
	if len(processed) != 1 || !bytes.Equal(processed[0].raw, before[0].raw) {
		t.Fatalf("after restart herald/processed = %d messages, want the moved one", len(processed))
	}

	sel, err = c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.UIDValidity != uidValidity || sel.UIDNext != 4 {
		t.Errorf("after restart UIDVALIDITY %d UIDNEXT %d, want %d and 4", sel.UIDValidity, sel.UIDNext, uidValidity)
	}
	// The expunged message's file is gone; two remain.
	files, err := os.ReadDir(filepath.Join(dir, "mail", "alice@localhost", "messages"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Errorf("%d message files, want 2", len(files))
	}
	// UIDs go on from where they were.
	if err := srv.Deliver(bob, []string{alice}, testMessage(bob, alice, "message 4", "body 4")); err != nil {
		t.Fatal(err)
	}
	if got := fetchAll(t, c, "INBOX"); len(got) != 2 || got[1].uid != 4 {
		t.Errorf("new message after restart: %+v, want uid 4", got)
	}
}

func TestAccountsPersisted(t *testing.T) {
	dir := t.TempDir()
	srv, err := Start(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.AddAccount("Carol@Example.ORG", "pw-carol"); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddAccount(bob, bobPW); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddAccount("carol@example.org", "pw-carol"); err != nil {
		t.Errorf("AddAccount again with the same password = %v, want nil", err)
	}
	if err := srv.AddAccount("CAROL@example.org", "other"); !errors.Is(err, ErrAccountExists) {
		t.Errorf("AddAccount with another password = %v, want ErrAccountExists", err)
	}
	for _, bad := range []string{"", "carol", "Carol <carol@example.org>", "@example.org", "carol@"} {
		if err := srv.AddAccount(bad, "x"); err == nil {
			t.Errorf("AddAccount(%q) succeeded", bad)
		}
	}
	if err := srv.AddAccount("dave@example.org", ""); err == nil {
		t.Errorf("AddAccount with an empty password succeeded")
	}
	want := []string{bob, "carol@example.org"}
	if got := srv.Accounts(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Accounts() = %v, want %v", got, want)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddAccount("eve@example.org", "x"); !errors.Is(err, ErrClosed) {
		t.Errorf("AddAccount after Close = %v, want ErrClosed", err)
	}

	path := filepath.Join(dir, "accounts.yaml")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("accounts.yaml mode %v, want 0600", fi.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("pw-carol")) || bytes.Contains(data, []byte(bobPW)) {
		t.Errorf("accounts.yaml holds a password in clear:\n%s", data)
	}

	srv, err = Start(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if got := srv.Accounts(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("after restart Accounts() = %v, want %v", got, want)
	}
	if err := srv.AddAccount("carol@example.org", "pw-carol"); err != nil {
		t.Errorf("AddAccount after restart with the same password = %v", err)
	}
	if err := srv.AddAccount("carol@example.org", "other"); !errors.Is(err, ErrAccountExists) {
		t.Errorf("AddAccount after restart with another password = %v, want ErrAccountExists", err)
	}
	c := dialIMAPNoLogin(t, srv, nil)
	if err := c.Login("carol@example.org", "other").Wait(); err == nil {
		t.Errorf("login with a wrong password succeeded after restart")
	}
	if err := c.Login("CAROL@EXAMPLE.ORG", "pw-carol").Wait(); err != nil {
		t.Errorf("login after restart = %v", err)
	}
}

func TestDeliver(t *testing.T) {
	srv := startServer(t, Config{})
	raw := []byte("Subject: seeded\r\n\r\nfixture\r\n")
	if err := srv.Deliver(bob, []string{"ALICE@localhost", alice}, raw); err != nil {
		t.Fatalf("Deliver() = %v", err)
	}
	if err := srv.Deliver(bob, []string{bob, "nobody@localhost"}, raw); !errors.Is(err, ErrNoSuchAccount) || !strings.Contains(err.Error(), "nobody@localhost") {
		t.Errorf("Deliver to an unknown recipient = %v, want ErrNoSuchAccount naming it", err)
	}
	c := dialIMAP(t, srv, alice, alicePW, nil)
	got := fetchAll(t, c, "INBOX")
	if len(got) != 1 || !bytes.Equal(got[0].raw, raw) {
		t.Errorf("alice's INBOX = %+v, want the raw message once, byte for byte", got)
	}
	cb := dialIMAP(t, srv, bob, bobPW, nil)
	if got := fetchAll(t, cb, "INBOX"); len(got) != 0 {
		t.Errorf("bob got %d messages from a failed Deliver, want 0", len(got))
	}
}

func TestRefusesNonLoopback(t *testing.T) {
	for _, cfg := range []Config{
		{IMAPAddr: "0.0.0.0:0"},
		{IMAPAddr: ":0"},
		{SMTPAddr: "192.0.2.1:25"},
		{SMTPAddr: "example.com:25"},
	} {
		cfg.Dir = t.TempDir()
		srv, err := Start(cfg)
		if err == nil {
			srv.Close()
			t.Errorf("Start(%+v) succeeded", cfg)
			continue
		}
		if !strings.Contains(err.Error(), "loopback") {
			t.Errorf("Start(%+v) = %v, want an error about loopback", cfg, err)
		}
	}
	if _, err := Start(Config{}); err == nil {
		t.Errorf("Start without Dir succeeded")
	}
}

func TestDirLocked(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no lock on this platform")
	}
	srv := startServer(t, Config{})
	srv2, err := Start(Config{Dir: srv.cfg.Dir})
	if err == nil {
		srv2.Close()
		t.Fatal("second Start on the same Dir succeeded")
	}
}

func TestCloseWithIdlingClient(t *testing.T) {
	baseline := runtime.NumGoroutine()
	srv, err := Start(Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.AddAccount(alice, alicePW); err != nil {
		t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(alice, alicePW).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	// A second client idles without a selected mailbox, and an SMTP client
	// sits after HELO.
	c2, err := imapclient.DialInsecure(srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.Login(alice, alicePW).Wait(); err != nil {
		t.Fatal(err)
	}
	idle2, err := c2.Idle()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if err := sc.Hello("client.test"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // let the server enter IDLE

	start := time.Now()
	if err := srv.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close() took %v with idling clients", d)
	}
	for _, cl := range []*imapclient.Client{c, c2} {
		select {
		case <-cl.Closed():
		case <-time.After(2 * time.Second):
			t.Errorf("client still connected after Close")
		}
	}
	idle.Wait()
	idle2.Wait()
	c.Close()
	c2.Close()
	sc.Close()
	waitGoroutines(t, baseline)

	if err := srv.Close(); err != nil {
		t.Errorf("second Close() = %v, want nil", err)
	}
	if err := srv.Deliver(bob, []string{alice}, []byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Deliver after Close = %v, want ErrClosed", err)
	}
	// The Dir is free again.
	srv, err = Start(Config{Dir: srv.cfg.Dir})
	if err != nil {
		t.Fatalf("Start after Close = %v", err)
	}
	srv.Close()
}

func TestExamineIsReadOnly(t *testing.T) {
	srv := startServer(t, Config{})
	mustSend(t, srv, bob, []string{alice}, testMessage(bob, alice, "read me", "x"))
	c := dialIMAP(t, srv, alice, alicePW, nil)
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatal(err)
	}
	// A non-peek fetch does not set \Seen, STORE is refused.
	if _, err := c.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.SeqSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err == nil {
		t.Errorf("STORE in EXAMINE succeeded")
	}
	got := fetchAll(t, c, "INBOX")
	if len(got) != 1 || len(got[0].flags) != 0 {
		t.Errorf("after EXAMINE: %+v, want one message without flags", got)
	}
	// With SELECT a non-peek fetch sets \Seen.
	if _, err := c.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect(); err != nil {
		t.Fatal(err)
	}
	if got := fetchAll(t, c, "INBOX"); !hasFlag(got[0].flags, imap.FlagSeen) {
		t.Errorf("after FETCH BODY[] flags = %v, want \\Seen", got[0].flags)
	}
}

func TestMailboxManagement(t *testing.T) {
	srv := startServer(t, Config{})
	c := dialIMAP(t, srv, alice, alicePW, nil)
	for _, name := range []string{"a/b/c", "x"} {
		if err := c.Create(name, nil).Wait(); err != nil {
			t.Fatalf("Create(%q) = %v", name, err)
		}
	}
	if err := c.Delete("INBOX").Wait(); err == nil {
		t.Errorf("DELETE INBOX succeeded")
	}
	if err := c.Delete("a").Wait(); err == nil {
		t.Errorf("DELETE of a mailbox with inferiors succeeded")
	}
	if err := c.Rename("a", "z/a", nil).Wait(); err != nil {
		t.Fatalf("RENAME = %v", err)
	}
	// COPY to x shares the message file; DELETE x keeps it for INBOX.
	if err := srv.Deliver(bob, []string{alice}, testMessage(bob, alice, "keep", "x")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Copy(imap.SeqSetNum(1), "x").Wait(); err != nil {
		t.Fatalf("COPY = %v", err)
	}
	if err := c.Delete("x").Wait(); err != nil {
		t.Fatalf("DELETE x = %v", err)
	}
	if err := c.Create("x", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	sort.Strings(names)
	if want := "INBOX x z z/a z/a/b z/a/b/c"; strings.Join(names, " ") != want {
		t.Errorf("mailboxes = %v, want %s", names, want)
	}
	if got := fetchAll(t, c, "INBOX"); len(got) != 1 || len(bodyOf(got[0].raw)) == 0 {
		t.Errorf("INBOX after deleting a copy = %+v", got)
	}
	if got := fetchAll(t, c, "x"); len(got) != 0 {
		t.Errorf("re-created x has %d messages, want 0", len(got))
	}
	if st, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true, NumUnseen: true}).Wait(); err != nil || *st.NumMessages != 1 || *st.NumUnseen != 1 {
		t.Errorf("STATUS INBOX = %+v, %v", st, err)
	}
}

// TestConcurrentDeliveryAndMove delivers from several goroutines while a
// client moves every message it is told about; nothing is lost or doubled,
// before and after a restart. Run it with -race.
func TestConcurrentDeliveryAndMove(t *testing.T) {
	dir := t.TempDir()
	srv, err := Start(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.AddAccount(alice, alicePW); err != nil {
		t.Fatal(err)
	}
	c := dialIMAP(t, srv, alice, alicePW, nil)
	if err := c.Create("herald/processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}

	const senders, each = 4, 5
	var wg sync.WaitGroup
	for s := 0; s < senders; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				msg := testMessage(bob, alice, fmt.Sprintf("s%d-%d", s, i), "x")
				var err error
				if i%2 == 0 {
					err = srv.Deliver(bob, []string{alice}, msg)
				} else {
					err = sendSMTP(srv, nil, bob, []string{alice}, msg)
				}
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	moved := 0
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		if err := c.Noop().Wait(); err != nil {
			t.Fatal(err)
		}
		if c.Mailbox().NumMessages == 0 {
			time.Sleep(time.Millisecond)
			continue
		}
		data, err := c.Move(imap.SeqSet{{Start: 1, Stop: 0}}, "herald/processed").Wait()
		if err != nil {
			t.Fatalf("MOVE = %v", err)
		}
		uids, _ := data.DestUIDs.(imap.UIDSet).Nums()
		moved += len(uids)
	}
	if err := c.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
	inbox := fetchAll(t, c, "INBOX")
	if moved+len(inbox) != senders*each {
		t.Errorf("moved %d + INBOX %d, want %d", moved, len(inbox), senders*each)
	}
	c.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}

	srv = startServer(t, Config{Dir: dir})
	c = dialIMAP(t, srv, alice, alicePW, nil)
	processed := fetchAll(t, c, "herald/processed")
	if got := len(processed) + len(fetchAll(t, c, "INBOX")); got != senders*each {
		t.Errorf("after restart %d messages, want %d", got, senders*each)
	}
	subjects := make(map[string]bool)
	for _, m := range processed {
		subjects[string(m.raw)] = true
	}
	if len(subjects) != len(processed) {
		t.Errorf("herald/processed holds duplicates")
	}
}

// TestPlusAddressing delivers mail to alice+tag@… into alice's INBOX, as
// Postfix with recipient_delimiter "+" does (herald's reply addresses carry
// a seat's token so); an unknown base address is still refused.
func TestPlusAddressing(t *testing.T) {
	srv := startServer(t, Config{})
	local, domain, _ := strings.Cut(alice, "@")
	tagged := local + "+g12.5f0c@" + domain
	mustSend(t, srv, bob, []string{tagged}, testMessage(bob, tagged, "re", "key K"))
	c := dialIMAP(t, srv, alice, alicePW, nil)
	if got := fetchAll(t, c, "INBOX"); len(got) != 1 {
		t.Fatalf("alice's INBOX has %d messages, want the one sent to %s", len(got), tagged)
	}
	if err := sendSMTP(srv, nil, bob, []string{"nobody+x@" + domain}, testMessage(bob, "nobody+x@"+domain, "hi", "hi")); smtpCode(err) != 550 {
		t.Errorf("RCPT TO an unknown base address with a tag = %v, want 550", err)
	}
}
