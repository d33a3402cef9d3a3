package mail

import (
	"context"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/heritiers"
	"github.com/heraldgames/herald/games/lowenherz"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/games/raubritter"
)

// realmail is ../shared/realmail: a real Postfix (SMTP 127.0.0.1:2525)
// and Dovecot (IMAP 127.0.0.1:1143) with accounts NAME@herald.test,
// password NAME-pw. .ci/run starts it; without it these tests skip.
const (
	realIMAP = "127.0.0.1:1143"
	realSMTP = "127.0.0.1:2525"
)

func needRealmail(t testing.TB) {
	t.Helper()
	c, err := net.DialTimeout("tcp", realIMAP, time.Second)
	if err != nil {
		if os.Getenv("HERALD_REALMAIL") != "" {
			t.Fatalf("HERALD_REALMAIL is set but Dovecot does not answer on %s: %v", realIMAP, err)
		}
		t.Skip("realmail is not running (../shared/realmail/up.sh starts it; .ci/run does)")
	}
	c.Close()
	// Empty every mailbox, so that old mail does not reach this game.
	conf := os.Getenv("REALMAIL_DIR")
	if conf == "" {
		conf = "/tmp/realmail"
	}
	out, err := exec.Command("doveadm", "-c", filepath.Join(conf, "etc/dovecot.conf"), "expunge", "-A", "mailbox", "*", "all").CombinedOutput()
	if err != nil {
		t.Fatalf("doveadm expunge: %v\n%s", err, out)
	}
}

// TestRealmail plays whole games by mail through a real Postfix and
// Dovecot (../shared/realmail): herald reads its mailbox over IMAP (IDLE),
// sends over SMTP with AUTH, and scripted players answer from their own
// accounts. The accounts are shared, so the games run one after the
// other; the whole test runs beside TestEmbeddedGames.
//
// A delivery through the real servers takes about half a second (see
// BenchmarkRealmailTurnLatency), so a whole Löwenherz game (some 380 mails)
// takes minutes: it runs only with HERALD_REALMAIL_LONG set, which .ci/run
// does after the main test command, keeping `go test ./...` short.
func TestRealmail(t *testing.T) {
	t.Parallel()
	needRealmail(t)
	t.Run("raubritter-2p", func(t *testing.T) {
		realmailGame(t, "raubritter", []string{"alice@herald.test", "bob@herald.test"}, map[string]string{"setup": "random"}, 3*time.Minute)
	})
	t.Run("heritiers-solo", func(t *testing.T) {
		res := realmailGame(t, "heritiers", []string{"alice@herald.test"}, map[string]string{"level": "2"}, 3*time.Minute)
		checkHenri(t, res, 1)
	})
	t.Run("huge-mail", testRealmailHugeMail)
	t.Run("host-features", testRealmailHostFeatures)
	t.Run("set-aside", testRealmailSetAside)
	t.Run("refused-recipient", testRealmailRefusedRecipient)
	t.Run("french", testRealmailFrench)
	t.Run("bounce", testRealmailBounce)
	t.Run("lowenherz-3p", func(t *testing.T) {
		if os.Getenv("HERALD_REALMAIL_LONG") == "" {
			t.Skip("a whole Löwenherz game by real mail takes about 4 minutes; HERALD_REALMAIL_LONG=1 runs it (.ci/run does)")
		}
		realmailGame(t, "lowenherz", []string{"alice@herald.test", "bob@herald.test", "carol@herald.test"}, nil, 8*time.Minute)
	})
	t.Run("lowenherz97-3p", func(t *testing.T) {
		if os.Getenv("HERALD_REALMAIL_LONG") == "" {
			t.Skip("a whole Löwenherz 1997 game by real mail takes minutes; HERALD_REALMAIL_LONG=1 runs it (.ci/run does)")
		}
		res := realmailGame(t, "lowenherz97", []string{"alice@herald.test", "bob@herald.test", "carol@herald.test"}, nil, 8*time.Minute)
		checkConflicts(t, res)
	})
}

// realmailGame plays a whole game of game by mail through the real servers
// and checks it with checkDemo; dave hosts it.
func realmailGame(t *testing.T, game string, players []string, options map[string]string, limit time.Duration) *DemoResult {
	needRealmail(t)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := adjudicator.NewRegistry(raubritter.Game, lowenherz.Game, lowenherz97.Game, heritiers.Game)
	svc, err := NewService(Config{Address: "herald@herald.test", Registry: reg, Store: st, Logger: testLogger(t),
		NewSeed: func() string { return "realmail" }})
	if err != nil {
		t.Fatal(err)
	}
	out := NewOutbox(OutboxConfig{Server: Server{Addr: realSMTP, Security: Plain, Username: "herald@herald.test", Password: "herald-pw"},
		Every: time.Second}, svc)
	in := NewIntake(IntakeConfig{Server: Server{Addr: realIMAP, Security: Plain, Username: "herald@herald.test", Password: "herald-pw"},
		Handled: func(Outcome) { out.Kick() }}, svc)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 2)
	go func() { done <- in.Run(runCtx) }()
	go func() { done <- out.Run(runCtx) }()
	defer func() {
		stop()
		<-done
		<-done
	}()
	res, err := RunDemo(ctx, DemoConfig{
		Game: game, Players: players, Host: "dave@herald.test", Herald: "herald@herald.test",
		Options:  options,
		Password: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" },
		IMAPAddr: realIMAP, SMTPAddr: realSMTP, Seed: "realmail", Timeout: limit - 30*time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	checkDemo(t, reg, res, players)
	return res
}

// checkDemo checks what the scripted players saw: the same final board
// for everyone, a record that adjudicates, and no mail holding another
// player's hand or key.
func checkDemo(t *testing.T, reg *adjudicator.Registry, res *DemoResult, players []string) {
	t.Helper()
	rep, err := adjudicator.Adjudicate(reg, res.Record)
	if err != nil || rep.Illegal != nil {
		t.Fatalf("the mailed record does not adjudicate: %v %+v", err, rep.Illegal)
	}
	if !rep.Match.State.Result().Finished {
		t.Fatalf("the mailed record is not a finished game")
	}
	board := func(body string) string {
		// The board is every line from the first frame line to the last
		// ("    +---..."), whatever the game.
		i := strings.Index(body, "\n    +")
		j := strings.LastIndex(body, "\n    +")
		if i < 0 {
			return ""
		}
		end := strings.IndexByte(body[j+1:], '\n')
		if end < 0 {
			return body[i+1:]
		}
		return body[i+1 : j+1+end]
	}
	want := board(res.Final[players[0]])
	if want == "" {
		t.Fatalf("no board in the final mail:\n%s", res.Final[players[0]])
	}
	keys := map[string]string{}
	for _, p := range players {
		if got := board(res.Final[p]); got != want {
			t.Errorf("%s's final board differs from %s's:\n%s\nvs\n%s", p, players[0], got, want)
		}
		for _, m := range res.Mails[p] {
			if k := demoKey.FindStringSubmatch(m); k != nil {
				keys[p] = k[1]
			}
		}
	}
	for _, p := range players {
		for _, m := range res.Mails[p] {
			for _, q := range players {
				if q == p {
					continue
				}
				name, _, _ := strings.Cut(q, "@")
				if strings.Contains(m, name+"'s hand") || strings.Contains(m, keys[q]) {
					t.Fatalf("a mail to %s holds %s's hand or key:\n%s", p, q, m)
				}
			}
		}
	}
}

// testLogger logs the service's work through t.Log, shown with -v or on
// failure.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, nil))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// testRealmailHugeMail is TestHugeMailMemory on the real Dovecot: a
// 100 MB mail appended to herald's INBOX is answered and moved away while
// herald's heap stays flat.
func testRealmailHugeMail(t *testing.T) {
	if testing.Short() {
		t.Skip("appends a 100 MB mail")
	}
	needRealmail(t)
	f := newFixture(t)
	f.start()
	f.sent()
	c, err := imapclient.DialInsecure(realIMAP, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("herald@herald.test", "herald-pw").Wait(); err != nil {
		t.Fatal(err)
	}
	appendHuge(t, c, hugeMailSize)
	checkFlatIntake(t, f, IntakeConfig{Server: Server{Addr: realIMAP, Security: Plain, Username: "herald@herald.test", Password: "herald-pw"}}, c)
}
