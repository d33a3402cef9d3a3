package notation_test

import (
	"testing"

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
