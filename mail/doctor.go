package mail

// Doctor checks a provider's configuration end to end, as serve would use
// it, and says what to fix (herald doctor).

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

// DoctorConfig is what Doctor checks.
type DoctorConfig struct {
	IMAP, SMTP Server
	Address    string // herald's address
	// Folders are the folders herald needs besides INBOX: processed,
	// rejected, failed; default those of IntakeConfig.
	Folders []string
	// ReplyTokens: serve will give Reply-To addresses with a +tag, which
	// must come back to herald's mailbox.
	ReplyTokens bool
	// Wait is how long a test mail may take to arrive; default 1 minute.
	Wait time.Duration
	// Now is the local clock; default time.Now.
	Now func() time.Time
}

// Status is the verdict of one check.
type Status int

// The verdicts. Only Fail stops serve from working.
const (
	OK   Status = iota
	Warn        // serve works, but less well than it could
	Fail        // serve would not work
	Skip        // not checked: a check it needs failed
)

// String returns the verdict as doctor prints it: ok, warn, FAIL, skip.
func (s Status) String() string {
	return [...]string{"ok", "warn", "FAIL", "skip"}[s]
}

// Finding is the outcome of one check: what was checked and, unless it
// is OK, what to do about it.
type Finding struct {
	Status Status
	What   string // what was checked and what was found
	Fix    string // what to do, in words; empty when OK
}

// clockSkew is how far the local clock may be from the mail server's
// before the deadlines herald keeps go wrong.
const clockSkew = 2 * time.Minute

// Doctor checks cfg and calls report with each finding, in order: IMAP
// reachable, TLS as configured (and what the server offers when it is
// not), login, IDLE and MOVE, the folders; SMTP reachable, TLS, login;
// a mail to herald's own address, then to address+tag (plus-addressing,
// with reply tokens on), each found in INBOX and deleted; the clock
// against the server's. It returns whether serve would work.
func Doctor(ctx context.Context, cfg DoctorConfig, report func(Finding)) bool {
	if cfg.Wait <= 0 {
		cfg.Wait = time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if len(cfg.Folders) == 0 {
		cfg.Folders = []string{"herald/processed", "herald/rejected", "herald/failed"}
	}
	for _, s := range []*Server{&cfg.IMAP, &cfg.SMTP} {
		if s.Security == "" {
			s.Security = TLS
		}
	}
	works := true
	say := func(st Status, fix, format string, args ...any) {
		if st == Fail {
			works = false
		}
		report(Finding{Status: st, What: fmt.Sprintf(format, args...), Fix: fix})
	}
	c := doctorIMAP(ctx, cfg, say)
	if c == nil {
		say(Skip, "", "SMTP, sending to herald's address and plus-addressing: not checked until IMAP works")
		return false
	}
	defer c.Close()
	sc := doctorSMTP(ctx, cfg, say)
	if sc == nil {
		say(Skip, "", "sending to herald's address and plus-addressing: not checked until SMTP works")
		return false
	}
	defer sc.Close()
	token := make([]byte, 6)
	rand.Read(token)
	tag := hex.EncodeToString(token)
	local, domain, _ := strings.Cut(cfg.Address, "@")
	sent := cfg.Now()
	arrived, err := doctorRoundTrip(ctx, cfg, c, sc, cfg.Address, "herald doctor "+tag)
	switch {
	case err != nil:
		say(Fail, "check that the SMTP server accepts mail from herald's account to its own address (address: the account's address)",
			"a mail to %s: %v", cfg.Address, err)
		return false
	case arrived.IsZero():
		say(Fail, "check the address (it must be the account's own address, whose INBOX herald reads) and the provider's filters (spam, rules)",
			"a mail sent to %s did not reach the INBOX within %s", cfg.Address, cfg.Wait)
		return false
	}
	say(OK, "", "a mail sent to %s reached the INBOX in %s", cfg.Address, cfg.Now().Sub(sent).Round(100*time.Millisecond))
	// The server's INTERNALDATE is its clock at delivery, a moment after
	// sent and before now.
	if skew := arrived.Sub(sent); skew < -clockSkew || skew > clockSkew+cfg.Now().Sub(sent) {
		say(Fail, "set the clock right and keep it so (timedatectl set-ntp true, or chrony): deadlines and reminders follow it",
			"the clock: this machine's is %s off the mail server's", roundSkew(skew))
	} else {
		say(OK, "", "the clock agrees with the mail server's (within %s)", clockSkew)
	}
	plus := local + "+doctor." + tag + "@" + domain
	arrived, err = doctorRoundTrip(ctx, cfg, c, sc, plus, "herald doctor plus "+tag)
	fix := "turn reply tokens off (reply-tokens: off): players then answer with the key line, which works everywhere"
	switch {
	case !cfg.ReplyTokens && (err != nil || arrived.IsZero()):
		say(OK, "", "plus-addressing: %s does not come back, and reply tokens are off: nothing needs it", plus)
	case err != nil:
		say(Fail, fix, "plus-addressing: the SMTP server refused a mail to %s (%v), and reply tokens use such addresses", plus, err)
	case arrived.IsZero():
		say(Fail, fix, "plus-addressing: a mail to %s did not reach herald's INBOX within %s, and reply tokens use such addresses", plus, cfg.Wait)
	default:
		say(OK, "", "plus-addressing: a mail to %s reached herald's INBOX", plus)
	}
	return works
}

func roundSkew(d time.Duration) string {
	if d < 0 {
		return (-d).Round(time.Second).String() + " behind"
	}
	return d.Round(time.Second).String() + " ahead"
}

// dialTimeout bounds each connection attempt of Doctor.
const dialTimeout = 15 * time.Second

// doctorIMAP checks the IMAP side and returns the client, logged in, with
// INBOX selected; nil after a failure.
func doctorIMAP(ctx context.Context, cfg DoctorConfig, say func(Status, string, string, ...any)) *imapclient.Client {
	s := cfg.IMAP
	if !reachable(s.Addr, "IMAP", say) || !plainAllowed(s, "IMAP", say) {
		return nil
	}
	var c *imapclient.Client
	conn, err := doctorDial(s, cfg)
	if err == nil {
		opts := &imapclient.Options{TLSConfig: s.tlsConfig()}
		if s.Security == StartTLS {
			c, err = imapclient.NewStartTLS(conn, opts)
		} else {
			c = imapclient.New(conn, opts)
		}
	}
	if err == nil {
		err = c.WaitGreeting()
	}
	if err != nil {
		if c != nil {
			c.Close()
		} else if conn != nil {
			conn.Close()
		}
		say(Fail, offered(s, "IMAP", err), "IMAP %s with security %s: %v", s.Addr, s.Security, err)
		return nil
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	say(OK, "", "IMAP %s answers with security %s", s.Addr, s.Security)
	if s.Security == Plain && c.Caps().Has(imap.CapStartTLS) {
		say(Warn, "use security: starttls, which the server offers", "IMAP %s offers STARTTLS but security is none", s.Addr)
	}
	if err := s.imapLogin(ctx, c); err != nil {
		say(Fail, loginFix(s), "IMAP login as %s: %v", s.Username, err)
		c.Close()
		return nil
	}
	say(OK, "", "IMAP login as %s", s.Username)
	caps := c.Caps()
	if caps.Has(imap.CapIdle) {
		say(OK, "", "IMAP IDLE: new mail is seen at once")
	} else {
		say(Warn, "nothing to fix if the wait is fine; a shorter poll (poll: 10s) answers sooner",
			"IMAP %s has no IDLE: serve looks for new mail every poll interval instead", s.Addr)
	}
	if caps.Has(imap.CapMove) || caps.Has(imap.CapIMAP4rev2) {
		say(OK, "", "IMAP MOVE: handled mail leaves the INBOX in one step")
	} else {
		say(Warn, "a server with MOVE (RFC 6851) is better; meanwhile keep no mail marked deleted in herald's INBOX",
			"IMAP %s has no MOVE: serve moves mail by COPY, marking it deleted and EXPUNGE, which also removes any other mail marked deleted in the INBOX", s.Addr)
	}
	ok := true
	for _, f := range cfg.Folders {
		if err := c.Create(f, nil).Wait(); err != nil && !alreadyExists(err) {
			say(Fail, "make the folder by hand in a mail client, or give the account the right to create folders",
				"IMAP folder %s does not exist and cannot be created: %v", f, err)
			ok = false
		}
	}
	if ok {
		say(OK, "", "IMAP folders %s are there", strings.Join(cfg.Folders, ", "))
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		say(Fail, "the account must have an INBOX herald can read and change", "IMAP SELECT INBOX: %v", err)
		ok = false
	}
	if !ok {
		c.Close()
		return nil
	}
	return c
}

// doctorSMTP checks the SMTP side and returns the client, authenticated;
// nil after a failure.
func doctorSMTP(ctx context.Context, cfg DoctorConfig, say func(Status, string, string, ...any)) *smtp.Client {
	s := cfg.SMTP
	if !reachable(s.Addr, "SMTP", say) || !plainAllowed(s, "SMTP", say) {
		return nil
	}
	var c *smtp.Client
	conn, err := doctorDial(s, cfg)
	if err == nil {
		if s.Security == StartTLS {
			c, err = smtp.NewClientStartTLS(conn, s.tlsConfig())
		} else {
			c = smtp.NewClient(conn)
		}
	}
	if err == nil {
		err = c.Hello("localhost")
	}
	if err != nil {
		if c != nil {
			c.Close()
		} else if conn != nil {
			conn.Close()
		}
		say(Fail, offered(s, "SMTP", err), "SMTP %s with security %s: %v", s.Addr, s.Security, err)
		return nil
	}
	say(OK, "", "SMTP %s answers with security %s", s.Addr, s.Security)
	if s.Security == Plain {
		if ok, _ := c.Extension("STARTTLS"); ok {
			say(Warn, "use security: starttls, which the server offers", "SMTP %s offers STARTTLS but security is none", s.Addr)
		}
	}
	if s.Username == "" && s.OAuth == nil {
		say(OK, "", "SMTP without login (a loopback server)")
		return c
	}
	if err := s.smtpLogin(ctx, c); err != nil {
		say(Fail, loginFix(s), "SMTP login as %s: %v", s.Username, err)
		c.Close()
		return nil
	}
	say(OK, "", "SMTP login as %s", s.Username)
	return c
}

// doctorDial connects to s, with TLS from the first byte if s says so;
// the connection gives up after the time doctor may take, so that a server
// that never answers (or waits for a TLS handshake that never comes) does
// not hang it.
func doctorDial(s Server, cfg DoctorConfig) (net.Conn, error) {
	if s.Security != TLS && probeTLS(s.Addr) {
		// Waiting for the greeting would take until the deadline: the
		// server waits for a TLS handshake.
		return nil, errors.New("the server answers with TLS")
	}
	conn, err := net.DialTimeout("tcp", s.Addr, dialTimeout)
	if err != nil {
		return nil, err
	}
	conn.SetDeadline(time.Now().Add(2*dialTimeout + 2*cfg.Wait))
	if s.Security != TLS {
		return conn, nil
	}
	tc := tls.Client(conn, s.tlsConfig())
	if err := tc.Handshake(); err != nil {
		conn.Close()
		return nil, err
	}
	return tc, nil
}

// tlsConfig returns s.TLSConfig, or the default one for Addr's host.
func (s Server) tlsConfig() *tls.Config {
	h, _ := s.hostPort()
	if s.TLSConfig == nil {
		return &tls.Config{ServerName: h}
	}
	c := s.TLSConfig.Clone()
	if c.ServerName == "" {
		c.ServerName = h
	}
	return c
}

// reachable checks that addr accepts a TCP connection.
func reachable(addr, proto string, say func(Status, string, string, ...any)) bool {
	conn, err := net.DialTimeout("tcp", addr, dialTimeout)
	if err != nil {
		say(Fail, fmt.Sprintf("check the %s host and port (%s), and that this machine may reach it (firewall)", proto, portHint(proto)),
			"%s %s cannot be reached: %v", proto, addr, err)
		return false
	}
	conn.Close()
	return true
}

func portHint(proto string) string {
	if proto == "IMAP" {
		return "993 with security tls, 143 with starttls"
	}
	return "465 with security tls, 587 with starttls"
}

func plainAllowed(s Server, proto string, say func(Status, string, string, ...any)) bool {
	if err := s.checkPlain(); err != nil {
		say(Fail, fmt.Sprintf("use security: tls (%s)", portHint(proto)), "%s: %v", proto, err)
		return false
	}
	return true
}

// loginFix says what to do about a refused login.
func loginFix(s Server) string {
	if s.OAuth != nil {
		return "run herald oauth login again (the refresh token may be revoked), and check oauth-client-id and that the account is the one signed in"
	}
	return "check user and password-file; a provider with two-step sign-in wants an app password, and Microsoft 365 refuses passwords (use auth: oauth2)"
}

// offered probes what the server at s.Addr speaks when a connection with
// s.Security failed with err, and says which setting would work.
func offered(s Server, proto string, err error) string {
	var hostErr x509.HostnameError
	var authErr x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &hostErr):
		return "the server's certificate is not for this host name: use the host name the provider documents (not an IP address or an alias)"
	case errors.As(err, &authErr):
		return "the server's certificate is signed by an authority this machine does not trust: install the CA certificates (apt install ca-certificates), or the server's CA if it is your own"
	case errors.As(err, &invalid):
		return "the server's certificate is not valid (expired, or not yet valid): check this machine's clock, then tell the server's admin"
	}
	plain, starttls := probePlain(s.Addr, proto)
	implicit := probeTLS(s.Addr)
	switch {
	case s.Security != TLS && implicit:
		return fmt.Sprintf("the server speaks TLS from the first byte on this port: use security: tls (%s)", portHint(proto))
	case s.Security == TLS && plain && starttls:
		return fmt.Sprintf("the server speaks plain text on this port and offers STARTTLS: use security: starttls (%s)", portHint(proto))
	case s.Security == TLS && plain:
		return fmt.Sprintf("the server speaks plain text on this port and offers no TLS: use the provider's TLS port (%s)", portHint(proto))
	case s.Security == StartTLS && plain && !starttls:
		return fmt.Sprintf("the server offers no STARTTLS on this port: use the provider's TLS port (%s)", portHint(proto))
	}
	return fmt.Sprintf("check the host, the port and security (%s)", portHint(proto))
}

// probePlain reports whether the server at addr greets in plain text, and
// whether it then offers STARTTLS.
func probePlain(addr, proto string) (plain, starttls bool) {
	conn, err := net.DialTimeout("tcp", addr, dialTimeout)
	if err != nil {
		return false, false
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(3 * time.Second))
	r := bufio.NewReader(conn)
	greeting, err := r.ReadString('\n')
	if err != nil {
		return false, false
	}
	var ask, done string
	if proto == "IMAP" {
		if !strings.HasPrefix(greeting, "* ") {
			return false, false
		}
		ask, done = "d1 CAPABILITY\r\n", "d1 "
	} else {
		if !strings.HasPrefix(greeting, "220") {
			return false, false
		}
		ask, done = "EHLO localhost\r\n", "250 "
	}
	if _, err := conn.Write([]byte(ask)); err != nil {
		return true, false
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return true, starttls
		}
		if strings.Contains(strings.ToUpper(line), "STARTTLS") {
			starttls = true
		}
		if strings.HasPrefix(line, done) || proto == "SMTP" && !strings.HasPrefix(line, "250") {
			return true, starttls
		}
	}
}

// probeTLS reports whether the server at addr completes a TLS handshake
// (whatever its certificate).
func probeTLS(addr string) bool {
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 3 * time.Second}, "tcp", addr, &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// doctorRoundTrip sends a mail with subject to rcpt and waits for it in
// the INBOX selected on c. It returns the server's INTERNALDATE of the
// mail, or the zero time if it did not arrive within cfg.Wait; the mail is
// deleted once found. An error is the SMTP server's refusal.
func doctorRoundTrip(ctx context.Context, cfg DoctorConfig, c *imapclient.Client, sc *smtp.Client, rcpt, subject string) (time.Time, error) {
	now := cfg.Now()
	msg := "From: herald doctor <" + cfg.Address + ">\r\n" +
		"To: " + rcpt + "\r\n" +
		"Subject: " + subject + "\r\n" +
		"Date: " + now.Format(time.RFC1123Z) + "\r\n" +
		"Message-ID: <" + strings.ReplaceAll(subject, " ", ".") + "@herald.doctor>\r\n" +
		"Auto-Submitted: auto-generated\r\n" +
		"\r\n" +
		"herald doctor checks that mail to this address comes back; it deletes this mail.\r\n"
	if err := sc.SendMail(cfg.Address, []string{rcpt}, strings.NewReader(msg)); err != nil {
		sc.Reset()
		return time.Time{}, err
	}
	deadline := time.Now().Add(cfg.Wait)
	for {
		data, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: subject}}}, nil).Wait()
		if err != nil {
			return time.Time{}, fmt.Errorf("imap search: %w", err)
		}
		if uids := data.AllUIDs(); len(uids) > 0 {
			set := imap.UIDSetNum(uids...)
			msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, InternalDate: true}).Collect()
			if err != nil {
				return time.Time{}, fmt.Errorf("imap fetch: %w", err)
			}
			var at time.Time
			for _, m := range msgs {
				at = m.InternalDate
			}
			if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted, imap.FlagSeen}, Silent: true}, nil).Close(); err == nil &&
				c.Caps().Has(imap.CapUIDPlus) {
				c.UIDExpunge(set).Close()
			}
			return at, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return time.Time{}, nil
		}
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond):
		}
		if err := c.Noop().Wait(); err != nil {
			return time.Time{}, fmt.Errorf("imap noop: %w", err)
		}
	}
}
