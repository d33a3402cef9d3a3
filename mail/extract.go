// Package mail is herald's mail layer: IMAP intake, message extraction,
// sender authentication, the SMTP outbox and reply rendering (DESIGN.md,
// "Mail service").
//
// The path of a mail, and why each is processed exactly once: the [Intake]
// fetches the inbox in batches and the [Service] processes a batch in one
// database transaction, each mail in a savepoint of its own, writing its
// Message-ID, the game's new moves and drafts of every reply (what to say,
// not yet MIME). The transaction commits without waiting for the disk; a
// second goroutine syncs the store and only then moves the batch's mail to
// the processed or rejected folder, while the next batch is processed. A
// crash before the sync leaves the mail in the inbox, to be processed again
// or recognised by its Message-ID. The [Outbox] syncs too before it sends,
// renders each draft (dated when queued, with its Message-ID from the
// draft, so a resend is the same mail) and retries with backoff.
//
// This file is its intake parsing. [Extract] turns one raw RFC 5322 message
// (MIME per RFC 2045-2049, encoded header words per RFC 2047, format=flowed
// per RFC 3676) into a [Message]: who sent it, which mail it answers, whether
// it must never be answered (RFC 3834 auto-replies, bounces, mailing lists),
// the player's own text with quoted replies and signatures removed, and the
// YAML turn files attached to it. Extract does no network or database I/O and
// reads at most [ExtractOptions].MaxSize+1 bytes.
package mail

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	netmail "net/mail"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/heraldgames/herald/adjudicator/host"
	// The charset package registers decoders for ISO-8859-*, windows-125x
	// and the other common charsets with go-message (and see charset.go).
	"github.com/emersion/go-message/charset"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Default limits used when [ExtractOptions] leaves a field zero.
const (
	DefaultMaxSize       = 256 << 10 // 256 KiB, the whole raw message
	DefaultMaxAttachment = 64 << 10  // 64 KiB, one decoded YAML turn file
)

// maxErrText bounds each part of an error message.
const maxErrText = 300

// maxMIMEDepth bounds multipart nesting; real mail clients stay well under 10.
const maxMIMEDepth = 20

// ExtractOptions are the limits applied by [Extract]. A nil *ExtractOptions
// is valid and means all defaults.
//
// The limits cannot be disabled: zero or negative values mean the default.
// They bound memory use, so keep them small for mail from strangers.
type ExtractOptions struct {
	// MaxSize is the largest raw message, header included, that Extract
	// accepts, in bytes. Extract reads at most MaxSize+1 bytes from its
	// reader. Default DefaultMaxSize.
	MaxSize int64

	// MaxAttachment is the largest YAML turn file, in bytes after transfer
	// decoding, that Extract accepts. Default DefaultMaxAttachment.
	MaxAttachment int64
}

// withDefaults returns a copy of o with every limit filled in.
func (o *ExtractOptions) withDefaults() ExtractOptions {
	var out ExtractOptions
	if o != nil {
		out = *o
	}
	if out.MaxSize <= 0 {
		out.MaxSize = DefaultMaxSize
	}
	if out.MaxAttachment <= 0 {
		out.MaxAttachment = DefaultMaxAttachment
	}
	// Limits are read as limit+1 bytes; keep that from overflowing.
	out.MaxSize = min(out.MaxSize, math.MaxInt64-1)
	out.MaxAttachment = min(out.MaxAttachment, math.MaxInt64-1)
	return out
}

// Message is what herald needs from one inbound mail.
type Message struct {
	// MessageID is the Message-ID without angle brackets. If the header is
	// missing or empty, it is "sha256:" followed by the hex SHA-256 of what
	// the mail's sender wrote: the originator fields of the header
	// (originFields) and the body, with line ends made LF. The trace
	// fields that servers add on the way (Return-Path, Received,
	// Delivered-To, X-Original-To, spam scores, signatures...) are left
	// out, so every copy of one mail gets the same ID. Of a mail too large
	// to read, only the originator fields count.
	MessageID string

	// From is the bare address (addr-spec) of the single From address,
	// lower-cased.
	From string

	// FromName is the display name of the From address, decoded (RFC 2047),
	// or "".
	FromName string

	// Recipients are the addresses the mail was sent to (To, Cc, and the
	// Delivered-To and X-Original-To of the servers on the way), lower
	// case, each once.
	Recipients []string

	// Subject is the decoded Subject (RFC 2047). Encoded words in an unknown
	// charset are kept as they are.
	Subject string

	// InReplyTo is the first message ID of In-Reply-To, without brackets.
	InReplyTo string

	// References are the message IDs of References, without brackets, in
	// header order.
	References []string

	// Date is the Date header, or the zero time if missing or unparseable.
	Date time.Time

	// Auto says why this mail must never be answered, or AutoNone.
	Auto AutoKind

	// Body is the player's own text: the chosen text part decoded to UTF-8,
	// with CRLF turned into LF, a UTF-8 byte order mark removed, format=flowed
	// paragraphs joined, quoted replies, reply headers and the signature
	// dropped, trailing spaces and tabs of each line and leading and trailing
	// blank lines removed. Lines are separated by "\n"; no line starts with
	// '>'.
	Body string

	// Lines are the lines of Body, in order (strings.Join of their Text with
	// "\n" is Body), each with its 1-based line number in the decoded text
	// part before anything was dropped, so an error can name the line as
	// the player sees it in what they wrote. A format=flowed paragraph
	// carries the number of its first line. For an HTML body the numbers
	// count lines of the converted text.
	Lines []Line

	// Dropped is what of the text part is not the sender's own words and
	// is not in Body: quoted text and a signature, by line (the reply
	// says so).
	Dropped Dropped

	// Attachments are the YAML turn files of the message, in MIME order: the
	// parts named *.yaml or *.yml (in any case), or typed application/yaml,
	// application/x-yaml, text/yaml or text/x-yaml. Other attachments are
	// ignored.
	Attachments []Attachment

	// HTMLOnly reports that the message had no usable text/plain part and
	// Body was converted from text/html.
	HTMLOnly bool

	// AuthResults are the values of the Authentication-Results fields
	// (RFC 8601), top first: the receiving servers' verdicts on the
	// sender, read by ParseAuthResults.
	AuthResults []string

	// Bounce is what a delivery report (Auto AutoBounce) says of a mail
	// herald sent (ParseBounce), set by the service; nil for any other
	// mail.
	Bounce *Bounce

	// DKIM is what herald's own check of the DKIM signatures found
	// (Config.VerifyDKIM), set by the service.
	DKIM DKIM
}

// Line is one line of [Message].Body.
type Line struct {
	No   int    // 1-based line number in the decoded text part
	Text string // the line, without its line ending
}

// Attachment is a YAML turn file attached to a message.
type Attachment struct {
	// Name is the file name given by the sender, without any directory
	// part; "" if the part had none (it was recognised by its type).
	Name string

	// Data is the content after transfer decoding (base64,
	// quoted-printable), with CRLF line endings turned into LF. Text types
	// with a charset are converted to UTF-8; other types are left as sent.
	Data []byte
}

// AutoKind tells why a message must never be answered.
type AutoKind int

// The kinds of automatic mail. When several apply, the first in this order
// wins: AutoBounce, AutoReply, AutoSubmitted, AutoList.
const (
	// AutoNone: a person wrote this mail; it may be answered.
	AutoNone AutoKind = iota

	// AutoSubmitted: Auto-Submitted (RFC 3834) has a value other than "no"
	// (and other than "auto-replied", which is AutoReply).
	AutoSubmitted

	// AutoBounce: a delivery report. Return-Path is empty ("<>"), or the
	// local part of From is MAILER-DAEMON or postmaster in any case (if From
	// does not parse: it mentions one of them), or the top-level
	// Content-Type is multipart/report (RFC 6522: delivery and disposition
	// notifications), or X-Failed-Recipients is present.
	AutoBounce

	// AutoList: mailing list or bulk mail. Precedence is bulk, list or junk,
	// or List-Id or List-Unsubscribe is present.
	AutoList

	// AutoReply: a vacation or other automatic reply. Auto-Submitted is
	// "auto-replied", X-Autoreply or X-Autorespond is present (with any
	// value but "no"), Precedence is auto_reply, X-Autogenerated is "Reply",
	// or X-POST-MessageClass mentions "Autoresponder" (Exchange).
	// X-Auto-Response-Suppress is deliberately ignored: it asks that no
	// automatic reply be sent to the mail carrying it, and Outlook and
	// Exchange set it on mail written by people too.
	AutoReply
)

var autoKindNames = [...]string{
	AutoNone:      "none",
	AutoSubmitted: "auto-submitted",
	AutoBounce:    "bounce",
	AutoList:      "list",
	AutoReply:     "auto-reply",
}

// String returns the kind's name: "none", "auto-submitted", "bounce", "list"
// or "auto-reply".
func (k AutoKind) String() string {
	if k >= 0 && int(k) < len(autoKindNames) {
		return autoKindNames[k]
	}
	return "AutoKind(" + strconv.Itoa(int(k)) + ")"
}

// ErrorKind classifies an [ExtractError]. An ErrorKind is itself an error,
// so errors.Is(err, ErrTooLarge) reports whether err is an *ExtractError of
// that kind.
type ErrorKind int

// The kinds of [ExtractError].
const (
	// ErrMalformed: the header or the MIME structure cannot be parsed, the
	// From field is missing or is not exactly one address, or a part's
	// content cannot be decoded (bad base64, truncated multipart).
	ErrMalformed ErrorKind = iota + 1

	// ErrTooLarge: the message exceeds MaxSize, or a YAML attachment
	// exceeds MaxAttachment.
	ErrTooLarge

	// ErrCharset: the text part (or a YAML attachment) is in a charset that
	// cannot be decoded and is not plain ASCII.
	ErrCharset

	// ErrEmpty: no text remains once quotes and signature are dropped, and
	// there is no YAML attachment.
	ErrEmpty
)

var errorKindNames = [...]string{
	ErrMalformed: "malformed message",
	ErrTooLarge:  "message too large",
	ErrCharset:   "unknown charset",
	ErrEmpty:     "empty message",
}

// String returns a short lower-case description of the kind.
func (k ErrorKind) String() string {
	if k > 0 && int(k) < len(errorKindNames) {
		return errorKindNames[k]
	}
	return "ErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// Error returns "mail: " and the kind's description.
func (k ErrorKind) Error() string { return "mail: " + k.String() }

var _ error = ErrorKind(0)

// ExtractError is the error returned by [Extract] when the message itself is
// unacceptable. Read errors from the reader are not ExtractErrors: they are
// returned wrapped as they are, since trying again may succeed.
type ExtractError struct {
	Kind   ErrorKind // what went wrong
	Detail string    // where or what, for people; may be ""
	Err    error     // the underlying error, if any
}

var _ error = (*ExtractError)(nil)

// Error formats the error as "mail: KIND: DETAIL: ERR", leaving out empty
// parts. Since parts may quote the message, each is cut to a few hundred
// bytes.
func (e *ExtractError) Error() string {
	var b strings.Builder
	b.WriteString("mail: ")
	b.WriteString(e.Kind.String())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(clipText(e.Detail, maxErrText))
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(clipText(e.Err.Error(), maxErrText))
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ExtractError) Unwrap() error { return e.Err }

// Is reports whether target is the ErrorKind of e.
func (e *ExtractError) Is(target error) bool {
	k, ok := target.(ErrorKind)
	return ok && k == e.Kind
}

func extractErr(kind ErrorKind, err error, format string, args ...any) *ExtractError {
	return &ExtractError{Kind: kind, Detail: clipText(fmt.Sprintf(format, args...), maxErrText), Err: err}
}

// Extract reads one raw RFC 5322 message from r and returns what herald needs
// from it. It reads at most opts.MaxSize+1 bytes.
//
// The body is the first text/plain part found walking the MIME tree in order
// (multipart/alternative, mixed and related, nested), skipping attachments,
// blank parts and parts in an undecodable charset; if there is none, the
// first text/html part converted to text. Forwarded messages (message/rfc822)
// are not entered. Text with no charset, or us-ascii, that is not valid UTF-8
// is read as windows-1252.
//
// Quoted text is dropped: lines starting with '>' (after optional spaces), a
// reply header line such as "On Mon, 1 Jan 2026, Alice <a@x> wrote:" or
// "Le lun. 1 janv. 2026 à 10:00, Alice <a@x> a écrit :" (possibly wrapped
// over up to three lines) when quoted lines or nothing follow it, and
// everything from a separator such as "-----Original Message-----",
// "-------- Message d'origine --------", "Begin forwarded message:" or an
// Outlook header block ("From:" followed by "Sent:"/"Date:" and
// "To:"/"Subject:", in English or French) to the end. Text written below
// the quote (bottom-posting) is kept. The signature is dropped from a line
// "-- " or "--" to the end.
//
// On failure the error is an *[ExtractError], except for read errors from r,
// which are returned wrapped. Whenever the top-level header could be parsed
// (for a message over MaxSize: when the whole header block lies within the
// bytes read), Extract returns the Message along with the error, with its
// header fields (MessageID, From, Auto and so on) filled in as far as
// possible and no body or attachments, so that the caller can record the
// message ID and decide whether to answer: never if Auto is not AutoNone or
// From is empty.
func Extract(r io.Reader, opts *ExtractOptions) (*Message, error) {
	o := opts.withDefaults()
	raw, err := io.ReadAll(io.LimitReader(r, o.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("mail: reading message: %w", err)
	}
	return extractBytes(raw, o)
}

// ExtractBytes is Extract of a mail already in memory, without a copy of
// it: what the intake, which fetched it, reads. raw must not change while
// ExtractBytes runs; the Message holds none of its bytes.
func ExtractBytes(raw []byte, opts *ExtractOptions) (*Message, error) {
	o := opts.withDefaults()
	if int64(len(raw)) > o.MaxSize {
		raw = raw[:o.MaxSize+1] // as much as Extract reads
	}
	return extractBytes(raw, o)
}

// extractBytes is Extract of the bytes read, at most o.MaxSize+1.
func extractBytes(raw []byte, o ExtractOptions) (*Message, error) {
	var tooLarge *ExtractError
	if int64(len(raw)) > o.MaxSize {
		tooLarge = extractErr(ErrTooLarge, nil, "more than %d bytes", o.MaxSize)
	}

	h, bodyRaw, err := readHeader(raw)
	body := newReader(bytes.NewReader(bodyRaw))
	defer putReader(body)
	if tooLarge != nil {
		// Only trust a header block that ended before the cut: a field
		// such as Auto-Submitted may lie beyond it.
		if err != nil {
			return nil, tooLarge
		}
		if _, err := body.Peek(1); err != nil {
			return nil, tooLarge
		}
	}
	if err != nil {
		return nil, extractErr(ErrMalformed, err, "header")
	}
	msg := &Message{}
	if tooLarge != nil {
		bodyRaw = nil // cut at a place that depends on the trace fields
	}
	fromErr := msg.setHeader(h, bodyRaw)
	if tooLarge != nil {
		return msg, tooLarge
	}
	if fromErr != nil {
		return msg, fromErr
	}

	entity, entErr := message.New(h, body)
	w := partWalker{opts: o}
	if err := w.walk(entity, entErr, 0); err != nil {
		return msg, err
	}

	part, err := w.chooseText()
	if err != nil {
		return msg, err
	}
	msg.Attachments = w.attachments
	if part != nil {
		msg.HTMLOnly = part.html
		msg.Lines, msg.Dropped = part.lines()
		texts := make([]string, len(msg.Lines))
		for i, l := range msg.Lines {
			texts[i] = l.Text
		}
		msg.Body = strings.Join(texts, "\n")
	}
	if msg.Body == "" && len(msg.Attachments) == 0 {
		return msg, extractErr(ErrEmpty, nil, "no text and no yaml turn file")
	}
	return msg, nil
}

// ExtractTooLarge returns what the header of a mail too large to read
// says (who sent it, its ID, whether it is automatic), with the
// ErrTooLarge error Extract gives such a mail. header is the mail's header
// block alone, as IMAP's BODY[HEADER] gives it, and size the whole mail's
// size: the intake asks the server for these instead of fetching a mail
// over the limit, so that memory does not follow the size of the mail.
func ExtractTooLarge(header []byte, size int64, opts *ExtractOptions) (*Message, error) {
	o := opts.withDefaults()
	tooLarge := extractErr(ErrTooLarge, nil, "%d bytes, more than %d", size, o.MaxSize)
	if int64(len(header)) > o.MaxSize {
		return nil, tooLarge
	}
	h, _, err := readHeader(header)
	if err != nil {
		return nil, tooLarge
	}
	msg := &Message{}
	msg.setHeader(h, nil)
	return msg, tooLarge
}

// readHeader parses the header block of raw and returns it with the body,
// the bytes after it. A leading mbox "From " line is skipped.
func readHeader(raw []byte) (message.Header, []byte, error) {
	data := raw
	if bytes.HasPrefix(data, []byte("From ")) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		} else {
			data = nil
		}
	}
	rd := bytes.NewReader(data)
	br := newReader(rd)
	defer putReader(br)
	h, err := textproto.ReadHeader(br)
	if err != nil {
		return message.Header{}, nil, err
	}
	if h.Len() == 0 {
		return message.Header{}, nil, errors.New("no header fields")
	}
	return message.Header{Header: h}, data[len(data)-rd.Len()-br.Buffered():], nil
}

// mailDate reads a Date field as net/mail.ParseDate does, at once for the
// form nearly every mail program writes (dateLayout), which ParseDate
// tries only after the forms without a day of the week, each failure
// building an error with copies of its strings: a tenth of the memory
// the intake allocates to read a mail, and the same result
// (FuzzMailDate).
func mailDate(v string) (time.Time, error) {
	if t, err := time.Parse(dateLayout, v); err == nil {
		return t, nil
	}
	return netmail.ParseDate(v)
}

// dateLayout is the Date field of RFC 5322 section 3.3 as mail programs
// write it, with the day of the week and seconds and a numeric zone.
const dateLayout = "Mon, 2 Jan 2006 15:04:05 -0700"

// readers are the buffered readers of readHeader and Extract, kept for
// the next mail: a mail's header and body each needed one of 4 KiB, a
// tenth of what the intake allocates for a move mail. The header fields
// ReadHeader returns are copies, and what Extract returns is read out of
// its reader before it returns: neither holds on to the buffer.
var readers = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// newReader returns a buffered reader of r from readers; putReader gives
// it back.
func newReader(r io.Reader) *bufio.Reader {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	return br
}

// putReader gives br back to readers, letting go of what it read.
func putReader(br *bufio.Reader) {
	br.Reset(nil)
	readers.Put(br)
}

// lenientCharsetReader decodes known charsets and passes unknown ones
// through, for header words where a wrong charset must not lose the field.
func lenientCharsetReader(cs string, input io.Reader) (io.Reader, error) {
	r, err := charsetReader(cs, input)
	if err != nil {
		return input, nil
	}
	return r, nil
}

var headerWordDecoder = &mime.WordDecoder{CharsetReader: lenientCharsetReader}

// decodeHeaderText decodes RFC 2047 words in v, keeping v on error, and makes
// the result valid UTF-8.
func decodeHeaderText(v string) string {
	if s, err := headerWordDecoder.DecodeHeader(v); err == nil {
		v = s
	}
	return strings.ToValidUTF8(v, "\uFFFD")
}

// originFields are the header fields a mail's author writes (with the
// author's client and submission server): what identifies a mail that has
// no Message-ID. Fields added on the way to herald's mailbox (trace fields
// such as Return-Path, Received, Delivered-To and X-Original-To, and
// Authentication-Results, ARC, spam scores...) are not among them.
var originFields = []string{"From", "Sender", "Reply-To", "To", "Cc", "Subject", "Date",
	"In-Reply-To", "References", "MIME-Version", "Content-Type", "Content-Transfer-Encoding"}

// originID returns the fallback message ID of a mail without Message-ID:
// the hash of its originator fields (each value unfolded, runs of white
// space made one space) and of body with its line ends made LF.
func originID(h message.Header, body []byte) string {
	d := sha256.New()
	for _, name := range originFields {
		for _, v := range h.Values(name) {
			fmt.Fprintf(d, "%s: %s\n", name, strings.Join(strings.Fields(v), " "))
		}
	}
	d.Write([]byte("\n"))
	d.Write(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n")))
	return "sha256:" + hex.EncodeToString(d.Sum(nil))
}

// setHeader fills in the header fields of m from h. body is the raw body,
// for the fallback message ID (nil when only the header counts). It returns
// an error if From is unusable.
func (m *Message) setHeader(h message.Header, body []byte) *ExtractError {
	mh := gomail.Header{Header: h}

	if id, err := mh.MessageID(); err == nil && id != "" {
		m.MessageID = id
	} else if ids := msgIDs(h.Get("Message-Id")); len(ids) > 0 {
		m.MessageID = ids[0]
	} else {
		m.MessageID = originID(h, body)
	}
	if ids, err := mh.MsgIDList("In-Reply-To"); err == nil && len(ids) > 0 {
		m.InReplyTo = ids[0]
	} else if ids := msgIDs(h.Get("In-Reply-To")); len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	if ids, err := mh.MsgIDList("References"); err == nil {
		m.References = ids
	} else {
		m.References = msgIDs(h.Get("References"))
	}
	if d, err := mailDate(h.Get("Date")); err == nil {
		m.Date = d
	}
	m.Subject = decodeHeaderText(h.Get("Subject"))
	m.AuthResults = h.Values("Authentication-Results")
	m.Recipients = recipients(h)
	addr, fromErr := parseFrom(mh)
	m.Auto = autoKind(h, addr)
	if fromErr != nil {
		if addr != nil { // read, but the mail is not well formed
			m.From = strings.ToLower(addr.Address)
		}
		return fromErr
	}
	m.From = strings.ToLower(addr.Address)
	m.FromName = strings.ToValidUTF8(addr.Name, "\uFFFD")
	return nil
}

// recipients returns the addresses a mail was sent to, lower-cased, as its
// To and Cc say and as the servers that delivered it recorded
// (Delivered-To, X-Original-To), leniently: what does not parse is left
// out.
func recipients(h message.Header) []string {
	var out []string
	p := netmail.AddressParser{WordDecoder: headerWordDecoder}
	for _, name := range []string{"To", "Cc", "Delivered-To", "X-Original-To"} {
		for _, v := range h.Values(name) {
			addrs, err := p.ParseList(v)
			if err != nil {
				continue
			}
			for _, a := range addrs {
				if addr := strings.ToLower(a.Address); !slices.Contains(out, addr) {
					out = append(out, addr)
				}
			}
		}
	}
	return out
}

// parseFrom returns the single address of the From field. With an error,
// the address is not nil when it was read but the mail is malformed all
// the same (two From fields): the sender may be told.
func parseFrom(h gomail.Header) (*netmail.Address, *ExtractError) {
	from := h.Get("From")
	if strings.TrimSpace(from) == "" {
		return nil, extractErr(ErrMalformed, nil, "no from address")
	}
	addrs, err := h.AddressList("From")
	if err != nil {
		// go-message fails on encoded names in an unknown charset; the
		// address itself may still be fine.
		p := netmail.AddressParser{WordDecoder: headerWordDecoder}
		addrs, err = p.ParseList(from)
	}
	if err != nil {
		return nil, extractErr(ErrMalformed, err, "from %q", clipText(from, 100))
	}
	if len(addrs) != 1 {
		return nil, extractErr(ErrMalformed, nil, "from has %d addresses, want 1", len(addrs))
	}
	// Two From fields (RFC 5322 allows one): which one wrote the mail is
	// anyone's guess, so nothing is done with it; the first is told why,
	// as the sender of any mail that cannot be read is (issue 25, item 16).
	if n := len(h.Values("From")); n > 1 {
		return addrs[0], extractErr(ErrMalformed, nil, "it has %d From fields, and a mail has one", n)
	}
	// An address herald could not write to (host.ParseAddress) is no
	// sender: nothing answers it, and it reaches no game.
	if _, err := host.ParseAddress(addrs[0].Address); err != nil {
		return nil, extractErr(ErrMalformed, nil, "from: %v", err)
	}
	return addrs[0], nil
}

// clipText shortens s to at most n bytes (on a rune boundary) for an error
// message, marking the cut with "...".
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// msgIDs leniently extracts message IDs from a Message-ID, In-Reply-To or
// References value: every "<...>", with any white space inside removed, or
// else the space-separated words of the value.
func msgIDs(v string) []string {
	var ids []string
	rest := v
	for {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+1:], '>')
		if j < 0 {
			break
		}
		if id := strings.Join(strings.Fields(rest[i+1:i+1+j]), ""); id != "" {
			ids = append(ids, id)
		}
		rest = rest[i+1+j+1:]
	}
	if ids == nil {
		for _, f := range strings.Fields(v) {
			if f = strings.Trim(f, "<>"); f != "" {
				ids = append(ids, f)
			}
		}
	}
	return ids
}

// headerToken returns the first token of a structured header value in lower
// case: the text before any ';' or '(' comment, trimmed.
func headerToken(v string) string {
	if i := strings.IndexAny(v, ";("); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(strings.TrimSpace(v))
}

// autoKind classifies h as automatic mail; see the AutoKind constants. from
// is the parsed From address, or nil if it could not be parsed.
func autoKind(h message.Header, from *netmail.Address) AutoKind {
	// Bounces and delivery reports.
	if strings.Join(strings.Fields(h.Get("Return-Path")), "") == "<>" {
		return AutoBounce
	}
	if from != nil {
		local, _, _ := strings.Cut(strings.ToLower(from.Address), "@")
		if local == "mailer-daemon" || local == "postmaster" {
			return AutoBounce
		}
	} else if raw := strings.ToLower(h.Get("From")); strings.Contains(raw, "mailer-daemon") ||
		strings.Contains(raw, "postmaster") {
		// "From: MAILER-DAEMON (Mail Delivery System)" has no domain.
		return AutoBounce
	}
	if t, _, _ := parseMediaType(h.Get("Content-Type")); t == "multipart/report" {
		return AutoBounce
	}
	if h.Has("X-Failed-Recipients") {
		return AutoBounce
	}

	submitted := headerToken(h.Get("Auto-Submitted"))
	precedence := headerToken(h.Get("Precedence"))

	// Automatic replies.
	yes := func(k string) bool {
		if !h.Has(k) {
			return false
		}
		switch headerToken(h.Get(k)) {
		case "no", "false", "0":
			return false
		}
		return true
	}
	if submitted == "auto-replied" || precedence == "auto_reply" ||
		yes("X-Autoreply") || yes("X-Autorespond") ||
		headerToken(h.Get("X-Autogenerated")) == "reply" ||
		strings.Contains(strings.ToLower(h.Get("X-Post-Messageclass")), "autoresponder") {
		return AutoReply
	}

	if submitted != "" && submitted != "no" {
		return AutoSubmitted
	}

	switch precedence {
	case "bulk", "list", "junk":
		return AutoList
	}
	if h.Has("List-Id") || h.Has("List-Unsubscribe") {
		return AutoList
	}
	return AutoNone
}

// parseMediaType parses a Content-Type or Content-Disposition value. The type
// and parameter names are lower-cased. When the value is not valid per RFC
// 2045 (mime.ParseMediaType fails), it falls back to splitting on ';' and
// '=', keeping the first of duplicated parameters, and reports strict =
// false. Parameter values have their RFC 2047 words decoded.
func parseMediaType(v string) (mediaType string, params map[string]string, strict bool) {
	if strings.TrimSpace(v) == "" {
		return "", nil, true
	}
	t, p, err := mime.ParseMediaType(v)
	if err == nil {
		for k, pv := range p {
			p[k] = decodeHeaderText(pv)
		}
		return t, p, true
	}
	fields := strings.Split(v, ";")
	t = strings.ToLower(strings.TrimSpace(fields[0]))
	p = make(map[string]string)
	for _, f := range fields[1:] {
		k, pv, ok := strings.Cut(f, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || k == "" || strings.ContainsAny(k, "* \t\"") {
			continue
		}
		pv = strings.TrimSpace(pv)
		if strings.HasPrefix(pv, `"`) {
			if end := strings.IndexByte(pv[1:], '"'); end >= 0 {
				pv = pv[1 : 1+end]
			} else {
				pv = pv[1:]
			}
		} else {
			if i := strings.IndexByte(pv, '('); i >= 0 {
				pv = strings.TrimSpace(pv[:i])
			}
			// A missing ';': "charset=iso-8859-1 format=flowed".
			if i := strings.IndexAny(pv, " \t"); i >= 0 && strings.Contains(pv[i:], "=") {
				pv = pv[:i]
			}
		}
		if _, dup := p[k]; !dup {
			p[k] = decodeHeaderText(pv)
		}
	}
	return t, p, false
}

// yamlTypes are the media types of YAML turn files.
var yamlTypes = map[string]bool{
	"application/yaml":   true,
	"application/x-yaml": true,
	"text/yaml":          true,
	"text/x-yaml":        true,
}

// isYAML reports whether a part of media type mt and file name name is a
// YAML turn file.
func isYAML(mt, name string) bool {
	if yamlTypes[mt] {
		return true
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml":
		return true
	}
	return false
}

// cleanFileName returns the last element of a sender-supplied file name, with
// either kind of slash as separator, or "" if nothing usable remains.
func cleanFileName(name string) string {
	name = strings.TrimSpace(name)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if name == "." || name == ".." {
		return ""
	}
	return name
}

// textPart is a candidate for the body: a text/plain or text/html part.
type textPart struct {
	html   bool
	text   string        // decoded to UTF-8, BOM removed, LF line endings
	flowed bool          // format=flowed
	delSp  bool          // DelSp=yes
	err    *ExtractError // the charset could not be decoded; text is unusable
}

// partWalker walks the MIME tree of a message, collecting body candidates and
// YAML attachments.
type partWalker struct {
	opts        ExtractOptions
	texts       []textPart
	attachments []Attachment
}

// walk visits entity e; entErr is the error go-message returned when it
// built e (an unknown charset or transfer encoding, or nil).
func (w *partWalker) walk(e *message.Entity, entErr error, depth int) error {
	mt, params, strict := parseMediaType(e.Header.Get("Content-Type"))
	if mt == "" {
		mt = "text/plain"
	}
	if strings.HasPrefix(mt, "multipart/") {
		if depth >= maxMIMEDepth {
			return extractErr(ErrMalformed, nil, "multipart nested more than %d deep", maxMIMEDepth)
		}
		// Read the parts ourselves rather than with e.MultipartReader, so
		// a boundary found by the lenient Content-Type parse works too.
		mr := textproto.NewMultipartReader(e.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return extractErr(ErrMalformed, err, "%s", mt)
			}
			pe, perr := message.New(message.Header{Header: p.Header}, p)
			if err := w.walk(pe, perr, depth+1); err != nil {
				return err
			}
		}
	}
	if strings.HasPrefix(mt, "message/") {
		// A forwarded or bounced message is not the sender's text.
		return nil
	}

	disp, dparams, _ := parseMediaType(e.Header.Get("Content-Disposition"))
	name := dparams["filename"]
	if name == "" {
		name = params["name"] // deprecated, still sent by some clients
	}
	name = cleanFileName(name)

	if isYAML(mt, name) {
		return w.readAttachment(e, entErr, mt, params, strict, name)
	}
	if disp == "attachment" || (mt != "text/plain" && mt != "text/html") {
		return nil
	}

	data, err := io.ReadAll(e.Body)
	if err != nil {
		return extractErr(ErrMalformed, err, "%s part", mt)
	}
	part := textPart{html: mt == "text/html"}
	text, cerr := decodeText(data, mt, params, strict, entErr)
	if cerr != nil {
		part.err = cerr
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	part.text = strings.ReplaceAll(text, "\r", "\n")
	if !part.html && strings.EqualFold(params["format"], "flowed") {
		part.flowed = true
		part.delSp = strings.EqualFold(params["delsp"], "yes")
	}
	w.texts = append(w.texts, part)
	return nil
}

// readAttachment reads a YAML part into w.attachments.
func (w *partWalker) readAttachment(e *message.Entity, entErr error, mt string, params map[string]string, strict bool, name string) error {
	max := w.opts.MaxAttachment
	data, err := io.ReadAll(io.LimitReader(e.Body, max+1))
	if err != nil {
		return extractErr(ErrMalformed, err, "attachment %q", name)
	}
	if int64(len(data)) > max {
		return extractErr(ErrTooLarge, nil, "attachment %q is more than %d bytes", name, max)
	}
	if strings.HasPrefix(mt, "text/") {
		text, cerr := decodeText(data, mt, params, strict, entErr)
		if cerr != nil {
			return cerr
		}
		data = []byte(text)
	}
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	w.attachments = append(w.attachments, Attachment{Name: name, Data: data})
	return nil
}

// isASCII reports whether b has only 7-bit bytes.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// decodeText returns the UTF-8 text of a text/* part whose body data was read
// through go-message (transfer encoding and, when it could, charset already
// decoded). entErr is the error go-message gave when building the part.
//
// An unknown charset is an error unless data is plain ASCII. Text that
// declares no charset (or us-ascii) and is not valid UTF-8 is read as
// windows-1252; any other invalid UTF-8 is replaced by U+FFFD.
func decodeText(data []byte, mt string, params map[string]string, strict bool, entErr error) (string, *ExtractError) {
	cs := strings.ToLower(strings.TrimSpace(params["charset"]))
	converted := cs != "" && cs != "utf-8" && cs != "us-ascii"
	if converted && (!strict || message.IsUnknownCharset(entErr)) {
		// go-message did not convert: either it did not understand the
		// Content-Type, or it does not know the charset. Try ourselves.
		r, err := charsetReader(cs, bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(r)
		}
		if err != nil {
			if !isASCII(data) {
				return "", extractErr(ErrCharset, err, "%s part", mt)
			}
			converted = false
		}
	}
	if utf8.Valid(data) {
		return string(data), nil
	}
	if !converted && cs != "utf-8" && cs != "utf8" {
		if r, err := charset.Reader("windows-1252", bytes.NewReader(data)); err == nil {
			if d, err := io.ReadAll(r); err == nil {
				data = d
			}
		}
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), nil
}

// chooseText picks the body part: the first usable text/plain part that is
// not blank, else the first usable text/html part with text. It returns nil
// if there is none; an error if there is none but some part had a charset
// that could not be decoded.
func (w *partWalker) chooseText() (*textPart, error) {
	var cerr *ExtractError
	for _, html := range []bool{false, true} {
		for i := range w.texts {
			p := &w.texts[i]
			if p.html != html {
				continue
			}
			if p.err != nil {
				if cerr == nil {
					cerr = p.err
				}
				continue
			}
			if p.html {
				p.text = htmlToText(p.text)
			}
			if strings.TrimSpace(p.text) != "" {
				return p, nil
			}
		}
	}
	if cerr != nil {
		return nil, cerr
	}
	return nil, nil
}

// Dropped is what Extract dropped from a text part as not the sender's
// own words: the numbers of the lines that are not blank, as in
// Message.Lines.
type Dropped struct {
	Quoted    []int // quoted text, reply headers, a quoted original
	Signature []int // from the signature separator ("-- ") on
}

// dropped returns the lines of raw that are not in own (a subsequence of
// raw, as ownLines returns it), and not blank unless between two dropped
// lines of the same kind: a quote with blank lines in it is one range of
// lines, not one for each paragraph. The signature runs from its separator
// to a quoted line, or the reply header over one: the quote a mail program
// puts under the signature is quoted text.
func dropped(raw, own []Line) Dropped {
	const (
		mine = iota
		blank
		quoted
		signature
	)
	kinds := make([]int, len(raw))
	sig := false
	k := 0
	for i, l := range raw {
		switch {
		case k < len(own) && own[k].No == l.No:
			k++
			kinds[i] = mine
			continue
		case l.Text == "--" || l.Text == "-- ":
			sig = true
		case sig && endsSignature(l.Text):
			sig = false
		}
		switch {
		case l.Text == "":
			kinds[i] = blank
		case sig:
			kinds[i] = signature
		default:
			kinds[i] = quoted
		}
	}
	// A blank line takes the kind of the lines around it when they agree:
	// the kind of the next line not blank is carried back in one pass, so
	// that a mail of blank lines costs its length, not its square.
	next := make([]int, len(kinds))
	after := mine // the kind of the next line not blank
	for i := len(kinds) - 1; i >= 0; i-- {
		next[i] = after
		if kinds[i] != blank {
			after = kinds[i]
		}
	}
	var d Dropped
	prev := mine // the kind of the last line not blank
	for i, kind := range kinds {
		if kind == blank {
			if prev != next[i] {
				continue
			}
			kind = prev
		} else {
			prev = kind
		}
		switch kind {
		case quoted:
			d.Quoted = append(d.Quoted, raw[i].No)
		case signature:
			d.Signature = append(d.Signature, raw[i].No)
		}
	}
	return d
}

// endsSignature reports whether s, a line under a signature, begins what
// a mail program quotes under it: a quoted line, a reply header ("On ...
// wrote:", or its first line when wrapped), an "original message"
// separator, or the first field of an Outlook header ("From: ...").
func endsSignature(s string) bool {
	return isQuoted(s) || isAttributionEnd(s) || isAttributionStart(s) && attributionDateRE.MatchString(s) ||
		separatorRE.MatchString(normalizeSpaces(s)) || replyFromKeys[headerKey(s)]
}

// lines returns the sender's own lines of p, see Message.Body, and what
// was dropped.
func (p *textPart) lines() ([]Line, Dropped) {
	var raw []Line
	if p.flowed {
		raw = unflow(strings.Split(p.text, "\n"), p.delSp)
	} else {
		for i, s := range strings.Split(p.text, "\n") {
			raw = append(raw, Line{No: i + 1, Text: s})
		}
	}
	for i := range raw {
		raw[i].Text = strings.TrimRight(raw[i].Text, " \t")
	}
	own := ownLines(raw)
	return own, dropped(raw, own)
}
