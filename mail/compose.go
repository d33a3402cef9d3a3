package mail

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"

	gomail "github.com/emersion/go-message/mail"
)

// outMail is a mail herald sends: always plain text at 72 columns, with an
// optional attachment (the final record).
type outMail struct {
	To         string
	Subject    string
	InReplyTo  string   // Message-ID of the mail answered, without brackets
	References []string // for threading, without brackets
	Body       string
	Attachment *Attachment
}

// compose renders m as an RFC 5322 message from the service's address.
// Message-IDs are random, so compose is the one place in the mail layer
// that is not deterministic; it never influences a game.
func (s *Service) compose(m outMail, now time.Time) ([]byte, error) {
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{{Name: "herald", Address: s.cfg.Address}})
	h.SetAddressList("To", []*gomail.Address{{Address: m.To}})
	h.SetSubject(m.Subject)
	h.SetDate(now)
	h.SetMessageID(newMessageID(s.domain))
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
	if m.Attachment == nil {
		h.Set("Content-Type", "text/plain; charset=utf-8; format=fixed")
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
	w, err := gomail.CreateWriter(&buf, h)
	if err != nil {
		return nil, err
	}
	var th gomail.InlineHeader
	th.Set("Content-Type", "text/plain; charset=utf-8")
	tw, err := w.CreateSingleInline(th)
	if err != nil {
		return nil, err
	}
	io.WriteString(tw, body)
	tw.Close()
	var ah gomail.AttachmentHeader
	ah.Set("Content-Type", "application/yaml")
	ah.SetFilename(m.Attachment.Name)
	aw, err := w.CreateAttachment(ah)
	if err != nil {
		return nil, err
	}
	aw.Write(m.Attachment.Data)
	aw.Close()
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
