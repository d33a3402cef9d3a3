package mail

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// RunConfig is everything `herald serve` needs.
type RunConfig struct {
	Dir      string // data directory: herald.db, and the embedded mail when used
	Address  string // herald's address; default herald@herald.local on the embedded setup
	Registry *adjudicator.Registry
	Hosts    []string
	Logger   *slog.Logger

	// IMAP and SMTP are the real provider's servers. When IMAP.Addr is
	// empty, herald runs its embedded servers on loopback instead.
	IMAP IntakeConfig
	SMTP OutboxConfig

	// EmbeddedIMAPAddr and EmbeddedSMTPAddr choose the embedded servers'
	// addresses; default 127.0.0.1:0 (any free port).
	EmbeddedIMAPAddr string
	EmbeddedSMTPAddr string

	// PlayerPassword gives the password of a player account created on the
	// embedded setup; default a random one. Each is written to
	// Dir/player-passwords (PlayerPasswordsFile), readable by its owner
	// only, never to the log.
	PlayerPassword func(address string) string

	// NewSeed overrides the seed of games started by mail (the demo).
	NewSeed func() string

	// NewKey: see Config.NewKey (tests, which cannot read the keys back:
	// the store keeps only their hashes).
	NewKey func() string

	// NoReplyTokens: see Config.NoReplyTokens.
	NoReplyTokens bool

	// NoPictures: see Config.NoPictures.
	NoPictures bool

	// Hints: see Config.Hints.
	Hints bool

	// TrustAuthservIDs, RequireDMARC and VerifyDKIM: see Config.
	TrustAuthservIDs []string
	RequireDMARC     bool
	VerifyDKIM       bool

	// Now is the service's clock; default time.Now. (serve's
	// HERALD_CLOCK_SHIFT moves it, for tests of time-driven work.)
	Now func() time.Time

	// PageURL: see Config.PageURL (serve --http sets it).
	PageURL func(token string) string

	// TickEvery is how often the host's time-driven work (deadlines) runs;
	// default a minute.
	TickEvery time.Duration

	// OpenStore opens the store of Dir (cmd/herald passes SQLite's, or
	// PostgreSQL's for --store postgres://…); the mail service sees only
	// host's interfaces. Required.
	OpenStore func(ctx context.Context, dir string) (host.Store, error)

	// Local starts the mail servers herald runs itself when IMAP.Addr is
	// empty (cmd/herald passes mail/embedded's); with neither, Start fails.
	Local StartLocal
}

// LocalServers are mail servers herald runs for itself on loopback when
// it has no provider: package mail/embedded, wired in by cmd/herald (the
// mail service does not depend on it).
type LocalServers interface {
	IMAPAddr() string
	SMTPAddr() string
	Accounts() []string                        // the addresses with an account, lower case
	AddAccount(address, password string) error // opens a mailbox; an existing one is an error
	Close() error
}

// StartLocal starts local servers keeping their mail in dir, listening on
// imapAddr and smtpAddr (host:port; port 0 for any free one), with herald's
// own account, which must exist before the ports open so that no mail to
// herald is ever refused.
type StartLocal func(dir, imapAddr, smtpAddr string, herald LocalAccount, log *slog.Logger) (LocalServers, error)

// LocalAccount is an account on the local servers.
type LocalAccount struct{ Address, Password string }

// Running is a started mail service.
type Running struct {
	Service  *Service
	Store    host.Store
	Outbox   *Outbox
	Embedded LocalServers // nil with a real provider
	Address  string
	Password string // herald's password on the embedded server
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	errMu    sync.Mutex
	err      error
}

// Start opens the store (cfg.OpenStore), starts the embedded servers if no provider is
// given, and runs the intake and the outbox until Close.
func Start(ctx context.Context, cfg RunConfig) (*Running, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	if fi, err := os.Stat(cfg.Dir); err == nil && fi.Mode().Perm()&0o077 != 0 {
		// Every file herald writes there is 0600, but a directory others
		// may list tells them what is there.
		log.Warn(fmt.Sprintf("the data directory %s is readable by others (mode %04o): its files hold games, passwords and tokens; chmod 700 it", cfg.Dir, fi.Mode().Perm()))
	}
	if cfg.OpenStore == nil {
		return nil, errors.New("mail: no store to open (RunConfig.OpenStore)")
	}
	st, err := cfg.OpenStore(ctx, cfg.Dir)
	if err != nil {
		return nil, err
	}
	r := &Running{Store: st}
	fail := func(err error) (*Running, error) {
		r.Close()
		return nil, err
	}
	intake, outbox := cfg.IMAP, cfg.SMTP
	var onNew func(string) error
	if intake.Server.Addr == "" {
		if cfg.Address == "" {
			cfg.Address = "herald@herald.local"
		}
		// herald's account exists before the ports open, so that no mail
		// to it is ever refused.
		password, err := accountPassword(cfg.Dir)
		if err != nil {
			return fail(err)
		}
		if cfg.Local == nil {
			return fail(errors.New("mail: no IMAP server given (--imap), and no embedded servers to run instead"))
		}
		srv, err := cfg.Local(filepath.Join(cfg.Dir, "mail"), cfg.EmbeddedIMAPAddr, cfg.EmbeddedSMTPAddr, LocalAccount{Address: cfg.Address, Password: password}, log)
		if err != nil {
			return fail(err)
		}
		r.Embedded = srv
		r.Password = password
		intake.Server = Server{Addr: srv.IMAPAddr(), Security: Plain, Username: cfg.Address, Password: password}
		outbox.Server = Server{Addr: srv.SMTPAddr(), Security: Plain}
		playerPassword := cfg.PlayerPassword
		if playerPassword == nil {
			playerPassword = func(string) string { return randomPassword() }
		}
		opener := &accountOpener{dir: cfg.Dir, srv: srv, password: playerPassword, log: log}
		if err := opener.recover(); err != nil {
			return fail(err)
		}
		onNew = opener.open
	}
	if cfg.Address == "" {
		return fail(errors.New("mail: the service needs its address (--address)"))
	}
	r.Address = cfg.Address
	// herald new --mail, run beside serve, reads the address from here, so
	// that the mails it queues come from and thread under this address.
	if err := adjudicator.WriteFileAtomic(filepath.Join(cfg.Dir, AddressFile), []byte(cfg.Address+"\n"), 0o600); err != nil {
		return fail(err)
	}
	// And whether replies carry a reply token: the welcome mails it queues
	// say how to answer, with or without the key line.
	tokens := "on\n"
	if cfg.NoReplyTokens {
		tokens = "off\n"
	}
	if err := adjudicator.WriteFileAtomic(filepath.Join(cfg.Dir, ReplyTokensFile), []byte(tokens), 0o600); err != nil {
		return fail(err)
	}
	svc, err := NewService(Config{
		Address: cfg.Address, Registry: cfg.Registry, Store: st, Hosts: cfg.Hosts, Logger: log,
		OnNewPlayer: onNew, NewSeed: cfg.NewSeed, NewKey: cfg.NewKey, NoReplyTokens: cfg.NoReplyTokens, PageURL: cfg.PageURL, NoPictures: cfg.NoPictures, Hints: cfg.Hints, Now: cfg.Now,
		TrustAuthservIDs: cfg.TrustAuthservIDs, RequireDMARC: cfg.RequireDMARC, VerifyDKIM: cfg.VerifyDKIM,
	})
	if err != nil {
		return fail(err)
	}
	r.Service = svc
	r.Outbox = NewOutbox(outbox, svc)
	// On the embedded setup the players, hosts and observers of a game get
	// a mailbox before herald mails them, whoever queued the mail (herald
	// new --mail does not run the servers). Any other address, a forged
	// sender's, gets none: the server refuses mail to it as to an unknown
	// user, and the outbox drops that mail (issue 25, item 5).
	if onNew != nil {
		r.Outbox.ensure = func(addr string) error {
			if slices.Contains(r.Embedded.Accounts(), strings.ToLower(addr)) {
				return nil // the usual case: no query
			}
			if known, err := knownAddress(ctx, st, cfg.Hosts, addr); err != nil || !known {
				return err
			}
			return onNew(addr)
		}
	}
	// The outbox needs no Kick for the intake's mail: the service hands it
	// each batch's mails as the batch commits.
	in := NewIntake(intake, svc)
	ctx, r.cancel = context.WithCancel(ctx)
	run := func(name string, f func(context.Context) error) {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			if err := f(ctx); err != nil {
				log.Error(name+" stopped", "err", err)
				r.errMu.Lock()
				if r.err == nil {
					r.err = fmt.Errorf("%s: %w", name, err)
				}
				r.errMu.Unlock()
				r.cancel()
			}
		}()
	}
	run("intake", leased(st, r.Outbox.cfg.Worker, log, in.Run))
	run("outbox", r.Outbox.Run)
	every := cfg.TickEvery
	if every <= 0 {
		every = time.Minute
	}
	run("deadlines", func(ctx context.Context) error {
		for {
			n, err := svc.Tick(ctx)
			if err != nil && ctx.Err() == nil {
				log.Warn("deadlines", "err", err) // the store is down: try again at the next tick
			}
			if n > 0 {
				r.Outbox.Kick()
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(every):
			}
		}
	})
	run("retention", func(ctx context.Context) error {
		for {
			p, err := svc.Prune(ctx)
			if err != nil && ctx.Err() == nil {
				log.Warn("retention", "err", err) // the store is down: try again at the next round
			}
			if p.Rows() > 0 {
				log.Info("retention: pruned", "mails", p.Outbox, "boards", p.Shared, "failures", p.Failures, "observe requests", p.Observe, "workers gone", p.Workers)
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(pruneEvery):
			}
		}
	})
	return r, nil
}

// knownAddress reports whether herald may open a mailbox for addr: a
// player, host or observer of a game in st, or one of the --hosts.
func knownAddress(ctx context.Context, st host.Store, hosts []string, addr string) (bool, error) {
	addr = strings.ToLower(addr)
	if slices.ContainsFunc(hosts, func(h string) bool { return strings.ToLower(h) == addr }) {
		return true, nil
	}
	return st.Known(ctx, addr)
}

// AddressFile is the file, in the data directory, that holds the address
// of the last herald serve that ran on it.
const AddressFile = "herald-address"

// ReadAddress returns the address AddressFile of dir holds, or "" when
// there is none.
func ReadAddress(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, AddressFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return strings.TrimSpace(string(b)), err
}

// ReplyTokensFile is the file, in the data directory, that says whether
// the last herald serve that ran on it gave replies a reply token: "on" or
// "off" (serve --reply-tokens).
const ReplyTokensFile = "herald-reply-tokens"

// ReadReplyTokens reports whether the last herald serve that ran on dir
// gave replies a reply token (ReplyTokensFile): true, serve's default,
// when no serve has run there.
func ReadReplyTokens(dir string) (bool, error) {
	b, err := os.ReadFile(filepath.Join(dir, ReplyTokensFile))
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return true, err
	}
	switch v := strings.TrimSpace(string(b)); v {
	case "on":
		return true, nil
	case "off":
		return false, nil
	default:
		return true, fmt.Errorf("mail: %s says %q, want on or off (herald serve writes it; remove it and run serve again)", filepath.Join(dir, ReplyTokensFile), v)
	}
}

// PlayerPasswordsFile is the file, in the data directory of the embedded
// setup, that holds the password of every player account herald opened:
// one line "ADDRESS PASSWORD" each, mode 0600.
const PlayerPasswordsFile = "player-passwords"

// accountPassword returns the password of herald's own account on the
// embedded server, drawing it on the first start. The embedded server keeps
// only password hashes, so herald keeps its own password in
// Dir/herald-password (0600), written before the account is created.
func accountPassword(dir string) (string, error) {
	path := filepath.Join(dir, "herald-password")
	if b, err := os.ReadFile(path); err == nil {
		return strings.TrimSpace(string(b)), nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	pw := randomPassword()
	if err := adjudicator.WriteFileAtomic(path, []byte(pw+"\n"), 0o600); err != nil {
		return "", err
	}
	return pw, nil
}

func randomPassword() string {
	var b [9]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Wait blocks until ctx ends or a part of the service fails, and returns
// the failure.
func (r *Running) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-ctx.Done():
	case <-done:
	}
	r.errMu.Lock()
	defer r.errMu.Unlock()
	return r.err
}

// Close stops the intake and the outbox, then the embedded servers, then
// closes the store.
func (r *Running) Close() error {
	if r.cancel != nil {
		r.cancel()
	}
	r.wg.Wait()
	var errs []error
	if r.Embedded != nil {
		errs = append(errs, r.Embedded.Close())
	}
	if r.Store != nil {
		errs = append(errs, r.Store.Close())
	}
	return errors.Join(errs...)
}
