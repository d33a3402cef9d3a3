package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator/store"
)

// Security is how a connection to a mail server is protected.
type Security string

// The security modes. Plain is only for servers on the loopback interface
// (the embedded default and test servers): herald refuses to send a
// password in clear over a network.
const (
	TLS      Security = "tls"      // implicit TLS (IMAPS 993, SMTPS 465)
	StartTLS Security = "starttls" // plain then STARTTLS (IMAP 143, submission 587)
	Plain    Security = "none"     // no TLS: loopback only
)

// Server is how to reach and log in to a mail server.
type Server struct {
	Addr     string   // host:port
	Security Security // default TLS
	Username string
	Password string
	// TLSConfig overrides the TLS settings (tests with self-signed
	// certificates); nil uses the system roots and Addr's host name.
	TLSConfig *tls.Config
}

func (s Server) checkPlain() error {
	if s.Security != Plain {
		return nil
	}
	host, _, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("mail: %s: refusing a connection without TLS to a host that is not loopback", s.Addr)
	}
	return nil
}

// IntakeConfig configures the IMAP side of the service.
type IntakeConfig struct {
	Server    Server
	Mailbox   string        // default "INBOX"
	Processed string        // folder for handled mail; default "herald/processed"
	Rejected  string        // folder for refused or ignored mail; default "herald/rejected"
	Poll      time.Duration // polling interval when the server has no IDLE; default 30 s
	// IdleRefresh restarts IDLE this often (RFC 2177 asks for under 29
	// minutes); default 5 minutes.
	IdleRefresh time.Duration
	Logger      *slog.Logger
	// Handled, if set, is called after each mail is committed, with its
	// outcome; the service uses it to wake the outbox at once.
	Handled func(Outcome)
}

// Intake reads mail from an IMAP mailbox and gives each to the service.
type Intake struct {
	cfg IntakeConfig
	svc *Service
	log *slog.Logger
	// crash, in tests, stops processing at a named point as a crash would:
	// "fetched" (mail read, nothing committed), "committed" (outcome
	// committed, mail not yet moved), "moved".
	crash func(point string) bool
}

// errCrash is the error of a simulated crash.
var errCrash = errors.New("mail: simulated crash")

// NewIntake returns an intake for svc.
func NewIntake(cfg IntakeConfig, svc *Service) *Intake {
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	if cfg.Processed == "" {
		cfg.Processed = "herald/processed"
	}
	if cfg.Rejected == "" {
		cfg.Rejected = "herald/rejected"
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 30 * time.Second
	}
	if cfg.IdleRefresh <= 0 {
		cfg.IdleRefresh = 5 * time.Minute
	}
	if cfg.Server.Security == "" {
		cfg.Server.Security = TLS
	}
	log := cfg.Logger
	if log == nil {
		log = svc.log
	}
	return &Intake{cfg: cfg, svc: svc, log: log}
}

// Run processes mail until ctx is done, reconnecting with exponential
// backoff (1 s doubling to 5 minutes) when the connection drops.
func (in *Intake) Run(ctx context.Context) error {
	if err := in.cfg.Server.checkPlain(); err != nil {
		return err
	}
	backoff := time.Second
	for {
		start := time.Now()
		err := in.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if time.Since(start) > time.Minute {
			backoff = time.Second
		}
		in.log.Warn("imap connection lost; reconnecting", "addr", in.cfg.Server.Addr, "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Minute)
	}
}

// session is one connection: log in, make the folders, then process the
// mailbox, wait for news (IDLE or poll), and again.
func (in *Intake) session(ctx context.Context) error {
	news := make(chan struct{}, 1)
	opts := &imapclient.Options{
		TLSConfig: in.cfg.Server.TLSConfig,
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					select {
					case news <- struct{}{}:
					default:
					}
				}
			},
		},
	}
	var c *imapclient.Client
	var err error
	switch in.cfg.Server.Security {
	case TLS:
		c, err = imapclient.DialTLS(in.cfg.Server.Addr, opts)
	case StartTLS:
		c, err = imapclient.DialStartTLS(in.cfg.Server.Addr, opts)
	default:
		c, err = imapclient.DialInsecure(in.cfg.Server.Addr, opts)
	}
	if err != nil {
		return err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.Login(in.cfg.Server.Username, in.cfg.Server.Password).Wait(); err != nil {
		return fmt.Errorf("imap login: %w", err)
	}
	for _, f := range []string{in.cfg.Processed, in.cfg.Rejected} {
		if err := c.Create(f, nil).Wait(); err != nil && !alreadyExists(err) {
			return fmt.Errorf("imap create %s: %w", f, err)
		}
	}
	if _, err := c.Select(in.cfg.Mailbox, nil).Wait(); err != nil {
		return fmt.Errorf("imap select: %w", err)
	}
	in.log.Info("imap connected", "addr", in.cfg.Server.Addr, "idle", c.Caps().Has(imap.CapIdle))
	for {
		if err := in.drain(ctx, c); err != nil {
			return err
		}
		if err := in.wait(ctx, c, news); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

func alreadyExists(err error) bool {
	var ie *imap.Error
	if errors.As(err, &ie) && ie.Code == imap.ResponseCodeAlreadyExists {
		return true
	}
	return strings.Contains(strings.ToLower(err.Error()), "exist")
}

// drain handles every message in the mailbox, oldest first, and moves each
// to its folder once its outcome is committed.
func (in *Intake) drain(ctx context.Context, c *imapclient.Client) error {
	data, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap search: %w", err)
	}
	for _, uid := range data.AllUIDs() {
		if ctx.Err() != nil {
			return nil
		}
		set := imap.UIDSetNum(uid)
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return fmt.Errorf("imap fetch: %w", err)
		}
		if len(msgs) == 0 {
			continue // expunged meanwhile
		}
		raw := msgs[0].FindBodySection(section)
		if in.crash != nil && in.crash("fetched") {
			return errCrash
		}
		outcome, err := in.svc.Handle(ctx, raw)
		if err != nil {
			// The database failed: leave the mail for the next round.
			return err
		}
		if in.cfg.Handled != nil {
			in.cfg.Handled(outcome)
		}
		if in.crash != nil && in.crash("committed") {
			return errCrash
		}
		folder := in.cfg.Rejected
		if outcome.Processed() {
			folder = in.cfg.Processed
		}
		if _, err := c.Move(set, folder).Wait(); err != nil {
			return fmt.Errorf("imap move: %w", err)
		}
		if in.crash != nil && in.crash("moved") {
			return errCrash
		}
	}
	return nil
}

// wait blocks until the mailbox may have news: IDLE where the server has
// it, else the poll interval.
func (in *Intake) wait(ctx context.Context, c *imapclient.Client, news <-chan struct{}) error {
	if !c.Caps().Has(imap.CapIdle) {
		select {
		case <-ctx.Done():
		case <-news:
		case <-time.After(in.cfg.Poll):
		}
		return nil
	}
	idle, err := c.Idle()
	if err != nil {
		return fmt.Errorf("imap idle: %w", err)
	}
	select {
	case <-ctx.Done():
	case <-news:
	case <-time.After(in.cfg.IdleRefresh):
	case <-c.Closed():
	}
	if err := idle.Close(); err != nil {
		return err
	}
	return idle.Wait()
}

// OutboxConfig configures the SMTP side of the service.
type OutboxConfig struct {
	Server Server
	From   string        // envelope sender; default the service's address
	Every  time.Duration // how often to look for due mail; default 2 s
	Logger *slog.Logger
}

// Outbox sends queued mail over SMTP, retrying with exponential backoff, so
// that a reply is never lost while the SMTP server is down.
type Outbox struct {
	cfg   OutboxConfig
	store *store.Store
	log   *slog.Logger
	now   func() time.Time
	kick  chan struct{}
	// crash, in tests: "sent" stops after the SMTP server accepted a mail
	// and before the outbox records it.
	crash func(point string) bool
}

// NewOutbox returns an outbox for svc's store.
func NewOutbox(cfg OutboxConfig, svc *Service) *Outbox {
	if cfg.From == "" {
		cfg.From = svc.cfg.Address
	}
	if cfg.Every <= 0 {
		cfg.Every = 2 * time.Second
	}
	if cfg.Server.Security == "" {
		cfg.Server.Security = TLS
	}
	log := cfg.Logger
	if log == nil {
		log = svc.log
	}
	return &Outbox{cfg: cfg, store: svc.cfg.Store, log: log, now: svc.cfg.Now, kick: make(chan struct{}, 1)}
}

// Kick asks the outbox to look for due mail now.
func (o *Outbox) Kick() {
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// Run sends due mail until ctx is done.
func (o *Outbox) Run(ctx context.Context) error {
	if err := o.cfg.Server.checkPlain(); err != nil {
		return err
	}
	for {
		if _, err := o.SendDue(ctx); err != nil && ctx.Err() == nil {
			o.log.Warn("outbox", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-o.kick:
		case <-time.After(o.cfg.Every):
		}
	}
}

// maxAttempts is when herald gives up on a mail the SMTP server refuses
// permanently (5xx); temporary failures are retried forever.
const maxAttempts = 8

// SendDue sends every due mail on one SMTP connection and returns how many
// were sent.
func (o *Outbox) SendDue(ctx context.Context) (int, error) {
	due, err := o.store.Due(ctx, o.now(), 100)
	if err != nil || len(due) == 0 {
		return 0, err
	}
	c, err := o.dial()
	if err != nil {
		for _, m := range due {
			o.failed(ctx, m, err)
		}
		return 0, err
	}
	defer c.Close()
	sent := 0
	for _, m := range due {
		if err := c.SendMail(o.cfg.From, []string{m.Recipient}, bytes.NewReader(m.Raw)); err != nil {
			o.failed(ctx, m, err)
			if errors.Is(err, net.ErrClosed) {
				return sent, err
			}
			c.Reset()
			continue
		}
		if o.crash != nil && o.crash("sent") {
			return sent, errCrash
		}
		if err := o.store.MarkSent(ctx, m.ID, o.now()); err != nil {
			return sent, err
		}
		sent++
	}
	c.Quit()
	return sent, nil
}

func (o *Outbox) failed(ctx context.Context, m store.Outgoing, err error) {
	delay := min(5*time.Second<<min(m.Attempts, 12), time.Hour)
	var se *smtp.SMTPError
	if errors.As(err, &se) && se.Code >= 500 && m.Attempts+1 >= maxAttempts {
		delay = 100 * 365 * 24 * time.Hour // give up; the row stays for the record
		o.log.Error("outbox: giving up on a mail the server refuses", "to", m.Recipient, "err", err)
	}
	if merr := o.store.MarkFailed(ctx, m.ID, o.now().Add(delay), err); merr != nil {
		o.log.Error("outbox: cannot record a failure", "err", merr)
	}
}

func (o *Outbox) dial() (*smtp.Client, error) {
	var c *smtp.Client
	var err error
	switch o.cfg.Server.Security {
	case TLS:
		c, err = smtp.DialTLS(o.cfg.Server.Addr, o.cfg.Server.TLSConfig)
	case StartTLS:
		c, err = smtp.DialStartTLS(o.cfg.Server.Addr, o.cfg.Server.TLSConfig)
	default:
		c, err = smtp.Dial(o.cfg.Server.Addr)
	}
	if err != nil {
		return nil, err
	}
	if o.cfg.Server.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", o.cfg.Server.Username, o.cfg.Server.Password)); err != nil {
			c.Close()
			return nil, fmt.Errorf("smtp auth: %w", err)
		}
	}
	return c, nil
}
