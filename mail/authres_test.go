package mail

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseAuthResults(t *testing.T) {
	tests := []struct {
		name, in string
		want     *AuthResults
		err      string // a part of the error; "" for none
	}{
		{"none", "mx.example.org; none", &AuthResults{AuthServID: "mx.example.org"}, ""},
		{"version", "mx.example.org 1; none", &AuthResults{AuthServID: "mx.example.org", Version: 1}, ""},
		{"rfc8601 appendix b.3", "example.com;\r\n spf=pass smtp.mailfrom=example.net",
			&AuthResults{AuthServID: "example.com", Results: []AuthResult{{Method: "spf", Result: "pass", Props: []AuthProp{{"smtp", "mailfrom", "example.net"}}}}}, ""},
		{"rfc8601 appendix b.4: comments and several methods",
			"example.com;\r\n\tauth=pass (cram-md5) smtp.auth=sender@example.net;\r\n\tspf=pass smtp.mailfrom=example.net",
			&AuthResults{AuthServID: "example.com", Results: []AuthResult{
				{Method: "auth", Result: "pass", Props: []AuthProp{{"smtp", "auth", "sender@example.net"}}},
				{Method: "spf", Result: "pass", Props: []AuthProp{{"smtp", "mailfrom", "example.net"}}}}}, ""},
		{"rfc8601 appendix b.6: reason, quoted, method version",
			`example.com;
	dkim=pass reason="good signature" header.i=@mail-router.example.net;
	dkim/1=fail policy.expired (since 2 days) header.i=@newyork.example.com`,
			nil, `expected "=" after policy.expired`},
		{"gmail", `mx.google.com;
       dkim=pass header.i=@example.org header.s=20230601 header.b=AbC+dE/f;
       spf=pass (google.com: domain of alice@example.org designates 192.0.2.1 as permitted sender) smtp.mailfrom=alice@example.org;
       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.org`,
			&AuthResults{AuthServID: "mx.google.com", Results: []AuthResult{
				{Method: "dkim", Result: "pass", Props: []AuthProp{{"header", "i", "@example.org"}, {"header", "s", "20230601"}, {"header", "b", "AbC+dE/f"}}},
				{Method: "spf", Result: "pass", Props: []AuthProp{{"smtp", "mailfrom", "alice@example.org"}}},
				{Method: "dmarc", Result: "pass", Props: []AuthProp{{"header", "from", "example.org"}}},
			}}, ""},
		{"microsoft 365: no authserv-id, properties without a type",
			"spf=pass (sender IP is 192.0.2.1)\r\n smtp.mailfrom=example.org; dkim=pass (signature was verified)\r\n header.d=example.org;dmarc=pass action=none\r\n header.from=example.org;compauth=pass reason=100",
			&AuthResults{Results: []AuthResult{
				{Method: "spf", Result: "pass", Props: []AuthProp{{"smtp", "mailfrom", "example.org"}}},
				{Method: "dkim", Result: "pass", Props: []AuthProp{{"header", "d", "example.org"}}},
				{Method: "dmarc", Result: "pass", Props: []AuthProp{{"", "action", "none"}, {"header", "from", "example.org"}}},
				{Method: "compauth", Result: "pass", Reason: "100"}}}, ""},
		{"fastmail-like: x-bits and policy properties", `mx1.messagingengine.com;
    dkim=pass (2048-bit rsa key sha256) header.d=example.org header.i=@example.org x-bits=2048;
    dmarc=fail policy.published-domain-policy=reject (p=reject,d=none) header.from=example.org`,
			&AuthResults{AuthServID: "mx1.messagingengine.com", Results: []AuthResult{
				{Method: "dkim", Result: "pass", Props: []AuthProp{{"header", "d", "example.org"}, {"header", "i", "@example.org"}, {"", "x-bits", "2048"}}},
				{Method: "dmarc", Result: "fail", Props: []AuthProp{{"policy", "published-domain-policy", "reject"}, {"header", "from", "example.org"}}}}}, ""},
		{"quoted authserv-id, nested comment, spaces around the dot",
			`"mx.example.org" (a (nested) comment) ; dmarc = fail header . from = "ex\"ample.org" ;`,
			&AuthResults{AuthServID: "mx.example.org", Results: []AuthResult{
				{Method: "dmarc", Result: "fail", Props: []AuthProp{{"header", "from", `ex"ample.org`}}}}}, ""},
		{"address with a quoted local part", `mx.example.org; spf=pass smtp.mailfrom="a b"@example.org`,
			&AuthResults{AuthServID: "mx.example.org", Results: []AuthResult{
				{Method: "spf", Result: "pass", Props: []AuthProp{{"smtp", "mailfrom", "a b@example.org"}}}}}, ""},
		{"case", "MX.Example.ORG; DMARC=PASS Header.From=Example.ORG",
			&AuthResults{AuthServID: "MX.Example.ORG", Results: []AuthResult{
				{Method: "dmarc", Result: "pass", Props: []AuthProp{{"header", "from", "Example.ORG"}}}}}, ""},
		{"no results", "mx.example.org", &AuthResults{AuthServID: "mx.example.org"}, `expected "; none" or results`},
		{"unclosed comment", "mx.example.org; dmarc=pass (p=none", &AuthResults{AuthServID: "mx.example.org"}, "comment is not closed"},
		{"unclosed quote", `mx.example.org; dmarc=pass header.from="example.org`, &AuthResults{AuthServID: "mx.example.org"}, "quoted string is not closed"},
		{"no result", "mx.example.org; dmarc=", &AuthResults{AuthServID: "mx.example.org"}, "expected the result of dmarc"},
		{"no method", "mx.example.org; =pass", &AuthResults{AuthServID: "mx.example.org"}, "expected a method"},
		{"empty", "", &AuthResults{}, "expected a value"},
		{"property without value", "mx.example.org; spf=pass smtp.mailfrom", &AuthResults{AuthServID: "mx.example.org"}, `expected "=" after smtp.mailfrom`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAuthResults(tt.in)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("ParseAuthResults(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			if tt.want != nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseAuthResults(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestDMARCVerdict(t *testing.T) {
	trusted := []string{"mx.example.net"}
	tests := []struct {
		name   string
		fields []string
		want   string // the result
	}{
		{"pass", []string{"mx.example.net; dmarc=pass header.from=example.org"}, "pass"},
		{"fail", []string{"mx.example.net; spf=pass smtp.mailfrom=x.org; dmarc=fail (p=reject) header.from=example.org"}, "fail"},
		{"another server is ignored", []string{"evil.example; dmarc=pass header.from=example.org"}, ""},
		{"a forged pass below the provider's fail", []string{"mx.example.net; dmarc=fail header.from=example.org", "mx.example.net; dmarc=pass header.from=example.org"}, "fail"},
		{"a forged pass above the provider's fail", []string{"mx.example.net; dmarc=pass header.from=example.org", "mx.example.net; dmarc=fail header.from=example.org"}, "fail"},
		{"another domain's result", []string{"mx.example.net; dmarc=fail header.from=other.org"}, ""},
		{"no header.from: about the From", []string{"mx.example.net; dmarc=fail"}, "fail"},
		{"authserv-id in any case", []string{"MX.EXAMPLE.NET; dmarc=pass header.from=EXAMPLE.ORG."}, "pass"},
		{"none", []string{"mx.example.net; dmarc=none header.from=example.org"}, "none"},
		{"unreadable trusted field", []string{"mx.example.net; dmarc=fail (unclosed"}, ""},
		{"no authserv-id is never trusted", []string{"dmarc=pass header.from=example.org"}, ""},
		{"no field", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dmarcVerdict(tt.fields, trusted, "example.org"); got.Result != tt.want {
				t.Errorf("dmarcVerdict(%q) = %+v, want result %q", tt.fields, got, tt.want)
			}
		})
	}
}

// FuzzParseAuthResults: no panic; an error says where; what it returns is
// in lower case where it promises to be, and valid for valid input.
func FuzzParseAuthResults(f *testing.F) {
	for _, s := range []string{
		"mx.example.org; none",
		"mx.google.com; dkim=pass header.i=@example.org header.s=s1; spf=pass (google.com: ok) smtp.mailfrom=a@example.org; dmarc=pass (p=NONE) header.from=example.org",
		"spf=pass (sender IP is 192.0.2.1) smtp.mailfrom=example.org;dmarc=pass action=none header.from=example.org;compauth=pass reason=100",
		`"x" 1 ; a/1 = b reason="c\"d" e . f = "g"@h ;`,
		"x; dmarc=pass (a (b) \\) c)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseAuthResults(s)
		if got == nil {
			t.Fatalf("ParseAuthResults(%q) = nil, %v", s, err)
		}
		if err != nil && !strings.Contains(err.Error(), "column ") && !strings.Contains(err.Error(), "the end") {
			t.Errorf("ParseAuthResults(%q) error %q says not where", s, err)
		}
		for _, r := range got.Results {
			if r.Method == "" || r.Result == "" || r.Method != strings.ToLower(r.Method) || r.Result != strings.ToLower(r.Result) {
				t.Errorf("ParseAuthResults(%q): result %+v", s, r)
			}
			if utf8.ValidString(s) && !utf8.ValidString(describeResult(r)) {
				t.Errorf("ParseAuthResults(%q): %q is not UTF-8", s, describeResult(r))
			}
		}
		_ = dmarcVerdict([]string{s}, []string{got.AuthServID, "x"}, "example.org")
	})
}

// TestForgedByDMARC: with the provider's verdict trusted, a mail it says
// fails DMARC is refused whatever key it carries; its sender gets nothing
// and the host is told, once an hour; another server's verdict changes
// nothing; require_dmarc refuses a mail without pass.
func TestForgedByDMARC(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.svc.cfg.TrustAuthservIDs = []string{"mx.herald.test"}
	a := f.keys["alice@herald.test"]
	fail := "Authentication-Results: mx.herald.test; spf=fail smtp.mailfrom=herald.test;\r\n dmarc=fail (p=reject) header.from=herald.test"
	// A field the sender wrote, of a server herald does not trust, above it.
	fake := "Authentication-Results: mx.evil.test; dmarc=pass header.from=herald.test"
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+a+"\nkeep plain village", fake, fail), Rejected)
	got := f.sent()
	if len(got["alice@herald.test"]) != 0 || len(got["bob@herald.test"]) != 0 {
		t.Errorf("a forged mail was answered or played: %v", keysOf(got))
	}
	if n := len(got["host@herald.test"]); n != 1 {
		t.Fatalf("the host got %d mails, want a notice; all: %v", n, keysOf(got))
	}
	notice := got["host@herald.test"][0]
	if _, raw, _ := strings.Cut(notice, "\n"); true {
		m, err := Extract(strings.NewReader(raw), nil)
		if err != nil {
			t.Fatal(err)
		}
		notice = m.Subject + "\n" + m.Body
	}
	for _, want := range []string{"a mail in alice@herald.test's name refused", "mx.herald.test", "dmarc=fail", "header.from=herald.test", "Nothing in it was done"} {
		if !strings.Contains(notice, want) {
			t.Errorf("the host's notice lacks %q:\n%s", want, notice)
		}
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+a+"\nkeep plain village", fail), Rejected)
	if got := f.sent(); len(got) != 0 {
		t.Errorf("a second forged mail within the hour was reported again: %v", keysOf(got))
	}
	// Only the trusted server counts: a fail from another is no verdict.
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+a+"\nkeep plain village",
		"Authentication-Results: mx.evil.test; dmarc=fail header.from=herald.test"), Applied)
	f.sent()

	f.svc.cfg.RequireDMARC = true
	b := f.keys["bob@herald.test"]
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key "+b+"\nkeep plain village",
		"Authentication-Results: mx.herald.test; dmarc=none header.from=herald.test"), Rejected)
	if got := f.sent(); len(got["bob@herald.test"]) != 0 {
		t.Errorf("require_dmarc: a mail without pass was answered: %v", keysOf(got))
	}
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key "+b+"\nkeep plain village"), Rejected)
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "key "+b+"\nkeep plain village",
		"Authentication-Results: mx.herald.test; dkim=pass header.d=herald.test; dmarc=pass header.from=herald.test"), Applied)
}

// TestUnobserveAuthenticated: an unobserve whose From the trusted
// provider's DMARC verdict proves ends the subscription at once, with no
// confirmation (TestMailForgedUnobserve: one not proven asks for one).
func TestUnobserveAuthenticated(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.handle(f.mail("dan@herald.test", "watch", "observe G1"), Answered)
	token := regexp.MustCompile(`(?m)^  observe G1 (\S+)\r?$`).FindStringSubmatch(f.sent()["dan@herald.test"][0])
	if token == nil {
		t.Fatal("no token in dan's confirmation")
	}
	f.handle(f.mail("dan@herald.test", "watch", "observe G1 "+token[1]), Answered)
	f.sent()
	f.svc.cfg.TrustAuthservIDs = []string{"mx.herald.test"}
	pass := "Authentication-Results: mx.herald.test; dmarc=pass header.from=herald.test"
	f.handle(f.mail("dan@herald.test", "stop", "unobserve G1", pass), Answered)
	if got := f.sent()["dan@herald.test"]; len(got) != 1 || !strings.Contains(got[0], "You no longer observe game G1.") {
		t.Errorf("dan's authenticated unobserve: %q", got)
	}
}

// TestForgedUnreadable: a mail herald cannot read is answered, as any
// other, only when its sender is not proven forged: with the provider's
// verdict trusted, one that fails DMARC (or lacks pass under
// require_dmarc) gets no answer, so that a stranger cannot have herald
// mail "your mail could not be read" to an address of their choosing.
func TestForgedUnreadable(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.svc.cfg.TrustAuthservIDs = []string{"mx.herald.test"}
	broken := func(from string, headers ...string) []byte {
		return f.mail(from, "moves", "not base64 at all !!!", append(headers, "Content-Transfer-Encoding: base64")...)
	}
	fail := "Authentication-Results: mx.herald.test; dmarc=fail (p=reject) header.from=victim.test"
	f.handle(broken("someone@victim.test", fail), Rejected)
	if got := f.sent(); len(got) != 0 {
		t.Errorf("an unreadable mail that fails DMARC was answered: %v", keysOf(got))
	}
	pass := "Authentication-Results: mx.herald.test; dmarc=pass header.from=victim.test"
	f.handle(broken("someone@victim.test", pass), Rejected)
	if got := f.sent()["someone@victim.test"]; len(got) != 1 || !strings.Contains(got[0], "could not read your mail") {
		t.Errorf("an unreadable mail whose sender is proven: answered %q, want the notice", got)
	}
	f.svc.cfg.RequireDMARC = true
	f.handle(broken("someone@victim.test", "Authentication-Results: mx.herald.test; dmarc=none header.from=victim.test"), Rejected)
	if got := f.sent(); len(got) != 0 {
		t.Errorf("require_dmarc: an unreadable mail without pass was answered: %v", keysOf(got))
	}
}
