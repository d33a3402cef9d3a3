// Package jsonenc writes JSON by hand, byte for byte as encoding/json
// writes it, for the few values herald encodes on every move mail (the
// picture of the board, the outbox drafts), where encoding/json's
// reflection cost several times as much. encoding/json stays the
// reference (the tests compare with it) and the decoder.
package jsonenc

import "encoding/json"

// AppendString appends s as a JSON string, as json.Marshal writes it:
// printable ASCII as itself, with \" \\ \n \r \t escaped as it escapes
// them; any string with another character to escape (<, > and &, the
// other control characters, U+2028 and U+2029, invalid UTF-8) or any
// non-ASCII byte gets json.Marshal's own bytes.
func AppendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c > 0x7e || c == '<' || c == '>' || c == '&' || c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			data, _ := json.Marshal(s) // a string always encodes
			return append(dst, data...)
		}
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		var e byte
		switch s[i] {
		case '"', '\\':
			e = s[i]
		case '\n':
			e = 'n'
		case '\r':
			e = 'r'
		case '\t':
			e = 't'
		default:
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = append(dst, '\\', e)
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
