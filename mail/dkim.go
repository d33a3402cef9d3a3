package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-msgauth/dkim"
	"golang.org/x/net/publicsuffix"
)

// herald's own DKIM check (Config.VerifyDKIM), for a host whose provider
// stamps no Authentication-Results: herald verifies the DKIM signatures
// (RFC 6376) of each incoming mail itself, looking their keys up in DNS.
// A valid signature of the From domain (the same organizational domain:
// DMARC's relaxed alignment, RFC 7489 section 3.1.1) proves the From; one
// that does not verify, and no other that does, marks the mail forged; a
// mail without one is decided as a mail without a DMARC result is
// (Config.RequireDMARC). A signature of any other domain proves nothing
// about the From: its key is not even looked up.
//
// The check is bounded whatever the mail: a mail without a DKIM-Signature
// field costs no lookup, at most maxDKIMSignatures signatures are
// verified (their keys looked up at once), the whole check of one mail
// has dkimTimeout, lookups included, and a domain whose DNS did not answer
// in time is not asked again for dkimSilence.

// maxDKIMSignatures is how many DKIM signatures of one mail herald
// verifies, the first in the header: a mail rarely carries more than two
// or three, and a hostile one carrying thousands costs no more than this.
const maxDKIMSignatures = 8

// dkimTimeout is how long the DKIM check of one mail may take, its DNS
// lookups included (Service.dkimTimeout, shorter in tests).
const dkimTimeout = 10 * time.Second

// dkimSilence is how long herald asks no more for the DKIM keys of a
// domain whose DNS did not answer within dkimTimeout: its mails then count
// as unsigned at once (or wait, with require_dmarc), and a flood of mails
// of a domain whose DNS hangs costs one wait a minute, not one a mail.
const dkimSilence = time.Minute

// orgDomain returns the organizational domain of d (the public suffix and
// one label more), or d when it has none.
func orgDomain(d string) string {
	d = strings.ToLower(strings.TrimSuffix(d, "."))
	if o, err := publicsuffix.EffectiveTLDPlusOne(d); err == nil {
		return o
	}
	return d
}

// DKIM is what herald's own check of a mail's DKIM signatures found for
// its From domain (Config.VerifyDKIM).
type DKIM struct {
	// Result is "pass" when a signature of the From domain verifies,
	// "temperror" when none does and the key of one could not be looked up
	// for a temporary failure (a DNS timeout), "fail" when one does not
	// verify or its key is missing or unusable, and "" when the mail has no
	// signature of its From domain (or was not checked).
	Result string
	// Domain is the signing domain (d=) of the signature that gave Result.
	Domain string
	// Detail is the result for the host, as an Authentication-Results
	// field would give it: "dkim=fail header.d=example.org (body hash did
	// not verify)".
	Detail string
}

// aligned reports whether the signing domain d speaks for mail from the
// domain from: the same domain, or the same organizational domain (the
// public suffix and one label more: mail.example.org and example.org).
func aligned(d, from string) bool {
	d, from = strings.ToLower(strings.TrimSuffix(d, ".")), strings.ToLower(strings.TrimSuffix(from, "."))
	if d == "" || from == "" {
		return false
	}
	if d == from {
		return true
	}
	od, err := publicsuffix.EffectiveTLDPlusOne(d)
	if err != nil {
		return false
	}
	of, err := publicsuffix.EffectiveTLDPlusOne(from)
	return err == nil && od == of
}

// hasDKIMSignature reports whether the header of raw has a
// DKIM-Signature field, read as the DKIM verifier reads it: a field's name
// is what comes before its colon (or the whole line, without one), white
// space around it ignored, and a line that starts with white space
// continues the field above it.
func hasDKIMSignature(raw []byte) bool {
	for first := true; len(raw) > 0; first = false {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			return false // the end of the header
		}
		if !first && (line[0] == ' ' || line[0] == '\t') {
			continue // a field folded
		}
		name, _, _ := bytes.Cut(line, []byte(":"))
		if strings.EqualFold(strings.TrimSpace(string(name)), "DKIM-Signature") {
			return true
		}
	}
	return false
}

// checkDKIM verifies the DKIM signatures of the mail r read from raw, when
// the service does (Config.VerifyDKIM), into r.msg.DKIM. A temporary
// failure (temperror) counts as no signature, as a sender could have
// sent the mail unsigned; where that would refuse the mail (RequireDMARC,
// and no DMARC verdict from the provider), the mail is not decided now:
// r.xerr says why, and the intake tries it again, then sets it aside with
// that reason (setaside.go).
func (s *Service) checkDKIM(raw []byte, r *readMail) {
	if !s.cfg.VerifyDKIM || r.xerr != nil || r.msg == nil {
		return
	}
	_, domain, _ := strings.Cut(r.msg.From, "@")
	if domain == "" || !hasDKIMSignature(raw) {
		return
	}
	r.msg.DKIM = s.verifyDKIM(raw, domain)
	if r.msg.DKIM.Result != "temperror" || !s.cfg.RequireDMARC {
		return
	}
	if v := dmarcVerdict(r.msg.AuthResults, s.cfg.TrustAuthservIDs, domain).Result; v == "pass" || v == "fail" {
		return // the provider's verdict decides
	}
	r.xerr = fmt.Errorf("mail: herald's DKIM check could not be made now (%s), and require_dmarc refuses a mail whose sender is not proven: tried again later", r.msg.DKIM.Detail)
}

// verifyDKIM verifies the first maxDKIMSignatures DKIM signatures of raw
// and returns the verdict for fromDomain: pass when one aligned with it
// verifies, else temperror when the key of one could not be looked up
// for now, else fail when one does not verify, else none. Only the keys of
// signatures aligned with fromDomain are looked up.
func (s *Service) verifyDKIM(raw []byte, fromDomain string) DKIM {
	ctx, cancel := context.WithTimeout(context.Background(), s.dkimTimeout)
	defer cancel()
	lookup := s.cfg.LookupTXT
	if lookup == nil {
		lookup = net.DefaultResolver.LookupTXT
	}
	var lookups atomic.Int32
	opts := &dkim.VerifyOptions{MaxVerifications: maxDKIMSignatures, LookupTXT: func(name string) ([]string, error) {
		i := strings.LastIndex(name, "._domainkey.")
		if i < 0 || !aligned(name[i+len("._domainkey."):], fromDomain) {
			// Not a key of the From domain: its verdict would not count.
			return nil, &net.DNSError{Err: "not looked up: not a key of the From domain", Name: name, IsNotFound: true}
		}
		if lookups.Add(1) > maxDKIMSignatures {
			return nil, &net.DNSError{Err: "not looked up: too many lookups", Name: name, IsNotFound: true}
		}
		zone := orgDomain(fromDomain)
		if until, ok := s.dkimSilent.Load(zone); ok && time.Now().Before(until.(time.Time)) {
			return nil, &net.DNSError{Err: fmt.Sprintf("not asked: the DNS of %s gave no answer within %v less than %v ago", zone, s.dkimTimeout, dkimSilence), Name: name, IsTimeout: true}
		}
		txt, err := lookup(ctx, name)
		if err != nil && ctx.Err() != nil {
			s.dkimSilent.Store(zone, time.Now().Add(dkimSilence))
			return nil, &net.DNSError{Err: fmt.Sprintf("no answer within %v", s.dkimTimeout), Name: name, IsTimeout: true}
		}
		return txt, err
	}}
	verifs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), opts)
	if err != nil && !errors.Is(err, dkim.ErrTooManySignatures) {
		// The header could not be read for DKIM: no verdict, as for a mail
		// without a signature (which any sender can send).
		s.log.Warn("DKIM: signatures not verified", "from_domain", fromDomain, "err", err)
		return DKIM{}
	}
	rank := map[string]int{"": 0, "fail": 1, "temperror": 2, "pass": 3}
	var v DKIM
	for _, ver := range verifs {
		if !aligned(ver.Domain, fromDomain) {
			continue
		}
		res := "pass"
		switch {
		case ver.Err == nil:
		case dkim.IsTempFail(ver.Err):
			res = "temperror"
		default:
			res = "fail"
		}
		if rank[res] > rank[v.Result] {
			// The signature's domain and its error (which may name its
			// selector) are the sender's words: valid UTF-8, clipped.
			d := clipText(strings.ToValidUTF8(strings.ToLower(ver.Domain), "\uFFFD"), 100)
			v = DKIM{Result: res, Domain: d, Detail: "dkim=" + res + " header.d=" + d}
			if ver.Err != nil {
				v.Detail += " (" + clipText(strings.ToValidUTF8(strings.TrimPrefix(ver.Err.Error(), "dkim: "), "\uFFFD"), 160) + ")"
			}
		}
	}
	return v
}
