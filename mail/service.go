package mail

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/notation"
)

// Config configures a Service. The zero value of every optional field is
// a sensible default.
type Config struct {
	// Address is herald's own mail address: the From of every mail it
	// sends, and the mailbox it reads. Required.
	Address string

	// Registry lists the games that can be played. Required.
	Registry *adjudicator.Registry

	// Store is the database. Required.
	Store host.Store

	// Hosts are the addresses allowed to start games by mail. Empty means
	// anyone may (fine on the embedded local setup, not on a public address),
	// within StrangerGames.
	Hosts []string

	// StrangerGames caps the games started by mail when Hosts is empty,
	// since anyone may then have herald welcome any address: one address
	// starts at most StrangerGames.PerAddress games an hour, all
	// together at most StrangerGames.PerHour, and one address is named
	// in at most StrangerGames.PerNamed games others start in a day;
	// default 5, 30 and 3.
	StrangerGames GameLimits

	// MaxSize is the largest incoming mail accepted; default 256 KiB.
	MaxSize int64

	// RepliesPerHour caps the mails herald sends to one sender in answer to
	// that sender's own mails, so that two robots can never loop; default 30.
	// The news of a move (everyone's new board, the mover's confirmation)
	// is not counted: it answers the game, not the sender.
	RepliesPerHour int

	// StrangerAnswersPerHour caps the answers to mails that do not prove
	// their sender (with no key or reply token: observe, new, a mail herald
	// could not read; or failing authentication) that herald sends to all
	// addresses together in an hour; default 100. Anyone can send such a
	// mail in anyone's name: RepliesPerHour and AuthNoticesPerHour hold
	// what one forged address gets, and this what a forger gets out of
	// herald by forging one address after another. Past it, herald reads
	// those mails and answers none, and logs each answer it holds back.
	StrangerAnswersPerHour int

	// PlainOnly sends text/plain alone. By default every mail also carries
	// an HTML alternative with the text in <pre>, so that mail clients that
	// show plain text in a proportional font still line up the board, and
	// every mail about the board a picture of it (PNG, inline).
	PlainOnly bool

	// NoPictures sends no picture of the board (serve --pictures off).
	NoPictures bool

	// Logger receives one structured line per mail; nil discards.
	Logger *slog.Logger

	// Now is the clock; default time.Now. Only the mail layer reads it: the
	// time stamped on moves and on mails, never the rules.
	Now func() time.Time

	// NewKey returns a new player key; default 8 random bytes in hex.
	NewKey func() string

	// NewToken returns a new reply token; default 12 random bytes in hex.
	NewToken func() string

	// NewSeed returns the seed of a new game; default adjudicator.NewSeed
	// (128 secret random bits). The demo fixes it to replay a game.
	NewSeed func() string

	// NoReplyTokens sends no Reply-To with the seat's token (for a
	// provider without plus-addressing): players then authenticate by
	// their key line alone. A reply to a token address is still accepted.
	NoReplyTokens bool

	// PageURL, when set, gives the address of a game's web page from its
	// page token (host.Config.PageURL): the welcome mails give it.
	PageURL func(token string) string

	// Hints lets players ask the bot for a hint by mail (host.Config.Hints).
	Hints bool

	// Host hosts the games; default a host of Registry and Store with
	// this Config's Now, NewKey and NewSeed.
	Host *host.Host

	// TrustAuthservIDs are the authserv-ids of the servers of herald's
	// own provider that stamp incoming mail with Authentication-Results
	// (RFC 8601): their DMARC verdict on the From domain is trusted, every
	// other such field ignored. A mail they say fails DMARC is refused as
	// forged, whatever key it carries, and the game's host is told, not its
	// sender (senderCheck). Empty: no verdict is read.
	TrustAuthservIDs []string

	// RequireDMARC refuses, as forged, every mail whose DMARC result from
	// a trusted server is not pass (none, an error, or no result), unless
	// herald's own DKIM check (VerifyDKIM) passes.
	RequireDMARC bool

	// VerifyDKIM has herald verify the DKIM signatures of incoming mail
	// itself (dkim.go), for a provider that stamps no
	// Authentication-Results: a valid signature of the From domain proves
	// the sender, one that does not verify marks the mail forged.
	VerifyDKIM bool

	// LookupTXT looks up the DNS TXT records of a name, for the DKIM keys
	// of VerifyDKIM; default net.DefaultResolver.LookupTXT.
	LookupTXT func(ctx context.Context, name string) ([]string, error)

	// OnNewPlayer, if set, is called for every player address of a game
	// created by mail, and for its host, before the welcome mails are
	// queued. The embedded setup uses it to open a mailbox for each.
	OnNewPlayer func(address string) error
}

// Service is the mail service: it turns one incoming mail into at most one
// change to one game and the replies it causes, atomically.
type Service struct {
	cfg    Config
	domain string
	log    *slog.Logger
	host   *host.Host
	// pictures keeps the last boards drawn, by game and moves: every
	// player of a move gets the same picture.
	pictures struct {
		sync.Mutex
		m map[[32]byte]*pictureJob
	}
	// drawing counts the pictures prewarm is drawing.
	drawing sync.WaitGroup
	// outbox is the outbox running (Outbox.Run), if any: each batch hands
	// it the mails it queued, claimed in the batch's transaction.
	outbox atomic.Pointer[Outbox]
	// dkimTimeout bounds the DKIM check of one mail (dkimTimeout), and
	// dkimSilent holds, by organizational domain, until when a domain
	// whose DNS did not answer in time is not asked (dkimSilence).
	dkimTimeout time.Duration
	dkimSilent  sync.Map
}

// Outcome is what became of an incoming mail (host.Outcome).
type Outcome = host.Outcome

// The outcomes, as logged and stored.
const (
	Applied   = host.Applied   // a move was applied
	Created   = host.Created   // a game was started
	Answered  = host.Answered  // a command was answered (show, legal, help, history)
	Ended     = host.Ended     // resign or abandon ended a game
	Rejected  = host.Rejected  // refused, with a reply saying why
	Ignored   = host.Ignored   // not answered: auto-reply, bounce, list, rate limit
	Duplicate = host.Duplicate // already processed
)

// NewService checks cfg and returns a service.
func NewService(cfg Config) (*Service, error) {
	if cfg.Address == "" || cfg.Registry == nil || cfg.Store == nil {
		return nil, errors.New("mail: Config needs Address, Registry and Store")
	}
	cfg.Address = strings.ToLower(cfg.Address)
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = DefaultMaxSize
	}
	if cfg.StrangerGames.PerAddress <= 0 {
		cfg.StrangerGames.PerAddress = 5
	}
	if cfg.StrangerGames.PerHour <= 0 {
		cfg.StrangerGames.PerHour = 30
	}
	if cfg.StrangerGames.PerNamed <= 0 {
		cfg.StrangerGames.PerNamed = 3
	}
	if cfg.StrangerAnswersPerHour <= 0 {
		cfg.StrangerAnswersPerHour = 100
	}
	if cfg.RepliesPerHour <= 0 {
		cfg.RepliesPerHour = 30
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewSeed == nil {
		cfg.NewSeed = adjudicator.NewSeed
	}
	for i, h := range cfg.Hosts {
		a, err := host.ParseAddress(strings.TrimSpace(h))
		if err != nil {
			return nil, fmt.Errorf("mail: the hosts: %w", err)
		}
		cfg.Hosts[i] = a
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	_, domain, _ := strings.Cut(cfg.Address, "@")
	if domain == "" {
		domain = "herald.local"
	}
	h := cfg.Host
	if h == nil {
		var err error
		h, err = host.New(cfg.hostConfig())
		if err != nil {
			return nil, err
		}
	}
	svc := &Service{cfg: cfg, domain: domain, log: log, host: h, dkimTimeout: dkimTimeout}
	svc.pictures.m = map[[32]byte]*pictureJob{}
	return svc, nil
}

// hostConfig is the configuration of the host a service makes for cfg
// when cfg.Host is nil.
func (cfg Config) hostConfig() host.Config {
	return host.Config{Registry: cfg.Registry, Store: cfg.Store, Now: cfg.Now, NewKey: cfg.NewKey, NewSeed: cfg.NewSeed, NewToken: cfg.NewToken,
		ReplyTokens: !cfg.NoReplyTokens, PageURL: cfg.PageURL, Hints: cfg.Hints,
		Own: func(a string) bool { return ownAddress(cfg.Address, a) }}
}

// Handle processes one raw incoming mail. It returns an error only when
// the mail could not be processed at all (the database is unavailable):
// the mail must then stay in the inbox to be processed again. Every other
// problem is an outcome, answered or not.
func (s *Service) Handle(ctx context.Context, raw []byte) (Outcome, error) {
	outs, err := s.HandleBatch(ctx, [][]byte{raw})
	if err != nil {
		return "", err
	}
	return outs[0], nil
}

// HandleBatch processes raw mails in order, as Handle would one after the
// other, but in one database transaction: one commit, one sync to disk for
// the batch. Each mail still commits with its own effects (its identity,
// the game's new record, its replies) or not at all.
//
// It returns the outcomes of the mails that were committed, which are the
// first len(outcomes) of raws. When that is fewer than len(raws), err says
// why the next mail could not be processed: it and the mails after it were
// not, and must stay in the inbox for the next round.
func (s *Service) HandleBatch(ctx context.Context, raws [][]byte) ([]Outcome, error) {
	return s.handleRead(ctx, raws, nil, true)
}

// handleRead is HandleBatch for mails already read (s.read), or not
// (reads nil). Unless sync, the outcomes are committed but durable only
// once the store's Sync returns (host.StoreBatch.CommitUnsynced).
func (s *Service) handleRead(ctx context.Context, raws [][]byte, reads []readMail, sync bool) ([]Outcome, error) {
	outs, err, commitErr := s.handleBatch(ctx, raws, reads, sync, false)
	if commitErr == nil {
		return outs, err
	}
	if len(raws) == 1 || ctx.Err() != nil {
		return nil, commitErr
	}
	// The batch did not commit: nothing of it was written. Go again one mail
	// per transaction, so that a failure is the failing mail's alone and
	// the mails before it are processed, as they would be one by one.
	s.log.Warn("batch not committed; processing its mails one by one", "mails", len(raws), "err", commitErr)
	outs = outs[:0]
	for i := range raws {
		var read []readMail // a mail over the limit is only its header: keep its reading
		if reads != nil {
			read = reads[i : i+1]
		}
		out, err, commitErr := s.handleBatch(ctx, raws[i:i+1], read, sync, false)
		if commitErr != nil {
			err = commitErr
		}
		if err != nil {
			return outs, err
		}
		outs = append(outs, out[0])
	}
	return outs, nil
}

// handleBatch processes raws in one transaction until one fails (err) and
// commits those before it. commitErr is a failure to begin or commit the
// transaction, after which none was processed.
//
// Unless guarded, the mails run without a savepoint each
// (host.Batch.Unguarded): when one fails, the whole transaction is rolled
// back, and handleBatch goes again, guarded, each mail in a savepoint,
// so as to commit the mails before the failing one. (When the first mail
// fails there is nothing before it to keep.)
func (s *Service) handleBatch(ctx context.Context, raws [][]byte, reads []readMail, sync, guarded bool) (outs []Outcome, err, commitErr error) {
	if reads == nil {
		reads = s.read(raws)
	}
	if len(raws) > 1 {
		ctx = context.WithValue(ctx, burstKey{}, true)
	}
	b, berr := s.host.Begin(ctx)
	if berr != nil {
		if len(raws) == 1 {
			s.failLog(raws[0])(berr)
		}
		return nil, nil, berr
	}
	defer b.Rollback()
	if !guarded {
		b.Unguarded()
		if len(raws) > 1 {
			// The news of each move is written on another processor
			// while the next mails are processed (host.Batch.WriteApart).
			b.WriteApart()
		}
	}
	if len(reads) > 1 {
		// One statement checks (or claims) the whole batch's identities.
		ids := make([]string, 0, len(reads))
		for _, r := range reads {
			if id := r.id(); id != "" {
				ids = append(ids, id)
			}
		}
		if err := b.Expect(ctx, ids); err != nil {
			return nil, nil, err
		}
	}
	var logs []func()
	for i, r := range reads {
		if i > 0 && ctx.Err() != nil {
			// Stopping: commit what is done; the rest waits in the inbox.
			err = ctx.Err()
			break
		}
		out, logf, merr := s.handleOne(ctx, b, raws[i], r, i > 0)
		if merr != nil && i > 0 && errors.Is(merr, host.ErrBatchLost) {
			b.Rollback()
			return s.handleBatch(ctx, raws, reads, sync, true)
		}
		if merr != nil {
			err = merr
			break
		}
		outs = append(outs, out)
		logs = append(logs, logf)
	}
	if len(outs) == 0 {
		return nil, err, nil
	}
	// The running outbox gets the batch's mails claimed for it in the
	// transaction: it sends them once the batch is on disk, without a
	// Claim of its own.
	o := s.outbox.Load()
	var handed []host.Outgoing
	handoff := o != nil
	if handoff {
		var herr error
		handed, herr = b.ClaimQueued(ctx, o.cfg.Worker, o.now().Add(claimLease))
		if herr != nil {
			s.log.Warn("outbox: cannot claim the mails of a batch as it commits; the outbox claims them", "err", herr)
		}
		if herr != nil || !o.reserve(handed) {
			handed, handoff = nil, false
		}
	}
	commit := b.CommitUnsynced
	if sync {
		commit = b.Commit
	}
	if cerr := commit(ctx); cerr != nil {
		if handoff {
			o.unreserve(handed)
		}
		if len(raws) == 1 {
			s.failLog(raws[0])(cerr)
		}
		return nil, nil, cerr
	}
	if o != nil {
		o.hand(handed, handoff)
	}
	for _, l := range logs {
		l()
	}
	return outs, err, nil
}

// burstKey marks the context of a batch of several mails, a burst: its
// pictures are not drawn ahead (prewarm). Mails that come one at a time
// get their pictures drawn while their transaction commits, which is what
// the latency of a turn needs; in a burst that would draw every picture
// at once, competing with the intake for the processors, and draw most of
// them twice, the cache of pictures (64) being emptied long before the
// outbox sends them. The outbox draws each when it renders its mails.
type burstKey struct{}

// inBurst reports whether ctx is that of a batch of several mails.
func inBurst(ctx context.Context) bool { return ctx.Value(burstKey{}) != nil }

// failLog returns how the failure to process raw is logged: as Handle logs
// a readable mail it could not process (a mail that cannot be read has no
// such line).
func (s *Service) failLog(raw []byte) func(error) {
	msg, err := ExtractBytes(raw, &ExtractOptions{MaxSize: s.cfg.MaxSize})
	if err != nil {
		return func(error) {}
	}
	if msg.From == "" {
		msg.From = "unknown"
	}
	return func(err error) {
		s.log.Error("mail not processed", "message_id", msg.MessageID, "from", msg.From, "err", err)
	}
}

// readMail is what is known of a mail before its transaction: what pure
// functions of its bytes say, computed for a whole batch in parallel.
type readMail struct {
	hash string
	msg  *Message
	xerr error
	env  *notation.Envelope // nil unless the mail was read
}

// id is the identity the mail is processed under (host.Intake.MessageID):
// its Message-ID, or for a mail that could not be read and has none, its
// hash; "" for a mail whose reading failed (it is not processed).
func (r readMail) id() string {
	if r.xerr == nil {
		return r.msg.MessageID
	}
	var ee *ExtractError
	if !errors.As(r.xerr, &ee) {
		return ""
	}
	// Extract returns what it read of the header with most errors.
	if r.msg != nil && r.msg.MessageID != "" {
		return r.msg.MessageID
	}
	return "sha256:" + r.hash
}

// read reads raws on every processor. The DKIM check of a mail
// (checkDKIM), which waits on DNS, runs apart from the readers, each
// mail's at once: a DNS that is slow to answer holds no reader, and the
// waits of a batch overlap, each bounded by dkimTimeout.
func (s *Service) read(raws [][]byte) []readMail {
	out := make([]readMail, len(raws))
	if len(raws) == 1 {
		out[0] = s.readOne(raws[0])
		return out
	}
	var next atomic.Int64
	var wg, dns sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(raws)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(raws); i = int(next.Add(1) - 1) {
				out[i] = s.readText(raws[i])
				if s.cfg.VerifyDKIM {
					dns.Go(func() { s.checkDKIM(raws[i], &out[i]) })
				}
			}
		})
	}
	wg.Wait()
	dns.Wait()
	return out
}

// readTooLarge is readOne for a mail over the size limit, of which only
// the header was fetched.
func (s *Service) readTooLarge(header []byte, size int64) readMail {
	sum := sha256.Sum256(header)
	r := readMail{hash: hex.EncodeToString(sum[:])}
	r.msg, r.xerr = ExtractTooLarge(header, size, &ExtractOptions{MaxSize: s.cfg.MaxSize})
	return r
}

// readOne reads raw: readText, then the DKIM check.
func (s *Service) readOne(raw []byte) readMail {
	r := s.readText(raw)
	s.checkDKIM(raw, &r)
	return r
}

// readText is what readOne reads of raw without the network: its hash,
// its text and envelope, a bounce's report.
func (s *Service) readText(raw []byte) readMail {
	sum := sha256.Sum256(raw)
	r := readMail{hash: hex.EncodeToString(sum[:])}
	r.msg, r.xerr = ExtractBytes(raw, &ExtractOptions{MaxSize: s.cfg.MaxSize})
	if r.xerr == nil {
		r.env = notation.ParseEnvelope(r.msg.Body)
		remapLines(r.env, r.msg.Lines)
	}
	if r.msg != nil && r.msg.Auto == AutoBounce {
		r.msg.Bounce = ParseBounce(raw)
	}
	return r
}

// handleOne processes one mail inside batch b. The log line it returns is
// written once the batch is committed. When replays, a failure that lost
// the batch (host.ErrBatchLost) is not logged: handleBatch processes the
// batch again, guarded, and the mail's failure is logged then.
func (s *Service) handleOne(ctx context.Context, b *host.Batch, raw []byte, r readMail, replays bool) (Outcome, func(), error) {
	now := s.cfg.Now().UTC()
	hash, msg, xerr := r.hash, r.msg, r.xerr
	if xerr != nil {
		var ee *ExtractError
		if !errors.As(xerr, &ee) {
			return "", nil, xerr // reading failed: retry later
		}
		return s.handleBroken(ctx, b, msg, r.id(), hash, now, xerr)
	}
	if msg.From == "" {
		msg.From = "unknown"
	}
	in := host.Intake{MessageID: msg.MessageID, BodyHash: hash, Sender: msg.From, Received: now}
	var outcome Outcome
	var gameID int64
	var reason string
	err := b.Do(ctx, in, func(ses *host.Session) (err error) {
		defer func() { // a mail that panics fails, and is set aside in the end
			if p := recover(); p != nil {
				err = fmt.Errorf("mail: panic: %v", p)
			}
		}()
		outcome, gameID, reason, err = s.process(ctx, ses, msg, r.env, now)
		ses.Tx().SetOutcome(string(outcome), gameID)
		return err
	})
	if errors.Is(err, host.ErrDuplicate) {
		outcome, err = Duplicate, nil
		if repeated(msg) {
			err = s.repeatNotice(ctx, b, msg, hash, now)
		}
	}
	if err != nil {
		if !replays || !errors.Is(err, host.ErrBatchLost) {
			s.log.Error("mail not processed", "message_id", msg.MessageID, "from", msg.From, "err", err)
		}
		return "", nil, err
	}
	return outcome, func() {
		s.log.Info("mail", "message_id", msg.MessageID, "from", msg.From, "game", gameID, "outcome", string(outcome), "reason", reason)
	}, nil
}

// unreadableAdvice says, for a player, what to do about a mail Extract
// could not read (xerr, an *ExtractError or not).
func unreadableAdvice(xerr error) string {
	var e *ExtractError
	errors.As(xerr, &e)
	switch {
	case e != nil && e.Kind == ErrTooLarge:
		return "A mail that large most often carries a picture or another attachment (a\nreply may carry herald's own picture back), or quotes a long thread:\nsend your moves again without it, in a short mail."
	case e != nil && e.Kind == ErrMalformed && (strings.HasPrefix(e.Detail, "multipart/") || errors.Is(e.Err, io.ErrUnexpectedEOF)):
		return "Its parts are not closed as MIME requires: the mail ends in the middle\nof one, as when a mail program or a server cuts it short. Send it again,\nas plain text if you can."
	case e != nil && e.Kind == ErrEmpty:
		return "Once the quoted text and the signature are set aside, nothing is left:\nwrite your moves above the quoted mail, or attach a YAML turn file."
	}
	return "Send your moves as plain text (or HTML) in UTF-8 or another common\ncharset, under the size limit, or attach a YAML turn file."
}

// handleBroken records and, when it is safe, answers a mail that could not
// be read: too large, malformed, an unknown charset, empty. It is not
// answered when it comes from no one, from a program or from herald, nor
// when its sender fails the check a mail read must pass (senderCheck: the
// trusted provider's DMARC verdict, require_dmarc), which its header
// alone decides.
func (s *Service) handleBroken(ctx context.Context, b *host.Batch, msg *Message, id, hash string, now time.Time, xerr error) (Outcome, func(), error) {
	from, auto := "", false
	why := "" // why its sender is not taken for its author, as for a mail read
	if msg != nil {
		from, auto = msg.From, msg.Auto != AutoNone
		why, _ = s.senderCheck(msg)
	}
	outcome := Rejected
	err := b.Do(ctx, host.Intake{MessageID: id, BodyHash: hash, Sender: from, Received: now}, func(ses *host.Session) error {
		tx := ses.Tx()
		if from == "" || auto || from == s.cfg.Address {
			outcome = Ignored
			tx.SetOutcome(string(outcome), 0)
			return nil
		}
		tx.SetOutcome(string(outcome), 0)
		if why != "" {
			// Not answered: the answer would go to whomever a stranger
			// named in From.
			return nil
		}
		body := fmt.Sprintf("herald could not read your mail, so nothing was done with it:\n\n  %v\n\n%s",
			xerr, unreadableAdvice(xerr))
		return s.reply(ctx, tx, outMail{To: from, Subject: "[herald] your mail could not be read", InReplyTo: id, References: refs(id, 0, s.domain), Body: body}, 0, now, host.UnkeyedAnswer)
	})
	if errors.Is(err, host.ErrDuplicate) {
		return Duplicate, func() {}, nil
	}
	if err != nil {
		return "", nil, err
	}
	return outcome, func() {
		reason := xerr.Error()
		if why != "" {
			reason += "; not answered: " + why
		}
		s.log.Info("mail", "message_id", id, "from", from, "outcome", string(outcome), "reason", reason)
	}, nil
}

// process decides what to do with a readable mail, inside its transaction:
// the address check and the game it is about here, the rest by the host.
func (s *Service) process(ctx context.Context, ses *host.Session, msg *Message, env *notation.Envelope, now time.Time) (Outcome, int64, string, error) {
	if msg.Auto != AutoNone {
		if msg.Bounce != nil {
			if why, _ := s.senderCheck(msg); why == "" {
				return s.bounced(ctx, ses, msg, now)
			}
		}
		return Ignored, 0, "automatic mail: " + msg.Auto.String(), nil
	}
	if s.own(msg.From) {
		return Ignored, 0, "mail from herald itself", nil
	}
	why, v := s.senderCheck(msg)
	if why != "" {
		return s.forged(ctx, ses, msg, env, why, v, now)
	}
	tokenGame, token := s.replyToken(msg)
	for _, c := range env.Commands {
		switch c.Name {
		case "new":
			return s.newGame(ctx, ses, msg, env, c, now)
		case "observe", "unobserve":
			// Without a key or a reply token, naming no one else, the mail
			// is an observer's; with one, or naming someone else, it is a
			// player's or the host's request, authenticated below, observe
			// among its parts (issue 25, item 14; issue 26, item 1).
			if env.Key == "" && token == "" && !slices.ContainsFunc(c.Args, func(a string) bool { return strings.Contains(a, "@") }) {
				return s.observe(ctx, ses, msg, env, c, v.DMARC.Result == "pass" || v.DKIM.Result == "pass", now)
			}
			if env.Game == "" && len(c.Args) > 0 && !strings.Contains(c.Args[0], "@") {
				// The game it names is the mail's, unless the mail is
				// about another already: herald handles one game a mail.
				named, _ := tagID(c.Args[0])
				other := mailGame(msg, tokenGame)
				if other != 0 && named != 0 && named != other {
					return s.twoGames(ctx, ses, msg, env, other, named, c, tokenGame, token, now)
				}
				env.Game = c.Args[0]
			}
		}
	}
	if env.Game != "" {
		// A game line that names another game than the one the mail is
		// about (its subject, or the reply address it went to): which the
		// sender meant is not clear.
		named, _ := tagID(env.Game)
		other := mailGame(msg, tokenGame)
		if other != 0 && named != 0 && named != other {
			c := notation.Command{Name: "game", Args: []string{env.Game}, Pos: env.GamePos}
			return s.twoGames(ctx, ses, msg, env, other, named, c, tokenGame, token, now)
		}
	}
	if env.Game == "" && notation.SubjectGame(msg.Subject) == "" && tokenGame != 0 {
		env.Game = gameTag(tokenGame) // a reply to herald+g12.TOKEN@… names its game
	}
	g, why, err := s.findGame(ctx, ses, msg, env)
	if err != nil {
		return "", 0, "", err
	}
	if g == nil {
		// No detail about any game: the sender may not be who they say.
		body := "herald did not find which game your mail is for.\n\n" + why +
			"\n\nReply to a mail from herald (the subject keeps the game's tag), or\nwrite \"game G12\" and \"key YOUR-KEY\" on lines of their own.\n\n" + host.Help(env.Lang)
		subject := "[herald] which game?"
		if env.Lang == notation.French {
			body = "herald n'a pas trouvé à quelle partie votre courrier s'adresse.\n\n" + whyFR(why) +
				"\n\nRépondez à un courrier de herald (le sujet garde le nom de la partie),\nou écrivez « partie G12 » et « clé VOTRE-CLÉ » sur des lignes à part.\n\n" + host.Help(env.Lang)
			subject = "[herald] quelle partie ?"
		}
		return Rejected, 0, why, s.authNotice(ctx, ses.Tx(), msg, subject, body, now, env.Lang)
	}
	seat, proven := proves(g, msg, env, tokenGame, token)
	if !proven {
		// A forged From or a wrong key: nothing changes, and the reply says
		// nothing about the game.
		subject := "[herald] mail not authenticated"
		if env.Lang == notation.French {
			subject = "[herald] courrier non authentifié"
		}
		return Rejected, 0, "authentication failed", s.authNotice(ctx, ses.Tx(), msg, subject, authFailureBody(env, !s.cfg.NoReplyTokens), now, env.Lang)
	}
	if err := s.delivered(ctx, ses, g, seat); err != nil {
		return "", 0, "", err
	}
	req := host.Request{Game: g, From: msg.From, Seat: seat, Env: env, Source: "mail:" + msg.MessageID}
	for _, a := range msg.Attachments {
		req.TurnFiles = append(req.TurnFiles, host.TurnFile{Name: a.Name, Data: a.Data})
	}
	rep, err := ses.Handle(ctx, req)
	if err != nil {
		return "", 0, "", err
	}
	// The answer says what of the mail herald did not read, under the
	// prose around the steps that the host lists; and, first, that its key
	// line was wrong when the reply address proved the sender instead: the
	// same key in a new mail would be refused.
	wrongKey := env.Key != "" && !host.Authenticate(g, seat, env.Key)
	for i, n := range rep.Notices {
		if n.To == msg.From {
			if note := droppedNote(msg.Dropped, n.Lang); note != "" {
				rep.Notices[i].Edit(func(text string) string { return host.WithNotRead(text, note) })
			}
			if wrongKey {
				note := wrongKeyNote(env.KeyPos.Line, g.ID, n.Lang)
				rep.Notices[i].Edit(func(text string) string { return note + text })
			}
			break
		}
	}
	if err := s.deliver(ctx, ses.Tx(), msg.From, msg.MessageID, rep.Notices, now); err != nil {
		return "", 0, "", err
	}
	return rep.Outcome, rep.Game, rep.Reason, nil
}

// mailGame is the game a mail is about before its lines are read: the
// game its subject tags, else that of the reply address it went to
// (tokenGame, Service.replyToken), else 0.
func mailGame(msg *Message, tokenGame int64) int64 {
	if id, ok := tagID(notation.SubjectGame(msg.Subject)); ok {
		return id
	}
	return tokenGame
}

// own reports whether addr is herald's address, or one of its
// plus-addresses (herald+g12.TOKEN@, where the embedded servers and most
// providers deliver herald's own mail): herald never answers itself,
// which would be a loop, and plays no seat.
func (s *Service) own(addr string) bool { return ownAddress(s.cfg.Address, addr) }

// ownAddress reports whether addr is herald, its address being herald, or
// one of its plus-addresses (Service.own; host.Config.Own).
func ownAddress(herald, addr string) bool {
	local, domain, _ := strings.Cut(strings.ToLower(herald), "@")
	l, d, ok := strings.Cut(strings.ToLower(addr), "@")
	return ok && d == domain && (l == local || strings.HasPrefix(l, local+"+"))
}

// stepsBeyondProse reports whether env holds steps besides the prose
// around a request ("Hi, I'd like to watch.", a signature), told apart by
// the words of every game's notation: a mail about no game yet.
func (s *Service) stepsBeyondProse(env *notation.Envelope) bool {
	var kw notation.Vocabulary
	for _, g := range s.cfg.Registry.Games() {
		kw = append(kw, g.Keywords...)
	}
	rest := *env
	rest.Steps, rest.Errors = slices.Clone(env.Steps), slices.Clone(env.Errors)
	rest.IgnoreProse(kw)
	return len(rest.Steps) > 0
}

// observe subscribes the sender to the public view of a game, or ends it:
// "observe G12" (or the game line, or the subject's tag) asks for a
// confirmation mail, "observe G12 TOKEN" gives it back. No key: an
// observer sees only what everyone may. "unobserve G12" from a sender
// not proven (DMARC, DKIM) asks for a confirmation too, which
// "unobserve G12 TOKEN" gives back: a forged From ends no subscription.
func (s *Service) observe(ctx context.Context, ses *host.Session, msg *Message, env *notation.Envelope, c notation.Command, proven bool, now time.Time) (Outcome, int64, string, error) {
	tag, token := env.Game, ""
	if len(c.Args) > 0 {
		tag = c.Args[0]
	}
	if len(c.Args) > 1 {
		token = c.Args[1] // "observe G12 TOKEN" confirms a request
	}
	if tag == "" {
		tag = notation.SubjectGame(msg.Subject)
	}
	id, err := strconv.ParseInt(strings.TrimLeft(strings.ToUpper(tag), "G"), 10, 64)
	fr := env.Lang == notation.French
	if err != nil || id <= 0 {
		body, subject := fmt.Sprintf("Name the game to %s, like: %s G12\n", c.Name, c.Name), "[herald] which game?"
		if fr {
			word := map[string]string{"observe": "observer", "unobserve": "quitter"}[c.Name]
			body, subject = fmt.Sprintf("Nommez la partie, comme : %s G12\n", word), "[herald] quelle partie ?"
		}
		return Rejected, 0, "no game named", s.reply(ctx, ses.Tx(), outMail{To: msg.From, Subject: subject, InReplyTo: msg.MessageID, References: refs(msg.MessageID, 0, s.domain), Body: body, lang: env.Lang}, 0, now, host.UnkeyedAnswer)
	}
	ses.SetLang(env.Lang) // the asker's answers in the language of their mail
	var rep host.Reply
	if c.Name == "observe" {
		rep, err = ses.ConfirmObserve(ctx, id, msg.From, token)
	} else {
		rep, err = ses.ConfirmUnobserve(ctx, id, msg.From, token, proven)
	}
	if err != nil {
		return "", 0, "", err
	}
	if len(env.Commands) > 1 || s.stepsBeyondProse(env) {
		// Nothing else of a mail with no key is done: say so.
		for i, n := range rep.Notices {
			if n.To == msg.From && n.Answer {
				rep.Notices[i].Text += pick(fr, "\nThe other lines of your mail were not carried out: herald plays moves\nand commands only from a mail with the player's key line (key YOUR-KEY)\nor a reply to herald's own mail.\n",
					"\nLes autres lignes de votre courrier n'ont pas été exécutées : herald ne\njoue les coups et les commandes que d'un courrier portant la ligne de\nclé du joueur (clé VOTRE-CLÉ) ou répondant à un courrier de herald.\n")
			}
		}
	}
	if err := s.deliverAs(ctx, ses.Tx(), msg.From, msg.MessageID, rep.Notices, now, host.UnkeyedAnswer); err != nil {
		return "", 0, "", err
	}
	return rep.Outcome, rep.Game, rep.Reason, nil
}

// replyToken returns the game and the token of the first recipient of
// msg that is a reply address of herald's (local+g12.TOKEN@domain), or 0.
func (s *Service) replyToken(msg *Message) (int64, string) {
	local, domain, _ := strings.Cut(s.cfg.Address, "@")
	for _, r := range msg.Recipients {
		l, d, ok := strings.Cut(r, "@")
		if !ok || d != domain {
			continue
		}
		tag, ok := strings.CutPrefix(l, local+"+g")
		if !ok {
			continue
		}
		num, tok, ok := strings.Cut(tag, ".")
		id, err := strconv.ParseInt(num, 10, 64)
		if ok && err == nil && id > 0 && tok != "" {
			return id, tok
		}
	}
	return 0, ""
}

// replyTo is the address the replies to a mail for a seat with token go
// to, or "" when there is no token or tokens are off.
func (s *Service) replyTo(game int64, token string) string {
	if token == "" || game == 0 || s.cfg.NoReplyTokens {
		return ""
	}
	local, domain, _ := strings.Cut(s.cfg.Address, "@")
	return fmt.Sprintf("%s+g%d.%s@%s", local, game, token, domain)
}

// droppedNote says which lines of a mail were not read as the sender's
// words (Message.Dropped), or "".
func droppedNote(d Dropped, lang notation.Lang) string {
	if len(d.Quoted)+len(d.Signature) == 0 {
		return ""
	}
	fr := lang == notation.French
	var b strings.Builder
	b.WriteString(pick(fr, "Not read, as not your words:\n", "Non lu, car pas de vous :\n"))
	if len(d.Quoted) > 0 {
		fmt.Fprintf(&b, pick(fr, "  %s %s: quoted text\n", "  %s %s : du texte cité\n"), linesWord(len(d.Quoted), fr), lineRanges(d.Quoted))
	}
	if len(d.Signature) > 0 {
		fmt.Fprintf(&b, pick(fr, "  %s %s: a signature\n", "  %s %s : une signature\n"), linesWord(len(d.Signature), fr), lineRanges(d.Signature))
	}
	return b.String()
}

// linesWord is "line" or "lines" (ligne, lignes) for n lines.
func linesWord(n int, fr bool) string {
	switch {
	case fr && n == 1:
		return "ligne"
	case fr:
		return "lignes"
	case n == 1:
		return "line"
	}
	return "lines"
}

// lineRanges writes increasing line numbers as ranges: "3, 7-12".
func lineRanges(nos []int) string {
	var b strings.Builder
	for i := 0; i < len(nos); {
		j := i
		for j+1 < len(nos) && nos[j+1] == nos[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(nos[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(nos[j]))
		}
		i = j + 1
	}
	return b.String()
}

// tagID returns the id of the game tag names ("G12", "g12", "12").
func tagID(tag string) (int64, bool) {
	id, err := strconv.ParseInt(strings.TrimLeft(strings.ToUpper(tag), "G"), 10, 64)
	return id, err == nil && id > 0
}

// proves returns the seat of msg's sender in game g (-1 for its host who
// plays none, or for someone else), and whether the mail proves the
// sender is who its From says: a player or the host of g, with the key
// of that seat (or the host's key) or the reply token of the address it
// went to (tokenGame and token, Service.replyToken).
func proves(g *host.Game, msg *Message, env *notation.Envelope, tokenGame int64, token string) (seat int, ok bool) {
	seat = slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Address == msg.From })
	if seat < 0 && g.Host != msg.From {
		return seat, false
	}
	return seat, host.Authenticate(g, seat, env.Key) || tokenGame == g.ID && host.TokenOK(g, seat, token)
}

// twoGames answers a mail about game other (by its subject or the reply
// address it went to) whose command c names another game: herald handles
// one game a mail, and which the sender meant for each of its lines is not
// clear. Nothing is done. The answer says nothing but what the mail itself
// said. A mail that proves its sender a player or the host of game other
// (its key, or the reply token of the address it went to) is answered as
// theirs; any other as an authentication notice, limited to one an hour:
// its From may be forged, and a forger who had used up that notice
// silenced the real player's answer.
func (s *Service) twoGames(ctx context.Context, ses *host.Session, msg *Message, env *notation.Envelope, other, named int64, c notation.Command, tokenGame int64, token string, now time.Time) (Outcome, int64, string, error) {
	why := fmt.Sprintf("the mail is about game %s, and line %d (%s) names game %s", gameTag(other), c.Pos.Line, c.Name, gameTag(named))
	args := host.VisibleText(strings.Join(c.Args, " "), 200)
	body := fmt.Sprintf("herald did nothing with your mail: it is about game %s (its subject\nor the address you replied to), and line %d names game %s:\n\n  %s %s\n\nherald handles one game a mail. Send that line in a mail of its own,\nand the rest again.\n",
		gameTag(other), c.Pos.Line, gameTag(named), c.Name, args)
	subject := "[herald] two games in one mail"
	if env.Lang == notation.French {
		body = fmt.Sprintf("herald n'a rien fait de votre courrier : il concerne la partie %s (son\nsujet ou l'adresse à laquelle vous avez répondu), et la ligne %d nomme\nla partie %s :\n\n  %s %s\n\nherald traite une partie par courrier. Envoyez cette ligne dans un\ncourrier à part, et le reste de nouveau.\n",
			gameTag(other), c.Pos.Line, gameTag(named), c.Name, args)
		subject = "[herald] deux parties dans un courrier"
	}
	g, err := ses.Game(ctx, other)
	if err != nil {
		return "", 0, "", err
	}
	if g != nil {
		if _, proven := proves(g, msg, env, tokenGame, token); proven {
			m := outMail{To: msg.From, Subject: subject, InReplyTo: msg.MessageID, References: refs(msg.MessageID, other, s.domain), Body: body, lang: env.Lang}
			return Rejected, other, why, s.reply(ctx, ses.Tx(), m, other, now, host.KeyedAnswer)
		}
	}
	return Rejected, 0, why, s.authNotice(ctx, ses.Tx(), msg, subject, body, now, env.Lang)
}

// findGame finds the game a mail is about: named in the body, tagged in
// the subject, the sender's only running game, or the one of their
// running games that the mail's key opens. The game it returns has
// no record yet (see match).
func (s *Service) findGame(ctx context.Context, ses *host.Session, msg *Message, env *notation.Envelope) (*host.Game, string, error) {
	tag := env.Game
	if tag == "" {
		tag = notation.SubjectGame(msg.Subject)
	}
	from := strings.ToLower(msg.From)
	if tag != "" {
		id, ok := tagID(tag)
		if !ok {
			return nil, fmt.Sprintf("%q is not a game id; ids look like G12.", tag), nil
		}
		g, err := ses.Game(ctx, id)
		if err != nil {
			return nil, "", err
		}
		if g == nil || g.Host != from && !slices.ContainsFunc(g.Players, func(p host.Player) bool { return p.Address == from }) {
			return nil, fmt.Sprintf("You play in no game %s.", tag), nil
		}
		return g, "", nil
	}
	ids, err := ses.PlayingGamesOf(ctx, from)
	if err != nil {
		return nil, "", err
	}
	switch len(ids) {
	case 1:
		g, err := ses.Game(ctx, ids[0])
		if err == nil && g == nil {
			err = fmt.Errorf("store: no game %d", ids[0])
		}
		return g, "", err
	case 0:
		return nil, "You play in no running game.", nil
	}
	// A key line names its game: a player's key is drawn for one seat of
	// one game, so a new mail with the key and no game tag is for the one
	// game the key opens (a wrong key opens none, and the answer is the
	// same as without one).
	if env.Key != "" {
		var opens *host.Game
		for _, id := range ids {
			g, err := ses.Game(ctx, id)
			if err != nil {
				return nil, "", err
			}
			if g == nil {
				continue
			}
			seat := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Address == from })
			if (seat >= 0 || g.Host == from) && host.Authenticate(g, seat, env.Key) {
				if opens != nil {
					opens = nil // two games share the key: say which
					break
				}
				opens = g
			}
		}
		if opens != nil {
			return opens, "", nil
		}
	}
	tags := make([]string, len(ids))
	for i, id := range ids {
		tags[i] = gameTag(id)
	}
	return nil, "You play in several games (" + strings.Join(tags, ", ") + "); say which.", nil
}

// remapLines turns the body line numbers of steps and errors into the line
// numbers of the text the player wrote.
func remapLines(env *notation.Envelope, lines []Line) {
	fix := func(p *notation.Pos) {
		if p.Line >= 1 && p.Line <= len(lines) {
			p.Line = lines[p.Line-1].No
		}
	}
	for _, st := range env.Steps {
		fix(&st.Pos)
		for i := range st.Tokens {
			fix(&st.Tokens[i].Pos)
		}
	}
	for _, e := range env.Errors {
		fix(&e.Pos)
	}
	for i := range env.Commands {
		fix(&env.Commands[i].Pos)
	}
	fix(&env.KeyPos)
	fix(&env.GamePos)
}

// subject is the subject of a mail about game id of the game named name:
// "[herald G12] Raubritter (Robber Knights): your turn".
// In French, the game's French title and French typography: "[herald G12]
// Les Deux Héritiers : à vous de jouer". what is in lang already
// (host.TopicText).
func (s *Service) subject(id int64, name, what string, lang notation.Lang) string {
	if id == 0 {
		return "[herald] " + what
	}
	title := name
	if game, err := s.cfg.Registry.Lookup(name); err == nil {
		title = game.Title
		if lang == notation.French && game.TitleFR != "" {
			title = game.TitleFR
		}
	}
	if lang == notation.French {
		return fmt.Sprintf("[herald %s] %s : %s", gameTag(id), title, what)
	}
	return fmt.Sprintf("[herald %s] %s: %s", gameTag(id), title, what)
}

// reply queues m, an answer to its recipient's own mail of kind
// (KeyedAnswer, or UnkeyedAnswer for a mail that carried no key or token,
// which anyone can send in another's name: such answers are counted apart,
// so that forged mail never uses up a player's own), unless they have had
// RepliesPerHour answers of that kind in the last hour. The first answer
// held back is replaced by a notice, once, that says until when herald
// will not answer. Unkeyed answers are held back, with no notice, once
// all addresses together have had StrangerAnswersPerHour answers to mails
// that do not prove their sender in the hour (strangersAtLimit).
func (s *Service) reply(ctx context.Context, tx host.Tx, m outMail, gameID int64, now time.Time, kind host.AnswerKind) error {
	since := now.Add(-time.Hour)
	if kind == host.UnkeyedAnswer {
		if full, err := s.strangersAtLimit(ctx, tx, m.To, m.Subject, now); err != nil || full {
			return err
		}
	}
	times, err := tx.AnswersSince(ctx, m.To, kind, since)
	if err != nil {
		return err
	}
	if len(times) < s.cfg.RepliesPerHour {
		m.MessageID = newMessageID(s.domain)
		d, err := m.draft()
		if err != nil {
			return err
		}
		return tx.Queue(ctx, host.Mail{GameID: gameID, Recipient: m.To, Draft: d, Shared: m.shared(), Reply: kind == host.KeyedAnswer, Kind: kind})
	}
	// Answers resume when enough of the last hour's are an hour old.
	resume := times[len(times)-s.cfg.RepliesPerHour].Add(time.Hour)
	s.log.Warn("reply rate limit reached; not answering", "to", m.To, "limit", s.cfg.RepliesPerHour, "until", resume)
	pause := host.PauseNotice
	if kind == host.UnkeyedAnswer {
		pause = host.UnkeyedPause
	}
	told, err := tx.AnswersSince(ctx, m.To, pause, since)
	if err != nil {
		return err
	}
	if len(told) > 0 && !told[len(told)-1].Before(times[len(times)-1]) {
		return nil // told since the last answer: this pause is known
	}
	which := "your mails"
	if kind == host.UnkeyedAnswer {
		which = "mails from your address that carry no key (observe, new, or mails herald could not read)"
	}
	// which, long or short, ends its sentence and the line: wrapping a
	// sentence that goes on after it would leave a word alone on a line.
	body := fmt.Sprintf("herald has answered %s %d times in the last hour.\nThat is its limit, so that two programs can never mail each other\nwithout end. It will answer them again from %s;\nuntil then it reads them but sends no answer.\n\nMoves are still played: you still get the news of every move, yours too.\nThe answer held back: %q.\n",
		which, len(times), formatResume(resume), m.Subject)
	subject := "[herald] answers paused"
	if m.lang == notation.French {
		which = "vos courriers"
		if kind == host.UnkeyedAnswer {
			which = "les courriers de votre adresse sans clé (observer, nouvelle, ou courriers que herald n'a pas pu lire)"
		}
		body = fmt.Sprintf("herald a répondu à %s %d fois dans la dernière heure.\nC'est sa limite, pour que deux programmes ne puissent jamais s'écrire\nsans fin. Il leur répondra de nouveau à partir du %s ;\nd'ici là, il les lit mais n'envoie aucune réponse.\n\nLes coups sont toujours joués : vous recevez toujours les nouvelles de\nchaque coup, des vôtres aussi.\nLa réponse retenue : « %s ».\n",
			which, len(times), formatResume(resume), m.Subject)
		subject = "[herald] réponses suspendues"
	}
	n := outMail{To: m.To, Subject: subject, InReplyTo: m.InReplyTo, References: m.References, Body: body}
	n.MessageID = newMessageID(s.domain)
	d, err := n.draft()
	if err != nil {
		return err
	}
	return tx.Queue(ctx, host.Mail{GameID: gameID, Recipient: m.To, Draft: d, Kind: pause})
}

// strangersAtLimit reports whether all addresses together have had
// StrangerAnswersPerHour answers to mails that do not prove their sender
// in the hour before now, and logs the answer to `to` held back if so. A
// notice that herald stops answering would be one more mail to an address
// that may never have written: the host reads of it in the log.
func (s *Service) strangersAtLimit(ctx context.Context, tx host.Tx, to, subject string, now time.Time) (bool, error) {
	n, err := tx.StrangerAnswersSince(ctx, now.Add(-time.Hour))
	if err != nil || n < s.cfg.StrangerAnswersPerHour {
		return false, err
	}
	s.log.Warn("answers to mails that do not prove their sender at their limit for all addresses; not answering", "to", to, "subject", subject, "limit", s.cfg.StrangerAnswersPerHour)
	return true, nil
}

// formatResume is a time in answers: "2026-11-24 10:15 UTC".
func formatResume(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// authNotice answers a mail that failed authentication (or named no game
// its sender plays). Its From may be forged, so such answers do not use
// the address's replies (a forger could silence a player by using them
// up): they have their own allowance, AuthNoticesPerHour.
func (s *Service) authNotice(ctx context.Context, tx host.Tx, msg *Message, subject, body string, now time.Time, lang notation.Lang) error {
	n, err := tx.AuthNoticesSince(ctx, msg.From, now.Add(-time.Hour))
	if err != nil {
		return err
	}
	if n >= AuthNoticesPerHour {
		s.log.Warn("a notice for an unauthenticated mail was sent within the hour; not answering", "to", msg.From)
		return nil
	}
	if full, err := s.strangersAtLimit(ctx, tx, msg.From, subject, now); err != nil || full {
		return err
	}
	// Say that the next such mails within the hour get no answer, and
	// until when: a player who wonders why herald is silent knows.
	once := "\n\nThis notice goes once an hour at most: until %s,\nmails from your address that fail the same way get no answer.\n"
	if lang == notation.French {
		once = "\n\nCet avis part une fois par heure au plus : jusqu'au\n%s, les courriers de votre adresse qui échouent de la\nmême façon restent sans réponse.\n"
	}
	body = strings.TrimRight(body, "\n") + fmt.Sprintf(once, formatResume(now.Add(time.Hour)))
	m := outMail{To: msg.From, Subject: subject, InReplyTo: msg.MessageID, References: refs(msg.MessageID, 0, s.domain), Body: body}
	m.MessageID = newMessageID(s.domain)
	d, err := m.draft()
	if err != nil {
		return err
	}
	return tx.Queue(ctx, host.Mail{Recipient: m.To, Draft: d, AuthNotice: true})
}

// pick is en, or frText when fr is set.
func pick(fr bool, en, frText string) string {
	if fr {
		return frText
	}
	return en
}

// whyFR is why, a reason findGame gives, in French.
func whyFR(why string) string {
	switch {
	case why == "You play in no running game.":
		return "Vous ne jouez dans aucune partie en cours."
	case strings.HasPrefix(why, "You play in no game "):
		return "Vous ne jouez dans aucune partie " + strings.TrimSuffix(strings.TrimPrefix(why, "You play in no game "), ".") + "."
	case strings.HasPrefix(why, "You play in several games ("):
		return "Vous jouez dans plusieurs parties (" + strings.TrimSuffix(strings.TrimPrefix(why, "You play in several games ("), "); say which.") + ") ; dites laquelle."
	case strings.HasSuffix(why, " is not a game id; ids look like G12."):
		return strings.TrimSuffix(why, " is not a game id; ids look like G12.") + " n'est pas un nom de partie ; ils s'écrivent comme G12."
	}
	return why
}

// AuthNoticesPerHour is how many answers to unauthenticated mails an
// address gets in an hour.
const AuthNoticesPerHour = 1

// queue queues a mail that is not a reply to its recipient's own mail (the
// rate limit does not count it).
func (s *Service) queue(ctx context.Context, tx host.Tx, m outMail, gameID int64) error {
	return s.enqueue(ctx, tx, m, gameID, false)
}

// enqueue stores m in the outbox as a draft, with its Message-ID: the
// outbox renders it as MIME when it sends it (Service.Render), outside the
// incoming mail's transaction.
func (s *Service) enqueue(ctx context.Context, tx host.Tx, m outMail, gameID int64, reply bool) error {
	m.MessageID = newMessageID(s.domain)
	d, err := m.draft()
	if err != nil {
		return err
	}
	return tx.Queue(ctx, host.Mail{GameID: gameID, Recipient: m.To, Draft: d, Shared: m.shared(), Reply: reply})
}

// enqueueApart is enqueue for a mail whose text write writes apart
// (host.Notice.Write): its Message-ID is given now, its draft written by
// one of the host's writers (host.Host.Later), which the store waits for
// where it inserts the mail. The mail is no answer: answers are counted
// as they are queued (reply).
func (s *Service) enqueueApart(ctx context.Context, tx host.Tx, m outMail, gameID int64, write func(m *outMail)) error {
	m.MessageID = newMessageID(s.domain)
	p := s.host.Later(func() (draft, shared []byte, err error) {
		write(&m)
		draft, err = m.draft()
		return draft, m.shared(), err
	})
	return tx.Queue(ctx, host.Mail{GameID: gameID, Recipient: m.To, Pending: p})
}

// refs threads every mail of a game under the game's own root id.
func refs(inReplyTo string, gameID int64, domain string) []string {
	var r []string
	if gameID != 0 {
		r = append(r, fmt.Sprintf("game-%d@%s", gameID, domain))
	}
	if inReplyTo != "" {
		r = append(r, inReplyTo)
	}
	return r
}
