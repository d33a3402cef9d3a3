package mail

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator/host"
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
	// OAuth, if set, logs in with an OAuth2 access token (SASL
	// OAUTHBEARER or XOAUTH2) instead of Password (oauth.go).
	OAuth *OAuthTokens
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

// notTLS returns the error to stop on when err says that a server
// reached with implicit TLS answered in plain text: a setting that no
// retry will mend, so serve says so at once. It returns nil for any other
// error.
func (s Server) notTLS(proto string, err error) error {
	var rh tls.RecordHeaderError
	if s.Security != TLS || !errors.As(err, &rh) {
		return nil
	}
	return fmt.Errorf("mail: the %s server %s does not speak TLS on that port (it answered in plain text): use --security starttls (submission 587, IMAP 143) or, for a server on loopback, --security none", proto, s.Addr)
}

// IntakeConfig configures the IMAP side of the service.
type IntakeConfig struct {
	Server    Server
	Mailbox   string        // default "INBOX"
	Processed string        // folder for handled mail; default "herald/processed"
	Rejected  string        // folder for refused or ignored mail; default "herald/rejected"
	Failed    string        // folder for mail set aside after failing maxFailures times; default "herald/failed"
	Poll      time.Duration // polling interval when the server has no IDLE; default 30 s
	// IdleRefresh restarts IDLE this often (RFC 2177 asks for under 29
	// minutes); default 5 minutes.
	IdleRefresh time.Duration
	Logger      *slog.Logger
	// Handled, if set, is called for each mail once its batch is
	// committed, with its outcome; the service uses it to wake the outbox
	// at once.
	Handled func(Outcome)
}

// Intake reads mail from an IMAP mailbox and gives each to the service.
type Intake struct {
	cfg IntakeConfig
	svc *Service
	log *slog.Logger
	// crash, in tests, stops processing at a named point as a crash would:
	// "fetched" (a batch read, nothing committed), "committed" (the batch's
	// outcomes committed, no mail moved yet), "moved" (after each UID MOVE
	// of a batch: one per destination folder, so a crash there may leave
	// part of the batch moved; the point is reached once for each mail the
	// command moved). "moved" is reached on the goroutine that moves mail,
	// the others on the intake's.
	crash func(point string) bool
	// batchMax is the most mails in a batch: maxBatch, less in tests.
	batchMax int
	// pause is how long to wait before a mail that failed is tried again:
	// failedPause, less in tests.
	pause time.Duration
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
	if cfg.Failed == "" {
		cfg.Failed = "herald/failed"
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
	return &Intake{cfg: cfg, svc: svc, log: log, batchMax: maxBatch, pause: failedPause}
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
		if fatal := in.cfg.Server.notTLS("IMAP", err); fatal != nil {
			return fatal
		}
		if time.Since(start) > time.Minute {
			backoff = time.Second
		}
		if errors.Is(err, errMailFailed) || errors.Is(err, host.ErrConflict) {
			// A mail failed for its own sake (noteFailure): again soon, on
			// a new connection, until it is set aside; or its transaction
			// conflicted with another worker's: again soon, not counted
			// against it. The connection is fine: no backoff.
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(in.pause):
			}
			continue
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
	if err := in.cfg.Server.imapLogin(ctx, c); err != nil {
		return err
	}
	for _, f := range []string{in.cfg.Processed, in.cfg.Rejected, in.cfg.Failed} {
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

// Batches of mail: up to maxBatch mails, each at most maxBatchBytes /
// maxBatch (a larger mail is a batch of its own), are fetched with one UID
// FETCH, processed in one database transaction (one commit, one sync to
// disk) and moved with one UID MOVE per folder. Three batches are under
// way at once: one fetched and read, one processed, one synced to disk and
// moved.
const (
	maxBatch      = 64
	maxBatchBytes = 8 << 20
)

// fetched is a batch of mail fetched and read, ready to process.
type fetched struct {
	uids  []imap.UID // of the mails fetched, oldest first
	raws  [][]byte
	reads []readMail
	err   error
}

// drain handles every message in the mailbox, oldest first, in batches:
// fetch a batch, commit the outcomes of its mails in one transaction, then
// move each mail to its folder. A crash before the commit leaves the whole
// batch in the inbox, unprocessed; a crash after it leaves mails that are
// recognised as already processed (their Message-ID is recorded) and only
// moved. The next batch is fetched and read (with PEEK: nothing changes on
// the server) while one is processed, and the batch before is synced to
// disk and moved meanwhile: no mail leaves the inbox before its outcome is
// on disk.
func (in *Intake) drain(ctx context.Context, c *imapclient.Client) (err error) {
	// The mails and their sizes first (UID FETCH 1:* RFC822.SIZE, one
	// round trip): a large mail is fetched alone, so that a batch holds at
	// most maxBatchBytes, and of a mail over the size limit only the header
	// is fetched, so that memory does not follow the size of what arrives.
	sizes, err := mailSizes(c, imap.UIDSet{{Start: 1, Stop: 0}})
	if err != nil {
		return err
	}
	if len(sizes) == 0 {
		return nil
	}
	uids := slices.Sorted(maps.Keys(sizes))
	alone := func(uid imap.UID) bool { return sizes[uid] > maxBatchBytes/maxBatch }
	var batches [][]imap.UID
	for len(uids) > 0 {
		n := 1
		if !alone(uids[0]) {
			for n < len(uids) && n < in.batchMax && !alone(uids[n]) {
				n++
			}
		}
		batches, uids = append(batches, uids[:n]), uids[n:]
	}
	next := make(chan fetched, 1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(next)
		for _, b := range batches {
			var f fetched
			if len(b) == 1 && sizes[b[0]] > in.svc.cfg.MaxSize {
				f = in.fetchHeader(c, b[0], sizes[b[0]])
			} else {
				f = in.fetch(c, b)
			}
			select {
			case next <- f:
			case <-stop:
				return
			}
			if f.err != nil {
				return
			}
		}
	})
	defer func() {
		close(stop)
		if err != nil {
			c.Close() // the session ends: do not wait for a fetch that may hang
		}
		wg.Wait()
	}()
	// The mover syncs and moves each processed batch in turn; drain waits
	// for it before it returns, so that the next search does not see mail
	// on its way out.
	toMove := make(chan processed, 1)
	moved := make(chan error, 1)
	failed := make(chan struct{}) // closed when the mover fails
	go func() {
		var err error
		for p := range toMove {
			if err == nil {
				if err = in.move(c, p); err != nil {
					close(failed)
				}
			}
		}
		moved <- err
	}()
	defer func() {
		close(toMove)
		if merr := <-moved; err == nil {
			err = merr
		}
	}()
	for f := range next {
		if f.err != nil {
			return f.err
		}
		if ctx.Err() != nil {
			return nil
		}
		select {
		case <-failed:
			return nil // the deferred receive reports why
		default:
		}
		p, err := in.batch(ctx, f)
		if k := len(p.outcomes); err != nil && k < len(f.uids) && ctx.Err() == nil && !errors.Is(err, errCrash) && !errors.Is(err, host.ErrConflict) {
			if aside, noted := in.noteFailure(ctx, f, k, err); noted {
				if aside {
					p.aside = f.uids[k]
				}
				err = fmt.Errorf("%w: %w", errMailFailed, err)
			}
		}
		if err != nil && len(p.outcomes) == 0 && p.aside == 0 {
			return err
		}
		select {
		case toMove <- p:
		case <-failed:
			return nil // p's mails stay in the inbox: they are duplicates now
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// fetch fetches and reads the mails uids; a mail expunged meanwhile is
// missing.
func (in *Intake) fetch(c *imapclient.Client, uids []imap.UID) fetched {
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return fetched{err: fmt.Errorf("imap fetch: %w", err)}
	}
	// Oldest first, whatever order the server answered in.
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return cmp.Compare(a.UID, b.UID) })
	var f fetched
	for _, m := range msgs {
		if m.UID == 0 || !slices.Contains(uids, m.UID) || len(f.uids) > 0 && f.uids[len(f.uids)-1] == m.UID {
			continue
		}
		f.uids = append(f.uids, m.UID)
		f.raws = append(f.raws, m.FindBodySection(section))
	}
	f.reads = in.svc.read(f.raws)
	return f
}

// mailSizes returns the size of each mail of set, by UID, as the server
// counts it (RFC822.SIZE).
func mailSizes(c *imapclient.Client, set imap.UIDSet) (map[imap.UID]int64, error) {
	msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return nil, fmt.Errorf("imap fetch: %w", err)
	}
	sizes := make(map[imap.UID]int64, len(msgs))
	for _, m := range msgs {
		if m.UID != 0 {
			sizes[m.UID] = m.RFC822Size
		}
	}
	return sizes, nil
}

// fetchHeader fetches the header alone of mail uid, over the size limit,
// and reads it as a mail too large (ExtractTooLarge).
func (in *Intake) fetchHeader(c *imapclient.Client, uid imap.UID, size int64) fetched {
	section := &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true}
	msgs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return fetched{err: fmt.Errorf("imap fetch: %w", err)}
	}
	var f fetched
	for _, m := range msgs {
		if m.UID == uid {
			header := m.FindBodySection(section)
			f.uids, f.raws = []imap.UID{uid}, [][]byte{header}
			f.reads = []readMail{in.svc.readTooLarge(header, size)}
			break
		}
	}
	return f
}

// processed is a batch whose mails are committed, to be moved.
type processed struct {
	uids     []imap.UID
	outcomes []Outcome // of the first len(outcomes) mails of uids
	aside    imap.UID  // the mail after them, set aside (noteFailure); 0 for none
}

// batch processes the mails of f. On a failure, the outcomes are those of
// the mails before the one that failed: they are committed and are to be
// moved; it and the mails after it stay in the inbox for the next round.
func (in *Intake) batch(ctx context.Context, f fetched) (processed, error) {
	if len(f.raws) == 0 {
		return processed{}, nil
	}
	if in.crash != nil && in.crash("fetched") {
		return processed{}, errCrash
	}
	outcomes, herr := in.svc.handleRead(ctx, f.raws, f.reads, false)
	if in.cfg.Handled != nil {
		for _, o := range outcomes {
			in.cfg.Handled(o)
		}
	}
	if len(outcomes) > 0 && in.crash != nil && in.crash("committed") {
		return processed{}, errCrash
	}
	// The database failed: leave the mail for the next round.
	return processed{uids: f.uids, outcomes: outcomes}, herr
}

// move syncs the store, so that the outcomes of p's mails are on disk, and
// moves each mail to its folder, with one UID MOVE per folder.
func (in *Intake) move(c *imapclient.Client, p processed) error {
	if len(p.outcomes) == 0 && p.aside == 0 {
		return nil
	}
	if err := in.svc.cfg.Store.Sync(); err != nil {
		return err
	}
	var folders [3]struct {
		name string
		set  imap.UIDSet
		n    int
	}
	folders[0].name, folders[1].name, folders[2].name = in.cfg.Processed, in.cfg.Rejected, in.cfg.Failed
	if p.aside != 0 {
		folders[2].set.AddNum(p.aside)
		folders[2].n++
	}
	for i, o := range p.outcomes {
		d := &folders[1]
		if o.Processed() {
			d = &folders[0]
		}
		d.set.AddNum(p.uids[i])
		d.n++
	}
	for _, d := range folders {
		if d.n == 0 {
			continue
		}
		if _, err := c.Move(d.set, d.name).Wait(); err != nil {
			return fmt.Errorf("imap move: %w", err)
		}
		for range d.n {
			if in.crash != nil && in.crash("moved") {
				return errCrash
			}
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
	// Worker names this outbox when several serve processes share one
	// store: each claims the mails it sends (host.Outbox.Claim), and a
	// worker restarted under the same name takes back its own claims at
	// once. Default: the machine's host name.
	Worker string
	// Rate is the most mails sent in a time (serve's send-rate, like
	// 100/h); the zero Rate is no limit. See pace.go.
	Rate Rate
}

// claimLease is how long a claimed mail stays reserved to the worker
// sending it: longer than sending a batch takes, short enough that the
// mail of a worker that died goes out from another soon after.
const claimLease = 5 * time.Minute

// Outbox sends queued mail over SMTP, retrying with exponential backoff, so
// that a reply is never lost while the SMTP server is down.
type Outbox struct {
	cfg   OutboxConfig
	svc   *Service // renders drafts
	store host.Store
	log   *slog.Logger
	now   func() time.Time
	kick  chan struct{}
	// ensure, when set, is called with each recipient before a mail is
	// sent to them (the embedded setup opens their mailbox).
	ensure func(address string) error
	// crash, in tests: "sent" stops after the SMTP server accepted a mail
	// and before the outbox records it.
	crash func(point string) bool
	// budget is how long a mail may take to render: renderBudget, less
	// in tests.
	budget time.Duration

	// While Run runs, the service hands it the mails of each batch the
	// intake commits, claimed for it in the batch's transaction
	// (Service.handleBatch): it sends them without a Claim. reserved holds
	// their ids from before the batch commits until they are sent, and
	// the mails a Claim returns leave them out: Claim returns a worker's
	// own claims, and a mail handed over must not go twice.
	handMu   sync.Mutex
	running  bool
	handed   []host.Outgoing
	reserved map[int64]bool
	// claimWanted is set by Kick: the next round Claims, even after
	// sending mails handed over.
	claimWanted atomic.Bool
	// pace keeps the sends under cfg.Rate and pauses them when the
	// server asks herald to slow down.
	pace *pacer
}

// NewOutbox returns an outbox for svc's store.
func NewOutbox(cfg OutboxConfig, svc *Service) *Outbox {
	if cfg.From == "" {
		cfg.From = svc.cfg.Address
	}
	if cfg.Every <= 0 {
		cfg.Every = 2 * time.Second
	}
	if cfg.Worker == "" {
		cfg.Worker, _ = os.Hostname()
		if cfg.Worker == "" {
			cfg.Worker = "herald"
		}
	}
	if cfg.Server.Security == "" {
		cfg.Server.Security = TLS
	}
	log := cfg.Logger
	if log == nil {
		log = svc.log
	}
	return &Outbox{cfg: cfg, svc: svc, store: svc.cfg.Store, log: log, now: svc.cfg.Now, kick: make(chan struct{}, 1), budget: renderBudget, pace: &pacer{rate: cfg.Rate}}
}

// Kick asks the outbox to look for due mail now.
func (o *Outbox) Kick() {
	o.claimWanted.Store(true)
	o.wake()
}

// wake starts a round of the outbox's Run.
func (o *Outbox) wake() {
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// reserve records that mails are being claimed for the outbox in a batch
// about to commit, and reports whether it runs to take them.
func (o *Outbox) reserve(ms []host.Outgoing) bool {
	o.handMu.Lock()
	defer o.handMu.Unlock()
	if !o.running {
		return false
	}
	for _, m := range ms {
		o.reserved[m.ID] = true
	}
	return true
}

// unreserve undoes reserve: the batch did not commit, or the mails were
// sent (or left for a later Claim).
func (o *Outbox) unreserve(ms []host.Outgoing) {
	o.handMu.Lock()
	defer o.handMu.Unlock()
	for _, m := range ms {
		delete(o.reserved, m.ID)
	}
}

// hand gives the outbox the mails reserved and claimed for it in a batch
// that committed, to send at once. Without ok (the claim failed), it asks
// for a Claim instead.
func (o *Outbox) hand(ms []host.Outgoing, ok bool) {
	if !ok {
		o.Kick()
		return
	}
	if len(ms) == 0 {
		return
	}
	o.handMu.Lock()
	if !o.running { // stopped meanwhile: the next Run's Claim takes them
		o.handMu.Unlock()
		return
	}
	o.handed = append(o.handed, ms...)
	o.handMu.Unlock()
	o.wake()
}

// takeHanded returns the mails handed over since the last call.
func (o *Outbox) takeHanded() []host.Outgoing {
	o.handMu.Lock()
	defer o.handMu.Unlock()
	h := o.handed
	o.handed = nil
	return h
}

// notReserved returns the mails of due that were not handed over.
func (o *Outbox) notReserved(due []host.Outgoing) []host.Outgoing {
	o.handMu.Lock()
	defer o.handMu.Unlock()
	if len(o.reserved) == 0 {
		return due
	}
	return slices.DeleteFunc(due, func(m host.Outgoing) bool { return o.reserved[m.ID] })
}

// Run sends due mail until ctx is done.
func (o *Outbox) Run(ctx context.Context) error {
	if err := o.cfg.Server.checkPlain(); err != nil {
		return err
	}
	// One connection at the start, so that a server that does not speak
	// TLS on its port is known at once, not when the first reply is due.
	if c, err := o.dial(); err == nil {
		c.Quit()
	} else if fatal := o.cfg.Server.notTLS("SMTP", err); fatal != nil {
		return fatal
	} else {
		o.log.Warn("outbox: the SMTP server does not answer yet", "addr", o.cfg.Server.Addr, "err", err)
	}
	o.handMu.Lock()
	o.running, o.handed, o.reserved = true, nil, map[int64]bool{}
	o.handMu.Unlock()
	o.svc.outbox.Store(o)
	defer func() {
		o.svc.outbox.CompareAndSwap(o, nil)
		o.handMu.Lock()
		o.running, o.handed, o.reserved = false, nil, nil
		o.handMu.Unlock()
	}()
	for {
		if _, err := o.SendDue(ctx); err != nil && ctx.Err() == nil {
			if fatal := o.cfg.Server.notTLS("SMTP", err); fatal != nil {
				return fatal
			}
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

// never is how far off a mail herald gives up on is put: the row stays in
// the outbox for the record.
const never = 100 * 365 * 24 * time.Hour

// maxSenders is how many SMTP connections the outbox sends on at once, so
// that the replies of a move reach their recipients side by side rather
// than one after the other.
const maxSenders = 4

// SendDue sends every due mail and returns how many were sent: first the
// mails handed over by the intake (see Outbox.reserved), then, unless
// there were some and no Kick asked for more, the mails a Claim returns.
// The mails of one recipient go in order on one SMTP connection; the
// recipients are spread over up to maxSenders connections, used at once.
func (o *Outbox) SendDue(ctx context.Context) (int, error) {
	budget := o.pace.budget(o.now())
	if budget == 0 {
		return 0, nil // paced, or the server asked to wait: a later round
	}
	wanted := o.claimWanted.Swap(false)
	n := 0
	if handed := o.takeHanded(); len(handed) > 0 {
		k, err := o.send(ctx, handed)
		o.unreserve(handed)
		n += k
		if err != nil || !wanted {
			if wanted {
				o.claimWanted.Store(true)
			}
			return n, err
		}
	}
	due, err := o.store.Claim(ctx, o.cfg.Worker, o.now(), claimLease, min(maxClaim, budget))
	if err != nil {
		return n, err
	}
	due = o.notReserved(due)
	if len(due) == 0 {
		return n, nil
	}
	k, err := o.send(ctx, due)
	return n + k, err
}

// send sends due, claimed. A mail leaves only once the transaction that
// queued it is on disk (the intake commits without waiting for the disk,
// and syncs before it moves mail): a power loss must not leave a reply
// sent for a move the database forgot. That sync runs while the
// connections open and the first mails are rendered, none of which needs
// it.
func (o *Outbox) send(ctx context.Context, due []host.Outgoing) (int, error) {
	synced := make(chan struct{})
	var syncErr error
	go func() {
		syncErr = o.store.Sync()
		close(synced)
	}()
	durable := func() error {
		<-synced
		return syncErr
	}
	var lanes [][]host.Outgoing
	var index [][]int // of each lane's mails in due
	lane := map[string]int{}
	for k, m := range due {
		i, ok := lane[m.Recipient]
		if !ok {
			i = len(lane) % maxSenders
			lane[m.Recipient] = i
			if i == len(lanes) {
				lanes, index = append(lanes, nil), append(index, nil)
			}
		}
		lanes[i], index[i] = append(lanes[i], m), append(index[i], k)
	}
	order := newGameOrder(due)
	if len(lanes) == 1 {
		return o.sendLane(ctx, lanes[0], index[0], order, durable)
	}
	sent := make([]int, len(lanes))
	errs := make([]error, len(lanes))
	var wg sync.WaitGroup
	for i, l := range lanes {
		wg.Go(func() { sent[i], errs[i] = o.sendLane(ctx, l, index[i], order, durable) })
	}
	wg.Wait()
	n := 0
	for _, k := range sent {
		n += k
	}
	for _, err := range errs {
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// sendLane sends due, in order, on one SMTP connection, opened while the
// first mail is rendered. No mail goes before durable, which waits for the
// sync of the mails claimed, returns nil; when it fails, sendLane sends
// nothing and returns its error, the mails staying claimed for the next
// round. index gives each mail's place in the round, for order (the mails
// of a game go in order across lanes); a mail the pace does not let go
// stays claimed for the next round.
func (o *Outbox) sendLane(ctx context.Context, due []host.Outgoing, index []int, order *gameOrder, durable func() error) (int, error) {
	type dialed struct {
		c   *smtp.Client
		err error
	}
	dialing := make(chan dialed, 1)
	go func() {
		c, err := o.dial()
		dialing <- dialed{c, err}
	}()
	var c *smtp.Client // once the first mail is ready to go
	defer func() {
		if c != nil {
			c.Close()
			return
		}
		go func() { // no mail went: hang up once connected
			if d := <-dialing; d.err == nil {
				d.c.Quit()
			}
		}()
	}()
	sent := 0
	// A recipient whose mail of a game failed gets none of their later
	// ones of that game, nor of no game, this round: they wait for it (the
	// store's Claim keeps them in order).
	held := holds{}
	defer func() { // what this lane did not reach stays claimed
		for _, gi := range index {
			order.finish(gi, orderLeft)
		}
	}()
	for i, m := range due {
		gi := index[i]
		switch order.wait(ctx, gi) {
		case orderLeft:
			order.finish(gi, orderLeft)
			continue
		case orderFailed:
			if err := o.store.MarkFailed(ctx, m.ID, o.now(), fmt.Errorf("waits for an earlier mail of game %s", gameTag(m.GameID))); err != nil {
				return sent, err
			}
			order.finish(gi, orderFailed)
			held.add(m)
			continue
		}
		if held.has(m) {
			order.finish(gi, orderFailed)
			if err := o.store.MarkFailed(ctx, m.ID, o.now(), fmt.Errorf("waits for an earlier mail to %s", m.Recipient)); err != nil {
				return sent, err
			}
			continue
		}
		if _, err := host.ParseAddress(m.Recipient); err != nil { // queued before addresses were checked
			if merr := o.setAside(ctx, m, err); merr != nil {
				return sent, merr
			}
			order.finish(gi, orderSent)
			continue
		}
		raw, err := o.render(ctx, m)
		var bad *badDraftError
		if errors.As(err, &bad) { // a draft this herald cannot render: keep it, unsent
			if merr := o.setAside(ctx, m, err); merr != nil {
				return sent, merr
			}
			order.finish(gi, orderSent)
			continue
		}
		if err != nil { // the store failed: try again later
			o.failed(ctx, m, err)
			held.add(m)
			order.finish(gi, orderFailed)
			continue
		}
		if o.ensure != nil {
			if err := o.ensure(m.Recipient); err != nil {
				err = fmt.Errorf("opening the mailbox of %s: %w", m.Recipient, err)
				if m.Attempts+1 >= maxFailures { // within its budget, or never
					if merr := o.setAside(ctx, m, err); merr != nil {
						return sent, merr
					}
					order.finish(gi, orderSent)
					continue
				}
				o.failed(ctx, m, err)
				held.add(m)
				order.finish(gi, orderFailed)
				continue
			}
		}
		if c == nil {
			if err := durable(); err != nil {
				return sent, err
			}
			d := <-dialing
			if d.err != nil {
				for _, m := range due[i:] {
					o.failed(ctx, m, connError{d.err})
				}
				return sent, d.err
			}
			c = d.c
		}
		if !o.pace.take(o.now()) { // over the rate, or told to wait
			order.finish(gi, orderLeft)
			held.add(m)
			continue
		}
		err = o.sendOne(c, m.Recipient, raw)
		if err != nil {
			if o.failed(ctx, m, err) {
				order.finish(gi, orderSent)
			} else {
				order.finish(gi, orderFailed)
				held.add(m)
			}
			if errors.Is(err, net.ErrClosed) {
				return sent, err
			}
			c.Reset()
			continue
		}
		o.pace.accepted()
		if o.crash != nil && o.crash("sent") {
			return sent, errCrash
		}
		if err := o.store.MarkSent(ctx, m.ID, o.now()); err != nil {
			return sent, err
		}
		order.finish(gi, orderSent)
		sent++
	}
	if c != nil {
		c.Quit()
	}
	return sent, nil
}

// failed records that m could not be sent for err, and reports whether it
// was set aside (refused for good) rather than left to try again.
func (o *Outbox) failed(ctx context.Context, m host.Outgoing, err error) bool {
	now := o.now()
	delay := min(5*time.Second<<min(m.Attempts, 12), time.Hour)
	if refused(err) {
		// A 5xx that is no quota is for good: no retry helps. Give up; the
		// row stays for the record, herald failed lists it, and the host
		// of its game is told.
		o.log.Error("outbox: giving up on a mail the server refuses", "to", m.Recipient, "err", err)
		if merr := o.setAside(ctx, m, err); merr != nil {
			o.log.Error("outbox: cannot record a failure", "err", merr)
		} else if merr := o.refusedNotice(ctx, m, err); merr != nil {
			o.log.Error("outbox: cannot tell the host of a mail refused", "err", merr)
		} else {
			o.claimWanted.Store(true) // the notice goes in the next round
		}
		return true
	}
	if slowDown(err) {
		until := o.pace.throttle(now)
		o.log.Warn("outbox: the server asks herald to send less; pausing", "until", until, "err", err)
		delay = max(delay, until.Sub(now))
	}
	if merr := o.store.MarkFailed(ctx, m.ID, now.Add(delay), err); merr != nil {
		o.log.Error("outbox: cannot record a failure", "err", merr)
	}
	return false
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
	if err := o.cfg.Server.smtpLogin(context.Background(), c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}
