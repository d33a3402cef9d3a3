package mail

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/raubritter"
)

// openSQLite is RunConfig.OpenStore for the tests: SQLite in dir, as
// herald serve's default.
func openSQLite(ctx context.Context, dir string) (host.Store, error) {
	return store.Open(ctx, filepath.Join(dir, "herald.db"))
}

// maxMoveMailStatements is the most SQL statements the store may run for
// a mail that plays a move, as a mail of a burst: the game's row and the
// move written (the game's header read for an earlier mail is in the
// store's cache), the board its notices share stored once, the notices
// queued in one insert; the duplicate check and the mails recorded are
// the batch's, a statement for all its mails, and the mails run without a
// savepoint each (issue 29: 13 before, a third of a move mail's cost; 8
// while each notice's draft held the board; 9 before the batch's
// duplicate check, 8 before the savepoints went, 6 before the mails were
// recorded together; 5 before the store kept the headers it read).
const maxMoveMailStatements = 4

// TestMoveMailStatements counts the SQL statements move mails cost, in a
// batch (as the intake handles a burst) and one by one, so that a change
// that adds one to every mail is seen: at most maxMoveMailStatements a
// mail, and the batch's BEGIN, data version check and COMMIT.
func TestMoveMailStatements(t *testing.T) {
	f := newFixture(t)
	f.start()
	m, err := adjudicator.SelfPlay(raubritter.Game, f.svc.cfg.Registry, 2, "fixture", nil, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	who := map[string]string{"p1": "alice@herald.test", "p2": "bob@herald.test"}
	var raws [][]byte
	for _, mv := range m.Record.Moves[:12] {
		raws = append(raws, f.mail(who[mv.Player], "Re: [herald G1]", fmt.Sprintf("game G1\nkey %s\n%s", f.keys[who[mv.Player]], mv.Text)))
	}
	const perBatch = 5 // BEGIN, the data version, the duplicate check, the mails recorded, COMMIT
	// count handles raws in one batch and returns the statements it took.
	count := func(raws [][]byte) int64 {
		t.Helper()
		before := f.st.Statements()
		outs, err := f.svc.HandleBatch(context.Background(), raws)
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range outs {
			if o != Applied {
				t.Fatalf("mail %d: %s, want applied", i+1, o)
			}
		}
		return f.st.Statements() - before
	}
	// The first mail reads the record and replays it (no game in memory
	// yet); then a burst, then one mail alone.
	count(raws[:1])
	if got, want := count(raws[1:11]), int64(10*maxMoveMailStatements+perBatch); got > want {
		t.Errorf("a batch of 10 move mails ran %d statements, want at most %d (%d a mail)", got, want, maxMoveMailStatements)
	}
	if got, want := count(raws[11:12]), int64(maxMoveMailStatements+perBatch); got > want {
		t.Errorf("a move mail alone ran %d statements, want at most %d", got, want)
	}
}

// TestBatchLostGoesAgain fails the third of four move mails of a batch,
// which runs its mails without a savepoint each: the whole transaction is
// rolled back, and the batch goes again in one transaction, a savepoint a
// mail, rather than one mail per transaction: the two mails before the
// failing one are applied, with their replies, the failure is logged
// once, and no "processing its mails one by one" is logged.
func TestBatchLostGoesAgain(t *testing.T) {
	f := newFixture(t)
	db := f.openRaw(t)
	f.start()
	var logs syncBuffer
	f.svc.log = slog.New(slog.NewTextHandler(&logs, nil))
	mails := f.moveMails(1, 4)
	if _, err := db.Exec(`CREATE TRIGGER fail BEFORE UPDATE ON games WHEN NEW.moves = 3 BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
	pending, _ := f.st.Pending(context.Background())
	outs, err := f.svc.HandleBatch(context.Background(), mails)
	if !slices.Equal(outs, []Outcome{Applied, Applied}) || err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("HandleBatch = %v, %v; want two mails applied, and the injected failure", outs, err)
	}
	if g, err := f.st.Game(context.Background(), 1); err != nil || g.Moves != 2 {
		t.Fatalf("the game has %v moves (%v), want 2", g.Moves, err)
	}
	if n, _ := f.st.Pending(context.Background()); n <= pending {
		t.Errorf("the outbox holds %d mails, %d before the batch: the applied mails' replies are missing", n, pending)
	}
	log := logs.String()
	if n := strings.Count(log, "mail not processed"); n != 1 || strings.Contains(log, "one by one") {
		t.Errorf("the failure logged %d times, want once; and no mail one by one:\n%s", n, log)
	}
}
