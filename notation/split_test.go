package notation_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

// dumpSteps renders steps one per line, as
// `1:1 "plain castle e5" [word plain 1:1, word castle 1:7, word e5 1:14]`.
func dumpSteps(steps []*notation.Step) string {
	var b strings.Builder
	for _, st := range steps {
		toks := make([]string, len(st.Tokens))
		for i, t := range st.Tokens {
			toks[i] = fmt.Sprintf("%v %s %v", t.Kind, t.Text, t.Pos)
		}
		fmt.Fprintf(&b, "%v %q [%s]\n", st.Pos, st.Text, strings.Join(toks, ", "))
	}
	return b.String()
}

var splitTests = []struct {
	name  string
	src   string
	steps string // dumpSteps of the steps
	errs  string // the ErrorList, one error per line
}{
	{
		name:  "one step",
		src:   "plain castle e5",
		steps: `1:1 "plain castle e5" [word plain 1:1, word castle 1:7, word e5 1:14]` + "\n",
	},
	{
		name: "steps by newline",
		src:  "plain castle e5\nknights east 1 2 1\nend\n",
		steps: `1:1 "plain castle e5" [word plain 1:1, word castle 1:7, word e5 1:14]
2:1 "knights east 1 2 1" [word knights 2:1, word east 2:9, number 1 2:14, number 2 2:16, number 1 2:18]
3:1 "end" [word end 3:1]
`,
	},
	{
		name: "steps by semicolon",
		src:  "a; b ;c;;  d  ",
		steps: `1:1 "a" [word a 1:1]
1:4 "b" [word b 1:4]
1:7 "c" [word c 1:7]
1:12 "d" [word d 1:12]
`,
	},
	{
		name: "comments",
		src:  "# my turn\nplain castle e5 # the best square; no doubt\n  # indented comment\nend#done",
		steps: `2:1 "plain castle e5" [word plain 2:1, word castle 2:7, word e5 2:14]
4:1 "end" [word end 4:1]
`,
	},
	{
		name: "crlf",
		src:  "plain e5\r\nend\r\n",
		steps: `1:1 "plain e5" [word plain 1:1, word e5 1:7]
2:1 "end" [word end 2:1]
`,
	},
	{
		name:  "lone carriage return is a blank",
		src:   "a\rb\r",
		steps: `1:1 "a\rb" [word a 1:1, word b 1:3]` + "\n",
	},
	{
		name:  "byte order mark",
		src:   "\ufeffplain e5",
		steps: `1:1 "plain e5" [word plain 1:1, word e5 1:7]` + "\n",
	},
	{
		name: "columns count runes",
		src:  "forêt château e5; fin\nÉtang à côté ; lac",
		steps: `1:1 "forêt château e5" [word forêt 1:1, word château 1:7, word e5 1:15]
1:19 "fin" [word fin 1:19]
2:1 "Étang à côté" [word Étang 2:1, word à 2:7, word côté 2:9]
2:16 "lac" [word lac 2:16]
`,
	},
	{
		name:  "tabs are one column",
		src:   "\tplain\t\te5",
		steps: `1:2 "plain\t\te5" [word plain 1:2, word e5 1:9]` + "\n",
	},
	{
		name:  "token kinds",
		src:   "knights east 1, 2 (3) +*/.=:",
		steps: `1:1 "knights east 1, 2 (3) +*/.=:" [word knights 1:1, word east 1:9, number 1 1:14, punctuation , 1:15, number 2 1:17, punctuation ( 1:19, number 3 1:20, punctuation ) 1:21, punctuation + 1:23, punctuation * 1:24, punctuation / 1:25, punctuation . 1:26, punctuation = 1:27, punctuation : 1:28]` + "\n",
	},
	{
		name:  "a bar between two squares, for an edge",
		src:   "border e5|e6",
		steps: `1:1 "border e5|e6" [word border 1:1, word e5 1:8, punctuation | 1:10, word e6 1:11]` + "\n",
	},
	{
		name:  "digits and letters make a word",
		src:   "e5 5e 007",
		steps: `1:1 "e5 5e 007" [word e5 1:1, word 5e 1:4, number 007 1:7]` + "\n",
	},
	{
		name:  "quotes",
		src:   `« plaine » "x" 'y'`,
		steps: `1:1 "« plaine » \"x\" 'y'" [punctuation « 1:1, word plaine 1:3, punctuation » 1:10, punctuation " 1:12, word x 1:13, punctuation " 1:14, punctuation ' 1:16, word y 1:17, punctuation ' 1:18]` + "\n",
	},
	{
		name:  "joiners between letters",
		src:   "chateau-fort château-fort aujourd'hui l’est",
		steps: `1:1 "chateau-fort château-fort aujourd'hui l’est" [word chateau-fort 1:1, word château-fort 1:14, word aujourd'hui 1:27, word l’est 1:39]` + "\n",
	},
	{
		name:  "joiners in addresses",
		src:   "alice@x.org bob_smith+games@mail.example.com",
		steps: `1:1 "alice@x.org bob_smith+games@mail.example.com" [word alice@x.org 1:1, word bob_smith+games@mail.example.com 1:13]` + "\n",
	},
	{
		name:  "hyphen between digits is punctuation",
		src:   "1-2-1",
		steps: `1:1 "1-2-1" [number 1 1:1, punctuation - 1:2, number 2 1:3, punctuation - 1:4, number 1 1:5]` + "\n",
	},
	{
		name:  "hyphen between a digit and a letter is punctuation",
		src:   "e5-f6",
		steps: `1:1 "e5-f6" [word e5 1:1, punctuation - 1:3, word f6 1:4]` + "\n",
	},
	{
		name:  "joiner at an edge is punctuation",
		src:   "-fort chateau- x. .y",
		steps: `1:1 "-fort chateau- x. .y" [punctuation - 1:1, word fort 1:2, word chateau 1:7, punctuation - 1:14, word x 1:16, punctuation . 1:17, punctuation . 1:19, word y 1:20]` + "\n",
	},
	{
		// Marks of a list around steps (found by hand over real mail:
		// "- keep plain village" was "unknown step -").
		name: "list marks",
		src:  "- keep plain village\n* take 2\n1) KEEP plain\n2. end\nKeep: plain village\n-\n1)\nplay A: 2\n3 . 4",
		steps: `1:3 "keep plain village" [word keep 1:3, word plain 1:8, word village 1:14]
2:3 "take 2" [word take 2:3, number 2 2:8]
3:4 "KEEP plain" [word KEEP 3:4, word plain 3:9]
4:4 "end" [word end 4:4]
5:1 "Keep: plain village" [word Keep 5:1, word plain 5:7, word village 5:13]
6:1 "-" [punctuation - 6:1]
7:1 "1)" [number 1 7:1, punctuation ) 7:2]
8:1 "play A: 2" [word play 8:1, word A 8:6, punctuation : 8:7, number 2 8:9]
9:1 "3 . 4" [number 3 9:1, punctuation . 9:3, number 4 9:5]
`,
	},
	{
		name: "unexpected characters once per line, all lines",
		src:  "plain $ e5 $\nend\n% forest & lake\n€",
		steps: `1:1 "plain $ e5" [word plain 1:1, word e5 1:9]
2:1 "end" [word end 2:1]
3:3 "forest & lake" [word forest 3:3, word lake 3:12]
`,
		errs: `1:7: unexpected character '$'
3:1: unexpected character '%'
4:1: unexpected character '€'`,
	},
	{
		name: "unexpected character in a comment is fine",
		src:  "end # 100% sure $$$",
		steps: `1:1 "end" [word end 1:1]
`,
	},
	{
		name: "blank input",
		src:  "  \n\t\n;;\n # nothing\n",
	},
	{
		name: "empty input",
		src:  "",
	},
}

func TestSplit(t *testing.T) {
	tests := splitTests
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps, errs := notation.Split(tt.src)
			if got := dumpSteps(steps); got != tt.steps {
				t.Errorf("Split(%q) steps =\n%s\nwant\n%s", tt.src, got, tt.steps)
			}
			if got := errs.Error(); got != tt.errs {
				t.Errorf("Split(%q) errors =\n%s\nwant\n%s", tt.src, got, tt.errs)
			}
			for _, e := range errs {
				if e.Source == "" || e.MsgFR == "" {
					t.Errorf("error %v: Source %q, MsgFR %q; want both set", e, e.Source, e.MsgFR)
				}
			}
			checkSplit(t, tt.src, steps)
		})
	}
}

// TestSplitSource checks the Source line of each step and the French
// message of an unexpected character.
func TestSplitSource(t *testing.T) {
	steps, errs := notation.Split("a; b\r\nc # d\n  $ e")
	wantSrc := []string{"a; b", "a; b", "c # d", "  $ e"}
	if len(steps) != len(wantSrc) {
		t.Fatalf("Split: %d steps, want %d", len(steps), len(wantSrc))
	}
	for i, st := range steps {
		if st.Source != wantSrc[i] {
			t.Errorf("step %d Source = %q, want %q", i+1, st.Source, wantSrc[i])
		}
		if st.Lang != notation.English {
			t.Errorf("step %d Lang = %v, want en before any scanning", i+1, st.Lang)
		}
	}
	if got, want := errs.Localize(notation.French), "3:3: caractère inattendu '$'"; got != want {
		t.Errorf("errors in French = %q, want %q", got, want)
	}
}

// checkSplit checks the invariants of Split's result against src: every
// step has tokens, every token's text is the source at its position, and a
// step's Text is its line from its first token to the end of its last.
func checkSplit(t *testing.T, src string, steps []*notation.Step) {
	t.Helper()
	src = strings.TrimPrefix(src, "\ufeff")
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for _, st := range steps {
		if len(st.Tokens) == 0 {
			t.Fatalf("step %q at %v has no tokens", st.Text, st.Pos)
		}
		if st.Pos != st.Tokens[0].Pos {
			t.Errorf("step %q at %v; its first token is at %v", st.Text, st.Pos, st.Tokens[0].Pos)
		}
		if st.Pos.Line < 1 || st.Pos.Line > len(lines) {
			t.Fatalf("step %q at %v: line out of range 1..%d", st.Text, st.Pos, len(lines))
		}
		raw := strings.TrimSuffix(lines[st.Pos.Line-1], "\r")
		if st.Source != raw {
			t.Errorf("step %q Source = %q, want %q", st.Text, st.Source, raw)
		}
		line := []rune(raw)
		for _, tok := range st.Tokens {
			if tok.Pos.Line != st.Pos.Line {
				t.Errorf("token %q at %v is not on its step's line %d", tok.Text, tok.Pos, st.Pos.Line)
				continue
			}
			n := len([]rune(tok.Text))
			if tok.Pos.Col < 1 || tok.Pos.Col-1+n > len(line) {
				t.Errorf("token %q at %v: outside its line %q", tok.Text, tok.Pos, string(line))
				continue
			}
			if got := string(line[tok.Pos.Col-1 : tok.Pos.Col-1+n]); got != tok.Text {
				t.Errorf("token %q at %v: the source there is %q", tok.Text, tok.Pos, got)
			}
			if tok.End() != (notation.Pos{Line: tok.Pos.Line, Col: tok.Pos.Col + n}) {
				t.Errorf("token %q at %v: End() = %v", tok.Text, tok.Pos, tok.End())
			}
		}
		last := st.Tokens[len(st.Tokens)-1]
		if got := string(line[st.Pos.Col-1 : last.End().Col-1]); got != st.Text {
			t.Errorf("step Text = %q, want the line's slice %q", st.Text, got)
		}
	}
}

func TestPosString(t *testing.T) {
	tests := []struct {
		pos  notation.Pos
		want string
		ok   bool
	}{
		{notation.Pos{Line: 2, Col: 9}, "2:9", true},
		{notation.Pos{Line: 1, Col: 1}, "1:1", true},
		{notation.Pos{}, "-", false},
	}
	for _, tt := range tests {
		if got := tt.pos.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.pos, got, tt.want)
		}
		if got := tt.pos.IsValid(); got != tt.ok {
			t.Errorf("%#v.IsValid() = %v, want %v", tt.pos, got, tt.ok)
		}
	}
	for k, want := range map[notation.Kind]string{notation.Word: "word", notation.Number: "number", notation.Punct: "punctuation"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
	if notation.English.String() != "en" || notation.French.String() != "fr" {
		t.Errorf("Lang strings = %q, %q; want en, fr", notation.English, notation.French)
	}
}
