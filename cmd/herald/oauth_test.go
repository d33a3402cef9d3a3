package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeProvider is a provider's OAuth2 endpoints, served by the test: the
// device authorization endpoint (RFC 8628), the authorization endpoint of
// installed applications (it redirects at once, as after a sign-in, with
// the PKCE challenge kept), and the token endpoint for the device code,
// the authorization code and the refresh token. Bearer tells a mail
// server whether an access token is one it issued.
type fakeProvider struct {
	*httptest.Server
	clientID, secret string

	mu        sync.Mutex
	pending   int               // polls answered authorization_pending before the sign-in
	polls     int               // device-code polls
	challenge map[string]string // authorization code -> PKCE challenge
	refresh   map[string]bool   // refresh tokens issued
	access    map[string]bool   // access tokens issued
	secrets   []string          // every token issued
}

func newFakeProvider(t *testing.T, secret string) *fakeProvider {
	p := &fakeProvider{clientID: "herald-app", secret: secret, pending: 1,
		challenge: map[string]string{}, refresh: map[string]bool{}, access: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/devicecode", p.deviceCode)
	mux.HandleFunc("/authorize", p.authorize)
	mux.HandleFunc("/token", p.token)
	p.Server = httptest.NewServer(mux)
	t.Cleanup(p.Close)
	return p
}

func randomToken(prefix string) string {
	b := make([]byte, 12)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func jsonReply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (p *fakeProvider) deviceCode(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	if r.Form.Get("client_id") != p.clientID || !strings.Contains(r.Form.Get("scope"), "offline_access") {
		jsonReply(w, 400, map[string]string{"error": "invalid_client"})
		return
	}
	jsonReply(w, 200, map[string]any{"device_code": "dev-123", "user_code": "HRLD-2026", "verification_uri": "https://microsoft.test/devicelogin",
		"expires_in": 900, "interval": 1})
}

func (p *fakeProvider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("client_id") != p.clientID || q.Get("code_challenge_method") != "S256" || q.Get("access_type") != "offline" ||
		!loopbackURL(redirect) {
		http.Error(w, "bad authorization request", 400)
		return
	}
	code := randomToken("code-")
	p.mu.Lock()
	p.challenge[code] = q.Get("code_challenge")
	p.mu.Unlock()
	v := url.Values{"code": {code}, "state": {q.Get("state")}}
	redirect.RawQuery = v.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (p *fakeProvider) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.Form.Get("client_id"), r.Form.Get("client_secret")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if id != p.clientID || secret != p.secret {
		jsonReply(w, 401, map[string]string{"error": "invalid_client"})
		return
	}
	issue := func(withRefresh bool) {
		access := randomToken("access-")
		p.access[access] = true
		p.secrets = append(p.secrets, access)
		resp := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 3600}
		if withRefresh {
			refresh := randomToken("refresh-")
			p.refresh[refresh] = true
			p.secrets = append(p.secrets, refresh)
			resp["refresh_token"] = refresh
		}
		jsonReply(w, 200, resp)
	}
	switch r.Form.Get("grant_type") {
	case "urn:ietf:params:oauth:grant-type:device_code":
		p.polls++
		if r.Form.Get("device_code") != "dev-123" {
			jsonReply(w, 400, map[string]string{"error": "invalid_grant"})
		} else if p.polls <= p.pending {
			jsonReply(w, 400, map[string]string{"error": "authorization_pending"})
		} else {
			issue(true)
		}
	case "authorization_code":
		challenge, ok := p.challenge[r.Form.Get("code")]
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != challenge {
			jsonReply(w, 400, map[string]string{"error": "invalid_grant", "error_description": "code or verifier wrong"})
			return
		}
		delete(p.challenge, r.Form.Get("code"))
		issue(true)
	case "refresh_token":
		if !p.refresh[r.Form.Get("refresh_token")] {
			jsonReply(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		issue(false)
	default:
		jsonReply(w, 400, map[string]string{"error": "unsupported_grant_type"})
	}
}

// Bearer is the mail server's check of an access token.
func (p *fakeProvider) Bearer(username, token string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.access[token] {
		return errors.New("unknown token")
	}
	return nil
}

// checkRefreshFile checks that file holds a refresh token p issued, mode
// 0600.
func (p *fakeProvider) checkRefreshFile(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	ok := p.refresh[strings.TrimSpace(string(data))]
	p.mu.Unlock()
	if !ok {
		t.Errorf("%s does not hold the refresh token issued", file)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %04o, want 0600", file, fi.Mode().Perm())
	}
}

// TestOAuthLoginDevice runs herald oauth login --provider microsoft
// against a device endpoint and a token endpoint served by the test: the
// instructions are printed, the endpoint polled until the sign-in, the
// refresh token stored 0600, the config lines printed, no token shown.
func TestOAuthLoginDevice(t *testing.T) {
	p := newFakeProvider(t, "")
	dir := t.TempDir()
	out := filepath.Join(dir, "refresh-token")
	r := herald(t, "", "oauth", "login", "--provider", "microsoft", "--client-id", p.clientID,
		"--device-url", p.URL+"/devicecode", "--token-url", p.URL+"/token", "--out", out)
	if r.code != 0 {
		t.Fatalf("want exit 0:\n%v", r)
	}
	for _, s := range []string{"open https://microsoft.test/devicelogin and enter the code HRLD-2026", "Waiting for the sign-in",
		"auth: oauth2\n", "oauth-token-url: " + p.URL + "/token\n", "oauth-client-id: herald-app\n", "oauth-refresh-token-file: " + out + "\n",
		"imap-host: outlook.office365.com:993\n"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%v", s, r)
		}
	}
	if p.polls < 2 {
		t.Errorf("the token endpoint was polled %d times: the pending answer was not waited through", p.polls)
	}
	p.checkRefreshFile(t, out)
	for _, s := range p.secrets {
		if strings.Contains(r.stdout+r.stderr, s) {
			t.Errorf("the output shows a token")
		}
	}

	// Refused sign-in: exit 1, said in words, no file.
	p.mu.Lock()
	p.clientID = "another"
	p.mu.Unlock()
	out2 := filepath.Join(dir, "refused")
	r = herald(t, "", "oauth", "login", "--provider", "microsoft", "--client-id", "herald-app",
		"--device-url", p.URL+"/devicecode", "--token-url", p.URL+"/token", "--out", out2)
	if r.code != 1 || !strings.Contains(r.stderr, "device code") {
		t.Errorf("a refused device code: want exit 1 saying so:\n%v", r)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Errorf("a refused login wrote %s", out2)
	}
}

// TestOAuthLoginLoopback runs herald oauth login --provider google against
// an authorization endpoint and a token endpoint served by the test, the
// test acting as the browser: once following the redirect to herald on
// 127.0.0.1, once stopping there and pasting the address, as a host whose
// browser is on another machine does. PKCE is checked by the token
// endpoint.
func TestOAuthLoginLoopback(t *testing.T) {
	for _, paste := range []bool{false, true} {
		name := map[bool]string{false: "redirect", true: "paste"}[paste]
		t.Run(name, func(t *testing.T) {
			p := newFakeProvider(t, "google-desktop-secret")
			dir := t.TempDir()
			secretFile := filepath.Join(dir, "client-secret")
			if err := os.WriteFile(secretFile, []byte(p.secret+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "refresh-token")
			stdinR, stdinW := io.Pipe()
			stdoutR, stdoutW := io.Pipe()
			var stderr strings.Builder
			done := make(chan int, 1)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			go func() {
				done <- run(ctx, []string{"oauth", "login", "--provider", "google", "--client-id", p.clientID, "--client-secret-file", secretFile,
					"--auth-url", p.URL + "/authorize", "--token-url", p.URL + "/token", "--out", out}, stdinR, stdoutW, &stderr)
				stdoutW.Close()
			}()
			var printed strings.Builder
			sc := bufio.NewScanner(stdoutR)
			var authURL string
			for sc.Scan() {
				printed.WriteString(sc.Text() + "\n")
				if strings.HasPrefix(sc.Text(), p.URL+"/authorize?") {
					authURL = sc.Text()
					break
				}
			}
			if authURL == "" {
				t.Fatalf("no authorization URL printed:\n%s%s", printed.String(), stderr.String())
			}
			if u, _ := url.Parse(authURL); u.Query().Get("scope") != "https://mail.google.com/" {
				t.Errorf("the authorization URL asks for scope %q, want https://mail.google.com/", u.Query().Get("scope"))
			}
			restc := make(chan []byte, 1)
			go func() {
				rest, _ := io.ReadAll(stdoutR)
				restc <- rest
			}()
			browser := &http.Client{}
			if paste {
				browser.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			}
			resp, err := browser.Get(authURL)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if paste {
				if resp.StatusCode != http.StatusFound {
					t.Fatalf("the authorization endpoint answered %s", resp.Status)
				}
				io.WriteString(stdinW, "not the address\n")
				io.WriteString(stdinW, resp.Header.Get("Location")+"\n")
			} else if resp.StatusCode != http.StatusOK {
				t.Errorf("herald's redirect page answered %s", resp.Status)
			}
			code := <-done
			printed.Write(<-restc)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, printed.String(), stderr.String())
			}
			p.checkRefreshFile(t, out)
			for _, s := range []string{"imap-host: imap.gmail.com:993\n", "oauth-client-secret-file: " + secretFile + "\n"} {
				if !strings.Contains(printed.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, printed.String())
				}
			}
			if paste && !strings.Contains(printed.String(), "That is not the address") {
				t.Errorf("a wrong paste was not answered:\n%s", printed.String())
			}
			stdinW.Close()
		})
	}
}

// TestOAuthServeFlags checks serve's auth flags: oauth2 takes the
// oauth-* flags and no password file, and each mistake is a usage error
// that says what is wrong.
func TestOAuthServeFlags(t *testing.T) {
	dir := t.TempDir()
	refresh := filepath.Join(dir, "refresh")
	os.WriteFile(refresh, []byte("r-token\n"), 0o600)
	pw := filepath.Join(dir, "pw")
	os.WriteFile(pw, []byte("pw\n"), 0o600)
	base := []string{"--imap-host", "imap.example.org:993", "--smtp-host", "smtp.example.org:465", "--address", "herald@example.org"}
	oauth := []string{"--auth", "oauth2", "--oauth-token-url", "https://login.example.org/token", "--oauth-client-id", "id", "--oauth-refresh-token-file", refresh}
	if got, err := serveCfg(t, append(base, oauth...)...); err != nil || got.Password != "" {
		t.Errorf("oauth2: %+v, %v", got, err)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"--auth", "oauth2"}, "--auth oauth2 needs --oauth-token-url"},
		{append(oauth, "--password-file", pw), "leave --password-file out"},
		{[]string{"--password-file", pw, "--oauth-client-id", "x"}, "--oauth-client-id is for --auth oauth2"},
		{[]string{"--auth", "kerberos"}, `--auth "kerberos": expected password or oauth2`},
		{append(oauth, "--oauth-token-url", "http://login.example.org/token"), "expected an https URL"},
		{[]string{"--auth", "oauth2", "--oauth-token-url", "https://x.org/t", "--oauth-client-id", "id", "--oauth-refresh-token-file", filepath.Join(dir, "none")}, "run herald oauth login"},
	} {
		_, err := serveCfg(t, append(base, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("serve %v = %v, want an error with %q", c.args, err, c.err)
		}
	}
}

// TestOAuthREADME: the OAuth2 example config of README.md reads, and sets
// the flags serve takes for oauth2.
func TestOAuthREADME(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```yaml\n# /etc/herald/serve.yaml, with OAuth2 (Microsoft 365)\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no example OAuth2 config")
	}
	vals, err := parseServeConfig("/etc/herald/serve.yaml", []byte(block))
	if err != nil {
		t.Fatal(err)
	}
	if vals["auth"] != "oauth2" || vals["oauth-token-url"] == "" || vals["oauth-client-id"] == "" || vals["oauth-refresh-token-file"] != "/var/lib/herald/refresh-token" {
		t.Errorf("README's OAuth2 config gives %v", vals)
	}
}
