package mail

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// returns runs f and fails t if it has not returned within a minute: the
// text transformations of the mail path take time linear in their input,
// and one that loops (issue 25, item 1) would hang the outbox for good.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not return", what)
	}
}

// checkWrapped checks that out is in wrapped as wrap must: the same
// words in the same order, and every line within width unless it holds a
// single word (after its indent, words being what spaces separate) too
// long for it.
func checkWrapped(t *testing.T, in, out string, width int) {
	t.Helper()
	if !slices.Equal(strings.Fields(in), strings.Fields(out)) {
		t.Fatalf("wrap lost or changed words:\nin  %q\nout %q", in, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(line) > width && len(spaceFields(line)) > 1 {
			t.Fatalf("wrap left a line of %d columns that could break:\n%q\nin %q", utf8.RuneCountInString(line), line, in)
		}
	}
	if n, m := strings.Count(in, "\n"), strings.Count(out, "\n"); m < n {
		t.Fatalf("wrap joined lines: %d line breaks, then %d", n, m)
	}
}

// spaceFields splits s at spaces, the only characters wrap breaks at.
func spaceFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' })
}

func TestWrap(t *testing.T) {
	long := strings.Repeat("A", 71)
	for _, c := range []struct{ in, want string }{
		{"short line", "short line"},
		{"", ""},
		{strings.Repeat("word ", 16) + "end", strings.TrimSpace(strings.Repeat("word ", 14)) + "\n  word word end"},
		// Issue 25, item 1: after the first break the only space left was
		// the indent, and wrap broke there again and again, forever.
		{"  " + long, "  " + long},
		{"x " + long + " y", "x\n  " + long + "\n  y"},
		{"refused: " + strings.Repeat("A", 100), "refused:\n  " + strings.Repeat("A", 100)},
		// A word too long for the line breaks after it, so that what
		// follows it fits.
		{strings.Repeat("B", 80) + " and the rest", strings.Repeat("B", 80) + "\n  and the rest"},
		// A board row is never broken, nor a line of spaces.
		{"   +--+--+--+", "   +--+--+--+"},
		{strings.Repeat(" ", 90), ""}, // trailing spaces of a long line go
		{"a\n\nb", "a\n\nb"},
	} {
		var got string
		returns(t, "wrap", func() { got = wrap(c.in, 72) })
		if got != c.want {
			t.Errorf("wrap(%q)\n= %q\nwant %q", c.in, got, c.want)
		}
		checkWrapped(t, c.in, got, 72)
	}
}

// FuzzWrap checks wrap on any text and width: it returns, keeps every
// word and breaks every line that can be broken.
func FuzzWrap(f *testing.F) {
	f.Add("  "+strings.Repeat("A", 71), 72)
	f.Add("herald could not read your mail:\n\n  attachment \"turn-"+strings.Repeat("A", 120)+".yaml\": illegal base64", 72)
	f.Add("steps: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 72)
	f.Add("é è ê "+strings.Repeat("ü", 80)+"   \t x", 10)
	f.Add("a b", 1)
	f.Fuzz(func(t *testing.T, text string, width int) {
		if width < 1 || width > 200 {
			return
		}
		var out string
		returns(t, "wrap", func() { out = wrap(text, width) })
		checkWrapped(t, text, out, width)
	})
}
