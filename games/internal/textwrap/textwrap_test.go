package textwrap

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"short\n", "short\n"},
		{"aaa bbb ccc ddd\n", "aaa bbb\n  ccc\n  ddd\n"},
		{"aaaaaaaaaaaa bb", "aaaaaaaaaaaa\n  bb"},
	} {
		if got := Line(tc.in, 8); got != tc.want {
			t.Errorf("Line(%q, 8) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var b strings.Builder
	Write(&b, strings.Repeat("word ", 30)+"\nshort\n")
	for _, l := range strings.Split(b.String(), "\n") {
		if len(l) > Width {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
}
