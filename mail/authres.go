package mail

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/notation"
)

// Your provider's verdict on the sender: a receiving mail server checks
// each incoming mail (SPF, DKIM, DMARC) and writes what it found in an
// Authentication-Results header field (RFC 8601) on top of the mail, naming
// itself by its authserv-id. herald cannot tell whether the From of a mail
// is true; the provider that received it can, at least for a domain that
// publishes a DMARC policy. With Config.TrustAuthservIDs herald reads the
// fields of those servers only (any other can be written by the sender):
// a mail whose DMARC result for its From domain is fail is forged, whatever
// key it carries, and with Config.RequireDMARC anything but pass is
// refused.

// AuthResults is one Authentication-Results header field (RFC 8601,
// section 2.2).
type AuthResults struct {
	// AuthServID names the server that wrote the field, as written
	// (compare it without regard to case). Microsoft 365 writes fields
	// without one: then it is "".
	AuthServID string
	// Version is the authres-version, or 0 when absent (version 1).
	Version int
	// Results are the method results in order; none for "none".
	Results []AuthResult
}

// AuthResult is one method's result in an Authentication-Results field:
// "dmarc=pass (p=none) header.from=example.org".
type AuthResult struct {
	Method string // lower case: spf, dkim, dmarc, arc...
	Result string // lower case: pass, fail, none, softfail, temperror...
	Reason string // the reason=… value, unquoted; "" when absent
	Props  []AuthProp
}

// AuthProp is one property of a result: "header.from=example.org" is
// Type "header", Name "from", Value "example.org". A property written
// without a type, as some servers do ("action=none"), has Type "".
type AuthProp struct {
	Type, Name, Value string
}

// Prop returns the value of the property ptype.name of r (case-insensitive
// names), or "".
func (r AuthResult) Prop(ptype, name string) string {
	for _, p := range r.Props {
		if strings.EqualFold(p.Type, ptype) && strings.EqualFold(p.Name, name) {
			return p.Value
		}
	}
	return ""
}

// authLexer reads the tokens of a header field value: RFC 2045 tokens,
// quoted strings and the specials ; = . / @, skipping white space and
// comments (CFWS, RFC 5322 section 3.2.2).
type authLexer struct {
	s string
	i int
}

// cfws skips white space and comments; an unclosed comment is an error.
func (l *authLexer) cfws() error {
	for l.i < len(l.s) {
		switch c := l.s[l.i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			l.i++
		case c == '(':
			start, depth := l.i, 0
			for l.i < len(l.s) {
				ch := l.s[l.i]
				l.i++
				if ch == '\\' {
					l.i = min(l.i+1, len(l.s))
				} else if ch == '(' {
					depth++
				} else if ch == ')' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if depth != 0 {
				return fmt.Errorf("column %d: a comment is not closed", start+1)
			}
		default:
			return nil
		}
	}
	return nil
}

// peek returns the next byte after CFWS, or 0 at the end.
func (l *authLexer) peek() (byte, error) {
	if err := l.cfws(); err != nil {
		return 0, err
	}
	if l.i >= len(l.s) {
		return 0, nil
	}
	return l.s[l.i], nil
}

// tspecial reports whether c ends an RFC 2045 token.
func tspecial(c byte) bool {
	return c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0
}

// token reads an RFC 2045 token after CFWS; "" when there is none.
func (l *authLexer) token() (string, error) {
	if err := l.cfws(); err != nil {
		return "", err
	}
	start := l.i
	for l.i < len(l.s) && !tspecial(l.s[l.i]) {
		l.i++
	}
	return l.s[start:l.i], nil
}

// value reads a token or a quoted string (RFC 2045 value), unquoted.
func (l *authLexer) value() (string, error) {
	c, err := l.peek()
	if err != nil {
		return "", err
	}
	if c != '"' {
		t, err := l.token()
		if err == nil && t == "" {
			err = l.errorf("expected a value")
		}
		return t, err
	}
	start := l.i
	l.i++
	var b strings.Builder
	for l.i < len(l.s) {
		switch c := l.s[l.i]; c {
		case '\\':
			if l.i+1 < len(l.s) {
				b.WriteByte(l.s[l.i+1])
			}
			l.i += 2
		case '"':
			l.i++
			return b.String(), nil
		default:
			b.WriteByte(c)
			l.i++
		}
	}
	return "", fmt.Errorf("column %d: a quoted string is not closed", start+1)
}

// pvalue reads a property's value: a value, or an address or domain
// ([local-part] "@" domain).
func (l *authLexer) pvalue() (string, error) {
	var v string
	if c, err := l.peek(); err != nil {
		return "", err
	} else if c != '@' {
		if v, err = l.value(); err != nil {
			return "", err
		}
		// A DKIM signature's start (header.b) is base64, which may hold
		// "/": take it as part of the value, as servers write it.
		for c != '"' && l.i < len(l.s) && l.s[l.i] == '/' {
			l.i++
			t, err := l.token()
			if err != nil {
				return "", err
			}
			v += "/" + t
		}
	}
	if c, err := l.peek(); err != nil || c != '@' {
		return v, err
	}
	l.i++
	d, err := l.token()
	if err == nil && d == "" {
		err = l.errorf("expected a domain after @")
	}
	return v + "@" + d, err
}

// expect reads the special c after CFWS.
func (l *authLexer) expect(c byte, what string) error {
	got, err := l.peek()
	if err != nil {
		return err
	}
	if got != c {
		return l.errorf("expected %s", what)
	}
	l.i++
	return nil
}

func (l *authLexer) errorf(format string, args ...any) error {
	at := "the end"
	if l.i < len(l.s) {
		r := l.s[l.i:]
		if len(r) > 12 {
			r = r[:12] + "…"
		}
		at = fmt.Sprintf("%q", r)
	}
	return fmt.Errorf("column %d: %s, found %s", l.i+1, fmt.Sprintf(format, args...), at)
}

// ParseAuthResults parses the value of an Authentication-Results header
// field (RFC 8601, section 2.2): an authserv-id, an optional version, and
// "; none" or one result per method, "; method=result [reason=…]
// [ptype.property=value…]". Comments and folding white space may appear
// between any two tokens. It is lenient where real servers differ from
// the grammar: a property without a type ("action=none"), reason among the
// properties, a ";" at the end, and a field with no authserv-id (Microsoft
// 365 writes "spf=pass …; dmarc=pass …"), read with AuthServID "".
//
// On an error it returns what it read before it, with the error: the
// authserv-id when that was read, and the results before the one in error.
func ParseAuthResults(v string) (*AuthResults, error) {
	l := &authLexer{s: v}
	ar := &AuthResults{}
	fail := func(err error) (*AuthResults, error) {
		return ar, fmt.Errorf("mail: Authentication-Results: %w", err)
	}
	id, err := l.value()
	if err != nil {
		return fail(err)
	}
	if c, err := l.peek(); err != nil {
		return fail(err)
	} else if c == '=' || c == '/' {
		// No authserv-id: the field starts with its first result.
		l.i = 0
	} else {
		ar.AuthServID = id
		if c >= '0' && c <= '9' {
			start := l.i
			n := 0
			for l.i < len(l.s) && l.s[l.i] >= '0' && l.s[l.i] <= '9' && n < 1000 {
				n = n*10 + int(l.s[l.i]-'0')
				l.i++
			}
			if l.i < len(l.s) && !tspecial(l.s[l.i]) {
				l.i = start // a token that starts with digits: not a version
				return fail(l.errorf("expected \";\" after the authserv-id"))
			}
			ar.Version = n
		}
		c, err := l.peek()
		if err != nil {
			return fail(err)
		}
		if c == 0 {
			return fail(l.errorf("expected \"; none\" or results after the authserv-id"))
		}
		if err := l.expect(';', `";" after the authserv-id`); err != nil {
			return fail(err)
		}
		save := l.i
		if t, err := l.token(); err != nil {
			return fail(err)
		} else if strings.EqualFold(t, "none") {
			if c, err := l.peek(); err != nil {
				return fail(err)
			} else if c == 0 {
				return ar, nil
			}
		}
		l.i = save
	}
	for {
		r, err := l.result()
		if err == nil {
			ar.Results = append(ar.Results, r)
		}
		if err != nil {
			return fail(err)
		}
		c, err := l.peek()
		if err != nil {
			return fail(err)
		}
		if c == 0 {
			return ar, nil
		}
		if err := l.expect(';', `";" between results`); err != nil {
			return fail(err)
		}
		if c, err := l.peek(); err != nil {
			return fail(err)
		} else if c == 0 {
			return ar, nil // a ";" at the end
		}
	}
}

// result reads one resinfo after its ";": method[/version]=result, then
// reason and properties until the next ";" or the end.
func (l *authLexer) result() (AuthResult, error) {
	var r AuthResult
	m, err := l.token()
	if err != nil {
		return r, err
	}
	if m == "" {
		return r, l.errorf("expected a method, like dmarc=pass")
	}
	if c, err := l.peek(); err != nil {
		return r, err
	} else if c == '/' { // method-version
		l.i++
		if v, err := l.token(); err != nil || v == "" {
			if err == nil {
				err = l.errorf("expected the method's version after /")
			}
			return r, err
		}
	}
	if err := l.expect('=', fmt.Sprintf("\"=\" and a result after the method %q", m)); err != nil {
		return r, err
	}
	res, err := l.token()
	if err != nil {
		return r, err
	}
	if res == "" {
		return r, l.errorf("expected the result of %s", m)
	}
	r.Method, r.Result = strings.ToLower(m), strings.ToLower(res)
	for {
		c, err := l.peek()
		if err != nil || c == 0 || c == ';' {
			return r, err
		}
		name, err := l.token()
		if err != nil {
			return r, err
		}
		if name == "" {
			return r, l.errorf("expected a property, like header.from=example.org")
		}
		ptype, prop, dotted := strings.Cut(name, ".")
		if !dotted {
			if c, err := l.peek(); err != nil {
				return r, err
			} else if c == '.' { // "header . from": CFWS around the dot
				l.i++
				if prop, err = l.token(); err != nil {
					return r, err
				}
				dotted = true
			} else {
				ptype, prop = "", name
			}
		}
		if dotted && (ptype == "" || prop == "") {
			return r, l.errorf("expected a property type and name, like header.from")
		}
		if err := l.expect('=', fmt.Sprintf("\"=\" after %s", name)); err != nil {
			return r, err
		}
		v, err := l.pvalue()
		if err != nil {
			return r, err
		}
		if ptype == "" && strings.EqualFold(prop, "reason") {
			r.Reason = v
			continue
		}
		r.Props = append(r.Props, AuthProp{Type: strings.ToLower(ptype), Name: strings.ToLower(prop), Value: v})
	}
}

// DMARC is what the trusted servers found of a mail's DMARC check for
// its From domain.
type DMARC struct {
	// Result is "pass", "fail", another result of the method (none,
	// temperror, permerror), or "" when no trusted field gives one for the
	// From domain.
	Result string
	// By is the authserv-id of the field that gave Result.
	By string
	// Detail is the result as written, for the host: "dmarc=fail
	// (p=reject) header.from=example.org".
	Detail string
}

// dmarcVerdict returns the DMARC result for fromDomain given by the
// Authentication-Results fields (top first) whose authserv-id is one of
// trusted: fail when any says fail, else the first result there is. A
// field of another server is ignored (the sender may have written it), as
// is a dmarc result about another domain (header.from). Of a trusted
// field with an error, the results before the error count.
func dmarcVerdict(fields []string, trusted []string, fromDomain string) DMARC {
	var v DMARC
	for _, f := range fields {
		ar, _ := ParseAuthResults(f)
		if ar == nil || ar.AuthServID == "" || !slices.ContainsFunc(trusted, func(t string) bool { return strings.EqualFold(t, ar.AuthServID) }) {
			continue
		}
		for _, r := range ar.Results {
			if r.Method != "dmarc" {
				continue
			}
			if d := r.Prop("header", "from"); d != "" && !strings.EqualFold(strings.TrimSuffix(d, "."), fromDomain) {
				continue
			}
			if v.Result == "" || r.Result == "fail" && v.Result != "fail" {
				v = DMARC{Result: r.Result, By: ar.AuthServID, Detail: describeResult(r)}
			}
		}
	}
	return v
}

// describeResult writes r back as a field would: "dmarc=fail
// header.from=example.org".
func describeResult(r AuthResult) string {
	var b strings.Builder
	b.WriteString(r.Method + "=" + r.Result)
	if r.Reason != "" {
		fmt.Fprintf(&b, " reason=%q", r.Reason)
	}
	for _, p := range r.Props {
		b.WriteByte(' ')
		if p.Type != "" {
			b.WriteString(p.Type + ".")
		}
		b.WriteString(p.Name + "=" + p.Value)
	}
	return b.String()
}

// senderVerdict is what herald knows of the sender of a mail: its
// provider's DMARC verdict (Config.TrustAuthservIDs) and herald's own DKIM
// check (Config.VerifyDKIM).
type senderVerdict struct {
	DMARC DMARC
	DKIM  DKIM
}

// senderCheck returns why msg is refused by what is known of its sender
// (Config.TrustAuthservIDs, Config.VerifyDKIM, Config.RequireDMARC), with
// the verdict, or "" when it is not refused. The provider's verdict comes
// first, as it judged the mail as it arrived: its fail is forged, its
// pass proves the sender. Else herald's own DKIM pass proves it, and its
// fail (no signature of the From domain verifies) is forged. A mail with
// neither proof nor forgery is refused only with RequireDMARC.
func (s *Service) senderCheck(msg *Message) (string, senderVerdict) {
	if len(s.cfg.TrustAuthservIDs) == 0 && !s.cfg.VerifyDKIM {
		return "", senderVerdict{}
	}
	_, domain, _ := strings.Cut(msg.From, "@")
	var v senderVerdict
	if len(s.cfg.TrustAuthservIDs) > 0 {
		v.DMARC = dmarcVerdict(msg.AuthResults, s.cfg.TrustAuthservIDs, domain)
	}
	if s.cfg.VerifyDKIM {
		v.DKIM = msg.DKIM
	}
	switch {
	case v.DMARC.Result == "fail":
		return fmt.Sprintf("forged: %s says %s", v.DMARC.By, v.DMARC.Detail), v
	case v.DMARC.Result == "pass" || v.DKIM.Result == "pass":
		return "", v
	case v.DKIM.Result == "fail":
		return "forged: herald's DKIM check says " + v.DKIM.Detail, v
	case !s.cfg.RequireDMARC:
		return "", v
	case v.DMARC.Result != "":
		return fmt.Sprintf("DMARC not passed: %s says %s (require_dmarc)", v.DMARC.By, v.DMARC.Detail), v
	case len(s.cfg.TrustAuthservIDs) == 0:
		return "no valid DKIM signature of " + domain + " (require_dmarc)", v
	case s.cfg.VerifyDKIM:
		return "no DMARC result from " + strings.Join(s.cfg.TrustAuthservIDs, " or ") + ", no valid DKIM signature of " + domain + " (require_dmarc)", v
	}
	return "no DMARC result from " + strings.Join(s.cfg.TrustAuthservIDs, " or ") + " (require_dmarc)", v
}

// forged refuses msg, judged forged by the provider or by herald's DKIM
// check, or not proven where that is required (senderCheck says why). Its sender is not answered: its From is the one address it does
// not come from. The host of the game it is about, when it names one of
// the address's games, is told what came in whose name, at most once an
// hour (Config.TrustAuthservIDs): a forger cannot flood them.
func (s *Service) forged(ctx context.Context, ses *host.Session, msg *Message, env *notation.Envelope, why string, v senderVerdict, now time.Time) (Outcome, int64, string, error) {
	if env.Game == "" && notation.SubjectGame(msg.Subject) == "" {
		if id, _ := s.replyToken(msg); id != 0 {
			env.Game = gameTag(id)
		}
	}
	g, _, err := s.findGame(ctx, ses, msg, env)
	if err != nil || g == nil {
		return Rejected, 0, why, err
	}
	tx := ses.Tx()
	n, err := tx.AuthNoticesSince(ctx, g.Host, now.Add(-time.Hour))
	if err != nil {
		return "", 0, "", err
	}
	if n >= AuthNoticesPerHour {
		s.log.Warn("a notice of a refused mail went to the host within the hour; not telling again", "to", g.Host, "game", g.ID)
		return Rejected, g.ID, why, nil
	}
	lang := host.HostLang(g) // the one the host chose or wrote in
	fr := lang == notation.French
	who := msg.From
	if i := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Address == msg.From }); i >= 0 {
		who = fmt.Sprintf("%s (%s)", g.Players[i].Name, msg.From)
	} else if g.Host == msg.From {
		who = pick(fr, "you (", "vous (") + msg.From + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, pick(fr, "herald refused a mail about game %s that claims to come from\n%s.\n\n",
		"herald a refusé un courrier sur la partie %s qui se dit envoyé par\n%s.\n\n"), gameTag(g.ID), who)
	_, domain, _ := strings.Cut(msg.From, "@")
	switch {
	case v.DMARC.Result == "fail":
		fmt.Fprintf(&b, pick(fr, "Your mail provider's server %s checked it and found that it does not\ncome from there: its DMARC check failed (%s).\nSo it was treated as forged, whatever key it carried.\n",
			"Le serveur %s de votre fournisseur de courrier l'a\nvérifié et a trouvé qu'il n'en vient pas : son contrôle DMARC a\néchoué (%s).\nIl a donc été traité comme contrefait, quelle que soit la clé qu'il\nportait.\n"), v.DMARC.By, v.DMARC.Detail)
	case v.DKIM.Result == "fail":
		fmt.Fprintf(&b, pick(fr, "herald checked its DKIM signature itself (verify-dkim): the signature\nof %s on it does not verify (%s).\nSo it was treated as forged, whatever key it carried.\n",
			"herald a vérifié lui-même sa signature DKIM (verify-dkim) : la\nsignature de %s ne se vérifie pas (%s).\nIl a donc été traité comme contrefait, quelle que soit la clé qu'il\nportait.\n"), v.DKIM.Domain, v.DKIM.Detail)
	case v.DMARC.Result != "":
		fmt.Fprintf(&b, pick(fr, "Your mail provider's server %s gave it the DMARC result %q (%s),\nand this herald accepts only mail whose DMARC check passed (require_dmarc).\n",
			"Le serveur %s de votre fournisseur de courrier\nlui a donné le résultat DMARC %q (%s),\net ce herald n'accepte que le courrier dont le contrôle DMARC a réussi\n(require_dmarc).\n"), v.DMARC.By, v.DMARC.Result, v.DMARC.Detail)
	case len(s.cfg.TrustAuthservIDs) == 0:
		fmt.Fprintf(&b, pick(fr, "It carries no DKIM signature of %s that herald could verify\n(verify-dkim), and this herald accepts only mail whose sender is\nproven (require_dmarc).\n",
			"Il ne porte aucune signature DKIM de %s\nque herald ait pu vérifier (verify-dkim), et ce herald n'accepte que\nle courrier dont l'expéditeur est prouvé (require_dmarc).\n"), domain)
	default:
		fmt.Fprintf(&b, pick(fr, "Your mail provider's servers (%s) gave no DMARC result for it,\n", "Les serveurs de votre fournisseur de courrier (%s)\nne lui ont donné aucun résultat DMARC,\n"), strings.Join(s.cfg.TrustAuthservIDs, ", "))
		if s.cfg.VerifyDKIM {
			fmt.Fprintf(&b, pick(fr, "it carries no DKIM signature of %s that herald could verify,\n", "il ne porte aucune signature DKIM de %s\nque herald ait pu vérifier,\n"), domain)
		}
		b.WriteString(pick(fr, "and this herald accepts only mail whose DMARC check passed (require_dmarc).\n", "et ce herald n'accepte que le courrier dont le contrôle DMARC a\nréussi (require_dmarc).\n"))
	}
	fmt.Fprintf(&b, pick(fr, "\nNothing in it was done, and its sender was not answered.\nSubject: %q\n\n", "\nRien n'en a été fait, et son expéditeur n'a pas reçu de réponse.\nSujet : %q\n\n"), clipText(msg.Subject, 60))
	b.WriteString(pick(fr, "If that player did send it, their own provider's settings for their\ndomain (SPF, DKIM) are at fault: ask them to write from another address,\nor ask herald's operator.\n",
		"Si ce joueur l'a bien envoyé, ce sont les réglages de son fournisseur\npour son domaine (SPF, DKIM) qui sont en cause : demandez-lui d'écrire\nd'une autre adresse, ou adressez-vous à l'exploitant de herald.\n"))
	fmt.Fprintf(&b, pick(fr, "\nThis notice goes once an hour at most: until %s,\nfurther mails refused so are not reported.\n", "\nCet avis part une fois par heure au plus : jusqu'au\n%s, les autres courriers refusés ainsi ne sont\npas signalés.\n"), formatResume(now.Add(time.Hour)))
	subject := fmt.Sprintf(pick(fr, "[herald %s] a mail in %s's name refused", "[herald %s] un courrier au nom de %s refusé"), gameTag(g.ID), msg.From)
	m := outMail{To: g.Host, Subject: subject, References: refs("", g.ID, s.domain), Body: b.String(), lang: lang}
	m.MessageID = newMessageID(s.domain)
	d, err := m.draft()
	if err != nil {
		return "", 0, "", err
	}
	if err := tx.Queue(ctx, host.Mail{GameID: g.ID, Recipient: g.Host, Draft: d, AuthNotice: true}); err != nil {
		return "", 0, "", err
	}
	return Rejected, g.ID, why, nil
}
