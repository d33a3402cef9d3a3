package mail

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	netmail "net/mail"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzExtract runs Extract on arbitrary input, seeded with every testdata
// mail (and the regression inputs in testdata/fuzz/FuzzExtract). It must not
// panic, must fail only with an *ExtractError, and every message it accepts
// must satisfy checkMessage.
func FuzzExtract(f *testing.F) {
	files, err := filepath.Glob("testdata/*.eml")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Extract(bytes.NewReader(data), nil)
		// ExtractBytes reads the mail in memory as Extract reads it, in
		// the readers Extract gave back, whole or cut short by MaxSize.
		for _, o := range []*ExtractOptions{nil, {MaxSize: int64(len(data)/2 + 1)}} {
			want, werr := m, err
			if o != nil {
				want, werr = Extract(bytes.NewReader(data), o)
			}
			got, gerr := ExtractBytes(data, o)
			if !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Fatalf("ExtractBytes(%v) = %+v, %v; Extract gave %+v, %v", o, got, gerr, want, werr)
			}
		}
		if err != nil {
			var xe *ExtractError
			if !errors.As(err, &xe) {
				t.Fatalf("Extract error = %v (%T), want an *ExtractError", err, err)
			}
			if m != nil && (m.Body != "" || m.Lines != nil || m.Attachments != nil) {
				t.Fatalf("Extract error = %v with a body or attachments: %+v", err, m)
			}
			return
		}
		checkMessage(t, m)
		again, err := Extract(bytes.NewReader(data), nil)
		if err != nil || !reflect.DeepEqual(m, again) {
			t.Fatalf("Extract is not deterministic: %+v, then %+v, %v", m, again, err)
		}
	})
}

// checkMessage checks the invariants of an accepted message.
func checkMessage(t *testing.T, m *Message) {
	t.Helper()
	if m.MessageID == "" {
		t.Errorf("MessageID is empty")
	}
	if m.From == "" || m.From != strings.ToLower(m.From) {
		t.Errorf("From = %q, want a non-empty lower-case address", m.From)
	}
	if m.Body == "" {
		if len(m.Lines) != 0 {
			t.Errorf("Body is empty but Lines = %v", m.Lines)
		}
		if len(m.Attachments) == 0 {
			t.Errorf("Body is empty and there is no attachment")
		}
		return
	}
	if !utf8.ValidString(m.Body) {
		t.Errorf("Body %q is not valid UTF-8", m.Body)
	}
	texts := strings.Split(m.Body, "\n")
	if len(texts) != len(m.Lines) {
		t.Fatalf("Body has %d lines, Lines has %d: %q, %v", len(texts), len(m.Lines), m.Body, m.Lines)
	}
	prev := 0
	for i, text := range texts {
		l := m.Lines[i]
		if l.Text != text {
			t.Errorf("Lines[%d].Text = %q, want Body line %q", i, l.Text, text)
		}
		if l.No <= prev {
			t.Errorf("Lines[%d].No = %d after %d, want increasing from 1", i, l.No, prev)
		}
		prev = l.No
		if strings.HasPrefix(text, ">") || isQuoted(text) {
			t.Errorf("Body line %d %q is quoted", i+1, text)
		}
		if strings.TrimRight(text, " \t") != text {
			t.Errorf("Body line %d %q has trailing blanks", i+1, text)
		}
	}
	if texts[0] == "" || texts[len(texts)-1] == "" {
		t.Errorf("Body %q starts or ends with a blank line", m.Body)
	}
}

// FuzzReadDraft feeds the outbox's draft decoder arbitrary bytes: it errs
// or returns a draft that composes, and never panics; a draft it wrote
// reads back the same.
func FuzzReadDraft(f *testing.F) {
	m := outMail{To: "alice@herald.test", Subject: "[herald G1] Raubritter: your turn", MessageID: "x@herald.test",
		References: []string{"game-1@herald.test"}, Body: "Game G1\n  +-----+\n", Attachment: &Attachment{Name: "r.yaml", Data: []byte("herald: 1\n")}}
	d, err := m.draft()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(d)
	f.Add([]byte(`{"herald_draft": 1}`))
	svc := &Service{cfg: Config{Address: "herald@herald.test"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readDraft(data)
		if err != nil {
			return
		}
		if got.Version == draftVersion {
			if _, err := svc.compose(got.outMail, time.Unix(0, 0), []byte("\x89PNG")); err != nil {
				t.Logf("a decoded draft does not compose: %v", err)
			}
		}
		again, err := got.outMail.draft()
		if err != nil {
			t.Fatal(err)
		}
		back, err := readDraft(again)
		j1, _ := json.Marshal(got.outMail) // an empty list and none are the same
		j2, _ := json.Marshal(back.outMail)
		if err != nil || !bytes.Equal(j1, j2) {
			t.Fatalf("a draft does not read back: %v\n%+v\n%+v", err, got.outMail, back.outMail)
		}
	})
}

// FuzzMailDate checks that mailDate reads every Date field as
// net/mail.ParseDate does: the same time in the same zone, or an error
// from both.
func FuzzMailDate(f *testing.F) {
	for _, v := range []string{
		"Mon, 2 Jan 2006 15:04:05 -0700",
		"Sat, 28 Nov 2026 17:47:54 +0100",
		"Sat, 28 Nov 2026 17:47:54 +0100 (CET)",
		"28 Nov 2026 17:47:54 +0000",
		"Sat, 28 Nov 26 17:47 GMT",
		"Sun, 29 Feb 2026 10:00:00 +0000",
		"Sat, 28 Nov 2026 25:00:00 +0000",
		" Sat, 28 Nov 2026 17:47:54 +0100",
		"",
	} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, gerr := mailDate(v)
		want, werr := netmail.ParseDate(v)
		if (gerr == nil) != (werr == nil) || !got.Equal(want) || got.Location().String() != want.Location().String() || got.String() != want.String() {
			t.Fatalf("mailDate(%q) = %v, %v; net/mail.ParseDate gives %v, %v", v, got, gerr, want, werr)
		}
	})
}
