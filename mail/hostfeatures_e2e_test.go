package mail

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/raubritter"
)

// featureRig is herald on real IMAP and SMTP servers (embedded or
// ../shared/realmail) with a fake clock, and the accounts of its users.
type featureRig struct {
	t          *testing.T
	svc        *Service
	imap, smtp string
	herald     string
	password   func(addr string) string
	mu         sync.Mutex
	clock      time.Time
	seen       map[string]int             // mails already read, by account
	sentAll    []string                   // every mail herald delivered, "to\nraw"
	onNew      func(address string) error // the service's OnNewPlayer, if any
	registry   *adjudicator.Registry      // Raubritter's alone when nil
	replies    int                        // Config.RepliesPerHour; the default when 0
	ensure     func(string) error         // the outbox's hook before each mail, if any
	hints      bool                       // Config.Hints
}

func (r *featureRig) now() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.clock
}

func (r *featureRig) advance(d time.Duration) {
	r.mu.Lock()
	r.clock = r.clock.Add(d)
	r.mu.Unlock()
}

// start runs herald's intake and outbox on the servers until the test ends.
func (r *featureRig) start(ctx context.Context, heraldPW string) {
	t := r.t
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg := r.registry
	if reg == nil {
		reg = adjudicator.NewRegistry(raubritter.Game)
	}
	r.svc, err = NewService(Config{Address: r.herald, Registry: reg, Store: st, Logger: testLogger(t),
		Now: r.now, NewSeed: func() string { return "features" }, RepliesPerHour: r.replies, OnNewPlayer: r.onNew, Hints: r.hints})
	if err != nil {
		t.Fatal(err)
	}
	out := NewOutbox(OutboxConfig{Server: Server{Addr: r.smtp, Security: Plain, Username: r.herald, Password: heraldPW}, Every: 200 * time.Millisecond}, r.svc)
	out.ensure = r.ensure
	in := NewIntake(IntakeConfig{Server: Server{Addr: r.imap, Security: Plain, Username: r.herald, Password: heraldPW},
		Handled: func(Outcome) { out.Kick() }}, r.svc)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 2)
	go func() { done <- in.Run(runCtx) }()
	go func() { done <- out.Run(runCtx) }()
	t.Cleanup(func() { stop(); <-done; <-done })
}

// send mails herald from addr; to is herald's address unless given.
func (r *featureRig) send(from, to, subject, body string) {
	r.t.Helper()
	if to == "" {
		to = r.herald
	}
	if err := sendMail(r.smtp, from, to, subject, body, "", nil); err != nil {
		r.t.Fatal(err)
	}
}

// await returns the first mail to addr not read yet whose subject ends
// with topic, waiting for it; the mails before it are read too.
func (r *featureRig) await(addr, topic string) string {
	r.t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		for _, raw := range r.fetchNew(addr) {
			r.sentAll = append(r.sentAll, addr+"\n"+raw)
			if m := subjectLine.FindStringSubmatch(raw); m != nil && strings.HasSuffix(strings.TrimSpace(m[1]), topic) {
				return raw
			}
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("%s got no mail about %q in 45 s", addr, topic)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

var subjectLine = regexp.MustCompile(`(?m)^Subject: (.*)\r?$`)

// fetchNew returns the mails of addr's INBOX it has not returned before.
func (r *featureRig) fetchNew(addr string) []string {
	r.t.Helper()
	c, err := imapclient.DialInsecure(r.imap, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(addr, r.password(addr)).Wait(); err != nil {
		r.t.Fatalf("login as %s: %v", addr, err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		r.t.Fatal(err)
	}
	from := r.seen[addr] + 1
	if int(sel.NumMessages) < from {
		return nil
	}
	var set imap.SeqSet
	set.AddRange(uint32(from), sel.NumMessages)
	msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		for _, b := range m.BodySection {
			out = append(out, string(bytes.ReplaceAll(b.Bytes, []byte("\r\n"), []byte("\n"))))
		}
	}
	r.seen[addr] = int(sel.NumMessages)
	return out
}

var (
	featureKey     = regexp.MustCompile(`Your key is (\S+)`)
	featureReplyTo = regexp.MustCompile(`(?m)^Reply-To: "herald" <(\S+)>`)
	featureLegal   = regexp.MustCompile(`(?m)^Your legal steps \(\d+\), any one per line:\n  (.+)$`)
)

// hostFeatures plays the hosting features of issue 19 by mail: a game with
// a deadline, a move by replying to the Reply-To address with no key, a
// preview, an observer, notify turn, a reminder when the fake clock
// passes 75% of the deadline, the host re-keying a seat, whose old key
// then fails, notify digest and the digest a day later, a vacation, and a
// take-back refused and then accepted. No mail holds another person's key
// or token.
func hostFeatures(t *testing.T, r *featureRig, hostAddr, alice, bob, carol string) {
	r.send(hostAddr, "", "new", "new raubritter players "+alice+" "+bob+" deadline 2d")
	aw := r.await(alice, "welcome")
	bw := r.await(bob, "welcome")
	r.await(hostAddr, "game started")
	if !strings.Contains(aw, "This move is due by ") || !strings.Contains(aw, ":: game G1 move 1 to-move alice,bob deadline ") {
		t.Errorf("alice's welcome does not give the deadline:\n%s", aw)
	}
	aliceReply := featureReplyTo.FindStringSubmatch(aw)
	bobKey := featureKey.FindStringSubmatch(bw)
	if aliceReply == nil || bobKey == nil {
		t.Fatalf("no Reply-To in alice's welcome, or no key in bob's:\n%s\n%s", aw, bw)
	}
	step := featureLegal.FindStringSubmatch(strings.ReplaceAll(aw, "=\n", ""))
	if step == nil {
		t.Fatalf("no legal step in alice's welcome:\n%s", aw)
	}

	r.send(carol, "", "watch", "observe G1")
	confirm := regexp.MustCompile(`(?m)^  observe G1 (\S+)$`).FindStringSubmatch(r.await(carol, "confirm observe"))
	if confirm == nil {
		t.Fatal("no token in carol's confirmation")
	}
	r.send(carol, "", "Re: [herald G1] confirm observe", "observe G1 "+confirm[1])
	r.await(carol, "observe")

	// Alice tries her step, then plays it, by replying to her Reply-To
	// address with no key line.
	r.send(alice, aliceReply[1], "Re: [herald G1] welcome", "preview "+step[1])
	if p := r.await(alice, "preview"); !strings.Contains(p, "A preview only: nothing changed.") {
		t.Errorf("the preview:\n%s", p)
	}
	r.send(alice, aliceReply[1], "Re: [herald G1] welcome", "Hi herald,\n\n"+step[1]+"\n\nThanks!")
	r.await(alice, "move applied")
	if n := r.await(carol, "move 1"); !strings.Contains(n, "alice played move 1:") {
		t.Errorf("the observer's news:\n%s", n)
	}

	// Bob wants mail only on his turn; at 75% of the deadline he gets a
	// reminder (the setup waits for him still).
	r.send(bob, "", "Re: [herald G1]", "key "+bobKey[1]+"\nnotify turn")
	r.await(bob, "notify turn")
	r.advance(37 * time.Hour)
	if _, err := r.svc.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rem := r.await(bob, "reminder: your turn"); !strings.Contains(rem, "A reminder: game G1 waits for your move.") {
		t.Errorf("bob's reminder:\n%s", rem)
	}

	// The host gives bob a new key: the old one no longer works.
	hw := r.sentAll[slices.IndexFunc(r.sentAll, func(s string) bool { return strings.HasPrefix(s, hostAddr+"\n") })]
	hostKey := hostKeyLine.FindStringSubmatch(hw)
	if hostKey == nil {
		t.Fatalf("no host key in the host's confirmation:\n%s", hw)
	}
	r.send(hostAddr, "", "Re: [herald G1]", "key "+hostKey[1]+"\nreplace bob by "+bob)
	nw := r.await(bob, "welcome")
	newKey := featureKey.FindStringSubmatch(nw)
	if newKey == nil || newKey[1] == bobKey[1] {
		t.Fatalf("bob's new welcome has no new key:\n%s", nw)
	}
	r.send(bob, "", "Re: [herald G1]", "key "+bobKey[1]+"\nshow")
	r.await(bob, "mail not authenticated")
	r.send(bob, "", "Re: [herald G1]", "key "+newKey[1]+"\nshow")
	shown := r.await(bob, "show")

	// Bob keeps his turn (the setup), then wants a daily digest; alice
	// goes on vacation, and everyone is told.
	bobKeyNow := newKey[1]
	bstep := featureLegal.FindStringSubmatch(strings.ReplaceAll(shown, "=\n", ""))
	if bstep == nil {
		t.Fatalf("no legal step in bob's show:\n%s", shown)
	}
	r.send(bob, "", "Re: [herald G1]", "key "+bobKeyNow+"\n"+bstep[1])
	r.await(bob, "move applied")
	r.send(bob, "", "Re: [herald G1]", "key "+bobKeyNow+"\nnotify digest")
	r.await(bob, "notify digest")
	r.send(alice, aliceReply[1], "Re: [herald G1]", "vacation 2d")
	r.await(alice, "vacation")
	if v := r.await(bob, "alice is away"); !strings.Contains(v, "alice is away until") {
		t.Errorf("bob's news of alice's vacation:\n%s", v)
	}

	// Undo: alice asks, bob refuses; alice asks again, bob agrees.
	r.send(alice, aliceReply[1], "Re: [herald G1]", "undo")
	r.await(alice, "undo asked")
	r.await(bob, "undo asked by alice")
	r.send(bob, "", "Re: [herald G1]", "key "+bobKeyNow+"\nundo refuse")
	r.await(alice, "undo refused")
	r.send(alice, aliceReply[1], "Re: [herald G1]", "undo")
	r.await(bob, "undo asked by alice")
	r.send(bob, "", "Re: [herald G1]", "key "+bobKeyNow+"\nundo accept")
	if tb := r.await(alice, "moves taken back"); !strings.Contains(tb, "is taken back") && !strings.Contains(tb, "are taken back") {
		t.Errorf("alice's news of the take-back:\n%s", tb)
	}
	r.await(bob, "moves taken back")
	// Alice plays her step again; bob, on a digest, is not mailed now.
	r.send(alice, aliceReply[1], "Re: [herald G1] welcome", step[1])
	r.await(alice, "move applied")

	// A day on, bob's digest comes, with alice's move.
	r.advance(25 * time.Hour)
	if _, err := r.svc.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := r.await(bob, "digest"); !strings.Contains(d, "Your daily digest of game G1") || !strings.Contains(d, "alice") {
		t.Errorf("bob's digest:\n%s", d)
	}

	// Leaks: no mail holds a key or token of someone else's.
	secrets := map[string][]string{alice: {aliceReply[1]}, bob: {bobKey[1], newKey[1]}, hostAddr: {hostKey[1]}}
	for _, m := range r.sentAll {
		to, raw, _ := strings.Cut(m, "\n")
		for owner, ss := range secrets {
			for _, s := range ss {
				if owner != to && strings.Contains(raw, s) {
					t.Errorf("a mail to %s holds %s's secret %s", to, owner, s)
				}
			}
		}
	}
}

// TestHostFeaturesEmbedded plays hostFeatures on the embedded servers.
func TestHostFeaturesEmbedded(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := embeddedLocal(t.TempDir(), "127.0.0.1:0", "127.0.0.1:0", LocalAccount{Address: "herald@herald.local", Password: "pw"}, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, a := range []string{"host@herald.local", "alice@herald.local", "bob@herald.local", "carol@herald.local"} {
		if err := srv.AddAccount(a, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	r := &featureRig{t: t, imap: srv.IMAPAddr(), smtp: srv.SMTPAddr(), herald: "herald@herald.local",
		password: func(string) string { return "pw" }, clock: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), seen: map[string]int{}}
	r.start(ctx, "pw")
	hostFeatures(t, r, "host@herald.local", "alice@herald.local", "bob@herald.local", "carol@herald.local")
}

// testRealmailHostFeatures plays hostFeatures on ../shared/realmail, whose
// Postfix delivers herald+g1.TOKEN@herald.test to herald's mailbox.
func testRealmailHostFeatures(t *testing.T) {
	needRealmail(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := &featureRig{t: t, imap: realIMAP, smtp: realSMTP, herald: "herald@herald.test",
		password: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" },
		clock:    time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), seen: map[string]int{}}
	r.start(ctx, "herald-pw")
	hostFeatures(t, r, "dave@herald.test", "alice@herald.test", "bob@herald.test", "carol@herald.test")
}
