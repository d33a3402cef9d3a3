package mail

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
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
	return newFixtureOf(t, adjudicator.NewRegistry(raubritter.Game))
}

// newFixtureOf is newFixture with the games of reg, its service's
// configuration changed by opts.
func newFixtureOf(t testing.TB, reg *adjudicator.Registry, opts ...func(*Config)) *fixture {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, st: st, keys: map[string]string{}, clock: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	k, tk := 0, 0
	cfg := Config{
		Address:  "herald@herald.test",
		Registry: reg,
		Store:    st,
		Now:      func() time.Time { f.clock = f.clock.Add(time.Second); return f.clock },
		NewKey:   func() string { k++; return fmt.Sprintf("key-%d", k) },
		NewToken: func() string { tk++; return fmt.Sprintf("tok%d", tk) },
		NewSeed:  func() string { return "fixture" },
		// The fixture starts games by the dozen (BenchmarkIntake): the
		// limits on strangers' games are TestStrangerGamesLimited's.
		StrangerGames: GameLimits{PerAddress: 1 << 20, PerHour: 1 << 20, PerNamed: 1 << 20},
	}
	for _, o := range opts {
		o(&cfg)
	}
	f.svc, err = NewService(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// playToEnd plays game G1 to its end by mail: each mail from the player
// to move (players: their addresses by name), with their key line
// (f.keys) and one legal step drawn by rng; after, when not nil, runs
// after move i. It fails the test when the game has not ended after 400
// moves.
func (f *fixture) playToEnd(rng *adjudicator.RNG, players map[string]string, after func(i int)) {
	f.t.Helper()
	for i := range 400 {
		g, err := f.st.Game(context.Background(), 1)
		if err != nil {
			f.t.Fatal(err)
		}
		m, err := adjudicator.Start(f.svc.cfg.Registry, g.Record)
		if err != nil {
			f.t.Fatal(err)
		}
		if m.State.Result().Finished {
			return
		}
		who := m.State.ToMove()[0]
		legal := m.State.Legal(who)
		f.handle(f.mail(players[who], "Re: [herald G1]", "key "+f.keys[players[who]]+"\n"+legal[rng.IntN(len(legal))].String()), Applied)
		if after != nil {
			after(i)
		}
	}
	f.t.Fatal("the game did not end in 400 moves")
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
		raw := f.render(m)
		msg, err := Extract(bytes.NewReader(raw), nil)
		if err != nil {
			f.t.Fatalf("herald sent a mail it cannot read itself: %v\n%s", err, raw)
		}
		out[m.Recipient] = append(out[m.Recipient], msg.Subject+"\n"+string(raw))
	}
	f.seen = len(due)
	return out
}

func (f *fixture) peek() string {
	due, _ := f.st.Due(context.Background(), f.clock.Add(time.Hour), 1000)
	var b strings.Builder
	for _, m := range due[f.seen:] {
		fmt.Fprintf(&b, "--- to %s\n%s\n", m.Recipient, f.render(m))
	}
	return b.String()
}

// render returns an outbox mail as the outbox sends it.
func (f *fixture) render(m host.Outgoing) []byte {
	f.t.Helper()
	raw, err := f.svc.Render(context.Background(), m)
	if err != nil {
		f.t.Fatal(err)
	}
	return raw
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
	// Two typos, on two lines among prose: one answer names both, at the
	// lines of the mail as written.
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "Hi herald,\n\nkey "+b+"\nkeep plian\nplain castel f5\n\nBob"), Rejected)
	m := f.sent()["bob@herald.test"][0]
	for _, want := range []string{"4:6: unknown", `also: 5:7: "castel" is not a word of this game; did you mean "castle"`} {
		if !strings.Contains(m, want) {
			t.Errorf("a turn with two typos: the answer lacks %q:\n%s", want, m)
		}
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
		if g.Status != host.Playing {
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
	for _, m := range got["alice@herald.test"][len(got["alice@herald.test"])-1:] {
		if c := strings.ReplaceAll(m, "\r\n", "\n"); !strings.Contains(c, "\nThe seed was:\n  \"") || !strings.Contains(c, "\nIts sha256, announced at the start:\n  ") {
			t.Errorf("the final mail's seed lines are wrapped or missing:\n%s", c)
		}
	}
	// The host, who does not play, gets the end with the record too, and
	// no hand (issue 15, item 15).
	if h := got["host@herald.test"]; len(h) != 1 || !strings.Contains(h[0], "which you host, is over") || !strings.Contains(h[0], "herald-g1-raubritter.yaml") || strings.Contains(h[0], "'s hand") {
		t.Errorf("the host's mails at the end: %q", h)
	}
	// Every mail that asks for a move says how to answer, never with a key
	// (item 13), and its subject says it is the recipient's turn (item 12).
	for _, who := range []string{"alice@herald.test", "bob@herald.test"} {
		for _, m := range got[who] {
			if strings.Contains(m, "IT IS YOUR TURN") != strings.Contains(m, "To play, reply to this mail with your steps, one per line. In a new") {
				t.Fatalf("a mail to %s asks for a move without saying how, or says how without asking:\n%s", who, m)
			}
			if strings.Contains(m, "IT IS YOUR TURN") && !strings.Contains(m, "your turn") {
				t.Fatalf("a mail to %s asks for a move but its subject does not say so:\n%s", who, m)
			}
		}
	}
	// A mail to a finished game.
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nshow"), Rejected)
	io.Discard.Write(nil)
}

var hostKeyLine = regexp.MustCompile(`Your host key is:\s+(\S+)`)

func TestResignAndAbandon(t *testing.T) {
	f := newFixture(t)
	f.handle(f.mail("host@herald.test", "new", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	hk := hostKeyLine.FindStringSubmatch(got["host@herald.test"][0])
	if hk == nil {
		t.Fatalf("no host key in the confirmation:\n%s", got["host@herald.test"][0])
	}
	// Lines short enough that no sentence is wrapped (issue 15, item 14).
	if c := strings.ReplaceAll(got["host@herald.test"][0], "\r\n", "\n"); !strings.Contains(c, "\n  key "+hk[1]+"\n  abandon\n") {
		t.Errorf("the host's confirmation does not give the two lines to write:\n%s", c)
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
	if err != nil || g.Status != host.Abandoned {
		t.Fatalf("status after abandon = %v, %v", g.Status, err)
	}
	// The stored record says how the game ended, so adjudicate reports it
	// (issue 15, item 16).
	if e := g.Record.Ended; e == nil || e.How != adjudicator.EndAbandoned || e.By != "host@herald.test" || !strings.HasPrefix(e.Source, "mail:") {
		t.Errorf("the record's ending after abandon = %+v", e)
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
	g, err = f.st.Game(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if e := g.Record.Ended; e == nil || e.How != adjudicator.EndResigned || e.By != "bob" {
		t.Errorf("the record's ending after bob resigned = %+v", e)
	}
}

// TestReplyRateLimit checks the loop guard: a sender gets at most
// RepliesPerHour answers to their own mails an hour, and the news of moves
// (their own confirmations, the other player's moves) does not use it up.
func TestReplyRateLimit(t *testing.T) {
	f := newFixture(t)
	f.svc.cfg.RepliesPerHour = 2
	f.start()
	f.sent()
	// Six legal moves: twelve mails of news, none a reply that counts.
	for _, raw := range f.moveMails(1, 6) {
		f.handle(raw, Applied)
	}
	if got := f.sent(); len(got["alice@herald.test"]) != 6 || len(got["bob@herald.test"]) != 6 {
		t.Fatalf("news of six moves: %d mails to alice, %d to bob; want 6 each", len(got["alice@herald.test"]), len(got["bob@herald.test"]))
	}
	b := f.keys["bob@herald.test"]
	refuse := func(n int) {
		t.Helper()
		f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key "+b+"\nshow"), Answered)
		if got := len(f.sent()["bob@herald.test"]); got != n {
			t.Fatalf("bob's command was answered with %d mails, want %d", got, n)
		}
	}
	refuse(1)
	refuse(1)
	refuse(1) // the third answer within the hour is not sent: one notice says so
	refuse(0) // and only once
	// Still, the game goes on: a move is applied and announced.
	f.handle(f.moveMails(7, 7)[0], Applied)
	if got := f.sent(); len(got["alice@herald.test"]) != 1 || len(got["bob@herald.test"]) != 1 {
		t.Fatalf("news of a move past the limit: %v, want one mail each", keysOf(got))
	}
	f.clock = f.clock.Add(time.Hour)
	refuse(1) // an hour later
}

// TestComposedMail checks the MIME herald sends: text/plain with an HTML
// alternative showing the same text in <pre> (or text/plain alone with
// PlainOnly), the final record as an attachment, and a draft rendered the
// same way each time it is sent, with one Message-ID.
func TestComposedMail(t *testing.T) {
	f := newFixture(t)
	m := outMail{To: "alice@herald.test", Subject: "[herald G1] Raubritter: your turn", MessageID: "abc@herald.test",
		InReplyTo: "m1@test", References: []string{"game-1@herald.test", "m1@test"},
		Body: "a <b> & c\n   +-----+\n   | F v |\n"}
	date := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	parts := func(raw []byte) map[string]string {
		t.Helper()
		e, err := message.Read(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		e.Walk(func(path []int, p *message.Entity, err error) error {
			if err != nil {
				return err
			}
			ct, _, _ := p.Header.ContentType()
			if !strings.HasPrefix(ct, "multipart/") {
				data, _ := io.ReadAll(p.Body)
				out[ct] = strings.ReplaceAll(string(data), "\r\n", "\n")
			} else {
				out[ct] = ""
			}
			return nil
		})
		return out
	}
	for _, tc := range []struct {
		name  string
		plain bool
		att   *Attachment
		want  []string
	}{
		{"html", false, nil, []string{"multipart/alternative", "text/plain", "text/html"}},
		{"plain", true, nil, []string{"text/plain"}},
		{"html+record", false, &Attachment{Name: "herald-g1-raubritter.yaml", Data: []byte("herald: 1\n")}, []string{"multipart/mixed", "multipart/alternative", "text/plain", "text/html", "application/yaml"}},
		{"plain+record", true, &Attachment{Name: "herald-g1-raubritter.yaml", Data: []byte("herald: 1\n")}, []string{"multipart/mixed", "text/plain", "application/yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.svc.cfg.PlainOnly = tc.plain
			mm := m
			mm.Attachment = tc.att
			d, err := mm.draft()
			if err != nil {
				t.Fatal(err)
			}
			o := host.Outgoing{ID: 1, Recipient: mm.To, Draft: d, Created: date}
			raw, err := f.svc.Render(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			got := parts(raw)
			if len(got) != len(tc.want) {
				t.Errorf("parts %v, want %v\n%s", slices.Sorted(maps.Keys(got)), tc.want, raw)
			}
			for _, ct := range tc.want {
				if _, ok := got[ct]; !ok {
					t.Errorf("no %s part\n%s", ct, raw)
				}
			}
			if got["text/plain"] != mm.Body {
				t.Errorf("text/plain = %q, want %q", got["text/plain"], mm.Body)
			}
			if h, ok := got["text/html"]; ok && !strings.Contains(h, "<pre") || ok && !strings.Contains(h, "a &lt;b&gt; &amp; c\n   +-----+\n") {
				t.Errorf("text/html does not show the text in <pre>:\n%s", h)
			}
			if tc.att != nil && got["application/yaml"] != string(tc.att.Data) {
				t.Errorf("attachment = %q", got["application/yaml"])
			}
			for _, h := range []string{"Message-Id: <abc@herald.test>", "In-Reply-To: <m1@test>", "Date: Mon, 23 Nov 2026 09:00:00 +0000", "Auto-Submitted: auto-replied"} {
				if !bytes.Contains(raw, []byte(h)) {
					t.Errorf("no %q header:\n%s", h, raw)
				}
			}
			// A retry sends the same mail, boundaries aside.
			again, _ := f.svc.Render(context.Background(), o)
			boundary := regexp.MustCompile(`boundary=([0-9a-zA-Z]+)`)
			norm := func(b []byte) string {
				s := string(b)
				for _, m := range boundary.FindAllStringSubmatch(s, -1) {
					s = strings.ReplaceAll(s, m[1], "B")
				}
				return s
			}
			if norm(again) != norm(raw) {
				t.Errorf("rendered twice, two different mails:\n%s\n---\n%s", raw, again)
			}
		})
	}
	f.svc.cfg.PlainOnly = false
	// A whole message is sent as it is; a draft this herald cannot read is
	// an error, never a guess.
	if raw, err := f.svc.Render(context.Background(), host.Outgoing{Raw: []byte("whole")}); err != nil || string(raw) != "whole" {
		t.Errorf("Render of a whole message = %q, %v", raw, err)
	}
	for _, bad := range []string{`{"herald_draft": 2, "to": "a@x"}`, `{"to": "a@x"}`, `not json`} {
		if _, err := f.svc.Render(context.Background(), host.Outgoing{ID: 7, Draft: []byte(bad)}); err == nil || !strings.Contains(err.Error(), "outbox mail 7") {
			t.Errorf("Render of the draft %s = %v, want an error", bad, err)
		}
	}
}

// TestOutboxUnreadableDraft checks that a draft this herald cannot render
// (written by a newer herald, say) is left in the outbox unsent, and that
// the mails beside it go out.
func TestOutboxUnreadableDraft(t *testing.T) {
	f := newFixture(t)
	f.start()
	err := f.st.Process(context.Background(), host.Intake{MessageID: "<x@test>", Received: f.clock}, func(tx host.Tx) error {
		if err := tx.Queue(context.Background(), host.Mail{Recipient: "alice@herald.test", Draft: []byte(`{"herald_draft": 99}`)}); err != nil {
			return err
		}
		// The record of a game that does not exist: never renders either.
		return tx.Queue(context.Background(), host.Mail{Recipient: "bob@herald.test", Draft: []byte(`{"herald_draft": 1, "to": "bob@herald.test", "record_of": 99}`)})
	})
	if err != nil {
		t.Fatal(err)
	}
	pending, _ := f.st.Pending(context.Background())
	sink, addr := startSink(t)
	out := NewOutbox(OutboxConfig{Server: Server{Addr: addr, Security: Plain}}, f.svc)
	out.now = func() time.Time { return f.clock.Add(time.Minute) }
	n, err := out.SendDue(context.Background())
	if err != nil || n != pending-2 || len(sink.mails()) != pending-2 {
		t.Fatalf("sent %d of %d mails (%v), the server got %d; want all but the two unreadable ones", n, pending, err, len(sink.mails()))
	}
	if left, _ := f.st.Pending(context.Background()); left != 2 {
		t.Errorf("%d mails left in the outbox, want the two unreadable ones", left)
	}
	if n, err := out.SendDue(context.Background()); n != 0 || err != nil {
		t.Errorf("the unreadable draft was tried again: %d, %v", n, err)
	}
}

// TestOutboxHandoff checks the mails of the intake's batches handed to a
// running outbox (claimed in the batch's transaction, sent without a Claim;
// issue 15, item 22): every reply goes exactly once, however often Kick
// makes the outbox Claim meanwhile (Claim returns a worker's own claims,
// so the mails handed over must be left out of it).
func TestOutboxHandoff(t *testing.T) {
	f := newFixture(t)
	// The game starts before the outbox runs: f.start reads the welcomes
	// (and their keys) from the store, where a running outbox may already
	// have sent them. The outbox sends these three when it starts.
	f.start()
	sink, addr := startSink(t)
	out := NewOutbox(OutboxConfig{Server: Server{Addr: addr, Security: Plain}, Worker: "w1"}, f.svc)
	out.now = func() time.Time { return f.clock.Add(time.Minute) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- out.Run(ctx) }()
	defer func() { cancel(); <-done }()
	for f.svc.outbox.Load() == nil {
		time.Sleep(time.Millisecond)
	}
	kicking := make(chan struct{})
	go func() {
		for {
			select {
			case <-kicking:
				return
			default:
				out.Kick()
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	want := 3 // the host's confirmation, two welcomes
	for i := range 20 {
		who := []string{"alice@herald.test", "bob@herald.test"}[i%2]
		f.handle(f.mail(who, "Re: [herald G1]", "key "+f.keys[who]+"\nshow"), Answered)
		want++
	}
	close(kicking)
	deadline := time.Now().Add(10 * time.Second)
	for len(sink.mails()) < want && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // a mail sent twice would arrive by now
	ids := map[string]int{}
	for _, m := range sink.mails() {
		id := regexp.MustCompile(`(?m)^Message-Id: (\S+)`).FindStringSubmatch(m)
		if id == nil {
			t.Fatalf("a mail without Message-Id:\n%s", m)
		}
		ids[id[1]]++
	}
	if len(sink.mails()) != want || len(ids) != want {
		t.Errorf("the server got %d mails, %d distinct; want %d", len(sink.mails()), len(ids), want)
	}
	if n, _ := f.st.Pending(context.Background()); n != 0 {
		t.Errorf("%d mails left in the outbox", n)
	}
}

// TestObserveByMail checks the consent of observers over mail (issue 25,
// item 14): 30 forged "observe G1" from dan make one confirmation mail to
// dan and subscribe no one; dan's answer with the token subscribes him; a
// player's keyed "observe G1 ADDRESS" mails erin an invitation that says
// who asked, and erin observes once she writes its line back.
func TestObserveByMail(t *testing.T) {
	f := newFixture(t)
	f.start()
	for i := range 30 {
		want := Ignored
		if i == 0 {
			want = Answered
		}
		f.handle(f.mail("dan@herald.test", "watch", "observe G1"), want)
	}
	got := f.sent()
	if len(got["dan@herald.test"]) != 1 || !strings.Contains(got["dan@herald.test"][0], "herald mails no one who did not agree") {
		t.Fatalf("30 requests to observe mailed dan %d times, want one confirmation:\n%s", len(got["dan@herald.test"]), strings.Join(got["dan@herald.test"], "\n---\n"))
	}
	token := regexp.MustCompile(`(?m)^  observe G1 (\S+)\r?$`).FindStringSubmatch(got["dan@herald.test"][0])
	if token == nil {
		t.Fatalf("no token in the confirmation:\n%s", got["dan@herald.test"][0])
	}
	f.handle(f.mail("dan@herald.test", "Re: [herald G1] confirm observe", "observe G1 "+token[1]), Answered)
	if got := f.sent(); len(got["dan@herald.test"]) != 1 || !strings.Contains(got["dan@herald.test"][0], "You now observe game G1") {
		t.Fatalf("dan's confirmation: %v", got)
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nobserve G1 erin@herald.test"), Answered)
	got = f.sent()
	if len(got["alice@herald.test"]) != 1 || !strings.Contains(got["alice@herald.test"][0], "herald mailed a confirmation to\r\nerin@herald.test") {
		t.Errorf("alice's answer: %v", got["alice@herald.test"])
	}
	if len(got["erin@herald.test"]) != 1 || !strings.Contains(got["erin@herald.test"][0], "alice@herald.test,\r\na player of game G1, asked herald") {
		t.Fatalf("erin's invitation: %v", got["erin@herald.test"])
	}
	token = regexp.MustCompile(`(?m)^  observe G1 (\S+)\r?$`).FindStringSubmatch(got["erin@herald.test"][0])
	if token == nil {
		t.Fatalf("no token in erin's invitation:\n%s", got["erin@herald.test"][0])
	}
	f.handle(f.mail("erin@herald.test", "Re: [herald G1] confirm observe", "observe G1 "+token[1]), Answered)
	if got := f.sent(); len(got["erin@herald.test"]) != 1 || !strings.Contains(got["erin@herald.test"][0], "You now observe game G1") {
		t.Fatalf("erin's confirmation: %v", got)
	}
	f.handle(f.mail("mallory@herald.test", "Re: [herald G1]", "observe G1 frank@herald.test"), Rejected)
	if got := f.sent(); len(got["frank@herald.test"]) != 0 {
		t.Errorf("a stranger subscribed frank: %v", got)
	}
}

// TestLongAddressKeepsSentencesWhole invites an observer of a long address
// and checks the answer and the invitation: the address ends its
// line, and the sentence after it is not broken around it by the wrap at
// 72 columns (a word was left alone on a line: found by hand over a real
// Postfix + Dovecot).
func TestLongAddressKeepsSentencesWhole(t *testing.T) {
	f := newFixture(t)
	f.start()
	const erin = "erin.of-the-very-long-address@herald.test"
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nobserve G1 "+erin), Answered)
	got := f.sent()
	for who, want := range map[string]string{
		"alice@herald.test": "herald mailed a confirmation to\n" + erin + "\nIt observes game G1 once it writes back the line it gives, and hears\nnothing more if it does not.\n",
		erin:                "alice@herald.test,\na player of game G1, asked herald to mail this address every move of\nthe game as everyone sees it. The game: Raubritter (Robber Knights).\n",
	} {
		if len(got[who]) != 1 {
			t.Fatalf("%s got %d mails, want 1", who, len(got[who]))
		}
		if text := strings.ReplaceAll(unwrap(got[who][0]), "\r\n", "\n"); !strings.Contains(text, want) {
			t.Errorf("%s's mail lacks %q:\n%s", who, want, text)
		}
	}
}

// TestKeyNamesItsGame sends a new mail, with no game tag, from a player of
// two games: the key line names the game whose key it is, as herald's
// mails say ("In a new mail, put your key line first"); a key of neither
// game gets the question of which game, and names no game.
func TestKeyNamesItsGame(t *testing.T) {
	f := newFixture(t)
	f.start()
	first := f.keys["alice@herald.test"]
	f.start()
	second := f.keys["alice@herald.test"]
	if first == second {
		t.Fatalf("alice has the same key in both games: %s", first)
	}
	for _, c := range []struct {
		key, tag string
	}{{first, "G1"}, {second, "G2"}} {
		f.handle(f.mail("alice@herald.test", "my game", "Hello herald,\n\nkey "+c.key+"\nshow\n\nAlice"), Answered)
		got := f.sent()["alice@herald.test"]
		if len(got) != 1 || !strings.Contains(got[0], "[herald "+c.tag+"]") {
			t.Errorf("key of %s: alice got %q, want the board of %s", c.tag, got, c.tag)
		}
	}
	f.handle(f.mail("alice@herald.test", "my game", "key not-a-key\nshow"), Rejected)
	got := f.sent()["alice@herald.test"]
	if len(got) != 1 || !strings.Contains(got[0], "You play in several games (G2, G1); say which.") {
		t.Errorf("a key of no game: alice got %q, want the question of which game", got)
	}
}

// TestOneNewGameAMail sends two new lines in one mail: herald starts
// neither and says why, naming the lines, rather than start the first and
// drop the second unsaid (found by hand over a real Postfix + Dovecot).
func TestOneNewGameAMail(t *testing.T) {
	f := newFixture(t)
	f.handle(f.mail("host@herald.test", "two games", "Hi,\n\nnew raubritter players alice@herald.test bob@herald.test\nnew raubritter players carol@herald.test dave@herald.test\n\nThanks"), Rejected)
	got := f.sent()
	if len(got) != 1 || len(got["host@herald.test"]) != 1 ||
		!strings.Contains(got["host@herald.test"][0], "this mail starts 2 games (new on lines 3, 4); herald starts one game a") {
		t.Errorf("two new lines: herald sent %q", got)
	}
	if g, err := f.st.Game(context.Background(), 1); err == nil {
		t.Errorf("a game was started: %+v", g)
	}
}

// TestUnreadableAdvice sends mails herald cannot read and checks that each
// answer says what to do about it: a mail too large (a photo, herald's own
// picture sent back), a multipart mail cut short, a mail of quotes alone
// (found by hand over a real Postfix + Dovecot: the answers gave only the
// parser's words, such as "multipart: NextPart: EOF").
func TestUnreadableAdvice(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"too large", f.mail("alice@herald.test", "my move", "keep plain village\n\n"+strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAA", 12000)),
			"send your moves again without it"},
		{"cut short", f.mail("alice@herald.test", "my move", "--XYZ\nContent-Type: text/plain\n\nkeep plain village\n", `Content-Type: multipart/mixed; boundary="XYZ"`),
			"Its parts are not closed as MIME requires"},
		{"no parts", f.mail("alice@herald.test", "my move", "keep plain village\n", `Content-Type: multipart/mixed; boundary="XYZ"`),
			"Its parts are not closed as MIME requires"},
		{"quotes alone", f.mail("alice@herald.test", "Re: [herald G1]", "On Mon, herald wrote:\n> keep plain village\n"),
			"Once the quoted text and the signature are set aside, nothing is left"},
	} {
		f.handle(c.raw, Rejected)
		got := f.sent()["alice@herald.test"]
		if len(got) != 1 || !strings.Contains(unwrap(got[0]), c.want) {
			t.Errorf("%s: answered %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTwoGamesInOneMail sends, in a reply about game G1, a line that asks
// for an observer of game G2: herald does nothing and says the mail names
// two games, and which line (it answered "authentication failed", or, with
// that notice's allowance spent, nothing: found by hand over a real
// Postfix + Dovecot). The same line about G1 invites the observer.
func TestTwoGamesInOneMail(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.start()
	key := f.keys["alice@herald.test"] // of G2, where alice plays too
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "Hi,\nset deadline 48h\nobserve G2 carol@herald.test\n"), Rejected)
	got := f.sent()["alice@herald.test"]
	if len(got) != 1 || !strings.Contains(unwrap(got[0]), "it is about game G1 (its subject\r\nor the address you replied to), and line 3 names game G2:") {
		t.Errorf("two games in one mail: alice got %q", got)
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G2]", "key "+key+"\nobserve G2 carol@herald.test"), Answered)
	if got := f.sent()["alice@herald.test"]; len(got) != 1 || !strings.Contains(got[0], "herald mailed a confirmation to\r\ncarol@herald.test") {
		t.Errorf("the same line about the mail's game: alice got %q", got)
	}
	// A forger in alice's name uses up the hour's notice to an
	// unauthenticated mail; alice's own mail, with her key, naming two
	// games, is still answered (found by hand over real mail: it was not).
	f.clock = f.clock.Add(2 * time.Hour)
	f.handle(f.mail("alice@herald.test", "Re: [herald G2]", "show"), Rejected)
	if got := f.sent()["alice@herald.test"]; len(got) != 1 || !strings.Contains(got[0], "not authenticated") {
		t.Fatalf("the forged mail: alice got %q", got)
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G2]", "key "+key+"\nobserve G1 carol@herald.test"), Rejected)
	if got := f.sent()["alice@herald.test"]; len(got) != 1 || !strings.Contains(unwrap(got[0]), "and line 2 names game G1:") {
		t.Errorf("alice's own mail naming two games, after a forgery: alice got %q", got)
	}
	// A game line naming another game than the mail's subject is the
	// same: it was answered "not authenticated" (found by hand).
	f.handle(f.mail("alice@herald.test", "Re: [herald G2]", "Hi,\ngame G1\nkey "+key+"\nshow"), Rejected)
	if got := f.sent()["alice@herald.test"]; len(got) != 1 || !strings.Contains(unwrap(got[0]), "and line 2 names game G1:\r\n\r\n  game G1") {
		t.Errorf("a game line naming another game: alice got %q", got)
	}
}

// TestDroppedLinesNamed sends a move with a greeting, a quoted mail under
// its reply header, and a signature: the answer lists the greeting among
// the lines ignored and names the quote and the signature by line, as
// not read, right under that list (found by hand over a real Postfix +
// Dovecot: they went unmentioned, then were named at the end, after the
// board).
func TestDroppedLinesNamed(t *testing.T) {
	f := newFixture(t)
	f.start()
	body := "Hi herald,\nkey " + f.keys["alice@herald.test"] + "\nkeep plain village\n\nOn Mon, 23 Nov 2026 at 09:00, herald <herald@herald.test> wrote:\n> welcome\n> keep plain\n\n-- \nAlice\n"
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", body), Applied)
	got := f.sent()["alice@herald.test"]
	if len(got) == 0 || !strings.Contains(unwrap(got[0]), "Lines ignored (text, not steps):\r\n  1: Hi herald,\r\nNot read, as not your words:\r\n  lines 5-7: quoted text\r\n  lines 9-10: a signature\r\n") {
		t.Errorf("alice's answer does not name the quote and the signature under the lines it ignored:\n%s", got)
	}
}

// TestDropped checks which lines a mail's answer names as not read, and
// as what: a quote is one range across its blank lines, and the quote a
// mail program puts under a signature is quoted text, not signature.
func TestDropped(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		quoted    []int
		signature []int
	}{
		{"quote and signature", "show\n\nOn Mon, 23 Nov 2026, herald <h@x> wrote:\n> a\n\n-- \nAlice", []int{3, 4}, []int{6, 7}},
		{"quote with paragraphs", "show\n\nOn Mon, 23 Nov 2026, herald <h@x> wrote:\n> a\n>\n> b\n\n> c\n\n\n> d", []int{3, 4, 5, 6, 7, 8, 9, 10, 11}, nil},
		{"quote under the signature", "show\n-- \nAlice\n\nOn Mon, 23 Nov 2026 at 09:00, herald <h@x> wrote:\n> a\n\n> b", []int{5, 6, 7, 8}, []int{2, 3}},
		{"wrapped header under the signature", "show\n-- \nAlice\nOn Mon, 23 Nov 2026 at 09:00, herald <\nh@x> wrote:\n> a", []int{4, 5, 6}, []int{2, 3}},
		{"outlook under the signature", "show\n--\nAlice\n\nFrom: herald <h@x>\nSent: Monday\n\nGame G1", []int{5, 6, 7, 8}, []int{2, 3}},
		{"signature with blank lines", "show\n-- \nAlice\n\nPhone: 555", nil, []int{2, 3, 4, 5}},
		{"inline replies", "> a\nshow\n\n> b\nlegal", []int{1, 4}, nil},
	} {
		var raw []Line
		for i, s := range strings.Split(c.in, "\n") {
			raw = append(raw, Line{No: i + 1, Text: s})
		}
		d := dropped(raw, ownLines(raw))
		if !slices.Equal(d.Quoted, c.quoted) || !slices.Equal(d.Signature, c.signature) {
			t.Errorf("%s: quoted %v, signature %v; want %v, %v", c.name, d.Quoted, d.Signature, c.quoted, c.signature)
		}
	}
}

// TestLineRanges checks how droppedNote writes line numbers.
func TestLineRanges(t *testing.T) {
	for _, c := range []struct {
		nos  []int
		want string
	}{
		{[]int{4}, "4"},
		{[]int{4, 5}, "4-5"},
		{[]int{3, 7, 8, 9, 12}, "3, 7-9, 12"},
		{nil, ""},
	} {
		if got := lineRanges(c.nos); got != c.want {
			t.Errorf("lineRanges(%v) = %q, want %q", c.nos, got, c.want)
		}
	}
}

// TestDroppedNote checks the note of what was not read, in both languages.
func TestDroppedNote(t *testing.T) {
	for _, c := range []struct {
		d    Dropped
		lang notation.Lang
		want string
	}{
		{Dropped{}, notation.English, ""},
		{Dropped{Quoted: []int{3}, Signature: []int{5, 6}}, notation.French, "Non lu, car pas de vous :\n  ligne 3 : du texte cité\n  lignes 5-6 : une signature\n"},
		{Dropped{Signature: []int{8}}, notation.English, "Not read, as not your words:\n  line 8: a signature\n"},
	} {
		if got := droppedNote(c.d, c.lang); got != c.want {
			t.Errorf("droppedNote(%+v, %v) = %q, want %q", c.d, c.lang, got, c.want)
		}
	}
}
