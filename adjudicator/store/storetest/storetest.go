// Package storetest is the test suite of a host.Store: every store herald
// has (SQLite in adjudicator/store, PostgreSQL in adjudicator/store/postgres)
// runs it from its own tests, so that they keep one contract
// (adjudicator/host/store.go): each request exactly once, batches of
// savepoints, records that only grow, the outbox's claims, what Prune
// deletes and what it keeps, and several stores (workers) on one database.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// DB is a fresh database of the store under test.
type DB interface {
	// Open opens another store on the database: a second worker, a
	// reader. The store is closed when the test ends (Close twice must
	// be harmless).
	Open(t testing.TB) host.Store
}

// Run runs the suite, each test on a database of its own made by fresh.
func Run(t *testing.T, fresh func(t testing.TB) DB) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, fresh(t)) })
	}
	for _, tc := range freshTests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, fresh) })
	}
}

// freshTests are the tests that make databases themselves, one a case.
var freshTests []struct {
	name string
	fn   func(t *testing.T, fresh func(t testing.TB) DB)
}

var tests = []struct {
	name string
	fn   func(t *testing.T, db DB)
}{
	{"ProcessExactlyOnce", testProcessExactlyOnce},
	{"ProcessRollsBackOnError", testProcessRollsBackOnError},
	{"Outbox", testOutbox},
	{"ReadWhileWriting", testReadWhileWriting},
	{"ReopenKeepsData", testReopenKeepsData},
	{"Batch", testBatch},
	{"BatchRollback", testBatchRollback},
	{"BatchExpect", testBatchExpect},
	{"BatchUnguarded", testBatchUnguarded},
	{"BeginAfterClose", testBeginAfterClose},
	{"SaveChecksHistory", testSaveChecksHistory},
	{"TxSeesItsWrites", testTxSeesItsWrites},
	{"StoredRecordVerifies", testStoredRecordVerifies},
	{"ClaimIsExclusive", testClaimIsExclusive},
	{"ClaimQueued", testClaimQueued},
	{"QueueShared", testQueueShared},
	{"NoteFailure", testNoteFailure},
	{"KeysHashed", testKeysHashed},
	{"GamesStartedSince", testGamesStartedSince},
	{"PlayerLang", testPlayerLang},
	{"MailLangs", testMailLangs},
}

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func record() *adjudicator.Record {
	return &adjudicator.Record{
		Format: adjudicator.FormatVersion, Game: "raubritter", Players: []string{"alice", "bob"},
		SeedSHA256: adjudicator.Commit("7"), Seed: "7",
	}
}

// NewGame creates a game of alice and bob hosted by host@x, in the request
// id, which queues a welcome to alice@x.
func NewGame(t testing.TB, s host.Store, id string) int64 {
	t.Helper()
	var gid int64
	err := s.Process(context.Background(), host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: "host@x", Received: t0}, func(tx host.Tx) error {
		var err error
		gid, err = tx.CreateGame(context.Background(), "host@x", "hk", record(), []host.Player{
			{Name: "alice", Address: "Alice@X", Secret: "k1"}, {Name: "bob", Address: "bob@y", Secret: "k2"}})
		if err != nil {
			return err
		}
		tx.SetOutcome("created", gid)
		return tx.Queue(context.Background(), host.Mail{GameID: gid, Recipient: "alice@x", Raw: []byte("welcome")})
	})
	if err != nil {
		t.Fatal(err)
	}
	return gid
}

func testProcessExactlyOnce(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<m1@x>")
	g, err := s.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != host.Playing || g.Record.Game != "raubritter" || len(g.Players) != 2 || g.Players[0].Address != "alice@x" {
		t.Fatalf("Game(%d) = %+v", gid, g)
	}
	// The same Message-ID again: fn must not run.
	ran := false
	err = s.Process(ctx, host.Intake{MessageID: "<m1@x>", BodyHash: "h", Sender: "host@x", Received: t0}, func(tx host.Tx) error {
		ran = true
		return nil
	})
	if !errors.Is(err, host.ErrDuplicate) || ran {
		t.Fatalf("second Process = %v, ran %v; want host.ErrDuplicate and fn not run", err, ran)
	}
	if ok, _ := s.Processed(ctx, "<m1@x>"); !ok {
		t.Errorf("Processed(<m1@x>) = false")
	}
}

func testProcessRollsBackOnError(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	boom := errors.New("boom")
	err := s.Process(ctx, host.Intake{MessageID: "<m2@x>", BodyHash: "h2", Sender: "a@x", Received: t0}, func(tx host.Tx) error {
		if _, err := tx.CreateGame(ctx, "a@x", "hk", record(), []host.Player{{Name: "alice", Address: "a@x", Secret: "k"}}); err != nil {
			return err
		}
		if err := tx.Queue(ctx, host.Mail{Recipient: "a@x", Raw: []byte("x")}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Process = %v, want boom", err)
	}
	if games, _ := s.Games(ctx); len(games) != 0 {
		t.Errorf("a game survived the rollback: %+v", games)
	}
	if n, _ := s.Pending(ctx); n != 0 {
		t.Errorf("Pending = %d after rollback, want 0", n)
	}
	if ok, _ := s.Processed(ctx, "<m2@x>"); ok {
		t.Errorf("the mail is marked processed after a rollback")
	}
}

func testOutbox(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<m3@x>")
	due, err := s.Claim(ctx, "w1", t0, time.Minute, 10)
	if err != nil || len(due) != 1 || string(due[0].Raw) != "welcome" || due[0].GameID != gid {
		t.Fatalf("Claim = %+v, %v", due, err)
	}
	if err := s.MarkFailed(ctx, due[0].ID, t0.Add(time.Minute), errors.New("421 try later")); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.Claim(ctx, "w1", t0.Add(30*time.Second), time.Minute, 10); len(due) != 0 {
		t.Errorf("Claim before the retry time = %d mails, want 0", len(due))
	}
	due, _ = s.Claim(ctx, "w1", t0.Add(time.Minute), time.Minute, 10)
	if len(due) != 1 || due[0].Attempts != 1 {
		t.Fatalf("Claim at the retry time = %+v", due)
	}
	if err := s.MarkSent(ctx, due[0].ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Pending(ctx); n != 0 {
		t.Errorf("Pending = %d after sending, want 0", n)
	}
	err = s.Process(ctx, host.Intake{MessageID: "<m4@x>", BodyHash: "h4", Sender: "alice@x", Received: t0.Add(time.Hour / 2)}, func(tx host.Tx) error {
		// The welcome is not a reply; a reply and a drafted reply are, in
		// any case of the address.
		n, err := tx.RepliesSince(ctx, "ALICE@x", t0.Add(-time.Hour))
		if err != nil || n != 0 {
			t.Errorf("RepliesSince = %d, %v; want 0 (the welcome is no reply)", n, err)
		}
		for _, m := range []host.Mail{
			{GameID: gid, Recipient: "Alice@X", Raw: []byte("a reply"), Reply: true},
			{Recipient: "alice@x", Draft: []byte("a drafted reply"), Reply: true},
			{Recipient: "alice@x", Draft: []byte("news")},
		} {
			if err := tx.Queue(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := tx.RepliesSince(ctx, "alice@x", t0.Add(-time.Hour)); err != nil || n != 2 {
			t.Errorf("RepliesSince = %d, %v; want 2", n, err)
		}
		for _, bad := range []host.Mail{{Recipient: "a@x"}, {Recipient: "a@x", Raw: []byte("x"), Draft: []byte("y")}} {
			if err := tx.Queue(ctx, bad); err == nil {
				t.Errorf("Queue(%+v) = nil, want an error (a message or a draft)", bad)
			}
		}
		ids, err := tx.GamesOf(ctx, "bob@y")
		if err != nil || len(ids) != 1 || ids[0] != gid {
			t.Errorf("GamesOf(bob@y) = %v, %v", ids, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testReadWhileWriting checks that a second connection (a CLI command) can
// read while a write transaction (the service) is open (SQLite's WAL;
// PostgreSQL's snapshots).
func testReadWhileWriting(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	NewGame(t, s, "<m5@x>")
	reader := db.Open(t)
	defer reader.Close()
	err := s.Process(ctx, host.Intake{MessageID: "<m6@x>", BodyHash: "h6", Sender: "a@x", Received: t0}, func(tx host.Tx) error {
		games, err := reader.Games(ctx)
		if err != nil {
			return err
		}
		if len(games) != 1 || games[0].Game != "raubritter" || len(games[0].Players) != 2 {
			t.Errorf("Games during a write = %+v", games)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func testReopenKeepsData(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<m7@x>")
	s.Close()
	s2 := db.Open(t)
	defer s2.Close()
	g, err := s2.Game(ctx, gid)
	if err != nil || g.Record.Seed != "7" {
		t.Fatalf("after reopen Game = %+v, %v", g, err)
	}
	if ok, _ := s2.Processed(ctx, "<m7@x>"); !ok {
		t.Errorf("processed mail forgotten after reopen")
	}
}

// testBatch processes several mails in one transaction: a mail whose fn
// fails is rolled back alone (its SQL writes and the record it saved), the
// others commit together, and a record saved in the batch is read back
// inside it before it is written at the commit.
func testBatch(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<b0@x>")
	before, err := s.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if before.Moves != 0 || before.Rev == 0 {
		t.Fatalf("a new game has moves %d, rev %d; want 0 and a revision", before.Moves, before.Rev)
	}
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Rollback()
	move := func(id, who string, fail error) error {
		return b.Process(ctx, host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: who, Received: t0}, func(tx host.Tx) error {
			rec, err := tx.Record(ctx, gid)
			if err != nil {
				return err
			}
			rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: who, Text: "keep plain " + id})
			if _, err := tx.Save(ctx, gid, rec, host.Playing); err != nil {
				return err
			}
			tx.SetOutcome("applied", gid)
			if err := tx.Queue(ctx, host.Mail{GameID: gid, Recipient: who + "@x", Raw: []byte("reply to " + id), Reply: true}); err != nil {
				return err
			}
			return fail
		})
	}
	boom := errors.New("boom")
	if err := move("<b1@x>", "alice", nil); err != nil {
		t.Fatal(err)
	}
	if err := move("<b2@x>", "bob", boom); !errors.Is(err, boom) {
		t.Fatalf("failing mail: %v, want boom", err)
	}
	if err := move("<b1@x>", "alice", nil); !errors.Is(err, host.ErrDuplicate) {
		t.Fatalf("the same Message-ID again in the batch: %v, want host.ErrDuplicate", err)
	}
	if err := move("<b3@x>", "bob", nil); err != nil {
		t.Fatal(err)
	}
	// Inside the batch: the saved record, with the failed mail's move gone.
	err = b.Process(ctx, host.Intake{MessageID: "<b4@x>", BodyHash: "h4", Sender: "x", Received: t0}, func(tx host.Tx) error {
		g, err := tx.Game(ctx, gid)
		if err != nil {
			return err
		}
		info, err := tx.GameInfo(ctx, gid)
		if err != nil {
			return err
		}
		if len(g.Record.Moves) != 2 || g.Record.Moves[1].Text != "keep plain <b3@x>" || g.Moves != 2 || info.Moves != 2 || info.Record != nil || info.Rev != g.Rev || g.Rev == before.Rev {
			t.Errorf("inside the batch: record moves %v, Moves %d/%d, rev %d/%d (before %d)", g.Record.Moves, g.Moves, info.Moves, g.Rev, info.Rev, before.Rev)
		}
		if none, err := tx.GameInfo(ctx, gid+100); none != nil || err != nil {
			t.Errorf("GameInfo of no game = %v, %v; want nil, nil", none, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Another connection sees nothing of the batch before the commit.
	reader := db.Open(t)
	defer reader.Close()
	if g, err := reader.Game(ctx, gid); err != nil || len(g.Record.Moves) != 0 || g.Rev != before.Rev {
		t.Fatalf("before the commit another connection reads %+v, %v", g, err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Process(ctx, host.Intake{MessageID: "<b5@x>"}, func(host.Tx) error { return nil }); err == nil {
		t.Errorf("Process after Commit succeeded")
	}
	g, err := reader.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Record.Moves) != 2 || g.Moves != 2 || g.Record.Moves[0].Player != "alice" || g.Record.Moves[1].Player != "bob" {
		t.Errorf("after the commit: %d moves (column %d): %v", len(g.Record.Moves), g.Moves, g.Record.Moves)
	}
	for id, want := range map[string]bool{"<b1@x>": true, "<b2@x>": false, "<b3@x>": true, "<b4@x>": true} {
		if ok, _ := reader.Processed(ctx, id); ok != want {
			t.Errorf("Processed(%s) = %v, want %v", id, ok, want)
		}
	}
	due, err := reader.Claim(ctx, "w1", t0, time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range due {
		got = append(got, string(m.Raw))
	}
	if want := []string{"welcome", "reply to <b1@x>", "reply to <b3@x>"}; !slices.Equal(got, want) {
		t.Errorf("outbox = %q, want %q", got, want)
	}
}

// testBatchExpect checks a batch told its requests' identities at once
// (StoreBatch.Expect): one processed before is a duplicate, fn not run;
// one processed in the batch is a duplicate the second time; one whose fn
// fails, and one expected but never processed, stay unprocessed once the
// batch commits, and a later batch processes them; a batch rolled back
// leaves its identities unprocessed.
func testBatchExpect(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<e0@x>")
	boom := errors.New("boom")
	// run processes the mails of ids in one batch after expecting them
	// all, fn failing for those of fail, and returns each one's error.
	run := func(ids []string, fail map[string]bool, commit bool) []error {
		t.Helper()
		b, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Rollback()
		if err := b.Expect(ctx, append(ids, "<e-never@x>")); err != nil {
			t.Fatal(err)
		}
		var errs []error
		for _, id := range ids {
			ran := false
			err := b.Process(ctx, host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: "alice@x", Received: t0}, func(tx host.Tx) error {
				ran = true
				tx.SetOutcome("applied", gid)
				if err := tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "alice@x", Raw: []byte("reply to " + id), Reply: true}); err != nil {
					return err
				}
				if fail[id] {
					return boom
				}
				return nil
			})
			if errors.Is(err, host.ErrDuplicate) && ran {
				t.Errorf("%s: a duplicate's fn ran", id)
			}
			errs = append(errs, err)
		}
		if commit {
			if err := b.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}
		return errs
	}
	errs := run([]string{"<e0@x>", "<e1@x>", "<e1@x>", "<e2@x>"}, map[string]bool{"<e2@x>": true}, true)
	if !errors.Is(errs[0], host.ErrDuplicate) || errs[1] != nil || !errors.Is(errs[2], host.ErrDuplicate) || !errors.Is(errs[3], boom) {
		t.Fatalf("Process = %v; want a duplicate, nil, a duplicate, boom", errs)
	}
	for id, want := range map[string]bool{"<e1@x>": true, "<e2@x>": false, "<e-never@x>": false} {
		if ok, err := s.Processed(ctx, id); ok != want || err != nil {
			t.Errorf("after the commit, Processed(%s) = %v, %v; want %v", id, ok, err, want)
		}
	}
	if errs := run([]string{"<e3@x>"}, nil, false); errs[0] != nil {
		t.Fatalf("Process in a batch rolled back = %v", errs[0])
	}
	if ok, err := s.Processed(ctx, "<e3@x>"); ok || err != nil {
		t.Errorf("after a rollback, Processed(<e3@x>) = %v, %v; want false", ok, err)
	}
	errs = run([]string{"<e2@x>", "<e-never@x>", "<e3@x>"}, nil, true)
	for i, err := range errs {
		if err != nil {
			t.Errorf("mail %d again: %v", i+1, err)
		}
	}
	due, err := s.Claim(ctx, "w1", t0, time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range due {
		got = append(got, string(m.Raw))
	}
	if want := []string{"welcome", "reply to <e1@x>", "reply to <e2@x>", "reply to <e-never@x>", "reply to <e3@x>"}; !slices.Equal(got, want) {
		t.Errorf("outbox = %q, want %q", got, want)
	}
}

// testBatchUnguarded checks a batch whose requests run without a
// savepoint each (StoreBatch.Unguarded): a duplicate is refused and the
// batch goes on, but a request that fails rolls back the whole batch, the
// requests before it included: its error is its own, matching
// host.ErrBatchLost too, the batch takes no more requests nor commits,
// and the store's next batch begins.
func testBatchUnguarded(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<u0@x>")
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Rollback()
	b.Unguarded()
	boom := errors.New("boom")
	move := func(id string, fail error) error {
		return b.Process(ctx, host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: "alice@x", Received: t0}, func(tx host.Tx) error {
			rec, err := tx.Record(ctx, gid)
			if err != nil {
				return err
			}
			rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "keep plain " + id})
			if _, err := tx.Save(ctx, gid, rec, host.Playing); err != nil {
				return err
			}
			tx.SetOutcome("applied", gid)
			if err := tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "alice@x", Raw: []byte("reply to " + id), Reply: true}); err != nil {
				return err
			}
			return fail
		})
	}
	if err := move("<u1@x>", nil); err != nil {
		t.Fatal(err)
	}
	if err := move("<u0@x>", nil); !errors.Is(err, host.ErrDuplicate) || errors.Is(err, host.ErrBatchLost) {
		t.Fatalf("a duplicate in an unguarded batch: %v, want host.ErrDuplicate alone", err)
	}
	if err := move("<u2@x>", nil); err != nil {
		t.Fatal(err)
	}
	err = move("<u3@x>", boom)
	if !errors.Is(err, boom) || !errors.Is(err, host.ErrBatchLost) || err.Error() != boom.Error() {
		t.Fatalf("a failing request in an unguarded batch: %v, want boom, matching host.ErrBatchLost", err)
	}
	if err := move("<u4@x>", nil); err == nil {
		t.Errorf("Process after the batch was lost succeeded")
	}
	if err := b.Commit(ctx); err == nil {
		t.Errorf("Commit after the batch was lost succeeded")
	}
	g, err := s.Game(ctx, gid)
	if err != nil || len(g.Record.Moves) != 0 || g.Moves != 0 {
		t.Fatalf("after the batch was lost the game has %d moves (%v), want none", g.Moves, err)
	}
	for _, id := range []string{"<u1@x>", "<u2@x>", "<u3@x>"} {
		if ok, _ := s.Processed(ctx, id); ok {
			t.Errorf("Processed(%s) = true after the batch was lost", id)
		}
	}
	if n, _ := s.Pending(ctx); n != 1 {
		t.Errorf("Pending = %d, want 1 (the welcome)", n)
	}
	// The store goes on: a batch processes the same requests.
	b, err = s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Rollback()
	for _, id := range []string{"<u1@x>", "<u2@x>", "<u3@x>"} {
		if err := move(id, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if g, err := s.Game(ctx, gid); err != nil || g.Moves != 3 {
		t.Fatalf("after the batch again: %v moves (%v), want 3", g.Moves, err)
	}
}

// testBatchRollback checks that a batch rolled back, or whose commit fails,
// writes nothing.
func testBatchRollback(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<r0@x>")
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Process(ctx, host.Intake{MessageID: "<r1@x>", BodyHash: "h", Sender: "a", Received: t0}, func(tx host.Tx) error {
		rec, err := tx.Record(ctx, gid)
		if err != nil {
			return err
		}
		rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "x"})
		_, err = tx.Save(ctx, gid, rec, host.Finished)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx); err == nil {
		t.Errorf("Commit after Rollback succeeded")
	}
	g, err := s.Game(ctx, gid)
	if err != nil || len(g.Record.Moves) != 0 || g.Status != host.Playing || g.Moves != 0 {
		t.Fatalf("after a rollback: %+v, %v", g, err)
	}
	if ok, _ := s.Processed(ctx, "<r1@x>"); ok {
		t.Errorf("a rolled-back mail is marked processed")
	}
	// A record cannot lose moves: Save refuses it, and the mail's other
	// writes are rolled back with it.
	b, err = s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Rollback()
	var two *adjudicator.Record
	err = b.Process(ctx, host.Intake{MessageID: "<r2@x>", BodyHash: "h", Sender: "a", Received: t0}, func(tx host.Tx) error {
		rec, err := tx.Record(ctx, gid)
		if err != nil {
			return err
		}
		rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "a"}, adjudicator.RecordMove{Player: "bob", Text: "b"})
		two = rec
		_, err = tx.Save(ctx, gid, rec, host.Playing)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = b.Process(ctx, host.Intake{MessageID: "<r3@x>", BodyHash: "h", Sender: "a", Received: t0}, func(tx host.Tx) error {
		if err := tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "a@x", Raw: []byte("reply"), Reply: true}); err != nil {
			return err
		}
		shorter := *two
		shorter.Moves = two.Moves[:1]
		_, err := tx.Save(ctx, gid, &shorter, host.Playing)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "never taken back") {
		t.Fatalf("saving a record with fewer moves: %v", err)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	g, err = s.Game(ctx, gid)
	if err != nil || !slices.Equal(g.Record.Moves, two.Moves) || g.Moves != 2 {
		t.Fatalf("after the refused save: %+v, %v", g, err)
	}
	if ok, _ := s.Processed(ctx, "<r3@x>"); ok {
		t.Errorf("the mail of a refused save is marked processed")
	}
	if n, _ := s.Pending(ctx); n != 1 {
		t.Errorf("Pending = %d, want 1 (the welcome)", n)
	}
}

// testBeginAfterClose checks that a closed store refuses a batch rather
// than waiting for one.
func testBeginAfterClose(t *testing.T, db DB) {
	s := db.Open(t)
	NewGame(t, s, "<c1@x>")
	s.Close()
	if _, err := s.Begin(context.Background()); err == nil {
		t.Fatalf("Begin on a closed store succeeded")
	}
}

// testSaveChecksHistory checks that Save refuses a record whose stored
// moves changed: a game's history only grows.
func testSaveChecksHistory(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<h0@x>")
	save := func(id string, moves ...string) error {
		return s.Process(ctx, host.Intake{MessageID: id, Received: t0}, func(tx host.Tx) error {
			rec := record()
			for _, m := range moves {
				rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: m})
			}
			_, err := tx.Save(ctx, gid, rec, host.Playing)
			return err
		})
	}
	if err := save("<h1@x>", "a", "b"); err != nil {
		t.Fatal(err)
	}
	if err := save("<h2@x>", "a", "c", "d"); err == nil || !strings.Contains(err.Error(), "never changed") {
		t.Errorf("a record with move 2 changed: %v", err)
	}
	if err := save("<h3@x>", "a", "b", "c"); err != nil {
		t.Errorf("a record that goes on: %v", err)
	}
	if g, _ := s.Game(ctx, gid); len(g.Record.Moves) != 3 || g.Record.Moves[2].Text != "c" {
		t.Errorf("moves %+v", g.Record.Moves)
	}
}

// testTxSeesItsWrites checks that a request that reads a game, as the
// host does before anything else, then changes it, reads its own writes:
// its observers and request to take moves back, the mails it queued (the
// rate limits count them), and the moves it saved, a record that does not
// go on from them refused as without the read (a store may keep what a
// read told it rather than ask again).
func testTxSeesItsWrites(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<w0@x>")
	move := func(n int, text string) adjudicator.RecordMove {
		return adjudicator.RecordMove{Player: "alice", Text: text, Time: fmt.Sprint("t", n), Source: fmt.Sprintf("mail:<%d@x>", n)}
	}
	rec := record()
	rec.Moves = []adjudicator.RecordMove{move(1, "a"), move(2, "b")}
	if err := s.Process(ctx, host.Intake{MessageID: "<w1@x>", Received: t0}, func(tx host.Tx) error {
		_, err := tx.Save(ctx, gid, rec, host.Playing)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// in runs fn in a request that first reads the game.
	in := func(id string, fn func(tx host.Tx) error) error {
		return s.Process(ctx, host.Intake{MessageID: id, Received: t0}, func(tx host.Tx) error {
			if g, err := tx.GameInfo(ctx, gid); err != nil || g == nil || g.Moves != len(rec.Moves) || len(g.Players) != 2 {
				return fmt.Errorf("GameInfo = %+v, %v", g, err)
			}
			return fn(tx)
		})
	}
	err := in("<w2@x>", func(tx host.Tx) error {
		if obs, err := tx.Observers(ctx, gid); err != nil || len(obs) != 0 {
			return fmt.Errorf("Observers before = %v, %v", obs, err)
		}
		if _, err := tx.Observe(ctx, gid, "Carol@Z", true); err != nil {
			return err
		}
		if obs, err := tx.Observers(ctx, gid); err != nil || !slices.Equal(obs, []string{"carol@z"}) {
			return fmt.Errorf("Observers after Observe = %v, %v", obs, err)
		}
		if u, err := tx.UndoRequest(ctx, gid); err != nil || u != nil {
			return fmt.Errorf("UndoRequest before = %+v, %v", u, err)
		}
		asked := &host.UndoRequest{AskedBy: "alice", Keep: 1, Moves: 2, Until: t0.Add(time.Hour), Source: "mail:<w2@x>"}
		if err := tx.SetUndoRequest(ctx, gid, asked); err != nil {
			return err
		}
		if u, err := tx.UndoRequest(ctx, gid); err != nil || u == nil || u.AskedBy != "alice" || u.Keep != 1 {
			return fmt.Errorf("UndoRequest after SetUndoRequest = %+v, %v", u, err)
		}
		for range 2 {
			if err := tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "Alice@X", Raw: []byte("reply"), Reply: true}); err != nil {
				return err
			}
		}
		if n, err := tx.RepliesSince(ctx, "alice@x", t0); err != nil || n != 2 {
			return fmt.Errorf("RepliesSince after two replies queued = %d, %v", n, err)
		}
		if err := tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "alice@x", Raw: []byte("notice"), AuthNotice: true}); err != nil {
			return err
		}
		if n, err := tx.AuthNoticesSince(ctx, "alice@x", t0); err != nil || n != 1 {
			return fmt.Errorf("AuthNoticesSince after a notice queued = %d, %v", n, err)
		}
		if err := tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "alice@x", Raw: []byte("pause"), Kind: host.PauseNotice}); err != nil {
			return err
		}
		if at, err := tx.AnswersSince(ctx, "alice@x", host.PauseNotice, t0); err != nil || len(at) != 1 {
			return fmt.Errorf("AnswersSince after a pause notice queued = %v, %v", at, err)
		}
		// The answers to mails that do not prove their sender (the auth
		// notice above, and unkeyed answers) are counted for everyone
		// together, and only they.
		for _, to := range []string{"bob@x", "Carol@Z"} {
			if err := tx.Queue(ctx, host.Mail{Recipient: to, Raw: []byte("no game"), Kind: host.UnkeyedAnswer}); err != nil {
				return err
			}
		}
		if n, err := tx.StrangerAnswersSince(ctx, t0); err != nil || n != 3 {
			return fmt.Errorf("StrangerAnswersSince after an auth notice and two unkeyed answers to two addresses = %d, %v", n, err)
		}
		if n, err := tx.StrangerAnswersSince(ctx, t0.Add(time.Hour)); err != nil || n != 0 {
			return fmt.Errorf("StrangerAnswersSince an hour later = %d, %v", n, err)
		}
		// Two saves in the request, each going on from the one before.
		rec.Moves = append(rec.Moves, move(3, "c"))
		if _, err := tx.Save(ctx, gid, rec, host.Playing); err != nil {
			return err
		}
		rec.Moves = append(rec.Moves, move(4, "d"), move(5, "e"))
		_, err := tx.Save(ctx, gid, rec, host.Playing)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Pending(ctx); n != 7 {
		t.Errorf("Pending = %d, want 7 (the welcome, 6 queued)", n)
	}
	for _, c := range []struct {
		name, want string
		moves      []adjudicator.RecordMove
	}{
		{"fewer moves", "never taken back", rec.Moves[:4]},
		{"the last stored move changed", "never changed", append(slices.Clone(rec.Moves[:4]), move(5, "x"), move(6, "f"))},
	} {
		err := in("<w-"+c.name+"@x>", func(tx host.Tx) error {
			r := record()
			r.Moves = c.moves
			_, err := tx.Save(ctx, gid, r, host.Playing)
			return err
		})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	g, err := s.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Record.Moves, rec.Moves) || g.Moves != 5 {
		t.Errorf("stored moves %+v (%d), want %+v", g.Record.Moves, g.Moves, rec.Moves)
	}
}

// TestStoredRecordVerifies: the record the store puts back together from
// its header and its rows of moves marshals to a record that verifies
// (digests and seal), and an ending saved with the moves is kept (issue 15
// items 4 and 16).
func testStoredRecordVerifies(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<v0@x>")
	rec := record()
	rec.Moves = []adjudicator.RecordMove{
		{Player: "alice", Text: "keep plain village", Time: "t1", Source: "mail:<1@x>"},
		{Player: "bob", Text: "keep plain\nend", Time: "t2", Source: "mail:<2@x>"},
	}
	if err := s.Process(ctx, host.Intake{MessageID: "<v1@x>", Received: t0}, func(tx host.Tx) error {
		_, err := tx.Save(ctx, gid, rec, host.Playing)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	rec.Ended = &adjudicator.Ending{How: adjudicator.EndResigned, By: "bob", Time: "t3", Source: "mail:<3@x>"}
	if err := s.Process(ctx, host.Intake{MessageID: "<v2@x>", Received: t0}, func(tx host.Tx) error {
		_, err := tx.Save(ctx, gid, rec, host.Abandoned)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	if g.Record.Ended == nil || *g.Record.Ended != *rec.Ended || len(g.Record.Moves) != 2 {
		t.Fatalf("stored record: %+v, ended %+v", g.Record, g.Record.Ended)
	}
	data, err := g.Record.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := adjudicator.ParseRecord("export.yaml", data)
	if err != nil {
		t.Fatalf("the stored record does not verify: %v\n%s", err, data)
	}
	want, _ := rec.Marshal()
	if !bytes.Equal(data, want) || back.Ended == nil {
		t.Errorf("stored record =\n%s\nwant\n%s", data, want)
	}
}

// testClaimIsExclusive checks the outbox's claims: a second worker gets
// none of the rows the first has claimed until the lease runs out or the
// first gives a row back, so that two workers never send a mail twice.
func testClaimIsExclusive(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	NewGame(t, s, "<c1@x>")
	NewGame(t, s, "<c2@x>")
	a, err := s.Claim(ctx, "a", t0, time.Minute, 1)
	if err != nil || len(a) != 1 {
		t.Fatalf("worker a claimed %+v, %v; want 1 mail", a, err)
	}
	b, err := s.Claim(ctx, "b", t0, time.Minute, 10)
	if err != nil || len(b) != 1 || b[0].ID == a[0].ID {
		t.Fatalf("worker b claimed %+v, %v; want the other mail only", b, err)
	}
	if c, _ := s.Claim(ctx, "c", t0.Add(59*time.Second), time.Minute, 10); len(c) != 0 {
		t.Errorf("worker c claimed %d mails within the lease, want 0", len(c))
	}
	if again, _ := s.Claim(ctx, "a", t0.Add(time.Second), time.Minute, 10); len(again) != 1 || again[0].ID != a[0].ID {
		t.Errorf("worker a, restarted, claimed %+v; want its own mail back and not b's", again)
	}
	// a gives its mail back; b's lease runs out.
	if err := s.MarkFailed(ctx, a[0].ID, t0.Add(10*time.Second), errors.New("421")); err != nil {
		t.Fatal(err)
	}
	c, _ := s.Claim(ctx, "c", t0.Add(time.Minute), time.Minute, 10)
	if len(c) != 2 || c[0].ID != a[0].ID || c[1].ID != b[0].ID {
		t.Errorf("after a gave its mail back and b's lease ran out, c claimed %+v; want both, oldest first", c)
	}
	if err := s.MarkSent(ctx, c[0].ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if d, _ := s.Claim(ctx, "d", t0.Add(time.Hour), time.Minute, 10); len(d) != 1 || d[0].ID != b[0].ID {
		t.Errorf("an hour later d claimed %+v; want only the unsent mail", d)
	}
}

// testClaimQueued checks that a batch claims the mails it queued, those of
// a mail rolled back excepted, for one worker, and that the claims commit
// with the batch: another worker's Claim gets none of them, the worker's
// own Claim gets them back (after a crash), and a batch rolled back leaves
// nothing claimed.
func testClaimQueued(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	queue := func(b host.StoreBatch, id string, fail bool, to ...string) {
		t.Helper()
		err := b.Process(ctx, host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: "a@x", Received: t0}, func(tx host.Tx) error {
			for _, r := range to {
				if err := tx.Queue(ctx, host.Mail{Recipient: r, Raw: []byte("to " + r)}); err != nil {
					return err
				}
			}
			if fail {
				return errors.New("refused")
			}
			return nil
		})
		if (err != nil) != fail {
			t.Fatalf("Process %s: %v", id, err)
		}
	}
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	queue(b, "<q1@x>", false, "a@x", "b@x")
	queue(b, "<q2@x>", true, "c@x") // rolled back: not claimed
	queue(b, "<q3@x>", false, "d@x")
	until := t0.Add(5 * time.Minute)
	got, err := b.ClaimQueued(ctx, "w1", until)
	if err != nil {
		t.Fatal(err)
	}
	var to []string
	for i, m := range got {
		to = append(to, m.Recipient)
		if string(m.Raw) != "to "+m.Recipient || !m.Created.Equal(t0) || m.Attempts != 0 || i > 0 && m.ID <= got[i-1].ID {
			t.Errorf("claimed %+v", m)
		}
	}
	if !slices.Equal(to, []string{"a@x", "b@x", "d@x"}) {
		t.Errorf("ClaimQueued claimed mails to %v, want a@x, b@x, d@x", to)
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if due, err := s.Claim(ctx, "w2", t0.Add(time.Minute), time.Minute, 10); err != nil || len(due) != 0 {
		t.Errorf("another worker's Claim during the lease = %d mails, %v; want none", len(due), err)
	}
	if due, err := s.Claim(ctx, "w1", t0.Add(time.Minute), time.Minute, 10); err != nil || len(due) != 3 {
		t.Errorf("the worker's own Claim = %d mails, %v; want its 3 claims back", len(due), err)
	}

	// A batch rolled back claims nothing.
	b, err = s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	queue(b, "<q4@x>", false, "e@x")
	if got, err := b.ClaimQueued(ctx, "w1", until); err != nil || len(got) != 1 {
		t.Fatalf("ClaimQueued = %+v, %v", got, err)
	}
	b.Rollback()
	if n, _ := s.Pending(ctx); n != 3 {
		t.Errorf("Pending = %d after a rolled-back batch, want 3", n)
	}
}

// testQueueShared queues the mails of two moves whose drafts share a part
// (host.Mail.Shared, equal bytes in slices of their own), in a batch that
// also queues a mail without one and a request that is rolled back: every
// way of reading the outbox (ClaimQueued, Claim, Due) gives each draft
// its own shared part back, and the others none. A move whose mails show
// its board in two languages, their mails one after another in any order,
// stores each board once.
func testQueueShared(t *testing.T, db DB) {
	s := db.Open(t)
	in := inspector(t, db)
	ctx := context.Background()
	type queued struct {
		to     string
		shared string // "" for none
	}
	process := func(b host.StoreBatch, id string, fail bool, mails ...queued) {
		t.Helper()
		err := b.Process(ctx, host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: "a@x", Received: t0}, func(tx host.Tx) error {
			for _, m := range mails {
				hm := host.Mail{Recipient: m.to, Draft: []byte("draft to " + m.to)}
				if m.shared != "" {
					hm.Shared = []byte(m.shared) // a slice of its own, equal bytes
				}
				if err := tx.Queue(ctx, hm); err != nil {
					return err
				}
			}
			if fail {
				return errors.New("refused")
			}
			return nil
		})
		if (err != nil) != fail {
			t.Fatalf("Process %s: %v", id, err)
		}
	}
	want := map[string]string{"a@x": "board 1", "b@x": "board 1", "c@x": "", "d@x": "board 2", "e@x": "board 2", "f@x": "board 1",
		"g@x": "board 3", "h@x": "plateau 3", "i@x": "board 3", "j@x": "plateau 3", "k@x": "plateau 3"}
	check := func(how string, got []host.Outgoing, n int) {
		t.Helper()
		if len(got) != n {
			t.Fatalf("%s: %d mails, want %d", how, len(got), n)
		}
		for _, o := range got {
			w, ok := want[o.Recipient]
			if !ok || string(o.Draft) != "draft to "+o.Recipient || string(o.Shared) != w || (w == "") != (o.Shared == nil) {
				t.Errorf("%s: the mail to %s has draft %q and shared part %q (nil: %v); want %q", how, o.Recipient, o.Draft, o.Shared, o.Shared == nil, w)
			}
		}
	}
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	process(b, "<s1@x>", false, queued{"a@x", "board 1"}, queued{"b@x", "board 1"}, queued{"c@x", ""})
	process(b, "<s2@x>", true, queued{"z@x", "board 9"}) // rolled back
	process(b, "<s3@x>", false, queued{"d@x", "board 2"}, queued{"e@x", "board 2"}, queued{"f@x", "board 1"})
	process(b, "<s4@x>", false, queued{"g@x", "board 3"}, queued{"h@x", "plateau 3"}, queued{"i@x", "board 3"}, queued{"j@x", "plateau 3"}, queued{"k@x", "plateau 3"})
	got, err := b.ClaimQueued(ctx, "w1", t0.Add(5*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	check("ClaimQueued", got, 11)
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if d, ok := s.(interface {
		Due(context.Context, time.Time, int) ([]host.Outgoing, error)
	}); ok {
		due, err := d.Due(ctx, t0, 20)
		if err != nil {
			t.Fatal(err)
		}
		check("Due", due, 11)
	}
	claimed, err := s.Claim(ctx, "w1", t0, time.Minute, 20)
	if err != nil {
		t.Fatal(err)
	}
	check("Claim", claimed, 11)
	// board 1, board 2 and board 1 again (another request's), board 3 and
	// plateau 3 once each.
	if n := in.Ints(t, `SELECT COUNT(*) FROM outbox_shared`); len(n) != 1 || n[0] != 5 {
		t.Errorf("%v shared parts stored, want 5", n)
	}
	err = s.Process(ctx, host.Intake{MessageID: "<s4@x>", BodyHash: "h4", Sender: "a@x", Received: t0}, func(tx host.Tx) error {
		return tx.Queue(ctx, host.Mail{Recipient: "a@x", Raw: []byte("a message"), Shared: []byte("board 1")})
	})
	if err == nil {
		t.Error("Queue of a message (no draft) with a shared part = nil, want an error")
	}
}

// testNoteFailure counts the failures of one mail in a row with one
// reason: another reason starts again at 1, another mail counts apart,
// and only what is set aside is listed, with its last reason.
func testNoteFailure(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	note := func(ref, reason string, want int) {
		t.Helper()
		n, err := s.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: ref, Party: "a@x.org", Reason: reason}, t0)
		if err != nil || n != want {
			t.Fatalf("NoteFailure(%s, %s) = %d, %v; want %d", ref, reason, n, err, want)
		}
	}
	note("m1", "disk", 1)
	note("m1", "disk", 2)
	note("m1", "panic", 1)
	note("m2", "panic", 1)
	note("m1", "panic", 2)
	note("m1", "panic", 3)
	if err := s.SetAside(ctx, host.FailedDraft, "m1", t0); err == nil {
		t.Error("SetAside of a draft never noted: no error")
	}
	if err := s.SetAside(ctx, host.FailedMail, "m1", t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	list, err := s.SetAsideList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Ref != "m1" || list[0].Reason != "panic" || list[0].Attempts != 3 || !list[0].SetAside.Equal(t0.Add(time.Second)) || !list[0].First.Equal(t0) {
		t.Errorf("set aside: %+v", list)
	}
}

// testKeysHashed checks that the store keeps the hash of each key, host's
// and players', never the key (issue 25, item 15), and that the hash
// authenticates the key.
func testKeysHashed(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<k1@x>")
	if err := s.Process(ctx, host.Intake{MessageID: "<k2@x>", BodyHash: "k2", Sender: "host@x", Received: t0}, func(tx host.Tx) error {
		return tx.ReplacePlayer(ctx, gid, 1, "carol@z", "k3", "tok")
	}); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	for seat, key := range []string{"hk", "k1", "k3"} {
		if !host.Authenticate(g, seat-1, key) || !host.Authenticate(g, seat-1, strings.ToUpper(key)) {
			t.Errorf("the key %q of seat %d does not authenticate", key, seat-1)
		}
	}
	for seat, stored := range append([]string{g.HostKey}, g.Players[0].Secret, g.Players[1].Secret) {
		if !host.IsHashedKey(stored) {
			t.Errorf("seat %d: the store keeps the key %q in clear", seat-1, stored)
		}
	}
}

// testGamesStartedSince: the games started since a time are counted by
// host, or all of them, for the limits on starting games (hostile
// campaign), and by an address they name that did not start them.
func testGamesStartedSince(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	start := func(id, hostAddr string, at time.Time) {
		t.Helper()
		err := s.Process(ctx, host.Intake{MessageID: id, BodyHash: "h-" + id, Sender: hostAddr, Received: at}, func(tx host.Tx) error {
			_, err := tx.CreateGame(ctx, hostAddr, "hk", record(), []host.Player{{Name: "alice", Address: "alice@x", Secret: "k1"}, {Name: "bob", Address: "bob@y", Secret: "k2"}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	start("<g1@x>", "host@x", t0)
	start("<g2@x>", "host@x", t0.Add(time.Minute))
	start("<g3@x>", "other@x", t0.Add(30*time.Minute))
	start("<g4@x>", "alice@x", t0.Add(40*time.Minute)) // alice names herself
	err := s.Process(ctx, host.Intake{MessageID: "<count@x>", BodyHash: "h", Sender: "host@x", Received: t0.Add(time.Hour)}, func(tx host.Tx) error {
		for _, c := range []struct {
			host  string
			since time.Time
			want  int
		}{
			{"host@x", t0, 2}, {"HOST@X", t0, 2}, {"other@x", t0, 1}, {"", t0, 4},
			{"host@x", t0.Add(time.Second), 1}, {"", t0.Add(2 * time.Minute), 2}, {"nobody@x", t0, 0}, {"", t0.Add(time.Hour), 0},
		} {
			if n, err := tx.GamesStartedSince(ctx, c.host, c.since); err != nil || n != c.want {
				t.Errorf("GamesStartedSince(%q, %s) = %d, %v; want %d", c.host, c.since.Format(time.TimeOnly), n, err, c.want)
			}
		}
		// The games that name an address, started by someone else: the
		// limit on the welcomes one address gets.
		for _, c := range []struct {
			address string
			since   time.Time
			want    int
		}{
			{"alice@x", t0, 3}, {"ALICE@X", t0, 3}, {"bob@y", t0, 4}, {"bob@y", t0.Add(2 * time.Minute), 2},
			{"alice@x", t0.Add(2 * time.Minute), 1}, {"host@x", t0, 0}, {"nobody@x", t0, 0},
		} {
			if n, err := tx.GamesNamingSince(ctx, c.address, c.since); err != nil || n != c.want {
				t.Errorf("GamesNamingSince(%q, %s) = %d, %v; want %d", c.address, c.since.Format(time.TimeOnly), n, err, c.want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testPlayerLang: a player's language (lang fr) is kept for their seat
// alone, read back with the game, and set back to none.
func testPlayerLang(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<l1@x>")
	for i, lang := range []string{"fr", ""} {
		if err := s.Process(ctx, host.Intake{MessageID: fmt.Sprintf("<l%d@x>", i+2), BodyHash: "l", Sender: "bob@y", Received: t0}, func(tx host.Tx) error {
			return tx.SetLang(ctx, gid, 1, lang)
		}); err != nil {
			t.Fatal(err)
		}
		g, err := s.Game(ctx, gid)
		if err != nil {
			t.Fatal(err)
		}
		if g.Players[0].Lang != "" || g.Players[1].Lang != lang {
			t.Errorf("after SetLang(seat 1, %q): alice %q, bob %q", lang, g.Players[0].Lang, g.Players[1].Lang)
		}
	}
}

// testMailLangs: the languages herald writes in where no one chose one (a
// player's last mail's, the host's, an observer's) are kept apart from
// the language a player chose, read back with the game and its
// observers, and set back to none.
func testMailLangs(t *testing.T, db DB) {
	s := db.Open(t)
	ctx := context.Background()
	gid := NewGame(t, s, "<m1@x>")
	for i, lang := range []string{"fr", ""} {
		if err := s.Process(ctx, host.Intake{MessageID: fmt.Sprintf("<m%d@x>", i+2), BodyHash: "m", Sender: "bob@y", Received: t0}, func(tx host.Tx) error {
			if err := tx.SetMailLang(ctx, gid, 1, lang); err != nil {
				return err
			}
			if err := tx.SetHostLang(ctx, gid, lang); err != nil {
				return err
			}
			if _, err := tx.Observe(ctx, gid, "carol@z", true); err != nil {
				return err
			}
			if _, err := tx.Observe(ctx, gid, "dave@z", true); err != nil {
				return err
			}
			if err := tx.SetObserverLang(ctx, gid, "Carol@Z", lang); err != nil {
				return err
			}
			langs, err := tx.ObserverLangs(ctx, gid)
			if err != nil {
				return err
			}
			if want := map[string]string{"carol@z": lang}; lang == "" && len(langs) != 0 || lang != "" && !maps.Equal(langs, want) {
				t.Errorf("after SetObserverLang(carol, %q): %v", lang, langs)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		g, err := s.Game(ctx, gid)
		if err != nil {
			t.Fatal(err)
		}
		if g.Players[0].MailLang != "" || g.Players[1].MailLang != lang || g.Players[1].Lang != "" || g.HostLang != lang {
			t.Errorf("after SetMailLang(seat 1, %q) and SetHostLang: alice %q, bob %q (chosen %q), host %q", lang, g.Players[0].MailLang, g.Players[1].MailLang, g.Players[1].Lang, g.HostLang)
		}
	}
}
