package adjudicator_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
)

func TestFill(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "\n"},
		{"one  two\nthree", "one two three\n"},
		{strings.Repeat("abc ", 18) + "de", strings.TrimSpace(strings.Repeat("abc ", 18)) + "\nde\n"}, // 71 columns, then a word that does not fit
		{strings.Repeat("x", 80) + " y", strings.Repeat("x", 80) + "\ny\n"},                           // a word longer than a line stands alone
	} {
		if got := adjudicator.Fill(c.in); got != c.want {
			t.Errorf("Fill(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzFill checks that Fill keeps every word, in order, and that a line
// runs past 72 columns only when it is one word.
func FuzzFill(f *testing.F) {
	f.Add("carol refused alice's request to take moves back: nothing is taken back in game G1.")
	f.Add("Step 1 (plain castle d3) is legal, but it turns up what is hidden (a tile or card drawn)")
	f.Add("  é\tà \n ü")
	f.Fuzz(func(t *testing.T, s string) {
		got := adjudicator.Fill(s)
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(s), " ") {
			t.Fatalf("Fill(%q) = %q: the words changed", s, got)
		}
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if utf8.RuneCountInString(l) > 72 && strings.Contains(l, " ") {
				t.Fatalf("Fill(%q): a line of %d columns, %q", s, utf8.RuneCountInString(l), l)
			}
		}
	})
}
