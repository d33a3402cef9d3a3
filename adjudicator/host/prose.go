package host

import (
	"fmt"
	"strings"
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
		b.WriteString("\nLignes ignorées (du texte, pas des étapes) :\n")
	} else {
		b.WriteString("\nLines ignored (text, not steps):\n")
	}
	for _, l := range lines {
		fmt.Fprintf(&b, "  %d: %s\n", l.Line, clip(l.Text, 68))
	}
	return b.String()
}

// clip cuts s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
