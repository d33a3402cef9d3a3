package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// TestHeaderCacheMatchesDatabase calls every method of host.Tx that writes
// a game's header and checks what GameInfo returns, from the cache of
// headers, against the database: in the mail that wrote, in the next mail
// of the batch, in the next batch, after a mail that wrote and was rolled
// back, and after another process and another connection wrote (see
// headerCache).
func TestHeaderCacheMatchesDatabase(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	ids := []int64{newGame(t, s, "<g1@x>"), 2} // game 2 is made by CreateGame below
	gid := ids[0]
	moves := 0
	cet := time.FixedZone("CET", 3600) // a time as a mail's Date may give it
	addMove := func(tx host.Tx, status string) error {
		rec, err := tx.Record(ctx, gid)
		if err != nil {
			return err
		}
		moves++
		rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: fmt.Sprint("move ", moves), Time: "2026-11-23T10:00:00Z", Source: "cli"})
		if status == "" {
			_, err = tx.Save(ctx, gid, rec, host.Playing)
			return err
		}
		return tx.SaveGame(ctx, gid, rec, status)
	}
	ignore := func(_ any, err error) error { return err }
	writes := []struct {
		method string
		do     func(tx host.Tx) error
	}{
		{"CreateGame", func(tx host.Tx) error {
			return ignore(tx.CreateGame(ctx, "host@x", "hk2", record(), []host.Player{{Name: "alice", Address: "alice@x", Secret: "k"}}))
		}},
		{"Save", func(tx host.Tx) error { return addMove(tx, "") }},
		{"SaveGame", func(tx host.Tx) error { return addMove(tx, host.Finished) }},
		{"Save", func(tx host.Tx) error { return addMove(tx, "") }},
		{"ReplacePlayer", func(tx host.Tx) error { return tx.ReplacePlayer(ctx, gid, 1, "Carol@Z", "k3", "tok3") }},
		{"Observe", func(tx host.Tx) error { return ignore(tx.Observe(ctx, gid, "obs@x", true)) }},
		{"SetObserverLang", func(tx host.Tx) error { return tx.SetObserverLang(ctx, gid, "obs@x", host.LangFrench) }},
		{"SetObserveRequest", func(tx host.Tx) error { return tx.SetObserveRequest(ctx, gid, "new@x", "sha256:ab", t0) }},
		{"SetObserversOff", func(tx host.Tx) error { return tx.SetObserversOff(ctx, gid, true) }},
		{"SetObserversOff", func(tx host.Tx) error { return tx.SetObserversOff(ctx, gid, false) }},
		{"Observe", func(tx host.Tx) error { return ignore(tx.Observe(ctx, gid, "obs2@x", true)) }},
		{"SetNotify", func(tx host.Tx) error {
			return tx.SetNotify(ctx, gid, 0, "digest", 3, t0.Add(90*time.Minute+time.Millisecond))
		}},
		{"SetLang", func(tx host.Tx) error { return tx.SetLang(ctx, gid, 0, host.LangFrench) }},
		{"SetMailLang", func(tx host.Tx) error { return tx.SetMailLang(ctx, gid, 1, host.LangFrench) }},
		{"SetHostLang", func(tx host.Tx) error { return tx.SetHostLang(ctx, gid, host.LangFrench) }},
		{"SetAway", func(tx host.Tx) error { return tx.SetAway(ctx, gid, 1, t0.Add(48*time.Hour), 3*time.Hour+time.Second) }},
		{"SetUndeliverable", func(tx host.Tx) error { return tx.SetUndeliverable(ctx, gid, 1, "mailbox full") }},
		{"SetPage", func(tx host.Tx) error { return tx.SetPage(ctx, gid, host.PagePublic, "page-token") }},
		{"SetUndoRequest", func(tx host.Tx) error {
			return tx.SetUndoRequest(ctx, gid, &host.UndoRequest{AskedBy: "alice", Keep: 1, Moves: moves, Until: t0.Add(time.Hour), Source: "cli"})
		}},
		{"SetClock", func(tx host.Tx) error {
			return tx.SetClock(ctx, gid, host.Clock{Deadline: 72*time.Hour + 500*time.Millisecond, Grace: 24 * time.Hour, Remind: 1, Policy: "wait",
				Since: t0.Add(1500 * time.Millisecond).In(cet), ToMove: "bob", Stage: 1, Next: t0.Add(72 * time.Hour), Vacation: 14 * 24 * time.Hour})
		}},
		{"Save", func(tx host.Tx) error { return addMove(tx, "") }},
		{"SetClock", func(tx host.Tx) error {
			return tx.SetClock(ctx, gid, host.Clock{Deadline: time.Hour, Since: t0, ToMove: "alice"})
		}},
		{"TakeBack", func(tx host.Tx) error {
			if err := addMove(tx, ""); err != nil { // a move to take back, whatever came before
				return err
			}
			rec, err := tx.Record(ctx, gid)
			if err != nil {
				return err
			}
			rec.Undone = append(rec.Undone, adjudicator.Undo{After: 1, By: "alice", Time: "2026-11-23T11:00:00Z", Source: "cli", Moves: rec.Moves[1:]})
			rec.Moves = rec.Moves[:1]
			moves = 1
			return ignore(tx.TakeBack(ctx, gid, rec))
		}},
		{"SetUndoRequest", func(tx host.Tx) error { return tx.SetUndoRequest(ctx, gid, nil) }},
		{"SetClock", func(tx host.Tx) error { return tx.SetClock(ctx, gid, host.Clock{Since: t0}) }},
		{"Observe", func(tx host.Tx) error { return ignore(tx.Observe(ctx, gid, "obs@x", false)) }},
		{"Save", func(tx host.Tx) error { return addMove(tx, "") }},
	}

	// Every method of host.Tx is either one of the writes above or reads
	// (or writes nothing of a game's header): a new method must be added
	// to one or the other.
	reads := map[string]bool{"SetOutcome": true, "Game": true, "GameInfo": true, "Record": true, "GamesOf": true, "PlayingGamesOf": true,
		"GamesStartedSince": true, "GamesNamingSince": true, "Observers": true, "ObserverLangs": true, "ObserveRequest": true, "ObserveRequestsSince": true, "UndoRequest": true, "Queue": true,
		"RepliesSince": true, "AuthNoticesSince": true, "AnswersSince": true, "StrangerAnswersSince": true}
	covered := map[string]bool{}
	for _, w := range writes {
		covered[w.method] = true
	}
	txType := reflect.TypeFor[host.Tx]()
	for i := range txType.NumMethod() {
		if m := txType.Method(i).Name; !reads[m] && !covered[m] {
			t.Errorf("host.Tx.%s is neither a read nor among the writes this test checks", m)
		}
	}

	// check compares what GameInfo returns with the database, for every
	// game, inside tx.
	check := func(tx host.Tx, when string) {
		t.Helper()
		for _, id := range ids {
			got, err := tx.GameInfo(ctx, id)
			if err != nil {
				t.Fatalf("%s: GameInfo(%d): %v", when, id, err)
			}
			want, _, err := readGame(ctx, tx.(*Tx).b.stmts, id, false)
			if errors.Is(err, host.ErrNoGame) {
				want, err = nil, nil
			}
			if err != nil {
				t.Fatalf("%s: reading game %d: %v", when, id, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: game %d\ncached  %+v\nstored  %+v", when, id, got, want)
			}
		}
	}
	mail := 0
	process := func(b host.StoreBatch, fn func(tx host.Tx) error) error {
		mail++
		return b.Process(ctx, host.Intake{MessageID: fmt.Sprintf("<m%d@x>", mail), Sender: "alice@x", Received: t0.Add(time.Duration(mail) * time.Second).In(cet)}, fn)
	}
	// inBatch processes mails in a batch of their own, each a mail that
	// must succeed, and commits the batch, or rolls it back.
	inBatch := func(commit bool, mails ...func(tx host.Tx) error) {
		t.Helper()
		b, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Rollback() // after Commit, nothing
		for _, fn := range mails {
			if err := process(b, fn); err != nil {
				t.Fatal(err)
			}
		}
		if commit {
			if err := b.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	checking := func(when string) func(tx host.Tx) error {
		return func(tx host.Tx) error { check(tx, when); return nil }
	}
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()

	for i, w := range writes {
		when := fmt.Sprintf("write %d, %s", i+1, w.method)
		b, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// A mail that reads, writes and fails: rolled back to its savepoint.
		failed := errors.New("the mail fails")
		if err := process(b, func(tx host.Tx) error {
			check(tx, when+", before a mail rolled back")
			if err := w.do(tx); err != nil {
				return err
			}
			check(tx, when+", in the mail rolled back")
			return failed
		}); !errors.Is(err, failed) {
			t.Fatalf("%s, the mail rolled back: %v", when, err)
		}
		if err := process(b, func(tx host.Tx) error {
			check(tx, when+", after a mail rolled back")
			if err := w.do(tx); err != nil {
				return err
			}
			check(tx, when+", in the mail")
			return nil
		}); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if err := process(b, func(tx host.Tx) error { check(tx, when+", the next mail"); return nil }); err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		inBatch(true, checking(when+", the next batch"))
		// Another herald (a CLI command) changes a player; then another
		// connection the language of another.
		mail++
		err = other.Process(ctx, host.Intake{MessageID: fmt.Sprintf("<o%d@x>", mail), Sender: "host@x", Received: t0}, func(tx host.Tx) error {
			return tx.SetNotify(ctx, gid, 1, "all", i, time.Time{})
		})
		if err != nil {
			t.Fatal(err)
		}
		inBatch(true, checking(when+", after another herald wrote"))
		if _, err := raw.Exec(`UPDATE players SET lang = ? WHERE game_id = ? AND seat = 0`, fmt.Sprint("l", i), gid); err != nil {
			t.Fatal(err)
		}
		// A batch rolled back forgets what it wrote.
		inBatch(false, checking(when+", after another connection wrote"), w.do)
		inBatch(true, checking(when+", after a batch rolled back"))
	}
	if s.headers.hits == 0 {
		t.Errorf("GameInfo never read a header from the cache (%d misses)", s.headers.misses)
	}
}

// TestHeaderCacheKeptAcrossOutbox checks that the outbox's writes (a
// claim, a mail marked sent or failed) and the failures' do not empty the
// cache of headers: they go through the writing connection.
func TestHeaderCacheKeptAcrossOutbox(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<g1@x>")
	read := func(i int) {
		t.Helper()
		err := s.Process(ctx, host.Intake{MessageID: fmt.Sprintf("<r%d@x>", i), Sender: "alice@x", Received: t0}, func(tx host.Tx) error {
			_, err := tx.GameInfo(ctx, gid)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	read(0)
	out, err := s.Claim(ctx, "w1", t0, time.Minute, 10)
	if err != nil || len(out) != 1 {
		t.Fatalf("Claim = %v, %v; want the welcome mail", out, err)
	}
	read(1)
	if err := s.MarkFailed(ctx, out[0].ID, t0.Add(time.Minute), errors.New("450 try later")); err != nil {
		t.Fatal(err)
	}
	read(2)
	if err := s.MarkSent(ctx, out[0].ID, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	read(3)
	if _, err := s.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: "<bad@x>", Reason: "no"}, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetAside(ctx, host.FailedMail, "<bad@x>", t0); err != nil {
		t.Fatal(err)
	}
	read(4)
	if s.headers.hits != 4 || s.headers.misses != 1 {
		t.Errorf("GameInfo read %d headers from the cache and %d from the database, want 4 and 1", s.headers.hits, s.headers.misses)
	}
}
