package mail

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
)

// fakeDNS answers TXT lookups from its records, and counts them: the tests
// of herald's DKIM check never reach the network.
type fakeDNS struct {
	mu      sync.Mutex
	records map[string][]string // by name
	errs    map[string]error    // by name: the lookup fails so
	hang    bool                // every lookup waits until it is cancelled
	names   []string            // the names looked up, in order
}

func (d *fakeDNS) LookupTXT(ctx context.Context, name string) ([]string, error) {
	d.mu.Lock()
	d.names = append(d.names, name)
	hang, recs, err := d.hang, d.records[name], d.errs[name]
	d.mu.Unlock()
	if hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if recs == nil {
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	return recs, nil
}

func (d *fakeDNS) lookups() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.names...)
}

// dkimKey is a signing key of a domain, with its DNS record.
type dkimKey struct {
	domain, selector string
	priv             ed25519.PrivateKey
}

func newDKIMKey(domain, selector string, seed byte) dkimKey {
	return dkimKey{domain, selector, ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))}
}

func (k dkimKey) name() string { return k.selector + "._domainkey." + k.domain }

func (k dkimKey) record() string {
	return "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(k.priv.Public().(ed25519.PublicKey))
}

// sign returns raw with k's DKIM-Signature on top, as the sender's server
// adds it.
func (k dkimKey) sign(t testing.TB, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	err := dkim.Sign(&b, bytes.NewReader(raw), &dkim.SignOptions{Domain: k.domain, Selector: k.selector, Signer: k.priv,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// dkimService is a service that only reads mail, with herald's DKIM check
// on, looking its keys up in dns.
func dkimService(t testing.TB, dns *fakeDNS) *Service {
	t.Helper()
	return &Service{cfg: Config{Address: "herald@herald.test", MaxSize: DefaultMaxSize, VerifyDKIM: true, LookupTXT: dns.LookupTXT},
		log: slog.New(slog.DiscardHandler), dkimTimeout: dkimTimeout}
}

const dkimPlain = "From: Alice <alice@example.org>\r\nTo: herald@herald.test\r\nSubject: Re: [herald G1]\r\nMessage-ID: <a1@example.org>\r\nDate: Mon, 23 Nov 2026 09:00:00 +0000\r\n\r\nkey k1\r\nkeep plain village\r\n"

// TestVerifyDKIM: herald's own DKIM verdict for the From domain, the DNS
// lookups it makes, and what it makes of their failures.
func TestVerifyDKIM(t *testing.T) {
	org := newDKIMKey("example.org", "s1", 1)
	sub := newDKIMKey("mail.example.org", "s2", 2)
	evil := newDKIMKey("evil.example", "s1", 3)
	other := newDKIMKey("example.org", "rotated", 4) // its record holds another key
	tamper := func(raw []byte) []byte {
		return bytes.Replace(raw, []byte("keep plain village"), []byte("keep plain castle"), 1)
	}
	plain := []byte(dkimPlain)
	tests := []struct {
		name    string
		raw     []byte
		errs    map[string]error
		result  string   // the verdict's result
		detail  string   // a part of its detail
		lookups []string // the names looked up
	}{
		{name: "signed good", raw: org.sign(t, plain), result: "pass", detail: "dkim=pass header.d=example.org", lookups: []string{org.name()}},
		{name: "signed by a subdomain: relaxed alignment", raw: sub.sign(t, plain), result: "pass", lookups: []string{sub.name()}},
		{name: "tampered body", raw: tamper(org.sign(t, plain)), result: "fail", detail: "body hash did not verify", lookups: []string{org.name()}},
		{name: "tampered From", raw: bytes.Replace(org.sign(t, plain), []byte("Alice <alice@"), []byte("Alice <bob@"), 1), result: "fail", detail: "signature did not verify", lookups: []string{org.name()}},
		{name: "key not in DNS", raw: newDKIMKey("example.org", "gone", 5).sign(t, plain), result: "fail", detail: "no key for signature", lookups: []string{"gone._domainkey.example.org"}},
		{name: "signed with another key than published", raw: other.sign(t, plain), result: "fail", detail: "signature did not verify", lookups: []string{other.name()}},
		{name: "wrong domain: unaligned, not looked up", raw: evil.sign(t, plain), result: ""},
		{name: "no signature: no lookup", raw: plain, result: ""},
		{name: "DNS temporary error", raw: org.sign(t, plain), errs: map[string]error{org.name(): &net.DNSError{Err: "server misbehaving", Name: org.name(), IsTemporary: true}},
			result: "temperror", detail: "key unavailable", lookups: []string{org.name()}},
		{name: "a pass among failures wins", raw: org.sign(t, tamper(sub.sign(t, plain))), result: "pass", lookups: []string{org.name(), sub.name()}},
		{name: "a temporary error above a failure", raw: org.sign(t, tamper(sub.sign(t, plain))),
			errs: map[string]error{org.name(): &net.DNSError{Err: "timeout", Name: org.name(), IsTimeout: true}}, result: "temperror", lookups: []string{org.name(), sub.name()}},
		{name: "unaligned pass does not prove the From", raw: evil.sign(t, tamper(org.sign(t, plain))), result: "fail", lookups: []string{org.name()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dns := &fakeDNS{records: map[string][]string{org.name(): {org.record()}, sub.name(): {sub.record()}, evil.name(): {evil.record()}, other.name(): {org.record()}}, errs: tt.errs}
			s := dkimService(t, dns)
			r := s.readOne(tt.raw)
			if r.xerr != nil {
				t.Fatalf("readOne: %v", r.xerr)
			}
			got := r.msg.DKIM
			if got.Result != tt.result || !strings.Contains(got.Detail, tt.detail) {
				t.Errorf("DKIM = %+v, want result %q, detail with %q", got, tt.result, tt.detail)
			}
			if l := dns.lookups(); !sameSet(l, tt.lookups...) {
				t.Errorf("looked up %q, want %q", l, tt.lookups)
			}
		})
	}
}

// TestVerifyDKIMBounded: a hostile mail costs a bounded check: of a
// thousand signatures of the From domain, at most maxDKIMSignatures keys
// are looked up; a DNS server that never answers holds the check for
// dkimTimeout at most, and that is a temporary failure; it is not asked
// again for dkimSilence.
func TestVerifyDKIMBounded(t *testing.T) {
	var hdr strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&hdr, "DKIM-Signature: v=1; a=ed25519-sha256; d=example.org; s=s%d; h=from; bh=AAAA; b=AAAA\r\n", i)
	}
	dns := &fakeDNS{}
	s := dkimService(t, dns)
	r := s.readOne([]byte(hdr.String() + dkimPlain))
	if n := len(dns.lookups()); n == 0 || n > maxDKIMSignatures {
		t.Errorf("%d lookups for a mail with 1000 signatures, want 1 to %d", n, maxDKIMSignatures)
	}
	if r.msg.DKIM.Result != "fail" {
		t.Errorf("DKIM = %+v, want fail", r.msg.DKIM)
	}

	org := newDKIMKey("example.org", "s1", 1)
	dns = &fakeDNS{hang: true}
	s = dkimService(t, dns)
	s.dkimTimeout = 50 * time.Millisecond
	start := time.Now()
	r = s.readOne(org.sign(t, []byte(dkimPlain)))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a DNS server that never answers held the check for %v", d)
	}
	if r.msg.DKIM.Result != "temperror" || !strings.Contains(r.msg.DKIM.Detail, "no answer within 50ms") {
		t.Errorf("DKIM = %+v, want a temperror: no answer within 50ms", r.msg.DKIM)
	}
	if r.xerr != nil {
		t.Errorf("without require_dmarc a temporary failure is no signature, yet: %v", r.xerr)
	}
	// The domain's DNS is not asked again for a while: the next mail of
	// example.org (here from a subdomain) costs no wait; another domain's
	// is looked up.
	start = time.Now()
	r = s.readOne(bytes.Replace(newDKIMKey("mail.example.org", "s9", 2).sign(t, []byte(dkimPlain)), []byte("alice@example.org"), []byte("alice@mail.example.org"), 1))
	if n := len(dns.lookups()); n != 1 || r.msg.DKIM.Result != "temperror" || !strings.Contains(r.msg.DKIM.Detail, "not asked: the DNS of example.org gave no answer within 50ms less than 1m0s ago") {
		t.Errorf("the next mail of a domain whose DNS hangs: %d lookups in all, DKIM = %+v", n, r.msg.DKIM)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the next mail of a domain whose DNS hangs waited %v", d)
	}
	other := strings.ReplaceAll(dkimPlain, "alice@example.org", "alice@example.net")
	s.readOne(newDKIMKey("example.net", "s1", 1).sign(t, []byte(other)))
	if l := dns.lookups(); len(l) != 2 || l[1] != "s1._domainkey.example.net" {
		t.Errorf("lookups %q, want example.org's, then example.net's", l)
	}
}

// TestSenderCheckDKIM: how herald's DKIM verdict combines with the
// provider's (trust_authserv_id) and with require_dmarc.
func TestSenderCheckDKIM(t *testing.T) {
	org := newDKIMKey("example.org", "s1", 1)
	evil := newDKIMKey("evil.example", "s1", 3)
	plain := []byte(dkimPlain)
	signed, tampered := org.sign(t, plain), bytes.Replace(org.sign(t, plain), []byte("plain village"), []byte("plain castle"), 1)
	arPass := []byte("Authentication-Results: mx.herald.test; dmarc=pass header.from=example.org\r\n")
	arFail := []byte("Authentication-Results: mx.herald.test; dmarc=fail header.from=example.org\r\n")
	tempErr := map[string]error{org.name(): &net.DNSError{Err: "server misbehaving", Name: org.name(), IsTemporary: true}}
	tests := []struct {
		name    string
		raw     []byte
		trust   bool // trust mx.herald.test
		require bool
		errs    map[string]error
		why     string // a part of the refusal; "" for none
		retry   bool   // not decided now: the mail is tried again
	}{
		{name: "signed good", raw: signed},
		{name: "signed good, required", raw: signed, require: true},
		{name: "tampered body: forged", raw: tampered, why: "forged: herald's DKIM check says dkim=fail header.d=example.org (body hash did not verify)"},
		{name: "no signature", raw: plain},
		{name: "no signature, required", raw: plain, require: true, why: "no valid DKIM signature of example.org (require_dmarc)"},
		{name: "unaligned signature, required", raw: evil.sign(t, plain), require: true, why: "no valid DKIM signature of example.org"},
		{name: "unaligned signature", raw: evil.sign(t, plain)},
		{name: "DNS temporary error: as no signature", raw: signed, errs: tempErr},
		{name: "DNS temporary error, required: tried again", raw: signed, errs: tempErr, require: true, retry: true},
		{name: "DNS temporary error, required, the provider passed", raw: append(arPass, signed...), trust: true, errs: tempErr, require: true},
		{name: "the provider's pass over herald's fail", raw: append(arPass, tampered...), trust: true, require: true},
		{name: "the provider's fail over herald's pass", raw: append(arFail, signed...), trust: true, why: "forged: mx.herald.test says dmarc=fail"},
		{name: "no verdict from either, required", raw: plain, trust: true, require: true, why: "no DMARC result from mx.herald.test, no valid DKIM signature of example.org (require_dmarc)"},
		{name: "herald's pass where the provider gave none", raw: signed, trust: true, require: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			org := newDKIMKey("example.org", "s1", 1)
			dns := &fakeDNS{records: map[string][]string{org.name(): {org.record()}, evil.name(): {evil.record()}}, errs: tt.errs}
			s := dkimService(t, dns)
			s.cfg.RequireDMARC = tt.require
			if tt.trust {
				s.cfg.TrustAuthservIDs = []string{"mx.herald.test"}
			}
			r := s.readOne(tt.raw)
			if tt.retry {
				if r.xerr == nil || !strings.Contains(r.xerr.Error(), "tried again later") || !strings.Contains(r.xerr.Error(), "dkim=temperror header.d=example.org") {
					t.Errorf("readOne error = %v, want a temporary failure to try again", r.xerr)
				}
				return
			}
			if r.xerr != nil {
				t.Fatalf("readOne: %v", r.xerr)
			}
			why, _ := s.senderCheck(r.msg)
			if tt.why == "" && why != "" || tt.why != "" && !strings.Contains(why, tt.why) {
				t.Errorf("senderCheck = %q, want %q", why, tt.why)
			}
		})
	}
}

// TestForgedByDKIM: with verify_dkim, a move whose signature verifies is
// played; one whose body was changed on the way is refused as forged
// whatever key it carries, its sender not answered, the host told in
// words; with require_dmarc an unsigned mail is refused, and a mail whose
// key cannot be looked up for now is not decided (Handle fails: it stays
// in the inbox, and nothing changed).
func TestForgedByDKIM(t *testing.T) {
	f := newFixture(t)
	f.start()
	k := newDKIMKey("herald.test", "sel", 7)
	dns := &fakeDNS{records: map[string][]string{k.name(): {k.record()}}}
	f.svc.cfg.VerifyDKIM, f.svc.cfg.LookupTXT = true, dns.LookupTXT
	a, b := f.keys["alice@herald.test"], f.keys["bob@herald.test"]

	forged := bytes.Replace(k.sign(t, f.mail("alice@herald.test", "Re: [herald G1]", "key "+a+"\nkeep plain village")), []byte("keep plain village"), []byte("keep plain castle"), 1)
	f.handle(forged, Rejected)
	got := f.sent()
	if len(got["alice@herald.test"]) != 0 || len(got["bob@herald.test"]) != 0 {
		t.Errorf("a forged mail was answered or played: %v", keysOf(got))
	}
	if n := len(got["host@herald.test"]); n != 1 {
		t.Fatalf("the host got %d mails, want a notice; all: %v", n, keysOf(got))
	}
	_, raw, _ := strings.Cut(got["host@herald.test"][0], "\n")
	m, err := Extract(strings.NewReader(raw), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a mail in alice@herald.test's name refused", "herald checked its DKIM signature itself", "of herald.test on it does not verify", "body hash did not verify", "Nothing in it was done"} {
		if !strings.Contains(m.Subject+"\n"+m.Body, want) {
			t.Errorf("the host's notice lacks %q:\n%s\n%s", want, m.Subject, m.Body)
		}
	}
	f.handle(k.sign(t, f.mail("alice@herald.test", "Re: [herald G1]", "key "+a+"\nkeep plain village")), Applied)
	f.sent()

	f.svc.cfg.RequireDMARC = true
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key "+b+"\nkeep plain village"), Rejected)
	if got := f.sent(); len(got["bob@herald.test"]) != 0 {
		t.Errorf("require_dmarc: an unsigned mail was answered: %v", keysOf(got))
	}
	dns.errs = map[string]error{k.name(): &net.DNSError{Err: "server misbehaving", Name: k.name(), IsTemporary: true}}
	signed := k.sign(t, f.mail("bob@herald.test", "Re: [herald G1]", "key "+b+"\nkeep plain village"))
	if out, err := f.svc.Handle(context.Background(), signed); err == nil || !strings.Contains(err.Error(), "tried again later") {
		t.Fatalf("a mail whose key could not be looked up: Handle = %s, %v; want an error, to try it again", out, err)
	}
	if got := f.sent(); len(got) != 0 {
		t.Errorf("a mail not decided was answered: %v", keysOf(got))
	}
	dns.errs = nil // the DNS is back: the same mail, tried again, is played
	f.handle(signed, Applied)
}

// FuzzVerifyDKIM: whatever the mail, herald's DKIM check does not panic,
// looks up no key of a domain other than the From's, at most
// maxDKIMSignatures, none for a mail without a DKIM-Signature field, and
// its verdict is one of its results.
func FuzzVerifyDKIM(f *testing.F) {
	org := newDKIMKey("example.org", "s1", 1)
	f.Add(org.sign(f, []byte(dkimPlain)))
	f.Add([]byte(dkimPlain))
	f.Add([]byte("DKIM-Signature : v=1; a=ed25519-sha256; d=evil.example; s=x._domainkey.example.org; h=from; bh=; b=\r\n" + dkimPlain))
	f.Add([]byte("X: y\r\n dkim-signature: v=1\r\nDKIM-Signature:v=1;d=example.org;s=a;h=from;a=rsa-sha256;bh=AA==;b=AA==\r\n" + dkimPlain))
	f.Add([]byte("From: a@example.org\n\nDKIM-Signature: v=1; d=example.org\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		dns := &fakeDNS{records: map[string][]string{org.name(): {org.record()}}}
		s := dkimService(t, dns)
		r := s.readOne(raw)
		names := dns.lookups()
		if !hasDKIMSignature(raw) {
			if len(names) > 0 {
				t.Errorf("no DKIM-Signature field, yet looked up %q", names)
			}
			noDNS := func(name string) ([]string, error) {
				return nil, &net.DNSError{Err: "no DNS in tests", Name: name, IsNotFound: true}
			}
			if vs, _ := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: noDNS, MaxVerifications: 1}); len(vs) > 0 {
				t.Errorf("hasDKIMSignature missed the signatures go-msgauth found: %d", len(vs))
			}
		}
		if len(names) > maxDKIMSignatures {
			t.Errorf("%d lookups", len(names))
		}
		if r.msg == nil {
			return
		}
		_, from, _ := strings.Cut(r.msg.From, "@")
		for _, n := range names {
			i := strings.LastIndex(n, "._domainkey.")
			if i < 0 || !aligned(n[i+len("._domainkey."):], from) {
				t.Errorf("looked up %q for a mail from %q", n, r.msg.From)
			}
		}
		switch r.msg.DKIM.Result {
		case "", "pass", "fail", "temperror":
		default:
			t.Errorf("DKIM result %q", r.msg.DKIM.Result)
		}
	})
}

// slowDNS answers a lookup only once want lookups wait together, or fails
// it when its context ends first: a DNS slow to answer, and a witness of
// how many of a batch's lookups wait at once.
type slowDNS struct {
	*fakeDNS
	want    int
	mu      sync.Mutex
	waiting int
	all     chan struct{} // closed when want lookups wait together
}

func (d *slowDNS) LookupTXT(ctx context.Context, name string) ([]string, error) {
	d.mu.Lock()
	if d.waiting++; d.waiting == d.want {
		close(d.all)
	}
	d.mu.Unlock()
	select {
	case <-d.all:
		return d.fakeDNS.LookupTXT(ctx, name)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestDKIMWaitHoldsNoReader: the DNS wait of herald's DKIM check holds
// none of the batch's readers, which go on reading the other mails: the
// lookups of more signed mails than there are readers all wait at once
// (issue found reading the intake: each lookup held one of the
// GOMAXPROCS readers, so that a batch of mails from domains whose DNS is
// slow waited dkimTimeout for each few of them, and every mail after
// them with it).
func TestDKIMWaitHoldsNoReader(t *testing.T) {
	n := runtime.GOMAXPROCS(0) + 2
	dns := &slowDNS{fakeDNS: &fakeDNS{records: map[string][]string{}}, want: n, all: make(chan struct{})}
	s := &Service{cfg: Config{Address: "herald@herald.test", MaxSize: DefaultMaxSize, VerifyDKIM: true, LookupTXT: dns.LookupTXT},
		log: slog.New(slog.DiscardHandler), dkimTimeout: 5 * time.Second}
	var raws [][]byte
	for i := range n {
		// A domain each, so that no domain's silence (dkimSilence) is in play.
		k := newDKIMKey(fmt.Sprintf("example%d.org", i), "s1", byte(i+1))
		dns.records[k.name()] = []string{k.record()}
		raw := strings.ReplaceAll(dkimPlain, "example.org", k.domain)
		raws = append(raws, []byte(dkimPlain), k.sign(t, []byte(raw))) // an unsigned mail between the signed
	}
	for i, r := range s.read(raws) {
		want := "pass"
		if i%2 == 0 {
			want = ""
		}
		if r.msg == nil || r.msg.DKIM.Result != want {
			t.Errorf("mail %d: %+v, want DKIM %q (its lookup waited alone: fewer than %d at once)", i, r.msg, want, n)
		}
	}
}
