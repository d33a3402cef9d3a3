package notation_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// FuzzSplit checks that Split never panics, that every token's text is the
// source at its position, and that a step's Text is its line's slice.
func FuzzSplit(f *testing.F) {
	for _, tt := range splitTests {
		f.Add(tt.src)
	}
	for _, tt := range turnFileTests {
		f.Add(tt.data)
	}
	f.Add("a\r\r\nb\u2028c\xffd-\xff")
	f.Add("a\xffb") // as many runes as bytes, yet not ASCII: the step's text holds U+FFFD
	f.Fuzz(func(t *testing.T, src string) {
		steps, errs := notation.Split(src)
		checkSplit(t, src, steps)
		line := 0
		for _, e := range errs {
			if e.Pos.Line <= line {
				t.Errorf("error %q: line %d after line %d: want one error per line, in order", e, e.Pos.Line, line)
			}
			line = e.Pos.Line
			if n := len([]rune(e.Source)); e.Pos.Col < 1 || e.Pos.Col > n {
				t.Errorf("error %q: column outside its line %q", e, e.Source)
			}
		}
	})
}

// FuzzTurnFile checks that ParseTurnFile never panics and that every error
// is a *notation.Error or a notation.ErrorList pointing into the file, and
// that the steps of a file it accepts point into the file too.
func FuzzTurnFile(f *testing.F) {
	for _, tt := range turnFileTests {
		f.Add([]byte(tt.data))
	}
	for _, tt := range turnFileErrorTests {
		if len(tt.data) <= notation.MaxTurnFile {
			f.Add([]byte(tt.data))
		}
	}
	for _, tt := range turnFileNotationTests {
		f.Add([]byte(head + "steps:\n" + tt.steps))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := notation.ParseTurnFile("turn.yaml", data)
		if len(data) > notation.MaxTurnFile {
			if err == nil {
				t.Fatalf("ParseTurnFile accepted %d bytes", len(data))
			}
			return
		}
		if err != nil {
			checkFilePositions(t, string(data), err)
			return
		}
		if tf.Game == "" || tf.Player == "" || tf.Move < 1 || len(tf.Steps) == 0 {
			t.Fatalf("ParseTurnFile = %+v: want game, player, move >= 1 and steps", tf)
		}
		lines := yamlLines(string(data))
		valid := func(p notation.Pos) bool {
			return p.Line >= 1 && p.Line <= len(lines) && p.Col >= 1 && p.Col <= len([]rune(lines[p.Line-1]))+1
		}
		for _, st := range tf.Steps {
			if !valid(st.Pos) || st.Source != lines[st.Pos.Line-1] {
				t.Fatalf("step %q at %v, Source %q: not a position in the file", st.Text, st.Pos, st.Source)
			}
			for _, tok := range st.Tokens {
				if !valid(tok.Pos) {
					t.Fatalf("token %q at %v: not a position in the file", tok.Text, tok.Pos)
				}
			}
		}
	})
}

// FuzzEnvelope checks that ParseEnvelope and IgnoreProse never panic, that
// the lines IgnoreProse drops are whole lines of the body holding no step
// left, and that it drops none between two steps left.
func FuzzEnvelope(f *testing.F) {
	for _, s := range []string{"Hi herald,\nkey 5f0c\nplain castle e5\nThanks!", "Key: K\nplian castle\n— ok", "clé : 1\nfin\nBonne fin de journée", "e5\n\nx\ny;z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		env := notation.ParseEnvelope(body)
		ignored := env.IgnoreProse(raubritter.Game.Keywords)
		first, last := 1<<30, -1
		for _, st := range env.Steps {
			first, last = min(first, st.Pos.Line), max(last, st.Pos.Line)
		}
		for _, l := range ignored {
			if l.Line > first && l.Line < last {
				t.Errorf("line %d %q ignored between steps of lines %d and %d", l.Line, l.Text, first, last)
			}
			for _, st := range env.Steps {
				if st.Pos.Line == l.Line {
					t.Errorf("line %d ignored but a step on it is kept", l.Line)
				}
			}
		}
	})
}

// FuzzStepIn: writing a text in French changes its words alone, each to a
// word: what is between them, and how many there are, stay; in English
// nothing changes.
func FuzzStepIn(f *testing.F) {
	v := notation.Vocabulary{
		{Name: "plain", FR: []string{"plaine"}}, {Name: "castle", FR: []string{"château"}}, {Name: "end", FR: []string{"fin"}},
		{Name: "north", FR: []string{"nord-ouest"}},
	}
	for _, s := range []string{"plain castle f5", "knights north 1 2", "end", "plain-castle;end", "é castle\tplain\n", "\xff plain"} {
		f.Add(s)
	}
	notWord := func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }
	f.Fuzz(func(t *testing.T, s string) {
		if got := v.StepIn(s, notation.English); got != s {
			t.Fatalf("StepIn(%q, English) = %q", s, got)
		}
		fr := v.StepIn(s, notation.French)
		if a, b := strings.FieldsFunc(s, notWord), strings.FieldsFunc(fr, notWord); len(a) != len(b) {
			t.Fatalf("StepIn(%q, French) = %q: %d words, then %d", s, fr, len(a), len(b))
		}
		if a, b := strings.Map(keepNotWord(notWord), s), strings.Map(keepNotWord(notWord), fr); a != b {
			t.Fatalf("StepIn(%q, French) = %q: between the words %q, then %q", s, fr, a, b)
		}
	})
}

// keepNotWord maps the runes that are no part of a word to themselves,
// and drops the others.
func keepNotWord(notWord func(rune) bool) func(rune) rune {
	return func(r rune) rune {
		if notWord(r) {
			return r
		}
		return -1
	}
}
