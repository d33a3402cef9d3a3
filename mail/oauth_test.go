package mail

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/mail/embedded"
)

// tokenServer is a provider's token endpoint, served by the test: it
// trades the refresh token for access tokens (RFC 6749 section 6), each
// valid for life, and tells the mail server which tokens are valid.
type tokenServer struct {
	*httptest.Server
	life   time.Duration // of each access token
	rotate bool          // send a new refresh token with each access token

	mu       sync.Mutex
	refresh  string               // the valid refresh token
	valid    map[string]time.Time // access token -> expiry
	issued   []string             // every access token, in order
	secrets  []string             // every secret handed out or checked
	requests int
}

const testClientSecret = "client-secret-5e3f"

func secretToken(prefix string) string {
	b := make([]byte, 12)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func newTokenServer(t *testing.T, life time.Duration) *tokenServer {
	ts := &tokenServer{life: life, refresh: secretToken("refresh-"), valid: map[string]time.Time{}}
	ts.secrets = append(ts.secrets, ts.refresh, testClientSecret)
	ts.Server = httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *tokenServer) serve(w http.ResponseWriter, r *http.Request) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.requests++
	r.ParseForm()
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.Form.Get("client_id"), r.Form.Get("client_secret")
	}
	w.Header().Set("Content-Type", "application/json")
	if r.Form.Get("grant_type") != "refresh_token" || id != "herald-test" || secret != testClientSecret || r.Form.Get("refresh_token") != ts.refresh {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
		return
	}
	access := secretToken("access-")
	ts.valid[access] = time.Now().Add(ts.life)
	ts.issued = append(ts.issued, access)
	ts.secrets = append(ts.secrets, access)
	resp := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(ts.life / time.Second)}
	if ts.rotate {
		ts.refresh = secretToken("refresh-")
		ts.secrets = append(ts.secrets, ts.refresh)
		resp["refresh_token"] = ts.refresh
	}
	json.NewEncoder(w).Encode(resp)
}

// check is the mail server's Bearer: the token must be one the endpoint
// issued and not expired nor revoked.
func (ts *tokenServer) check(username, token string) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if exp, ok := ts.valid[token]; !ok || time.Now().After(exp) {
		return errors.New("invalid token")
	}
	return nil
}

// revoke makes every access token issued so far invalid, as a provider
// does when a password changes or an administrator says so.
func (ts *tokenServer) revoke() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	clear(ts.valid)
}

func (ts *tokenServer) stats() (requests, issued int) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.requests, len(ts.issued)
}

// config returns the OAuth2 settings of herald for ts, its refresh token in
// a file of dir.
func (ts *tokenServer) config(t *testing.T, dir string) OAuth2 {
	t.Helper()
	file := filepath.Join(dir, "refresh-token")
	if err := WriteSecret(file, ts.refresh); err != nil {
		t.Fatal(err)
	}
	return OAuth2{TokenURL: ts.URL + "/token", ClientID: "herald-test", ClientSecret: testClientSecret, RefreshTokenFile: file}
}

// TestOAuthTokens checks the token source: one request while the token
// is fresh, a new token a minute before expiry and after a refusal, a
// rotated refresh token saved 0600, and a revoked one reported in words
// without any secret.
func TestOAuthTokens(t *testing.T) {
	ts := newTokenServer(t, time.Hour)
	ts.rotate = true
	cfg := ts.config(t, t.TempDir())
	tok, err := NewOAuthTokens(cfg)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tok.now = func() time.Time { return now }
	ctx := context.Background()
	a1, err := tok.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a2, _ := tok.Token(ctx); a2 != a1 {
		t.Errorf("a fresh token was replaced")
	}
	if n, _ := ts.stats(); n != 1 {
		t.Errorf("%d requests for one token, want 1", n)
	}
	// Rotation: the new refresh token is in the file, mode 0600.
	data, _ := os.ReadFile(cfg.RefreshTokenFile)
	if strings.TrimSpace(string(data)) != ts.refresh {
		t.Errorf("the rotated refresh token was not saved")
	}
	if fi, _ := os.Stat(cfg.RefreshTokenFile); fi.Mode().Perm() != 0o600 {
		t.Errorf("the refresh-token file has mode %04o, want 0600", fi.Mode().Perm())
	}
	// 59 minutes on, the token has a minute left: a new one.
	now = now.Add(59*time.Minute + time.Second)
	a3, err := tok.Token(ctx)
	if err != nil || a3 == a1 {
		t.Errorf("a token a minute from expiry was kept (%v)", err)
	}
	now = time.Now() // a3 expires an hour from now (the token endpoint's clock)
	// A refusal of an older token does not throw away the newer one.
	tok.Refused(a1)
	if a4, _ := tok.Token(ctx); a4 != a3 {
		t.Errorf("Refused of an old token replaced the current one")
	}
	tok.Refused(a3)
	if a5, _ := tok.Token(ctx); a5 == a3 {
		t.Errorf("Refused did not replace the token")
	}
	// Revoked: the error says what to do and holds no secret.
	ts.mu.Lock()
	ts.refresh = "something else"
	ts.mu.Unlock()
	tok.Refused(tok.tok.AccessToken)
	_, err = tok.Token(ctx)
	if err == nil || !strings.Contains(err.Error(), "herald oauth login") || !strings.Contains(err.Error(), "revoked") {
		t.Errorf("Token with a revoked refresh token = %v, want an error saying to run herald oauth login", err)
	}
	assertNoSecret(t, "the error", err.Error(), ts.secrets)

	// A missing file says how to make it.
	if _, err := NewOAuthTokens(OAuth2{TokenURL: "x", ClientID: "y", RefreshTokenFile: filepath.Join(t.TempDir(), "none")}); err == nil || !strings.Contains(err.Error(), "herald oauth login") {
		t.Errorf("NewOAuthTokens without the file = %v", err)
	}
}

func assertNoSecret(t *testing.T, where, text string, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			t.Errorf("%s holds a secret (%.10s...)", where, s)
		}
	}
}

// TestOAuthEmbeddedGame plays a whole game by mail with herald logging in
// to IMAP and SMTP with OAuth2 access tokens only (the servers accept no
// password of herald's): OAUTHBEARER or XOAUTH2 as the servers offer.
// The tokens live 62 seconds, so each is replaced after 2 (a minute ahead
// of its expiry), and the first one is revoked before the game starts, so
// herald must take a new one after a refusal. No access token, refresh
// token nor the client secret appears in herald's log or the servers'.
func TestOAuthEmbeddedGame(t *testing.T) {
	for _, mech := range []string{sasl.OAuthBearer, XOAuth2} {
		t.Run(mech, func(t *testing.T) {
			ts := newTokenServer(t, 62*time.Second)
			dir := t.TempDir()
			logs := &syncBuffer{}
			log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			srv, err := embedded.Start(embedded.Config{
				Dir: filepath.Join(dir, "mail"), Logger: log,
				Bearer: ts.check,
				Accounts: []embedded.Account{
					{Address: "herald@herald.test", Password: secretToken("never-used-")},
					{Address: "host@herald.test", Password: "pw"}, {Address: "p1@herald.test", Password: "pw"}, {Address: "p2@herald.test", Password: "pw"},
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			oc := ts.config(t, dir)
			tokens, err := NewOAuthTokens(oc)
			if err != nil {
				t.Fatal(err)
			}
			// The first token is issued, then revoked: herald's first
			// login is refused and must fetch a new one.
			if _, err := tokens.Token(context.Background()); err != nil {
				t.Fatal(err)
			}
			ts.revoke()
			if mech == XOAuth2 {
				// A server that offers XOAUTH2 alone (Microsoft's): the
				// mechanism is picked from what the server offers.
				tokens.mech = XOAuth2
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := os.Mkdir(filepath.Join(dir, "herald"), 0o700); err != nil {
				t.Fatal(err)
			}
			reg := adjudicator.NewRegistry(raubritter.Game)
			server := func(addr string) Server {
				return Server{Addr: addr, Security: Plain, Username: "herald@herald.test", OAuth: tokens}
			}
			r, err := Start(ctx, RunConfig{
				Dir: filepath.Join(dir, "herald"), OpenStore: openSQLite, Address: "herald@herald.test", Registry: reg, Logger: log,
				IMAP: IntakeConfig{Server: server(srv.IMAPAddr()), Poll: time.Second},
				SMTP: OutboxConfig{Server: server(srv.SMTPAddr())},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			players := []string{"p1@herald.test", "p2@herald.test"}
			res, err := RunDemo(ctx, DemoConfig{
				Game: raubritter.Game.Name, Players: players, Host: "host@herald.test", Herald: "herald@herald.test",
				Password: func(string) string { return "pw" },
				IMAPAddr: srv.IMAPAddr(), SMTPAddr: srv.SMTPAddr(), Seed: "oauth",
			})
			if err != nil {
				t.Fatalf("%v\nlog:\n%s", err, logs.String())
			}
			checkDemo(t, reg, res, players)
			if _, issued := ts.stats(); issued < 3 {
				t.Errorf("%d access tokens issued, want one revoked, one after the refusal and more as they came near expiry", issued)
			}
			if !strings.Contains(logs.String(), "oauth2 login failed") {
				t.Errorf("the revoked token was not refused: the test proves nothing")
			}
			r.Close()
			ts.mu.Lock()
			secrets := append([]string(nil), ts.secrets...)
			ts.mu.Unlock()
			assertNoSecret(t, "the log", logs.String(), secrets)
		})
	}
}

// TestOAuthRefusedToken checks that a login whose access token the server
// refuses (revoked, though not yet expired) is tried once more, at once,
// with a new token, on IMAP and on SMTP; and that a refusal of the new
// one too is an error that says so, holding no token.
func TestOAuthRefusedToken(t *testing.T) {
	ts := newTokenServer(t, time.Hour)
	dir := t.TempDir()
	logs := &syncBuffer{}
	srv, err := embedded.Start(embedded.Config{
		Dir: filepath.Join(dir, "mail"), Bearer: ts.check, Logger: slog.New(slog.NewTextHandler(logs, nil)),
		Accounts: []embedded.Account{{Address: "herald@herald.test", Password: "pw"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	tokens, err := NewOAuthTokens(ts.config(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, proto := range []string{"imap", "smtp"} {
		for _, mech := range []string{sasl.OAuthBearer, XOAuth2} {
			tokens.mech = mech
			login := func() error {
				if proto == "imap" {
					s := Server{Addr: srv.IMAPAddr(), Security: Plain, Username: "herald@herald.test", OAuth: tokens}
					c, err := imapclient.DialInsecure(s.Addr, nil)
					if err != nil {
						t.Fatal(err)
					}
					defer c.Close()
					return s.imapLogin(ctx, c)
				}
				s := Server{Addr: srv.SMTPAddr(), Security: Plain, Username: "herald@herald.test", OAuth: tokens}
				c, err := smtp.Dial(s.Addr)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				return s.smtpLogin(ctx, c)
			}
			if _, err := tokens.Token(ctx); err != nil {
				t.Fatal(err)
			}
			ts.revoke()
			_, before := ts.stats()
			if err := login(); err != nil {
				t.Errorf("%s %s: login after a revoked token = %v, want a new token and success", proto, mech, err)
			}
			if _, after := ts.stats(); after != before+1 {
				t.Errorf("%s %s: %d tokens fetched for the login, want 1", proto, mech, after-before)
			}
			// Every token refused: an error, once retried, no token in it.
			ts.mu.Lock()
			ts.life = -time.Hour
			ts.mu.Unlock()
			tokens.Refused(tokens.tok.AccessToken)
			err := login()
			ts.mu.Lock()
			ts.life = time.Hour
			ts.mu.Unlock()
			if err == nil || !strings.Contains(err.Error(), "access token") {
				t.Errorf("%s %s: login with tokens always refused = %v, want an error about the access token", proto, mech, err)
			} else {
				assertNoSecret(t, "the error", err.Error(), ts.secrets)
			}
			tokens.Refused(tokens.tok.AccessToken)
		}
	}
	assertNoSecret(t, "the servers' log", logs.String(), ts.secrets)
}
