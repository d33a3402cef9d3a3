package postgres

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/jackc/pgx/v5"
)

// setDatabase sets a parameter for every later connection to url's
// database (ALTER DATABASE … SET; the test user is the cluster's owner).
func setDatabase(t *testing.T, url, param, value string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var name string
	if err := conn.QueryRow(ctx, `SELECT current_database()`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf(`ALTER DATABASE %s SET %s = '%s'`, name, param, value)); err != nil {
		t.Fatal(err)
	}
}

// newGames creates n games in s and returns their ids.
func newGames(t *testing.T, s *Store, n int) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	for i := range n {
		err := s.Process(ctx, intake(fmt.Sprintf("<new%d@x>", i)), func(tx host.Tx) error {
			rec := &adjudicator.Record{Format: adjudicator.FormatVersion, Game: "raubritter", Players: []string{"alice", "bob"},
				SeedSHA256: adjudicator.Commit("7"), Seed: "7"}
			id, err := tx.CreateGame(ctx, "host@x", "hk", rec, []host.Player{{Name: "alice", Address: "a@x", Secret: "k1"}, {Name: "bob", Address: "b@x", Secret: "k2"}})
			ids = append(ids, id)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// begin begins a batch of s, rolled back when the test ends unless it
// was committed.
func begin(t *testing.T, s *Store) host.StoreBatch {
	t.Helper()
	b, err := s.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Rollback() })
	return b
}

func intake(id string) host.Intake {
	return host.Intake{MessageID: id, BodyHash: id, Sender: "a@x", Received: time.Unix(1e9, 0)}
}

// TestDeadlockIsConflict makes two workers' batches deadlock: each locks
// one game with a first request, then wants the other's game with a
// second. PostgreSQL ends one of the two (40P01): that request's error is
// host.ErrConflict, whether the request returned the deadlock's error or
// swallowed it (and then failed on the aborted transaction); its first
// request still commits; the other worker's batch goes on once it does;
// and the request in conflict, never recorded, goes through when tried
// again.
func TestDeadlockIsConflict(t *testing.T) {
	for _, swallow := range []bool{false, true} {
		t.Run(fmt.Sprintf("swallowed=%v", swallow), func(t *testing.T) {
			url := pgtest.URL(t)
			setDatabase(t, url, "deadlock_timeout", "100ms")
			a, b := open(t, url), open(t, url)
			ctx := context.Background()
			g := newGames(t, a, 2)
			ba, bb := begin(t, a), begin(t, b)
			lock := func(id int64) func(tx host.Tx) error {
				return func(tx host.Tx) error {
					_, err := tx.Game(ctx, id)
					if swallow && err != nil {
						// as a request that answers a failed read
						// with a refusal would: the queue fails next
						return tx.Queue(ctx, host.Mail{GameID: id, Recipient: "a@x", Raw: []byte("refused")})
					}
					return err
				}
			}
			if err := ba.Process(ctx, intake("<a1@x>"), lock(g[0])); err != nil {
				t.Fatal(err)
			}
			if err := bb.Process(ctx, intake("<b1@x>"), lock(g[1])); err != nil {
				t.Fatal(err)
			}
			type result struct {
				batch host.StoreBatch
				id    string
				err   error
			}
			done := make(chan result, 2)
			go func() { done <- result{ba, "<a2@x>", ba.Process(ctx, intake("<a2@x>"), lock(g[1]))} }()
			go func() { done <- result{bb, "<b2@x>", bb.Process(ctx, intake("<b2@x>"), lock(g[0]))} }()
			var loser result
			select {
			case loser = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("no deadlock detected in 30 s")
			}
			if !errors.Is(loser.err, host.ErrConflict) {
				t.Fatalf("the request ended by the deadlock: %v; want host.ErrConflict", loser.err)
			}
			if err := loser.batch.Commit(ctx); err != nil {
				t.Fatalf("the batch of the request in conflict does not commit its first request: %v", err)
			}
			var winner result
			select {
			case winner = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the other batch waits on after the first committed")
			}
			if winner.err != nil {
				t.Fatalf("the other batch's request: %v", winner.err)
			}
			if err := winner.batch.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			for _, id := range []string{"<a1@x>", "<b1@x>", winner.id} {
				if ok, err := a.Processed(ctx, id); err != nil || !ok {
					t.Errorf("%s not processed: %v", id, err)
				}
			}
			if ok, err := a.Processed(ctx, loser.id); err != nil || ok {
				t.Errorf("%s, in conflict, is recorded as processed (%v)", loser.id, err)
			}
			if err := a.Process(ctx, intake(loser.id), lock(g[0])); err != nil {
				t.Errorf("%s tried again: %v", loser.id, err)
			}
		})
	}
}

// TestSerializationFailureIsConflict runs the store on a database whose
// transactions are REPEATABLE READ (default_transaction_isolation, as a
// DBA may set it): a batch that locks a game another worker's batch
// changed since its snapshot gets PostgreSQL's serialization failure
// (40001), which is host.ErrConflict; tried again in a new batch, the
// request goes through.
func TestSerializationFailureIsConflict(t *testing.T) {
	url := pgtest.URL(t)
	setDatabase(t, url, "default_transaction_isolation", "repeatable read")
	a, b := open(t, url), open(t, url)
	ctx := context.Background()
	g := newGames(t, a, 1)[0]
	ba, bb := begin(t, a), begin(t, b) // bb's snapshot: before ba's change
	change := func(tx host.Tx) error {
		if _, err := tx.Game(ctx, g); err != nil {
			return err
		}
		return tx.SetPage(ctx, g, "public", "tok")
	}
	if err := ba.Process(ctx, intake("<a@x>"), change); err != nil {
		t.Fatal(err)
	}
	if err := ba.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	err := bb.Process(ctx, intake("<b@x>"), change)
	if !errors.Is(err, host.ErrConflict) {
		t.Fatalf("a request on a game changed since its batch's snapshot: %v; want host.ErrConflict", err)
	}
	if err := bb.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Process(ctx, intake("<b@x>"), change); err != nil {
		t.Fatalf("tried again: %v", err)
	}
}

// TestCommitConflict runs the store on a SERIALIZABLE database: two
// batches each read the observers of one game and add one to the other's
// (a write skew). The batch that commits second fails to commit (40001),
// which is host.ErrConflict: nothing of it was written, and it goes
// through when tried again.
func TestCommitConflict(t *testing.T) {
	url := pgtest.URL(t)
	setDatabase(t, url, "default_transaction_isolation", "serializable")
	a, b := open(t, url), open(t, url)
	ctx := context.Background()
	g := newGames(t, a, 2)
	skew := func(read, write int64) func(tx host.Tx) error {
		return func(tx host.Tx) error {
			if _, err := tx.Observers(ctx, read); err != nil {
				return err
			}
			_, err := tx.Observe(ctx, write, "o@x", true)
			return err
		}
	}
	ba, bb := begin(t, a), begin(t, b)
	if err := ba.Process(ctx, intake("<a@x>"), skew(g[0], g[1])); err != nil {
		t.Fatal(err)
	}
	if err := bb.Process(ctx, intake("<b@x>"), skew(g[1], g[0])); err != nil {
		t.Fatal(err)
	}
	if err := ba.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	err := bb.Commit(ctx)
	if !errors.Is(err, host.ErrConflict) {
		t.Fatalf("the second commit of a write skew: %v; want host.ErrConflict", err)
	}
	if ok, err := a.Processed(ctx, "<b@x>"); err != nil || ok {
		t.Fatalf("<b@x> is recorded after its batch failed to commit (%v)", err)
	}
	if err := b.Process(ctx, intake("<b@x>"), skew(g[1], g[0])); err != nil {
		t.Fatalf("tried again: %v", err)
	}
}
