// Package yamldoc holds the small helpers the games use to write their
// position documents as yaml.v3 nodes, in a fixed key order, and to read
// them back with errors that point at the line and column of the fault.
package yamldoc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Mapping returns an empty mapping node.
func Mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

// Scalar returns a scalar node holding v.
func Scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

// Flow returns a sequence of scalars written on one line: [a, b, c].
func Flow(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, it := range items {
		n.Content = append(n.Content, Scalar(it))
	}
	return n
}

// Add appends key: v to the mapping m.
func Add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, Scalar(key), v)
}

// Get returns the value of key in the mapping m, or nil.
func Get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// Errorf returns a *notation.Error at node n.
func Errorf(n *yaml.Node, format string, args ...any) error {
	return &notation.Error{Pos: notation.Pos{Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)}
}

// CheckKeys refuses a node that is not a mapping, and a mapping with a key
// given twice or not among allowed (with "did you mean" for a misspelt
// one). what names the mapping in the message: "the position".
func CheckKeys(m *yaml.Node, allowed []string, what string) error {
	if m.Kind != yaml.MappingNode {
		return Errorf(m, "%s: expected a mapping with keys %s", what, strings.Join(allowed, ", "))
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		for j := 0; j < i; j += 2 {
			if m.Content[j].Value == k.Value {
				return Errorf(k, "%s: key %q is given twice (first on line %d)", what, k.Value, m.Content[j].Line)
			}
		}
		if !slices.Contains(allowed, k.Value) {
			var v notation.Vocabulary
			for _, a := range allowed {
				v = append(v, notation.Term{Name: a})
			}
			if sug := v.Suggest(k.Value, notation.English); len(sug) > 0 {
				return Errorf(k, "unknown key %q in %s; did you mean %q?", k.Value, what, sug[0])
			}
			return Errorf(k, "unknown key %q in %s (expected one of %s)", k.Value, what, strings.Join(allowed, ", "))
		}
	}
	return nil
}
