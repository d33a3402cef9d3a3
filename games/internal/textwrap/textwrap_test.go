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
		// An indented line (an event under "latest events:") keeps its
		// indent, and its pieces after the first two spaces more.
		{"  aa bb cc\n", "  aa bb\n    cc\n"},
		{"  aaaaaaaaa b", "  aaaaaaaaa\n    b"},
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

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "points", 1: "point", 2: "points", -1: "points"} {
		if got := Plural(n, "point", "points"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestInitials(t *testing.T) {
	for _, tc := range []struct {
		names    []string
		reserved string
		want     string
	}{
		{[]string{"alice", "Bob"}, "", "ab"},
		{[]string{"red", "blue", "yellow"}, "", "rby"},
		{[]string{"bob", "barbara"}, "", "ab"},          // the same initial
		{[]string{"nadia", "omar"}, "n", "ab"},          // a reserved letter (Löwenherz's neutral n)
		{[]string{"xavier", "yann", "zoe"}, "x", "abc"}, // Löwenherz 1997's neutral prince x
		{[]string{"élodie", "bob"}, "", "ab"},           // not a to z
		{[]string{"1st", "bob"}, "", "ab"},
		{[]string{"", "bob"}, "", "ab"},
		{[]string{"alice", "henri"}, "", "ah"},
	} {
		if got := string(Initials(tc.names, []byte(tc.reserved)...)); got != tc.want {
			t.Errorf("Initials(%q, %q) = %q, want %q", tc.names, tc.reserved, got, tc.want)
		}
	}
}
