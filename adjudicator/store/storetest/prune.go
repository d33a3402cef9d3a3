package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/internal/sqlform"
)

// Inspector is a DB whose tables a test may read with SQL: what Prune
// leaves, which the store's interface does not show (mails sent, shared
// parts). Both stores' suites give one.
type Inspector interface {
	// Ints runs query, a SELECT of one integer column in SQL that SQLite
	// and PostgreSQL read alike (no parameters), and returns its values.
	Ints(t testing.TB, query string) []int64
}

func init() {
	freshTests = append(freshTests, struct {
		name string
		fn   func(t *testing.T, fresh func(t testing.TB) DB)
	}{"Prune", testPrune})
	tests = append(tests,
		struct {
			name string
			fn   func(t *testing.T, db DB)
		}{"WorkersPruneAtOnce", testWorkersPruneAtOnce},
	)
}

// inspector returns db's Inspector, or fails t.
func inspector(t testing.TB, db DB) Inspector {
	t.Helper()
	in, ok := db.(Inspector)
	if !ok {
		t.Fatalf("storetest: %T is no Inspector: the suite reads what Prune leaves through one", db)
	}
	return in
}

// orphans is the query of the shared parts no mail refers to.
const orphans = `SELECT s.id FROM outbox_shared s WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.shared_id = s.id)`

// PruneAll calls s.Prune until it deletes nothing, and returns every
// call's result but the last.
func PruneAll(t testing.TB, s host.Store, now time.Time, limit int) []host.Pruned {
	t.Helper()
	var calls []host.Pruned
	for {
		p, err := s.Prune(context.Background(), now, limit)
		if err != nil {
			t.Fatalf("Prune: %v", err)
		}
		if p.Rows() == 0 {
			return calls
		}
		calls = append(calls, p)
		if len(calls) > 1000 {
			t.Fatalf("Prune still deletes after %d calls: %+v", len(calls), calls[len(calls)-5:])
		}
	}
}

// pruneCase is a case of testPrune: when it prunes, how many rows a
// statement, and what it leaves: the recipients of the mails, the shared
// parts, the failures, the requests to observe.
type pruneCase struct {
	name     string
	now      time.Time
	limit    int
	left     []string
	boards   int
	failures []string
	observe  []string
}

// When testPrune's mails were sent: the moves' mails and the reply an
// hour after they were queued, the welcome ten days later.
var (
	pruneSent  = t0.Add(time.Hour)
	pruneLater = t0.Add(10 * 24 * time.Hour)
)

var pruneCases = []pruneCase{
	{"NothingOldEnough", pruneSent.Add(host.SentKept - time.Nanosecond), 100,
		[]string{"a1", "a2", "alice@x", "b1", "b2", "host", "r"}, 2, []string{"f-aside", "f-new", "f-old"}, []string{"new@x", "old@x"}},
	{"AWeekAfterTheMoves", pruneSent.Add(host.SentKept + time.Second), 100,
		[]string{"b2", "host"}, 1, []string{"f-aside", "f-new", "f-old"}, []string{"new@x"}},
	{"AMonthOn", t0.Add(host.FailureKept + time.Second), 100,
		[]string{"b2"}, 1, []string{"f-aside", "f-new"}, []string{"new@x"}},
	{"AMonthOnARowAtATime", t0.Add(host.FailureKept + time.Second), 1,
		[]string{"b2"}, 1, []string{"f-aside", "f-new"}, []string{"new@x"}},
	{"YearsOn", pruneLater.Add(10 * 365 * 24 * time.Hour), 2,
		[]string{"b2"}, 1, []string{"f-aside"}, nil},
}

// testPrune, for each of pruneCases on a database of its own, queues the
// mails of two moves (each with its shared board), a reply and a
// welcome, sends them at different times (one of the second move's is set
// aside, never sent), notes failures, and prunes: a mail goes SentKept
// after it was sent, never before and never unsent; a board goes with the
// last mail that refers to it; a failure goes FailureKept after it last
// failed unless it was set aside; a request to observe a game goes
// ObserveRequestKept after it was asked; the answers of the last hour (the
// rate limits) are still counted.
func testPrune(t *testing.T, fresh func(t testing.TB) DB) {
	for _, tc := range pruneCases {
		t.Run(tc.name, func(t *testing.T) {
			db := fresh(t)
			in := inspector(t, db)
			s := db.Open(t)
			ctx := context.Background()
			gid := NewGame(t, s, "<p0@x>") // a welcome to alice@x, at t0
			queue := func(id string, at time.Time, mails ...host.Mail) {
				t.Helper()
				err := s.Process(ctx, host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: "a@x", Received: at}, func(tx host.Tx) error {
					for _, m := range mails {
						if err := tx.Queue(ctx, m); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			draft := func(to, board string) host.Mail {
				m := host.Mail{GameID: gid, Recipient: to, Draft: []byte("draft to " + to)}
				if board != "" {
					m.Shared = []byte(board)
				}
				return m
			}
			queue("<p1@x>", t0, draft("a1", "board a"), draft("a2", "board a"), host.Mail{GameID: gid, Recipient: "r", Draft: []byte("reply"), Reply: true})
			queue("<p2@x>", t0, draft("b1", "board b"), draft("b2", "board b"))
			queue("<p3@x>", t0, host.Mail{GameID: gid, Recipient: "host", Raw: []byte("welcome")})
			err := s.Process(ctx, host.Intake{MessageID: "<p6@x>", Received: t0}, func(tx host.Tx) error {
				if err := tx.SetObserveRequest(ctx, gid, "old@x", "hash", pruneSent); err != nil {
					return err
				}
				return tx.SetObserveRequest(ctx, gid, "new@x", "hash", t0.Add(25*24*time.Hour))
			})
			if err != nil {
				t.Fatal(err)
			}
			// The recent answer, half an hour before now: the rate limits count it.
			recent := tc.now.Add(-30 * time.Minute)
			queue("<p4@x>", recent, host.Mail{Recipient: "q", Draft: []byte("answer"), Reply: true})
			claimed, err := s.Claim(ctx, "w", tc.now, time.Minute, 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range claimed {
				var err error
				switch o.Recipient {
				case "b2": // set aside: herald failed lists it
					err = s.MarkFailed(ctx, o.ID, t0.Add(100*365*24*time.Hour), fmt.Errorf("550 no such user"))
				case "host":
					err = s.MarkSent(ctx, o.ID, pruneLater)
				case "q":
					err = s.MarkSent(ctx, o.ID, recent.Add(time.Minute))
				default:
					err = s.MarkSent(ctx, o.ID, pruneSent)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			note := func(ref string, at time.Time, aside bool) {
				t.Helper()
				if _, err := s.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: ref, Party: "a@x", Reason: "broken"}, at); err != nil {
					t.Fatal(err)
				}
				if aside {
					if err := s.SetAside(ctx, host.FailedMail, ref, at); err != nil {
						t.Fatal(err)
					}
				}
			}
			note("f-old", t0, false)
			note("f-aside", t0, true)
			note("f-new", t0.Add(20*24*time.Hour), false)

			calls := PruneAll(t, s, tc.now, tc.limit)
			for _, p := range calls {
				if p.Outbox > tc.limit || p.Failures > tc.limit || p.Observe > tc.limit || p.Shared > p.Outbox {
					t.Errorf("Prune(limit %d) deleted %+v", tc.limit, p)
				}
			}
			var left []string
			for _, id := range in.Ints(t, `SELECT id FROM outbox ORDER BY id`) {
				for _, o := range claimed {
					if o.ID == id && o.Recipient != "q" {
						left = append(left, o.Recipient)
					}
				}
			}
			slices.Sort(left)
			if !slices.Equal(left, tc.left) {
				t.Errorf("mails left %q, want %q", left, tc.left)
			}
			// The recent answer's board: none; so the boards left are the moves'.
			if n := len(in.Ints(t, `SELECT id FROM outbox_shared`)); n != tc.boards {
				t.Errorf("%d shared parts left, want %d", n, tc.boards)
			}
			if o := in.Ints(t, orphans); len(o) != 0 {
				t.Errorf("shared parts no mail refers to: %v", o)
			}
			var failures []string
			list, err := s.SetAsideList(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range list {
				failures = append(failures, f.Ref)
			}
			// Those not set aside: a failure noted again counts on from
			// what is left (1 when it was pruned).
			for _, ref := range []string{"f-new", "f-old"} {
				n, err := s.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: ref, Party: "a@x", Reason: "broken"}, tc.now)
				if err != nil {
					t.Fatal(err)
				}
				if n == 2 {
					failures = append(failures, ref)
				}
			}
			slices.Sort(failures)
			if !slices.Equal(failures, tc.failures) {
				t.Errorf("failures left %q, want %q", failures, tc.failures)
			}
			err = s.Process(ctx, host.Intake{MessageID: "<p5@x>", Received: tc.now}, func(tx host.Tx) error {
				at, err := tx.AnswersSince(ctx, "q", host.KeyedAnswer, tc.now.Add(-time.Hour))
				if err == nil && len(at) != 1 {
					err = fmt.Errorf("AnswersSince of the last hour = %v after Prune, want the answer queued at %v", at, recent)
				}
				if err != nil {
					return err
				}
				var observe []string
				for _, a := range []string{"new@x", "old@x"} {
					hash, _, err := tx.ObserveRequest(ctx, gid, a)
					if err != nil {
						return err
					}
					if hash != "" {
						observe = append(observe, a)
					}
				}
				if !slices.Equal(observe, tc.observe) {
					return fmt.Errorf("requests to observe left %q, want %q", observe, tc.observe)
				}
				return nil
			})
			if err != nil {
				t.Error(err)
			}
			// The mail set aside still goes with its board, should it ever
			// be tried again.
			if d, ok := s.(interface {
				Due(context.Context, time.Time, int) ([]host.Outgoing, error)
			}); ok {
				due, err := d.Due(ctx, t0.Add(200*365*24*time.Hour), 10)
				if err != nil {
					t.Fatal(err)
				}
				if len(due) != 1 || due[0].Recipient != "b2" || string(due[0].Shared) != "board b" {
					t.Errorf("the mails due: %+v, want b2's with board b", due)
				}
			}
		})
	}
}

// testWorkersPruneAtOnce has three stores on one database (three
// workers) prune the same backlog at once, a few rows a statement: every
// mail sent is deleted once (the counts the workers report add up to the
// backlog), no shared part is left that no mail refers to, and the board
// of a move whose last mail waits to be sent stays.
func testWorkersPruneAtOnce(t *testing.T, db DB) {
	const moves = 30
	in := inspector(t, db)
	ctx := context.Background()
	workers := []host.Store{db.Open(t), db.Open(t), db.Open(t)}
	s := workers[0]
	gid := NewGame(t, s, "<wp0@x>")
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range moves + 1 {
		id := fmt.Sprintf("<wp%d@x>", i+1)
		err := b.Process(ctx, host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: "a@x", Received: t0}, func(tx host.Tx) error {
			for _, to := range []string{"a", "b", "c"} {
				if err := tx.Queue(ctx, host.Mail{GameID: gid, Recipient: fmt.Sprintf("%s%d", to, i), Draft: []byte("draft"), Shared: []byte(fmt.Sprintf("board %d", i))}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	claimed, err := s.Claim(ctx, "w", t0, time.Minute, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range claimed {
		if o.Recipient == fmt.Sprintf("c%d", moves) {
			continue // the last move's last mail waits
		}
		if err := s.MarkSent(ctx, o.ID, t0); err != nil {
			t.Fatal(err)
		}
	}
	now := t0.Add(host.SentKept + time.Hour)
	old := fmt.Sprintf(`SELECT id FROM outbox WHERE sent IS NOT NULL AND sent < '%s'`, sqlform.Stamp(now.Add(-host.SentKept)))
	if n := len(in.Ints(t, old)); n != 3*moves+3 {
		t.Fatalf("%d mails sent before the cutoff, want %d", n, 3*moves+3)
	}
	var mu sync.Mutex
	var total host.Pruned
	var wg sync.WaitGroup
	errs := make([]error, len(workers))
	for w, st := range workers {
		wg.Go(func() {
			for range 10000 {
				p, err := st.Prune(ctx, now, 2)
				if err != nil {
					errs[w] = err
					return
				}
				mu.Lock()
				total.Outbox += p.Outbox
				total.Shared += p.Shared
				total.Failures += p.Failures
				mu.Unlock()
				if p.Rows() == 0 && len(in.Ints(t, old)) == 0 {
					return
				}
			}
			errs[w] = fmt.Errorf("worker %d: mails sent long ago still left after 10000 prunes", w)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The welcome and every move's mails but the last one's c; the boards
	// of every move but the last.
	if total.Outbox != 3*moves+3 || total.Shared != moves || total.Failures != 0 {
		t.Errorf("the workers pruned %+v in all, want %d mails and %d boards", total, 3*moves+3, moves)
	}
	if o := in.Ints(t, orphans); len(o) != 0 {
		t.Errorf("shared parts no mail refers to: %v", o)
	}
	if n := in.Ints(t, `SELECT COUNT(*) FROM outbox`); len(n) != 1 || n[0] != 1 {
		t.Errorf("mails left %v, want 1 (the last move's c)", n)
	}
}
