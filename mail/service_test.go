package mail

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/raubritter"
)

// fixture is a service on a fresh store with a started game.
type fixture struct {
	t     testing.TB
	svc   *Service
	st    *store.Store
	seen  int // outbox rows already looked at
	keys  map[string]string
	clock time.Time
	n     int
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, st: st, keys: map[string]string{}, clock: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	k := 0
	f.svc, err = NewService(Config{
		Address:  "herald@herald.test",
		Registry: adjudicator.NewRegistry(raubritter.Game),
		Store:    st,
		Now:      func() time.Time { f.clock = f.clock.Add(time.Second); return f.clock },
		NewKey:   func() string { k++; return fmt.Sprintf("key-%d", k) },
		NewSeed:  func() string { return "fixture" },
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// mail builds a raw mail.
func (f *fixture) mail(from, subject, body string, headers ...string) []byte {
	f.n++
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s\r\nTo: herald@herald.test\r\nSubject: %s\r\nMessage-ID: <m%d-%d@test>\r\nDate: Mon, 23 Nov 2026 09:00:00 +0000\r\n", from, subject, f.n, time.Now().UnixNano())
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if !strings.Contains(strings.Join(headers, "\n"), "Content-Type") {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n")
	}
	b.WriteString("\r\n" + strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n"))
	return b.Bytes()
}

func (f *fixture) handle(raw []byte, want Outcome) {
	f.t.Helper()
	got, err := f.svc.Handle(context.Background(), raw)
	if err != nil {
		f.t.Fatalf("Handle: %v", err)
	}
	if got != want {
		f.t.Fatalf("Handle = %s, want %s; replies:\n%s", got, want, f.peek())
	}
}

// sent returns the outbox mails queued since the last call, by recipient.
func (f *fixture) sent() map[string][]string {
	f.t.Helper()
	due, err := f.st.Due(context.Background(), f.clock.Add(time.Hour), 1000)
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string][]string{}
	for _, m := range due[f.seen:] {
		msg, err := Extract(bytes.NewReader(m.Raw), nil)
		if err != nil {
			f.t.Fatalf("herald sent a mail it cannot read itself: %v\n%s", err, m.Raw)
		}
		out[m.Recipient] = append(out[m.Recipient], msg.Subject+"\n"+string(m.Raw))
	}
	f.seen = len(due)
	return out
}

func (f *fixture) peek() string {
	due, _ := f.st.Due(context.Background(), f.clock.Add(time.Hour), 1000)
	var b strings.Builder
	for _, m := range due[f.seen:] {
		fmt.Fprintf(&b, "--- to %s\n%s\n", m.Recipient, m.Raw)
	}
	return b.String()
}

var keyLine = regexp.MustCompile(`Your key is (\S+)`)

// start creates a 2-player game by mail and learns the keys.
func (f *fixture) start() {
	f.t.Helper()
	f.handle(f.mail("host@herald.test", "new game", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	for _, who := range []string{"alice@herald.test", "bob@herald.test"} {
		if len(got[who]) != 1 {
			f.t.Fatalf("%s got %d mails, want a welcome", who, len(got[who]))
		}
		m := keyLine.FindStringSubmatch(got[who][0])
		if m == nil {
			f.t.Fatalf("no key in the welcome mail:\n%s", got[who][0])
		}
		f.keys[who] = m[1]
	}
	if len(got["host@herald.test"]) != 1 {
		f.t.Fatalf("host got %d mails, want a confirmation", len(got["host@herald.test"]))
	}
}

func TestNewGameAndMoves(t *testing.T) {
	f := newFixture(t)
	f.start()
	a, b := f.keys["alice@herald.test"], f.keys["bob@herald.test"]
	// A quoted reply, as a mail client writes it.
	f.handle(f.mail("Alice <alice@herald.test>", "Re: [herald G1] Raubritter: welcome",
		"key "+a+"\nkeep plain village\n\nOn Mon, 23 Nov 2026, herald <herald@herald.test> wrote:\n> Your key is "+a+"\n> keep plain\n"), Applied)
	got := f.sent()
	for who, mails := range got {
		for _, m := range mails {
			if who != "alice@herald.test" && strings.Contains(m, a) {
				t.Errorf("alice's key reached %s:\n%s", who, m)
			}
			if strings.Contains(m, "Your key is") {
				t.Errorf("a key was repeated after the welcome mail to %s", who)
			}
		}
	}
	if len(got["alice@herald.test"]) != 1 || len(got["bob@herald.test"]) != 1 {
		t.Fatalf("after alice's move, mails = %v", keysOf(got))
	}
	if !strings.Contains(got["alice@herald.test"][0], "Your move 1 was applied") {
		t.Errorf("alice's confirmation lacks the applied list:\n%s", got["alice@herald.test"][0])
	}
	// Bob in French, in ISO-8859-1, quoted-printable.
	body := "cl=E9 " + b + "\r\ngarde for=EAt village\r\n"
	f.handle(f.mail("bob@herald.test", "Re: [herald G1] coup", body,
		"Content-Type: text/plain; charset=iso-8859-1", "Content-Transfer-Encoding: quoted-printable"), Applied)
	got = f.sent()
	if !strings.Contains(got["alice@herald.test"][0], "IT IS YOUR TURN") {
		t.Errorf("alice is not told it is her turn:\n%s", got["alice@herald.test"][0])
	}
	if strings.Contains(got["alice@herald.test"][0], "bob's hand") {
		t.Errorf("alice's mail shows bob's hand")
	}
}

func keysOf(m map[string][]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s:%d", k, len(v)))
	}
	return out
}

func TestRefusals(t *testing.T) {
	f := newFixture(t)
	f.start()
	a := f.keys["alice@herald.test"]

	// Duplicate delivery: the same bytes twice.
	raw := f.mail("alice@herald.test", "Re: [herald G1]", "key "+a+"\nkeep plain village")
	f.handle(raw, Applied)
	f.sent()
	f.handle(raw, Duplicate)
	if got := f.sent(); len(got) != 0 {
		t.Errorf("a duplicate was answered: %v", keysOf(got))
	}

	// A forged From (not a player) and a wrong key: generic replies only.
	f.handle(f.mail("mallory@herald.test", "Re: [herald G1]", "key "+a+"\nkeep plain"), Rejected)
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key wrong\nkeep plain"), Rejected)
	got := f.sent()
	for who, mails := range got {
		for _, m := range mails {
			_, body, _ := strings.Cut(m, "\r\n\r\n")
			for _, detail := range []string{"+-----", "Scores", "hand", "alice", "Raubritter"} {
				if strings.Contains(body, detail) {
					t.Errorf("an unauthenticated mail got a game detail (%q, to %s):\n%s", detail, who, body)
				}
			}
		}
	}

	// Automatic mail is never answered.
	f.handle(f.mail("alice@herald.test", "Out of office", "I am away", "Auto-Submitted: auto-replied"), Ignored)
	f.handle(f.mail("MAILER-DAEMON@herald.test", "Undelivered", "bounce", "Return-Path: <>"), Ignored)
	f.handle(f.mail("list@herald.test", "news", "hello", "Precedence: bulk", "List-Id: <x.herald.test>"), Ignored)
	if got := f.sent(); len(got) != 0 {
		t.Errorf("automatic mail was answered: %v", keysOf(got))
	}

	// A move out of turn and a bad step: a reply to the sender only, with
	// the line, a caret and the rule; nothing changes.
	b := f.keys["bob@herald.test"]
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key "+b+"\nkeep plain\nplain castle f5"), Rejected)
	got = f.sent()
	if len(got) != 1 || len(got["bob@herald.test"]) != 1 {
		t.Fatalf("refusal mails = %v, want one to bob", keysOf(got))
	}
	if m := got["bob@herald.test"][0]; !strings.Contains(m, "nothing changed") || !strings.Contains(m, "step 2") {
		t.Errorf("refusal lacks detail:\n%s", m)
	}
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key "+b+"\nkeep plian"), Rejected)
	if m := f.sent()["bob@herald.test"][0]; !strings.Contains(m, "did you mean") || !strings.Contains(m, "^") {
		t.Errorf("a misspelt word gets no suggestion and caret:\n%s", m)
	}
}

func TestHTMLAndAttachment(t *testing.T) {
	f := newFixture(t)
	f.start()
	a, b := f.keys["alice@herald.test"], f.keys["bob@herald.test"]
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]",
		"<html><body><p>key "+a+"</p><p>keep plain village</p><blockquote>keep plain</blockquote></body></html>",
		"Content-Type: text/html; charset=utf-8"), Applied)
	turn := "game: raubritter\nplayer: bob\nmove: 2\nsteps:\n  - keep plain\n"
	body := "--B\r\nContent-Type: text/plain\r\n\r\nkey " + b + "\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=turn.yaml\r\n\r\n" +
		strings.ReplaceAll(turn, "\n", "\r\n") + "--B--\r\n"
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", body, "MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=B"), Applied)
	// A stale turn file: move 2 again.
	f.sent()
	stale := strings.Replace(body, "keep plain", "plain castle f5", 1)
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", stale, "MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=B"), Rejected)
	if m := f.sent()["bob@herald.test"][0]; !strings.Contains(m, "stale") {
		t.Errorf("stale turn file refusal:\n%s", m)
	}
}

func TestGameToTheEnd(t *testing.T) {
	f := newFixture(t)
	f.start()
	// Play random legal steps, one mail per step, until the end.
	players := map[string]string{"alice": "alice@herald.test", "bob": "bob@herald.test"}
	rng := adjudicator.NewRNG("mail-test")
	for i := 0; i < 400; i++ {
		g, err := f.st.Game(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != store.Playing {
			break
		}
		m, err := adjudicator.Start(f.svc.cfg.Registry, g.Record)
		if err != nil {
			t.Fatal(err)
		}
		who := m.State.ToMove()[0]
		legal := m.State.Legal(who)
		step := legal[rng.IntN(len(legal))]
		f.handle(f.mail(players[who], "Re: [herald G1]", "key "+f.keys[players[who]]+"\n"+step.String()), Applied)
	}
	got := f.sent()
	var finals []string
	for _, who := range []string{"alice@herald.test", "bob@herald.test"} {
		last := got[who][len(got[who])-1]
		if !strings.Contains(last, "game over") || !strings.Contains(last, "herald-g1-raubritter.yaml") {
			t.Fatalf("%s's last mail is not the final one:\n%s", who, last)
		}
		msg, err := Extract(strings.NewReader(last[strings.Index(last, "\n")+1:]), nil)
		if err != nil || len(msg.Attachments) != 1 {
			t.Fatalf("final mail: %v, %d attachments", err, len(msg.Attachments))
		}
		rec, err := adjudicator.ParseRecord("final", msg.Attachments[0].Data)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := adjudicator.Adjudicate(f.svc.cfg.Registry, rec)
		if err != nil || rep.Illegal != nil {
			t.Fatalf("adjudicate the mailed record: %v %+v", err, rep.Illegal)
		}
		var out bytes.Buffer
		rep.Write(&out)
		finals = append(finals, out.String())
	}
	if finals[0] != finals[1] {
		t.Errorf("the two players' final records differ")
	}
	// A mail to a finished game.
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nshow"), Rejected)
	io.Discard.Write(nil)
}

var hostKeyLine = regexp.MustCompile(`Your host key is (\S+):`)

func TestResignAndAbandon(t *testing.T) {
	f := newFixture(t)
	f.handle(f.mail("host@herald.test", "new", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	hk := hostKeyLine.FindStringSubmatch(got["host@herald.test"][0])
	if hk == nil {
		t.Fatalf("no host key in the confirmation:\n%s", got["host@herald.test"][0])
	}
	for _, who := range []string{"alice@herald.test", "bob@herald.test"} {
		f.keys[who] = keyLine.FindStringSubmatch(got[who][0])[1]
	}
	// A player may not abandon, and the host, who does not play, may not resign.
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nabandon"), Answered)
	if m := f.sent()["alice@herald.test"][0]; !strings.Contains(m, "Only the host may abandon") {
		t.Errorf("a player's abandon: %s", m)
	}
	f.handle(f.mail("host@herald.test", "Re: [herald G1]", "key "+hk[1]+"\nresign"), Rejected)
	f.sent()
	// The host abandons: everyone, host included, gets the end with the record.
	f.handle(f.mail("host@herald.test", "Re: [herald G1]", "key "+hk[1]+"\nabandon"), Ended)
	got = f.sent()
	for _, who := range []string{"alice@herald.test", "bob@herald.test", "host@herald.test"} {
		if len(got[who]) != 1 || !strings.Contains(got[who][0], "the host abandoned it") || !strings.Contains(got[who][0], "herald-g1-raubritter.yaml") {
			t.Errorf("%s's end mail: %v", who, got[who])
		}
	}
	g, err := f.st.Game(context.Background(), 1)
	if err != nil || g.Status != store.Abandoned {
		t.Fatalf("status after abandon = %v, %v", g.Status, err)
	}
	// Nothing more is played in an abandoned game.
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key "+f.keys["bob@herald.test"]+"\nkeep plain"), Rejected)
	if m := f.sent()["bob@herald.test"][0]; !strings.Contains(m, "is over") {
		t.Errorf("a move after abandon: %s", m)
	}

	// A second game, ended by a player's resignation.
	f.handle(f.mail("host@herald.test", "new", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got = f.sent()
	key := keyLine.FindStringSubmatch(got["bob@herald.test"][0])[1]
	f.handle(f.mail("bob@herald.test", "Re: [herald G2]", "key "+key+"\nresign"), Ended)
	if m := f.sent()["alice@herald.test"][0]; !strings.Contains(m, "bob resigned") {
		t.Errorf("alice is not told bob resigned: %s", m)
	}
}
