package mail

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator/host"
)

func TestParseRate(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Rate
		err  string
	}{
		{"100/h", Rate{100, time.Hour}, ""},
		{"30/min", Rate{30, time.Minute}, ""},
		{" 2000 / d ", Rate{2000, 24 * time.Hour}, ""},
		{"10000/day", Rate{10000, 24 * time.Hour}, ""},
		{"5/S", Rate{5, time.Second}, ""},
		{"", Rate{}, ""},
		{"100", Rate{}, "expected mails/unit"},
		{"0/h", Rate{}, "above 0"},
		{"x/h", Rate{}, `"x" is not a number`},
		{"100/week", Rate{}, `unknown unit "week"`},
		{"2000000/d", Rate{}, "more than a million"},
	} {
		got, err := ParseRate(tt.in)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("ParseRate(%q) error = %v, want %q", tt.in, err, tt.err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseRate(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if tt.err == "" && tt.in != "" {
			if back, _ := ParseRate(got.String()); back != got {
				t.Errorf("ParseRate(%q).String() = %q reads back as %v", tt.in, got.String(), back)
			}
		}
	}
}

// TestPacer: a sliding window of sends, and a backoff that doubles while
// the server keeps asking and starts again after a mail goes.
func TestPacer(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	p := &pacer{rate: Rate{3, time.Hour}}
	if b := p.budget(t0); b != 3 {
		t.Fatalf("budget = %d, want 3", b)
	}
	for i, at := range []time.Duration{0, 10 * time.Minute, 20 * time.Minute} {
		if !p.take(t0.Add(at)) {
			t.Fatalf("send %d refused", i+1)
		}
	}
	if p.take(t0.Add(30*time.Minute)) || p.budget(t0.Add(30*time.Minute)) != 0 {
		t.Errorf("a fourth send within the hour went")
	}
	if got := p.next(t0.Add(30 * time.Minute)); !got.Equal(t0.Add(time.Hour)) {
		t.Errorf("next = %v, want an hour after the first send", got)
	}
	if b := p.budget(t0.Add(65 * time.Minute)); b != 1 {
		t.Errorf("budget after the first send left the window = %d, want 1", b)
	}
	if !p.take(t0.Add(65*time.Minute)) || p.take(t0.Add(66*time.Minute)) {
		t.Errorf("the window did not slide by one")
	}

	q := &pacer{}
	now := t0
	for i, want := range []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute} {
		until := q.throttle(now)
		if until.Sub(now) != want {
			t.Errorf("throttle %d: pause %v, want %v", i+1, until.Sub(now), want)
		}
		if q.budget(until.Add(-time.Nanosecond)) != 0 || q.take(until.Add(-time.Nanosecond)) || q.budget(until) == 0 {
			t.Errorf("throttle %d: sends not held until %v", i+1, until)
		}
		now = until
	}
	for range 10 {
		now = q.throttle(now)
	}
	until := q.throttle(now)
	if until.Sub(now) != throttleMax {
		t.Errorf("the backoff is not capped: %v", until.Sub(now))
	}
	if again := q.throttle(now.Add(time.Minute)); !again.Equal(until) {
		t.Errorf("a 4xx during a pause moved it from %v to %v", until, again)
	}
	now = until
	q.accepted()
	if until := q.throttle(now); until.Sub(now) != throttleFirst {
		t.Errorf("after a mail went, the backoff starts at %v, want %v", until.Sub(now), throttleFirst)
	}
}

// scriptSMTP is an SMTP server whose answer to each recipient a test
// chooses.
type scriptSMTP struct {
	mu     sync.Mutex
	answer func(to string) error // nil: accept
	got    []string              // recipients of the mails accepted, in order
}

func (s *scriptSMTP) NewSession(*smtp.Conn) (smtp.Session, error) { return &scriptSession{srv: s}, nil }

type scriptSession struct {
	srv *scriptSMTP
	to  string
}

func (s *scriptSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *scriptSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if pass != "pw" {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication credentials invalid"}
		}
		return nil
	}), nil
}
func (s *scriptSession) Mail(from string, _ *smtp.MailOptions) error {
	s.srv.mu.Lock()
	answer := s.srv.answer
	s.srv.mu.Unlock()
	if answer != nil {
		return answer("from:" + from)
	}
	return nil
}
func (s *scriptSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.srv.mu.Lock()
	answer := s.srv.answer
	s.srv.mu.Unlock()
	if answer != nil {
		if err := answer(to); err != nil {
			return err
		}
	}
	s.to = to
	return nil
}
func (s *scriptSession) Data(r io.Reader) error {
	io.Copy(io.Discard, r)
	s.srv.mu.Lock()
	s.srv.got = append(s.srv.got, s.to)
	s.srv.mu.Unlock()
	return nil
}
func (s *scriptSession) Reset()        {}
func (s *scriptSession) Logout() error { return nil }

func (s *scriptSMTP) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	got := s.got
	s.got = nil
	return got
}

func (s *scriptSMTP) set(answer func(string) error) {
	s.mu.Lock()
	s.answer = answer
	s.mu.Unlock()
}

func startScript(t *testing.T) (*scriptSMTP, string) {
	t.Helper()
	s := &scriptSMTP{}
	return s, serveSMTP(t, s)
}

// paceRig is a service with an outbox on a script server and a clock the
// test moves.
type paceRig struct {
	t   *testing.T
	f   *fixture
	srv *scriptSMTP
	out *Outbox
	now time.Time
	n   int
}

func newPaceRig(t *testing.T, rate Rate) *paceRig {
	f := newFixture(t)
	srv, addr := startScript(t)
	r := &paceRig{t: t, f: f, srv: srv, now: f.clock}
	r.out = NewOutbox(OutboxConfig{Server: Server{Addr: addr, Security: Plain}, Rate: rate}, f.svc)
	r.out.now = func() time.Time { return r.now }
	return r
}

// queue queues one mail to each of to, about game (0 for none), as one
// step at the rig's clock.
func (r *paceRig) queue(game int64, to ...string) {
	r.t.Helper()
	r.n++
	ctx := context.Background()
	err := r.f.svc.host.Do(ctx, host.Intake{MessageID: fmt.Sprintf("step-%d", r.n), BodyHash: "x", Sender: "test", Received: r.now}, func(s *host.Session) error {
		for _, a := range to {
			if err := r.f.svc.queue(ctx, s.Tx(), outMail{To: a, Subject: fmt.Sprintf("step %d", r.n), Body: "hello"}, game); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
}

// send runs a round of the outbox and returns the recipients the server
// got, in order.
func (r *paceRig) send() []string {
	r.t.Helper()
	if _, err := r.out.SendDue(context.Background()); err != nil {
		r.t.Fatal(err)
	}
	return r.srv.take()
}

// TestOutboxPace: no more than the rate goes in any window; the rest
// waits, in order, for the window to move.
func TestOutboxPace(t *testing.T) {
	r := newPaceRig(t, Rate{2, time.Hour})
	r.queue(0, "a@x.test", "b@x.test", "c@x.test", "d@x.test", "e@x.test")
	if got := r.send(); !sameSet(got, "a@x.test", "b@x.test") {
		t.Fatalf("first round sent %v, want a and b", got)
	}
	r.now = r.now.Add(59 * time.Minute)
	if got := r.send(); len(got) != 0 {
		t.Fatalf("within the hour sent %v", got)
	}
	r.now = r.now.Add(time.Minute)
	if got := r.send(); !sameSet(got, "c@x.test", "d@x.test") {
		t.Fatalf("an hour later sent %v, want c and d", got)
	}
	r.now = r.now.Add(time.Hour)
	if got := r.send(); strings.Join(got, " ") != "e@x.test" {
		t.Fatalf("two hours later sent %v, want e", got)
	}
}

// TestOutboxBackoff: a 4xx pauses every mail, not only the one refused,
// for a pause that doubles while the server keeps answering so; then the
// mails go, in order.
func TestOutboxBackoff(t *testing.T) {
	r := newPaceRig(t, Rate{})
	busy := &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Try again later"}
	r.srv.set(func(string) error { return busy })
	r.queue(0, "a@x.test")
	r.queue(0, "b@x.test")
	if got := r.send(); len(got) != 0 {
		t.Fatalf("sent %v to a busy server", got)
	}
	r.srv.set(nil)
	r.now = r.now.Add(throttleFirst - time.Second)
	if got := r.send(); len(got) != 0 {
		t.Fatalf("sent %v during the pause", got)
	}
	r.now = r.now.Add(time.Second)
	r.srv.set(func(string) error { return busy }) // still busy: the pause doubles
	if got := r.send(); len(got) != 0 {
		t.Fatalf("sent %v to a busy server", got)
	}
	r.srv.set(nil)
	r.now = r.now.Add(2*throttleFirst - time.Second)
	if got := r.send(); len(got) != 0 {
		t.Fatalf("sent %v during the doubled pause", got)
	}
	r.now = r.now.Add(time.Hour)
	if got := r.send(); !sameSet(got, "a@x.test", "b@x.test") {
		t.Fatalf("after the pause sent %v, want a and b", got)
	}
	if list, _ := r.f.st.SetAsideList(context.Background()); len(list) != 0 {
		t.Errorf("a mail was set aside for a 4xx: %+v", list)
	}
}

// TestOutboxRefused: a 5xx sets the mail aside at once, with the server's
// reason, and its game's host is told which address failed and why, once;
// the game's later mails go; a quota's 5xx only pauses.
func TestOutboxRefused(t *testing.T) {
	r := newPaceRig(t, Rate{})
	r.f.start()
	r.f.sent()
	r.now = r.f.clock.Add(time.Second)
	if got := r.send(); len(got) != 3 {
		t.Fatalf("sent %v, want the three welcomes", got)
	}
	r.srv.set(func(to string) error {
		if to == "from:herald@herald.test" {
			return nil
		}
		if to == "alice@herald.test" {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Recipient address rejected: Access denied"}
		}
		return nil
	})
	r.queue(1, "alice@herald.test", "bob@herald.test")
	r.now = r.now.Add(time.Second)
	r.queue(1, "alice@herald.test", "bob@herald.test")
	got := r.send()
	if strings.Join(got, " ") != "bob@herald.test bob@herald.test" {
		t.Errorf("sent %v, want bob's two mails (alice's refused)", got)
	}
	list, err := r.f.st.SetAsideList(context.Background())
	if err != nil || len(list) != 2 || list[0].Party != "alice@herald.test" || !strings.Contains(list[0].Reason, "Access denied") {
		t.Errorf("set aside: %+v, %v; want alice's two mails with the server's reason", list, err)
	}
	due, _ := r.f.st.Due(context.Background(), r.now.Add(time.Hour), 1000)
	if len(due) != 1 || due[0].Recipient != "host@herald.test" {
		t.Fatalf("queued %+v, want one notice to the host", due)
	}
	notice, err := Extract(strings.NewReader(string(r.f.render(due[0]))), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mail to alice@herald.test refused", "alice (alice@herald.test)", "550", "Access denied", "herald failed"} {
		if !strings.Contains(notice.Subject+"\n"+notice.Body, want) {
			t.Errorf("the host's notice lacks %q:\n%s\n%s", want, notice.Subject, notice.Body)
		}
	}
	if got := r.send(); strings.Join(got, " ") != "host@herald.test" {
		t.Fatalf("then sent %v, want the notice to the host alone", got)
	}
	r.queue(1, "alice@herald.test")
	if got := r.send(); len(got) != 0 {
		t.Errorf("a third refusal to alice told the host again, or sent: %v", got)
	}

	// A quota spent is no refusal of the mail: it waits.
	r.srv.set(func(to string) error {
		if strings.HasPrefix(to, "from:") {
			return nil
		}
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 4, 5}, Message: "Daily user sending limit exceeded"}
	})
	r.queue(1, "bob@herald.test")
	if got := r.send(); len(got) != 0 {
		t.Fatalf("sent %v over a quota", got)
	}
	if list, _ := r.f.st.SetAsideList(context.Background()); len(list) != 3 {
		t.Errorf("set aside %d mails, want alice's three; a quota set one aside", len(list))
	}
	r.srv.set(nil)
	r.now = r.now.Add(time.Hour)
	if got := r.send(); strings.Join(got, " ") != "bob@herald.test" {
		t.Errorf("after the quota's pause sent %v, want bob's mail", got)
	}
}

// TestOutboxGameOrder: a mail of a game that cannot go holds the game's
// later mails, to every recipient, across the outbox's connections and
// across rounds; another game's mails go.
func TestOutboxGameOrder(t *testing.T) {
	r := newPaceRig(t, Rate{})
	failing := true
	r.out.ensure = func(addr string) error {
		if addr == "a@x.test" && failing {
			return fmt.Errorf("the mailbox of %s cannot be opened", addr)
		}
		return nil
	}
	r.queue(7, "a@x.test", "b@x.test")
	r.now = r.now.Add(time.Second)
	r.queue(7, "b@x.test", "c@x.test", "d@x.test")
	r.queue(8, "c@x.test")
	// c's mail of game 8 need not wait for c's of game 7.
	got := r.send()
	if !sameSet(got, "b@x.test", "c@x.test") {
		t.Fatalf("sent %v; want b's mail of the first step and c's of game 8, none of game 7's second step", got)
	}
	// a's mail waits for its next attempt (5 s on); the second step's, due
	// at once, wait for it (the store's Claim).
	r.now = r.now.Add(2 * time.Second)
	if got := r.send(); len(got) != 0 {
		t.Fatalf("sent %v while a's mail waits to be tried again", got)
	}
	r.now = r.now.Add(time.Minute)
	if got := r.send(); len(got) != 0 {
		t.Fatalf("sent %v while a's mail still fails", got)
	}
	failing = false
	r.now = r.now.Add(time.Hour)
	got = r.send()
	if len(got) != 4 || got[0] != "a@x.test" || !sameSet(got[1:], "b@x.test", "c@x.test", "d@x.test") {
		t.Fatalf("once a's mail went, sent %v; want a's first, then the second step's three", got)
	}
}

// sameSet reports whether got holds want, in any order.
func sameSet(got []string, want ...string) bool {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

// TestOutboxLoginRefused: a wrong password's 535 is no refusal of the
// mails: none is set aside, and they go once the login works.
func TestOutboxLoginRefused(t *testing.T) {
	r := newPaceRig(t, Rate{})
	r.out.cfg.Server.Username, r.out.cfg.Server.Password = "herald", "wrong"
	r.queue(3, "a@x.test", "b@x.test")
	if _, err := r.out.SendDue(context.Background()); err == nil || !strings.Contains(err.Error(), "535") {
		t.Errorf("SendDue with a wrong password: %v", err)
	}
	if got := r.srv.take(); len(got) != 0 {
		t.Fatalf("sent %v with a wrong password", got)
	}
	if list, _ := r.f.st.SetAsideList(context.Background()); len(list) != 0 {
		t.Fatalf("a login refused set mails aside: %+v", list)
	}
	r.out.cfg.Server.Password = "pw"
	r.now = r.now.Add(time.Hour)
	if got := r.send(); !sameSet(got, "a@x.test", "b@x.test") {
		t.Errorf("with the right password sent %v", got)
	}
}

// TestOutboxSenderRefused: a 5xx to MAIL FROM refuses herald's address
// (a provider that will not send as it), not the mail: nothing is set
// aside, and the mails go once the server takes the sender.
func TestOutboxSenderRefused(t *testing.T) {
	r := newPaceRig(t, Rate{})
	r.srv.set(func(to string) error {
		if strings.HasPrefix(to, "from:") {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 60}, Message: "SendAsDenied; not allowed to send as herald@herald.test"}
		}
		return nil
	})
	r.queue(3, "a@x.test")
	if got := r.send(); len(got) != 0 {
		t.Fatalf("sent %v while the sender is refused", got)
	}
	if list, _ := r.f.st.SetAsideList(context.Background()); len(list) != 0 {
		t.Fatalf("a refused sender set mails aside: %+v", list)
	}
	r.srv.set(nil)
	r.now = r.now.Add(time.Hour)
	if got := r.send(); !sameSet(got, "a@x.test") {
		t.Errorf("once the sender is taken, sent %v", got)
	}
}
