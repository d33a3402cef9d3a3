package mail

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	netmail "net/mail"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/notation"
)

// Bounces: a mail herald sent that cannot be delivered comes back as a
// delivery status notification (RFC 3464: multipart/report with a
// message/delivery-status part and the mail or its header returned), as
// Postfix, Gmail ("Delivery Status Notification (Failure)") and Microsoft
// 365 ("Undeliverable:") write it, or, from older servers such as Exim,
// as text with an X-Failed-Recipients field. herald never answers it. It
// finds the game from what herald wrote in the mail returned (its
// References name the game, its Reply-To the seat's token address), marks
// the seat of the address that failed undeliverable when the mail returned
// carries that seat's token address (a report anyone may forge does not), and tells the game's
// host once, in words, whose address fails and why. The game's clock is
// not stopped: the host decides (replace the player, or change the
// timing). A later mail from that player clears the mark.

// Bounce is what a delivery report says of a mail herald sent.
type Bounce struct {
	// Failed are the recipients the report says failed for good.
	Failed []BouncedRecipient
	// MessageID, References and Recipients are those of the mail that
	// bounced, as returned in the report (its header, or a copy of it in
	// the text); Recipients holds its To, Cc and Reply-To addresses.
	MessageID  string
	References []string
	Recipients []string
}

// BouncedRecipient is one address a mail could not reach.
type BouncedRecipient struct {
	Address    string // lower case
	Status     string // the RFC 3463 status, like 5.1.1; "" when not given
	Diagnostic string // the remote server's answer, when given
}

// maxReportGroups bounds the per-recipient groups read of a report.
const maxReportGroups = 64

// ParseBounce reads raw as a delivery report and returns what it says of
// the recipients that failed for good (Action: failed), or nil when raw is
// no report of a failure: a report of a delay or a delivery, or another
// mail.
func ParseBounce(raw []byte) *Bounce {
	e, err := message.Read(bytes.NewReader(raw))
	if e == nil {
		return nil
	}
	_ = err // an unknown charset is no obstacle: the fields are ASCII
	b := &Bounce{}
	if t, _, _ := e.Header.ContentType(); t == "multipart/report" {
		b.readReport(e)
	}
	if len(b.Failed) == 0 {
		// X-Failed-Recipients (Exim and others): the addresses, and the
		// reason in the text.
		for _, v := range e.Header.Values("X-Failed-Recipients") {
			for _, a := range strings.Split(v, ",") {
				if addr, err := netmail.ParseAddress(strings.TrimSpace(a)); err == nil {
					b.Failed = append(b.Failed, BouncedRecipient{Address: strings.ToLower(addr.Address)})
				}
			}
		}
		if len(b.Failed) > 0 && b.MessageID == "" {
			body, _ := io.ReadAll(io.LimitReader(e.Body, 1<<20))
			b.readReturnedText(body)
		}
	}
	if len(b.Failed) == 0 {
		return nil
	}
	return b
}

// readReport reads the parts of a multipart/report.
func (b *Bounce) readReport(e *message.Entity) {
	mr := e.MultipartReader()
	if mr == nil {
		return
	}
	for range 16 {
		p, err := mr.NextPart()
		if err != nil {
			return
		}
		t, _, _ := p.Header.ContentType()
		switch t {
		case "message/delivery-status", "message/global-delivery-status":
			b.readStatus(p.Body)
		case "message/rfc822", "text/rfc822-headers", "message/global", "message/global-headers":
			br := bufio.NewReader(io.LimitReader(p.Body, 1<<20))
			if h, err := textproto.ReadHeader(br); err == nil {
				b.readReturned(message.Header{Header: h})
			}
		}
	}
}

// readStatus reads a message/delivery-status body: a group of fields about
// the report, then one group per recipient, separated by blank lines.
func (b *Bounce) readStatus(r io.Reader) {
	br := bufio.NewReader(io.LimitReader(r, 1<<20))
	for i := 0; i < maxReportGroups; i++ {
		// Skip blank lines before a group.
		for {
			c, err := br.Peek(1)
			if err != nil {
				return
			}
			if c[0] != '\r' && c[0] != '\n' {
				break
			}
			br.ReadByte()
		}
		h, err := textproto.ReadHeader(br)
		if err != nil {
			return
		}
		if i == 0 && !h.Has("Final-Recipient") {
			continue // the per-message fields
		}
		if action := strings.ToLower(strings.TrimSpace(h.Get("Action"))); action != "failed" {
			continue // delayed, delivered, relayed, expanded
		}
		addr := typedAddress(h.Get("Final-Recipient"))
		if addr == "" {
			addr = typedAddress(h.Get("Original-Recipient"))
		}
		if addr == "" {
			continue
		}
		status := strings.TrimSpace(h.Get("Status"))
		if i := strings.IndexAny(status, " (\t"); i >= 0 {
			status = status[:i]
		}
		diag := h.Get("Diagnostic-Code")
		if _, v, ok := strings.Cut(diag, ";"); ok {
			diag = v
		}
		b.Failed = append(b.Failed, BouncedRecipient{Address: addr, Status: status, Diagnostic: strings.Join(strings.Fields(diag), " ")})
	}
}

// typedAddress reads an address-type field value, "rfc822; a@b", and
// returns the address in lower case, or "".
func typedAddress(v string) string {
	typ, addr, ok := strings.Cut(v, ";")
	if !ok {
		return ""
	}
	if t := strings.ToLower(strings.TrimSpace(typ)); t != "rfc822" && t != "utf-8" {
		return ""
	}
	addr = strings.Trim(strings.TrimSpace(addr), "<>")
	if !strings.Contains(addr, "@") || strings.ContainsAny(addr, " \t\r\n") {
		return ""
	}
	return strings.ToLower(addr)
}

// readReturned reads the header of the mail returned.
func (b *Bounce) readReturned(h message.Header) {
	if ids := msgIDs(h.Get("Message-Id")); len(ids) > 0 {
		b.MessageID = ids[0]
	}
	b.References = msgIDs(h.Get("References"))
	b.References = append(b.References, msgIDs(h.Get("In-Reply-To"))...)
	for _, name := range []string{"To", "Cc", "Reply-To"} {
		if list, err := netmail.ParseAddressList(h.Get(name)); err == nil {
			for _, a := range list {
				b.Recipients = append(b.Recipients, strings.ToLower(a.Address))
			}
		}
	}
}

// returnedField finds a header field of the mail returned, quoted in the
// text of a bounce: "Message-ID: <…>" at the start of a line.
var returnedField = regexp.MustCompile(`(?mi)^(Message-ID|References|In-Reply-To|Reply-To|To):[ \t]*(.*(?:\r?\n[ \t]+.*)*)`)

// readReturnedText reads the fields of the mail returned that a text
// bounce quotes.
func (b *Bounce) readReturnedText(body []byte) {
	var h message.Header
	for _, m := range returnedField.FindAllSubmatch(body, 32) {
		name := string(m[1])
		if h.Has(name) {
			continue // the first is the mail's; later ones may be quoted deeper
		}
		h.Set(name, strings.Join(strings.Fields(string(m[2])), " "))
	}
	b.readReturned(h)
}

// game returns the game of the mail that bounced, as herald wrote it: its
// References start with game-N@domain, its Reply-To is the seat's token
// address local+gN.TOKEN@domain; 0 when neither says.
func (b *Bounce) game(address string) int64 {
	local, domain, _ := strings.Cut(address, "@")
	for _, id := range append([]string{b.MessageID}, b.References...) {
		if n, ok := strings.CutPrefix(id, "game-"); ok {
			num, d, _ := strings.Cut(n, "@")
			if g, err := strconv.ParseInt(num, 10, 64); err == nil && g > 0 && strings.EqualFold(d, domain) {
				return g
			}
		}
	}
	for _, r := range b.Recipients {
		l, d, _ := strings.Cut(r, "@")
		if tag, ok := strings.CutPrefix(l, local+"+g"); ok && strings.EqualFold(d, domain) {
			num, _, _ := strings.Cut(tag, ".")
			if g, err := strconv.ParseInt(num, 10, 64); err == nil && g > 0 {
				return g
			}
		}
	}
	return 0
}

// returnedTo reports whether the mail the report returns is one herald
// sent the seat of game id whose reply token is token: its Reply-To is
// that seat's token address (address's local part, +gN.TOKEN), a secret
// only herald's mails to the seat carry, so a report anyone wrote cannot
// mark the seat. A seat with no token (serve --reply-tokens off) has
// nothing to prove it, and any report of its address counts.
func (b *Bounce) returnedTo(address string, id int64, token string) bool {
	if token == "" {
		return true
	}
	local, domain, _ := strings.Cut(address, "@")
	return slices.Contains(b.Recipients, strings.ToLower(fmt.Sprintf("%s+g%d.%s@%s", local, id, token, domain)))
}

// why says in words why mail to r failed.
func (r BouncedRecipient) why() string { return r.whyIn(notation.English) }

// whyIn is why in lang; the server's words stay as it wrote them.
func (r BouncedRecipient) whyIn(lang notation.Lang) string {
	fr := lang == notation.French
	var s string
	switch {
	case strings.HasPrefix(r.Status, "5.1.1") || strings.HasPrefix(r.Status, "5.1.10"):
		s = pick(fr, "the address does not exist", "l'adresse n'existe pas")
	case strings.HasPrefix(r.Status, "5.1.2"):
		s = pick(fr, "the domain does not exist or takes no mail", "le domaine n'existe pas ou ne reçoit pas de courrier")
	case strings.HasPrefix(r.Status, "5.2.2"), strings.HasPrefix(r.Status, "4.2.2"):
		s = pick(fr, "the mailbox is full", "la boîte aux lettres est pleine")
	case strings.HasPrefix(r.Status, "5.2.1"):
		s = pick(fr, "the mailbox is disabled", "la boîte aux lettres est désactivée")
	case strings.HasPrefix(r.Status, "5.7"):
		s = pick(fr, "the receiving server refused it (policy or spam filter)", "le serveur destinataire l'a refusé (règles ou filtre anti-spam)")
	default:
		s = pick(fr, "it could not be delivered", "il n'a pas pu être remis")
	}
	if r.Status != "" {
		s += pick(fr, " (status ", " (statut ") + r.Status + ")"
	}
	if r.Diagnostic != "" {
		s += pick(fr, "; the server said: ", " ; le serveur a dit : ") + clipText(r.Diagnostic, 200)
	}
	return s
}

// bounced handles a delivery report of a mail herald sent: each address
// that failed, found in a running game of the mail returned, has its seat
// marked undeliverable and the host told, once until the mark is
// cleared. The report itself is never answered.
func (s *Service) bounced(ctx context.Context, ses *host.Session, msg *Message, now time.Time) (Outcome, int64, string, error) {
	b := msg.Bounce
	var game int64
	var told, unproved []string
	for _, r := range b.Failed {
		id := b.game(s.cfg.Address)
		if id == 0 {
			continue
		}
		g, err := ses.Game(ctx, id)
		if err != nil {
			return "", 0, "", err
		}
		if g == nil || g.Status != host.Playing {
			continue
		}
		seat := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Address == r.Address })
		if seat < 0 || g.Players[seat].Undeliverable != "" {
			continue // not a player's, or known already
		}
		if !b.returnedTo(s.cfg.Address, id, g.Players[seat].Token) {
			// Anyone can write a report: only one that returns herald's
			// own mail to the seat says the address fails.
			unproved = append(unproved, r.Address)
			continue
		}
		game = id
		tx := ses.Tx()
		if err := tx.SetUndeliverable(ctx, id, seat, r.why()); err != nil {
			return "", 0, "", err
		}
		told = append(told, r.Address)
		if g.Host == r.Address {
			continue
		}
		p := g.Players[seat]
		lang := host.HostLang(g) // the one they chose or wrote in
		body := fmt.Sprintf("Mail from herald to %s (%s), who plays %s, bounces:\n%s.\n\n"+
			"herald marked the seat undeliverable (herald games shows it). The game's\n"+
			"clock goes on: the reminders and the deadline still go to that address\n"+
			"and will not reach them. Reach the player another way, change the\n"+
			"timing, or give the seat to an address that works:\n\n  replace %s by NEW-ADDRESS\n\n"+
			"A mail from %s to herald clears the mark.\n",
			p.Name, r.Address, gameTag(id), r.why(), p.Name, r.Address)
		subject := fmt.Sprintf("[herald %s] mail to %s bounces", gameTag(id), p.Name)
		if lang == notation.French {
			body = fmt.Sprintf("Le courrier de herald à %s (%s),\nqui joue la partie %s, revient :\n%s.\n\n"+
				"herald a marqué la place comme injoignable (herald games le montre).\n"+
				"L'horloge de la partie continue : les rappels et l'échéance vont\n"+
				"toujours à cette adresse et ne l'atteindront pas. Joignez le joueur\n"+
				"autrement, changez le rythme, ou donnez la place à une adresse qui\n"+
				"marche :\n\n  remplace %s par NOUVELLE-ADRESSE\n\n"+
				"Un courrier de l'adresse %s à herald efface la marque.\n",
				p.Name, r.Address, gameTag(id), r.whyIn(lang), p.Name, r.Address)
			subject = fmt.Sprintf("[herald %s] le courrier à %s revient", gameTag(id), p.Name)
		}
		m := outMail{To: g.Host, Subject: subject, References: refs("", id, s.domain), Body: body, lang: lang}
		if err := s.queue(ctx, tx, m, id); err != nil {
			return "", 0, "", err
		}
	}
	if len(told) == 0 && len(unproved) > 0 {
		return Ignored, game, "bounce: returns no mail of herald's to " + strings.Join(unproved, ", "), nil
	}
	if len(told) == 0 {
		return Ignored, game, "automatic mail: bounce", nil
	}
	return Ignored, game, "bounce: undeliverable " + strings.Join(told, ", "), nil
}

// delivered clears the undeliverable mark of seat in g: a mail from its
// address came through.
func (s *Service) delivered(ctx context.Context, ses *host.Session, g *host.Game, seat int) error {
	if seat < 0 || g.Players[seat].Undeliverable == "" {
		return nil
	}
	g.Players[seat].Undeliverable = ""
	return ses.Tx().SetUndeliverable(ctx, g.ID, seat, "")
}
