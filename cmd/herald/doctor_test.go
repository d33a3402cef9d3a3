package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/heraldgames/herald/mail/embedded"
)

// doctorRig is a provider played by the embedded servers, with herald's
// account herald@herald.test (password "pw"), and the flags of herald
// doctor for it.
type doctorRig struct {
	srv  *embedded.Server
	dir  string
	args []string
}

func newDoctorRig(t *testing.T, cfg embedded.Config) *doctorRig {
	t.Helper()
	dir := t.TempDir()
	cfg.Dir = filepath.Join(dir, "mail")
	cfg.Accounts = append(cfg.Accounts, embedded.Account{Address: "herald@herald.test", Password: "pw"})
	srv, err := embedded.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	pw := filepath.Join(dir, "password")
	if err := os.WriteFile(pw, []byte("pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return &doctorRig{srv: srv, dir: dir, args: []string{"doctor", "--imap-host", srv.IMAPAddr(), "--smtp-host", srv.SMTPAddr(),
		"--address", "herald@herald.test", "--password-file", pw, "--security", "none", "--data", filepath.Join(dir, "data"), "--wait", "3s"}}
}

// with returns r's flags with flag name set to value (added, or replacing
// the one there).
func (r *doctorRig) with(kv ...string) []string {
	args := append([]string(nil), r.args...)
	for i := 0; i+1 < len(kv); i += 2 {
		found := false
		for j := range args {
			if args[j] == kv[i] && j+1 < len(args) {
				args[j+1], found = kv[i+1], true
			}
		}
		if !found {
			args = append(args, kv[i], kv[i+1])
		}
	}
	return args
}

// inbox returns the subjects in herald's INBOX.
func (r *doctorRig) inbox(t *testing.T) []string {
	t.Helper()
	c, err := imapclient.DialInsecure(r.srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("herald@herald.test", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imap.SeqSetNum(), &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		return nil // an empty mailbox
	}
	var subjects []string
	for _, m := range msgs {
		subjects = append(subjects, m.Envelope.Subject)
	}
	return subjects
}

// doctorCase is one run of herald doctor and what it must say.
type doctorCase struct {
	name string
	args []string
	code int
	want []string // lines (regexps) stdout must have
}

func runDoctor(t *testing.T, c doctorCase) result {
	t.Helper()
	r := herald(t, "", c.args...)
	if c.code == 1 && !strings.Contains(r.stderr, "herald doctor: ") || c.code == 0 && !strings.HasSuffix(r.stdout, "herald doctor: serve would work\n") {
		t.Errorf("%s: no verdict:\n%v", c.name, r)
	}
	if r.code != c.code {
		t.Errorf("%s: exit %d, want %d:\n%v", c.name, r.code, c.code, r)
	}
	for _, w := range c.want {
		if !regexp.MustCompile(`(?m)` + w).MatchString(r.stdout) {
			t.Errorf("%s: stdout lacks %q:\n%v", c.name, w, r)
		}
	}
	return r
}

// TestDoctorEmbedded runs herald doctor against the embedded servers as a
// provider, healthy and broken: a wrong password, security tls on a
// plain port, plain on a TLS port, STARTTLS not offered, an untrusted
// certificate, no plus-addressing (with reply tokens on and off), no IDLE
// nor MOVE, a data directory open to others or not a directory.
func TestDoctorEmbedded(t *testing.T) {
	r := newDoctorRig(t, embedded.Config{})
	runDoctor(t, doctorCase{name: "healthy", args: r.args, code: 0, want: []string{
		`^ok +IMAP 127.0.0.1:\d+ answers with security none$`,
		`^ok +IMAP login as herald@herald.test$`,
		`^ok +IMAP IDLE`, `^ok +IMAP MOVE`,
		`^ok +IMAP folders herald/processed, herald/rejected, herald/failed are there$`,
		`^ok +SMTP login as herald@herald.test$`,
		`^ok +a mail sent to herald@herald.test reached the INBOX`,
		`^ok +the clock agrees`,
		`^ok +plus-addressing: a mail to herald\+doctor\.[0-9a-f]+@herald.test reached herald's INBOX$`,
		`^ok +the data directory .* does not exist yet; serve will make it`,
	}})
	if left := r.inbox(t); len(left) != 0 {
		t.Errorf("doctor left its test mails in the INBOX: %q", left)
	}

	badpw := filepath.Join(r.dir, "bad")
	os.WriteFile(badpw, []byte("wrong\n"), 0o600)
	runDoctor(t, doctorCase{name: "wrong password", args: r.with("--password-file", badpw), code: 1, want: []string{
		`^FAIL +IMAP login as herald@herald.test: imap login: .*`,
		`^ +fix: check user and password-file`,
		`^skip +SMTP`,
	}})

	runDoctor(t, doctorCase{name: "tls on a plain port", args: r.with("--security", "tls"), code: 1, want: []string{
		`^FAIL +IMAP 127.0.0.1:\d+ with security tls: .*`,
		`^ +fix: the server speaks plain text on this port and offers no TLS: use the provider's TLS port \(993 with security tls`,
	}})
	runDoctor(t, doctorCase{name: "starttls not offered", args: r.with("--security", "starttls"), code: 1, want: []string{
		`^FAIL +IMAP 127.0.0.1:\d+ with security starttls: .*`,
		`^ +fix: the server offers no STARTTLS on this port`,
	}})

	// A TLS front for the embedded IMAP server, with a certificate this
	// machine does not trust.
	tlsAddr := tlsFront(t, r.srv.IMAPAddr())
	runDoctor(t, doctorCase{name: "plain on a TLS port", args: r.with("--imap-host", tlsAddr), code: 1, want: []string{
		`^FAIL +IMAP 127.0.0.1:\d+ with security none: .*`,
		`^ +fix: the server speaks TLS from the first byte on this port: use security: tls`,
	}})
	runDoctor(t, doctorCase{name: "untrusted certificate", args: r.with("--imap-host", tlsAddr, "--security", "tls"), code: 1, want: []string{
		`^ +fix: the server's certificate is signed by an authority this machine does not trust`,
	}})

	noplus := newDoctorRig(t, embedded.Config{NoPlusAddressing: true})
	runDoctor(t, doctorCase{name: "no plus-addressing", args: noplus.args, code: 1, want: []string{
		`^ok +a mail sent to herald@herald.test reached the INBOX`,
		`^FAIL +plus-addressing: the SMTP server refused a mail to herald\+doctor\.[0-9a-f]+@herald.test .*reply tokens use such addresses$`,
		`^ +fix: turn reply tokens off \(reply-tokens: off\)`,
	}})
	runDoctor(t, doctorCase{name: "no plus-addressing, reply tokens off", args: noplus.with("--reply-tokens", "off"), code: 0, want: []string{
		`^ok +plus-addressing: .* does not come back, and reply tokens are off: nothing needs it$`,
	}})

	runDoctor(t, doctorCase{name: "no IDLE nor MOVE", args: r.with("--imap-host", capsFilter(t, r.srv.IMAPAddr(), "IDLE", "MOVE")), code: 0, want: []string{
		`^warn +IMAP 127.0.0.1:\d+ has no IDLE: serve looks for new mail every poll interval instead$`,
		`^warn +IMAP 127.0.0.1:\d+ has no MOVE`,
		`^ok +plus-addressing`,
	}})

	open := filepath.Join(r.dir, "open")
	os.Mkdir(open, 0o755)
	os.Chmod(open, 0o755)
	runDoctor(t, doctorCase{name: "data open to others", args: r.with("--data", open), code: 0, want: []string{
		`^warn +the data directory .*open is open to others \(mode 0755\)`, `^ +fix: chmod 700 `,
	}})
	runDoctor(t, doctorCase{name: "data not a directory", args: r.with("--data", badpw), code: 1, want: []string{
		`^FAIL +the data directory .* is not a directory`,
	}})
	runDoctor(t, doctorCase{name: "no address", args: []string{"doctor", "--imap-host", "127.0.0.1:1", "--data", open}, code: 1, want: []string{
		`^FAIL +the configuration: a provider needs`,
	}})
	runDoctor(t, doctorCase{name: "unreachable", args: r.with("--imap-host", closedPort(t)), code: 1, want: []string{
		`^FAIL +IMAP 127.0.0.1:\d+ cannot be reached`, `^ +fix: check the IMAP host and port`,
	}})
}

// TestDoctorOAuth logs in with herald oauth login against a provider the
// test serves, then checks with herald doctor that serve's configuration
// as printed works end to end on the embedded servers, which accept the
// provider's access tokens only; and that a revoked refresh token fails,
// saying to log in again.
func TestDoctorOAuth(t *testing.T) {
	p := newFakeProvider(t, "")
	r := newDoctorRig(t, embedded.Config{Bearer: p.Bearer})
	refresh := filepath.Join(r.dir, "refresh-token")
	login := herald(t, "", "oauth", "login", "--provider", "microsoft", "--client-id", p.clientID,
		"--device-url", p.URL+"/devicecode", "--token-url", p.URL+"/token", "--out", refresh)
	if login.code != 0 {
		t.Fatalf("login:\n%v", login)
	}
	// serve's config, as login printed it, on the test's servers.
	var conf strings.Builder
	for _, line := range strings.Split(login.stdout, "\n") {
		if k, _, ok := strings.Cut(line, ": "); ok && (strings.HasPrefix(k, "oauth-") || k == "auth") {
			conf.WriteString(line + "\n")
		}
	}
	conf.WriteString("imap-host: " + r.srv.IMAPAddr() + "\nsmtp-host: " + r.srv.SMTPAddr() + "\nsecurity: none\naddress: herald@herald.test\n")
	confFile := filepath.Join(r.dir, "serve.yaml")
	os.WriteFile(confFile, []byte(conf.String()), 0o600)
	args := []string{"doctor", "--config", confFile, "--data", filepath.Join(r.dir, "data"), "--wait", "3s"}
	res := runDoctor(t, doctorCase{name: "oauth2", args: args, code: 0, want: []string{
		`^ok +IMAP login as herald@herald.test$`, `^ok +SMTP login as herald@herald.test$`, `^ok +plus-addressing`,
	}})
	for _, s := range p.secrets {
		if strings.Contains(res.stdout+res.stderr, s) {
			t.Errorf("doctor shows a token")
		}
	}
	os.WriteFile(refresh, []byte("revoked\n"), 0o600)
	runDoctor(t, doctorCase{name: "oauth2 revoked", args: args, code: 1, want: []string{
		`^FAIL +IMAP login as herald@herald.test: mail: oauth2: .* refused the refresh token \(invalid_grant\); it was revoked or has expired: run herald oauth login again$`,
	}})
}

// TestDoctorRealmail runs herald doctor against the real Postfix and
// Dovecot (../shared/realmail), healthy and with a wrong password. Run it
// under flock /tmp/realmail.lock with HERALD_REALMAIL=1, or on an instance
// of one's own (REALMAIL_DIR, REALMAIL_IMAP_PORT, REALMAIL_SMTP_PORT).
func TestDoctorRealmail(t *testing.T) {
	if os.Getenv("HERALD_REALMAIL") == "" {
		t.Skip("HERALD_REALMAIL is not set (the real servers are shared: run under flock /tmp/realmail.lock)")
	}
	env := func(name, def string) string {
		if v := os.Getenv(name); v != "" {
			return v
		}
		return def
	}
	imapAddr := "127.0.0.1:" + env("REALMAIL_IMAP_PORT", "1143")
	smtpAddr := "127.0.0.1:" + env("REALMAIL_SMTP_PORT", "2525")
	conf := filepath.Join(env("REALMAIL_DIR", "/tmp/realmail"), "etc", "dovecot.conf")
	if c, err := net.DialTimeout("tcp", imapAddr, time.Second); err != nil {
		t.Fatalf("HERALD_REALMAIL is set but Dovecot does not answer: %v", err)
	} else {
		c.Close()
	}
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	os.WriteFile(pw, []byte("herald-pw\n"), 0o600)
	args := []string{"doctor", "--imap-host", imapAddr, "--smtp-host", smtpAddr, "--address", "herald@herald.test",
		"--password-file", pw, "--security", "none", "--data", filepath.Join(dir, "data"), "--wait", "10s"}
	runDoctor(t, doctorCase{name: "realmail", args: args, code: 0, want: []string{
		`^ok +IMAP login as herald@herald.test$`, `^ok +IMAP IDLE`, `^ok +IMAP MOVE`, `^ok +SMTP login as herald@herald.test$`,
		`^ok +a mail sent to herald@herald.test reached the INBOX`, `^ok +plus-addressing: a mail to herald\+doctor`,
	}})
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("nope\n"), 0o600)
	runDoctor(t, doctorCase{name: "realmail wrong password", args: append(args, "--password-file", bad), code: 1, want: []string{
		`^FAIL +IMAP login as herald@herald.test`,
	}})
	if _, err := exec.LookPath("doveadm"); err == nil {
		// Dovecot's view: doctor's mails are gone from herald's INBOX.
		out, _ := exec.Command("doveadm", "-c", conf, "search", "-u", "herald@herald.test", "mailbox", "INBOX", "header", "Subject", "herald doctor").CombinedOutput()
		if strings.TrimSpace(string(out)) != "" {
			t.Errorf("doctor's mails are left in the INBOX: %s", out)
		}
	}
}

// tlsFront serves implicit TLS on a new port of 127.0.0.1, with a
// self-signed certificate, and passes the plain text on to addr.
func tlsFront(t *testing.T, addr string) string {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mail.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go proxy(ln, addr, func(line string) string { return line })
	return ln.Addr().String()
}

// capsFilter serves on a new port of 127.0.0.1 a copy of the IMAP server
// at addr whose capabilities lack drop.
func capsFilter(t *testing.T, addr string, drop ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go proxy(ln, addr, func(line string) string {
		if !strings.Contains(line, "CAPABILITY") {
			return line
		}
		for _, d := range drop {
			line = strings.ReplaceAll(line, " "+d+" ", " ")
			line = strings.ReplaceAll(line, " "+d+"]", "]")
			line = strings.ReplaceAll(line, " "+d+"\r\n", "\r\n")
		}
		return line
	})
	return ln.Addr().String()
}

// proxy passes each connection of ln on to addr, each line from the
// server through edit.
func proxy(ln net.Listener, addr string, edit func(string) string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			s, err := net.Dial("tcp", addr)
			if err != nil {
				return
			}
			defer s.Close()
			go io.Copy(s, c)
			r := bufio.NewReader(s)
			for {
				line, err := r.ReadString('\n')
				if line != "" {
					if _, werr := io.WriteString(c, edit(line)); werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
}

// closedPort returns an address of 127.0.0.1 where nothing listens.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
