package mail

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/raubritter"
)

// inboxWatch follows the number of mails in an account's INBOX with IDLE,
// as a mail client waiting for news does.
type inboxWatch struct {
	c     *imapclient.Client
	n     atomic.Uint32
	moved chan struct{}
}

func watchInbox(b testing.TB, addr, user, pw string) *inboxWatch {
	b.Helper()
	w := &inboxWatch{moved: make(chan struct{}, 1)}
	c, err := imapclient.DialInsecure(addr, &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					w.n.Store(*d.NumMessages)
					select {
					case w.moved <- struct{}{}:
					default:
					}
				}
			},
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	if err := c.Login(user, pw).Wait(); err != nil {
		b.Fatal(err)
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		b.Fatal(err)
	}
	w.n.Store(sel.NumMessages)
	if _, err := c.Idle(); err != nil {
		b.Fatal(err)
	}
	w.c = c
	return w
}

// wait blocks until the INBOX holds at least n mails.
func (w *inboxWatch) wait(b testing.TB, n uint32) {
	if !w.waitFor(n) {
		b.Fatalf("the INBOX holds %d mails after 30 s, want %d", w.n.Load(), n)
	}
}

// waitFor waits up to 30 s for the INBOX to hold at least n mails, and
// reports whether it does.
func (w *inboxWatch) waitFor(n uint32) bool {
	deadline := time.After(30 * time.Second)
	for w.n.Load() < n {
		select {
		case <-w.moved:
		case <-deadline:
			return false
		}
	}
	return true
}

// BenchmarkTurnLatency measures how long a turn takes on the embedded
// servers, as players see it: from the move mail appended to herald's
// INBOX until every player's reply sits in their INBOX (seen by an idling
// client). Beside it, in the same run, a bare delivery: one mail over SMTP
// to a player's INBOX, timed the same way. It reports the turn (turn-ms),
// herald's part of it, from the commit of the move to the replies in the
// INBOXes (herald-ms), the bare delivery (bare-ms), and the ratios of
// herald's part and of the turn to the bare delivery (ratio, turn-ratio;
// the target is a ratio of at most 2). Issue 15, item 22.
func BenchmarkTurnLatency(b *testing.B) {
	benchTurnLatency(b, 2)
}

// BenchmarkTurnLatency4 is BenchmarkTurnLatency with four players: four
// replies per turn.
func BenchmarkTurnLatency4(b *testing.B) {
	benchTurnLatency(b, 4)
}

// latencyRig is a running herald and its players' accounts, for
// benchTurnLatency.
type latencyRig struct {
	svc                *Service
	st                 *store.Store
	kick               func() // wakes the outbox
	committed          *atomic.Int64
	imapAddr, smtpAddr string
	herald, heraldPW   string
	host               string
	players            []string // addresses
	playerPW           func(string) string
	// keys maps the hash of each key the service drew to the key: the
	// store keeps only hashes.
	keysMu sync.Mutex
	keys   map[string]string
}

// newKey draws a key and remembers it.
func (rig *latencyRig) newKey() string {
	k := randomPassword()
	rig.keysMu.Lock()
	defer rig.keysMu.Unlock()
	if rig.keys == nil {
		rig.keys = map[string]string{}
	}
	rig.keys[host.HashKey(k)] = k
	return k
}

// key returns the key whose hash the store keeps.
func (rig *latencyRig) key(hash string) string {
	rig.keysMu.Lock()
	defer rig.keysMu.Unlock()
	return rig.keys[hash]
}

// embeddedRig runs herald on its embedded servers, with players p1@... pN@.
func embeddedRig(b *testing.B, players int) *latencyRig {
	rig := &latencyRig{committed: new(atomic.Int64), host: "host@herald.local", playerPW: func(string) string { return "pw" }}
	r, err := Start(context.Background(), RunConfig{Local: embeddedLocal, OpenStore: openSQLite, Dir: b.TempDir(), Registry: adjudicator.NewRegistry(raubritter.Game), Logger: slog.New(slog.DiscardHandler),
		PlayerPassword: rig.playerPW, NewSeed: func() string { return "latency" }, NewKey: rig.newKey,
		IMAP: IntakeConfig{Handled: func(Outcome) { rig.committed.Store(time.Now().UnixNano()) }}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	rig.svc, rig.st, rig.kick = r.Service, r.Store.(*store.Store), r.Outbox.Kick
	rig.imapAddr, rig.smtpAddr = r.Embedded.IMAPAddr(), r.Embedded.SMTPAddr()
	rig.herald, rig.heraldPW = r.Address, r.Password
	for i := range players {
		rig.players = append(rig.players, fmt.Sprintf("p%d@herald.local", i+1))
	}
	for _, a := range append([]string{rig.host}, rig.players...) {
		if err := r.Embedded.AddAccount(a, "pw"); err != nil {
			b.Fatal(err)
		}
	}
	return rig
}

// BenchmarkRealmailTurnLatency is BenchmarkTurnLatency on the real Postfix
// and Dovecot of ../shared/realmail:
// herald reads Dovecot over IMAP and sends through Postfix with SMTP AUTH;
// the bare delivery goes through Postfix to Dovecot too.
func BenchmarkRealmailTurnLatency(b *testing.B) {
	needRealmail(b)
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "herald.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	rig := &latencyRig{committed: new(atomic.Int64), st: st, imapAddr: realIMAP, smtpAddr: realSMTP,
		herald: "herald@herald.test", heraldPW: "herald-pw", host: "carol@herald.test",
		players:  []string{"alice@herald.test", "bob@herald.test"},
		playerPW: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" }}
	rig.svc, err = NewService(Config{Address: rig.herald, Registry: adjudicator.NewRegistry(raubritter.Game), Store: st,
		NewSeed: func() string { return "latency" }, NewKey: rig.newKey})
	if err != nil {
		b.Fatal(err)
	}
	out := NewOutbox(OutboxConfig{Server: Server{Addr: realSMTP, Security: Plain, Username: rig.herald, Password: rig.heraldPW}}, rig.svc)
	in := NewIntake(IntakeConfig{Server: Server{Addr: realIMAP, Security: Plain, Username: rig.herald, Password: rig.heraldPW},
		Handled: func(Outcome) { rig.committed.Store(time.Now().UnixNano()); out.Kick() }}, rig.svc)
	rig.kick = out.Kick
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	go func() { done <- in.Run(ctx) }()
	go func() { done <- out.Run(ctx) }()
	b.Cleanup(func() { cancel(); <-done; <-done })
	benchRig(b, rig)
}

func benchTurnLatency(b *testing.B, players int) {
	benchRig(b, embeddedRig(b, players))
}

// benchRig is the loop of the turn latency benchmarks.
func benchRig(b *testing.B, rig *latencyRig) {
	ctx := context.Background()
	reg := rig.svc.cfg.Registry
	inbox, err := imapclient.DialInsecure(rig.imapAddr, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer inbox.Close()
	if err := inbox.Login(rig.herald, rig.heraldPW).Wait(); err != nil {
		b.Fatal(err)
	}
	self, err := adjudicator.SelfPlay(raubritter.Game, reg, len(rig.players), "latency", nil, func() string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	var (
		watches []*inboxWatch
		game    int64
		keys    = map[string]string{}
		next    = len(self.Record.Moves) // start a game first
		seq     int
	)
	newGame := func() {
		if watches == nil {
			for _, a := range rig.players {
				watches = append(watches, watchInbox(b, rig.imapAddr, a, rig.playerPW(a)))
			}
		}
		want := make([]uint32, len(watches))
		for i, w := range watches {
			want[i] = w.n.Load() + 1 // the welcome mail
		}
		game, err = rig.svc.CreateGame(ctx, rig.host, "raubritter", slices.Clone(rig.players), nil, host.Timing{})
		if err != nil {
			b.Fatal(err)
		}
		rig.kick()
		g, err := rig.st.Game(ctx, game)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range g.Players {
			keys[p.Address] = rig.key(p.Secret)
		}
		for i, w := range watches {
			w.wait(b, want[i])
		}
		next = 0
	}
	var turn, herald, bare time.Duration
	for b.Loop() {
		if next == len(self.Record.Moves) {
			b.StopTimer()
			newGame()
			b.StartTimer()
		}
		mv := self.Record.Moves[next]
		next++
		mover := int(mv.Player[1] - '1')
		from := rig.players[mover]
		seq++
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: [herald G%d] your turn\r\nMessage-ID: <turn-%d-%d@bench>\r\nDate: Mon, 23 Nov 2026 09:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nkey %s\r\n%s\r\n",
			from, rig.herald, game, seq, time.Now().UnixNano(), keys[from], strings.ReplaceAll(mv.Text, "\n", "\r\n"))
		want := make([]uint32, len(watches))
		for i, w := range watches {
			want[i] = w.n.Load() + 1
		}
		start := time.Now()
		appendMail(b, inbox, []byte(raw))
		for i, w := range watches {
			if !w.waitFor(want[i]) {
				pending, _ := rig.st.Pending(ctx)
				st, _ := inbox.Status("INBOX", &imap.StatusOptions{NumMessages: true}).Wait()
				b.Fatalf("turn %d: %s's INBOX holds %d mails after 30 s, want %d; herald's INBOX holds %d, its outbox %d unsent",
					seq, rig.players[i], w.n.Load(), want[i], *st.NumMessages, pending)
			}
		}
		turn += time.Since(start)
		herald += time.Since(time.Unix(0, rig.committed.Load()))

		// A bare delivery to the mover's INBOX, in the same run.
		w := watches[mover]
		n := w.n.Load() + 1
		start = time.Now()
		c, err := smtp.Dial(rig.smtpAddr) // a connection per delivery, as herald's outbox
		if err != nil {
			b.Fatal(err)
		}
		if err := c.SendMail(rig.host, []string{from},
			strings.NewReader(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: hello\r\nMessage-ID: <bare-%d-%d@bench>\r\n\r\nhello\r\n", rig.host, from, seq, time.Now().UnixNano()))); err != nil {
			b.Fatal(err)
		}
		c.Quit()
		w.wait(b, n)
		bare += time.Since(start)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	b.ReportMetric(ms(turn), "turn-ms")
	b.ReportMetric(ms(herald), "herald-ms")
	b.ReportMetric(ms(bare), "bare-ms")
	b.ReportMetric(float64(herald)/float64(bare), "ratio")
	b.ReportMetric(float64(turn)/float64(bare), "turn-ratio")
}
