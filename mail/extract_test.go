package mail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// turnYAML is the turn file attached to the testdata mails.
const turnYAML = "game: lowenherz-12\nplayer: alice\nmove: 7\nsteps:\n  - play 3\n  - border b2-b3\n"

func extractFile(t *testing.T, name string, opts *ExtractOptions) (*Message, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return Extract(bytes.NewReader(data), opts)
}

// wantLines builds the expected Lines from "No|Text" pairs.
func wantLines(pairs ...any) []Line {
	var ls []Line
	for i := 0; i < len(pairs); i += 2 {
		ls = append(ls, Line{No: pairs[i].(int), Text: pairs[i+1].(string)})
	}
	return ls
}

func TestExtractFiles(t *testing.T) {
	alice := "alice@example.com"
	tests := []struct {
		file     string
		from     string
		fromName string
		subject  string
		auto     AutoKind
		html     bool
		lines    []Line
		atts     []Attachment
		err      ErrorKind // 0: no error
	}{
		{file: "plain.eml", from: alice, fromName: "Alice Example", subject: "Re: partie 12 — à vous",
			lines: wantLines(1, "game 12", 2, "key s3cr3t-k3y", 3, "play 3", 4, "border a1-a2")},
		{file: "reply-gmail.eml", from: alice, lines: wantLines(1, "play 3", 2, "border b2-b3")},
		{file: "reply-thunderbird.eml", from: alice,
			lines: wantLines(8, "play 3", 9, "border b2-b3 because I think this comment is long enough that Thunderbird wrapped it with a soft break")},
		{file: "reply-outlook.eml", from: alice, lines: wantLines(1, "play 3", 2, "border b2-b3")},
		{file: "reply-outlook-fr.eml", from: alice, subject: "RE: [herald] partie 12, à vous", lines: wantLines(1, "jouer 3")},
		{file: "reply-outlook-html.eml", from: alice, html: true, lines: wantLines(1, "jouer 3", 2, "frontière b2-b3 €")},
		{file: "reply-french.eml", from: alice, lines: wantLines(1, "jouer 3", 2, "frontière b2-b3")},
		{file: "reply-french-origine.eml", from: alice, lines: wantLines(1, "jouer 3")},
		{file: "html-only.eml", from: alice, html: true, lines: wantLines(
			1, "game 12", 2, "play 3", 3, "border b2-b3", 4, "Café & crème <ok> €",
			5, "one", 6, "two", 7, "a b", 8, "c d", 9, "  x  y", 10, "  1  2")},
		{file: "alternative.eml", from: alice, lines: wantLines(1, "play 3 (plain)")},
		{file: "nested.eml", from: alice, lines: wantLines(1, "play 3", 2, "border b2-b3 — frontière"),
			atts: []Attachment{{Name: "", Data: []byte(strings.TrimSuffix(turnYAML, "\n"))}}},
		{file: "latin1-qp.eml", from: "amelie@example.fr", fromName: "Amélie Dupont", subject: "très bien",
			lines: wantLines(1, "Château\u00a0: jouer la carte épée, côté nord")},
		{file: "latin1-base64.eml", from: "amelie@example.fr", fromName: "Amélie Dupont", subject: "très bien",
			lines: wantLines(1, "Château\u00a0: jouer la carte épée, côté nord")},
		{file: "latin1-8bit-nocharset.eml", from: "amelie@example.fr", lines: wantLines(1, "jouer la carte épée")},
		{file: "cp1252-qp.eml", from: "amelie@example.fr", subject: "cœur €",
			lines: wantLines(1, "Prix\u00a0: 5 €, cœur de lion, été ô Œuvre")},
		{file: "cp1252-base64.eml", from: "amelie@example.fr",
			lines: wantLines(1, "Prix\u00a0: 5 €, cœur de lion, été ô Œuvre")},
		{file: "yaml-attachment.eml", from: alice, lines: wantLines(1, "key s3cr3t-k3y", 2, "see attached turn"),
			atts: []Attachment{{Name: "turn.yaml", Data: []byte(turnYAML)}}},
		{file: "yaml-octet.eml", from: alice, atts: []Attachment{{Name: "Tour.YML", Data: []byte(turnYAML)}}},
		{file: "yaml-inline.eml", from: alice, lines: wantLines(1, "key s3cr3t-k3y"),
			atts: []Attachment{{Name: "move.yaml", Data: []byte(strings.TrimSuffix(turnYAML, "\n"))}}},
		{file: "no-message-id.eml", from: alice, lines: wantLines(1, "play 3")},
		{file: "auto-submitted.eml", from: "robot@example.net", auto: AutoSubmitted,
			lines: wantLines(1, "This message was generated automatically.")},
		{file: "auto-replied.eml", from: "bob@example.com", auto: AutoReply, lines: wantLines(1, "I am away until Monday.")},
		{file: "bounce-return-path.eml", from: "notify@example.com", auto: AutoBounce,
			lines: wantLines(1, "Your message could not be delivered.")},
		{file: "bounce-report.eml", from: "mail@mx.example.com", auto: AutoBounce,
			lines: wantLines(1, "Delivery to bob@example.com failed permanently.")},
		{file: "bounce-mailer-daemon.eml", from: "mailer-daemon@mx.example.com", fromName: "Mail Delivery System", auto: AutoBounce,
			lines: wantLines(1, "The following address failed: bob@example.com")},
		{file: "bulk.eml", from: "news@example.com", auto: AutoList, lines: wantLines(1, "News of the week.")},
		{file: "list-id.eml", from: "carol@example.com", auto: AutoList, lines: wantLines(1, "play 3")},
		{file: "flowed-delsp.eml", from: alice,
			lines: wantLines(1, "border b2-b3 border c3-c4 border d4-d5", 3, "From here on, stuffed.", 6, "last line")},
		{file: "signature.eml", from: alice, lines: wantLines(1, "  play 3", 2, "", 3, "border b2-b3")},
		{file: "unknown-charset-ascii.eml", from: alice, lines: wantLines(1, "play 3")},
		{file: "malformed-boundary.eml", from: alice, err: ErrMalformed},
		{file: "malformed-header.eml", err: ErrMalformed},
		{file: "unknown-charset.eml", from: alice, err: ErrCharset},
		{file: "empty-body.eml", from: alice, err: ErrEmpty},
		{file: "quoted-only.eml", from: alice, err: ErrEmpty},
	}
	seen := make(map[string]bool)
	for _, tt := range tests {
		seen[tt.file] = true
		t.Run(strings.TrimSuffix(tt.file, ".eml"), func(t *testing.T) {
			m, err := extractFile(t, tt.file, nil)
			if tt.err != 0 {
				var xe *ExtractError
				if !errors.As(err, &xe) || xe.Kind != tt.err {
					t.Fatalf("Extract(%s) error = %v, want kind %v", tt.file, err, tt.err)
				}
				if tt.from != "" && (m == nil || m.From != tt.from) {
					t.Errorf("Extract(%s) with error: message = %+v, want From %q", tt.file, m, tt.from)
				}
				return
			}
			if err != nil {
				t.Fatalf("Extract(%s) error = %v", tt.file, err)
			}
			if m.From != tt.from {
				t.Errorf("From = %q, want %q", m.From, tt.from)
			}
			if tt.fromName != "" && m.FromName != tt.fromName {
				t.Errorf("FromName = %q, want %q", m.FromName, tt.fromName)
			}
			if tt.subject != "" && m.Subject != tt.subject {
				t.Errorf("Subject = %q, want %q", m.Subject, tt.subject)
			}
			if m.Auto != tt.auto {
				t.Errorf("Auto = %v, want %v", m.Auto, tt.auto)
			}
			if m.HTMLOnly != tt.html {
				t.Errorf("HTMLOnly = %v, want %v", m.HTMLOnly, tt.html)
			}
			if !reflect.DeepEqual(m.Lines, tt.lines) {
				t.Errorf("Lines = %v,\nwant %v", m.Lines, tt.lines)
			}
			var texts []string
			for _, l := range tt.lines {
				texts = append(texts, l.Text)
			}
			if body := strings.Join(texts, "\n"); m.Body != body {
				t.Errorf("Body = %q, want %q", m.Body, body)
			}
			if !reflect.DeepEqual(m.Attachments, tt.atts) {
				t.Errorf("Attachments = %+v, want %+v", m.Attachments, tt.atts)
			}
			checkMessage(t, m)
		})
	}

	files, err := filepath.Glob("testdata/*.eml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s has no test case", f)
		}
	}
}

func TestExtractHeaderFields(t *testing.T) {
	m, err := extractFile(t, "plain.eml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "plain-1@mail.example.com"; m.MessageID != want {
		t.Errorf("MessageID = %q, want %q", m.MessageID, want)
	}
	if want := "turn-11@herald.example.org"; m.InReplyTo != want {
		t.Errorf("InReplyTo = %q, want %q", m.InReplyTo, want)
	}
	if want := []string{"start@herald.example.org", "turn-11@herald.example.org"}; !reflect.DeepEqual(m.References, want) {
		t.Errorf("References = %q, want %q", m.References, want)
	}
	if want := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC); !m.Date.Equal(want) {
		t.Errorf("Date = %v, want %v", m.Date, want)
	}
}

// TestExtractMessageIDHash checks the ID of a mail without Message-ID: the
// same for every copy of the mail, whatever trace fields the servers on the
// way prepended or how they ended its lines, and another for a mail its
// author wrote differently.
func TestExtractMessageIDHash(t *testing.T) {
	data, err := os.ReadFile("testdata/no-message-id.eml")
	if err != nil {
		t.Fatal(err)
	}
	id := func(raw []byte) string {
		t.Helper()
		m, err := Extract(bytes.NewReader(raw), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(m.MessageID, "sha256:") {
			t.Fatalf("MessageID = %q, want a sha256: fallback", m.MessageID)
		}
		return m.MessageID
	}
	want := id(data)
	crlf := []byte(strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n", "\r\n"))
	for name, raw := range map[string][]byte{
		"again":  data,
		"crlf":   crlf,
		"traced": append([]byte("Return-Path: <alice@example.com>\nDelivered-To: herald@example.org\nX-Original-To: herald@example.org\nReceived: from mx (mx [192.0.2.1])\n\tby example.org; Mon, 05 Jan 2026 10:00:02 +0100\nAuthentication-Results: example.org; spf=pass\n"), data...),
		"folded": []byte(strings.Replace(string(data), "Subject: no id", "Subject: no\n id", 1)),
	} {
		if got := id(raw); got != want {
			t.Errorf("%s: MessageID = %q, want %q", name, got, want)
		}
	}
	for name, raw := range map[string][]byte{
		"body":    append(slices.Clip(data), 'x'),
		"subject": []byte(strings.Replace(string(data), "Subject: no id", "Subject: no id 2", 1)),
		"date":    []byte(strings.Replace(string(data), "10:00:00", "10:00:01", 1)),
	} {
		if got := id(raw); got == want {
			t.Errorf("%s changed: MessageID = %q, want another", name, got)
		}
	}
}

// rawMail builds a CRLF message from header lines and a body.
func rawMail(header, body string) string {
	s := header + "\n\n" + body
	return strings.ReplaceAll(s, "\n", "\r\n")
}

func TestExtractHeaderVariants(t *testing.T) {
	const from = "From: alice@example.com"
	tests := []struct {
		name    string
		raw     string
		check   func(*Message) bool
		errKind ErrorKind
	}{
		{"message-id-without-at", rawMail(from+"\nMessage-ID: <abc.def>", "x"),
			func(m *Message) bool { return m.MessageID == "abc.def" }, 0},
		{"message-id-without-brackets", rawMail(from+"\nMessage-ID: abc@def", "x"),
			func(m *Message) bool { return m.MessageID == "abc@def" }, 0},
		{"message-id-empty", rawMail(from+"\nMessage-ID: ", "x"),
			func(m *Message) bool { return strings.HasPrefix(m.MessageID, "sha256:") }, 0},
		{"bad-date", rawMail(from+"\nDate: yesterday at noon", "x"),
			func(m *Message) bool { return m.Date.IsZero() }, 0},
		{"no-date", rawMail(from, "x"),
			func(m *Message) bool { return m.Date.IsZero() }, 0},
		{"from-unknown-charset-name", rawMail("From: =?x-klingon?q?Qapla=E9?= <Q@Example.org>", "x"),
			func(m *Message) bool { return m.From == "q@example.org" }, 0},
		{"subject-unknown-charset", rawMail(from+"\nSubject: =?x-klingon?q?Qapla?=", "x"),
			func(m *Message) bool { return m.Subject == "Qapla" }, 0},
		{"mbox-from-line", "From alice@example.com Mon Jan  5 10:00:00 2026\r\n" + rawMail(from, "x"),
			func(m *Message) bool { return m.From == "alice@example.com" && m.Body == "x" }, 0},
		{"header-only", from + "\r\nSubject: nothing\r\n",
			func(m *Message) bool { return m.From == "alice@example.com" }, ErrEmpty},
		{"no-from", rawMail("Subject: who?", "x"),
			func(m *Message) bool { return m.From == "" }, ErrMalformed},
		{"two-from", rawMail("From: a@example.com, b@example.com", "x"),
			func(m *Message) bool { return m.From == "" }, ErrMalformed},
		{"bad-from", rawMail("From: <<<", "x"),
			func(m *Message) bool { return m.From == "" }, ErrMalformed},
		{"empty-input", "", nil, ErrMalformed},
		{"body-only", "\r\nplay 3\r\n", nil, ErrMalformed},
		{"auto-submitted-no", rawMail(from+"\nAuto-Submitted: no", "x"),
			func(m *Message) bool { return m.Auto == AutoNone }, 0},
		{"precedence-list", rawMail(from+"\nPrecedence: list", "x"),
			func(m *Message) bool { return m.Auto == AutoList }, 0},
		{"list-unsubscribe", rawMail(from+"\nList-Unsubscribe: <mailto:u@example.org>", "x"),
			func(m *Message) bool { return m.Auto == AutoList }, 0},
		{"x-autorespond", rawMail(from+"\nX-Autorespond: vacation", "x"),
			func(m *Message) bool { return m.Auto == AutoReply }, 0},
		{"precedence-auto-reply", rawMail(from+"\nPrecedence: auto_reply", "x"),
			func(m *Message) bool { return m.Auto == AutoReply }, 0},
		{"auto-response-suppress-ignored", rawMail(from+"\nX-Auto-Response-Suppress: All", "x"),
			func(m *Message) bool { return m.Auto == AutoNone }, 0},
		{"bounce-beats-list", rawMail("Return-Path: < >\n"+from+"\nList-Id: <l.example.org>", "x"),
			func(m *Message) bool { return m.Auto == AutoBounce }, 0},
		{"postmaster", rawMail("From: Postmaster <postmaster@example.org>", "x"),
			func(m *Message) bool { return m.Auto == AutoBounce }, 0},
		{"failed-recipients", rawMail(from+"\nX-Failed-Recipients: bob@example.com", "x"),
			func(m *Message) bool { return m.Auto == AutoBounce }, 0},
		{"unknown-charset-with-html-alternative", rawMail(from+"\nContent-Type: multipart/alternative; boundary=b",
			"--b\nContent-Type: text/plain; charset=x-klingon\nContent-Transfer-Encoding: quoted-printable\n\n=E9=E9\n"+
				"--b\nContent-Type: text/html; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\n<p>jouer =E9p=E9e</p>\n--b--\n"),
			func(m *Message) bool { return m.Body == "jouer épée" && m.HTMLOnly }, 0},
		{"blank-plain-html-wins", rawMail(from+"\nContent-Type: multipart/alternative; boundary=b",
			"--b\nContent-Type: text/plain\n\n \n--b\nContent-Type: text/html\n\n<p>play 3</p>\n--b--\n"),
			func(m *Message) bool { return m.Body == "play 3" && m.HTMLOnly }, 0},
		{"lenient-content-type", rawMail(from+"\nContent-Type: text/plain; charset=iso-8859-1 format=flowed;; x",
			"jouer \xe9p\xe9e"),
			func(m *Message) bool { return m.Body == "jouer épée" }, 0},
		{"lenient-boundary", rawMail(from+"\nContent-Type: multipart/mixed; boundary=a b; boundary=c",
			"--a b\nContent-Type: text/plain\n\nplay 3\n--a b--\n"),
			func(m *Message) bool { return m.Body == "play 3" }, 0},
		{"utf8-declared-invalid", rawMail(from+"\nContent-Type: text/plain; charset=utf-8", "play \xff3"),
			func(m *Message) bool { return m.Body == "play \uFFFD3" }, 0},
		{"bom-and-cr", rawMail(from, "\ufeffplay 3\rborder b2-b3"),
			func(m *Message) bool { return m.Body == "play 3\nborder b2-b3" && m.Lines[1].No == 2 }, 0},
		{"forwarded-message-not-entered", rawMail(from+"\nContent-Type: multipart/mixed; boundary=b",
			"--b\nContent-Type: message/rfc822\n\nFrom: bob@example.com\n\nplay 9\n--b--\n"),
			nil, ErrEmpty},
		{"html-attachment-ignored", rawMail(from+"\nContent-Type: multipart/mixed; boundary=b",
			"--b\nContent-Type: text/plain\n\nplay 3\n--b\nContent-Type: text/html\nContent-Disposition: attachment; filename=x.html\n\n<p>no</p>\n--b--\n"),
			func(m *Message) bool { return m.Body == "play 3" }, 0},
		{"bad-base64", rawMail(from+"\nContent-Transfer-Encoding: base64", "!!!!"), nil, ErrMalformed},
		{"truncated-multipart", rawMail(from+"\nContent-Type: multipart/mixed; boundary=b",
			"--b\nContent-Type: text/plain\n\nplay 3\nborder b2"), nil, ErrMalformed},
		{"missing-boundary", rawMail(from+"\nContent-Type: multipart/mixed", "play 3"), nil, ErrMalformed},
		{"unknown-transfer-encoding", rawMail(from+"\nContent-Transfer-Encoding: 8-bit", "play 3"),
			func(m *Message) bool { return m.Body == "play 3" }, 0},
		{"yaml-unknown-charset", rawMail(from+"\nContent-Type: text/yaml; charset=x-klingon\nContent-Transfer-Encoding: quoted-printable",
			"a: =E9"), nil, ErrCharset},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Extract(strings.NewReader(tt.raw), nil)
			if tt.errKind != 0 {
				if !errors.Is(err, tt.errKind) {
					t.Fatalf("Extract error = %v, want kind %v", err, tt.errKind)
				}
			} else if err != nil {
				t.Fatalf("Extract error = %v", err)
			}
			if tt.check != nil && (m == nil || !tt.check(m)) {
				t.Errorf("Extract = %+v, not as expected", m)
			}
		})
	}
}

// nestedMultipart returns a message with depth multipart/mixed levels around
// a text/plain part.
func nestedMultipart(depth int) string {
	var b strings.Builder
	b.WriteString("From: alice@example.com\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n")
	for i := 1; i < depth; i++ {
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", i-1, i)
	}
	fmt.Fprintf(&b, "--b%d\r\nContent-Type: text/plain\r\n\r\nplay 3\r\n", depth-1)
	for i := depth - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "--b%d--\r\n", i)
	}
	return b.String()
}

func TestExtractNesting(t *testing.T) {
	m, err := Extract(strings.NewReader(nestedMultipart(maxMIMEDepth)), nil)
	if err != nil || m.Body != "play 3" {
		t.Errorf("Extract(%d levels) = %+v, %v, want body \"play 3\"", maxMIMEDepth, m, err)
	}
	if _, err := Extract(strings.NewReader(nestedMultipart(maxMIMEDepth+1)), nil); !errors.Is(err, ErrMalformed) {
		t.Errorf("Extract(%d levels) error = %v, want %v", maxMIMEDepth+1, err, ErrMalformed)
	}
}

func TestExtractTooLarge(t *testing.T) {
	header := "From: Alice <alice@example.com>\r\nAuto-Submitted: auto-generated\r\nMessage-ID: <big@example.com>\r\n\r\n"
	counter := &countingReader{r: io.MultiReader(strings.NewReader(header), endlessReader{})}
	opts := &ExtractOptions{MaxSize: 1000}
	m, err := Extract(counter, opts)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Extract(endlessReader) error = %v, want %v", err, ErrTooLarge)
	}
	if counter.n > opts.MaxSize+1 {
		t.Errorf("Extract read %d bytes, want at most %d", counter.n, opts.MaxSize+1)
	}
	if m == nil || m.From != "alice@example.com" || m.Auto != AutoSubmitted || m.MessageID != "big@example.com" || m.Body != "" {
		t.Errorf("Extract(too large) message = %+v, want header fields and no body", m)
	}

	// The default limit.
	big := rawMail("From: alice@example.com", strings.Repeat("play 3\n", DefaultMaxSize/7+1))
	if _, err := Extract(strings.NewReader(big), nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Extract(%d bytes) error = %v, want %v", len(big), err, ErrTooLarge)
	}
	if _, err := Extract(strings.NewReader(big[:DefaultMaxSize]), nil); err != nil {
		t.Errorf("Extract(%d bytes) error = %v, want nil", DefaultMaxSize, err)
	}

	// A header block cut by the limit: no message at all.
	huge := "From: alice@example.com\r\nX-Junk: " + strings.Repeat("x", 2000) + "\r\n\r\nbody"
	if m, err := Extract(strings.NewReader(huge), opts); !errors.Is(err, ErrTooLarge) || m != nil {
		t.Errorf("Extract(huge header) = %v, %v, want nil, %v", m, err, ErrTooLarge)
	}

	// Attachments have their own limit.
	_, err = extractFile(t, "yaml-attachment.eml", &ExtractOptions{MaxAttachment: 10})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("Extract(yaml-attachment.eml, MaxAttachment 10) error = %v, want %v", err, ErrTooLarge)
	}
	if _, err = extractFile(t, "yaml-attachment.eml", &ExtractOptions{MaxAttachment: int64(len(turnYAML))}); err != nil {
		t.Errorf("Extract(yaml-attachment.eml, MaxAttachment %d) error = %v, want nil", len(turnYAML), err)
	}
}

type endlessReader struct{}

func (endlessReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

func TestExtractReadError(t *testing.T) {
	boom := errors.New("connection reset")
	m, err := Extract(failingReader{boom}, nil)
	if m != nil || !errors.Is(err, boom) {
		t.Fatalf("Extract(failing reader) = %v, %v, want nil, %v", m, err, boom)
	}
	var xe *ExtractError
	if errors.As(err, &xe) {
		t.Errorf("Extract(failing reader) error is an *ExtractError, want a plain read error")
	}
}

func TestExtractErrorString(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&ExtractError{Kind: ErrTooLarge, Detail: "more than 10 bytes"}, "mail: message too large: more than 10 bytes"},
		{&ExtractError{Kind: ErrMalformed, Detail: "header", Err: errors.New("bad line")}, "mail: malformed message: header: bad line"},
		{&ExtractError{Kind: ErrEmpty}, "mail: empty message"},
		{&ExtractError{Kind: ErrCharset, Err: errors.New("x")}, "mail: unknown charset: x"},
		{ErrEmpty, "mail: empty message"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	inner := errors.New("inner")
	err := error(&ExtractError{Kind: ErrMalformed, Err: inner})
	if !errors.Is(err, inner) || !errors.Is(err, ErrMalformed) || errors.Is(err, ErrEmpty) {
		t.Errorf("errors.Is on %v gives wrong answers", err)
	}
}

func TestKindStrings(t *testing.T) {
	autos := map[AutoKind]string{
		AutoNone: "none", AutoSubmitted: "auto-submitted", AutoBounce: "bounce",
		AutoList: "list", AutoReply: "auto-reply", AutoKind(42): "AutoKind(42)",
	}
	for k, want := range autos {
		if got := k.String(); got != want {
			t.Errorf("AutoKind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
	if got, want := ErrorKind(0).String(), "ErrorKind(0)"; got != want {
		t.Errorf("ErrorKind(0).String() = %q, want %q", got, want)
	}
}

func TestOwnLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Line
	}{
		{"signature-dashes-only", "play 3\n--\nAlice", wantLines(1, "play 3")},
		{"original-message-thunderbird", "play 3\n\n-------- Original Message --------\nSubject: x\nplay 2", wantLines(1, "play 3")},
		{"forwarded", "see below\nBegin forwarded message:\n\nFrom: bob", wantLines(1, "see below")},
		{"outlook-stars", "play 3\n\n*From:* Herald <h@x>\n*Sent:* Monday\n*To:* Alice\n*Subject:* game\n\nplay 2", wantLines(1, "play 3")},
		{"outlook-no-separator", "play 3\nFrom: Herald\nDate: Monday\nSubject: game\nplay 2", wantLines(1, "play 3")},
		{"from-line-alone-kept", "From: a1\nto b2", wantLines(1, "From: a1", 2, "to b2")},
		{"bottom-and-inline-posting",
			"On Mon, 5 Jan 2026, Herald <h@x> wrote:\n> Your move?\nplay 3\n> And the border?\nborder b2-b3",
			wantLines(3, "play 3", 5, "border b2-b3")},
		{"attribution-not-before-quote-kept", "Alice wrote:\nplay 3", wantLines(1, "Alice wrote:", 2, "play 3")},
		{"attribution-at-end", "play 3\n\nOn Mon, 5 Jan 2026, Herald wrote:", wantLines(1, "play 3")},
		{"sentence-before-attribution-kept",
			"On Monday I played a1.\nHerald wrote:\n> x", wantLines(1, "On Monday I played a1.")},
		{"three-line-attribution",
			"play 3\nOn Mon, 5 Jan 2026 at 09:00,\nHerald the adjudicator <\nherald@example.org> wrote:\n> x",
			wantLines(1, "play 3")},
		{"french-nbsp", "jouer 3\nLe 05/01/2026 à 10:00, Herald a écrit\u202f:\n> x", wantLines(1, "jouer 3")},
		{"indented-quote", "play 3\n   > quoted\n\t>> quoted", wantLines(1, "play 3")},
		{"blank-edges", "\n\nplay 3\n\n\nborder\n\n", wantLines(3, "play 3", 4, "", 5, "", 6, "border")},
		{"only-quotes", "> a\n> b", nil},
		// Issue 26, item 5: the quoting headers of other languages, and
		// reply headers over a quoted mail with no '>'.
		{"outlook-german", "show\n\nVon: herald <herald@x>\nGesendet: Montag, 23. November 2026 10:00\nAn: alice@x\nBetreff: [herald G12] your turn\n\nGame G12, move 1", wantLines(1, "show")},
		{"outlook-spanish", "show\n\nDe: herald <herald@x>\nEnviado: lunes, 23 de noviembre de 2026 10:00\nPara: alice@x\nAsunto: [herald G12] your turn\n\nplay 2", wantLines(1, "show")},
		{"outlook-italian", "show\nDa: herald <herald@x>\nInviato: lunedì 23 novembre 2026 10:00\nA: alice@x\nOggetto: turno", wantLines(1, "show")},
		{"outlook-dutch", "show\nVan: herald <herald@x>\nVerzonden: maandag 23 november 2026 10:00\nAan: alice@x\nOnderwerp: beurt", wantLines(1, "show")},
		{"outlook-french", "montre\n\n*De :* herald <herald@x>\n*Envoyé :* lundi 23 novembre 2026 10:00\n*À :* alice@x\n*Objet :* tour", wantLines(1, "montre")},
		{"unprefixed-english", "show\n\nOn Mon, 23 Nov 2026 at 10:00, herald <herald@x> wrote:\n\nGame G12, move 1: IT IS YOUR TURN\n  plain castle j10", wantLines(1, "show")},
		{"unprefixed-wrapped", "show\nOn Mon, 23 Nov 2026 at 10:00, herald <\nherald@x> wrote:\nplain castle j10", wantLines(1, "show")},
		{"unprefixed-french", "montre\nLe lun. 23 nov. 2026 à 10:00, herald <herald@x> a écrit :\nplaine château j10", wantLines(1, "montre")},
		{"unprefixed-german", "show\nAm 23.11.2026 um 10:00 schrieb herald <herald@x>:\nplain castle j10", wantLines(1, "show")},
		// Wrapped before the address, where the verb is on the first line.
		{"german-wrapped", "show\nAm Mo., 23. Nov. 2026 um 10:00 Uhr schrieb herald <\nherald@x>:\n> Game G12", wantLines(1, "show")},
		{"unprefixed-german-wrapped", "show\nAm Mo., 23. Nov. 2026 um 10:00 Uhr schrieb herald\n<herald@x>:\nplain castle j10", wantLines(1, "show")},
		{"address-line-alone-kept", "show\nwrite to\n<herald@x>:\nplain castle j10", wantLines(1, "show", 2, "write to", 3, "<herald@x>:", 4, "plain castle j10")},
		{"unprefixed-spanish", "show\nEl lun, 23 nov 2026 a las 10:00, herald (<herald@x>) escribió:\nplain castle j10", wantLines(1, "show")},
		{"unprefixed-italian", "show\nIl giorno lun 23 nov 2026 alle ore 10:00 herald <herald@x> ha scritto:\nplain castle j10", wantLines(1, "show")},
		{"unprefixed-dutch", "show\nOp ma 23 nov 2026 om 10:00 schreef herald <herald@x>:\nplain castle j10", wantLines(1, "show")},
		{"dateless-sentence-kept", "On my side I wrote:\nplain castle j10", wantLines(1, "On my side I wrote:", 2, "plain castle j10")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []Line
			for i, s := range strings.Split(tt.in, "\n") {
				in = append(in, Line{No: i + 1, Text: s})
			}
			if got := ownLines(in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ownLines(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestUnflow(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		delSp bool
		want  []Line
	}{
		{"soft-break", "a \nb\nc", false, wantLines(1, "a b", 3, "c")},
		{"delsp", "ab \ncd", true, wantLines(1, "abcd")},
		{"stuffed", " >not a quote\n From", false, wantLines(1, ">not a quote", 2, "From")},
		{"signature-not-flowed", "-- \nAlice", false, wantLines(1, "-- ", 2, "Alice")},
		{"no-flow-into-signature", "play 3 \n-- \nAlice", false, wantLines(1, "play 3 ", 2, "-- ", 3, "Alice")},
		{"quote-depth-change", "> a \nb", false, wantLines(1, "> a ", 2, "b")},
		{"quoted-flowed", ">> a \n>> b", false, wantLines(1, ">> a b")},
		{"last-line-soft", "a ", false, wantLines(1, "a ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unflow(strings.Split(tt.in, "\n"), tt.delSp); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("unflow(%q, %v) = %v, want %v", tt.in, tt.delSp, got, tt.want)
			}
		})
	}
}

func TestHTMLToText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"br", "a<br>b<br/>c</br>d", "a\nb\nc\nd"},
		{"blank-div", "<div>a</div><div><br></div><div>b</div>", "a\n\nb"},
		{"paragraphs", "<p>a</p>\n<p>b</p>", "a\nb"},
		{"whitespace", "  a \n  <b>b</b>\tc  ", "a b c"},
		{"entities", "&lt;a&gt; &amp; &eacute;&#233;&#xE9; &nbsp;x", "<a> & ééé  x"},
		{"script-style", "<style>x{}</style><script>if (a<b) {}</script>ok<style/>", "ok"},
		{"title", "<head><title>T</title></head><body>b</body>", "b"},
		{"pre", "<pre>\n a  b\n\n c</pre>d", " a  b\n\n c\nd"},
		{"list", "<ul><li>a<li>b</ul>", "a\nb"},
		{"table", "<table><tr><td>a</td><td>b</td></tr><tr><th>c</th><td>d</td></tr></table>", "a b\nc d"},
		{"nested-blockquote", "x<blockquote>q<blockquote>qq</blockquote>q</blockquote>y", "x\n>\ny"},
		{"unclosed-blockquote", "x<blockquote>q", "x\n>"},
		{"comment", "a<!-- hidden -->b", "ab"},
		{"gmail-quote", `a<div class="gmail_quote gmail_quote_container"><div>On x wrote:</div><div>q</div></div>b`, "a\n>\nb"},
		{"yahoo-quote", `a<div id="yahoo_quoted_1" class="yahoo_quoted"><div>q<div>q</div></div>q</div>`, "a\n>"},
		{"gmail-signature", `a<br clear="all"><div dir="ltr" class="gmail_signature"><div>Alice</div></div>b`, "a\nb"},
		{"moz-signature", "a<pre class=\"moz-signature\" cols=\"72\">-- \nAlice</pre>b", "a\nb"},
		{"broken", "<p>a<p <b>b</x>", "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := htmlToText(tt.in); got != tt.want {
				t.Errorf("htmlToText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
