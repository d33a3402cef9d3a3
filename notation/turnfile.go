package notation

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// TurnFile is a player's turn sent as a file:
//
//	game: raubritter        # the game's name
//	player: alice           # who sends it
//	move: 7                 # the move number it answers; a stale file is rejected
//	steps:                  # notation, as in a mail body
//	  - plain castle e5
//	  - knights east 1 2 1
//
// A step string may itself hold several steps on lines or separated by ';'.
type TurnFile struct {
	Game   string
	Player string
	Move   int
	Steps  []*Step // positions are lines and columns of the file
}

// MaxTurnFile is the largest turn file ParseTurnFile reads.
const MaxTurnFile = 64 << 10

// ParseTurnFile reads a turn file. name is used in error messages. Every
// error gives the line and column in the file and what was expected there;
// a notation error inside a step points into the file too.
func ParseTurnFile(name string, data []byte) (*TurnFile, error) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	errAt := func(line, col int, en, fr string) *Error {
		e := &Error{File: name, Pos: Pos{line, col}, Msg: en, MsgFR: fr}
		if line >= 1 && line <= len(lines) {
			e.Source = lines[line-1]
		}
		return e
	}
	if len(data) > MaxTurnFile {
		return nil, errAt(0, 0, fmt.Sprintf("turn file is %d bytes; the limit is %d", len(data), MaxTurnFile),
			fmt.Sprintf("le fichier de tour fait %d octets ; la limite est %d", len(data), MaxTurnFile))
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		line := YAMLErrorLine(err)
		return nil, errAt(line, 1, "not a YAML turn file: "+YAMLErrorText(err),
			"ce n'est pas un fichier de tour YAML : "+YAMLErrorText(err))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, errAt(extra.Line, extra.Column, "a turn file holds one YAML document; found a second",
			"un fichier de tour contient un seul document YAML ; un second a été trouvé")
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errAt(1, 1, "a turn file is a mapping with keys game, player, move and steps",
			"un fichier de tour est une table avec les clés game, player, move et steps")
	}
	root := doc.Content[0]
	tf := &TurnFile{}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "game", "player":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				return nil, errAt(v.Line, v.Column, k.Value+" must be a non-empty string",
					k.Value+" doit être une chaîne non vide")
			}
			if k.Value == "game" {
				tf.Game = v.Value
			} else {
				tf.Player = v.Value
			}
		case "move":
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || n < 1 {
				return nil, errAt(v.Line, v.Column, fmt.Sprintf("move must be the move number this turn answers (1, 2, ...), not %q", v.Value),
					fmt.Sprintf("move doit être le numéro du coup auquel ce tour répond (1, 2, ...), pas « %s »", v.Value))
			}
			tf.Move = n
		case "steps":
			steps, err := turnSteps(name, lines, v)
			if err != nil {
				return nil, err
			}
			tf.Steps = steps
		default:
			e := errAt(k.Line, k.Column, fmt.Sprintf("unknown key %q", k.Value), fmt.Sprintf("clé inconnue « %s »", k.Value))
			e.Suggest = turnKeys.Suggest(k.Value, English)
			return nil, e
		}
		seen[k.Value] = true
	}
	for _, key := range []string{"game", "player", "move", "steps"} {
		if !seen[key] {
			return nil, errAt(root.Line, root.Column, fmt.Sprintf("missing key %q (a turn file has game, player, move and steps)", key),
				fmt.Sprintf("clé « %s » absente (un fichier de tour a game, player, move et steps)", key))
		}
	}
	if len(tf.Steps) == 0 {
		return nil, errAt(root.Line, root.Column, "the turn file has no steps", "le fichier de tour ne contient aucune étape")
	}
	return tf, nil
}

var turnKeys = Vocabulary{{Name: "game"}, {Name: "player"}, {Name: "move"}, {Name: "steps"}}

// turnSteps reads the steps sequence, mapping every position to the file.
func turnSteps(name string, lines []string, v *yaml.Node) ([]*Step, error) {
	var items []*yaml.Node
	switch v.Kind {
	case yaml.SequenceNode:
		items = v.Content
	case yaml.ScalarNode:
		items = []*yaml.Node{v}
	default:
		e := &Error{File: name, Pos: Pos{v.Line, v.Column}, Msg: "steps must be a list of notation strings",
			MsgFR: "steps doit être une liste de chaînes en notation"}
		if v.Line <= len(lines) {
			e.Source = lines[v.Line-1]
		}
		return nil, e
	}
	var steps []*Step
	var errs ErrorList
	for _, item := range items {
		if item.Kind != yaml.ScalarNode {
			e := &Error{File: name, Pos: Pos{item.Line, item.Column}, Msg: "each step must be a string of notation",
				MsgFR: "chaque étape doit être une chaîne en notation"}
			if item.Line <= len(lines) {
				e.Source = lines[item.Line-1]
			}
			return nil, e
		}
		got, serrs := Split(item.Value)
		remap := scalarMapper(item, lines)
		for _, e := range serrs {
			e.File = name
			e.Pos, e.Source = remap(e.Pos)
			errs = append(errs, e)
		}
		for _, st := range got {
			st.Pos, st.Source = remap(st.Pos)
			for i := range st.Tokens {
				st.Tokens[i].Pos, _ = remap(st.Tokens[i].Pos)
			}
			steps = append(steps, st)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return steps, nil
}

// scalarMapper returns a function mapping a position inside the value of a
// YAML scalar to the file's line and column, with the file's line. The
// mapping is exact for plain and single-line quoted scalars and for literal
// block scalars; for folded or multi-line flow scalars it keeps the line of
// the scalar and the best column it can.
func scalarMapper(n *yaml.Node, lines []string) func(Pos) (Pos, string) {
	line := func(i int) string {
		if i >= 1 && i <= len(lines) {
			return lines[i-1]
		}
		return ""
	}
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		// Content starts on the next line, at the block's indentation.
		indent := 0
		for l := n.Line + 1; l <= len(lines); l++ {
			if t := strings.TrimLeft(lines[l-1], " "); t != "" {
				indent = len(lines[l-1]) - len(t)
				break
			}
		}
		return func(p Pos) (Pos, string) {
			fl := n.Line + p.Line
			return Pos{fl, p.Col + indent}, line(fl)
		}
	default:
		shift := 0
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			shift = 1
		}
		return func(p Pos) (Pos, string) {
			if p.Line == 1 {
				return Pos{n.Line, n.Column + shift + p.Col - 1}, line(n.Line)
			}
			return Pos{n.Line + p.Line - 1, p.Col}, line(n.Line + p.Line - 1)
		}
	}
}

// YAMLErrorLine returns the line number yaml.v3 puts in its messages
// ("yaml: line 3: ..."), or 0. Packages that load YAML use it to give
// positions in their own errors.
func YAMLErrorLine(err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+5:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if n, err := strconv.Atoi(rest[:j]); err == nil {
			return n
		}
	}
	return 0
}

// YAMLErrorText returns a yaml.v3 error message without its
// "yaml: line N: " prefix.
func YAMLErrorText(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if strings.HasPrefix(msg, "line ") {
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
	}
	return msg
}
