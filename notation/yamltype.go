package notation

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// YAMLDataText returns a yaml.v3 error of decoding a data file into Go
// values in words for the person who wrote the file. A type error names
// the Go type it wanted ("cannot unmarshal !!str `foo` into struct {
// Knights int "yaml:\"knights\""; ... }"), which that person never sees:
// it says instead what was found and what belongs there ("line 1: found
// the text `foo` where a mapping (name: value lines) belongs"). Other
// errors are as YAMLErrorText words them, after their line.
func YAMLDataText(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		if line := YAMLErrorLine(err); line > 0 {
			return "line " + strconv.Itoa(line) + ": " + YAMLErrorText(err)
		}
		return YAMLErrorText(err)
	}
	msgs := make([]string, len(te.Errors))
	for i, e := range te.Errors {
		msgs[i] = yamlTypeText(e)
	}
	return strings.Join(msgs, "; ")
}

// yamlUnmarshal is yaml.v3's message for a value of the wrong type.
var yamlUnmarshal = regexp.MustCompile("^(line [0-9]+: )?cannot unmarshal !!([a-z]+)( `.*`)? into (.+)$")

// yamlUnknown is yaml.v3's message for a name a strict decoder does not
// know (KnownFields).
var yamlUnknown = regexp.MustCompile("^(line [0-9]+: )?field (.+) not found in type (.+)$")

// yamlTypeText rewords one message of a yaml.TypeError (YAMLDataText).
func yamlTypeText(msg string) string {
	if m := yamlUnknown.FindStringSubmatch(msg); m != nil {
		text := m[1] + "unknown name " + m[2]
		if names := yamlNames(m[3]); len(names) > 0 {
			text += " (the names here: " + strings.Join(names, ", ") + ")"
		}
		return text
	}
	m := yamlUnmarshal.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	line, tag, value, want := m[1], m[2], strings.TrimSpace(m[3]), m[4]
	var found string
	switch tag {
	case "str":
		found = "the text " + value
	case "int", "float":
		found = "the number " + value
	case "bool":
		found = value
	case "null":
		found = "nothing"
	case "seq":
		found = "a list"
	case "map":
		found = "a mapping"
	default:
		found = strings.TrimSpace("!!" + tag + " " + value)
	}
	var belongs string
	switch {
	case strings.HasPrefix(want, "struct") || strings.HasPrefix(want, "map["):
		belongs = "a mapping (name: value lines)"
	case strings.HasPrefix(want, "[]"):
		belongs = "a list"
	case strings.HasPrefix(want, "int") || strings.HasPrefix(want, "uint"):
		belongs = "a whole number"
	case strings.HasPrefix(want, "float"):
		belongs = "a number"
	case want == "string":
		belongs = "a text"
	case want == "bool":
		belongs = "true or false"
	default:
		belongs = "a value of another kind"
	}
	return line + "found " + found + " where " + belongs + " belongs"
}

// yamlNames returns the YAML names of the fields of typ, a Go struct type
// as yaml.v3 prints it (struct { Knights int "yaml:\"knights\""; ... }),
// without those of the structs inside it.
func yamlNames(typ string) []string {
	const tag = `yaml:\"`
	var names []string
	depth := 0
	for i := 0; i < len(typ); i++ {
		switch {
		case typ[i] == '{':
			depth++
		case typ[i] == '}':
			depth--
		case depth == 1 && strings.HasPrefix(typ[i:], tag):
			rest := typ[i+len(tag):]
			end := strings.Index(rest, `\"`)
			if end < 0 {
				return names
			}
			name, _, _ := strings.Cut(rest[:end], ",")
			names = append(names, name)
			i += len(tag) + end
		}
	}
	return names
}
