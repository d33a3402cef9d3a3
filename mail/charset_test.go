package mail

import (
	"bytes"
	"encoding/base64"
	"slices"
	"testing"
	"unicode/utf16"
)

// utf16Bytes encodes s as UTF-16, big- or little-endian, with or without
// a byte order mark.
func utf16Bytes(s string, big, mark bool) []byte {
	var b []byte
	if mark {
		b = append(b, 0xFE, 0xFF)
		if !big {
			b[0], b[1] = 0xFF, 0xFE
		}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if big {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// TestUTF16Mail reads a player's mail sent in UTF-16, the key line and the
// steps, in every byte order a mail program writes it: with a byte order
// mark, or without one under "utf-16" (read as big-endian by RFC 2781, it
// was noise when the program wrote it little-endian, and the key was not
// found) or under a charset that names the order.
func TestUTF16Mail(t *testing.T) {
	const text = "Bonjour,\r\nclé 5f0c93d2\r\ngarde plaine château\r\n"
	want := []string{"Bonjour,", "clé 5f0c93d2", "garde plaine château"}
	for _, tc := range []struct {
		charset   string
		big, mark bool
	}{
		{"utf-16", true, true},
		{"utf-16", false, true},
		{"utf-16", true, false},
		{"UTF-16", false, false},
		{"utf-16le", false, false},
		{"utf-16be", true, false},
	} {
		body := base64.StdEncoding.EncodeToString(utf16Bytes(text, tc.big, tc.mark))
		raw := "From: amelie@example.fr\r\nTo: herald@herald.test\r\nSubject: coup\r\nMessage-ID: <u16@example.fr>\r\n" +
			"Content-Type: text/plain; charset=" + tc.charset + "\r\nContent-Transfer-Encoding: base64\r\n\r\n" + body + "\r\n"
		msg, err := Extract(bytes.NewReader([]byte(raw)), nil)
		if err != nil {
			t.Errorf("%s, big-endian %v, mark %v: %v", tc.charset, tc.big, tc.mark, err)
			continue
		}
		var got []string
		for _, l := range msg.Lines {
			got = append(got, l.Text)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s, big-endian %v, mark %v: lines %q, want %q", tc.charset, tc.big, tc.mark, got, want)
		}
	}
}

// TestUTF16Text decodes UTF-16 edge cases: a pair of surrogates, a lone
// one, an odd last byte, no text at all, and text that gives the byte
// order no hint (no zero byte), read big-endian as RFC 2781 says.
func TestUTF16Text(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{utf16Bytes("♞ 𝄞", false, false), "♞ 𝄞"},
		{[]byte{0xFF, 0xFE, 0x3D, 0xD8, 'a', 0}, "\uFFFDa"},
		{[]byte{0, 'o', 0, 'k', 'x'}, "ok"},
		{nil, ""},
		{[]byte{0x26, 0x5E}, "♞"},
	} {
		if got := utf16Text(tc.data); got != tc.want {
			t.Errorf("utf16Text(% x) = %q, want %q", tc.data, got, tc.want)
		}
	}
}
