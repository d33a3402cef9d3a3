package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// TestFilesPrivate opens a store under umask 0, and an older store whose
// files are world-readable (issue 25, item 15): herald.db, -wal and -shm
// are 0600 either way.
func TestFilesPrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "herald.db")
	check := func(when string) {
		t.Helper()
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: %s has mode %v, want 0600", when, filepath.Base(p), fi.Mode().Perm())
			}
		}
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	newGame(t, s, "<p1@x>")
	check("a new store under umask 0")
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s2, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	check("a store whose files were 0644, opened again")
	s.Close()
}

// TestKeysHashed checks that the store keeps the hash of each key, host's
// and players', never the key (issue 25, item 15), and that the hash
// authenticates the key.
func TestKeysHashed(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<k1@x>")
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
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT host_key FROM games UNION ALL SELECT secret FROM players`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		if !host.IsHashedKey(k) {
			t.Errorf("the store keeps the key %q in clear", k)
		}
	}
}

// TestClearKeysMigrated opens a store whose keys are in clear, as every
// store before migration 12 kept them: Open hashes them, and they still
// authenticate.
func TestClearKeysMigrated(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<c1@x>")
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE games SET host_key = 'hk'`,
		`UPDATE players SET secret = 'k' || (seat + 1)`,
		`DROP INDEX outbox_strangers`, // migration 19
		`DROP TABLE observe_requests`,
		`DROP TABLE failures`,                           // migration 13
		`ALTER TABLE players DROP COLUMN undeliverable`, // migration 14
		`ALTER TABLE players DROP COLUMN lang`,          // migration 15
		`DROP INDEX outbox_shared_ref`,                  // migration 17
		`ALTER TABLE outbox DROP COLUMN shared_id`,      // migration 16
		`DROP TABLE outbox_shared`,
		`ALTER TABLE players DROP COLUMN mail_lang`, // migration 18
		`ALTER TABLE games DROP COLUMN host_lang`,
		`ALTER TABLE observers DROP COLUMN lang`,
		`UPDATE schema_version SET version = 11`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	g, err := s2.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	for seat, key := range []string{"hk", "k1", "k2"} {
		secret := g.HostKey
		if seat > 0 {
			secret = g.Players[seat-1].Secret
		}
		if !host.IsHashedKey(secret) {
			t.Errorf("seat %d: the store keeps %q, want its hash", seat-1, secret)
		}
		if !host.Authenticate(g, seat-1, key) {
			t.Errorf("seat %d: the key %q no longer authenticates", seat-1, key)
		}
	}
}

// TestReadGameAloneFinishesAlike reads a game with a clock and moves
// through readGame's join and, its players' rows gone, through
// readGameAlone: both give the same clock, updated time and record
// (finishGame), with and without the record.
func TestReadGameAloneFinishesAlike(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<a1@x>")
	clock := host.Clock{Deadline: 72 * time.Hour, Grace: 24 * time.Hour, Remind: 50, Policy: "wait", Since: t0,
		ToMove: "alice", Stage: 1, Next: t0.Add(36 * time.Hour), Vacation: 14 * 24 * time.Hour}
	rec := record()
	rec.Moves = []adjudicator.RecordMove{{Player: "alice", Text: "plain castle h6", Time: "2026-11-23T10:05:00Z", Source: "mail:<a2@x>"}}
	if err := s.Process(ctx, host.Intake{MessageID: "<a2@x>", BodyHash: "a2", Sender: "alice@x", Received: t0.Add(5 * time.Minute)}, func(tx host.Tx) error {
		if err := tx.SetClock(ctx, gid, clock); err != nil {
			return err
		}
		return tx.SaveGame(ctx, gid, rec, host.Playing)
	}); err != nil {
		t.Fatal(err)
	}
	read := func(withRecord bool) *host.Game {
		t.Helper()
		g, _, err := readGame(ctx, s.db, gid, withRecord)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	joined, joinedNoRecord := read(true), read(false)
	if joined.Clock == nil || *joined.Clock != clock || joined.Updated.IsZero() || len(joined.Record.Moves) != 1 || len(joined.Players) != 2 {
		t.Fatalf("the game read with its players: clock %+v, updated %v, record %+v, %d players", joined.Clock, joined.Updated, joined.Record, len(joined.Players))
	}
	if _, err := s.db.Exec(`DELETE FROM players WHERE game_id = ?`, gid); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		with     bool
		joined   *host.Game
		wantMove bool
	}{{"with its record", true, joined, true}, {"without", false, joinedNoRecord, false}} {
		alone := read(c.with)
		if len(alone.Players) != 0 {
			t.Fatalf("%s: %d players, want none", c.name, len(alone.Players))
		}
		if alone.Clock == nil || *alone.Clock != *c.joined.Clock || !alone.Updated.Equal(c.joined.Updated) {
			t.Errorf("%s: read alone, clock %+v updated %v; with its players, %+v %v", c.name, alone.Clock, alone.Updated, c.joined.Clock, c.joined.Updated)
		}
		if (alone.Record != nil) != c.wantMove || c.wantMove && !reflect.DeepEqual(alone.Record, c.joined.Record) {
			t.Errorf("%s: read alone, record %+v; with its players, %+v", c.name, alone.Record, c.joined.Record)
		}
	}
}

// TestBatchManyMails runs 200 mails in one batch, each queueing a mail,
// every seventh failing: a failure rolls back its own mail alone, and the
// commit keeps every other mail's outbox row and processed mail.
func TestBatchManyMails(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	b, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range 200 {
		fail := i%7 == 3
		id := fmt.Sprintf("<n%d@x>", i)
		err := b.Process(ctx, host.Intake{MessageID: id, BodyHash: id, Sender: "a@x", Received: t0}, func(tx host.Tx) error {
			if err := tx.Queue(ctx, host.Mail{Recipient: fmt.Sprintf("r%d@x", i), Raw: []byte("m")}); err != nil {
				return err
			}
			if fail {
				return errors.New("refused")
			}
			return nil
		})
		if (err != nil) != fail {
			t.Fatalf("mail %d: %v", i, err)
		}
		if !fail {
			want++
		}
	}
	if err := b.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	due, err := s.Due(ctx, t0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != want {
		t.Fatalf("%d mails queued after the commit, want %d", len(due), want)
	}
	for _, o := range due {
		var i int
		fmt.Sscanf(o.Recipient, "r%d@x", &i)
		if i%7 == 3 {
			t.Errorf("the mail of failed mail %d was queued", i)
		}
		if ok, err := s.Processed(ctx, fmt.Sprintf("<n%d@x>", i)); !ok || err != nil {
			t.Errorf("mail %d not recorded as processed: %v", i, err)
		}
	}
	if ok, _ := s.Processed(ctx, "<n3@x>"); ok {
		t.Error("the failed mail 3 is recorded as processed")
	}
}

// TestOutboxRowsBeforeSharedParts opens a store at schema version 15,
// before outbox_shared, with a draft waiting in the outbox: migration 15
// keeps it as it was, with no shared part (its draft holds its board), and
// the mails queued after it share theirs.
func TestOutboxRowsBeforeSharedParts(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<o1@x>")
	old := []byte(`{"herald_draft":1,"to":"alice@x","picture":{"Cols":7}}`)
	if err := s.Process(ctx, host.Intake{MessageID: "<o2@x>", BodyHash: "o2", Sender: "alice@x", Received: t0}, func(tx host.Tx) error {
		return tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "alice@x", Draft: old})
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP INDEX outbox_strangers`, `DROP INDEX outbox_shared_ref`, `DROP INDEX observe_requests_asked`, `ALTER TABLE outbox DROP COLUMN shared_id`, `DROP TABLE outbox_shared`,
		`ALTER TABLE players DROP COLUMN mail_lang`, `ALTER TABLE games DROP COLUMN host_lang`, `ALTER TABLE observers DROP COLUMN lang`, // migration 18
		`UPDATE schema_version SET version = 15`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.Process(ctx, host.Intake{MessageID: "<o3@x>", BodyHash: "o3", Sender: "alice@x", Received: t0}, func(tx host.Tx) error {
		return tx.Queue(ctx, host.Mail{GameID: gid, Recipient: "bob@y", Draft: []byte(`{"herald_draft":1}`), Shared: []byte(`{"Cols":8}`)})
	}); err != nil {
		t.Fatal(err)
	}
	due, err := s2.Due(ctx, t0, 10)
	if err != nil {
		t.Fatal(err)
	}
	var drafts []host.Outgoing
	for _, o := range due {
		if len(o.Draft) > 0 {
			drafts = append(drafts, o)
		}
	}
	if len(drafts) != 2 || !bytes.Equal(drafts[0].Draft, old) || drafts[0].Shared != nil || string(drafts[1].Shared) != `{"Cols":8}` {
		t.Fatalf("the drafts after migration 16: %+v", drafts)
	}
}

// TestPendingDrafts queues drafts written apart (host.Mail.Pending, from
// host.Host.Later), as the news of a burst's moves are: an unguarded batch
// waits for them only as it commits, and inserts every mail in the order
// it was queued, the pending one first though it was written last, with
// what it shares, written apart with it; a draft that cannot be written
// fails the commit, and nothing of the batch is
// written.
func TestPendingDrafts(t *testing.T) {
	ctx := context.Background()
	for _, fail := range []bool{false, true} {
		s, _ := open(t)
		h, err := host.New(host.Config{Registry: adjudicator.NewRegistry(), Store: s})
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b.Unguarded()
		release := make(chan struct{})
		pending := h.Later(func() (draft, shared []byte, err error) {
			<-release // written after the next mail is processed
			if fail {
				return nil, nil, errors.New("cannot write the draft")
			}
			return []byte(`{"subject":"news"}`), []byte(`{"board":1}`), nil // the board drawn apart too
		})
		queue := func(id string, m host.Mail) {
			t.Helper()
			err := b.Process(ctx, host.Intake{MessageID: id, BodyHash: id, Sender: "a@x", Received: t0}, func(tx host.Tx) error {
				return tx.Queue(ctx, m)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		queue("<p1@x>", host.Mail{Recipient: "alice@x", Pending: pending})
		queue("<p2@x>", host.Mail{Recipient: "bob@x", Raw: []byte("answer")})
		close(release)
		err = b.Commit(ctx)
		if fail {
			if err == nil || !strings.Contains(err.Error(), "cannot write the draft") {
				t.Fatalf("commit with a draft that failed: %v", err)
			}
			if due, _ := s.Due(ctx, t0, 10); len(due) != 0 {
				t.Errorf("%d mails queued by a batch that did not commit", len(due))
			}
			if ok, _ := s.Processed(ctx, "<p2@x>"); ok {
				t.Error("a mail of a batch that did not commit is recorded")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		due, err := s.Due(ctx, t0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) != 2 || due[0].Recipient != "alice@x" || string(due[0].Draft) != `{"subject":"news"}` || string(due[0].Shared) != `{"board":1}` ||
			due[1].Recipient != "bob@x" || string(due[1].Raw) != "answer" {
			t.Fatalf("queued %+v, want alice's draft written apart, then bob's answer", due)
		}
	}
}
