package mail

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

// TestAuthFailureBody: the notice to a mail that failed authentication
// says how to authenticate the ways this herald accepts: a reply to its
// own mail where reply tokens are on, the key line always (field test).
func TestAuthFailureBody(t *testing.T) {
	for _, c := range []struct {
		name   string
		env    notation.Envelope
		tokens bool
		want   []string
		not    []string
	}{
		{"no key, tokens", notation.Envelope{}, true,
			[]string{"it holds no key line", "mail program's Reply", "key YOUR-KEY"}, nil},
		{"no key, no tokens", notation.Envelope{}, false,
			[]string{"it holds no key line", "key YOUR-KEY"}, []string{"Reply"}},
		{"wrong key", notation.Envelope{Key: "0000", KeyPos: notation.Pos{Line: 3}}, true,
			[]string{"the key on line 3 is not your key"}, nil},
	} {
		got := authFailureBody(&c.env, c.tokens)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the notice does not say %q:\n%s", c.name, w, got)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: the notice says %q:\n%s", c.name, w, got)
			}
		}
		for _, l := range strings.Split(got, "\n") {
			if len([]rune(l)) > 72 {
				t.Errorf("%s: a line of %d columns: %q", c.name, len([]rune(l)), l)
			}
		}
	}
}
