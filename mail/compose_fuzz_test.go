package mail

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// returns runs f and fails t if it has not returned within a minute: the
// text transformations of the mail path take time linear in their input,
// and one that loops (issue 25, item 1) would hang the outbox for good.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not return", what)
	}
}

// checkWrapped checks that out is in wrapped as wrap must: the same
// words in the same order, and every line within width unless it holds a
// single word (after its indent, words being what spaces separate) too
// long for it.
func checkWrapped(t *testing.T, in, out string, width int) {
	t.Helper()
	if !slices.Equal(strings.Fields(in), strings.Fields(out)) {
		t.Fatalf("wrap lost or changed words:\nin  %q\nout %q", in, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(line) > width && len(spaceFields(line)) > 1 {
			t.Fatalf("wrap left a line of %d columns that could break:\n%q\nin %q", utf8.RuneCountInString(line), line, in)
		}
	}
	if n, m := strings.Count(in, "\n"), strings.Count(out, "\n"); m < n {
		t.Fatalf("wrap joined lines: %d line breaks, then %d", n, m)
	}
}

// spaceFields splits s at spaces, the only characters wrap breaks at.
func spaceFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' })
}

func TestWrap(t *testing.T) {
	long := strings.Repeat("A", 71)
	for _, c := range []struct{ in, want string }{
		{"short line", "short line"},
		{"", ""},
		{strings.Repeat("word ", 16) + "end", strings.TrimSpace(strings.Repeat("word ", 14)) + "\n  word word end"},
		// Issue 25, item 1: after the first break the only space left was
		// the indent, and wrap broke there again and again, forever.
		{"  " + long, "  " + long},
		{"x " + long + " y", "x\n  " + long + "\n  y"},
		{"refused: " + strings.Repeat("A", 100), "refused:\n  " + strings.Repeat("A", 100)},
		// A word too long for the line breaks after it, so that what
		// follows it fits.
		{strings.Repeat("B", 80) + " and the rest", strings.Repeat("B", 80) + "\n  and the rest"},
		// A board row is never broken, nor a line of spaces.
		{"   +--+--+--+", "   +--+--+--+"},
		{strings.Repeat(" ", 90), ""}, // trailing spaces of a long line go
		{"a\n\nb", "a\n\nb"},
	} {
		var got string
		returns(t, "wrap", func() { got = wrap(c.in, 72) })
		if got != c.want {
			t.Errorf("wrap(%q)\n= %q\nwant %q", c.in, got, c.want)
		}
		checkWrapped(t, c.in, got, 72)
	}
}

// FuzzWrap checks wrap on any text and width: it returns, keeps every
// word and breaks every line that can be broken.
func FuzzWrap(f *testing.F) {
	f.Add("  "+strings.Repeat("A", 71), 72)
	f.Add("herald could not read your mail:\n\n  attachment \"turn-"+strings.Repeat("A", 120)+".yaml\": illegal base64", 72)
	f.Add("steps: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 72)
	f.Add("é è ê "+strings.Repeat("ü", 80)+"   \t x", 10)
	f.Add("a b", 1)
	f.Fuzz(func(t *testing.T, text string, width int) {
		if width < 1 || width > 200 {
			return
		}
		var out string
		returns(t, "wrap", func() { out = wrap(text, width) })
		checkWrapped(t, text, out, width)
	})
}

// plainText returns the decoded text/plain part of a mail herald composed.
func plainText(t *testing.T, raw []byte) string {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("herald composed a mail that does not read: %v\n%s", err, raw)
	}
	var text string
	found := false
	err = e.Walk(func(_ []int, part *message.Entity, err error) error {
		if err != nil {
			return err
		}
		if ct, _, _ := part.Header.ContentType(); ct == "text/plain" && !found {
			b, err := io.ReadAll(part.Body)
			text, found = string(b), true
			return err
		}
		return nil
	})
	if err != nil || !found {
		t.Fatalf("no text part (%v) in\n%s", err, raw)
	}
	return text
}

// FuzzCompose composes a mail from any body, topic and recipient (one
// ParseAddress takes, as every recipient now is), its subject made by
// Service.subject: compose returns, the mail reads back with its subject
// and recipient, and its text keeps every word of the body in lines that
// fit 72 columns where they can.
func FuzzCompose(f *testing.F) {
	f.Add("refused:\n  "+strings.Repeat("A", 71), "move refused", "alice@herald.test", false)
	f.Add("herald could not read your mail:\n\n  turn-"+strings.Repeat("A", 120)+".yaml: illegal base64 data", "your mail could not be read", "Bob.O'Neil+x@Example.org", true)
	f.Add("é\x8d\tx\r\ny", "Sujet accentué, très long "+strings.Repeat("é", 100), "u@[192.0.2.1]", false)
	f.Fuzz(func(t *testing.T, body, topic, to string, plain bool) {
		addr, err := host.ParseAddress(to)
		if err != nil {
			return
		}
		body = strings.ToValidUTF8(strings.ReplaceAll(body, "\r", ""), "\uFFFD") // drafts are JSON: valid UTF-8
		topic = strings.ToValidUTF8(topic, "\uFFFD")
		svc := &Service{cfg: Config{Address: "herald@herald.test", PlainOnly: plain, Registry: adjudicator.NewRegistry(raubritter.Game)}}
		var subject string
		returns(t, "subject", func() { subject = svc.subject(int64(len(body)%3), "raubritter", topic, notation.Lang(len(topic)%2)) })
		if !slices.Equal(strings.Fields(subject)[len(strings.Fields(subject))-len(strings.Fields(topic)):], strings.Fields(topic)) {
			t.Fatalf("the subject %q lost words of the topic %q", subject, topic)
		}
		m := outMail{To: addr, Subject: subject, MessageID: "x@herald.test", Body: body, ReplyTo: "herald+g1.tok@herald.test"}
		var raw []byte
		returns(t, "compose", func() { raw, err = svc.compose(m, time.Unix(0, 0), nil) })
		if err != nil {
			t.Fatalf("compose: %v", err)
		}
		msg, err := message.Read(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		h := gomail.Header{Header: msg.Header}
		if got, err := h.Subject(); err != nil || strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(subject), " ") {
			t.Errorf("the subject %q reads back as %q, %v", subject, got, err)
		}
		if got, err := h.AddressList("To"); err != nil || len(got) != 1 || got[0].Address != addr {
			t.Errorf("the recipient %q reads back as %v, %v", addr, got, err)
		}
		text := strings.ReplaceAll(plainText(t, raw), "\r\n", "\n")
		checkWrapped(t, body, text, 72)
	})
}

// FuzzStatusLine: the status line of any move, players and deadline is
// one line that programs can split back into its fields, and wrap never
// breaks it.
func FuzzStatusLine(f *testing.F) {
	f.Add(int64(12), 14, "alice,bob", int64(1764583200), false)
	f.Add(int64(1), 1, strings.Repeat("a", 64)+","+strings.Repeat("b", 64)+","+strings.Repeat("c", 64), int64(0), false)
	f.Add(int64(3), 31, "", int64(0), true)
	f.Fuzz(func(t *testing.T, game int64, move int, names string, deadline int64, over bool) {
		if game <= 0 {
			return
		}
		st := &host.Status{Move: move, Over: over}
		if names != "" {
			for _, n := range strings.Split(names, ",") {
				if _, err := host.ParseAddress(n + "@x.org"); err != nil {
					return // seats are named by the part before the @
				}
				st.ToMove = append(st.ToMove, n)
			}
		}
		if deadline > 0 && deadline < 1<<40 {
			st.Deadline = time.Unix(deadline, 0)
		}
		var line string
		returns(t, "statusLine", func() { line = statusLine(host.Notice{Game: game, Status: st}) })
		first, rest, _ := strings.Cut(wrap(line+"The board.\n", 72), "\n")
		if rest != "\nThe board.\n" || first+"\n\n" != line {
			t.Fatalf("the status line %q is not one line that wrap keeps: %q", line, first)
		}
		f := strings.Fields(first)
		if len(f) < 5 || f[0] != "::" || f[1] != "game" || f[2] != gameTag(game) || f[3] != "move" || f[4] != fmt.Sprint(move) {
			t.Fatalf("the status line %q does not begin with its game and move", first)
		}
		if over {
			if len(f) != 6 || f[5] != "over" {
				t.Fatalf("the status line of a game over: %q", first)
			}
			return
		}
		i := slices.Index(f, "to-move")
		if len(st.ToMove) > 0 && (i < 0 || !slices.Equal(strings.Split(f[i+1], ","), st.ToMove)) {
			t.Fatalf("the status line %q does not give back who is to move, %q", first, st.ToMove)
		}
	})
}

// FuzzQuotedRefusal: a refusal quotes the line it refuses, with a caret
// under the fault; whatever the line, the mail's text (the refusal
// wrapped) returns and keeps every word.
func FuzzQuotedRefusal(f *testing.F) {
	f.Add("steps: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 8, "unexpected [")
	f.Add("new raubritter players "+strings.Repeat("A", 100), 24, "not a mail address")
	f.Add("\t\tkeep\tplain village", 3, "unknown word")
	f.Fuzz(func(t *testing.T, source string, col int, msg string) {
		if col < 1 || col > 1<<16 {
			return
		}
		e := &notation.Error{Pos: notation.Pos{Line: 1, Col: col}, Msg: msg, Source: source, Example: "keep plain village"}
		var text string
		returns(t, "quoting a refused line", func() { text = wrap("herald refused your move:\n\n"+e.Pretty(notation.English), 72) })
		checkWrapped(t, "herald refused your move:\n\n"+e.Pretty(notation.English), text, 72)
	})
}
