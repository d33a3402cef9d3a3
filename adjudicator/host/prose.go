package host

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/heraldgames/herald/notation"
)

// IgnoredNote tells a player which lines of their words were taken for
// prose around the steps and ignored (notation.Envelope.IgnoreProse), or
// "".
func IgnoredNote(lines []notation.IgnoredLine, lang notation.Lang) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	if lang == notation.French {
		b.WriteString("\n" + ignoredHeadFR)
	} else {
		b.WriteString("\n" + ignoredHeadEN)
	}
	for i, l := range lines {
		if i == ignoredShown && len(lines) > ignoredShown+1 {
			// A mail of thousands of lines of prose is answered in a few
			// lines, not by a copy of it.
			last := lines[len(lines)-1].Line
			if lang == notation.French {
				fmt.Fprintf(&b, "  ... et %d lignes de plus, jusqu'à la ligne %d\n", len(lines)-i, last)
			} else {
				fmt.Fprintf(&b, "  ... and %d more lines, up to line %d\n", len(lines)-i, last)
			}
			break
		}
		fmt.Fprintf(&b, "  %d: %s\n", l.Line, VisibleText(l.Text, 68))
		if len(l.Suggest) > 0 {
			// A short keyword misspelt, alone on its line: still ignored,
			// but the player who meant a step learns what it looked like.
			if lang == notation.French {
				fmt.Fprintf(&b, "     (une étape ? vouliez-vous dire « %s » ?)\n", l.Suggest[0])
			} else {
				fmt.Fprintf(&b, "     (a step? did you mean %q?)\n", l.Suggest[0])
			}
		}
	}
	return b.String()
}

// ignoredShown is how many of the lines ignored IgnoredNote lists at most;
// it counts the rest.
const ignoredShown = 20

// The first line of IgnoredNote's list, in each language.
const (
	ignoredHeadEN = "Lines ignored (text, not steps):\n"
	ignoredHeadFR = "Lignes ignorées (du texte, pas des étapes) :\n"
)

// WithNotRead returns text, an answer to a mail, with note, which says
// what of the mail its transport did not read as the sender's words (the
// quoted text, a signature), right under the answer's list of the lines
// it ignored (IgnoredNote), so that the two read together near the top;
// at the end of text when it lists none.
func WithNotRead(text, note string) string {
	if note == "" {
		return text
	}
	for _, head := range []string{ignoredHeadEN, ignoredHeadFR} {
		i := strings.Index(text, "\n"+head)
		if i < 0 {
			continue
		}
		j := i + 1 + len(head)
		for strings.HasPrefix(text[j:], "  ") { // the list's lines
			k := strings.IndexByte(text[j:], '\n')
			if k < 0 {
				return text + "\n" + note
			}
			j += k + 1
		}
		return text[:j] + note + text[j:]
	}
	return strings.TrimRight(text, "\n") + "\n\n" + note
}

// VisibleText returns s, the sender's own text quoted back to them, as
// it may be shown: each character that a terminal or a mail reader would
// act on rather than show (notation.Unprintable) written out instead, a
// control character as \x1b (\u0085 beyond ASCII; a tab is a space), a
// bidirectional formatting character as U+202E, a byte that is not UTF-8
// as \xff; cut to at most n bytes (n > 0), never inside what stands for
// one character, and the cut marked "...". An escape sequence sent back
// raw could clear a player's screen or retitle their terminal, and a
// bidi override show the answer's words in another order.
func VisibleText(s string, n int) string {
	var b strings.Builder
	for i, c := range s {
		var piece string
		switch w := utf8.RuneLen(c); {
		case c == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			piece = fmt.Sprintf("\\x%02x", s[i])
		case c == '\t':
			piece = " "
		case c < 0x20 || c == 0x7f:
			piece = fmt.Sprintf("\\x%02x", c)
		case unicode.IsControl(c):
			piece = fmt.Sprintf("\\u%04x", c)
		case unicode.Is(unicode.Bidi_Control, c):
			piece = fmt.Sprintf("U+%04X", c)
		default:
			piece = s[i : i+w]
		}
		if b.Len()+len(piece) > n {
			b.WriteString("...")
			break
		}
		b.WriteString(piece)
	}
	return b.String()
}
