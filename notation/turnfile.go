package notation

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	lines := srcLines(string(data))
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
	notYAML := func(err error) *Error {
		line := min(max(YAMLErrorLine(err), 1), len(lines))
		// A tab where YAML wants spaces: yaml.v3 says only that a
		// character "cannot start any token". Name the tab, and what is
		// right (hand play: a tab before "- plain h4").
		msg := YAMLErrorText(err)
		if tab := indentTab(lines, line); tab.Line > 0 && (strings.Contains(msg, "tab") || strings.Contains(msg, "cannot start any token")) {
			return errAt(tab.Line, tab.Col, "a tab in the indentation: YAML indents with spaces only; write spaces in its place",
				"une tabulation dans l'indentation : YAML n'indente qu'avec des espaces ; écrivez des espaces à sa place")
		}
		return errAt(line, 1, "not a YAML turn file: "+msg, "ce n'est pas un fichier de tour YAML : "+msg)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errAt(1, 1, "the turn file is empty", "le fichier de tour est vide")
		}
		return nil, notYAML(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, errAt(extra.Line, extra.Column, "a turn file holds one YAML document; found a second",
			"un fichier de tour contient un seul document YAML ; un second a été trouvé")
	} else if !errors.Is(err, io.EOF) {
		return nil, notYAML(err)
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
		if seen[k.Value] {
			return nil, errAt(k.Line, k.Column, fmt.Sprintf("key %q appears twice", k.Value),
				fmt.Sprintf("la clé « %s » apparaît deux fois", k.Value))
		}
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
		if v.Tag != "!!null" { // "steps:", "steps: ~" hold no steps
			items = []*yaml.Node{v}
		}
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
	var rl [][]rune // lines, as runes
	for _, item := range items {
		if item.Kind != yaml.ScalarNode {
			e := &Error{File: name, Pos: Pos{item.Line, item.Column}, Msg: "each step must be a string of notation",
				MsgFR: "chaque étape doit être une chaîne en notation"}
			if item.Line <= len(lines) {
				e.Source = lines[item.Line-1]
			}
			return nil, e
		}
		if v.Kind == yaml.SequenceNode && item.Style == 0 {
			if l, col, dash, ok := foldedItem(lines, item); ok {
				text := strings.TrimSpace(lines[l-1])
				return nil, &Error{File: name, Pos: Pos{l, col}, Source: lines[l-1],
					Msg: fmt.Sprintf("%q is read as more of the step on line %d, not as a step of its own: a line indented past the \"-\" above it goes on that step; start it at column %d, under the other \"-\"",
						text, item.Line, dash),
					MsgFR: fmt.Sprintf("« %s » est lu comme la suite de l'étape de la ligne %d, pas comme une étape à part : une ligne plus indentée que le « - » au-dessus continue cette étape ; commencez-la à la colonne %d, sous l'autre « - »",
						text, item.Line, dash)}
			}
		}
		got, serrs := Split(item.Value)
		if rl == nil {
			rl = make([][]rune, len(lines))
			for i, l := range lines {
				rl[i] = []rune(l)
			}
		}
		remap := scalarMapper(item, lines, rl)
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

// foldedItem finds, under item, a plain step of a list, a line that YAML
// folds into it but that starts like a list item of its own ("- end"
// indented one space more than the "-" above it): its line, its column,
// and the column of item's own "-". A line indented more that does not
// start with "-" is the step's own text going on, as a long step may.
func foldedItem(lines []string, item *yaml.Node) (line, col, dash int, ok bool) {
	if item.Line < 1 || item.Line > len(lines) {
		return 0, 0, 0, false
	}
	r := []rune(lines[item.Line-1])
	d := min(item.Column-1, len(r)) - 1 // the rune before the step's text
	for d >= 0 && r[d] != '-' {
		d--
	}
	if d < 0 {
		return 0, 0, 0, false // a flow sequence, or a step on the line after its "-"
	}
	for l := item.Line + 1; l <= len(lines); l++ {
		text := lines[l-1]
		rest := strings.TrimLeft(text, " ")
		indent := len(text) - len(rest)
		switch {
		case rest == "":
			continue
		case indent <= d || strings.HasPrefix(rest, "#"):
			return 0, 0, 0, false
		case rest == "-" || strings.HasPrefix(rest, "- "):
			return l, indent + 1, d + 1, true
		}
	}
	return 0, 0, 0, false
}

// srcLines splits a YAML file into lines numbered as yaml.v3 numbers them:
// it breaks lines at "\r\n", "\r", "\n", U+0085, U+2028 and U+2029, and a
// leading byte order mark is not part of the first line.
func srcLines(s string) []string {
	s = strings.TrimPrefix(s, "\ufeff")
	var lines []string
	start := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\r', '\n', '\u0085', '\u2028', '\u2029':
			lines = append(lines, s[start:i])
			if r == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				w++
			}
			start = i + w
		}
		i += w
	}
	return append(lines, s[start:])
}

// scalarMapper returns a function mapping a position in the notation read
// from the value of the YAML scalar n (as Split numbers it) to the line and
// column of the file, with the file's line.
func scalarMapper(n *yaml.Node, lines []string, rl [][]rune) func(Pos) (Pos, string) {
	at := alignScalar(n, rl)
	// The rune index in n.Value of the start of each line Split sees.
	v := n.Value
	first := 0
	if strings.HasPrefix(v, "\ufeff") {
		v, first = v[len("\ufeff"):], 1
	}
	starts := []int{first}
	i := first
	for _, r := range v {
		i++
		if r == '\n' {
			starts = append(starts, i)
		}
	}
	return func(p Pos) (Pos, string) {
		k := len(at) - 1
		if p.Line >= 1 && p.Line <= len(starts) && p.Col >= 1 {
			k = min(starts[p.Line-1]+p.Col-1, k)
		}
		q := at[k]
		return q, lines[q.Line-1]
	}
}

// alignScalar returns the position in the file of every rune of the value of
// the scalar n, and of the end of the value. It reads the scalar's source as
// YAML does: tag and anchor, quotes and escapes, line folding, a block's
// indentation. Where the source cannot be read back to the value (an input
// yaml.v3 decoded from UTF-16, say), every rune gets the scalar's own
// position. Every position returned is within lines.
func alignScalar(n *yaml.Node, lines [][]rune) []Pos {
	clamp := func(p Pos) Pos {
		p.Line = min(max(p.Line, 1), len(lines))
		p.Col = min(max(p.Col, 1), len(lines[p.Line-1])+1)
		return p
	}
	val := []rune(n.Value)
	out := make([]Pos, len(val)+1)
	fail := func() []Pos {
		p := clamp(Pos{n.Line, n.Column})
		for i := range out {
			out[i] = p
		}
		return out
	}
	single := n.Style&yaml.SingleQuotedStyle != 0
	double := n.Style&yaml.DoubleQuotedStyle != 0
	l, c := n.Line, n.Column
	if l < 1 || c < 1 {
		return fail()
	}
	// src returns the rune at line l, column c: '\n' for the end of a line,
	// -1 past the end of the file.
	src := func(l, c int) rune {
		if l > len(lines) {
			return -1
		}
		if c > len(lines[l-1]) {
			if l == len(lines) {
				return -1
			}
			return '\n'
		}
		return lines[l-1][c-1]
	}
	blank := unicode.IsSpace
	// yaml.v3 places a scalar at its tag or anchor, if it has any.
	for s := src(l, c); s == '!' || s == '&'; s = src(l, c) {
		for s = src(l, c); s >= 0 && !blank(s); s = src(l, c) {
			c++
		}
		for s = src(l, c); blank(s); s = src(l, c) {
			if s == '\n' {
				l, c = l+1, 1
			} else {
				c++
			}
		}
	}
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		l, c = l+1, 1 // the content starts on the line after the header
	case single || double:
		c++ // after the opening quote
	}
	for i, v := range val {
		for {
			s := src(l, c)
			switch {
			case s < 0:
				return fail()
			case double && s == '\\' && src(l, c+1) == '\n':
				l, c = l+1, 1 // an escaped line break reads as nothing
				continue
			case double && s == '\\':
				r, w, ok := unescape(lines[l-1][c:])
				if !ok || r != v {
					return fail()
				}
				out[i] = Pos{l, c}
				c += 1 + w
			case single && s == '\'':
				if v != '\'' || src(l, c+1) != '\'' {
					return fail()
				}
				out[i] = Pos{l, c}
				c += 2
			case s == v || blank(s) && blank(v):
				out[i] = Pos{l, c}
				if s == '\n' {
					l, c = l+1, 1
				} else {
					c++
				}
			case blank(s):
				if s == '\n' {
					l, c = l+1, 1
				} else {
					c++
				}
				continue
			default:
				return fail()
			}
			break
		}
	}
	out[len(val)] = Pos{l, c}
	for i := range out {
		out[i] = clamp(out[i])
	}
	return out
}

// unescape reads the escape sequence of a double-quoted YAML scalar that
// follows a backslash: it returns the rune it stands for and its length in
// runes, the backslash not counted.
func unescape(rs []rune) (r rune, n int, ok bool) {
	if len(rs) == 0 {
		return 0, 0, false
	}
	if r, ok := yamlEscapes[rs[0]]; ok {
		return r, 1, true
	}
	digits := map[rune]int{'x': 2, 'u': 4, 'U': 8}[rs[0]]
	if digits == 0 || len(rs) < 1+digits {
		return 0, 0, false
	}
	u, err := strconv.ParseUint(string(rs[1:1+digits]), 16, 32)
	if err != nil {
		return 0, 0, false
	}
	return rune(u), 1 + digits, true
}

// yamlEscapes are the one-character escapes of a double-quoted YAML scalar.
var yamlEscapes = map[rune]rune{'0': 0, 'a': '\a', 'b': '\b', 't': '\t', '\t': '\t', 'n': '\n', 'v': '\v',
	'f': '\f', 'r': '\r', 'e': 0x1b, ' ': ' ', '"': '"', '/': '/', '\\': '\\', 'N': 0x85,
	'_': 0xa0, 'L': 0x2028, 'P': 0x2029}

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

// indentTab returns the position of the first tab in the indentation of
// the lines of a file around line, from the line before it to the line
// after (yaml.v3 numbers some errors' lines from 0, go-yaml/yaml#205, and
// others from 1), or the zero Pos.
func indentTab(lines []string, line int) Pos {
	for l := max(line-1, 1); l <= line+1 && l <= len(lines); l++ {
		text := lines[l-1]
		indent := len(text) - len(strings.TrimLeft(text, " \t"))
		if i := strings.IndexByte(text[:indent], '\t'); i >= 0 {
			return Pos{l, i + 1}
		}
	}
	return Pos{}
}

// YAMLErrorText returns a yaml.v3 error message without its
// "yaml: line N: " prefix, and the limits yaml.v3 sets a hostile document
// said as what they are: "the document expands too far through its
// aliases" for an alias bomb (a "billion laughs"), "nested too deep" past
// 10,000 levels, each with yaml.v3's own words after it.
func YAMLErrorText(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if strings.HasPrefix(msg, "line ") {
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
	}
	switch {
	case msg == "document contains excessive aliasing":
		return "the document expands too far through its aliases (yaml.v3: " + msg + ")"
	case strings.HasPrefix(msg, "exceeded max depth of "):
		return "nested too deep, past " + strings.TrimPrefix(msg, "exceeded max depth of ") + " levels (yaml.v3: " + msg + ")"
	}
	return msg
}
