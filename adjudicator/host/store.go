package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/heraldgames/herald/adjudicator"
)

// What herald keeps, and how: the games, their players and records, the
// requests processed and the notices waiting to be sent, and the
// transactions that write them. This file holds the types and the
// interfaces the host and the transports use; an implementation lives in a package of
// its own (adjudicator/store, on SQLite, the one herald ships), so nothing
// outside it depends on a database engine.
//
// The contract every implementation keeps:
//
//   - An incoming request (a mail) is processed exactly once: its identity,
//     the game's new record and every notice it causes commit together in
//     one Tx, or not at all; a request whose identity is already recorded
//     is refused with ErrDuplicate before anything runs.
//   - A StoreBatch processes several requests in one transaction, each inside a
//     savepoint of its own, so that a burst costs one commit; or, unguarded,
//     without the savepoints, a request that fails losing the whole batch.
//   - A game's record only grows: Save refuses a record with fewer moves
//     than stored or whose last stored move changed.
//   - The outbox can be shared by several workers: a worker Claims due
//     rows for a lease before sending them, and no other worker gets a
//     claimed row until the lease runs out, so no notice is sent twice
//     unless a worker dies between sending and MarkSent (the next claim,
//     after the lease, sends it again with the same Message-ID).

// Store is an open database of games and mail.
type Store interface {
	// Begin starts a batch. The caller must Commit or Rollback it; until
	// then other batches wait.
	Begin(ctx context.Context) (StoreBatch, error)

	// Process runs fn in one transaction that also records in as
	// processed: a Batch of one, committed and synced.
	Process(ctx context.Context, in Intake, fn func(tx Tx) error) error

	// Sync makes every batch committed so far durable.
	Sync() error

	// Game reads a game outside any transaction, with its record.
	Game(ctx context.Context, id int64) (*Game, error)

	// Games lists every game, newest first.
	Games(ctx context.Context) ([]GameSummary, error)

	// DueClocks returns up to limit playing games whose clock has work
	// due at now (Clock.Next), the earliest first.
	DueClocks(ctx context.Context, now time.Time, limit int) ([]DueClock, error)

	// DueDigests returns up to limit seats of playing games whose digest
	// is due at now (Player.DigestNext), the earliest first.
	DueDigests(ctx context.Context, now time.Time, limit int) ([]DueDigest, error)

	// GameByPage reads the game whose web page has token, with its
	// record; ErrNoGame when there is none or its page is off.
	GameByPage(ctx context.Context, token string) (*Game, error)

	// PublicPages lists the games whose page is public, newest first.
	PublicPages(ctx context.Context) ([]PageSummary, error)

	// Processed reports whether the request with this identity was
	// processed.
	Processed(ctx context.Context, messageID string) (bool, error)

	// Known reports whether address (lower case) plays in, hosts or
	// observes (confirmed) a game, ended or not.
	Known(ctx context.Context, address string) (bool, error)

	// Prune deletes, in one short transaction, rows herald no longer
	// needs at now, as Retention says: up to limit mails sent more than
	// SentKept ago, with the shared parts (Mail.Shared) no mail refers to
	// any more; up to limit failures that were not set aside and last
	// failed more than FailureKept ago; and up to limit requests to
	// observe a game asked more than ObserveRequestKept ago. It returns
	// what it deleted; the caller calls again until that is nothing.
	// Workers sharing a database prune one at a time: a Prune while
	// another worker's runs deletes nothing.
	Prune(ctx context.Context, now time.Time, limit int) (Pruned, error)

	Outbox

	Failures

	// Close closes the store once the batch under way, if any, ends.
	Close() error
}

// Outbox is the queue of mail waiting to be sent, shared by every worker.
type Outbox interface {
	// Claim returns up to limit unsent mails due at now, oldest first,
	// and claims them for worker until now+lease: no other Claim returns
	// them before then, unless MarkFailed gives them back. A worker's own
	// claims are returned to it again (it restarted after a crash, or
	// retries what it did not send).
	Claim(ctx context.Context, worker string, now time.Time, lease time.Duration, limit int) ([]Outgoing, error)

	// MarkSent records that a mail was accepted by the mail server.
	MarkSent(ctx context.Context, id int64, now time.Time) error

	// MarkFailed records a failed attempt, when to try again, and
	// releases the claim.
	MarkFailed(ctx context.Context, id int64, next time.Time, cause error) error

	// Pending returns how many mails wait to be sent.
	Pending(ctx context.Context) (int, error)
}

// Retention: what herald keeps, and for how long, so that a herald that
// runs for years keeps a database of the size of its games, not of all
// the mail it ever sent.
//
// A sent mail is read again only by the rate limits, which count the
// answers queued to an address in the last hour (Tx.AnswersSince);
// nothing else reads it (a bounce names its game in the mail returned,
// not in the outbox; herald failed reads the failures). It is kept
// SentKept after it was sent, for the operator to look at what went out
// when a player says a mail never came, then deleted, and with the last
// mail of a move its shared board. A mail that was not sent stays, however
// old: it waits to go, or it was set aside (herald failed names it by its
// outbox id). A failure that was not set aside (a mail that failed once or
// twice, then went through) is kept FailureKept after its last failure;
// one set aside stays for herald failed. A request to observe a game that
// was never confirmed is kept while its token is valid
// (ObserveRequestKept): after that it is as if there were none.
//
// The identities of the requests processed (the messages table) are kept
// for ever: each is the only thing that refuses a second copy of a mail,
// and a copy has no time limit (a mail put back into the inbox by hand, a
// mail program that sends again what it sent, a signed mail replayed).
// One is a short row per mail, about the size of the move the mail
// carried, which the game's record keeps for ever too.
const (
	SentKept    = 7 * 24 * time.Hour
	FailureKept = 30 * 24 * time.Hour

	ObserveRequestKept = observeConfirmValid
)

// Pruned counts the rows a Prune deleted.
type Pruned struct {
	Outbox   int // mails sent more than SentKept ago
	Shared   int // shared parts of mails no mail refers to any more
	Failures int // failures not set aside, last seen more than FailureKept ago
	Observe  int // requests to observe a game, never confirmed, asked more than ObserveRequestKept ago
	Workers  int // names of workers sharing a database whose holder stopped renewing them a day ago (PostgreSQL)
}

// Rows is how many rows were deleted in all.
func (p Pruned) Rows() int { return p.Outbox + p.Shared + p.Failures + p.Observe + p.Workers }

// StoreBatch is one database transaction in which several requests are
// processed one after another, each by Process inside a savepoint of its
// own: a request whose fn fails is rolled back alone, and the requests
// before it can still be committed (unless the batch is Unguarded). A
// StoreBatch is not safe for concurrent use.
type StoreBatch interface {
	// Process runs fn for one request inside the batch: ErrDuplicate
	// without running fn when in's identity is already recorded; when fn
	// fails, what it wrote is rolled back, the error is returned and the
	// batch can go on.
	Process(ctx context.Context, in Intake, fn func(tx Tx) error) error

	// Expect tells the batch the identities (Intake.MessageID) of the
	// requests it is about to process, so that it checks them, or claims
	// them where workers share the database, in one statement for them all
	// rather than one a request: Process then knows which are duplicates
	// without asking again. An identity Process never gets, or whose fn
	// fails, stays unprocessed: its claim is given up when the batch
	// commits.
	Expect(ctx context.Context, ids []string) error

	// Unguarded makes the requests the batch processes from then on run
	// without a savepoint each, two statements a request the fewer: a
	// request whose fn fails, or whose writes do, then rolls the whole
	// batch back, the requests before it included, and Process returns its
	// error, which matches ErrBatchLost too; the batch is over. The caller
	// processes the requests again, in a batch that is not unguarded.
	Unguarded()

	// Commit commits the batch and makes it durable. On an error that is
	// not ErrNotSynced, nothing of the batch is written.
	Commit(ctx context.Context) error

	// CommitUnsynced commits the batch without waiting for the disk: it
	// is durable once Store.Sync (or a later Commit) returns. Whatever
	// depends on it outside the database must wait for that.
	CommitUnsynced(ctx context.Context) error

	// Rollback abandons the batch; after a commit it does nothing.
	Rollback() error

	// ClaimQueued claims for worker until until the notices the batch
	// queued so far (those of requests rolled back excepted), as
	// Outbox.Claim would once the batch commits, and returns them, oldest
	// first: a worker that sends them at once needs no Claim of its own.
	// The claims commit with the batch, or not at all.
	ClaimQueued(ctx context.Context, worker string, until time.Time) ([]Outgoing, error)
}

// Tx is the transaction of one request. Everything done through it
// commits with the request's identity, or not at all.
type Tx interface {
	// SetOutcome records what became of the request (applied,
	// rejected, ...) and the game it concerned.
	SetOutcome(outcome string, gameID int64)

	// CreateGame stores a new game and returns its id. The host's and
	// players' keys are kept hashed (HashKey): Game reads them back so.
	CreateGame(ctx context.Context, host, hostKey string, rec *adjudicator.Record, players []Player) (int64, error)

	// Game reads a game, with its record.
	Game(ctx context.Context, id int64) (*Game, error)

	// GameInfo reads a game without its record (Record is nil); nil and
	// no error when there is no game id.
	GameInfo(ctx context.Context, id int64) (*Game, error)

	// Record reads the record of game id.
	Record(ctx context.Context, id int64) (*adjudicator.Record, error)

	// GamesOf returns the ids of the games, playing or not, that address
	// plays in or hosts, newest first.
	GamesOf(ctx context.Context, address string) ([]int64, error)

	// PlayingGamesOf returns the ids of the games still playing that
	// address plays in or hosts, newest first.
	PlayingGamesOf(ctx context.Context, address string) ([]int64, error)

	// GamesStartedSince counts the games started since a time by host, or
	// by anyone when host is "", for the limits on starting games.
	GamesStartedSince(ctx context.Context, host string, since time.Time) (int, error)

	// GamesNamingSince counts the games started since a time by a host
	// other than address that give address a seat, for the limit on the
	// welcomes one address gets from games others start.
	GamesNamingSince(ctx context.Context, address string, since time.Time) (int, error)

	// Save writes a game's status and the moves of rec beyond those
	// stored, and returns the game's new revision.
	Save(ctx context.Context, id int64, rec *adjudicator.Record, status string) (int64, error)

	// SaveGame is Save without the revision.
	SaveGame(ctx context.Context, id int64, rec *adjudicator.Record, status string) error

	// ReplacePlayer gives seat (an index in the game's players) of game id
	// to a new address with a new key and reply token: the old address,
	// key and token no longer play it. The key is kept hashed (HashKey).
	ReplacePlayer(ctx context.Context, id int64, seat int, address, secret, token string) error

	// Observers returns the addresses that observe game id.
	Observers(ctx context.Context, id int64) ([]string, error)

	// Observe adds address to the observers of game id (on) or takes it
	// away, and reports whether that changed anything.
	Observe(ctx context.Context, id int64, address string, on bool) (bool, error)

	// ObserverLangs returns the language of each observer of game id who
	// has one ("fr"), by address: the others are written to in English.
	ObserverLangs(ctx context.Context, id int64) (map[string]string, error)

	// SetObserverLang records the language of address, an observer of
	// game id: "fr", or "" for English.
	SetObserverLang(ctx context.Context, id int64, address, lang string) error

	// ObserveRequest returns the token hash (HashKey) of address's
	// request to observe game id and when its confirmation went; "" when
	// there is none.
	ObserveRequest(ctx context.Context, id int64, address string) (tokenHash string, asked time.Time, err error)

	// SetObserveRequest records address's request to observe game id,
	// waiting for its confirmation; an empty tokenHash removes it.
	SetObserveRequest(ctx context.Context, id int64, address, tokenHash string, asked time.Time) error

	// ObserveRequestsSince counts the requests to observe game id,
	// waiting for their confirmation, whose mail went at since or after.
	ObserveRequestsSince(ctx context.Context, id int64, since time.Time) (int, error)

	// SetObserversOff records whether the host of game id forbids
	// observers; forbidding them ends every observation.
	SetObserversOff(ctx context.Context, id int64, off bool) error

	// SetNotify records how much mail the player of seat in game id wants,
	// how many moves they have been told of, and when their next digest is
	// due (zero: none).
	SetNotify(ctx context.Context, id int64, seat int, mode string, told int, digestNext time.Time) error

	// SetLang records the language the player of seat in game id chose
	// for herald's mails: "fr", or "" for English.
	SetLang(ctx context.Context, id int64, seat int, lang string) error

	// SetMailLang records the language of the last mail of the player of
	// seat in game id that said which (Player.MailLang): "fr", or "" for
	// English.
	SetMailLang(ctx context.Context, id int64, seat int, lang string) error

	// SetHostLang records the language of game id's host (Game.HostLang):
	// "fr", or "" for English.
	SetHostLang(ctx context.Context, id int64, lang string) error

	// SetAway records that the player of seat in game id is away until a
	// time (zero: not away), having used so much of the game's vacation
	// allowance.
	SetAway(ctx context.Context, id int64, seat int, until time.Time, used time.Duration) error

	// SetUndeliverable records why mail to the player of seat in game id
	// bounces, from a delivery report; "" when mail reaches them again.
	SetUndeliverable(ctx context.Context, id int64, seat int, reason string) error

	// SetPage sets the token of game id's web page and whether it is
	// served (PagePublic, PageLink, PageOff).
	SetPage(ctx context.Context, id int64, mode, token string) error

	// TakeBack stores rec, game id's record with moves taken back (its
	// last undone entry), and returns the game's new revision.
	TakeBack(ctx context.Context, id int64, rec *adjudicator.Record) (int64, error)

	// UndoRequest returns game id's request to take moves back, or nil.
	UndoRequest(ctx context.Context, id int64) (*UndoRequest, error)

	// SetUndoRequest writes game id's request to take moves back, or
	// removes it (nil).
	SetUndoRequest(ctx context.Context, id int64, u *UndoRequest) error

	// SetClock writes the clock of game id, replacing the one it had.
	SetClock(ctx context.Context, id int64, c Clock) error

	// Queue adds a mail to the outbox, due at once.
	Queue(ctx context.Context, m Mail) error

	// RepliesSince counts the replies (Mail.Reply) queued to recipient
	// since a time, for the rate limit.
	RepliesSince(ctx context.Context, recipient string, since time.Time) (int, error)

	// AuthNoticesSince counts the answers to requests that failed
	// authentication (Mail.AuthNotice) queued to recipient since a time.
	AuthNoticesSince(ctx context.Context, recipient string, since time.Time) (int, error)

	// AnswersSince returns when the answers of kind (Mail.Kind) were
	// queued to recipient since a time, oldest first: the rate limits
	// count them and say when the next answer may go.
	AnswersSince(ctx context.Context, recipient string, kind AnswerKind, since time.Time) ([]time.Time, error)

	// StrangerAnswersSince counts the answers to mails that do not prove
	// their sender, of kinds AuthAnswer and UnkeyedAnswer, queued to anyone
	// since a time: what forged mail, one address after another, can make
	// herald send is capped as a whole too.
	StrangerAnswersSince(ctx context.Context, since time.Time) (int, error)
}

// AnswerKind is what a queued mail answers, for the rate limits: each kind
// is counted apart (outbox.reply).
type AnswerKind int

// The kinds of answers.
const (
	NoAnswer      AnswerKind = iota // news of a game, a welcome: not an answer
	KeyedAnswer                     // to a mail that carried a key or a reply token (Mail.Reply)
	AuthAnswer                      // to a mail that failed authentication (Mail.AuthNotice)
	UnkeyedAnswer                   // to a mail that carried no key or token: anyone may send one in another's name
	PauseNotice                     // herald stops answering an address's keyed mails for a while, and says until when
	UnkeyedPause                    // the same for the mails with no key
)

// Player is a player of a game as the mail service knows them.
type Player struct {
	Name    string // as in the record
	Address string // lower-case mail address
	Secret  string // the key that authenticates their mail; as a Store reads it, its HashKey
	Token   string // the reply token that authenticates their replies; "" for none
	// Notify is how much mail they want: NotifyAll (every move),
	// NotifyTurn (only when they must act) or NotifyDigest (a mail a day).
	Notify string
	// Told is how many moves of the record they have been mailed about,
	// when Notify is not NotifyAll.
	Told int
	// DigestNext is when their next digest is due (NotifyDigest).
	DigestNext time.Time
	// AwayUntil is when they come back from a vacation; zero when they
	// are not away. AwayUsed is how much of the game's allowance their
	// vacations have used.
	AwayUntil time.Time
	AwayUsed  time.Duration
	// Undeliverable says why mail to Address bounces, as the last delivery
	// report for it said; "" while mail reaches them. A mail from them
	// clears it.
	Undeliverable string
	// Lang is the language they chose for herald's mails ("lang fr"):
	// LangFrench or LangEnglish, or "" for none (MailLang).
	Lang string
	// MailLang is the language of their last mail that said which, by
	// its keywords or its prose: LangFrench, or "" for English. herald
	// writes to them in it while they chose none (Lang).
	MailLang string
}

// Game is a stored game.
type Game struct {
	ID      int64
	Host    string
	HostKey string
	Record  *adjudicator.Record // nil when read by Tx.GameInfo
	Players []Player            // seating order
	Status  string
	Updated time.Time
	// Rev changes on every write of the game, to a random value that is
	// never reused, not even when the write is rolled back; Moves is the
	// number of moves of the stored record. Together they tell whether a
	// copy of the game kept in memory is still the stored one.
	Rev   int64
	Moves int
	// Clock is the game's deadline and where its current turn stands;
	// nil when the game has no deadline.
	Clock *Clock
	// ObserversOff is the host's choice to allow no observers.
	ObserversOff bool
	// PageToken is the unguessable part of the address of the game's web
	// page ("" for a game started before pages existed); Page is whether
	// the page is PagePublic, PageLink or PageOff.
	PageToken, Page string
	// HostLang is the language of the host who plays no seat: of the mail
	// that started the game, then of their last mail that said which;
	// LangFrench, or "" for English (HostLang).
	HostLang string
}

// UndoRequest is a player's request to take moves back, waiting for the
// consent of every other player.
type UndoRequest struct {
	AskedBy  string    // the player who asked
	Keep     int       // the moves kept if everyone agrees
	Moves    int       // the game's moves when asked: a later move ends the request
	Accepted []string  // who has agreed so far
	Until    time.Time // when the request lapses
	Source   string    // where the request came from
}

// PageSummary is a game whose page is public, for the list of them.
type PageSummary struct {
	ID      int64
	Game    string
	Status  string
	Updated time.Time
	Token   string
}

// Clock is the time of a game with a deadline: its settings, set by its
// host, and where the current turn stands, kept by the host's Tick.
type Clock struct {
	Deadline time.Duration // how long the players to move have
	Grace    time.Duration // after the deadline, before the policy applies
	Remind   int           // the percent of the deadline at which the reminder goes
	Policy   string        // what happens after the grace: wait or forfeit
	Since    time.Time     // when the current turn began
	ToMove   string        // who was to move then, comma-separated: a new set is a new turn
	Stage    int           // 0 nothing sent, 1 reminded, 2 late notice sent, 3 policy applied
	Next     time.Time     // when Tick next has work for the game; zero: never
	Vacation time.Duration // each player's vacation allowance in this game
}

// DueDigest is a seat whose daily digest is due.
type DueDigest struct {
	Game int64
	Seat int
	Next time.Time
}

// DueClock is a game whose clock has work due, and the stage and start of
// the turn it is due for.
type DueClock struct {
	Game  int64
	Stage int
	Since time.Time
}

// Status values of a game.
const (
	Playing   = "playing"
	Finished  = "finished"
	Abandoned = "abandoned" // the host ended it
	Resigned  = "resigned"  // a player resigned
	Forfeited = "forfeited" // a late player forfeited by the host's policy
)

// Outgoing is a mail waiting in the outbox.
type Outgoing struct {
	ID        int64
	GameID    int64 // 0 when the mail concerns no game
	Recipient string
	Raw       []byte // the whole RFC 5322 message; or, when empty,
	Draft     []byte // what the mail layer renders into one when it sends it
	// Shared is the part of Draft it shares with other mails (Mail.Shared),
	// stored once for them all; nil when it has none.
	Shared   []byte
	Created  time.Time
	Attempts int
}

// Mail is a mail to queue with Tx.Queue: Raw or Draft (see Outgoing).
type Mail struct {
	GameID    int64 // 0 when the mail concerns no game
	Recipient string
	Raw       []byte
	Draft     []byte
	// Pending, in place of Draft, is the draft being written apart
	// (Host.Later): the store waits for it where it inserts the mail, and
	// fails where it cannot be written.
	Pending *Pending
	// Shared, with a Draft, is what the draft leaves out because other
	// mails share it: the board of a move, the same in each of its mails
	// and most of their bytes. The store keeps one copy of the equal
	// Shared of the mails one request queues (a move's board is in
	// English or French: two, in any order), and gives it back with each
	// (Outgoing.Shared).
	Shared []byte
	// Reply marks an answer to the recipient's own mail, which
	// RepliesSince counts for the rate limit.
	Reply bool
	// AuthNotice marks an answer to a mail that failed authentication
	// (outbox.reply = 2): anyone can forge a From, so these have their own
	// count, AuthNoticesSince, and never use up the player's replies.
	AuthNotice bool
	// Kind, when set, is what the mail answers (UnkeyedAnswer,
	// PauseNotice); Reply and AuthNotice set KeyedAnswer and AuthAnswer.
	Kind AnswerKind
}

// Answer is what m answers, as the outbox records it (outbox.reply):
// AuthAnswer when AuthNotice is set, else KeyedAnswer when Reply is, else
// Kind.
func (m Mail) Answer() AnswerKind {
	switch {
	case m.AuthNotice:
		return AuthAnswer
	case m.Reply:
		return KeyedAnswer
	}
	return m.Kind
}

// Intake identifies an incoming mail for the processed-mail log.
type Intake struct {
	MessageID string
	BodyHash  string
	Sender    string
	Received  time.Time
}

// ErrDuplicate is returned by Process for a mail already processed.
var ErrDuplicate = errors.New("store: mail already processed")

// ErrConflict is matched (errors.Is) by the error of a request, or of a
// batch's commit, that the database ended because it conflicted with
// another worker's transaction (PostgreSQL's deadlock, 40P01, or
// serialization failure, 40001). Nothing of the request was written; it is
// no fault of the request, which goes again in a transaction of its own.
var ErrConflict = errors.New("store: a conflict with another worker's transaction")

// ErrBatchLost is matched (errors.Is) by the error of a request of an
// unguarded batch (StoreBatch.Unguarded) that failed: the whole batch was
// rolled back, and nothing of it was written.
var ErrBatchLost = errors.New("store: the batch was rolled back whole")

// BatchLost returns err, the failure of a request of an unguarded batch,
// matching ErrBatchLost too: the text is err's.
func BatchLost(err error) error { return batchLostError{err} }

type batchLostError struct{ err error }

func (e batchLostError) Error() string        { return e.err.Error() }
func (e batchLostError) Unwrap() error        { return e.err }
func (e batchLostError) Is(target error) bool { return target == ErrBatchLost }

// ErrNoGame is matched (errors.Is) by the error of reading a game that does
// not exist.
var ErrNoGame = errors.New("store: no such game")

// NoGame returns the error of reading game id when there is none: it
// matches ErrNoGame.
func NoGame(id int64) error { return noGameError(id) }

type noGameError int64

func (e noGameError) Error() string        { return fmt.Sprintf("store: no game %d", int64(e)) }
func (e noGameError) Is(target error) bool { return target == ErrNoGame }

// ErrNotSynced is matched (errors.Is) by the error of a Commit that
// committed the batch but could not sync it to disk: the batch is written,
// but a power loss may still undo it.
var ErrNotSynced = errors.New("store: committed, but not synced to disk")

// GameSummary is one line of the games list.
type GameSummary struct {
	ID      int64
	Game    string
	Status  string
	Players []string // addresses
	Updated time.Time
	// Undeliverable are the players' addresses mail to which bounces.
	Undeliverable []string
}
