package mail

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// ownRealmail is a private instance of ../shared/realmail (its up.sh with
// a REALMAIL_DIR and ports of its own), for a test that changes the
// servers' configuration, which the shared instance must not see.
type ownRealmail struct {
	dir, smtp, imap string
	env             []string // REALMAIL_DIR and the ports, for up.sh and down.sh
}

// startOwnRealmail starts a private realmail instance, empty, and stops it
// and removes its directory when the test ends. It skips where realmail
// cannot run (no ../shared/realmail, not root), unless HERALD_REALMAIL
// says the shared instance runs here: then it fails.
func startOwnRealmail(t *testing.T) *ownRealmail {
	t.Helper()
	var up string
	for _, d := range []string{"../../shared/realmail", "/work/shared/realmail"} {
		if _, err := os.Stat(filepath.Join(d, "up.sh")); err == nil {
			up = filepath.Join(d, "up.sh")
			break
		}
	}
	if up == "" || os.Geteuid() != 0 {
		if os.Getenv("HERALD_REALMAIL") != "" {
			t.Fatalf("HERALD_REALMAIL is set, but a private realmail cannot start here (up.sh %q, uid %d)", up, os.Geteuid())
		}
		t.Skip("a private realmail needs ../shared/realmail/up.sh and root")
	}
	dir, err := os.MkdirTemp("", "rm") // short: Dovecot's socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	rm := &ownRealmail{dir: dir}
	smtpPort, imapPort := freePort(t), freePort(t)
	rm.smtp, rm.imap = "127.0.0.1:"+smtpPort, "127.0.0.1:"+imapPort
	rm.env = append(os.Environ(), "REALMAIL_DIR="+dir, "REALMAIL_SMTP_PORT="+smtpPort, "REALMAIL_IMAP_PORT="+imapPort)
	t.Cleanup(func() {
		cmd := exec.Command(filepath.Join(filepath.Dir(up), "down.sh"))
		cmd.Env = rm.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("down.sh: %v\n%s", err, out)
		}
		os.RemoveAll(dir)
	})
	// The daemons up.sh starts must not inherit any file of this process
	// but the standard ones: the lock of `flock /tmp/realmail.lock go test`
	// among them would outlive the test in them.
	cmd := exec.Command("bash", "-c", `for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd<&-" 2>/dev/null; done; exec "$0"`, up)
	cmd.Env = rm.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("up.sh for a private realmail in %s: %v\n%s", dir, err, out)
	}
	return rm
}

// freePort returns a TCP port free on 127.0.0.1 now.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// doveadm runs doveadm on the instance's Dovecot.
func (rm *ownRealmail) doveadm(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("doveadm", append([]string{"-c", filepath.Join(rm.dir, "etc/dovecot.conf")}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("doveadm %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// fillMailbox gives user's mailbox a quota of 1 KiB, as a mailbox that is
// full: Dovecot refuses every mail to it at delivery (552 5.2.2), after
// Postfix has accepted it, and Postfix bounces it to its sender.
func (rm *ownRealmail) fillMailbox(t *testing.T, user string) {
	t.Helper()
	users := filepath.Join(rm.dir, "etc/users")
	data, err := os.ReadFile(users)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, user+":") })
	if i < 0 {
		t.Fatalf("no account %s in %s", user, users)
	}
	lines[i] += "::userdb_quota_rule=*:storage=1" // passwd-file: the shell, then extra fields
	if err := os.WriteFile(users, []byte(strings.Join(lines, "\n")+"\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	conf, err := os.OpenFile(filepath.Join(rm.dir, "etc/dovecot.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conf.WriteString("# a test's full mailbox: quotas (the limit is the account's)\nmail_plugins = $mail_plugins quota\nplugin {\n  quota = maildir:User quota\n}\n")
	if cerr := conf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	rm.doveadm(t, "reload")
	deadline := time.Now().Add(10 * time.Second)
	for !regexp.MustCompile(`(?m)^User quota STORAGE\s+\d+\s+1\s`).MatchString(rm.doveadm(t, "quota", "get", "-u", user)) {
		if time.Now().After(deadline) {
			t.Fatalf("Dovecot gives %s no quota after a reload:\n%s", user, rm.doveadm(t, "quota", "get", "-u", user))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// reports returns the Message-IDs, without brackets, of the delivery
// reports in herald's mailbox, in any folder.
func (rm *ownRealmail) reports(t *testing.T) []string {
	t.Helper()
	out := rm.doveadm(t, "fetch", "-u", "herald@herald.test", "hdr.message-id", "mailbox", "*", "header", "Content-Type", "report-type=delivery-status")
	var ids []string
	for _, m := range regexp.MustCompile(`(?mi)^hdr\.message-id:\s*<([^>\s]+)>`).FindAllStringSubmatch(out, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// testRealmailBounce: a real Postfix accepts herald's mail to a player
// whose mailbox is full, Dovecot refuses it at delivery (552 5.2.2), and
// Postfix bounces it with its own delivery report (RFC 3464) to herald's
// mailbox. herald's intake recognises the report, marks the seat
// undeliverable with the reason in words, tells the game's host once
// (a second bounce tells no one), and never answers the report (issue
// 31, item 2, on a real server). The shared instance refuses an unknown
// user at RCPT and has no quota, so this runs on a private one.
func testRealmailBounce(t *testing.T) {
	rm := startOwnRealmail(t)
	rm.fillMailbox(t, "carol@herald.test")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := &featureRig{t: t, imap: rm.imap, smtp: rm.smtp, herald: "herald@herald.test",
		password: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" },
		clock:    time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), seen: map[string]int{}}
	r.start(ctx, "herald-pw")
	st := r.svc.cfg.Store
	r.send("dave@herald.test", "", "new", "new raubritter players alice@herald.test carol@herald.test")
	aw := r.await("alice@herald.test", "welcome")
	notice := r.await("dave@herald.test", "mail to carol bounces")
	_, body, _ := strings.Cut(notice, "\n\n")
	body = strings.Join(strings.Fields(strings.ReplaceAll(body, "=\n", "")), " ")
	for _, want := range []string{"carol (carol@herald.test), who plays G1, bounces",
		"the mailbox is full (status 5.2.2)", "Quota exceeded", "replace carol by NEW-ADDRESS"} {
		if !strings.Contains(body, want) {
			t.Errorf("the host's notice lacks %q:\n%s", want, notice)
		}
	}
	games, err := st.Games(ctx)
	if err != nil || len(games) != 1 || !slices.Equal(games[0].Undeliverable, []string{"carol@herald.test"}) {
		t.Fatalf("herald games = %+v, %v; want carol's seat undeliverable", games, err)
	}
	g, err := st.Game(ctx, games[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Address == "carol@herald.test" }); i < 0 ||
		!strings.Contains(g.Players[i].Undeliverable, "the mailbox is full (status 5.2.2)") {
		t.Errorf("the seats: %+v; want carol's marked: the mailbox is full", g.Players)
	}

	// Alice plays: the news of her move to carol bounces too, and the host
	// is not told again.
	key := featureKey.FindStringSubmatch(aw)
	step := featureLegal.FindStringSubmatch(strings.ReplaceAll(aw, "=\n", ""))
	if key == nil || step == nil {
		t.Fatalf("no key or no legal step in alice's welcome:\n%s", aw)
	}
	r.send("alice@herald.test", "", "Re: [herald G1]", "key "+key[1]+"\n"+step[1])
	r.await("alice@herald.test", "move applied")
	var ids []string
	for deadline := time.Now().Add(45 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		ids = rm.reports(t)
		done := len(ids) >= 2
		for _, id := range ids {
			if ok, err := st.Processed(ctx, id); err != nil || !ok {
				done = false
			}
		}
		if n, err := st.Pending(ctx); err != nil || n > 0 {
			done = false
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("in 45 s: delivery reports %q in herald's mailbox, want two, processed, nothing left to send", ids)
		}
	}
	for _, raw := range r.fetchNew("dave@herald.test") {
		if m := subjectLine.FindStringSubmatch(raw); m != nil && strings.Contains(m[1], "bounces") {
			t.Errorf("the host was told again of carol's bounce:\n%s", raw)
		}
	}

	// herald answered neither report: Postfix saw no mail to
	// MAILER-DAEMON (it would refuse it at RCPT, and herald would set it
	// aside).
	log, err := os.ReadFile(filepath.Join(rm.dir, "log/postfix.log"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(bytes.ToLower(log), []byte("status=bounced")); n < 2 {
		t.Errorf("Postfix bounced %d mails, want carol's two:\n%s", n, log)
	}
	if m := regexp.MustCompile(`(?im)^.*to=<mailer-daemon@.*$`).Find(log); m != nil {
		t.Errorf("herald answered a delivery report: %s", m)
	}
	if list, err := st.SetAsideList(ctx); err != nil || len(list) != 0 {
		t.Errorf("set aside: %+v, %v; want nothing", list, err)
	}
}
