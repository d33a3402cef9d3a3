package mail

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
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
	deadline := time.After(30 * time.Second)
	for w.n.Load() < n {
		select {
		case <-w.moved:
		case <-deadline:
			b.Fatalf("the INBOX holds %d mails after 30 s, want %d", w.n.Load(), n)
		}
	}
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

func benchTurnLatency(b *testing.B, players int) {
	ctx := context.Background()
	reg := adjudicator.NewRegistry(raubritter.Game)
	var committed atomic.Int64 // when the last mail's batch committed
	r, err := Start(ctx, RunConfig{Dir: b.TempDir(), Registry: reg, Logger: slog.New(slog.DiscardHandler),
		PlayerPassword: func(string) string { return "pw" }, NewSeed: func() string { return "latency" },
		IMAP: IntakeConfig{Handled: func(Outcome) { committed.Store(time.Now().UnixNano()) }}})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	addrs := make([]string, players)
	for i := range addrs {
		addrs[i] = fmt.Sprintf("p%d@herald.local", i+1)
	}
	inbox, err := imapclient.DialInsecure(r.Embedded.IMAPAddr(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer inbox.Close()
	if err := inbox.Login(r.Address, r.Password).Wait(); err != nil {
		b.Fatal(err)
	}
	self, err := adjudicator.SelfPlay(raubritter.Game, reg, players, "latency", nil, func() string { return "" })
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
		game, err = r.Service.CreateGame(ctx, "host@herald.local", "raubritter", append([]string(nil), addrs...), nil)
		if err != nil {
			b.Fatal(err)
		}
		r.Outbox.Kick()
		g, err := r.Store.Game(ctx, game)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range g.Players {
			keys[p.Address] = p.Secret
		}
		if watches == nil {
			for _, a := range addrs {
				watches = append(watches, watchInbox(b, r.Embedded.IMAPAddr(), a, "pw"))
			}
		}
		for _, w := range watches {
			w.wait(b, uint32(game)) // the welcome mail of each game
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
		from := addrs[int(mv.Player[1]-'1')]
		seq++
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: [herald G%d] your turn\r\nMessage-ID: <turn-%d@bench>\r\nDate: Mon, 23 Nov 2026 09:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nkey %s\r\n%s\r\n",
			from, r.Address, game, seq, keys[from], strings.ReplaceAll(mv.Text, "\n", "\r\n"))
		want := make([]uint32, len(watches))
		for i, w := range watches {
			want[i] = w.n.Load() + 1
		}
		start := time.Now()
		appendMail(b, inbox, []byte(raw))
		for i, w := range watches {
			w.wait(b, want[i])
		}
		turn += time.Since(start)
		herald += time.Since(time.Unix(0, committed.Load()))

		// A bare delivery to the mover's INBOX, in the same run.
		w := watches[int(mv.Player[1]-'1')]
		n := w.n.Load() + 1
		start = time.Now()
		c, err := smtp.Dial(r.Embedded.SMTPAddr()) // a connection per delivery, as herald's outbox
		if err != nil {
			b.Fatal(err)
		}
		if err := c.SendMail("host@herald.local", []string{from},
			strings.NewReader(fmt.Sprintf("From: host@herald.local\r\nTo: %s\r\nSubject: hello\r\nMessage-ID: <bare-%d@bench>\r\n\r\nhello\r\n", from, seq))); err != nil {
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
