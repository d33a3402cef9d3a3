package mail

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// poison is a mail of issue 25 that stopped herald for every game.
type poison struct {
	name    string
	from    string
	subject string
	body    string
	headers []string
	want    Outcome
	quoted  string // a word of the sender's the answer must keep whole
}

// poisons returns the three triggers of issue 25, item 1 (each made the
// outbox loop forever in wrap), and the addresses of item 2 (each made a
// game whose mailbox could not open, which stopped the inbox). player
// plays game G1 with key; host is who starts games.
func poisons(key, player, host string) []poison {
	as := strings.Repeat("A", 100)
	turnName := "turn-" + strings.Repeat("A", 120) + ".yaml"
	brackets := "steps: " + strings.Repeat("[", 90)
	multipart := []string{"MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=B"}
	return []poison{
		{name: "1a new game line", from: host, subject: "new", body: "new raubritter players " + as, want: Rejected, quoted: as},
		{name: "1b attachment name", from: "stranger@herald.local", subject: "turn", want: Rejected, quoted: turnName,
			body: "--B\r\nContent-Type: text/plain\r\n\r\nhere\r\n--B\r\nContent-Type: application/octet-stream\r\n" +
				"Content-Disposition: attachment; filename=\"" + turnName + "\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
				"!!!! not base64 @@@@\r\n--B--\r\n", headers: multipart},
		{name: "1c turn file", from: player, subject: "Re: [herald G1]", want: Rejected, quoted: strings.Repeat("[", 90),
			body: "--B\r\nContent-Type: text/plain\r\n\r\nkey " + key + "\r\n--B\r\nContent-Type: application/octet-stream\r\n" +
				"Content-Disposition: attachment; filename=turn.yaml\r\n\r\n" + brackets + "\r\n--B--\r\n", headers: multipart},
		{name: "2 a@b@c", from: host, subject: "new", body: "new raubritter players a@b@c.local zed@herald.local", want: Rejected, quoted: "a@b@c.local"},
		{name: "2 bob@", from: host, subject: "new", body: "new raubritter players bob@ zed@herald.local", want: Rejected, quoted: "bob@"},
		{name: "2 bob@x.org,", from: host, subject: "new", body: "new raubritter players bob@x.org, zed@herald.local", want: Rejected, quoted: "bob@x.org,"},
	}
}

// checkAnswer checks a mail herald sends: it reads back, every line of
// its text fits 72 columns unless it is one word too long for them, and it
// keeps word whole.
func checkAnswer(t *testing.T, raw []byte, word string) {
	t.Helper()
	msg, err := Extract(bytes.NewReader(raw), nil)
	if err != nil {
		t.Fatalf("herald's answer does not read back: %v\n%s", err, raw)
	}
	for _, line := range strings.Split(msg.Body, "\n") {
		if utf8.RuneCountInString(line) > 72 && len(spaceFields(line)) > 1 {
			t.Errorf("a line of %d columns: %q", utf8.RuneCountInString(line), line)
		}
	}
	if word != "" && !strings.Contains(msg.Body, word) {
		t.Errorf("the answer does not quote %q whole:\n%s", word, msg.Body)
	}
}

// TestPoisonMailsAnswered sends each poison mail of issue 25 (items 1 and
// 2) through the mail service: each is refused with an answer that
// renders, fits 72 columns and quotes what was wrong; no game is created
// for a bad address, and no mailbox is opened for one.
func TestPoisonMailsAnswered(t *testing.T) {
	f := newFixture(t)
	var opened []string
	f.svc.cfg.OnNewPlayer = func(a string) error { opened = append(opened, a); return nil }
	f.start()
	f.sent()
	opened = nil
	for _, p := range poisons(f.keys["alice@herald.test"], "alice@herald.test", "host@herald.test") {
		t.Run(p.name, func(t *testing.T) {
			f.t = t
			f.handle(f.mail(p.from, p.subject, p.body, p.headers...), p.want)
			due, err := f.st.Due(context.Background(), f.clock.Add(1e12), 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(due) != f.seen+1 || due[f.seen].Recipient != p.from {
				t.Fatalf("%d mails queued, want one answer to %s", len(due)-f.seen, p.from)
			}
			var raw []byte
			returns(t, "rendering the answer", func() { raw, err = f.svc.Render(context.Background(), due[f.seen]) })
			if err != nil {
				t.Fatal(err)
			}
			f.seen = len(due)
			checkAnswer(t, raw, p.quoted)
		})
	}
	if games, err := f.st.Games(context.Background()); err != nil || len(games) != 1 {
		t.Errorf("%d games (%v), want only the fixture's", len(games), err)
	}
	if len(opened) != 0 {
		t.Errorf("mailboxes opened for %v", opened)
	}
}

// TestTwoFromFields: a mail with two From fields is refused as malformed,
// and the first address is told why; nothing is done with it (issue 25,
// item 16).
func TestTwoFromFields(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.sent()
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nresign", "From: mallory@elsewhere.test"), Rejected)
	got := f.sent()
	if len(got) != 1 || len(got["alice@herald.test"]) != 1 || !strings.Contains(got["alice@herald.test"][0], "2 From fields") {
		t.Fatalf("answers %v, want one to alice saying the mail has 2 From fields:\n%s", keysOf(got), strings.Join(got["alice@herald.test"], "\n"))
	}
	if g, err := f.st.Game(context.Background(), 1); err != nil || g.Status != "playing" {
		t.Errorf("the game after a mail with two From fields: %v, %v", g.Status, err)
	}
}

// TestRepeatWithoutIDNorDate: a mail with neither Message-ID nor Date
// that repeats an earlier one is still a duplicate, but its sender is told
// what was recognised and how to send it again on purpose; once (issue
// 25, item 17).
func TestRepeatWithoutIDNorDate(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.sent()
	raw := []byte("From: alice@herald.test\r\nTo: herald@herald.test\r\nSubject: Re: [herald G1]\r\nContent-Type: text/plain\r\n\r\nkey " +
		f.keys["alice@herald.test"] + "\r\nshow\r\n")
	f.handle(raw, Answered)
	if got := f.sent(); len(got["alice@herald.test"]) != 1 {
		t.Fatalf("answers to the first mail: %v", keysOf(got))
	}
	f.handle(raw, Duplicate)
	got := f.sent()
	if len(got) != 1 || len(got["alice@herald.test"]) != 1 {
		t.Fatalf("answers to the repeat: %v, want one to alice", keysOf(got))
	}
	if m := got["alice@herald.test"][0]; !strings.Contains(m, "neither a Message-ID nor a Date") || !strings.Contains(m, "change its subject") {
		t.Errorf("the notice does not say what was recognised and what to do:\n%s", m)
	}
	f.handle(raw, Duplicate)
	if got := f.sent(); len(got) != 0 {
		t.Errorf("a third copy was answered: %v", keysOf(got))
	}
	// Changing the subject, as the notice says, sends it again.
	f.handle(bytes.Replace(raw, []byte("Subject: Re: [herald G1]"), []byte("Subject: Re: [herald G1] again"), 1), Answered)
}
