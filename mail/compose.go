package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/internal/jsonenc"
	"github.com/heraldgames/herald/notation"
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
	// Picture, when set, is the board the mail shows (package picture):
	// drawn as PNG when the mail is rendered, and sent inline beside the
	// text.
	Picture *picture.Board `json:"picture,omitempty"`
	// PictureShared, in place of Picture, is a board the mail shares with
	// the other mails of its move: pictureJSON, stored once for them all
	// beside their drafts (host.Mail.Shared) and given back with each
	// (host.Outgoing.Shared). Drafts queued before have the Picture.
	PictureShared bool `json:"picture_shared,omitempty"`
	// pictureJSON, when set, is Picture encoded already (json.Marshal):
	// every mail of a move shows the same board, encoded once.
	pictureJSON []byte
	// lang is the language of Body, for the notice that may replace it
	// (Service.reply: answers paused); not in the draft.
	lang notation.Lang
}

// shared is what m's draft leaves out and shares with the other mails of
// its move (host.Mail.Shared): its board, when PictureShared.
func (m outMail) shared() []byte {
	if m.PictureShared {
		return m.pictureJSON
	}
	return nil
}

// draftVersion is the format of the drafts in the outbox; a herald that
// finds a draft of another version leaves it unsent rather than guess.
const draftVersion = 1

type draftJSON struct {
	Version int `json:"herald_draft"`
	outMail
}

// draft encodes m for the outbox: as json.Marshal encodes a draftJSON,
// byte for byte (TestDraftIsJSONMarshal, FuzzDraftIsJSONMarshal), written
// by hand as every move mail has two or more (encoding/json's reflection
// cost several times as much), with the picture's bytes copied in when
// encoded already (pictureJSON: every mail of a move shows the same
// board, encoded once).
func (m outMail) draft() ([]byte, error) {
	size := 256 + len(m.To) + len(m.Subject) + len(m.MessageID) + len(m.InReplyTo) + len(m.ReplyTo) + len(m.Body) + len(m.Body)/16
	if m.Picture != nil {
		size += len(m.pictureJSON)
	}
	out := make([]byte, 0, size)
	out = append(out, `{"herald_draft":`...)
	out = strconv.AppendInt(out, draftVersion, 10)
	out = append(out, `,"to":`...)
	out = jsonenc.AppendString(out, m.To)
	out = append(out, `,"subject":`...)
	out = jsonenc.AppendString(out, m.Subject)
	out = append(out, `,"message_id":`...)
	out = jsonenc.AppendString(out, m.MessageID)
	if m.InReplyTo != "" {
		out = append(out, `,"in_reply_to":`...)
		out = jsonenc.AppendString(out, m.InReplyTo)
	}
	if m.ReplyTo != "" {
		out = append(out, `,"reply_to":`...)
		out = jsonenc.AppendString(out, m.ReplyTo)
	}
	if len(m.References) > 0 {
		out = append(out, `,"references":[`...)
		for i, r := range m.References {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsonenc.AppendString(out, r)
		}
		out = append(out, ']')
	}
	out = append(out, `,"body":`...)
	out = jsonenc.AppendString(out, m.Body)
	if m.Attachment != nil { // the record of a game over: rare
		data, err := json.Marshal(m.Attachment)
		if err != nil {
			return nil, err
		}
		out = append(out, `,"attachment":`...)
		out = append(out, data...)
	}
	if m.RecordOf != 0 {
		out = append(out, `,"record_of":`...)
		out = strconv.AppendInt(out, m.RecordOf, 10)
	}
	if m.Picture != nil {
		out = append(out, `,"picture":`...)
		if m.pictureJSON != nil {
			out = append(out, m.pictureJSON...)
		} else {
			out = m.Picture.AppendJSON(out)
		}
	}
	if m.PictureShared {
		out = append(out, `,"picture_shared":true`...)
	}
	return append(out, '}'), nil
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
	var pic []byte
	switch {
	case s.cfg.PlainOnly:
	case d.PictureShared && o.Shared == nil:
		return nil, &badDraftError{fmt.Errorf("outbox mail %d: its picture, stored apart from the draft, is missing", o.ID)}
	case d.PictureShared:
		pic, err = s.picturePNGOf(o.Shared)
	case d.Picture != nil: // a draft queued before the boards were stored apart
		pic, err = s.picturePNG(d.Picture)
	}
	if err != nil {
		return nil, &badDraftError{fmt.Errorf("outbox mail %d: its picture: %w", o.ID, err)}
	}
	return s.compose(d.outMail, o.Created, pic)
}

// picturePNG draws b as PNG. Each picture is drawn once (every player
// of a move gets the same one) and kept a while; a drawing under way, such
// as the one prewarm started when the mail was queued, is waited for.
func (s *Service) picturePNG(b *picture.Board) ([]byte, error) {
	e, first := s.pictureEntry(b)
	if first {
		e.png, e.err = b.PNG()
		close(e.done)
	}
	<-e.done
	return e.png, e.err
}

// picturePNGOf is picturePNG for a board encoded as data (json): it is
// decoded only to be drawn, once.
func (s *Service) picturePNGOf(data []byte) ([]byte, error) {
	e, first := s.pictureEntryOf(data)
	if first {
		var b picture.Board
		if e.err = json.Unmarshal(data, &b); e.err == nil {
			e.png, e.err = b.PNG()
		}
		close(e.done)
	}
	<-e.done
	return e.png, e.err
}

// prewarm starts drawing b, encoded as data (json), at once, so that the
// picture is ready when its mails are rendered, after the transaction that
// queued them commits.
func (s *Service) prewarm(b *picture.Board, data []byte) {
	if e, first := s.pictureEntryOf(data); first {
		s.drawing.Go(func() {
			e.png, e.err = b.PNG()
			close(e.done)
		})
	}
}

// pictureEntry returns the cache entry of b, and whether the caller is the
// first to ask for it and must draw it.
func (s *Service) pictureEntry(b *picture.Board) (*pictureJob, bool) {
	return s.pictureEntryOf(b.JSON())
}

// pictureEntryOf is pictureEntry for a board encoded as data (json).
func (s *Service) pictureEntryOf(data []byte) (*pictureJob, bool) {
	key := sha256.Sum256(data)
	s.pictures.Lock()
	defer s.pictures.Unlock()
	if e, ok := s.pictures.m[key]; ok {
		return e, false
	}
	if len(s.pictures.m) >= 64 {
		clear(s.pictures.m)
	}
	e := &pictureJob{done: make(chan struct{})}
	s.pictures.m[key] = e
	return e, true
}

// pictureJob is a picture drawn, or being drawn.
type pictureJob struct {
	done chan struct{} // closed once png and err are set
	png  []byte
	err  error
}

// badDraftError is a draft that this herald can never render: trying again
// later will not help. Any other error of Render (reading the store) may.
type badDraftError struct{ err error }

func (e *badDraftError) Error() string { return e.err.Error() }
func (e *badDraftError) Unwrap() error { return e.err }

// compose renders m as an RFC 5322 message from the service's address,
// dated date, with the picture of the board pic (PNG) inline when given.
func (s *Service) compose(m outMail, date time.Time, pic []byte) ([]byte, error) {
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
	if status, rest, ok := strings.Cut(m.Body, "\n"); ok && strings.HasPrefix(status, ":: ") {
		body = status + "\n" + wrap(rest, 72) // programs read the :: line whole
	}
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
		if err := writeAlternatives(iw, body, pic); err != nil {
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
			err = writeAlternatives(iw, body, pic)
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
// HTML in <pre>, and closes iw. With a picture (PNG), the HTML shows it
// above the text, the two in a multipart/related part, the picture with
// its Content-ID.
func writeAlternatives(iw *gomail.InlineWriter, body string, pic []byte) error {
	if err := writePart(iw.CreatePart, plainType, body); err != nil {
		return err
	}
	if pic == nil {
		if err := writePart(iw.CreatePart, "text/html; charset=utf-8", htmlPre(body, false)); err != nil {
			return err
		}
		return iw.Close()
	}
	var rh gomail.InlineHeader
	rh.Set("Content-Type", "multipart/related; type=\"text/html\"")
	part, err := iw.CreatePart(rh)
	if err != nil {
		return err
	}
	related, ok := part.(*message.Writer)
	if !ok {
		return fmt.Errorf("mail: a multipart/related part is not a multipart writer")
	}
	var hh message.Header
	hh.Set("Content-Type", "text/html; charset=utf-8")
	hh.Set("Content-Transfer-Encoding", "quoted-printable")
	hw, err := related.CreatePart(hh)
	if err != nil {
		return err
	}
	io.WriteString(hw, htmlPre(body, true))
	if err := hw.Close(); err != nil {
		return err
	}
	var ph message.Header
	ph.Set("Content-Type", "image/png")
	ph.Set("Content-ID", "<"+pictureCID+">")
	ph.Set("Content-Disposition", "inline; filename=board.png")
	ph.Set("Content-Transfer-Encoding", "base64")
	pw, err := related.CreatePart(ph)
	if err != nil {
		return err
	}
	pw.Write(pic)
	if err := pw.Close(); err != nil {
		return err
	}
	if err := related.Close(); err != nil {
		return err
	}
	return iw.Close()
}

// pictureCID is the Content-ID of the board's picture in a mail.
const pictureCID = "board@herald"

// htmlPre returns text as an HTML document that shows it as is, in a
// monospaced font, so that boards keep their columns.
func htmlPre(text string, picture bool) string {
	img := ""
	if picture {
		img = "<p><img src=\"cid:" + pictureCID + "\" alt=\"the board\"></p>\n"
	}
	return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head>\n<body>" + img +
		"<pre style=\"font-family: monospace; white-space: pre\">" +
		html.EscapeString(text) + "</pre></body></html>\n"
}

func newMessageID(domain string) string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:]) + "@" + domain
}

// wrap breaks lines longer than width at spaces; each continuation is
// indented by two spaces. A line breaks at the last space that leaves
// something other than spaces before it within width, else at the first
// space after a word too long for width; a line with no such space (a
// board row never is too long: boards fit 72 columns) is kept whole, and
// so is the status line (statusLine), which programs read. Every
// word is kept, and wrap takes time linear in the text: each break
// consumes at least one character that is not a space.
func wrap(text string, width int) string {
	var b strings.Builder
	b.Grow(len(text) + len(text)/width*3)
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		wrapLine(&b, line, width)
	}
	return b.String()
}

// wrapIndent is how continuation lines of a wrapped line begin.
const wrapIndent = "  "

// wrapLine writes line to b, broken as wrap says. It slices line by the
// byte offsets of its characters, so that bytes that are not UTF-8 pass
// through as they came.
func wrapLine(b *strings.Builder, line string, width int) {
	if utf8.RuneCountInString(line) <= width || strings.HasPrefix(line, ":: ") { // the status line is for programs: whole
		b.WriteString(line)
		return
	}
	line = strings.TrimRight(line, " ")
	at := make([]int, 0, len(line)+1) // the byte offset of each character, then len(line)
	for i := range line {
		at = append(at, i)
	}
	at = append(at, len(line))
	n := len(at) - 1 // characters left, from at[0]
	space := func(i int) bool { return line[at[i]] == ' ' }
	indent := 0 // columns of wrapIndent before the rest on the current output line
	for indent+n > width {
		lead := 0 // the spaces the rest begins with: no break among them
		for lead < n && space(lead) {
			lead++
		}
		cut := -1 // index of the space to break at
		for i := min(width-indent, n-1); i > lead; i-- {
			if space(i) {
				cut = i
				break
			}
		}
		if cut < 0 { // a word too long for width: break after it
			for i := max(lead+1, width-indent+1); i < n; i++ {
				if space(i) {
					cut = i
					break
				}
			}
		}
		if cut < 0 {
			break
		}
		b.WriteString(wrapIndent[:indent])
		b.WriteString(strings.TrimRight(line[at[0]:at[cut]], " "))
		b.WriteByte('\n')
		for space(cut) { // the rest ends with a word
			cut++
		}
		at, n, indent = at[cut:], n-cut, len(wrapIndent)
	}
	b.WriteString(wrapIndent[:indent])
	b.WriteString(line[at[0]:])
}

func gameTag(id int64) string { return fmt.Sprintf("G%d", id) }
