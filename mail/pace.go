package mail

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator/host"
)

// Sending limits: a provider caps how many mails an account sends (Gmail
// by the day, Microsoft 365 by the minute and the day) and answers beyond
// the cap with a 4xx ("try again later") or, for a day's quota, a 5xx it
// means for the day. The outbox keeps under a configured rate
// (OutboxConfig.Rate, serve's send-rate), pauses all sending with a
// growing delay when the server answers 4xx or says a quota is used up,
// and sets aside at once a mail the server refuses for good (5xx), telling
// the game's host which address failed and why. The mails of a game keep
// their order: a mail held back holds the later mails of its game.

// Rate is a sending limit: at most N mails in any Per.
type Rate struct {
	N   int
	Per time.Duration
}

// rateUnits are the units ParseRate reads, by name.
var rateUnits = map[string]time.Duration{
	"s": time.Second, "sec": time.Second, "second": time.Second,
	"m": time.Minute, "min": time.Minute, "minute": time.Minute,
	"h": time.Hour, "hour": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour,
}

// ParseRate reads a rate written N/UNIT, like 100/h, 30/min or 2000/d
// (units s, min, h, d, or second, minute, hour, day); "" is no limit (the
// zero Rate).
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Rate{}, nil
	}
	n, unit, ok := strings.Cut(s, "/")
	if !ok {
		return Rate{}, fmt.Errorf("mail: send rate %q: expected mails/unit, like 100/h or 30/min", s)
	}
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || count <= 0 {
		return Rate{}, fmt.Errorf("mail: send rate %q: %q is not a number of mails above 0", s, strings.TrimSpace(n))
	}
	per, ok := rateUnits[strings.ToLower(strings.TrimSpace(unit))]
	if !ok {
		return Rate{}, fmt.Errorf("mail: send rate %q: unknown unit %q; expected s, min, h or d", s, strings.TrimSpace(unit))
	}
	if count > 1_000_000 {
		return Rate{}, fmt.Errorf("mail: send rate %q: more than a million mails per %s; leave the rate out for no limit", s, unit)
	}
	return Rate{N: count, Per: per}, nil
}

// String writes r as ParseRate reads it.
func (r Rate) String() string {
	if r.N == 0 {
		return ""
	}
	for _, u := range []string{"d", "h", "min", "s"} {
		if rateUnits[u] == r.Per {
			return fmt.Sprintf("%d/%s", r.N, u)
		}
	}
	return fmt.Sprintf("%d/%v", r.N, r.Per)
}

// Backoff of the whole outbox after a 4xx answer or a quota: the first
// pause, doubled at each answer in a row, and its cap.
const (
	throttleFirst = 30 * time.Second
	throttleMax   = time.Hour
)

// pacer keeps the outbox under its rate, over a sliding window: a mail
// may go when fewer than Rate.N went in the Rate.Per before. It also holds
// every send while the server asks herald to slow down. Its clock is the
// outbox's: tests drive it.
type pacer struct {
	mu      sync.Mutex
	rate    Rate
	sent    []time.Time // the last rate.N sends, oldest first
	until   time.Time   // no send before, after a 4xx or a quota
	backoff time.Duration
}

// budget returns how many mails may go at now.
func (p *pacer) budget(now time.Time) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Before(p.until) {
		return 0
	}
	if p.rate.N == 0 {
		return maxClaim
	}
	n := p.rate.N
	for _, t := range p.sent {
		if now.Sub(t) < p.rate.Per {
			n--
		}
	}
	return max(n, 0)
}

// take records a send at now and reports whether it may go.
func (p *pacer) take(now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Before(p.until) {
		return false
	}
	if p.rate.N == 0 {
		return true
	}
	if len(p.sent) == p.rate.N {
		if now.Sub(p.sent[0]) < p.rate.Per {
			return false
		}
		p.sent = append(p.sent[:0], p.sent[1:]...)
	}
	p.sent = append(p.sent, now)
	return true
}

// next returns when the next mail may go, at or after now.
func (p *pacer) next(now time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := now
	if p.until.After(t) {
		t = p.until
	}
	if p.rate.N > 0 && len(p.sent) == p.rate.N {
		if free := p.sent[0].Add(p.rate.Per); free.After(t) {
			t = free
		}
	}
	return t
}

// throttle holds every send for the backoff and returns until when. The
// backoff starts at throttleFirst and doubles, up to throttleMax, at each
// pause asked for after the last one ended with no mail accepted since;
// the answers of sends already under way when a pause began do not
// lengthen it.
func (p *pacer) throttle(now time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Before(p.until) {
		return p.until
	}
	if p.backoff == 0 {
		p.backoff = throttleFirst
	} else {
		p.backoff = min(2*p.backoff, throttleMax)
	}
	p.until = now.Add(p.backoff)
	return p.until
}

// accepted records that the server accepted a mail: the next 4xx starts
// the backoff again from throttleFirst.
func (p *pacer) accepted() {
	p.mu.Lock()
	p.backoff = 0
	p.mu.Unlock()
}

// maxClaim is how many mails the outbox claims at once.
const maxClaim = 100

// slowDown reports whether err is the server asking herald to send less:
// any 4xx, and a 5xx that says a sending quota or limit is used up (Gmail
// answers 550 5.4.5 when the day's quota is spent; RFC 3463 X.4.5 is
// "system congestion"), which lifts with time: the mail waits, it is not
// set aside.
func slowDown(err error) bool {
	var se *smtp.SMTPError
	if !errors.As(err, &se) {
		return false
	}
	if se.Code >= 400 && se.Code < 500 {
		return true
	}
	if se.Code < 500 || se.Code >= 600 {
		return false
	}
	if se.EnhancedCode[1] == 4 && se.EnhancedCode[2] == 5 {
		return true
	}
	msg := strings.ToLower(se.Message)
	return strings.Contains(msg, "quota") || strings.Contains(msg, "limit exceeded") || strings.Contains(msg, "rate limit")
}

// refused reports whether err is the server refusing a mail for good: a
// 5xx that is not a quota (slowDown), in answer to the mail itself (a
// connection or login refused, connError, says nothing of the mail).
func refused(err error) bool {
	var se *smtp.SMTPError
	var ce connError
	return !errors.As(err, &ce) && errors.As(err, &se) && se.Code >= 500 && se.Code < 600 && !slowDown(err)
}

// connError is the failure to connect or log in to the SMTP server, or
// its refusal of herald's own address (MAIL FROM), met while sending a
// mail: the mail waits, whatever the server's code (a wrong password's
// 535, or a provider's refusal to send as herald's address, sets no mail
// aside).
type connError struct{ err error }

func (e connError) Error() string { return e.err.Error() }
func (e connError) Unwrap() error { return e.err }

// refusedNotice tells the host of m's game that the server refused m for
// good, once per address and game: its recipient's address fails, and
// why. A mail to the host itself, or about no game, tells no one (the
// log and herald failed have it).
func (o *Outbox) refusedNotice(ctx context.Context, m host.Outgoing, reason error) error {
	if m.GameID == 0 {
		return nil
	}
	g, err := o.store.Game(ctx, m.GameID)
	if err != nil || g == nil {
		return err
	}
	if g.Host == m.Recipient {
		return nil
	}
	who := m.Recipient
	for _, p := range g.Players {
		if p.Address == m.Recipient {
			who = fmt.Sprintf("%s (%s)", p.Name, m.Recipient)
		}
	}
	subject := ""
	if d, err := readDraft(m.Draft); err == nil {
		subject = d.Subject
	}
	now := o.now().UTC()
	body := fmt.Sprintf("herald could not send a mail of game %s to %s:\nthe mail server refused it for good, saying\n\n  %s\n\n"+
		"The mail was %q; it is set aside (herald failed lists it).\n"+
		"If the address is wrong, give the seat to the right one (replace).\n",
		gameTag(g.ID), who, clipText(reason.Error(), 200), clipText(subject, 60))
	in := host.Intake{MessageID: fmt.Sprintf("refused:%s:%s", gameTag(g.ID), m.Recipient), BodyHash: "refused", Sender: m.Recipient, Received: now}
	err = o.svc.host.Do(ctx, in, func(s *host.Session) error {
		s.Tx().SetOutcome(string(SetAside), g.ID)
		return o.svc.queue(ctx, s.Tx(), outMail{To: g.Host, Subject: fmt.Sprintf("[herald %s] mail to %s refused", gameTag(g.ID), m.Recipient),
			References: refs("", g.ID, o.svc.domain), Body: body}, g.ID)
	})
	if errors.Is(err, host.ErrDuplicate) {
		return nil // told before
	}
	return err
}

// gameOrder makes the mails of one game go in order across the outbox's
// connections within a round: a mail waits until the mails of its game
// queued at an earlier step (an earlier incoming mail or tick: an earlier
// Created) are done, and is held when one of them was not sent. The mails
// of one step (a move's news to every player) go side by side.
type gameOrder struct {
	after [][]int         // by index in the round: the mails it waits for
	done  []chan struct{} // closed when the mail is done
	state []atomic.Int32  // orderSent, orderFailed or orderLeft once done
}

// The states of a mail done in a round.
const (
	orderSent   = 1 // sent, or set aside: the next may go
	orderFailed = 2 // failed: the next waits (MarkFailed)
	orderLeft   = 3 // not tried (paced): the next is left claimed too
)

// newGameOrder returns the order of due, oldest first.
func newGameOrder(due []host.Outgoing) *gameOrder {
	g := &gameOrder{after: make([][]int, len(due)), done: make([]chan struct{}, len(due)), state: make([]atomic.Int32, len(due))}
	type steps struct {
		created   time.Time
		prev, cur []int
	}
	byGame := map[int64]*steps{}
	for i, m := range due {
		g.done[i] = make(chan struct{})
		if m.GameID == 0 {
			continue
		}
		s := byGame[m.GameID]
		if s == nil {
			s = &steps{created: m.Created}
			byGame[m.GameID] = s
		}
		if !m.Created.Equal(s.created) {
			s.prev, s.cur, s.created = s.cur, nil, m.Created
		}
		g.after[i] = s.prev
		s.cur = append(s.cur, i)
	}
	return g
}

// wait waits for the mails i waits for and returns the worst of their
// states: orderSent when every one went.
func (g *gameOrder) wait(ctx context.Context, i int) int32 {
	worst := int32(orderSent)
	for _, j := range g.after[i] {
		select {
		case <-g.done[j]:
		case <-ctx.Done():
			return orderLeft
		}
		worst = max(worst, g.state[j].Load())
	}
	return worst
}

// finish records that mail i is done, in state.
func (g *gameOrder) finish(i int, state int32) {
	if g.state[i].CompareAndSwap(0, state) {
		close(g.done[i])
	}
}

// holds are the mails held back in a lane's round, by recipient and game:
// a mail waits behind a held mail to its recipient of its own game, and a
// mail of no game behind any held mail to its recipient. The mails of one
// recipient about different games need no order between them.
type holds map[string]map[int64]bool

func (h holds) add(m host.Outgoing) {
	if h[m.Recipient] == nil {
		h[m.Recipient] = map[int64]bool{}
	}
	h[m.Recipient][m.GameID] = true
}

func (h holds) has(m host.Outgoing) bool {
	games := h[m.Recipient]
	return games[m.GameID] || m.GameID == 0 && len(games) > 0 || games[0]
}

// sendOne sends raw to one recipient on c, as smtp.Client.SendMail does
// (herald's addresses are ASCII), saying which answers are about the mail:
// a refusal of the sender (MAIL FROM) is a connError.
func (o *Outbox) sendOne(c *smtp.Client, to string, raw []byte) error {
	if err := c.Mail(o.cfg.From, nil); err != nil {
		return connError{err}
	}
	if err := c.Rcpt(to, nil); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
