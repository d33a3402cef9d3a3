package main

import (
	"bufio"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/mail"
)

// TestNewByMailReachesPlayers starts a game with herald new --mail on the
// data directory of an embedded serve that runs with its own address, as a
// host would (issue 14): the welcome mails reach the players (serve opens
// their mailboxes before mailing them), come from serve's address and are
// threaded under it, and the host, by default the first player, gets the
// confirmation.
func TestNewByMailReachesPlayers(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	cfg := mail.RunConfig{Dir: dir, Address: "referee@games.test", Registry: games.All, Local: startEmbedded, OpenStore: openSQLite, Logger: slog.New(slog.DiscardHandler)}
	r, err := mail.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // serve ran once: the data directory knows herald's address

	res := mustHerald(t, "new", "raubritter", "--mail", "--players", "alice@games.test,Bob@games.test", "--data", dir)
	if !strings.Contains(res.stdout, "hosted by alice@games.test") || !strings.Contains(res.stdout, "from referee@games.test") {
		t.Errorf("new --mail says:\n%v", res)
	}

	r, err = mail.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := r.Store.Pending(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mails still wait in the outbox: a player's mailbox is missing?", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	pw := playerPasswords(t, dir)
	for addr, want := range map[string][]string{
		"alice@games.test": {"game started", "welcome"},
		"bob@games.test":   {"welcome"},
	} {
		got := inbox(t, r.Embedded.IMAPAddr(), addr, pw[addr])
		if len(got) != len(want) {
			t.Fatalf("%s got %d mails, want %d (%v)", addr, len(got), len(want), want)
		}
		for i, m := range got {
			if !strings.HasSuffix(m.Subject, ": "+want[i]) {
				t.Errorf("%s mail %d: subject %q, want ...: %s", addr, i+1, m.Subject, want[i])
			}
			if len(m.From) != 1 || m.From[0].Addr() != "referee@games.test" {
				t.Errorf("%s mail %d comes from %v, want referee@games.test", addr, i+1, m.From)
			}
			if !strings.HasSuffix(m.MessageID, "@games.test") {
				t.Errorf("%s mail %d: Message-ID %q is not of herald's domain", addr, i+1, m.MessageID)
			}
		}
	}
}

// playerPasswords reads the passwords serve wrote for the player accounts
// it opened.
func playerPasswords(t *testing.T, dir string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, mail.PlayerPasswordsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pw := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if a, p, ok := strings.Cut(sc.Text(), " "); ok {
			pw[a] = p
		}
	}
	return pw
}

// inbox returns the envelopes of the mails in addr's INBOX, in order.
func inbox(t *testing.T, imapAddr, addr, password string) []*imap.Envelope {
	t.Helper()
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(addr, password).Wait(); err != nil {
		t.Fatalf("login as %s: %v", addr, err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []*imap.Envelope
	for _, m := range msgs {
		out = append(out, m.Envelope)
	}
	return out
}

// TestNewByMailGivesPage starts a game with herald new --mail on the data
// directory of a serve that runs with --http: the welcome mails give the
// game's page as serve's own do (issue 28, item 8); without the pages,
// none.
func TestNewByMailGivesPage(t *testing.T) {
	for _, pages := range []bool{true, false} {
		dir := t.TempDir()
		if pages {
			w := &webPages{base: "https://games.example.org"}
			if err := w.remember(dir); err != nil {
				t.Fatal(err)
			}
		}
		mustHerald(t, "new", "raubritter", "--mail", "--players", "alice@games.test,bob@games.test", "--data", dir)
		st, err := store.Open(context.Background(), filepath.Join(dir, "herald.db"))
		if err != nil {
			t.Fatal(err)
		}
		g, err := st.Game(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		out, err := st.Due(context.Background(), time.Now().Add(time.Hour), 100)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		url := "https://games.example.org/g/" + g.PageToken
		welcomes := 0
		for _, m := range out {
			if !strings.Contains(string(m.Raw)+string(m.Draft), "welcome") {
				continue
			}
			welcomes++
			if got := strings.Contains(string(m.Raw)+string(m.Draft), url); got != pages {
				t.Errorf("pages %v: the welcome to %s gives the page %v", pages, m.Recipient, got)
			}
		}
		if welcomes != 2 {
			t.Errorf("pages %v: %d welcomes queued, want 2", pages, welcomes)
		}
	}
}

// TestBadAddressesRefused: herald new --mail and serve --hosts refuse an
// address no mail server takes with a clear error, before they touch the
// data directory (issue 25, item 2).
func TestBadAddressesRefused(t *testing.T) {
	for _, args := range [][]string{
		{"new", "raubritter", "--mail", "--players", "a@b@c.local,zed@herald.local"},
		{"new", "raubritter", "--mail", "--players", "bob@,zed@herald.local"},
		{"new", "raubritter", "--mail", "--players", "alice@x.org,bob@x.org,"},
		{"new", "raubritter", "--mail", "--players", "alice@x.org,bob@x.org", "--host", "x@y@z"},
		{"serve", "--hosts", "me@x.org,bob@"},
	} {
		dir := filepath.Join(t.TempDir(), "data")
		res := herald(t, "", append(args, "--data", dir)...)
		if res.code == 0 || !strings.Contains(res.stderr, "is not a mail address") {
			t.Errorf("want a refusal naming the address, got:\n%v", res)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%v created the data directory", args)
		}
	}
}

// TestNewByMailFollowsReplyTokens starts a game with herald new --mail on
// the data directory of a serve that ran with reply tokens on, then off:
// the welcome of the player to move says how to answer as serve's own
// mails would, without the key line in a reply when tokens are on, with it
// when they are off. A data directory whose setting cannot be read stops
// new --mail with the file's name, before a game is made.
func TestNewByMailFollowsReplyTokens(t *testing.T) {
	ctx := context.Background()
	for _, tokens := range []bool{true, false} {
		dir := t.TempDir()
		r, err := mail.Start(ctx, mail.RunConfig{Dir: dir, Address: "referee@games.test", Registry: games.All, Local: startEmbedded,
			OpenStore: openSQLite, Logger: slog.New(slog.DiscardHandler), NoReplyTokens: !tokens})
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		mustHerald(t, "new", "raubritter", "--mail", "--players", "alice@games.test,bob@games.test", "--data", dir)
		st, err := store.Open(ctx, filepath.Join(dir, "herald.db"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := st.Due(ctx, time.Now().Add(time.Hour), 100)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		var said []string
		for _, m := range out {
			text := string(m.Raw) + string(m.Draft)
			switch {
			case strings.Contains(text, "reply to this mail with your steps"):
				said = append(said, "reply")
			case strings.Contains(text, "reply with your key line"):
				said = append(said, "key line")
			}
		}
		want := "key line"
		if tokens {
			want = "reply"
		}
		if len(said) == 0 || slices.ContainsFunc(said, func(s string) bool { return s != want }) {
			t.Errorf("reply tokens %v: the mails queued say how to play as %q, want as %q", tokens, said, want)
		}
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, mail.ReplyTokensFile), []byte("maybe\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := herald(t, "", "new", "raubritter", "--mail", "--players", "alice@games.test,bob@games.test", "--data", dir)
	if res.code == 0 || !strings.Contains(res.stderr, mail.ReplyTokensFile+` says "maybe", want on or off`) {
		t.Errorf("a setting that cannot be read:\n%v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "herald.db")); err == nil {
		t.Errorf("new --mail made a database before it read the setting")
	}
}
