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
	"slices"
	"strconv"
	"strings"
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
	Store *store.Store

	// Hosts are the addresses allowed to start games by mail. Empty means
	// anyone may (fine on the embedded local setup, not on a public address).
	Hosts []string

	// MaxSize is the largest incoming mail accepted; default 256 KiB.
	MaxSize int64

	// RepliesPerHour caps the mails herald sends to one sender in answer to
	// that sender's own mails, so that two robots can never loop; default 30.
	RepliesPerHour int

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
	return &Service{cfg: cfg, domain: domain, log: log}, nil
}

// Handle processes one raw incoming mail. It returns an error only when
// the mail could not be processed at all (the database is unavailable):
// the mail must then stay in the inbox to be processed again. Every other
// problem is an outcome, answered or not.
func (s *Service) Handle(ctx context.Context, raw []byte) (Outcome, error) {
	now := s.cfg.Now().UTC()
	sum := sha256.Sum256(raw)
	hash := hex.EncodeToString(sum[:])
	msg, xerr := Extract(bytes.NewReader(raw), &ExtractOptions{MaxSize: s.cfg.MaxSize})
	if xerr != nil {
		var ee *ExtractError
		if !errors.As(xerr, &ee) {
			return "", xerr // reading failed: retry later
		}
		return s.handleBroken(ctx, msg, raw, hash, now, xerr)
	}
	if msg.From == "" {
		msg.From = "unknown"
	}
	in := store.Intake{MessageID: msg.MessageID, BodyHash: hash, Sender: msg.From, Received: now}
	var outcome Outcome
	var gameID int64
	var reason string
	err := s.cfg.Store.Process(ctx, in, func(tx *store.Tx) error {
		var err error
		outcome, gameID, reason, err = s.process(ctx, tx, msg, hash, now)
		tx.SetOutcome(string(outcome), gameID)
		return err
	})
	if errors.Is(err, store.ErrDuplicate) {
		outcome, err = Duplicate, nil
	}
	if err != nil {
		s.log.Error("mail not processed", "message_id", msg.MessageID, "from", msg.From, "err", err)
		return "", err
	}
	s.log.Info("mail", "message_id", msg.MessageID, "from", msg.From, "game", gameID, "outcome", string(outcome), "reason", reason)
	return outcome, nil
}

// handleBroken records and, when it is safe, answers a mail that could not
// be read: too large, malformed, an unknown charset, empty.
func (s *Service) handleBroken(ctx context.Context, msg *Message, raw []byte, hash string, now time.Time, xerr error) (Outcome, error) {
	// Extract returns what it read of the header with most errors.
	from, id, auto := "", "sha256:"+hash, false
	if msg != nil {
		from, auto = msg.From, msg.Auto != AutoNone
		if msg.MessageID != "" {
			id = msg.MessageID
		}
	}
	outcome := Rejected
	err := s.cfg.Store.Process(ctx, store.Intake{MessageID: id, BodyHash: hash, Sender: from, Received: now}, func(tx *store.Tx) error {
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
		return Duplicate, nil
	}
	if err != nil {
		return "", err
	}
	s.log.Info("mail", "message_id", id, "from", from, "outcome", string(outcome), "reason", xerr.Error())
	return outcome, nil
}

// process decides what to do with a readable mail, inside its transaction.
func (s *Service) process(ctx context.Context, tx *store.Tx, msg *Message, hash string, now time.Time) (Outcome, int64, string, error) {
	if msg.Auto != AutoNone {
		return Ignored, 0, "automatic mail: " + msg.Auto.String(), nil
	}
	if msg.From == s.cfg.Address {
		return Ignored, 0, "mail from herald itself", nil
	}
	if seen, err := tx.SeenBody(ctx, hash); err != nil {
		return "", 0, "", err
	} else if seen {
		return Duplicate, 0, "same bytes as a mail already processed", nil
	}
	env := notation.ParseEnvelope(msg.Body)
	remapLines(env, msg.Lines)
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
		return Rejected, 0, why, s.reply(ctx, tx, msg.From, msg.MessageID, "[herald] which game?", body, 0, now, nil)
	}
	seat := slices.IndexFunc(g.Players, func(p store.Player) bool { return p.Address == msg.From })
	isHost := g.Host == msg.From
	if seat < 0 && !isHost || seat >= 0 && env.Key != g.Players[seat].Secret || seat < 0 && isHost && !s.hostKeyOK(g, env) {
		// A forged From or a wrong key: nothing changes, and the reply says
		// nothing about the game.
		body := "herald received a mail in your name that it could not authenticate,\nso it changed nothing. Every mail to herald must come from your\naddress and carry your key on a line of its own: key YOUR-KEY.\nYour key is in the welcome mail herald sent you when the game began."
		return Rejected, 0, "authentication failed", s.reply(ctx, tx, msg.From, msg.MessageID, "[herald] mail not authenticated", body, 0, now, nil)
	}
	player := ""
	if seat >= 0 {
		player = g.Players[seat].Name
	}
	if g.Status != store.Playing {
		body := fmt.Sprintf("Game %s is over (%s); nothing was done with your mail.\n", gameTag(g.ID), g.Status)
		return Rejected, g.ID, "game over", s.reply(ctx, tx, msg.From, msg.MessageID, s.subject(g, "game over"), body, g.ID, now, nil)
	}
	m, err := adjudicator.Start(s.cfg.Registry, g.Record)
	if err != nil {
		return "", 0, "", fmt.Errorf("game %d does not replay: %w", g.ID, err)
	}
	for _, c := range env.Commands {
		switch c.Name {
		case "abandon", "resign":
			if c.Name == "abandon" && !isHost {
				break
			}
			return s.end(ctx, tx, g, m, msg, player, c.Name, now)
		}
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
	if err := tx.SaveGame(ctx, g.ID, m.Record, status); err != nil {
		return "", 0, "", err
	}
	g.Record, g.Status = m.Record, status
	if err := s.broadcast(ctx, tx, g, m, msg, sub, now); err != nil {
		return "", 0, "", err
	}
	return Applied, g.ID, fmt.Sprintf("move %d", sub.Number), nil
}

// hostKeyOK reports whether a host who does not play the game gave the
// host key herald sent them when the game was created.
func (s *Service) hostKeyOK(g *store.Game, env *notation.Envelope) bool {
	return env.Key != "" && env.Key == g.HostKey
}

// findGame finds the game a mail is about: named in the body, tagged in
// the subject, or the sender's only running game.
func (s *Service) findGame(ctx context.Context, tx *store.Tx, msg *Message, env *notation.Envelope) (*store.Game, string, error) {
	tag := env.Game
	if tag == "" {
		tag = notation.SubjectGame(msg.Subject)
	}
	if tag != "" {
		id, err := strconv.ParseInt(strings.TrimLeft(strings.ToUpper(tag), "G"), 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Sprintf("%q is not a game id; ids look like G12.", tag), nil
		}
		ids, err := tx.GamesOf(ctx, msg.From)
		if err != nil {
			return nil, "", err
		}
		if !slices.Contains(ids, id) {
			return nil, fmt.Sprintf("You play in no game %s.", tag), nil
		}
		g, err := tx.Game(ctx, id)
		return g, "", err
	}
	ids, err := tx.GamesOf(ctx, msg.From)
	if err != nil {
		return nil, "", err
	}
	var playing []*store.Game
	for _, id := range ids {
		g, err := tx.Game(ctx, id)
		if err != nil {
			return nil, "", err
		}
		if g.Status == store.Playing {
			playing = append(playing, g)
		}
	}
	switch len(playing) {
	case 1:
		return playing[0], "", nil
	case 0:
		return nil, "You play in no running game.", nil
	}
	tags := make([]string, len(playing))
	for i, g := range playing {
		tags[i] = gameTag(g.ID)
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
func (s *Service) reply(ctx context.Context, tx *store.Tx, to, inReplyTo, subject, body string, gameID int64, now time.Time, att *Attachment) error {
	n, err := tx.RepliesSince(ctx, to, now.Add(-time.Hour))
	if err != nil {
		return err
	}
	if n >= s.cfg.RepliesPerHour {
		s.log.Warn("reply rate limit reached; not answering", "to", to, "limit", s.cfg.RepliesPerHour)
		return nil
	}
	return s.queue(ctx, tx, outMail{To: to, Subject: subject, InReplyTo: inReplyTo, References: refs(inReplyTo, gameID, s.domain), Body: body, Attachment: att}, gameID, now)
}

func (s *Service) queue(ctx context.Context, tx *store.Tx, m outMail, gameID int64, now time.Time) error {
	raw, err := s.compose(m, now)
	if err != nil {
		return err
	}
	return tx.Queue(ctx, gameID, m.To, raw)
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
