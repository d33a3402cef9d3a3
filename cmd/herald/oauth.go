package main

// OAuth2 for a provider that refuses passwords: serve's auth flags, and
// herald oauth login, which obtains the refresh token once.
//
// Microsoft 365 and Outlook.com: the device-code flow (RFC 8628): herald
// prints a URL and a code, the host opens the URL anywhere, types the code
// and signs in, and herald, polling the token endpoint, gets the tokens.
//
// Google: Google's device flow does not grant the Gmail scope
// (https://mail.google.com/ is not among the scopes its device endpoint
// allows), so login uses the flow Google gives installed applications
// instead: an authorization URL whose answer is redirected to herald on
// 127.0.0.1 (RFC 8252), with PKCE (RFC 7636). When the browser runs on
// another machine than herald, the redirect fails to load there; the host
// then pastes that page's address into herald.

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/heraldgames/herald/mail"
	"golang.org/x/oauth2"
)

// oauthProvider is a provider whose OAuth2 endpoints herald knows.
type oauthProvider struct {
	name      string
	deviceURL string // device authorization endpoint; empty: the loopback flow
	authURL   string // authorization endpoint of the loopback flow
	tokenURL  string
	scopes    []string
	imap      string // the provider's IMAP and SMTP servers, for the config printed
	smtp      string
	security  string
}

// oauthProviders are the providers of herald oauth login. {tenant} in a
// URL is --tenant.
var oauthProviders = []oauthProvider{
	{
		name:     "google",
		authURL:  "https://accounts.google.com/o/oauth2/v2/auth",
		tokenURL: "https://oauth2.googleapis.com/token",
		scopes:   []string{"https://mail.google.com/"},
		imap:     "imap.gmail.com:993", smtp: "smtp.gmail.com:465", security: "tls",
	},
	{
		name:      "microsoft",
		deviceURL: "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/devicecode",
		tokenURL:  "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token",
		scopes: []string{"https://outlook.office.com/IMAP.AccessAsUser.All", "https://outlook.office.com/SMTP.Send",
			"offline_access"},
		imap: "outlook.office365.com:993", smtp: "smtp.office365.com:587", security: "starttls",
	},
}

// serveAuthFlags declares serve's flags of authentication.
func serveAuthFlags(fs *flag.FlagSet) {
	fs.String("auth", "password", "password (password-file), or oauth2 (the oauth-* flags; herald oauth login makes the refresh token)")
	fs.String("oauth-token-url", "", "with --auth oauth2: the provider's token endpoint `URL`")
	fs.String("oauth-client-id", "", "with --auth oauth2: the `id` of the application registered with the provider")
	fs.String("oauth-client-secret-file", "", "with --auth oauth2: `file` holding the client secret (none for a public client)")
	fs.String("oauth-refresh-token-file", "", "with --auth oauth2: `file` holding the refresh token (herald oauth login writes it)")
}

// serveAuth returns how serve logs in to the provider: the password, or
// the access tokens of the oauth-* flags.
func serveAuth(e *env) (password string, tokens *mail.OAuthTokens, err error) {
	switch e.str("auth") {
	case "password":
		for _, f := range []string{"oauth-token-url", "oauth-client-id", "oauth-client-secret-file", "oauth-refresh-token-file"} {
			if e.str(f) != "" {
				return "", nil, usagef("--%s is for --auth oauth2", f)
			}
		}
		if e.str("password-file") == "" {
			return "", nil, usagef("a provider needs --imap-host, --smtp-host, --address and --password-file (or --auth oauth2)")
		}
		password, err := readSecret(e.str("password-file"))
		return password, nil, err
	case "oauth2":
		if e.str("password-file") != "" {
			return "", nil, usagef("--auth oauth2 logs in with tokens: leave --password-file out")
		}
		if e.str("oauth-token-url") == "" || e.str("oauth-client-id") == "" || e.str("oauth-refresh-token-file") == "" {
			return "", nil, usagef("--auth oauth2 needs --oauth-token-url, --oauth-client-id and --oauth-refresh-token-file (herald oauth login prints them)")
		}
		if u, err := url.Parse(e.str("oauth-token-url")); err != nil || u.Scheme != "https" && !loopbackURL(u) {
			return "", nil, usagef("--oauth-token-url %q: expected an https URL, like https://oauth2.googleapis.com/token", e.str("oauth-token-url"))
		}
		cfg := mail.OAuth2{TokenURL: e.str("oauth-token-url"), ClientID: e.str("oauth-client-id"), RefreshTokenFile: e.str("oauth-refresh-token-file")}
		if f := e.str("oauth-client-secret-file"); f != "" {
			if cfg.ClientSecret, err = readSecret(f); err != nil {
				return "", nil, err
			}
		}
		tokens, err := mail.NewOAuthTokens(cfg)
		return "", tokens, err
	}
	return "", nil, usagef("--auth %q: expected password or oauth2", e.str("auth"))
}

// loopbackURL reports whether u is plain http to this machine (a test's
// endpoint): secrets never go in clear over a network.
func loopbackURL(u *url.URL) bool {
	if u.Scheme != "http" {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// readSecret returns the first line of file.
func readSecret(file string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	s := strings.TrimRight(strings.SplitN(string(data), "\n", 2)[0], "\r")
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%s: the first line is empty", file)
	}
	return s, nil
}

var cmdOAuth = &command{
	name: "oauth",
	args: "login --provider google|microsoft --client-id ID [--client-secret-file F] --out FILE",
	short: "Obtain the OAuth2 refresh token serve logs in with when the provider refuses passwords,\n" +
		"and write it to FILE (mode 0600). Done once, by the host, at a terminal.\n\n" +
		"microsoft: prints a URL and a code; open the URL on any device, enter the code, sign in\n" +
		"as herald's account. google: prints a URL; open it, sign in, allow; the browser is sent\n" +
		"back to herald on 127.0.0.1 (if that page does not load, the browser is on another machine:\n" +
		"paste its address here). Then it prints the lines of serve's config that use the token.\n" +
		"--device-url, --auth-url and --token-url replace the provider's endpoints.",
	flags: func(fs *flag.FlagSet) {
		fs.String("provider", "", "google or microsoft")
		fs.String("client-id", "", "the `id` of the application registered with the provider")
		fs.String("client-secret-file", "", "`file` holding the application's client secret (Google's desktop apps have one; Microsoft's public clients none)")
		fs.String("tenant", "common", "microsoft: the directory (tenant) `id` or domain; common for any")
		fs.String("out", "", "write the refresh token to this `file` (mode 0600)")
		fs.String("device-url", "", "the device authorization endpoint `URL` (default the provider's)")
		fs.String("auth-url", "", "the authorization endpoint `URL` (default the provider's)")
		fs.String("token-url", "", "the token endpoint `URL` (default the provider's)")
		fs.Duration("timeout", 15*time.Minute, "how long to wait for the sign-in")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 || args[0] != "login" {
			return usagef("oauth has one subcommand: herald oauth login --provider google|microsoft ...")
		}
		var p oauthProvider
		for _, q := range oauthProviders {
			if q.name == e.str("provider") {
				p = q
			}
		}
		if p.name == "" {
			return usagef("--provider %q: expected google or microsoft", e.str("provider"))
		}
		if e.str("client-id") == "" || e.str("out") == "" {
			return usagef("oauth login needs --client-id and --out")
		}
		tenant := url.PathEscape(e.str("tenant"))
		for _, u := range []struct {
			flag string
			val  *string
		}{{"device-url", &p.deviceURL}, {"auth-url", &p.authURL}, {"token-url", &p.tokenURL}} {
			if v := e.str(u.flag); v != "" {
				parsed, err := url.Parse(v)
				if err != nil || parsed.Scheme != "https" && !loopbackURL(parsed) {
					return usagef("--%s %q: expected an https URL", u.flag, v)
				}
				*u.val = v
			}
			*u.val = strings.ReplaceAll(*u.val, "{tenant}", tenant)
		}
		oc := &oauth2.Config{
			ClientID: e.str("client-id"),
			Endpoint: oauth2.Endpoint{AuthURL: p.authURL, DeviceAuthURL: p.deviceURL, TokenURL: p.tokenURL},
			Scopes:   p.scopes,
		}
		if f := e.str("client-secret-file"); f != "" {
			s, err := readSecret(f)
			if err != nil {
				return err
			}
			oc.ClientSecret = s
		}
		timeout := e.fs.Lookup("timeout").Value.(flag.Getter).Get().(time.Duration)
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		var tok *oauth2.Token
		var err error
		if p.deviceURL != "" {
			tok, err = deviceLogin(ctx, e, oc)
		} else {
			tok, err = loopbackLogin(ctx, e, oc)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("no sign-in within %s: run herald oauth login again", timeout)
		}
		if err != nil {
			return err
		}
		if tok.RefreshToken == "" {
			return fmt.Errorf("%s gave an access token but no refresh token: serve could not go on after an hour (for microsoft, the scope offline_access must be granted)", p.tokenURL)
		}
		if err := mail.WriteSecret(e.str("out"), tok.RefreshToken); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "\nherald oauth login: the refresh token is in %s (mode 0600). In serve's config:\n\n", e.str("out"))
		fmt.Fprintf(e.stdout, "imap-host: %s\nsmtp-host: %s\nsecurity: %s\nauth: oauth2\noauth-token-url: %s\noauth-client-id: %s\n",
			p.imap, p.smtp, p.security, p.tokenURL, oc.ClientID)
		if f := e.str("client-secret-file"); f != "" {
			fmt.Fprintf(e.stdout, "oauth-client-secret-file: %s\n", f)
		}
		fmt.Fprintf(e.stdout, "oauth-refresh-token-file: %s\n", e.str("out"))
		return nil
	},
}

// deviceLogin runs the device-code flow: the instructions on stdout, then
// polling until the host has signed in.
func deviceLogin(ctx context.Context, e *env, oc *oauth2.Config) (*oauth2.Token, error) {
	da, err := oc.DeviceAuth(ctx)
	if err != nil {
		return nil, fmt.Errorf("asking %s for a device code: %w", oc.Endpoint.DeviceAuthURL, err)
	}
	fmt.Fprintf(e.stdout, "On any device, open %s and enter the code %s,\nthen sign in as herald's mail account and allow access.\n", da.VerificationURI, da.UserCode)
	if da.VerificationURIComplete != "" {
		fmt.Fprintf(e.stdout, "(or open %s, which carries the code)\n", da.VerificationURIComplete)
	}
	fmt.Fprintf(e.stdout, "Waiting for the sign-in...\n")
	tok, err := oc.DeviceAccessToken(ctx, da)
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return nil, fmt.Errorf("the sign-in did not complete: %s %s", re.ErrorCode, re.ErrorDescription)
		}
		return nil, err
	}
	return tok, nil
}

// loopbackLogin runs the authorization-code flow of installed
// applications: the URL on stdout, the answer redirected to a listener on
// 127.0.0.1, or its address pasted on stdin.
func loopbackLogin(ctx context.Context, e *env, oc *oauth2.Config) (*oauth2.Token, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	oc.RedirectURL = "http://" + ln.Addr().String() + "/"
	state := randomState()
	verifier := oauth2.GenerateVerifier()
	answers := make(chan url.Values, 2)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("state") != state {
			http.Error(w, "not the answer herald waits for", http.StatusBadRequest)
			return
		}
		fmt.Fprintln(w, "herald has the answer: you may close this page and go back to the terminal.")
		select {
		case answers <- r.URL.Query():
		default:
		}
	}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	go func() {
		sc := bufio.NewScanner(e.stdin)
		for sc.Scan() {
			u, err := url.Parse(strings.TrimSpace(sc.Text()))
			if err != nil || u.Query().Get("state") != state {
				fmt.Fprintf(e.stdout, "That is not the address of the page the browser was sent to (it starts with %s and has state=); paste it whole.\n", oc.RedirectURL)
				continue
			}
			select {
			case answers <- u.Query():
			default:
			}
			return
		}
	}()
	fmt.Fprintf(e.stdout, "Open this URL in a browser, sign in as herald's mail account and allow access:\n\n%s\n\n", oc.AuthCodeURL(state, oauth2.AccessTypeOffline, oauth2.SetAuthURLParam("prompt", "consent"), oauth2.S256ChallengeOption(verifier)))
	fmt.Fprintf(e.stdout, "The browser is then sent to %s. If that page does not load (the browser is on\nanother machine), paste its address here.\nWaiting for the sign-in...\n", oc.RedirectURL)
	var q url.Values
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case q = <-answers:
	}
	if msg := q.Get("error"); msg != "" {
		return nil, fmt.Errorf("the sign-in was refused: %s %s", msg, q.Get("error_description"))
	}
	if q.Get("code") == "" {
		return nil, errors.New("the answer has no authorization code")
	}
	tok, err := oc.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return nil, fmt.Errorf("%s refused the authorization code: %s %s", oc.Endpoint.TokenURL, re.ErrorCode, re.ErrorDescription)
		}
		return nil, err
	}
	return tok, nil
}

// randomState returns the state parameter that ties the answer to this
// login (RFC 6749 section 10.12).
func randomState() string {
	return strings.TrimRight(oauth2.GenerateVerifier()[:24], "=")
}
