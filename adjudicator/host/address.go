package host

import (
	"fmt"
	"net"
	"strings"
)

// ParseAddress checks that s is one mail address, an addr-spec of RFC 5322
// (section 3.4.1: local-part "@" domain, no display name, no comment, no
// list), and returns it in the form herald keeps: with ASCII letters
// folded to lower case and nothing else changed. Every address that
// enters herald (players, hosts, replace, observe, serve --hosts) goes
// through it once, before anything is created, so that no address herald
// keeps can later fail in the mail servers or the outbox.
//
// The local part is a dot-atom (letters, digits and !#$%&'*+-/=?^_`{|}~
// between single dots; herald takes no quoted string, which RFC 5322
// allows but nobody uses); the domain is a dot-atom or a literal in
// brackets. Only ASCII is taken: Unicode case folding would
// make two addresses one (strings.ToLower maps the Kelvin sign U+212A to
// "k"), and RFC 5322 addresses are ASCII. The error says what is wrong,
// for the person who wrote the address.
func ParseAddress(s string) (string, error) {
	bad := func(why string) (string, error) {
		return "", &AddressError{Address: s, Reason: why}
	}
	if s == "" {
		return bad("it is empty")
	}
	for _, r := range s {
		if r > 0x7e || r < 0x20 {
			if r > 0x7e {
				return bad(fmt.Sprintf("it holds %q: herald takes addresses in ASCII only", r))
			}
			return bad("it holds a control character")
		}
	}
	if len(s) > 254 {
		return bad("it is longer than 254 characters (RFC 5321)")
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return bad("it has no @")
	}
	local, domain := s[:at], s[at+1:]
	switch {
	case local == "":
		return bad("nothing comes before the @")
	case domain == "":
		return bad("nothing comes after the @")
	case len(local) > 64:
		return bad("the part before the @ is longer than 64 characters (RFC 5321)")
	}
	if strings.HasPrefix(local, `"`) {
		// RFC 5322 allows it, but no player writes one, the new command
		// splits addresses at spaces, and the part before the @ names
		// the seat, in the status line too.
		return bad("herald takes no quoted part before the @")
	}
	if why := dotAtom(local, "the part before the @"); why != "" {
		return bad(why)
	}
	if strings.HasPrefix(domain, "[") {
		if why := domainLiteral(domain); why != "" {
			return bad(why)
		}
	} else if why := dotAtom(domain, "the domain"); why != "" {
		return bad(why)
	}
	return foldASCII(s), nil
}

// AddressError is an address ParseAddress refuses, and why.
type AddressError struct {
	Address string // as written
	Reason  string // what is wrong with it
}

var _ error = (*AddressError)(nil)

func (e *AddressError) Error() string {
	return fmt.Sprintf("%q is not a mail address: %s; write it like alice@example.org", e.Address, e.Reason)
}

// atext reports whether c may appear in an atom (RFC 5322, 3.2.3).
func atext(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// dotAtom returns why s, named what, is not a dot-atom, or "".
func dotAtom(s, what string) string {
	for i, part := range strings.Split(s, ".") {
		if part == "" {
			if i == 0 {
				return what + " begins with a dot"
			}
			if i == strings.Count(s, ".") {
				return what + " ends with a dot"
			}
			return what + " has two dots in a row"
		}
		for j := 0; j < len(part); j++ {
			if !atext(part[j]) {
				if part[j] == '@' {
					return "it has more than one @"
				}
				return fmt.Sprintf("%s holds %q, which an address cannot hold there", what, part[j])
			}
		}
	}
	return ""
}

// domainLiteral returns why s is not a domain literal that holds an IPv4
// address ("[192.0.2.1]"), or "".
func domainLiteral(s string) string {
	if s[len(s)-1] != ']' {
		return "the domain opens a bracket it does not close"
	}
	if ip := net.ParseIP(s[1 : len(s)-1]); ip == nil || ip.To4() == nil || strings.Contains(s, ":") {
		return "the domain in brackets is not an IPv4 address"
	}
	return ""
}

// foldASCII returns s with its ASCII capitals in lower case, and every
// other byte as it is.
func foldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
