package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/mail"
)

// CampaignEnv, set to a number of kills (at least 100 for the issue's
// campaign), runs TestWorkersKilledCampaign.
const CampaignEnv = "HERALD_PG_CAMPAIGN"

// TestWorkersKilledCampaign is issue 29's campaign on the real servers
// (../shared/realmail): three herald serve workers on one PostgreSQL
// database and one mailbox, games of every game played by mail by
// scripted players, while a worker chosen at random is killed with
// SIGKILL and restarted, again and again, until HERALD_PG_CAMPAIGN kills.
// It then checks that no move was lost (every game finished, its record
// adjudicates), none applied twice (no mail's move twice in a record),
// every player got each of herald's mails at most twice (the same
// Message-ID again after a crash between sending and recording it), and
// no mail waits unsent. It empties the players' and herald's mailboxes:
// run it as the other realmail tests, under the shared lock, or on an
// instance of its own (REALMAIL_DIR, REALMAIL_IMAP_PORT and
// REALMAIL_SMTP_PORT, as for ../shared/realmail/up.sh), since it takes
// many minutes:
//
//	flock /tmp/realmail.lock env HERALD_PG_CAMPAIGN=100 go test -run TestWorkersKilledCampaign -timeout 2h ./cmd/herald
func TestWorkersKilledCampaign(t *testing.T) {
	kills, _ := strconv.Atoi(os.Getenv(CampaignEnv))
	if kills <= 0 {
		t.Skipf("the kill -9 campaign of three workers on real mail runs with %s=KILLS (100 or more)", CampaignEnv)
	}
	imapAddr, smtpAddr := "127.0.0.1:"+envOr("REALMAIL_IMAP_PORT", "1143"), "127.0.0.1:"+envOr("REALMAIL_SMTP_PORT", "2525")
	if c, err := net.DialTimeout("tcp", imapAddr, 2*time.Second); err != nil {
		t.Fatalf("realmail's Dovecot does not answer on %s (../shared/realmail/up.sh starts it): %v", imapAddr, err)
	} else {
		c.Close()
	}
	realmail := os.Getenv("REALMAIL_DIR")
	if realmail == "" {
		realmail = "/tmp/realmail"
	}
	expunge := func(user string) {
		out, err := exec.Command("doveadm", "-c", filepath.Join(realmail, "etc/dovecot.conf"), "expunge", "-u", user, "mailbox", "*", "all").CombinedOutput()
		if err != nil {
			t.Fatalf("doveadm expunge %s: %v: %s", user, err, out)
		}
	}
	people := []string{"alice@herald.test", "bob@herald.test", "carol@herald.test", "dave@herald.test"}
	for _, u := range append([]string{"herald@herald.test"}, people...) {
		expunge(u)
	}
	url := pgGames(t, "herald.test", 0, host.Timing{}) // the schema, before the workers
	db := pgConnect(t, url)
	base := t.TempDir()
	pwFile := filepath.Join(base, "password")
	if err := os.WriteFile(pwFile, []byte("herald-pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	serve := func(w int) *exec.Cmd {
		return startServe(t, filepath.Join(base, fmt.Sprintf("worker%d.log", w)), nil, "--store", url, "--worker", fmt.Sprint("w", w),
			"--data", filepath.Join(base, fmt.Sprint("worker", w)), "--pictures", "off",
			"--address", "herald@herald.test", "--imap-host", imapAddr, "--smtp-host", smtpAddr,
			"--security", "none", "--password-file", pwFile, "--poll", "1s")
	}
	var mu sync.Mutex
	workers := []*exec.Cmd{serve(0), serve(1), serve(2)}
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range workers {
			c.Process.Kill()
			c.Wait()
		}
	}()
	// The killer: a worker at random, every 0.3 to 2.5 s.
	killed := 0
	stopKiller := make(chan struct{})
	killerDone := make(chan struct{})
	go func() {
		defer close(killerDone)
		rng := rand.New(rand.NewPCG(29, 5))
		for {
			select {
			case <-stopKiller:
				return
			case <-time.After(300*time.Millisecond + time.Duration(rng.IntN(2200))*time.Millisecond):
			}
			w := rng.IntN(3)
			mu.Lock()
			workers[w].Process.Kill()
			workers[w].Wait()
			workers[w] = serve(w)
			killed++
			mu.Unlock()
		}
	}()
	type game struct {
		name    string
		players []string
		options map[string]string
	}
	all := []game{
		{"raubritter", people[:2], map[string]string{"setup": "random"}},
		{"heritiers", people[:1], map[string]string{"level": "2"}},
		{"lowenherz", people[:3], nil},
		{"lowenherz97", people[:3], nil},
	}
	ctx := context.Background()
	played := 0
	for round := 0; ; round++ {
		mu.Lock()
		enough := killed >= kills
		mu.Unlock()
		if enough && round >= len(all) {
			break
		}
		g := all[round%len(all)]
		// The players' mailboxes start empty, and no mail of the game
		// before may come in later: a mail sent again after a crash would
		// be a scripted player's turn prompt of that game.
		waitSent(t, db)
		time.Sleep(2 * time.Second) // delivery into the mailboxes
		for _, u := range people {
			expunge(u)
		}
		res, err := mail.RunDemo(ctx, mail.DemoConfig{
			Game: g.name, Players: g.players, Host: "dave@herald.test", Herald: "herald@herald.test", Options: g.options,
			Password: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" },
			IMAPAddr: imapAddr, SMTPAddr: smtpAddr, Seed: fmt.Sprint("campaign", round), Timeout: 15 * time.Minute,
		})
		if err != nil {
			t.Fatalf("game %d (%s): %v (logs in %s)", round+1, g.name, err, base)
		}
		rep, err := adjudicator.Adjudicate(games.All, res.Record)
		if err != nil || rep.Illegal != nil || !rep.Match.State.Result().Finished {
			t.Fatalf("game %d (%s): the mailed record does not adjudicate to a finished game: %v %+v", round+1, g.name, err, rep.Illegal)
		}
		for _, p := range append(slices.Clone(g.players), "dave@herald.test") {
			checkMessageIDs(t, imapAddr, p, g.name)
		}
		played++
		mu.Lock()
		t.Logf("game %d (%s, %d moves) finished; %d kills so far", round+1, g.name, len(res.Record.Moves), killed)
		mu.Unlock()
	}
	close(stopKiller)
	<-killerDone
	if n := db.count(`SELECT COUNT(*) FROM (SELECT 1 FROM moves WHERE source LIKE 'mail:%' GROUP BY game_id, source HAVING COUNT(*) > 1) d`); n != 0 {
		t.Errorf("%d mails applied twice", n)
	}
	waitSent(t, db)
	aside := db.count(`SELECT COUNT(*) FROM failures WHERE set_aside IS NOT NULL`)
	t.Logf("%d games played by mail, %d workers killed with SIGKILL, %d mails set aside", played, killed, aside)
	if killed < kills {
		t.Errorf("%d kills, fewer than the %d asked", killed, kills)
	}
}

// checkMessageIDs reads every mail in addr's INBOX and fails when one
// Message-ID came more than twice.
func checkMessageIDs(t *testing.T, imapAddr, addr, game string) {
	t.Helper()
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	name, _, _ := strings.Cut(addr, "@")
	if err := c.Login(addr, name+"-pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imap.UIDSet{imap.UIDRange{Start: 1, Stop: 0}}, &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, m := range msgs {
		if m.Envelope != nil {
			seen[m.Envelope.MessageID]++
		}
	}
	for id, n := range seen {
		if n > 2 {
			t.Errorf("%s (%s): the mail %s came %d times", addr, game, id, n)
		}
	}
}

// envOr returns the environment variable name, or def when it is unset.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// waitSent waits until the outbox of db has sent every mail it has not
// given up on, for 5 minutes at most (a dead worker's claims last 5
// minutes).
func waitSent(t *testing.T, db *pgDB) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		pending := db.count(`SELECT COUNT(*) FROM outbox WHERE sent IS NULL AND next_attempt < '2100'`)
		if pending == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mails still wait to be sent after 5 minutes", pending)
		}
		time.Sleep(time.Second)
	}
}
