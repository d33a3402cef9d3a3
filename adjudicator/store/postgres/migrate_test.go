package postgres

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/heraldgames/herald/adjudicator/store/storetest"
)

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// TestMigrateCopiesEverything fills a SQLite store with a row of every
// kind (games with moves, a clock, observers and a request to observe, a
// request to take moves back, players away and on digests, pages, mails
// sent and waiting, failures set aside), copies it into PostgreSQL, and
// reads everything back the same through both stores; a second copy is
// refused, and the next game and mail take the ids after the copied ones.
func TestMigrateCopiesEverything(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	lite, err := store.Open(ctx, filepath.Join(dir, "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	g1 := storetest.NewGame(t, lite, "<a@x>")
	g2 := storetest.NewGame(t, lite, "<b@x>")
	err = lite.Process(ctx, host.Intake{MessageID: "<c@x>", BodyHash: "hc", Sender: "alice@x", Received: t0.Add(time.Minute)}, func(tx host.Tx) error {
		rec, err := tx.Record(ctx, g1)
		if err != nil {
			return err
		}
		rec.Moves = append(rec.Moves, adjudicator.RecordMove{Player: "alice", Text: "keep plain", Time: "t1", Source: "mail:<c@x>"},
			adjudicator.RecordMove{Player: "bob", Text: "keep forest\nlay f5 forest", Time: "t2", Source: "cli"})
		if _, err := tx.Save(ctx, g1, rec, host.Playing); err != nil {
			return err
		}
		tx.SetOutcome("applied", g1)
		steps := []error{
			tx.SetClock(ctx, g1, host.Clock{Deadline: 72 * time.Hour, Grace: time.Hour, Remind: 50, Policy: "forfeit", Since: t0, ToMove: "alice", Stage: 1, Next: t0.Add(time.Hour), Vacation: 24 * time.Hour}),
			tx.SetNotify(ctx, g1, 1, "digest", 1, t0.Add(24*time.Hour)),
			tx.SetAway(ctx, g1, 0, t0.Add(48*time.Hour), 3*time.Hour),
			tx.SetPage(ctx, g1, host.PagePublic, "tok1"),
			tx.SetObserveRequest(ctx, g1, "Carol@Z", host.HashKey("ct"), t0),
			tx.SetUndoRequest(ctx, g1, &host.UndoRequest{AskedBy: "alice", Keep: 1, Moves: 2, Accepted: []string{"alice"}, Until: t0.Add(time.Hour), Source: "mail:<c@x>"}),
			tx.SetObserversOff(ctx, g2, true),
			tx.Queue(ctx, host.Mail{GameID: g1, Recipient: "bob@y", Draft: []byte(`{"subject":"move"}`), Reply: true}),
			tx.Queue(ctx, host.Mail{Recipient: "x@y", Raw: []byte("auth"), AuthNotice: true}),
			// A move's mails, their board stored once (outbox_shared).
			tx.Queue(ctx, host.Mail{GameID: g1, Recipient: "alice@x", Draft: []byte(`{"subject":"news"}`), Shared: []byte(`{"Cols":7}`)}),
			tx.Queue(ctx, host.Mail{GameID: g1, Recipient: "bob@y", Draft: []byte(`{"subject":"news"}`), Shared: []byte(`{"Cols":7}`)}),
		}
		if _, err := tx.Observe(ctx, g1, "dave@z", true); err != nil {
			return err
		}
		return errors.Join(steps...)
	})
	if err != nil {
		t.Fatal(err)
	}
	sent, err := lite.Claim(ctx, "w", t0, time.Minute, 1)
	if err != nil || len(sent) != 1 {
		t.Fatal(sent, err)
	}
	if err := lite.MarkSent(ctx, sent[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := lite.Claim(ctx, "w", t0, time.Hour, 1); err != nil { // one claimed, not sent
		t.Fatal(err)
	}
	for _, ref := range []string{"m1", "m2"} {
		if _, err := lite.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: ref, Party: "a@x", Subject: "s", Reason: "panic"}, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := lite.SetAside(ctx, host.FailedMail, "m1", t0); err != nil {
		t.Fatal(err)
	}

	pg := open(t, pgtest.URL(t))
	copied, err := pg.Migrate(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("copied %v %v", copied.Tables, copied.Rows)
	for i, name := range copied.Tables {
		if name == "games" && copied.Rows[i] != 2 || name == "moves" && copied.Rows[i] != 2 || name == "outbox" && copied.Rows[i] != 6 || name == "outbox_shared" && copied.Rows[i] != 1 {
			t.Errorf("copied %d rows of %s", copied.Rows[i], name)
		}
	}
	same := func(what string, a, b any, errA, errB error) {
		t.Helper()
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v, %v", what, errA, errB)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s differs:\nSQLite     %+v\nPostgreSQL %+v", what, a, b)
		}
	}
	for _, id := range []int64{g1, g2} {
		a, errA := lite.Game(ctx, id)
		b, errB := pg.Game(ctx, id)
		same("game", a, b, errA, errB)
	}
	a1, errA := lite.Games(ctx)
	b1, errB := pg.Games(ctx)
	same("Games", a1, b1, errA, errB)
	a2, errA := lite.PublicPages(ctx)
	b2, errB := pg.PublicPages(ctx)
	same("PublicPages", a2, b2, errA, errB)
	a3, errA := lite.Due(ctx, t0.Add(time.Hour), 10)
	b3, errB := pg.Due(ctx, t0.Add(time.Hour), 10)
	same("the outbox", emptyNil(a3), emptyNil(b3), errA, errB)
	a4, errA := lite.SetAsideList(ctx)
	b4, errB := pg.SetAsideList(ctx)
	same("SetAsideList", a4, b4, errA, errB)
	a5, errA := lite.DueDigests(ctx, t0.Add(48*time.Hour), 10)
	b5, errB := pg.DueDigests(ctx, t0.Add(48*time.Hour), 10)
	same("DueDigests", a5, b5, errA, errB)
	a6, errA := lite.DueClocks(ctx, t0.Add(48*time.Hour), 10)
	b6, errB := pg.DueClocks(ctx, t0.Add(48*time.Hour), 10)
	same("DueClocks", a6, b6, errA, errB)
	if ok, err := pg.Processed(ctx, "<c@x>"); !ok || err != nil {
		t.Errorf("Processed(<c@x>) = %v, %v after the copy", ok, err)
	}
	if n, err := pg.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: "m2", Reason: "panic"}, t0); n != 2 || err != nil {
		t.Errorf("a copied failure noted again: %d, %v; want 2", n, err)
	}
	// The claimed mail stays claimed by its worker.
	if due, err := pg.Claim(ctx, "other", t0.Add(2*time.Minute), time.Minute, 10); err != nil || len(due) != 4 {
		t.Errorf("another worker claims %+v, %v; want the four mails never claimed", due, err)
	}

	if _, err := pg.Migrate(ctx, dir); !errors.Is(err, ErrMigrated) {
		t.Errorf("a second copy: %v, want ErrMigrated", err)
	}
	g3 := storetest.NewGame(t, pg, "<d@x>")
	if g3 != g2+1 {
		t.Errorf("the next game has id %d, want %d", g3, g2+1)
	}
	// A move's board stored after the copy takes the next id too.
	err = pg.Process(ctx, host.Intake{MessageID: "<e@x>", BodyHash: "e", Sender: "alice@x", Received: t0}, func(tx host.Tx) error {
		return tx.Queue(ctx, host.Mail{GameID: g1, Recipient: "bob@y", Draft: []byte(`{"subject":"next"}`), Shared: []byte(`{"Cols":8}`)})
	})
	if err != nil {
		t.Fatal(err)
	}
	due, err := pg.Due(ctx, t0.Add(time.Hour), 20)
	if err != nil || due[len(due)-1].ID <= a3[len(a3)-1].ID || string(due[len(due)-1].Shared) != `{"Cols":8}` {
		t.Errorf("the next mail's id does not follow the copied ones, or its board is not its own: %+v, %v", due, err)
	}
}

// TestMigrateRefusesAStoreInUse: a database where a serve ran (it has
// games) is refused, and nothing is copied.
func TestMigrateRefusesAStoreInUse(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	lite, err := store.Open(ctx, filepath.Join(dir, "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	storetest.NewGame(t, lite, "<a@x>")
	lite.Close()
	pg := open(t, pgtest.URL(t))
	storetest.NewGame(t, pg, "<b@x>")
	if _, err := pg.Migrate(ctx, dir); !errors.Is(err, ErrMigrated) {
		t.Fatalf("Migrate into a database with a game: %v, want ErrMigrated", err)
	}
	if list, _ := pg.Games(ctx); len(list) != 1 {
		t.Errorf("%d games after a refused copy, want 1", len(list))
	}
	if _, err := pg.Migrate(ctx, t.TempDir()); err == nil {
		t.Errorf("Migrate from a directory without a database succeeded")
	}
}

// TestMigrateKnowsEveryColumn: the tables and columns Migrate copies are
// those of the SQLite store, all of them, so that a migration added there
// cannot be forgotten here.
func TestMigrateKnowsEveryColumn(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "herald.db")
	lite, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	lite.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'schema_version' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	var known []string
	for _, ct := range copyTables {
		known = append(known, ct.name)
		if len(ct.kinds) != len(ct.cols) {
			t.Errorf("%s: %d kinds for %d columns", ct.name, len(ct.kinds), len(ct.cols))
		}
		cols, err := db.Query(`SELECT name FROM pragma_table_info(?) ORDER BY name`, ct.name)
		if err != nil {
			t.Fatal(err)
		}
		var have []string
		for cols.Next() {
			var n string
			cols.Scan(&n)
			have = append(have, n)
		}
		cols.Close()
		want := slices.Sorted(slices.Values(ct.cols))
		if !slices.Equal(have, want) {
			t.Errorf("table %s: SQLite has columns %v, Migrate copies %v", ct.name, have, want)
		}
	}
	slices.Sort(known)
	if !slices.Equal(tables, known) {
		t.Errorf("SQLite has tables %v, Migrate copies %v", tables, known)
	}
}

// emptyNil returns mails with empty Raw and Draft as nil: the stores read
// an empty one as either.
func emptyNil(mails []host.Outgoing) []host.Outgoing {
	out := slices.Clone(mails)
	for i := range out {
		if len(out[i].Raw) == 0 {
			out[i].Raw = nil
		}
		if len(out[i].Draft) == 0 {
			out[i].Draft = nil
		}
	}
	return out
}
