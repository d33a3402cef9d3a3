package embedded

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"
)

// Config configures Start. Only Dir is required; the zero value of every
// other field selects its default.
//
// Security: both servers speak plain text, without TLS, and accept passwords
// in clear. That is why they only ever listen on a loopback address; Start
// refuses any other.
type Config struct {
	// Dir is the data directory, created if needed (mode 0700). Mail is
	// kept under Dir/mail and the accounts in Dir/accounts.yaml (mode 0600).
	// Only one Server at a time may use a Dir: Start fails if another one
	// (in this process or another) holds it.
	Dir string

	// IMAPAddr is the host:port the IMAP server listens on. The host must be
	// a loopback address (127.0.0.1, ::1 or localhost). Default
	// "127.0.0.1:0": a free port, which IMAPAddr reports.
	IMAPAddr string

	// SMTPAddr is the host:port the SMTP server listens on, with the same
	// rules as IMAPAddr. Default "127.0.0.1:0".
	SMTPAddr string

	// MaxMessageBytes is the largest message accepted, in bytes. SMTP DATA
	// beyond it is refused with 552 5.3.4, as is MAIL FROM with a larger
	// SIZE=; IMAP APPEND beyond it fails (APPENDLIMIT is advertised);
	// Deliver returns ErrTooLarge. Default 10 MiB.
	MaxMessageBytes int64

	// MaxConnections caps the connections each server (IMAP, SMTP) holds
	// open at once; past it a new client waits until one closes.
	// Messages past 64 KiB are spooled to Dir/mail/.spool as they
	// arrive, so neither many clients nor large messages exhaust the
	// process's memory or files. Default 64.
	MaxConnections int

	// Accounts are added (as AddAccount adds them, so an existing one is
	// kept) before the servers listen: a client never finds the port open
	// and one of these accounts missing.
	Accounts []Account

	// Bearer, if set, lets clients log in with an OAuth2 access token as
	// providers do (SASL OAUTHBEARER and XOAUTH2, on IMAP and SMTP, beside
	// PLAIN): it returns nil when token grants access to the account of
	// username. It serves tests of OAuth2 clients (bearer.go).
	Bearer func(username, token string) error

	// NoPlusAddressing makes mail to user+tag@domain unknown (550) rather
	// than delivered to user@domain, as on a provider without
	// plus-addressing (tests of herald doctor).
	NoPlusAddressing bool

	// Logger receives the servers' log: deliveries and failed logins at
	// Info, protocol trouble at Warn, storage failures at Error. Nil
	// discards it.
	Logger *slog.Logger
}

// Account is an account to create at Start.
type Account struct {
	Address, Password string
}

// DefaultMaxMessageBytes is the default of Config.MaxMessageBytes.
const DefaultMaxMessageBytes = 10 << 20

// DefaultMaxConnections is the default of Config.MaxConnections.
const DefaultMaxConnections = 64

// shutdownTimeout bounds how long Close waits for connections to finish the
// command they are running.
const shutdownTimeout = 10 * time.Second

var (
	// ErrClosed is returned by the methods of a Server after Close.
	ErrClosed = errors.New("embedded: server closed")

	// ErrNoSuchAccount is returned (wrapped, naming the address) by Deliver
	// for a recipient that has no account. SMTP answers 550 5.1.1.
	ErrNoSuchAccount = errors.New("no such account")

	// ErrTooLarge is returned (wrapped) by Deliver for a message larger than
	// Config.MaxMessageBytes. SMTP answers 552 5.3.4.
	ErrTooLarge = errors.New("message too large")

	// ErrAccountExists is returned (wrapped) by AddAccount for an address
	// that already has an account with another password.
	ErrAccountExists = errors.New("account exists with another password")
)

// Server is a running embedded mail system: an IMAP server and an SMTP
// server sharing one set of accounts and mailboxes. Its methods are safe for
// concurrent use.
type Server struct {
	cfg     Config
	log     *slog.Logger
	mailDir string
	lock    *os.File

	lifeMu sync.RWMutex // held for reading by Deliver and AddAccount
	closed bool

	addMu    sync.Mutex // serialises AddAccount (and accounts.yaml)
	acctMu   sync.RWMutex
	accounts map[string]*account // by lower-case address

	imap    *imapserver.Server
	imapLn  *trackedListener
	smtp    *smtp.Server
	smtpLn  *trackedListener
	serveWG sync.WaitGroup

	// IMAP sessions (and IDLE goroutines) still running, so that Close can
	// wait for them.
	sessMu      sync.Mutex
	sessClosing bool
	sessActive  int
	sessZero    chan struct{} // closed when sessActive drops to 0 while closing
}

// Start loads the accounts and mail kept in cfg.Dir, then starts the IMAP
// and SMTP servers. They serve until Close.
func Start(cfg Config) (*Server, error) {
	if cfg.Dir == "" {
		return nil, errors.New("embedded: Config.Dir is required")
	}
	if cfg.IMAPAddr == "" {
		cfg.IMAPAddr = "127.0.0.1:0"
	}
	if cfg.SMTPAddr == "" {
		cfg.SMTPAddr = "127.0.0.1:0"
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = DefaultMaxConnections
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for _, addr := range []struct{ name, addr string }{{"IMAPAddr", cfg.IMAPAddr}, {"SMTPAddr", cfg.SMTPAddr}} {
		if err := checkLoopback(addr.addr); err != nil {
			return nil, fmt.Errorf("embedded: Config.%s: %w", addr.name, err)
		}
	}

	s := &Server{
		cfg:      cfg,
		log:      log,
		mailDir:  filepath.Join(cfg.Dir, "mail"),
		accounts: make(map[string]*account),
	}
	if err := os.MkdirAll(s.mailDir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}
	lock, err := lockDir(filepath.Join(s.mailDir, ".lock"))
	if err != nil {
		return nil, err
	}
	s.lock = lock
	ok := false
	defer func() {
		if !ok {
			s.abortStart()
		}
	}()

	if err := s.clearSpool(); err != nil {
		return nil, err
	}
	if err := s.loadAccounts(); err != nil {
		return nil, err
	}
	for _, a := range cfg.Accounts {
		if err := s.AddAccount(a.Address, a.Password); err != nil {
			return nil, err
		}
	}

	imapLn, err := listenLoopback(cfg.IMAPAddr, cfg.MaxConnections)
	if err != nil {
		return nil, fmt.Errorf("embedded: IMAP: %w", err)
	}
	s.imapLn = imapLn
	smtpLn, err := listenLoopback(cfg.SMTPAddr, cfg.MaxConnections)
	if err != nil {
		return nil, fmt.Errorf("embedded: SMTP: %w", err)
	}
	s.smtpLn = smtpLn

	s.imap = imapserver.New(&imapserver.Options{
		NewSession:   s.newIMAPSession,
		Caps:         imapCaps,
		Logger:       logAdapter{log.With("server", "imap")},
		InsecureAuth: true, // loopback only
	})
	s.smtp = s.newSMTPServer()

	s.serveWG.Add(2)
	go func() {
		defer s.serveWG.Done()
		if err := s.imap.Serve(s.imapLn); err != nil && !s.isClosed() {
			s.log.Error("embedded: IMAP server stopped", "err", err)
		}
	}()
	go func() {
		defer s.serveWG.Done()
		if err := s.smtp.Serve(s.smtpLn); err != nil && !s.isClosed() {
			s.log.Error("embedded: SMTP server stopped", "err", err)
		}
	}()
	ok = true
	s.log.Info("embedded: mail servers started", "imap", s.IMAPAddr(), "smtp", s.SMTPAddr(), "dir", cfg.Dir, "accounts", len(s.accounts))
	return s, nil
}

// imapCaps are the capabilities advertised besides those imapserver always
// adds (SASL-IR, LITERAL-, AUTH=PLAIN, and after login UNSELECT, ENABLE,
// IDLE, UTF8=ACCEPT, APPENDLIMIT=).
var imapCaps = imap.CapSet{
	imap.CapIMAP4rev1:    {},
	imap.CapNamespace:    {},
	imap.CapUIDPlus:      {},
	imap.CapMove:         {},
	imap.CapESearch:      {},
	imap.CapSearchRes:    {},
	imap.CapListExtended: {},
	imap.CapListStatus:   {},
	imap.CapStatusSize:   {},
	imap.CapChildren:     {},
}

func (s *Server) abortStart() {
	if s.imapLn != nil {
		s.imapLn.closeAll()
	}
	if s.smtpLn != nil {
		s.smtpLn.closeAll()
	}
	if s.lock != nil {
		unlockDir(s.lock)
	}
}

func (s *Server) accountsPath() string { return filepath.Join(s.cfg.Dir, "accounts.yaml") }

func (s *Server) loadAccounts() error {
	entries, err := readAccounts(s.accountsPath())
	if err != nil {
		return err
	}
	for _, e := range entries {
		addr, err := normalizeAddress(e.Address)
		if err != nil {
			return fmt.Errorf("embedded: %s: %w", s.accountsPath(), err)
		}
		if s.accounts[addr] != nil {
			return fmt.Errorf("embedded: %s: account %s listed twice", s.accountsPath(), addr)
		}
		pw, err := parsePassword(e.Password)
		if err != nil {
			return fmt.Errorf("embedded: %s: account %s: %w", s.accountsPath(), addr, err)
		}
		a, err := openAccount(filepath.Join(s.mailDir, accountDirName(addr)), addr, pw, s.log)
		if err != nil {
			return err
		}
		s.accounts[addr] = a
	}
	return nil
}

// IMAPAddr returns the host:port the IMAP server listens on, with the port
// actually bound (useful with the default port 0).
func (s *Server) IMAPAddr() string { return s.imapLn.Addr().String() }

// SMTPAddr returns the host:port the SMTP server listens on, with the port
// actually bound.
func (s *Server) SMTPAddr() string { return s.smtpLn.Addr().String() }

func (s *Server) isClosed() bool {
	s.lifeMu.RLock()
	defer s.lifeMu.RUnlock()
	return s.closed
}

// AddAccount creates the account address with its password, an empty INBOX,
// and saves it in accounts.yaml (the password as a salted hash). The address
// is case-insensitive and kept in lower case; it is also the IMAP login and
// the SMTP AUTH user name.
//
// AddAccount is idempotent: adding an existing address with the same
// password does nothing and returns nil; with another password it returns
// an error wrapping ErrAccountExists and changes nothing. If Dir/mail still
// holds the mailboxes of an address missing from accounts.yaml, they are
// kept.
func (s *Server) AddAccount(address, password string) error {
	s.lifeMu.RLock()
	defer s.lifeMu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	addr, err := normalizeAddress(address)
	if err != nil {
		return err
	}
	if password == "" {
		return fmt.Errorf("embedded: account %s: empty password", addr)
	}

	s.addMu.Lock()
	defer s.addMu.Unlock()
	if a := s.lookup(addr); a != nil {
		if a.pw.check(password) {
			return nil
		}
		return fmt.Errorf("embedded: account %s: %w", addr, ErrAccountExists)
	}
	pw, err := newPassword(password)
	if err != nil {
		return err
	}
	a, err := openAccount(filepath.Join(s.mailDir, accountDirName(addr)), addr, pw, s.log)
	if err != nil {
		return err
	}

	s.acctMu.RLock()
	entries := make([]accountEntry, 0, len(s.accounts)+1)
	for _, other := range s.accounts {
		entries = append(entries, accountEntry{Address: other.address, Password: other.pw.encoded})
	}
	s.acctMu.RUnlock()
	entries = append(entries, accountEntry{Address: addr, Password: pw.encoded})
	sort.Slice(entries, func(i, j int) bool { return entries[i].Address < entries[j].Address })
	if err := writeAccounts(s.accountsPath(), entries); err != nil {
		return err
	}

	s.acctMu.Lock()
	s.accounts[addr] = a
	s.acctMu.Unlock()
	s.log.Info("embedded: account added", "account", addr)
	return nil
}

// Accounts returns the addresses that have an account, sorted.
func (s *Server) Accounts() []string {
	s.acctMu.RLock()
	defer s.acctMu.RUnlock()
	l := make([]string, 0, len(s.accounts))
	for addr := range s.accounts {
		l = append(l, addr)
	}
	sort.Strings(l)
	return l
}

// lookup returns the account of address (any case), or nil.
// lookupRecipient returns the account mail to address goes to: its own,
// or with plus-addressing the account of the address without its tag
// (herald+g12.tok@x goes to herald@x), as Postfix's recipient_delimiter
// does.
func (s *Server) lookupRecipient(address string) *account {
	if a := s.lookup(address); a != nil {
		return a
	}
	if s.cfg.NoPlusAddressing {
		return nil
	}
	local, domain, ok := strings.Cut(address, "@")
	if base, _, tagged := strings.Cut(local, "+"); ok && tagged && base != "" {
		return s.lookup(base + "@" + domain)
	}
	return nil
}

func (s *Server) lookup(address string) *account {
	s.acctMu.RLock()
	defer s.acctMu.RUnlock()
	return s.accounts[lookupKey(address)]
}

// Deliver delivers raw to the INBOX of every recipient in to, as the SMTP
// server does after DATA, and returns once it is on disk. An idling IMAP
// client of that INBOX is told at once (EXISTS).
//
// raw is stored byte for byte: Deliver adds no header (the SMTP server adds
// Return-Path and Received before it delivers), so it suits seeding .eml
// fixtures. Give it CRLF line endings, as RFC 5322 and IMAP expect. from is
// the envelope sender, used only in the log.
//
// A recipient whose mailboxes (any of them) already hold a message with
// the same Message-ID does not get it again: a sender that resends a mail
// after a crash, not knowing it was delivered, gives it the same
// Message-ID. A message without Message-ID is always delivered.
//
// Recipients are case-insensitive and a repeated one gets one copy. If any
// recipient has no account, Deliver delivers nothing and returns an error
// wrapping ErrNoSuchAccount; a message larger than Config.MaxMessageBytes
// gives ErrTooLarge.
func (s *Server) Deliver(from string, to []string, raw []byte) error {
	s.lifeMu.RLock()
	defer s.lifeMu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	if int64(len(raw)) > s.cfg.MaxMessageBytes {
		return fmt.Errorf("embedded: %d bytes, limit %d: %w", len(raw), s.cfg.MaxMessageBytes, ErrTooLarge)
	}
	return s.deliver(from, to, memContent(raw))
}

// deliver is Deliver without the checks the SMTP server has already made.
func (s *Server) deliver(from string, to []string, c *content) error {
	if len(to) == 0 {
		return errors.New("embedded: no recipient")
	}
	var accts []*account
	seen := make(map[*account]bool)
	for _, rcpt := range to {
		a := s.lookupRecipient(rcpt)
		if a == nil {
			return fmt.Errorf("embedded: %q: %w", rcpt, ErrNoSuchAccount)
		}
		if !seen[a] {
			seen[a] = true
			accts = append(accts, a)
		}
	}
	var errs []error
	for _, a := range accts {
		data, err := a.deliverMessage(c)
		if errors.Is(err, errHeld) {
			s.log.Info("embedded: dropped a message whose Message-ID the mailbox holds", "from", from, "to", a.address, "bytes", c.size)
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.log.Info("embedded: delivered", "from", from, "to", a.address, "uid", data.UID, "bytes", c.size)
	}
	return errors.Join(errs...)
}

// Close stops both servers: it stops accepting connections, closes the open
// ones (an idling IMAP client included), waits for the commands in progress
// and for every server goroutine to end, writes any state not yet on disk,
// and releases Dir. Calling Close again returns nil.
func (s *Server) Close() error {
	s.lifeMu.Lock()
	if s.closed {
		s.lifeMu.Unlock()
		return nil
	}
	s.closed = true // waits for Deliver and AddAccount in progress
	s.lifeMu.Unlock()

	var errs []error

	// SMTP: close the listener and the connections ourselves, then let
	// Shutdown wait for the connection goroutines.
	s.smtpLn.closeAll()
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	if err := s.smtp.Shutdown(ctx); err != nil && !errors.Is(err, net.ErrClosed) {
		errs = append(errs, fmt.Errorf("embedded: stopping SMTP: %w", err))
	}
	cancel()

	// IMAP: refuse new sessions, close everything, wait for the sessions.
	s.sessMu.Lock()
	s.sessClosing = true
	var zero chan struct{}
	if s.sessActive > 0 {
		zero = make(chan struct{})
		s.sessZero = zero
	}
	s.sessMu.Unlock()
	s.imapLn.closeAll()
	if err := s.imap.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		errs = append(errs, fmt.Errorf("embedded: stopping IMAP: %w", err))
	}
	if zero != nil {
		select {
		case <-zero:
		case <-time.After(shutdownTimeout):
			errs = append(errs, errors.New("embedded: IMAP sessions did not stop in time"))
		}
	}

	s.serveWG.Wait()

	s.acctMu.RLock()
	for _, addr := range sortedKeys(s.accounts) {
		if err := s.accounts[addr].flush(); err != nil {
			errs = append(errs, err)
		}
	}
	s.acctMu.RUnlock()

	if err := unlockDir(s.lock); err != nil {
		errs = append(errs, fmt.Errorf("embedded: %w", err))
	}
	s.log.Info("embedded: mail servers stopped")
	return errors.Join(errs...)
}

func sortedKeys(m map[string]*account) []string {
	l := make([]string, 0, len(m))
	for k := range m {
		l = append(l, k)
	}
	sort.Strings(l)
	return l
}

// newIMAPSession is imapserver's NewSession hook; it counts the session so
// that Close can wait for it.
func (s *Server) newIMAPSession(c *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
	if !s.sessionBegin() {
		return nil, nil, &imap.Error{Type: imap.StatusResponseTypeBye, Text: "Server shutting down"}
	}
	return &imapSession{srv: s}, nil, nil
}

// sessionBegin counts a session or IDLE goroutine, unless Close has begun.
func (s *Server) sessionBegin() bool {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	if s.sessClosing {
		return false
	}
	s.sessActive++
	return true
}

func (s *Server) sessionEnd() {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	s.sessActive--
	if s.sessActive == 0 && s.sessZero != nil {
		close(s.sessZero)
		s.sessZero = nil
	}
}
