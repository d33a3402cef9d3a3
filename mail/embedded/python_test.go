package embedded

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// pythonIMAP is a plain imaplib client: the kind of third-party client the
// server must work with, besides go-imap's own.
const pythonIMAP = `
import imaplib, sys
host, port, user, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
m = imaplib.IMAP4(host, port)
print("caps", " ".join(sorted(m.capabilities)))
m.login(user, password)
typ, data = m.select("INBOX")
print("select", typ, data[0].decode())
typ, data = m.uid("SEARCH", None, "ALL")
uids = data[0].decode().split()
print("search", typ, " ".join(uids))
typ, data = m.uid("FETCH", uids[0], "(BODY.PEEK[])")
print("fetch", typ, b"Subject: from python test" in data[0][1])
typ, data = m.create("herald/processed")
print("create", typ)
typ, data = m.uid("MOVE", uids[0], "herald/processed")
print("move", typ)
typ, data = m.list()
print("list", typ, sorted(d.decode() for d in data))
typ, data = m.status("herald/processed", "(MESSAGES)")
print("status", typ, data[0].decode())
typ, data = m.append("INBOX", "\\Seen", None, b"Subject: appended\r\n\r\nhi\r\n")
print("append", typ)
m.logout()
`

func TestPythonImaplib(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	srv := startServer(t, Config{})
	mustSend(t, srv, bob, []string{alice}, testMessage(bob, alice, "from python test", "hello"))

	host, port, _ := strings.Cut(srv.IMAPAddr(), ":")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "-c", pythonIMAP, host, port, alice, alicePW).CombinedOutput()
	if err != nil {
		t.Fatalf("python imaplib: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		"caps AUTH=PLAIN IMAP4REV1",
		"select OK 1\n",
		"search OK 1\n",
		"fetch OK True\n",
		"create OK\n",
		"move OK\n",
		`list OK ['(\\HasChildren) "/" "herald"', '(\\HasNoChildren \\Subscribed) "/" INBOX', '(\\HasNoChildren) "/" "herald/processed"']`,
		"status OK \"herald/processed\" (MESSAGES 1)\n",
		"append OK\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("python output lacks %q:\n%s", want, got)
		}
	}
	c := dialIMAP(t, srv, alice, alicePW, nil)
	inbox := fetchAll(t, c, "INBOX")
	if len(inbox) != 1 || !strings.Contains(string(inbox[0].raw), "Subject: appended") || !hasFlag(inbox[0].flags, "\\Seen") {
		t.Errorf("INBOX after python = %+v, want the appended message, \\Seen", inbox)
	}
}
