package mail

import (
	"bytes"
	"context"
	"crypto/rand"
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
	"github.com/heraldgames/herald/adjudicator/store"
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
	Store store.Store

	// Hosts are the addresses allowed to start games by mail. Empty means
	// anyone may (fine on the embedded local setup, not on a public address).
	Hosts []string

	// MaxSize is the largest incoming mail accepted; default 256 KiB.
	MaxSize int64

	// RepliesPerHour caps the mails herald sends to one sender in answer to
	// that sender's own mails, so that two robots can never loop; default 30.
	// The news of a move (everyone's new board, the mover's confirmation)
	// is not counted: it answers the game, not the sender.
	RepliesPerHour int

	// PlainOnly sends text/plain alone. By default every mail also carries
	// an HTML alternative with the text in <pre>, so that mail clients that
	// show plain text in a proportional font still line up the board.
	PlainOnly bool

	// Logger receives one structured line per mail; nil discards.
	Logger *slog.Logger

	// Now is the clock; default time.Now. Only the mail layer reads it: the
	// time stamped on moves and on mails, never the rules.
	Now func() time.Time

	// NewKey returns a new player key; default 8 random bytes in hex.
	NewKey func() string

	// NewSeed returns the seed of a new game; default adjudicator.NewSeed
	// (128 secret random bits). The demo fixes it to replay a game.
	NewSeed func() string

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
	games  *gameCache
}

// Outcome is what became of an incoming mail.
type Outcome string

// The outcomes, as logged and stored.
const (
	Applied   Outcome = "applied"   // a move was applied
	Created   Outcome = "created"   // a game was started
	Answered  Outcome = "answered"  // a command was answered (show, legal, help, history)
	Ended     Outcome = "ended"     // resign or abandon ended a game
	Rejected  Outcome = "rejected"  // refused, with a reply saying why
	Ignored   Outcome = "ignored"   // not answered: auto-reply, bounce, list, rate limit
	Duplicate Outcome = "duplicate" // already processed
)

// Processed reports whether the mail belongs in the processed folder (as
// opposed to the rejected one).
func (o Outcome) Processed() bool {
	return o == Applied || o == Created || o == Answered || o == Ended || o == Duplicate
}

// NewService checks cfg and returns a service.
func NewService(cfg Config) (*Service, error) {
	if cfg.Address == "" || cfg.Registry == nil || cfg.Store == nil {
		return nil, errors.New("mail: Config needs Address, Registry and Store")
	}
	cfg.Address = strings.ToLower(cfg.Address)
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = DefaultMaxSize
	}
	if cfg.RepliesPerHour <= 0 {
		cfg.RepliesPerHour = 30
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewKey == nil {
		cfg.NewKey = func() string {
			var b [8]byte
			rand.Read(b[:])
			return hex.EncodeToString(b[:])
		}
	}
	if cfg.NewSeed == nil {
		cfg.NewSeed = adjudicator.NewSeed
	}
	for i, h := range cfg.Hosts {
		cfg.Hosts[i] = strings.ToLower(h)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	_, domain, _ := strings.Cut(cfg.Address, "@")
	if domain == "" {
		domain = "herald.local"
	}
	return &Service{cfg: cfg, domain: domain, log: log, games: &gameCache{games: map[int64]cachedMatch{}}}, nil
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
// once the store's Sync returns (store.Batch.CommitUnsynced).
func (s *Service) handleRead(ctx context.Context, raws [][]byte, reads []readMail, sync bool) ([]Outcome, error) {
	outs, err, commitErr := s.handleBatch(ctx, raws, reads, sync)
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
		out, err, commitErr := s.handleBatch(ctx, raws[i:i+1], read, sync)
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
func (s *Service) handleBatch(ctx context.Context, raws [][]byte, reads []readMail, sync bool) (outs []Outcome, err, commitErr error) {
	if reads == nil {
		reads = s.read(raws)
	}
	b, berr := s.cfg.Store.Begin(ctx)
	if berr != nil {
		if len(raws) == 1 {
			s.failLog(raws[0])(berr)
		}
		return nil, nil, berr
	}
	defer b.Rollback()
	bs := s.games.batch()
	var logs []func()
	for i, r := range reads {
		if i > 0 && ctx.Err() != nil {
			// Stopping: commit what is done; the rest waits in the inbox.
			err = ctx.Err()
			break
		}
		out, logf, merr := s.handleOne(ctx, b, bs, raws[i], r)
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
	commit := b.CommitUnsynced
	if sync {
		commit = b.Commit
	}
	if cerr := commit(ctx); cerr != nil {
		if len(raws) == 1 {
			s.failLog(raws[0])(cerr)
		}
		return nil, nil, cerr
	}
	s.games.publish(bs)
	for _, l := range logs {
		l()
	}
	return outs, err, nil
}

// failLog returns how the failure to process raw is logged: as Handle logs
// a readable mail it could not process (a mail that cannot be read has no
// such line).
func (s *Service) failLog(raw []byte) func(error) {
	msg, err := Extract(bytes.NewReader(raw), &ExtractOptions{MaxSize: s.cfg.MaxSize})
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

// read reads raws on every processor.
func (s *Service) read(raws [][]byte) []readMail {
	out := make([]readMail, len(raws))
	if len(raws) == 1 {
		out[0] = s.readOne(raws[0])
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(raws)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(raws); i = int(next.Add(1) - 1) {
				out[i] = s.readOne(raws[i])
			}
		})
	}
	wg.Wait()
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

func (s *Service) readOne(raw []byte) readMail {
	sum := sha256.Sum256(raw)
	r := readMail{hash: hex.EncodeToString(sum[:])}
	r.msg, r.xerr = Extract(bytes.NewReader(raw), &ExtractOptions{MaxSize: s.cfg.MaxSize})
	if r.xerr == nil {
		r.env = notation.ParseEnvelope(r.msg.Body)
		remapLines(r.env, r.msg.Lines)
	}
	return r
}

// handleOne processes one mail inside batch b. The log line it returns is
// written once the batch is committed.
func (s *Service) handleOne(ctx context.Context, b store.Batch, bs *batchGames, raw []byte, r readMail) (Outcome, func(), error) {
	now := s.cfg.Now().UTC()
	hash, msg, xerr := r.hash, r.msg, r.xerr
	if xerr != nil {
		var ee *ExtractError
		if !errors.As(xerr, &ee) {
			return "", nil, xerr // reading failed: retry later
		}
		return s.handleBroken(ctx, b, msg, raw, hash, now, xerr)
	}
	if msg.From == "" {
		msg.From = "unknown"
	}
	in := store.Intake{MessageID: msg.MessageID, BodyHash: hash, Sender: msg.From, Received: now}
	var outcome Outcome
	var gameID int64
	var reason string
	bs.begin()
	err := b.Process(ctx, in, func(tx store.Tx) error {
		var err error
		outcome, gameID, reason, err = s.process(ctx, tx, bs, msg, r.env, now)
		tx.SetOutcome(string(outcome), gameID)
		return err
	})
	if errors.Is(err, store.ErrDuplicate) {
		outcome, err = Duplicate, nil
	}
	if err != nil {
		bs.drop()
		s.log.Error("mail not processed", "message_id", msg.MessageID, "from", msg.From, "err", err)
		return "", nil, err
	}
	bs.keep()
	return outcome, func() {
		s.log.Info("mail", "message_id", msg.MessageID, "from", msg.From, "game", gameID, "outcome", string(outcome), "reason", reason)
	}, nil
}

// handleBroken records and, when it is safe, answers a mail that could not
// be read: too large, malformed, an unknown charset, empty.
func (s *Service) handleBroken(ctx context.Context, b store.Batch, msg *Message, raw []byte, hash string, now time.Time, xerr error) (Outcome, func(), error) {
	// Extract returns what it read of the header with most errors.
	from, id, auto := "", "sha256:"+hash, false
	if msg != nil {
		from, auto = msg.From, msg.Auto != AutoNone
		if msg.MessageID != "" {
			id = msg.MessageID
		}
	}
	outcome := Rejected
	err := b.Process(ctx, store.Intake{MessageID: id, BodyHash: hash, Sender: from, Received: now}, func(tx store.Tx) error {
		if from == "" || auto || from == s.cfg.Address {
			outcome = Ignored
			tx.SetOutcome(string(outcome), 0)
			return nil
		}
		tx.SetOutcome(string(outcome), 0)
		body := fmt.Sprintf("herald could not read your mail, so nothing was done with it:\n\n  %v\n\n%s",
			xerr, "Send your moves as plain text (or HTML) in UTF-8 or another common\ncharset, under the size limit, or attach a YAML turn file.")
		return s.reply(ctx, tx, from, id, "[herald] your mail could not be read", body, 0, now, nil)
	})
	if errors.Is(err, store.ErrDuplicate) {
		return Duplicate, func() {}, nil
	}
	if err != nil {
		return "", nil, err
	}
	return outcome, func() {
		s.log.Info("mail", "message_id", id, "from", from, "outcome", string(outcome), "reason", xerr.Error())
	}, nil
}

// process decides what to do with a readable mail, inside its transaction.
func (s *Service) process(ctx context.Context, tx store.Tx, bs *batchGames, msg *Message, env *notation.Envelope, now time.Time) (Outcome, int64, string, error) {
	if msg.Auto != AutoNone {
		return Ignored, 0, "automatic mail: " + msg.Auto.String(), nil
	}
	if msg.From == s.cfg.Address {
		return Ignored, 0, "mail from herald itself", nil
	}
	for _, c := range env.Commands {
		if c.Name == "new" {
			return s.newGame(ctx, tx, msg, env, c, now)
		}
	}
	g, why, err := s.findGame(ctx, tx, msg, env)
	if err != nil {
		return "", 0, "", err
	}
	if g == nil {
		// No detail about any game: the sender may not be who they say.
		body := "herald did not find which game your mail is for.\n\n" + why +
			"\n\nReply to a mail from herald (the subject keeps the game's tag), or\nwrite \"game G12\" and \"key YOUR-KEY\" on lines of their own.\n\n" + s.helpText(env.Lang)
		return Rejected, 0, why, s.authNotice(ctx, tx, msg, "[herald] which game?", body, now)
	}
	seat := slices.IndexFunc(g.Players, func(p store.Player) bool { return p.Address == msg.From })
	isHost := g.Host == msg.From
	if seat < 0 && !isHost || seat >= 0 && !keyOK(env.Key, g.Players[seat].Secret) || seat < 0 && isHost && !s.hostKeyOK(g, env) {
		// A forged From or a wrong key: nothing changes, and the reply says
		// nothing about the game.
		return Rejected, 0, "authentication failed", s.authNotice(ctx, tx, msg, "[herald] mail not authenticated", authFailureBody(env), now)
	}
	player := ""
	if seat >= 0 {
		player = g.Players[seat].Name
	}
	if g.Status != store.Playing {
		if g.Record, err = tx.Record(ctx, g.ID); err != nil {
			return "", 0, "", err
		}
		body := fmt.Sprintf("Game %s is over (%s); nothing was done with your mail.\n", gameTag(g.ID), g.Status)
		return Rejected, g.ID, "game over", s.reply(ctx, tx, msg.From, msg.MessageID, s.subject(g, "game over"), body, g.ID, now, nil)
	}
	m, err := s.match(ctx, tx, bs, g)
	if err != nil {
		return "", 0, "", err
	}
	// Unless the game changes, m is still the game as stored once this mail
	// commits: keep it for the next mail (no outcome below changes m without
	// saving the game, and an error drops it).
	bs.stage(g.ID, g.Rev, m)
	for _, c := range env.Commands {
		switch c.Name {
		case "abandon", "resign":
			if c.Name == "abandon" && !isHost {
				break
			}
			bs.unstage(g.ID)
			return s.end(ctx, tx, g, m, msg, player, c.Name, now)
		}
	}
	if game, err := s.cfg.Registry.Lookup(g.Record.Game); err == nil {
		msg.ignored = env.IgnoreProse(game.Keywords)
	}
	hasMove := len(env.Steps) > 0 || len(msg.Attachments) > 0
	if !hasMove || len(env.Errors) > 0 {
		if len(env.Errors) > 0 {
			return s.rejectMove(ctx, tx, g, m, msg, player, env.Errors, env.Lang, now)
		}
		return s.commands(ctx, tx, g, m, msg, player, env, now)
	}
	if player == "" {
		body := "You host this game but do not play in it: you may send show, history,\nhelp or abandon, but no moves."
		return Rejected, g.ID, "host sent a move", s.reply(ctx, tx, msg.From, msg.MessageID, s.subject(g, "not a player"), body, g.ID, now, nil)
	}
	steps := env.Steps
	source := "mail:" + msg.MessageID
	if len(msg.Attachments) > 0 {
		tf, err := notation.ParseTurnFile(msg.Attachments[0].Name, msg.Attachments[0].Data)
		if err != nil {
			return s.rejectMove(ctx, tx, g, m, msg, player, err, env.Lang, now)
		}
		switch {
		case tf.Game != g.Record.Game:
			return s.rejectMove(ctx, tx, g, m, msg, player, fmt.Errorf("the turn file is for %q, but game %s is %s", tf.Game, gameTag(g.ID), g.Record.Game), env.Lang, now)
		case tf.Player != player:
			return s.rejectMove(ctx, tx, g, m, msg, player, fmt.Errorf("the turn file is for player %q, but you are %q", tf.Player, player), env.Lang, now)
		case tf.Move != m.MoveNumber():
			return s.rejectMove(ctx, tx, g, m, msg, player, fmt.Errorf("the turn file answers move %d, but the game is at move %d: it is stale", tf.Move, m.MoveNumber()), env.Lang, now)
		}
		steps = append(steps, tf.Steps...)
		source = "mail:" + msg.MessageID + " turn:" + msg.Attachments[0].Name
	}
	sub, err := m.SubmitSteps(player, steps, now.Format(time.RFC3339), source)
	if err != nil {
		lang := adjudicator.SubmissionLang(err)
		if env.Lang == notation.French {
			lang = notation.French
		}
		return s.rejectMove(ctx, tx, g, m, msg, player, err, lang, now)
	}
	status := store.Playing
	if m.State.Result().Finished {
		status = store.Finished
	}
	rev, err := tx.Save(ctx, g.ID, m.Record, status)
	if err != nil {
		return "", 0, "", err
	}
	g.Record, g.Status = m.Record, status
	if status == store.Playing {
		bs.stage(g.ID, rev, m)
	} else {
		bs.unstage(g.ID)
	}
	if err := s.broadcast(ctx, tx, g, m, msg, sub, now); err != nil {
		return "", 0, "", err
	}
	return Applied, g.ID, fmt.Sprintf("move %d", sub.Number), nil
}

// hostKeyOK reports whether a host who does not play the game gave the
// host key herald sent them when the game was created.
func (s *Service) hostKeyOK(g *store.Game, env *notation.Envelope) bool {
	return keyOK(env.Key, g.HostKey)
}

// findGame finds the game a mail is about: named in the body, tagged in
// the subject, or the sender's only running game. The game it returns has
// no record yet (see match).
func (s *Service) findGame(ctx context.Context, tx store.Tx, msg *Message, env *notation.Envelope) (*store.Game, string, error) {
	tag := env.Game
	if tag == "" {
		tag = notation.SubjectGame(msg.Subject)
	}
	from := strings.ToLower(msg.From)
	if tag != "" {
		id, err := strconv.ParseInt(strings.TrimLeft(strings.ToUpper(tag), "G"), 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Sprintf("%q is not a game id; ids look like G12.", tag), nil
		}
		g, err := tx.GameInfo(ctx, id)
		if err != nil {
			return nil, "", err
		}
		if g == nil || g.Host != from && !slices.ContainsFunc(g.Players, func(p store.Player) bool { return p.Address == from }) {
			return nil, fmt.Sprintf("You play in no game %s.", tag), nil
		}
		return g, "", nil
	}
	ids, err := tx.PlayingGamesOf(ctx, from)
	if err != nil {
		return nil, "", err
	}
	switch len(ids) {
	case 1:
		g, err := tx.GameInfo(ctx, ids[0])
		if err == nil && g == nil {
			err = fmt.Errorf("store: no game %d", ids[0])
		}
		return g, "", err
	case 0:
		return nil, "You play in no running game.", nil
	}
	tags := make([]string, len(ids))
	for i, id := range ids {
		tags[i] = gameTag(id)
	}
	return nil, "You play in several games (" + strings.Join(tags, ", ") + "); say which.", nil
}

// match returns the match of a playing game, sets g.Record to its record,
// and takes it out of the cache: the caller may change it, and stages it
// again (batchGames.stage) for as long as it is the stored game. It comes
// from the cache when the cached copy has the game's stored revision and
// number of moves; otherwise the stored record is replayed.
func (s *Service) match(ctx context.Context, tx store.Tx, bs *batchGames, g *store.Game) (*adjudicator.Match, error) {
	if c, ok := bs.take(g.ID); ok && g.Moves >= 0 && c.rev == g.Rev && len(c.m.Record.Moves) == g.Moves {
		g.Record = c.m.Record
		return c.m, nil
	}
	rec, err := tx.Record(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	g.Record = rec
	m, err := adjudicator.Start(s.cfg.Registry, rec)
	if err != nil {
		return nil, fmt.Errorf("game %d does not replay: %w", g.ID, err)
	}
	return m, nil
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
}

func (s *Service) subject(g *store.Game, what string) string {
	title := g.Record.Game
	if game, err := s.cfg.Registry.Lookup(g.Record.Game); err == nil {
		title = game.Title
	}
	return fmt.Sprintf("[herald %s] %s: %s", gameTag(g.ID), title, what)
}

// reply queues a mail to a sender in answer to their mail, unless the
// sender has had RepliesPerHour replies in the last hour.
func (s *Service) reply(ctx context.Context, tx store.Tx, to, inReplyTo, subject, body string, gameID int64, now time.Time, att *Attachment) error {
	n, err := tx.RepliesSince(ctx, to, now.Add(-time.Hour))
	if err != nil {
		return err
	}
	if n >= s.cfg.RepliesPerHour {
		s.log.Warn("reply rate limit reached; not answering", "to", to, "limit", s.cfg.RepliesPerHour)
		return nil
	}
	m := outMail{To: to, Subject: subject, InReplyTo: inReplyTo, References: refs(inReplyTo, gameID, s.domain), Body: body, Attachment: att}
	return s.enqueue(ctx, tx, m, gameID, true)
}

// authNotice answers a mail that failed authentication (or named no game
// its sender plays). Its From may be forged, so such answers do not use
// the address's replies (a forger could silence a player by using them
// up): they have their own allowance, AuthNoticesPerHour.
func (s *Service) authNotice(ctx context.Context, tx store.Tx, msg *Message, subject, body string, now time.Time) error {
	n, err := tx.AuthNoticesSince(ctx, msg.From, now.Add(-time.Hour))
	if err != nil {
		return err
	}
	if n >= AuthNoticesPerHour {
		s.log.Warn("a notice for an unauthenticated mail was sent within the hour; not answering", "to", msg.From)
		return nil
	}
	m := outMail{To: msg.From, Subject: subject, InReplyTo: msg.MessageID, References: refs(msg.MessageID, 0, s.domain), Body: body}
	m.MessageID = newMessageID(s.domain)
	d, err := m.draft()
	if err != nil {
		return err
	}
	return tx.Queue(ctx, store.Mail{Recipient: m.To, Draft: d, AuthNotice: true})
}

// AuthNoticesPerHour is how many answers to unauthenticated mails an
// address gets in an hour.
const AuthNoticesPerHour = 1

// queue queues a mail that is not a reply to its recipient's own mail (the
// rate limit does not count it).
func (s *Service) queue(ctx context.Context, tx store.Tx, m outMail, gameID int64) error {
	return s.enqueue(ctx, tx, m, gameID, false)
}

// enqueue stores m in the outbox as a draft, with its Message-ID: the
// outbox renders it as MIME when it sends it (Service.Render), outside the
// incoming mail's transaction.
func (s *Service) enqueue(ctx context.Context, tx store.Tx, m outMail, gameID int64, reply bool) error {
	m.MessageID = newMessageID(s.domain)
	d, err := m.draft()
	if err != nil {
		return err
	}
	return tx.Queue(ctx, store.Mail{GameID: gameID, Recipient: m.To, Draft: d, Reply: reply})
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

// maxCachedGames bounds the replayed games the service keeps in memory.
const maxCachedGames = 1024

// gameCache keeps the match of each playing game as the last mail about it
// left it, so that the next mail need not decode the record and replay
// every move. An entry is used only when its revision and number of moves
// are the stored game's; it is taken out of the cache while a mail uses it
// (the mail may change it) and put back only once that mail's batch has
// committed, so the cache never holds a match that differs from its
// revision, whatever fails.
type gameCache struct {
	mu    sync.Mutex
	games map[int64]cachedMatch
	off   bool // replay every game, as without the cache (tests)
}

type cachedMatch struct {
	rev int64
	m   *adjudicator.Match // nil: forget the game
}

// batch returns the cache as a new batch sees it.
func (c *gameCache) batch() *batchGames {
	return &batchGames{c: c, staged: map[int64]cachedMatch{}, mail: map[int64]cachedMatch{}}
}

// publish puts the matches staged by a committed batch into the cache.
func (c *gameCache) publish(bs *batchGames) {
	if c.off {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, e := range bs.staged {
		if e.m == nil {
			delete(c.games, id)
		} else {
			c.games[id] = e
		}
	}
	for id := range c.games {
		if len(c.games) <= maxCachedGames {
			break
		}
		delete(c.games, id)
	}
}

// batchGames is the cache as one batch sees it: the matches staged by its
// committed mails (staged) and by the mail being processed (mail), which
// the cache gets only once the batch commits.
type batchGames struct {
	c      *gameCache
	staged map[int64]cachedMatch
	mail   map[int64]cachedMatch
}

// begin starts a mail.
func (bs *batchGames) begin() { clear(bs.mail) }

// take returns the match of game id staged earlier in the batch or cached,
// and removes it from both.
func (bs *batchGames) take(id int64) (cachedMatch, bool) {
	if e, ok := bs.mail[id]; ok {
		delete(bs.mail, id)
		return e, e.m != nil
	}
	if e, ok := bs.staged[id]; ok {
		delete(bs.staged, id)
		return e, e.m != nil
	}
	if bs.c.off {
		return cachedMatch{}, false
	}
	bs.c.mu.Lock()
	defer bs.c.mu.Unlock()
	e, ok := bs.c.games[id]
	delete(bs.c.games, id)
	return e, ok
}

// stage offers m as game id at revision rev, once the current mail commits.
func (bs *batchGames) stage(id, rev int64, m *adjudicator.Match) {
	bs.mail[id] = cachedMatch{rev: rev, m: m}
}

// unstage forgets game id once the current mail commits.
func (bs *batchGames) unstage(id int64) { bs.mail[id] = cachedMatch{} }

// keep is called when the current mail is processed (within the batch).
func (bs *batchGames) keep() {
	for id, e := range bs.mail {
		bs.staged[id] = e
	}
	clear(bs.mail)
}

// drop is called when the current mail failed: what it staged may be
// changed halfway, so it is forgotten.
func (bs *batchGames) drop() { clear(bs.mail) }
