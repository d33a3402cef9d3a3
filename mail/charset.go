package mail

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
)

// Text in UTF-16 with no byte order mark is big-endian by RFC 2781, but
// the mail programs that write UTF-16 write it little-endian, most often
// with a mark and sometimes without: read as big-endian, a player's whole
// mail, key line and steps, was CJK noise. herald reads such text in the
// order its bytes show. go-message reads parts through
// message.CharsetReader, which its charset package sets: herald's own
// reader replaces it, and hands every other charset to it.
func init() {
	message.CharsetReader = charsetReader
}

// charsetReader decodes input from cs to UTF-8: UTF-16 itself (utf16Text),
// any other charset as go-message's charset package does.
func charsetReader(cs string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(cs)) {
	case "utf-16", "utf16":
		data, err := io.ReadAll(input)
		if err != nil {
			return nil, err
		}
		return strings.NewReader(utf16Text(data)), nil
	}
	return charset.Reader(cs, input)
}

// utf16Text decodes data, UTF-16 in the byte order of its byte order mark,
// or without one in the order its bytes show: text that is mostly ASCII,
// as a mail with moves is, has its zero bytes second in each pair when
// little-endian, first when big-endian (the default of RFC 2781, kept
// when the count does not tell). A last odd byte is dropped; unpaired
// surrogates become U+FFFD.
func utf16Text(data []byte) string {
	big := true
	switch {
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		data = data[2:]
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		data, big = data[2:], false
	default:
		var first, second int
		for i := 0; i+1 < len(data); i += 2 {
			if data[i] == 0 {
				first++
			}
			if data[i+1] == 0 {
				second++
			}
		}
		big = second <= first
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		a, b := uint16(data[2*i]), uint16(data[2*i+1])
		if big {
			units[i] = a<<8 | b
		} else {
			units[i] = b<<8 | a
		}
	}
	return string(utf16.Decode(units))
}
