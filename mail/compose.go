package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"github.com/heraldgames/herald/adjudicator/host"
)

// outMail is a mail herald sends: plain text at 72 columns (with an HTML
// alternative that shows the same text in <pre>), and an optional
// attachment (the final record). It is queued as a draft and composed into
// MIME when the outbox sends it.
type outMail struct {
	To         string      `json:"to"`
	Subject    string      `json:"subject"`
	MessageID  string      `json:"message_id"`            // without brackets; set when queued
	InReplyTo  string      `json:"in_reply_to,omitempty"` // Message-ID of the mail answered, without brackets
	ReplyTo    string      `json:"reply_to,omitempty"`    // where replies go: herald's address with the seat's token
	References []string    `json:"references,omitempty"`  // for threading, without brackets
	Body       string      `json:"body"`
	Attachment *Attachment `json:"attachment,omitempty"`
	// RecordOf, when not zero, is a game whose record is the attachment
	// (named Attachment.Name): it is read and encoded when the mail is
	// rendered, out of the transaction that queued it. Only a game that is
	// over is attached, and its record no longer changes.
	RecordOf int64 `json:"record_of,omitempty"`
}

// draftVersion is the format of the drafts in the outbox; a herald that
// finds a draft of another version leaves it unsent rather than guess.
const draftVersion = 1

type draftJSON struct {
	Version int `json:"herald_draft"`
	outMail
}

// draft encodes m for the outbox.
func (m outMail) draft() ([]byte, error) {
	return json.Marshal(draftJSON{Version: draftVersion, outMail: m})
}

// readDraft decodes a draft.
func readDraft(data []byte) (draftJSON, error) {
	var d draftJSON
	err := json.Unmarshal(data, &d)
	return d, err
}

// Render returns the RFC 5322 message of an outbox mail: the message
// itself, or its draft composed now, dated when it was queued. The
// Message-ID comes from the draft, so a mail sent twice (a crash between
// the SMTP server's acceptance and the outbox's note of it) is the same
// mail twice, which clients recognise.
func (s *Service) Render(ctx context.Context, o host.Outgoing) ([]byte, error) {
	if len(o.Raw) > 0 {
		return o.Raw, nil
	}
	d, err := readDraft(o.Draft)
	if err != nil {
		return nil, &badDraftError{fmt.Errorf("outbox mail %d: a draft that does not decode: %w", o.ID, err)}
	}
	if d.Version != draftVersion {
		return nil, &badDraftError{fmt.Errorf("outbox mail %d: a draft of format %d; this herald writes format %d", o.ID, d.Version, draftVersion)}
	}
	if d.RecordOf != 0 {
		g, err := s.cfg.Store.Game(ctx, d.RecordOf)
		if errors.Is(err, host.ErrNoGame) {
			return nil, &badDraftError{fmt.Errorf("outbox mail %d: %w", o.ID, err)}
		}
		if err != nil {
			return nil, fmt.Errorf("outbox mail %d: %w", o.ID, err)
		}
		data, err := g.Record.Marshal()
		if err != nil {
			return nil, fmt.Errorf("outbox mail %d: game %d: %w", o.ID, d.RecordOf, err)
		}
		name := ""
		if d.Attachment != nil {
			name = d.Attachment.Name
		}
		d.Attachment = &Attachment{Name: name, Data: data}
	}
	return s.compose(d.outMail, o.Created)
}

// badDraftError is a draft that this herald can never render: trying again
// later will not help. Any other error of Render (reading the store) may.
type badDraftError struct{ err error }

func (e *badDraftError) Error() string { return e.err.Error() }
func (e *badDraftError) Unwrap() error { return e.err }

// compose renders m as an RFC 5322 message from the service's address,
// dated date.
func (s *Service) compose(m outMail, date time.Time) ([]byte, error) {
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{{Name: "herald", Address: s.cfg.Address}})
	h.SetAddressList("To", []*gomail.Address{{Address: m.To}})
	if m.ReplyTo != "" {
		h.SetAddressList("Reply-To", []*gomail.Address{{Name: "herald", Address: m.ReplyTo}})
	}
	h.SetSubject(m.Subject)
	h.SetDate(date)
	h.SetMessageID(m.MessageID)
	if m.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{m.InReplyTo})
	}
	if len(m.References) > 0 {
		h.SetMsgIDList("References", m.References)
	}
	// RFC 3834: herald's mails are automatic replies; well-behaved robots
	// will not answer them, which is half of loop prevention.
	h.Set("Auto-Submitted", "auto-replied")
	h.Set("X-Herald", "1")
	body := wrap(m.Body, 72)
	var buf bytes.Buffer
	if m.Attachment == nil && s.cfg.PlainOnly {
		h.Set("Content-Type", plainType)
		w, err := gomail.CreateSingleInlineWriter(&buf, h)
		if err != nil {
			return nil, err
		}
		io.WriteString(w, body)
		if err := w.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	if m.Attachment == nil { // multipart/alternative: text and HTML
		iw, err := gomail.CreateInlineWriter(&buf, h)
		if err != nil {
			return nil, err
		}
		if err := writeAlternatives(iw, body); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	w, err := gomail.CreateWriter(&buf, h) // multipart/mixed: the text, the record
	if err != nil {
		return nil, err
	}
	if s.cfg.PlainOnly {
		err = writePart(w.CreateSingleInline, plainType, body)
	} else {
		var iw *gomail.InlineWriter
		if iw, err = w.CreateInline(); err == nil {
			err = writeAlternatives(iw, body)
		}
	}
	if err != nil {
		return nil, err
	}
	var ah gomail.AttachmentHeader
	ah.Set("Content-Type", "application/yaml")
	ah.SetFilename(m.Attachment.Name)
	aw, err := w.CreateAttachment(ah)
	if err != nil {
		return nil, err
	}
	aw.Write(m.Attachment.Data)
	if err := aw.Close(); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

const plainType = "text/plain; charset=utf-8; format=fixed"

// writePart writes one text part made by create.
func writePart(create func(gomail.InlineHeader) (io.WriteCloser, error), ctype, text string) error {
	var th gomail.InlineHeader
	th.Set("Content-Type", ctype)
	tw, err := create(th)
	if err != nil {
		return err
	}
	io.WriteString(tw, text)
	return tw.Close()
}

// writeAlternatives writes body as text/plain and, as its alternative, as
// HTML in <pre>, and closes iw.
func writeAlternatives(iw *gomail.InlineWriter, body string) error {
	if err := writePart(iw.CreatePart, plainType, body); err != nil {
		return err
	}
	if err := writePart(iw.CreatePart, "text/html; charset=utf-8", htmlPre(body)); err != nil {
		return err
	}
	return iw.Close()
}

// htmlPre returns text as an HTML document that shows it as is, in a
// monospaced font, so that boards keep their columns.
func htmlPre(text string) string {
	return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head>\n" +
		"<body><pre style=\"font-family: monospace; white-space: pre\">" +
		html.EscapeString(text) + "</pre></body></html>\n"
}

func newMessageID(domain string) string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:]) + "@" + domain
}

// wrap breaks lines longer than width at spaces. Lines that cannot be
// broken (a board row never is: boards fit 72 columns) are kept whole.
func wrap(text string, width int) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for len([]rune(line)) > width {
			r := []rune(line)
			cut := -1
			for i := width; i > 0; i-- {
				if r[i] == ' ' {
					cut = i
					break
				}
			}
			if cut <= 0 {
				break
			}
			out = append(out, strings.TrimRight(string(r[:cut]), " "))
			indent := "  "
			line = indent + strings.TrimLeft(string(r[cut:]), " ")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func gameTag(id int64) string { return fmt.Sprintf("G%d", id) }
