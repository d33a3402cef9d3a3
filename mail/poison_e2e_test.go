package mail

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/raubritter"
)

// refusingServers are embedded servers that refuse to open a mailbox for
// the addresses whose local part begins with "doomed", as a mail server
// refuses an address it cannot hold: herald's handling of a mail that
// names one fails every time, for a reason no address check can see.
type refusingServers struct{ LocalServers }

func (s refusingServers) AddAccount(address, password string) error {
	if strings.HasPrefix(address, "doomed") {
		return fmt.Errorf("embedded: %s: mailbox unavailable", address)
	}
	return s.LocalServers.AddAccount(address, password)
}

// sendRaw mails raw (a header without From, To, Message-ID and Date, and
// a body) from from to to over SMTP on addr.
func sendRaw(addr, from, to, subject string, headers []string, body string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\n", from, to, subject,
		newMessageID("poison.test"), time.Now().UTC().Format(time.RFC1123Z))
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if !slices.ContainsFunc(headers, func(h string) bool { return strings.HasPrefix(h, "Content-Type") }) {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n")
	}
	b.WriteString("\r\n" + strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n"))
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail(from, []string{to}, &b); err != nil {
		return err
	}
	return c.Quit()
}

// TestPoisonAmongPlay runs serve (Start, on the embedded servers) with
// three games in play, and mails it, ahead of the players' moves, every
// poison mail of issue 25 (items 1 and 2: each stopped herald for every
// game), a mail whose handling fails every time (a new game with an
// address the mail server refuses) and a replace whose welcome cannot be
// delivered. Every game's moves are answered; each poison of items 1 and
// 2 gets its refusal, at 72 columns, and creates nothing; the mail that
// fails is set aside in herald/failed and the mails no mailbox takes in
// the outbox, all listed with their reasons (herald failed).
func TestPoisonAmongPlay(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	local := func(dir, imapAddr, smtpAddr string, herald LocalAccount, log *slog.Logger) (LocalServers, error) {
		srv, err := embeddedLocal(dir, imapAddr, smtpAddr, herald, log)
		if err != nil {
			return nil, err
		}
		return refusingServers{srv}, nil
	}
	r, err := Start(ctx, RunConfig{Local: local, OpenStore: openSQLite, Dir: t.TempDir(), Registry: adjudicator.NewRegistry(raubritter.Game),
		Logger: testLogger(t), PlayerPassword: func(string) string { return "pw" }, NewSeed: func() string { return "poison" }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, a := range []string{"h1@herald.local", "h2@herald.local", "h3@herald.local", "stranger@herald.local"} {
		if err := r.Embedded.AddAccount(a, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	rig := &featureRig{t: t, imap: r.Embedded.IMAPAddr(), smtp: r.Embedded.SMTPAddr(), herald: r.Address,
		password: func(string) string { return "pw" }, seen: map[string]int{}}

	// Three games.
	keys, steps := map[string]string{}, map[string]string{}
	var hostKey2 string
	for g := 1; g <= 3; g++ {
		h, a, b := fmt.Sprintf("h%d@herald.local", g), fmt.Sprintf("a%d@herald.local", g), fmt.Sprintf("b%d@herald.local", g)
		rig.send(h, "", "new", "new raubritter players "+a+" "+b)
		hw := rig.await(h, "game started")
		if g == 2 {
			m := hostKeyLine.FindStringSubmatch(hw)
			if m == nil {
				t.Fatalf("no host key for G2:\n%s", hw)
			}
			hostKey2 = m[1]
		}
		aw := rig.await(a, "welcome")
		k, step := featureKey.FindStringSubmatch(aw), featureLegal.FindStringSubmatch(strings.ReplaceAll(aw, "=\n", ""))
		if k == nil || step == nil {
			t.Fatalf("no key or legal step in %s's welcome:\n%s", a, aw)
		}
		keys[a], steps[a] = k[1], step[1]
		rig.await(b, "welcome")
	}

	// The poisons, all in the inbox ahead of the moves.
	ps := poisons(keys["a1@herald.local"], "a1@herald.local", "h1@herald.local")
	for _, p := range ps {
		if err := sendRaw(rig.smtp, p.from, r.Address, p.subject, p.headers, p.body); err != nil {
			t.Fatal(err)
		}
	}
	rig.send("h3@herald.local", "", "new", "new raubritter players doomed@herald.local zed@herald.local")
	rig.send("h2@herald.local", "", "Re: [herald G2]", "key "+hostKey2+"\nreplace b2 by doomed2@herald.local")
	for _, a := range []string{"a1@herald.local", "a2@herald.local", "a3@herald.local"} {
		rig.send(a, "", fmt.Sprintf("Re: [herald G%c]", a[1]), "key "+keys[a]+"\n"+steps[a])
	}

	// Every game's move is answered; every poison of items 1 and 2 is
	// refused, with an answer that fits.
	all := map[string][]*Message{}
	waitFor := func(addr, what string, ok func(m *Message) bool) *Message {
		t.Helper()
		for deadline := time.Now().Add(45 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			for _, m := range all[addr] {
				if ok(m) {
					return m
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s got no mail %s in 45 s", addr, what)
			}
			for _, raw := range rig.fetchNew(addr) {
				raw = strings.ReplaceAll(raw, "\n", "\r\n")
				checkAnswer(t, []byte(raw), "")
				m, err := Extract(strings.NewReader(raw), nil)
				if err != nil {
					t.Fatal(err)
				}
				all[addr] = append(all[addr], m)
			}
		}
	}
	for _, a := range []string{"a1@herald.local", "a2@herald.local", "a3@herald.local"} {
		waitFor(a, "move applied", func(m *Message) bool { return strings.HasSuffix(m.Subject, "move applied") })
	}
	for _, p := range ps {
		waitFor(p.from, "quoting "+p.quoted, func(m *Message) bool { return strings.Contains(m.Body, p.quoted) })
	}
	waitFor("h2@herald.local", "seat handed over", func(m *Message) bool { return strings.HasSuffix(m.Subject, "seat handed over") })

	// The mail that fails is set aside after its third failure, and the
	// welcome no mailbox takes after its third.
	var list []host.Failure
	for deadline := time.Now().Add(90 * time.Second); len(list) < 3; time.Sleep(200 * time.Millisecond) {
		if list, err = r.Store.SetAsideList(ctx); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("set aside after 90 s: %+v", list)
		}
	}
	var got []string
	for _, f := range list {
		got = append(got, f.Kind+" "+f.Party)
		if !strings.Contains(f.Reason, "mailbox unavailable") || f.Attempts != maxFailures {
			t.Errorf("set aside %s %s after %d attempts: %s", f.Kind, f.Party, f.Attempts, f.Reason)
		}
	}
	slices.Sort(got)
	// The welcome of doomed2 and the news of a2's move to the seat.
	if want := []string{"draft doomed2@herald.local", "draft doomed2@herald.local", "mail h3@herald.local"}; !slices.Equal(got, want) {
		t.Errorf("set aside %v, want %v", got, want)
	}
	if m := waitFor("h3@herald.local", "set aside", func(m *Message) bool { return strings.HasSuffix(m.Subject, "set aside") }); !strings.Contains(m.Body, "it failed three times") {
		t.Errorf("h3's notice:\n%s", m.Body)
	}
	games, err := r.Store.Games(ctx)
	if err != nil || len(games) != 3 {
		t.Errorf("%d games (%v), want the three in play", len(games), err)
	}
	c, err := imapclient.DialInsecure(rig.imap, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(r.Address, r.Password).Wait(); err != nil {
		t.Fatal(err)
	}
	st, err := c.Status("herald/failed", &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil || *st.NumMessages != 1 {
		t.Errorf("herald/failed: %+v, %v; want the mail set aside", st, err)
	}
	st, err = c.Status("INBOX", &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil || *st.NumMessages != 0 {
		t.Errorf("INBOX: %+v, %v; want it empty", st, err)
	}
}
