package notation

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestYAMLDataText: a data file of the wrong shape is told what was found
// and what belongs there, not the Go type it was decoded into (a host's
// "opt tiles=foo" was answered with a Go struct, found by a stranger).
func TestYAMLDataText(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"foo", "line 1: found the text `foo` where a mapping (name: value lines) belongs"},
		{"3", "line 1: found the number `3` where a mapping (name: value lines) belongs"},
		{"- a\n- b", "line 1: found a list where a mapping (name: value lines) belongs"},
		{"knights: many", "line 1: found the text `many` where a whole number belongs"},
		{"letters: [a]", "line 1: found a list where a mapping (name: value lines) belongs"},
		{"rows: x", "line 1: found the text `x` where a list belongs"},
		{"name: {a: 1}", "line 1: found a mapping where a text belongs"},
		{"open: 2", "line 1: found the number `2` where true or false belongs"},
		{"knights: 1\nrows: x\nopen: 2", "line 2: found the text `x` where a list belongs; line 3: found the number `2` where true or false belongs"},
		{"knights: [", "line 1: did not find expected node content"},
		{"knight: 3", "line 1: unknown name knight (the names here: knights, letters, rows, name, open, tiles)"},
	} {
		var d struct { // as the games' data files are read
			Knights int                 `yaml:"knights"`
			Letters map[string][]string `yaml:"letters"`
			Rows    []string            `yaml:"rows"`
			Name    string              `yaml:"name"`
			Open    bool                `yaml:"open"`
			Tiles   []struct {
				Name string `yaml:"name"`
			} `yaml:"tiles,omitempty"`
		}
		dec := yaml.NewDecoder(strings.NewReader(c.doc))
		dec.KnownFields(true)
		err := dec.Decode(&d)
		if err == nil {
			t.Errorf("%q: no error", c.doc)
			continue
		}
		if got := YAMLDataText(err); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.doc, got, c.want)
		}
	}
}
