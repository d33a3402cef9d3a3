package notation

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lang is the language a player writes in. Messages to the player are given
// in the same language; English is the default.
type Lang int

// The languages herald speaks.
const (
	English Lang = iota
	French
)

// String returns "en" or "fr".
func (l Lang) String() string {
	if l == French {
		return "fr"
	}
	return "en"
}

// LangNamed returns the language word names: "en", "english" or
// "anglais" for English, "fr", "french" or "français" for French, in any
// case and with or without accents (Fold); ok is false for any other word.
func LangNamed(word string) (lang Lang, ok bool) {
	switch Fold(word) {
	case "en", "english", "anglais":
		return English, true
	case "fr", "french", "francais":
		return French, true
	}
	return English, false
}

// Error is a notation error: the input could not be understood. It carries
// where the fault is, what was wrong (in English and in French), the words
// that would fit there, and the input line for a caret rendering.
type Error struct {
	File      string   // optional: the file the input came from
	Pos       Pos      // of the fault
	Msg       string   // lower-case English sentence, without position
	MsgFR     string   // the same in French; empty means use Msg
	Suggest   []string // "did you mean" candidates, best first
	Example   string   // optional: a correct example of what fits here
	ExampleFR string   // the example in French notation; empty means use Example
	Source    string   // the input line, for the caret
}

var _ error = (*Error)(nil)

// Error returns the one-line form, for logs: "file:2:9: msg; did you mean "x"?".
func (e *Error) Error() string { return e.Localize(English) }

// Localize returns the one-line form in the given language. In French the
// suggestions are quoted « like this » and the question mark is spaced as
// French typography wants ("vouliez-vous dire « village » ?"); the file and
// line:column in front stay as they are, as a locator tools can read.
func (e *Error) Localize(lang Lang) string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
		if !e.Pos.IsValid() {
			b.WriteByte(' ')
		}
	}
	if e.Pos.IsValid() {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	msg := e.Msg
	if lang == French && e.MsgFR != "" {
		msg = e.MsgFR
	}
	b.WriteString(msg)
	if len(e.Suggest) > 0 {
		if lang == French {
			b.WriteString(" ; vouliez-vous dire ")
		} else {
			b.WriteString("; did you mean ")
		}
		b.WriteString(quoteList(e.Suggest, lang))
		if lang == French {
			b.WriteString(" ?")
		} else {
			b.WriteString("?")
		}
	}
	return b.String()
}

// Pretty returns the form for people: the one-line message, then the input
// line quoted with a caret under the fault, then the example if any.
func (e *Error) Pretty(lang Lang) string {
	var b strings.Builder
	b.WriteString(e.Localize(lang))
	b.WriteByte('\n')
	if e.Source != "" && e.Pos.IsValid() {
		src := Visible(e.Source)
		fmt.Fprintf(&b, "  %s\n", src)
		col := e.Pos.Col
		if n := utf8.RuneCountInString(src) + 1; col > n {
			col = n
		}
		fmt.Fprintf(&b, "  %s^\n", strings.Repeat(" ", col-1))
	}
	if e.Example != "" {
		if lang == French {
			ex := e.Example
			if e.ExampleFR != "" {
				ex = e.ExampleFR
			}
			fmt.Fprintf(&b, "  par exemple : %s\n", ex)
		} else {
			fmt.Fprintf(&b, "  for example: %s\n", e.Example)
		}
	}
	return b.String()
}

// Unprintable returns the first rune of s that a terminal or a mail
// reader would act on rather than show, and its byte offset: a control
// character other than tab and line feed (an escape sequence can clear a
// referee's screen or retitle their terminal), or a bidirectional
// formatting character (it can show a line's words in another order);
// ok is false when s has none.
func Unprintable(s string) (r rune, at int, ok bool) {
	for i, c := range s {
		if c != '\t' && c != '\n' && (unicode.IsControl(c) || unicode.Is(unicode.Bidi_Control, c)) {
			return c, i, true
		}
	}
	return 0, 0, false
}

// Visible returns the line s as a quote of it may show it: a tab is a
// space, and each rune Unprintable finds is U+FFFD, one column each, so
// that a caret under the line stays under the same rune.
func Visible(s string) string {
	if _, _, ok := Unprintable(s); !ok {
		return strings.ReplaceAll(s, "\t", " ")
	}
	return strings.Map(func(c rune) rune {
		switch {
		case c == '\t':
			return ' '
		case c != '\n' && (unicode.IsControl(c) || unicode.Is(unicode.Bidi_Control, c)):
			return utf8.RuneError
		}
		return c
	}, s)
}

func quoteList(words []string, lang Lang) string {
	q := make([]string, len(words))
	for i, w := range words {
		if lang == French {
			q[i] = "« " + w + " »"
		} else {
			q[i] = fmt.Sprintf("%q", w)
		}
	}
	or := " or "
	if lang == French {
		or = " ou "
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + or + q[len(q)-1]
}

// ErrorList is a list of notation errors, one per faulty line, in input order.
type ErrorList []*Error

// Error returns the errors one per line.
func (l ErrorList) Error() string { return l.Localize(English) }

// Localize returns the one-line forms, one per line, in the given language.
func (l ErrorList) Localize(lang Lang) string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Localize(lang)
	}
	return strings.Join(s, "\n")
}

// Pretty returns every error in its form for people.
func (l ErrorList) Pretty(lang Lang) string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Pretty(lang))
	}
	return b.String()
}

// Err returns nil for an empty list and the list otherwise, so that a
// function returning error never returns a non-nil empty list.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
