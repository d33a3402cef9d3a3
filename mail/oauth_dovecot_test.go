package mail

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
)

// TestOAuthDovecot logs in with OAuth2 access tokens to a real Dovecot of
// the test's own (its config, sockets, log and mail in a temporary
// directory, on a free port of 127.0.0.1; ../shared/realmail is left
// alone), whose oauth2 passdb asks a token-introspection endpoint
// (RFC 7662) the test serves: OAUTHBEARER and XOAUTH2, a token revoked
// before its expiry replaced after Dovecot's refusal, and no token in
// herald's errors. It needs dovecot and root (Dovecot's
// services change user); elsewhere it skips.
func TestOAuthDovecot(t *testing.T) {
	bin, err := exec.LookPath("dovecot")
	if err != nil {
		t.Skip("dovecot is not installed")
	}
	if os.Geteuid() != 0 {
		t.Skip("dovecot needs root here")
	}
	ts := newTokenServer(t, time.Hour)
	var introspections atomic.Int32
	introspect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		introspections.Add(1)
		token := r.Form.Get("token")
		if token == "" { // Dovecot may send it as a bearer header
			token, _ = strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
		w.Header().Set("Content-Type", "application/json")
		if ts.check("", token) != nil {
			json.NewEncoder(w).Encode(map[string]any{"active": false})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"active": true, "username": "herald@herald.test", "scope": "mail"})
	}))
	defer introspect.Close()

	dir := t.TempDir()
	// Dovecot's processes run as nobody and dovenull: let them in.
	for d := dir; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	for _, d := range []string{"run", "state", "home"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := exec.Command("chown", "nobody", filepath.Join(dir, "home")).Run(); err != nil {
		t.Skip("no user nobody: ", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	oauthConf := filepath.Join(dir, "oauth2.conf.ext")
	os.WriteFile(oauthConf, []byte(fmt.Sprintf(`introspection_mode = post
introspection_url = %s/introspect
username_attribute = username
active_attribute = active
active_value = true
`, introspect.URL)), 0o644)
	conf := filepath.Join(dir, "dovecot.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf(`instance_name = herald-oauth-%d
base_dir = %[2]s/run
state_dir = %[2]s/state
log_path = %[2]s/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = xoauth2 oauthbearer
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:~/Maildir
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = %[3]s
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=%[2]s/home/%%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = %[1]d
  }
  inet_listener imaps {
    port = 0
  }
}
`, port, dir, oauthConf)), 0o644)
	// Dovecot's master goes to the background and its children keep
	// their standard output: a file, not a pipe the test would wait on.
	outFile, err := os.Create(filepath.Join(dir, "dovecot.out"))
	if err != nil {
		t.Fatal(err)
	}
	start := exec.Command(bin, "-c", conf)
	start.Stdout, start.Stderr = outFile, outFile
	err = start.Run()
	outFile.Close()
	if err != nil {
		out, _ := os.ReadFile(outFile.Name())
		t.Fatalf("dovecot: %v\n%s", err, out)
	}
	defer exec.Command("doveadm", "-c", conf, "stop").Run()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if i == 100 {
			log, _ := os.ReadFile(filepath.Join(dir, "dovecot.log"))
			t.Fatalf("dovecot does not answer on %s:\n%s", addr, log)
		}
		time.Sleep(50 * time.Millisecond)
	}

	tokens, err := NewOAuthTokens(ts.config(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := Server{Addr: addr, Security: Plain, Username: "herald@herald.test", OAuth: tokens}
	login := func() error {
		c, err := imapclient.DialInsecure(addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := s.imapLogin(ctx, c); err != nil {
			return err
		}
		// Logged in for real: the INBOX is there.
		_, err = c.Select("INBOX", nil).Wait()
		return err
	}
	for _, mech := range []string{sasl.OAuthBearer, XOAuth2} {
		tokens.mech = mech
		if err := login(); err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "dovecot.log"))
			t.Fatalf("%s: login to Dovecot = %v\n%s", mech, err, log)
		}
		// Revoked: Dovecot refuses it, herald gets a new one.
		ts.revoke()
		_, before := ts.stats()
		if err := login(); err != nil {
			t.Errorf("%s: login after a revoked token = %v", mech, err)
		}
		if _, after := ts.stats(); after != before+1 {
			t.Errorf("%s: %d new tokens for a revoked one, want 1", mech, after-before)
		}
	}
	if introspections.Load() < 4 {
		t.Errorf("Dovecot asked the introspection endpoint %d times: it did not check the tokens", introspections.Load())
	}
	// Every token refused: an error that names none.
	ts.mu.Lock()
	ts.life = -time.Hour
	ts.mu.Unlock()
	tokens.Refused(tokens.tok.AccessToken)
	if err := login(); err == nil {
		t.Errorf("a login with expired tokens succeeded")
	} else {
		assertNoSecret(t, "the error", err.Error(), ts.secrets)
	}
}
