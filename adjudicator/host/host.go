// Package host hosts games, whatever carries the players' words: it is the
// layer between the rules (package adjudicator and the games) and a
// transport (package mail today; a web page or a chat later).
//
// A Host creates games, authenticates a player by their key, submits their
// steps, answers their commands, ends games, and says what each person
// concerned must be told: every operation returns its notices as values
// (a Notice: to whom, about which game, what kind, the text), never mails.
// The transport renders them (mail adds the subject's tag, threading,
// the record as an attachment) and delivers them. Who a sender is (the
// address check, forged mail, rate limits) stays the transport's: the
// host sees a seat and a key.
//
// Everything a request changes commits together through the store: the
// interfaces Store, StoreBatch and Tx (store.go), implemented on SQLite by
// package adjudicator/store, as ../shared/DESIGN.md lays out. A transport
// opens a Batch, and runs each request in a
// Session of it, in which it may also queue what it sends; the batch
// commits once. The host keeps the replayed match of each playing game in
// memory between requests (the cache), staged per request and published
// only when the batch commits, so the cache never holds a match that
// differs from the stored game. The requests of a batch run one after
// another; in a burst (Batch.WriteApart) the texts of each move's news are
// written on another processor meanwhile (Notice.Write, Host.Later), from
// a snapshot of the move, and the store waits for them as it commits.
//
// Time lives here, never in the rules: the clock (Config.Now) stamps moves,
// and Tick is where time-driven work (deadlines, reminders) runs.
//
// The texts of the notices are written for players reading them as mail
// (the only transport yet): how to answer (a reply, or a mail with the
// key line; Config.ReplyTokens) is part of them.
package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
)

// Config configures a Host. Registry and Store are required.
type Config struct {
	// Registry lists the games that can be played.
	Registry *adjudicator.Registry

	// Store keeps the games and the notices to send.
	Store Store

	// Now is the clock; default time.Now. Only the host reads it.
	Now func() time.Time

	// NewKey returns a new player key; default 8 random bytes in hex.
	NewKey func() string

	// NewSeed returns the seed of a new game; default adjudicator.NewSeed
	// (128 secret random bits).
	NewSeed func() string

	// NewToken returns a new reply token; default 12 random bytes in hex.
	NewToken func() string

	// ReplyTokens says that a reply to a notice reaches herald with its
	// seat's reply token (the mail service's Reply-To), which needs no
	// key line: the notices that ask for a move say so. Without it they
	// ask for the key line in every answer.
	ReplyTokens bool

	// PageURL, when set, returns the address of the web page of a game
	// with page token token (a transport serves the pages, package web);
	// the welcome mails then give it.
	PageURL func(token string) string

	// Hints lets the players ask the bot for a hint by mail (the command
	// hint, RULINGS.md H-6): the steps it suggests for their own seat, from
	// their own view. Off by default: a game by mail is between people, and
	// a player there should know before it starts whether the others may
	// lean on a program; whoever runs herald turns it on (serve --hints on).
	Hints bool

	// Own, when set, reports whether an address is the transport's own
	// (herald's address, or one of its plus-addresses, where its own mail
	// comes back): herald plays no seat and observes no game, so replace
	// and observe refuse it, as mail's "new" does. nil: no address is.
	Own func(address string) bool

	// NoCache replays every game from its stored record on every request,
	// as without the cache (tests that prove the cache changes nothing).
	NoCache bool
}

// Host hosts the games of one store.
type Host struct {
	cfg     Config
	games   *gameCache
	writers *writers // Later's writers
}

// New checks cfg and returns a host.
func New(cfg Config) (*Host, error) {
	if cfg.Registry == nil || cfg.Store == nil {
		return nil, errors.New("host: Config needs Registry and Store")
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
	return &Host{cfg: cfg, games: &gameCache{games: map[int64]cachedMatch{}, off: cfg.NoCache}, writers: newWriters()}, nil
}

// newToken returns a new reply token: 12 random bytes in hex, unguessable
// and safe in the local part of a mail address.
func (h *Host) newToken() string {
	if h.cfg.NewToken != nil {
		return h.cfg.NewToken()
	}
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// own reports whether address is the transport's own (Config.Own).
func (h *Host) own(address string) bool { return h.cfg.Own != nil && h.cfg.Own(address) }

// Registry returns the games the host can play.
func (h *Host) Registry() *adjudicator.Registry { return h.cfg.Registry }

// Store returns the host's store.
func (h *Host) Store() Store { return h.cfg.Store }

// Now returns the host's clock, in UTC.
func (h *Host) Now() time.Time { return h.cfg.Now().UTC() }

// How a game's web page is served.
const (
	PagePublic = "public" // listed on the index of pages, and reachable by its address
	PageLink   = "link"   // reachable by its unguessable address only (the default)
	PageOff    = "off"    // not served
)

// Outcome is what became of a request.
type Outcome string

// The outcomes, as logged and stored.
const (
	Applied   Outcome = "applied"   // a move was applied
	Created   Outcome = "created"   // a game was started
	Answered  Outcome = "answered"  // a command was answered (show, legal, help, history)
	Ended     Outcome = "ended"     // resign or abandon ended a game
	Rejected  Outcome = "rejected"  // refused, with an answer saying why
	Ignored   Outcome = "ignored"   // not answered
	Duplicate Outcome = "duplicate" // already processed
)

// Processed reports whether the request was dealt with (as opposed to
// refused or ignored).
func (o Outcome) Processed() bool {
	return o == Applied || o == Created || o == Answered || o == Ended || o == Duplicate
}

// Kind is what a notice is about.
type Kind string

// The kinds of notice.
const (
	Welcome  Kind = "welcome"  // a player's first notice: their key and the board
	Started  Kind = "started"  // the host's confirmation of a new game, with the host key
	News     Kind = "news"     // a move was played: the new board for each
	Refusal  Kind = "refusal"  // a request refused, and why
	Answer   Kind = "answer"   // the answer to commands (show, legal, history, help)
	GameOver Kind = "gameover" // the game ended by its rules, to its host who does not play
	EndedBy  Kind = "ended"    // the game ended by resignation, forfeit or abandon
	Reminder Kind = "reminder" // a player's move is due soon
	Late     Kind = "late"     // the deadline passed without a player's move
)

// A Notice is what one person must be told: a player, the host, later an
// observer.
type Notice struct {
	To   string // their address
	Seat string // their player name; "" for a host who does not play
	Game int64  // the game, or 0
	// GameName is the game's name in the registry (raubritter), when Game
	// is not 0.
	GameName string
	Kind     Kind
	Topic    string // what it is about, in a few words: "your turn", "move refused"
	Text     string // the text, plain, lines of at most 72 columns where it can
	// Write, when set, writes the text in place of Text, which is then
	// "": the news of a move in a batch that writes them apart
	// (Batch.WriteApart), which a transport writes on another goroutine
	// (Host.Later). It reads only what the move left, never what the
	// requests after it change. Body returns the text either way; Edit
	// changes it either way.
	Write func() string
	// Lang is the language of Text, the recipient's (a player's choice,
	// or the language of the mail answered): a transport writes its own
	// words around it (the subject, TopicText) in it.
	Lang notation.Lang

	// Answer marks the answer to the recipient's own request (as opposed
	// to the news of a game): a transport threads it under the request and
	// may limit how many it sends.
	Answer bool
	// InReplyTo threads the notice under the request, though it is not an
	// answer (the mover's own news of their move).
	InReplyTo bool
	// Record means the game's record goes with it: the game is over and
	// its record no longer changes.
	Record bool
	// Status is where the game stands as the notice leaves, for a line
	// that programs can read; nil for a notice about no game.
	Status *Status
	// Picture is the board the notice shows, drawn (package picture) for
	// a transport to send beside the text; nil when it shows none.
	Picture *picture.Board
	// Drawing, for the news of a move written apart (Write), is its board
	// drawn apart too, in place of Picture, which is then nil: a
	// transport asks for it (Drawing.Board) where it writes the text.
	// The notices of a move share one in each language.
	Drawing *Drawing
	// Page is the address of the game's web page, or "" when it has none
	// (no web pages, or the host turned it off): a transport gives it
	// with the board (issue 28).
	Page string
	// ReplyToken is the recipient's seat's reply token (Player.Token), for
	// a transport to put in the address replies go to; "" for a notice to
	// anyone but the seat's player.
	ReplyToken string
}

// Status is where a game stands: public, the same for everyone.
type Status struct {
	Move   int      // the number of the next move
	ToMove []string // who must act
	// MayReplace are the players whose sealed step is in: they may
	// replace it, and need not act.
	MayReplace []string
	Deadline   time.Time // when the move under way is due; zero: no deadline
	Over       bool      // the game is over, by its rules or not
}

// Tag is the name players use for game id: G12.
func Tag(id int64) string { return fmt.Sprintf("G%d", id) }

// RecordName is the file name of a game's record when it is sent.
func RecordName(id int64, game string) string {
	return fmt.Sprintf("herald-%s-%s.yaml", strings.ToLower(Tag(id)), game)
}

// Batch is a store batch as the host sees it: its requests, each run by Do
// in a Session, commit together; the host's cache sees what they changed
// only once the batch commits.
type Batch struct {
	h     *Host
	b     StoreBatch
	games *batchGames
	apart bool // WriteApart
}

// Begin starts a batch. The caller must Commit, CommitUnsynced or Rollback
// it.
func (h *Host) Begin(ctx context.Context) (*Batch, error) {
	b, err := h.cfg.Store.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &Batch{h: h, b: b, games: h.games.batch()}, nil
}

// Do runs fn for one request, identified by in, inside the batch: with
// ErrDuplicate and without running fn when in was processed
// already; when fn fails, nothing it did stays and the batch can go on.
func (b *Batch) Do(ctx context.Context, in Intake, fn func(s *Session) error) error {
	b.games.begin()
	err := b.b.Process(ctx, in, func(tx Tx) error {
		return fn(&Session{h: b.h, tx: tx, games: b.games, now: in.Received, apart: b.apart})
	})
	if err != nil {
		// When the batch is lost (ErrBatchLost), what the requests before
		// this one staged never reaches the cache either, the batch
		// never committing, and the games they took out of it are read
		// again by the requests that need them.
		b.games.drop()
		return err
	}
	b.games.keep()
	return nil
}

// Unguarded runs the batch's requests from then on without a savepoint each
// (StoreBatch.Unguarded): a request that fails rolls the whole batch back
// (its error matches ErrBatchLost), and the caller processes them again in
// a batch of its own.
func (b *Batch) Unguarded() { b.b.Unguarded() }

// WriteApart has the batch's requests leave the texts of a move's news
// to be written apart (Notice.Write), on another processor, while the
// requests after it go on: the transport queues their drafts as Pending
// mails, which the store waits for where it inserts them. The texts are
// the same, byte for byte, as those written at once. For a burst of
// mails, whose requests run one after another in one transaction while
// the other processors would wait.
func (b *Batch) WriteApart() { b.apart = true }

// Commit commits the batch, syncs it to disk, and shows its games to the
// cache.
func (b *Batch) Commit(ctx context.Context) error {
	if err := b.b.Commit(ctx); err != nil {
		return err
	}
	b.h.games.publish(b.games)
	return nil
}

// CommitUnsynced commits the batch without waiting for the disk (see
// Batch.CommitUnsynced) and shows its games to the cache.
func (b *Batch) CommitUnsynced(ctx context.Context) error {
	if err := b.b.CommitUnsynced(ctx); err != nil {
		return err
	}
	b.h.games.publish(b.games)
	return nil
}

// Rollback abandons the batch.
func (b *Batch) Rollback() error { return b.b.Rollback() }

// Expect tells the batch the identities of the requests it is about to
// process (StoreBatch.Expect).
func (b *Batch) Expect(ctx context.Context, ids []string) error {
	return b.b.Expect(ctx, ids)
}

// ClaimQueued claims for worker until until the notices queued in the
// batch so far (StoreBatch.ClaimQueued).
func (b *Batch) ClaimQueued(ctx context.Context, worker string, until time.Time) ([]Outgoing, error) {
	return b.b.ClaimQueued(ctx, worker, until)
}

// Do runs fn for one request in a batch of its own, committed and synced.
func (h *Host) Do(ctx context.Context, in Intake, fn func(s *Session) error) error {
	b, err := h.Begin(ctx)
	if err != nil {
		return err
	}
	defer b.Rollback()
	if err := b.Do(ctx, in, fn); err != nil {
		return err
	}
	return b.Commit(ctx)
}

// Session is the host inside one request's transaction: what it does
// commits with the request, or not at all.
type Session struct {
	h     *Host
	tx    Tx
	games *batchGames
	now   time.Time
	lang  notation.Lang // of the request, for answers to no player (SetLang)
	apart bool          // the news's texts are written apart (Batch.WriteApart)
}

// SetLang sets the language of the request, in which the session answers
// someone who plays no seat (an observer, Observe and ConfirmObserve):
// the language of their mail. English by default.
func (s *Session) SetLang(lang notation.Lang) { s.lang = lang }

// Tx is the request's transaction, in which the transport queues what it
// sends.
func (s *Session) Tx() Tx { return s.tx }

// Now is the time of the request.
func (s *Session) Now() time.Time { return s.now }
