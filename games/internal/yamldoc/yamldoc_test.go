package yamldoc

import (
	"errors"
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

func TestWriteRead(t *testing.T) {
	m := Mapping()
	Add(m, "phase", Scalar("play"))
	Add(m, "list", Flow([]string{"a", "b"}))
	out, err := yaml.Marshal(m)
	if err != nil || string(out) != "phase: play\nlist: [a, b]\n" {
		t.Fatalf("Marshal = %q, %v", out, err)
	}
	if Get(m, "phase").Value != "play" || Get(m, "nothing") != nil || Get(nil, "phase") != nil {
		t.Errorf("Get")
	}
}

func TestCheckKeys(t *testing.T) {
	for _, tc := range []struct{ doc, want, pos string }{
		{"phase: 1\nphase: 2", "given twice (first on line 1)", "2:1"},
		{"phas: 1", `did you mean "phase"`, "1:1"},
		{"zzzzzz: 1", "expected one of phase, board", "1:1"},
		{"[1, 2]", "expected a mapping", "1:1"},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(tc.doc), &n); err != nil {
			t.Fatal(err)
		}
		err := CheckKeys(n.Content[0], []string{"phase", "board"}, "the position")
		var ne *notation.Error
		if !errors.As(err, &ne) || !strings.Contains(ne.Msg, tc.want) || ne.Pos.String() != tc.pos {
			t.Errorf("%q: %v, want %s: %q", tc.doc, err, tc.pos, tc.want)
		}
	}
}
