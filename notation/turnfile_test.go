package notation_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

// A turn file's head, the lines before steps.
const head = "game: raubritter\nplayer: alice\nmove: 7\n"

var turnFileTests = []struct {
	name  string
	data  string
	steps string // dumpSteps of the steps, positions in the file
}{
	{
		name: "list of steps",
		data: head + "steps:\n  - plain castle e5\n  - knights east 1 2 1\n",
		steps: `5:5 "plain castle e5" [word plain 5:5, word castle 5:11, word e5 5:18]
6:5 "knights east 1 2 1" [word knights 6:5, word east 6:13, number 1 6:18, number 2 6:20, number 1 6:22]
`,
	},
	{
		name: "flow list",
		data: head + "steps: [plain castle e5, end]\n",
		steps: `4:9 "plain castle e5" [word plain 4:9, word castle 4:15, word e5 4:22]
4:26 "end" [word end 4:26]
`,
	},
	{
		name: "one string with semicolons",
		data: head + "steps: plain castle e5; knights east 1 2 1 # comment\n",
		steps: `4:8 "plain castle e5" [word plain 4:8, word castle 4:14, word e5 4:21]
4:25 "knights east 1 2 1" [word knights 4:25, word east 4:33, number 1 4:38, number 2 4:40, number 1 4:42]
`,
	},
	{
		name: "literal block",
		data: head + "steps: |\n  plain castle e5\n\n  knights east 1 2 1 # the knights\n    end; pass\n",
		steps: `5:3 "plain castle e5" [word plain 5:3, word castle 5:9, word e5 5:16]
7:3 "knights east 1 2 1" [word knights 7:3, word east 7:11, number 1 7:16, number 2 7:18, number 1 7:20]
8:5 "end" [word end 8:5]
8:10 "pass" [word pass 8:10]
`,
	},
	{
		name: "literal block with an indentation indicator",
		data: head + "steps: |2\n    plain e5\n  end\n",
		steps: `5:5 "plain e5" [word plain 5:5, word e5 5:11]
6:3 "end" [word end 6:3]
`,
	},
	{
		name: "folded block",
		data: head + "steps: >-\n  plain\n  e5\n\n  end\n",
		steps: `5:3 "plain e5" [word plain 5:3, word e5 6:3]
8:3 "end" [word end 8:3]
`,
	},
	{
		name: "quoted scalars",
		data: head + "steps:\n  - 'plain castle e5'\n  - \"knights east 1 2 1\"\n  - 'aujourd''hui'\n  - \"\\u00e9tang \\\"x\\\"\"\n",
		steps: `5:6 "plain castle e5" [word plain 5:6, word castle 5:12, word e5 5:19]
6:6 "knights east 1 2 1" [word knights 6:6, word east 6:14, number 1 6:19, number 2 6:21, number 1 6:23]
7:6 "aujourd'hui" [word aujourd'hui 7:6]
8:6 "étang \"x\"" [word étang 8:6, punctuation " 8:17, word x 8:19, punctuation " 8:20]
`,
	},
	{
		name: "multi-line plain scalar",
		data: head + "steps: plain castle e5;\n  knights east 1\n",
		steps: `4:8 "plain castle e5" [word plain 4:8, word castle 4:14, word e5 4:21]
5:3 "knights east 1" [word knights 5:3, word east 5:11, number 1 5:16]
`,
	},
	{
		name: "tag and anchor",
		data: head + "steps:\n  - !!str plain e5\n  - &a end\n",
		steps: `5:11 "plain e5" [word plain 5:11, word e5 5:17]
6:8 "end" [word end 6:8]
`,
	},
	{
		name: "accents, crlf, bom, comments",
		data: "\ufeff# my turn\r\n" + strings.ReplaceAll(head, "\n", "\r\n") + "steps:\r\n  - forêt château e5  # là\r\n  - fin\r\n",
		steps: `6:5 "forêt château e5" [word forêt 6:5, word château 6:11, word e5 6:19]
7:5 "fin" [word fin 7:5]
`,
	},
	{
		name: "keys in any order",
		data: "steps: [end]\nmove: 1\nplayer: bob\ngame: raubritter\n",
		steps: `1:9 "end" [word end 1:9]
`,
	},
}

func TestParseTurnFile(t *testing.T) {
	tests := turnFileTests
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tf, err := notation.ParseTurnFile("turn.yaml", []byte(tt.data))
			if err != nil {
				t.Fatalf("ParseTurnFile: %v", err)
			}
			if tt.name != "keys in any order" && (tf.Game != "raubritter" || tf.Player != "alice" || tf.Move != 7) {
				t.Errorf("ParseTurnFile = game %q, player %q, move %d; want raubritter, alice, 7", tf.Game, tf.Player, tf.Move)
			}
			if got := dumpSteps(tf.Steps); got != tt.steps {
				t.Errorf("steps =\n%s\nwant\n%s", got, tt.steps)
			}
			lines := yamlLines(tt.data)
			for _, st := range tf.Steps {
				if want := lines[st.Pos.Line-1]; st.Source != want {
					t.Errorf("step %q Source = %q, want the file's line %d %q", st.Text, st.Source, st.Pos.Line, want)
				}
			}
			if !strings.Contains(tt.data, `\"`) && !strings.Contains(tt.data, "''") {
				checkTokensInFile(t, lines, tf.Steps)
			}
		})
	}
}

// yamlLines splits a YAML file into lines as YAML numbers them.
func yamlLines(data string) []string {
	data = strings.TrimPrefix(data, "\ufeff")
	return regexp.MustCompile("\r\n|[\r\n\u0085\u2028\u2029]").Split(data, -1)
}

// checkTokensInFile checks that every token's text is in the file at the
// token's position.
func checkTokensInFile(t *testing.T, lines []string, steps []*notation.Step) {
	t.Helper()
	for _, st := range steps {
		for _, tok := range st.Tokens {
			line := []rune(lines[tok.Pos.Line-1])
			n := len([]rune(tok.Text))
			if tok.Pos.Col < 1 || tok.Pos.Col-1+n > len(line) {
				t.Errorf("token %q at %v: outside its line %q", tok.Text, tok.Pos, string(line))
				continue
			}
			if got := string(line[tok.Pos.Col-1 : tok.Pos.Col-1+n]); got != tok.Text {
				t.Errorf("token %q at %v: the file there says %q", tok.Text, tok.Pos, got)
			}
		}
	}
}

var turnFileErrorTests = []struct {
	name string
	data string
	want string // Error()
	fr   string // Localize(French), when checked
}{
	{
		name: "unknown key with a suggestion",
		data: head + "stpes: [end]\n",
		want: `turn.yaml:4:1: unknown key "stpes"; did you mean "steps"?`,
		fr:   "turn.yaml:4:1: clé inconnue « stpes » ; vouliez-vous dire « steps » ?",
	},
	{
		name: "unknown key",
		data: head + "steps: [end]\ncolour: red\n",
		want: `turn.yaml:5:1: unknown key "colour"`,
	},
	{
		name: "key twice",
		data: head + "steps: [end]\nsteps: [pass]\n",
		want: `turn.yaml:5:1: key "steps" appears twice`,
		fr:   "turn.yaml:5:1: la clé « steps » apparaît deux fois",
	},
	{
		name: "missing key",
		data: "# turn\ngame: raubritter\nplayer: alice\nsteps: [end]\n",
		want: `turn.yaml:2:1: missing key "move" (a turn file has game, player, move and steps)`,
		fr:   "turn.yaml:2:1: clé « move » absente (un fichier de tour a game, player, move et steps)",
	},
	{
		name: "game not a string",
		data: "game: [raubritter]\nplayer: alice\nmove: 7\nsteps: [end]\n",
		want: `turn.yaml:1:7: game must be a non-empty string`,
		fr:   "turn.yaml:1:7: game doit être une chaîne non vide",
	},
	{
		name: "player empty",
		data: "game: raubritter\nplayer: ''\nmove: 7\nsteps: [end]\n",
		want: `turn.yaml:2:9: player must be a non-empty string`,
	},
	{
		name: "move not a number",
		data: "game: raubritter\nplayer: alice\nmove: seven\nsteps: [end]\n",
		want: `turn.yaml:3:7: move must be the move number this turn answers (1, 2, ...), not "seven"`,
		fr:   "turn.yaml:3:7: move doit être le numéro du coup auquel ce tour répond (1, 2, ...), pas « seven »",
	},
	{
		name: "move zero",
		data: "game: raubritter\nplayer: alice\nmove: 0\nsteps: [end]\n",
		want: `turn.yaml:3:7: move must be the move number this turn answers (1, 2, ...), not "0"`,
	},
	{
		name: "move negative",
		data: "game: raubritter\nplayer: alice\nmove: -3\nsteps: [end]\n",
		want: `turn.yaml:3:7: move must be the move number this turn answers (1, 2, ...), not "-3"`,
	},
	{
		name: "move fractional",
		data: "game: raubritter\nplayer: alice\nmove: 1.5\nsteps: [end]\n",
		want: `turn.yaml:3:7: move must be the move number this turn answers (1, 2, ...), not "1.5"`,
	},
	{
		name: "move a list",
		data: "game: raubritter\nplayer: alice\nmove: [1]\nsteps: [end]\n",
		want: `turn.yaml:3:7: move must be the move number this turn answers (1, 2, ...), not ""`,
	},
	{
		name: "steps a mapping",
		data: head + "steps: {a: b}\n",
		want: `turn.yaml:4:8: steps must be a list of notation strings`,
		fr:   "turn.yaml:4:8: steps doit être une liste de chaînes en notation",
	},
	{
		name: "a step a list",
		data: head + "steps:\n  - end\n  - [a, b]\n",
		want: `turn.yaml:6:5: each step must be a string of notation`,
		fr:   "turn.yaml:6:5: chaque étape doit être une chaîne en notation",
	},
	{
		name: "empty steps list",
		data: head + "steps: []\n",
		want: `turn.yaml:1:1: the turn file has no steps`,
		fr:   "turn.yaml:1:1: le fichier de tour ne contient aucune étape",
	},
	{
		name: "null steps",
		data: head + "steps:\n",
		want: `turn.yaml:1:1: the turn file has no steps`,
	},
	{
		name: "tilde steps",
		data: head + "steps: ~\n",
		want: `turn.yaml:1:1: the turn file has no steps`,
	},
	{
		name: "only comments in the steps",
		data: head + "steps: |\n  # nothing yet\n",
		want: `turn.yaml:1:1: the turn file has no steps`,
	},
	{
		name: "two documents",
		data: head + "steps: [end]\n---\n" + head + "steps: [end]\n",
		want: `turn.yaml:5:1: a turn file holds one YAML document; found a second`,
		fr:   "turn.yaml:5:1: un fichier de tour contient un seul document YAML ; un second a été trouvé",
	},
	{
		name: "broken second document",
		data: head + "steps: [end]\n---\nsteps: [\n",
		want: `turn.yaml:6:1: not a YAML turn file: did not find expected node content`,
	},
	{
		name: "not YAML",
		data: head + "steps: [end]\nend\n",
		want: `turn.yaml:5:1: not a YAML turn file: could not find expected ':'`,
		fr:   "turn.yaml:5:1: ce n'est pas un fichier de tour YAML : could not find expected ':'",
	},
	{
		// yaml.v3 numbers the lines of parser errors from 0
		// (go-yaml/yaml#205): the '[' is on line 4.
		name: "unclosed bracket",
		data: head + "steps: [end\n",
		want: `turn.yaml:3:1: not a YAML turn file: did not find expected ',' or ']'`,
	},
	{
		name: "tab indentation",
		data: head + "steps:\n\t- end\n",
		want: `turn.yaml:5:1: a tab in the indentation: YAML indents with spaces only; write spaces in its place`,
		fr:   `turn.yaml:5:1: une tabulation dans l'indentation : YAML n'indente qu'avec des espaces ; écrivez des espaces à sa place`,
	},
	{
		name: "a step indented past the dash",
		data: head + "steps:\n  - plain h4\n   - end\n",
		want: `turn.yaml:6:4: "- end" is read as more of the step on line 5, not as a step of its own: a line indented past the "-" above it goes on that step; start it at column 3, under the other "-"`,
	},
	{
		name: "tab after spaces",
		data: head + "steps:\n  - plain h4\n  \t- end\n",
		want: `turn.yaml:6:3: a tab in the indentation: YAML indents with spaces only; write spaces in its place`,
	},
	{
		name: "control character",
		data: "game: \x00\n",
		want: `turn.yaml:1:1: not a YAML turn file: control characters are not allowed`,
	},
	{
		name: "empty file",
		data: "",
		want: `turn.yaml:1:1: the turn file is empty`,
		fr:   "turn.yaml:1:1: le fichier de tour est vide",
	},
	{
		name: "only a comment",
		data: "# nothing\n",
		want: `turn.yaml:1:1: the turn file is empty`,
	},
	{
		name: "plain text",
		data: "plain castle e5\n",
		want: `turn.yaml:1:1: a turn file is a mapping with keys game, player, move and steps`,
		fr:   "turn.yaml:1:1: un fichier de tour est une table avec les clés game, player, move et steps",
	},
	{
		name: "a list",
		data: "- plain castle e5\n- end\n",
		want: `turn.yaml:1:1: a turn file is a mapping with keys game, player, move and steps`,
	},
	{
		name: "oversize",
		data: head + "steps:\n" + strings.Repeat("  - end # padding the file\n", 3000),
		want: fmt.Sprintf("turn.yaml: turn file is %d bytes; the limit is 65536", len(head)+7+3000*27),
		fr:   fmt.Sprintf("turn.yaml: le fichier de tour fait %d octets ; la limite est 65536", len(head)+7+3000*27),
	},
}

func TestParseTurnFileErrors(t *testing.T) {
	tests := turnFileErrorTests
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tf, err := notation.ParseTurnFile("turn.yaml", []byte(tt.data))
			if err == nil {
				t.Fatalf("ParseTurnFile = %+v, nil; want error %q", tf, tt.want)
			}
			var e *notation.Error
			if !errors.As(err, &e) {
				t.Fatalf("ParseTurnFile error %T %v; want *notation.Error", err, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("ParseTurnFile error =\n  %s\nwant\n  %s", got, tt.want)
			}
			if tt.fr != "" {
				if got := e.Localize(notation.French); got != tt.fr {
					t.Errorf("ParseTurnFile error (fr) =\n  %s\nwant\n  %s", got, tt.fr)
				}
			}
			if tt.name != "oversize" {
				checkFilePositions(t, tt.data, err)
			}
		})
	}
}

// TestParseTurnFileNotation checks that a notation error inside a step
// points at its character in the file, whatever the scalar's style.
var turnFileNotationTests = []struct {
	name  string
	steps string
	want  string // Pretty(English)
}{
	{
		name:  "plain",
		steps: "  - plain $ e5\n",
		want:  "turn.yaml:5:11: unexpected character '$'\n    - plain $ e5\n            ^\n",
	},
	{
		name:  "single-quoted",
		steps: "  - 'plain $ e5'\n",
		want:  "turn.yaml:5:12: unexpected character '$'\n    - 'plain $ e5'\n             ^\n",
	},
	{
		name:  "single-quoted with an escaped quote",
		steps: "  - 'l''est $'\n",
		want:  "turn.yaml:5:13: unexpected character '$'\n    - 'l''est $'\n              ^\n",
	},
	{
		name:  "double-quoted",
		steps: "  - \"plain $ e5\"\n",
		want:  "turn.yaml:5:12: unexpected character '$'\n    - \"plain $ e5\"\n             ^\n",
	},
	{
		name:  "double-quoted with escapes",
		steps: "  - \"ch\\u00e2teau \\t $\"\n",
		want:  "turn.yaml:5:22: unexpected character '$'\n    - \"ch\\u00e2teau \\t $\"\n                       ^\n",
	},
	{
		name:  "double-quoted with an escaped newline",
		steps: "  - \"plain e5\\nend $\"\n",
		want:  "turn.yaml:5:20: unexpected character '$'\n    - \"plain e5\\nend $\"\n                     ^\n",
	},
	{
		name:  "block scalar",
		steps: "  - |\n    plain e5\n    end $\n",
		want:  "turn.yaml:7:9: unexpected character '$'\n      end $\n          ^\n",
	},
	{
		name:  "string after steps:",
		steps: "  end; forêt $\n",
		want:  "turn.yaml:5:14: unexpected character '$'\n    end; forêt $\n               ^\n",
	},
	{
		name:  "accented text",
		steps: "  - château forêt € e5\n",
		want:  "turn.yaml:5:19: unexpected character '€'\n    - château forêt € e5\n                    ^\n",
	},
	{
		name:  "tabs in a value",
		steps: "  - plain\t\t$\n",
		want:  "turn.yaml:5:12: unexpected character '$'\n    - plain  $\n             ^\n",
	},
	{
		name:  "every faulty line",
		steps: "  - plain $ e5 %\n  - end\n  - |\n    ok\n    € lake\n",
		want: "turn.yaml:5:11: unexpected character '$'\n    - plain $ e5 %\n            ^\n" +
			"turn.yaml:9:5: unexpected character '€'\n      € lake\n      ^\n",
	},
}

func TestParseTurnFileNotation(t *testing.T) {
	tests := turnFileNotationTests
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := head + "steps:\n" + tt.steps
			_, err := notation.ParseTurnFile("turn.yaml", []byte(data))
			var l notation.ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("ParseTurnFile error %T %v; want a notation.ErrorList", err, err)
			}
			if got := l.Pretty(notation.English); got != tt.want {
				t.Errorf("error =\n%s\nwant\n%s", got, tt.want)
			}
			checkFilePositions(t, data, err)
		})
	}
}

// checkFilePositions checks that err is a *notation.Error or a
// notation.ErrorList of them, each at a position within data, quoting the
// line it points at.
func checkFilePositions(t testing.TB, data string, err error) {
	t.Helper()
	var list notation.ErrorList
	var one *notation.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = notation.ErrorList{one}
	default:
		t.Fatalf("error %T %v: want *notation.Error or notation.ErrorList", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("error %v: an empty list", err)
	}
	lines := yamlLines(data)
	for _, e := range list {
		if e.Pos.Line < 1 || e.Pos.Line > len(lines) {
			t.Fatalf("error %q: line %d outside 1..%d", e, e.Pos.Line, len(lines))
		}
		line := lines[e.Pos.Line-1]
		if n := len([]rune(line)); e.Pos.Col < 1 || e.Pos.Col > n+1 {
			t.Fatalf("error %q: column %d outside line %d %q (1..%d)", e, e.Pos.Col, e.Pos.Line, line, n+1)
		}
		if e.Source != line {
			t.Fatalf("error %q: Source %q, want line %d %q", e, e.Source, e.Pos.Line, line)
		}
	}
}
