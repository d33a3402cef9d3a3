package mail

// OAuth2 for IMAP and SMTP: a provider that refuses passwords (Microsoft
// 365, Google Workspace by policy) takes an access token instead, with the
// SASL mechanisms OAUTHBEARER (RFC 7628) or XOAUTH2 (Google's and
// Microsoft's older one, the same token in another frame). Access tokens
// live an hour; herald gets them from the provider's token endpoint with a
// refresh token that `herald oauth login` obtained once (RFC 6749 section
// 6), before they expire and again whenever a server refuses one. No
// token, refresh token or client secret is ever logged or put in an error.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
	"golang.org/x/oauth2"
)

// XOAuth2 is the name of the SASL mechanism XOAUTH2.
const XOAuth2 = "XOAUTH2"

// OAuth2 is how to get access tokens for a mail account.
type OAuth2 struct {
	// TokenURL is the provider's token endpoint, like
	// https://oauth2.googleapis.com/token.
	TokenURL string
	// ClientID and ClientSecret identify the application registered with
	// the provider; ClientSecret is empty for a public client (Microsoft's
	// device-code registrations have none).
	ClientID     string
	ClientSecret string
	// RefreshTokenFile holds the refresh token (its first line), written
	// by `herald oauth login`. When the provider sends a new one (Microsoft
	// rotates them), herald writes it there, mode 0600, in place of the old.
	RefreshTokenFile string
	// Scopes, if any, are asked for on each refresh.
	Scopes []string
	// HTTPClient makes the requests to TokenURL; nil uses
	// http.DefaultClient (tests give one that trusts their server).
	HTTPClient *http.Client
}

// OAuthTokens hands out access tokens for one account, refreshing them
// before they expire (a minute ahead) and after a server refused one. It
// is shared by every connection of a service and safe for concurrent use.
type OAuthTokens struct {
	cfg     OAuth2
	oc      *oauth2.Config
	now     func() time.Time
	mu      sync.Mutex
	refresh string        // the refresh token
	tok     *oauth2.Token // the access token, nil until the first
	// mech, in tests, is the SASL mechanism to log in with whatever the
	// server offers; empty picks (bearerMech).
	mech string
}

// expiryMargin is how long before its expiry an access token is replaced:
// a token that expires while a connection logs in fails that login.
const expiryMargin = time.Minute

// NewOAuthTokens reads cfg.RefreshTokenFile and returns the token source
// of cfg. It does not reach the provider: the first Token does.
func NewOAuthTokens(cfg OAuth2) (*OAuthTokens, error) {
	if cfg.TokenURL == "" || cfg.ClientID == "" || cfg.RefreshTokenFile == "" {
		return nil, errors.New("mail: oauth2 needs a token URL, a client id and a refresh-token file")
	}
	data, err := os.ReadFile(cfg.RefreshTokenFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("mail: oauth2: the refresh-token file %s does not exist: run herald oauth login to make it", cfg.RefreshTokenFile)
	} else if err != nil {
		return nil, fmt.Errorf("mail: oauth2: %w", err)
	}
	refresh := strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0])
	if refresh == "" {
		return nil, fmt.Errorf("mail: oauth2: the refresh-token file %s is empty: run herald oauth login to fill it", cfg.RefreshTokenFile)
	}
	return &OAuthTokens{
		cfg: cfg,
		oc: &oauth2.Config{
			ClientID:     cfg.ClientID,
			ClientSecret: cfg.ClientSecret,
			Endpoint:     oauth2.Endpoint{TokenURL: cfg.TokenURL},
			Scopes:       cfg.Scopes,
		},
		now:     time.Now,
		refresh: refresh,
	}, nil
}

// Token returns an access token that is valid for at least a minute more,
// asking the provider for a new one when the last is older.
func (t *OAuthTokens) Token(ctx context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tok != nil && (t.tok.Expiry.IsZero() || t.now().Add(expiryMargin).Before(t.tok.Expiry)) {
		return t.tok.AccessToken, nil
	}
	if t.cfg.HTTPClient != nil {
		ctx = context.WithValue(ctx, oauth2.HTTPClient, t.cfg.HTTPClient)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tok, err := t.oc.TokenSource(ctx, &oauth2.Token{RefreshToken: t.refresh}).Token()
	if err != nil {
		return "", t.tokenError(err)
	}
	if tok.AccessToken == "" {
		return "", fmt.Errorf("mail: oauth2: %s answered without an access token", t.cfg.TokenURL)
	}
	if tok.RefreshToken != "" && tok.RefreshToken != t.refresh {
		if err := WriteSecret(t.cfg.RefreshTokenFile, tok.RefreshToken); err != nil {
			// The old one may already be void: say so, loudly.
			return "", fmt.Errorf("mail: oauth2: the provider sent a new refresh token and it could not be saved (herald oauth login makes a new one): %w", err)
		}
		t.refresh = tok.RefreshToken
	}
	t.tok = tok
	return tok.AccessToken, nil
}

// Refused tells t that a server refused access, which it tried to log
// in with: the next Token asks for a new one (unless another connection
// already did).
func (t *OAuthTokens) Refused(access string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tok != nil && t.tok.AccessToken == access {
		t.tok = nil
	}
}

// tokenError says, in words and without a secret, why the token endpoint
// gave no token.
func (t *OAuthTokens) tokenError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		what := re.ErrorCode
		if re.ErrorDescription != "" {
			what += ": " + re.ErrorDescription
		}
		if what == "" && re.Response != nil {
			what = re.Response.Status
		}
		msg := fmt.Sprintf("mail: oauth2: %s refused the refresh token (%s)", t.cfg.TokenURL, t.redact(what))
		if re.ErrorCode == "invalid_grant" {
			msg += "; it was revoked or has expired: run herald oauth login again"
		}
		return errors.New(msg)
	}
	return fmt.Errorf("mail: oauth2: asking %s for an access token: %s", t.cfg.TokenURL, t.redact(err.Error()))
}

// redact removes the secrets t knows of from s.
func (t *OAuthTokens) redact(s string) string {
	for _, secret := range []string{t.refresh, t.cfg.ClientSecret} {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "[redacted]")
		}
	}
	if t.tok != nil && t.tok.AccessToken != "" {
		s = strings.ReplaceAll(s, t.tok.AccessToken, "[redacted]")
	}
	return s
}

// WriteSecret writes s (a refresh token, a password) and a newline to
// path, mode 0600, through a temporary file renamed over it, so that a
// crash leaves the old or the new, never half of one.
func WriteSecret(path, s string) error {
	return adjudicator.WriteFileAtomic(path, []byte(s+"\n"), 0o600)
}

// bearerClient is the SASL client of OAUTHBEARER (RFC 7628) and XOAUTH2:
// the user and the access token in one initial response. When the server
// refuses the token it sends a JSON challenge saying why; the client
// answers with the dummy response and keeps the reason.
type bearerClient struct {
	mech, user, token, host string
	port                    int
	refusal                 string // the server's JSON, once refused
}

func (b *bearerClient) Start() (string, []byte, error) {
	if b.mech == XOAuth2 {
		return XOAuth2, []byte("user=" + b.user + "\x01auth=Bearer " + b.token + "\x01\x01"), nil
	}
	s := "n,a=" + b.user + ","
	if b.host != "" {
		s += "\x01host=" + b.host
	}
	if b.port != 0 {
		s += "\x01port=" + strconv.Itoa(b.port)
	}
	return sasl.OAuthBearer, []byte(s + "\x01auth=Bearer " + b.token + "\x01\x01"), nil
}

func (b *bearerClient) Next(challenge []byte) ([]byte, error) {
	if b.refusal != "" {
		return nil, errors.New("mail: the server asked for more after refusing the access token")
	}
	b.refusal = string(challenge)
	if b.mech == XOAuth2 {
		return []byte{}, nil
	}
	return []byte{0x01}, nil
}

// bearerMech returns the mechanism to use with a server that offers
// mechs: OAUTHBEARER, the standard one, when it is offered, else XOAUTH2.
func (t *OAuthTokens) bearerMech(has func(mech string) bool) string {
	if t.mech != "" {
		return t.mech
	}
	if has(sasl.OAuthBearer) {
		return sasl.OAuthBearer
	}
	return XOAuth2
}

// credsRefused reports whether err is a server's refusal of the credentials
// (rather than a connection that failed).
func credsRefused(err error) bool {
	var ie *imap.Error
	var se *smtp.SMTPError
	var te *tokenRefused
	return errors.As(err, &te) || errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo ||
		errors.As(err, &se) && se.Code >= 500
}

// tokenRefused is a login whose access token the server refused with its
// JSON challenge (RFC 7628 section 3.2.2), whatever status ended the
// command after it: Dovecot, for one, ends XOAUTH2 with BAD when the
// dummy response is imapclient's "=".
type tokenRefused struct {
	proto, mech, reason string
	err                 error
}

func (e *tokenRefused) Error() string {
	return fmt.Sprintf("%s authenticate %s with an oauth2 access token: %v (the server says %s)", e.proto, e.mech, e.err, e.reason)
}

func (e *tokenRefused) Unwrap() error { return e.err }

// loginError wraps err, a failed login, and adds the server's reason for
// refusing the access token when it gave one.
func loginError(proto string, b *bearerClient, err error) error {
	if b != nil && b.refusal != "" {
		return &tokenRefused{proto: proto, mech: b.mech, reason: b.refusal, err: err}
	}
	return fmt.Errorf("%s login: %w", proto, err)
}

// withToken runs login with an access token of s.OAuth; when the server
// refuses it, once with a new token.
func (s Server) withToken(ctx context.Context, login func(token string) error) error {
	for attempt := 0; ; attempt++ {
		token, err := s.OAuth.Token(ctx)
		if err != nil {
			return err
		}
		err = login(token)
		if err == nil || attempt > 0 || !credsRefused(err) {
			return err
		}
		s.OAuth.Refused(token)
	}
}

func (s Server) hostPort() (string, int) {
	h, p, _ := net.SplitHostPort(s.Addr)
	port, _ := strconv.Atoi(p)
	return h, port
}

// imapLogin logs c in: LOGIN with the password, or with s.OAuth
// AUTHENTICATE with an access token.
func (s Server) imapLogin(ctx context.Context, c *imapclient.Client) error {
	if s.OAuth == nil {
		if err := c.Login(s.Username, s.Password).Wait(); err != nil {
			return fmt.Errorf("imap login: %w", err)
		}
		return nil
	}
	h, port := s.hostPort()
	mech := s.OAuth.bearerMech(func(m string) bool { return c.Caps().Has(imap.Cap("AUTH=" + m)) })
	return s.withToken(ctx, func(token string) error {
		b := &bearerClient{mech: mech, user: s.Username, token: token, host: h, port: port}
		if err := c.Authenticate(b); err != nil {
			return loginError("imap", b, err)
		}
		return nil
	})
}

// smtpLogin authenticates c: AUTH PLAIN with the password, or with
// s.OAuth an access token; with neither a user nor OAuth, nothing.
func (s Server) smtpLogin(ctx context.Context, c *smtp.Client) error {
	if s.OAuth == nil {
		if s.Username == "" {
			return nil
		}
		if err := c.Auth(sasl.NewPlainClient("", s.Username, s.Password)); err != nil {
			return fmt.Errorf("smtp auth: %w", err)
		}
		return nil
	}
	mech := XOAuth2
	if ok, mechs := c.Extension("AUTH"); ok {
		mech = s.OAuth.bearerMech(func(m string) bool { return slicesContainsFold(strings.Fields(mechs), m) })
	}
	h, port := s.hostPort()
	return s.withToken(ctx, func(token string) error {
		b := &bearerClient{mech: mech, user: s.Username, token: token, host: h, port: port}
		if err := c.Auth(b); err != nil {
			return loginError("smtp", b, err)
		}
		return nil
	})
}

func slicesContainsFold(l []string, s string) bool {
	for _, x := range l {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
