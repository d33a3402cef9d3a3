package host

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/heraldgames/herald/notation"
)

// TestVisibleText: the lines of a player's mail that an answer quotes
// back as ignored show their control and bidi characters written out,
// never raw: an escape sequence sent back could clear the player's screen
// or retitle their terminal, a right-to-left override reorder the answer.
func TestVisibleText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Hi herald,", "Hi herald,"},
		{"Merci — à bientôt", "Merci — à bientôt"},
		{"\x1b]0;pwned\x07Hello", `\x1b]0;pwned\x07Hello`},
		{"\x1b[2J\x1b[Hcleared", `\x1b[2J\x1b[Hcleared`},
		{"abc\u202Edcba", "abcU+202Edcba"},
		{"\u2066iso\u2069 \u200Fmark", "U+2066isoU+2069 U+200Fmark"},
		{"del\x7f c1\u0085", `del\x7f c1\u0085`},
		{"tab\there", "tab here"},
		{"bad \xff byte", `bad \xff byte`},
		{"kept \uFFFD", "kept \uFFFD"},
		{strings.Repeat("a", 70), strings.Repeat("a", 68) + "..."},
		{strings.Repeat("a", 66) + "\x1b", strings.Repeat("a", 66) + "..."}, // \x1b is not cut in two
		{strings.Repeat("é", 40), strings.Repeat("é", 34) + "..."},
	} {
		if got := VisibleText(tt.in, 68); got != tt.want {
			t.Errorf("VisibleText(%q, 68) = %q, want %q", tt.in, got, tt.want)
		}
	}
	note := IgnoredNote([]notation.IgnoredLine{{Line: 3, Text: "\x1b[31mred\u202E"}}, notation.English)
	if want := "  3: \\x1b[31mredU+202E\n"; !strings.HasSuffix(note, want) {
		t.Errorf("IgnoredNote = %q, want it to end in %q", note, want)
	}
}

// TestIgnoredNoteCounts: the list of lines ignored shows 20 at most and
// counts the rest (hostile campaign: 80,000 lines of prose after a
// command were answered by a 1.7 MB copy of them); 21 are all shown.
func TestIgnoredNoteCounts(t *testing.T) {
	lines := func(n int) []notation.IgnoredLine {
		var ls []notation.IgnoredLine
		for i := range n {
			ls = append(ls, notation.IgnoredLine{Line: i + 2, Text: "x"})
		}
		return ls
	}
	note := IgnoredNote(lines(80000), notation.English)
	if strings.Count(note, "\n") != 23 || !strings.HasSuffix(note, "  21: x\n  ... and 79980 more lines, up to line 80001\n") {
		t.Errorf("80,000 lines ignored: %d lines of note, ending %q", strings.Count(note, "\n"), note[max(0, len(note)-80):])
	}
	if fr := IgnoredNote(lines(30), notation.French); !strings.HasSuffix(fr, "  ... et 10 lignes de plus, jusqu'à la ligne 31\n") {
		t.Errorf("30 lines ignored, in French: %q", fr)
	}
	if all := IgnoredNote(lines(21), notation.English); strings.Contains(all, "more lines") || !strings.HasSuffix(all, "  22: x\n") {
		t.Errorf("21 lines ignored: %q", all)
	}
}

// FuzzVisibleText: whatever the sender wrote, what is shown of it holds
// no character a terminal acts on, nor a line break, is UTF-8, and is at most n bytes and
// the mark of the cut.
func FuzzVisibleText(f *testing.F) {
	for _, s := range []string{"", "Hi", "\x1b[2J", "a\u202Eb", "\xff\xfe", "\u0085\u2066", "é\t"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n <= 0 || n > 1000 {
			return
		}
		got := VisibleText(s, n)
		if r, _, ok := notation.Unprintable(got); ok || strings.ContainsAny(got, "\n\t") {
			t.Errorf("VisibleText(%q, %d) = %q holds %U or a line break or tab", s, n, got, r)
		}
		if !utf8.ValidString(got) {
			t.Errorf("VisibleText(%q, %d) = %q is not UTF-8", s, n, got)
		}
		if len(got) > n+len("...") {
			t.Errorf("VisibleText(%q, %d) = %q is %d bytes", s, n, got, len(got))
		}
	})
}

// TestWithNotRead: the transport's note of the lines it did not read goes
// right under the answer's list of ignored lines, in either language, or
// at the end of an answer that lists none.
func TestWithNotRead(t *testing.T) {
	note := "Not read, as not your words:\n  lines 5-7: quoted text\n"
	for _, c := range []struct{ text, want string }{
		{"Your move 1 was applied.\n" + IgnoredNote([]notation.IgnoredLine{{Line: 1, Text: "Hi"}, {Line: 9, Text: "Bob"}}, notation.English) + "\nGame G1, move 2\n",
			"Your move 1 was applied.\n\nLines ignored (text, not steps):\n  1: Hi\n  9: Bob\n" + note + "\nGame G1, move 2\n"},
		{"Coup appliqué.\n" + IgnoredNote([]notation.IgnoredLine{{Line: 2, Text: "Merci"}}, notation.French),
			"Coup appliqué.\n\nLignes ignorées (du texte, pas des étapes) :\n  2: Merci\n" + note},
		{"Game G1, move 2\n\n", "Game G1, move 2\n\n" + note},
		{"Game G1", "Game G1\n\n" + note},
	} {
		if got := WithNotRead(c.text, note); got != c.want {
			t.Errorf("WithNotRead(%q) =\n%q\nwant\n%q", c.text, got, c.want)
		}
	}
	if got := WithNotRead("text\n", ""); got != "text\n" {
		t.Errorf("WithNotRead with no note changed the text: %q", got)
	}
}
