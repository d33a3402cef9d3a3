package mail

import (
	"fmt"
	"strings"

	"github.com/heraldgames/herald/notation"
)

// ignoredNote tells a player which lines of their mail were taken for
// prose around the steps and ignored (notation.IgnoreProse), or "".
func ignoredNote(lines []notation.IgnoredLine, lang notation.Lang) string {
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
		fmt.Fprintf(&b, "  %d: %s\n", l.Line, clipText(l.Text, 68))
	}
	return b.String()
}
