package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/raubritter"
)

// memIMAP starts go-imap's in-memory server on loopback with herald's
// account, MOVE and UIDPLUS, and returns its address.
func memIMAP(t testing.TB) string {
	t.Helper()
	mem := imapmemserver.New()
	u := imapmemserver.NewUser("herald@herald.test", "pw")
	if err := u.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(u)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapMove: {}, imap.CapUIDPlus: {}, imap.CapIdle: {}},
		InsecureAuth: true,
		Logger:       discardLogger{},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

type discardLogger struct{}

func (discardLogger) Printf(string, ...any) {}

// imapSession logs in to the test server as herald.
func imapSession(t testing.TB, addr string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login("herald@herald.test", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	return c
}

func appendMail(t testing.TB, c *imapclient.Client, raw []byte) {
	t.Helper()
	cmd := c.Append("INBOX", int64(len(raw)), nil)
	cmd.Write(raw)
	cmd.Close()
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, c *imapclient.Client, mailbox string) uint32 {
	t.Helper()
	st, err := c.Status(mailbox, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		return 0
	}
	return *st.NumMessages
}

// smtpSink is an SMTP server that keeps what it receives and can be down.
type smtpSink struct {
	mu   sync.Mutex
	down bool
	got  []string // recipient + "\n" + raw
}

func (s *smtpSink) NewSession(*smtp.Conn) (smtp.Session, error) { return &sinkSession{sink: s}, nil }

type sinkSession struct {
	sink *smtpSink
	to   string
}

func (s *sinkSession) AuthMechanisms() []string                  { return nil }
func (s *sinkSession) Mail(string, *smtp.MailOptions) error      { return s.sink.check() }
func (s *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error { s.to = to; return nil }
func (s *sinkSession) Data(r io.Reader) error {
	b, _ := io.ReadAll(r)
	s.sink.mu.Lock()
	s.sink.got = append(s.sink.got, s.to+"\n"+string(b))
	s.sink.mu.Unlock()
	return nil
}
func (s *sinkSession) Reset()        {}
func (s *sinkSession) Logout() error { return nil }

func (s *smtpSink) check() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "down for maintenance"}
	}
	return nil
}

func (s *smtpSink) mails() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

func startSink(t *testing.T) (*smtpSink, string) {
	t.Helper()
	sink := &smtpSink{}
	srv := smtp.NewServer(sink)
	srv.Domain = "127.0.0.1"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return sink, ln.Addr().String()
}

// TestCrashBetweenSteps stops the intake at each point of processing, as a
// crash would, then runs a fresh intake on the same store and mailbox: the
// move is applied exactly once and every reply is queued exactly once.
func TestCrashBetweenSteps(t *testing.T) {
	for _, point := range []string{"fetched", "committed", "moved"} {
		t.Run(point, func(t *testing.T) {
			f := newFixture(t)
			f.start()
			f.sent()
			addr := memIMAP(t)
			c := imapSession(t, addr)
			move := f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nkeep plain village")
			appendMail(t, c, move)

			cfg := IntakeConfig{Server: Server{Addr: addr, Security: Plain, Username: "herald@herald.test", Password: "pw"}}
			crashed := NewIntake(cfg, f.svc)
			crashed.crash = func(p string) bool { return p == point }
			if err := crashed.session(context.Background()); !errors.Is(err, errCrash) {
				t.Fatalf("session = %v, want the simulated crash", err)
			}

			// Restart: process whatever is left, then stop.
			ctx, cancel := context.WithCancel(context.Background())
			restarted := NewIntake(cfg, f.svc)
			restarted.crash = func(p string) bool {
				if p == "moved" {
					cancel()
				}
				return false
			}
			done := make(chan error, 1)
			go func() { done <- restarted.session(ctx) }()
			deadline := time.After(10 * time.Second)
			for count(t, c, "INBOX") > 0 {
				select {
				case <-deadline:
					t.Fatalf("the mail was never processed after the restart")
				case <-time.After(20 * time.Millisecond):
				}
			}
			cancel()
			<-done

			g, err := f.st.Game(context.Background(), 1)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(g.Record.Moves); n != 1 {
				t.Fatalf("after a crash at %q and a restart the game has %d moves, want 1", point, n)
			}
			if n := count(t, c, "herald/processed"); n != 1 {
				t.Errorf("processed folder holds %d mails, want 1", n)
			}
			got := f.sent()
			if len(got["alice@herald.test"]) != 1 || len(got["bob@herald.test"]) != 1 {
				t.Errorf("replies after the restart: %v, want one each", keysOf(got))
			}
		})
	}
}

// TestOutboxRetries checks that a reply waits while the SMTP server is down
// and goes once it is back, and that a crash between the server's accept and
// the outbox's record sends the mail again rather than losing it.
func TestOutboxRetries(t *testing.T) {
	f := newFixture(t)
	sink, addr := startSink(t)
	sink.down = true
	f.start()
	out := NewOutbox(OutboxConfig{Server: Server{Addr: addr, Security: Plain}}, f.svc)
	ctx := context.Background()
	if n, err := out.SendDue(ctx); n != 0 || err != nil {
		t.Fatalf("SendDue with the server down = %d, %v; want 0 sent, failures recorded", n, err)
	}
	if pending, _ := f.st.Pending(ctx); pending != 3 {
		t.Fatalf("pending = %d after a failed round, want 3", pending)
	}
	if n, _ := out.SendDue(ctx); n != 0 {
		t.Errorf("a failed mail was retried before its backoff")
	}
	sink.mu.Lock()
	sink.down = false
	sink.mu.Unlock()
	f.clock = f.clock.Add(time.Minute)
	out.crash = func(p string) bool { return p == "sent" }
	if _, err := out.SendDue(ctx); !errors.Is(err, errCrash) {
		t.Fatalf("SendDue = %v, want the simulated crash", err)
	}
	out.crash = nil
	n, err := out.SendDue(ctx)
	if err != nil || n != 3 {
		t.Fatalf("SendDue after the restart = %d, %v; want 3", n, err)
	}
	if pending, _ := f.st.Pending(ctx); pending != 0 {
		t.Errorf("pending = %d, want 0", pending)
	}
	mails := sink.mails()
	if len(mails) != 4 {
		t.Fatalf("the server got %d mails, want 4 (3, one of them twice after the crash)", len(mails))
	}
	for _, m := range mails {
		if !strings.Contains(m, "From: \"herald\" <herald@herald.test>") {
			t.Errorf("a mail without herald's From:\n%s", m)
		}
	}
}

// BenchmarkIntake measures processed move mails per second end to end
// (IMAP fetch, extraction, authentication, rules, SQLite commit, replies
// queued, IMAP move) and, on the same mails, the raw IMAP fetch and parse
// rate; it reports both and their ratio (target: at least 0.5).
func BenchmarkIntake(b *testing.B) {
	f := newFixture(b)
	addr := memIMAP(b)
	c := imapSession(b, addr)
	reg := f.svc.cfg.Registry
	// Enough games' worth of legal move mails, in order within each game.
	var mails [][]byte
	for game := 1; len(mails) < b.N; game++ {
		f.start()
		m, err := adjudicator.SelfPlay(raubritter.Game, reg, 2, "fixture", nil, func() string { return "" })
		if err != nil {
			b.Fatal(err)
		}
		who := map[string]string{"p1": "alice@herald.test", "p2": "bob@herald.test"}
		for _, mv := range m.Record.Moves {
			body := fmt.Sprintf("game G%d\nkey %s\n%s", game, f.keys[who[mv.Player]], mv.Text)
			mails = append(mails, f.mail(who[mv.Player], fmt.Sprintf("Re: [herald G%d]", game), body))
		}
	}
	mails = mails[:b.N]
	for _, raw := range mails {
		appendMail(b, c, raw)
	}
	in := NewIntake(IntakeConfig{Server: Server{Addr: addr, Security: Plain, Username: "herald@herald.test", Password: "pw"}}, f.svc)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	handled := 0
	in.crash = func(p string) bool {
		if p == "moved" {
			handled++
			if handled == len(mails) {
				cancel()
			}
		}
		return false
	}
	b.ResetTimer()
	start := time.Now()
	in.session(ctx)
	e2e := time.Since(start)
	b.StopTimer()
	if handled != len(mails) {
		b.Fatalf("handled %d of %d mails", handled, len(mails))
	}
	// The raw rate: fetch and extract the same mails, now in processed.
	if _, err := c.Select("herald/processed", nil).Wait(); err != nil {
		b.Fatal(err)
	}
	start = time.Now()
	for i := 1; i <= len(mails); i++ {
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(imap.SeqSetNum(uint32(i)), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil || len(msgs) != 1 {
			b.Fatalf("raw fetch %d: %v", i, err)
		}
		if _, err := Extract(bytes.NewReader(msgs[0].FindBodySection(section)), nil); err != nil {
			b.Fatal(err)
		}
	}
	raw := time.Since(start)
	e2eRate := float64(len(mails)) / e2e.Seconds()
	rawRate := float64(len(mails)) / raw.Seconds()
	b.ReportMetric(e2eRate, "mails/s")
	b.ReportMetric(rawRate, "raw-mails/s")
	b.ReportMetric(e2eRate/rawRate, "ratio")
}
