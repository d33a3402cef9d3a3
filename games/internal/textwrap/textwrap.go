// Package textwrap wraps the status lines under a game's board to the
// width of a mail (72 columns), for every game's Text, words a count
// (Plural) and letters the players (Initials).
package textwrap

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Width is the most columns a line of a board may take.
const Width = 72

// Line breaks line (with or without its final newline) at spaces so that
// no piece is longer than width runes, unless one word is; the pieces
// after the first are indented by two spaces more than the line is.
// Player names are up to 64 characters, so status lines may need it.
func Line(line string, width int) string {
	body, nl := strings.CutSuffix(line, "\n")
	if utf8.RuneCountInString(body) <= width {
		return line
	}
	words := strings.TrimLeft(body, " ")
	indent := body[:len(body)-len(words)]
	var b strings.Builder
	cur := indent
	for _, w := range strings.Split(words, " ") {
		switch {
		case strings.TrimSpace(cur) == "":
			cur += w
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) <= width:
			cur += " " + w
		default:
			b.WriteString(cur + "\n")
			cur = indent + "  " + w
		}
	}
	b.WriteString(cur)
	if nl {
		b.WriteString("\n")
	}
	return b.String()
}

// Write writes text to b with each line wrapped to Width.
func Write(b *strings.Builder, text string) {
	for _, line := range strings.SplitAfter(text, "\n") {
		b.WriteString(Line(line, Width))
	}
}

// Plural returns one when n is 1, else many: plural(2, "point", "points").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Initials returns one lower-case letter per name, for a board: each
// name's initial when the initials are letters a to z, all different and
// none of reserved (a neutral colour's letter), else a, b, c, d in seating
// order.
func Initials(names []string, reserved ...byte) []byte {
	out := make([]byte, len(names))
	seen := map[byte]bool{}
	for _, r := range reserved {
		seen[r] = true
	}
	for i, name := range names {
		var r byte
		if name != "" {
			r = byte(unicode.ToLower(rune(name[0])))
		}
		if r < 'a' || r > 'z' || seen[r] {
			for j := range out {
				out[j] = byte('a' + j)
			}
			return out
		}
		out[i] = r
		seen[r] = true
	}
	return out
}
