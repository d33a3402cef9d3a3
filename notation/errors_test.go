package notation_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

func TestErrorLocalize(t *testing.T) {
	tests := []struct {
		name   string
		err    *notation.Error
		en, fr string
	}{
		{
			name: "message only",
			err:  &notation.Error{Msg: "the game is over", MsgFR: "la partie est terminée"},
			en:   "the game is over",
			fr:   "la partie est terminée",
		},
		{
			name: "no french falls back to english",
			err:  &notation.Error{Pos: notation.Pos{Line: 1, Col: 4}, Msg: "bad"},
			en:   "1:4: bad",
			fr:   "1:4: bad",
		},
		{
			name: "one suggestion",
			err: &notation.Error{Pos: notation.Pos{Line: 2, Col: 7}, Msg: `unknown terrain "forrest"`,
				MsgFR: "terrain inconnu « forrest »", Suggest: []string{"forest"}},
			en: `2:7: unknown terrain "forrest"; did you mean "forest"?`,
			fr: "2:7: terrain inconnu « forrest » ; vouliez-vous dire « forest » ?",
		},
		{
			name: "two suggestions",
			err: &notation.Error{Pos: notation.Pos{Line: 1, Col: 1}, Msg: `unknown word "lak"`,
				MsgFR: "mot inconnu « lak »", Suggest: []string{"lake", "lac"}},
			en: `1:1: unknown word "lak"; did you mean "lake" or "lac"?`,
			fr: "1:1: mot inconnu « lak » ; vouliez-vous dire « lake » ou « lac » ?",
		},
		{
			name: "three suggestions",
			err:  &notation.Error{Pos: notation.Pos{Line: 1, Col: 1}, Msg: "x", Suggest: []string{"a", "b", "c"}},
			en:   `1:1: x; did you mean "a", "b" or "c"?`,
			fr:   "1:1: x ; vouliez-vous dire « a », « b » ou « c » ?",
		},
		{
			name: "file and position",
			err:  &notation.Error{File: "turn.yaml", Pos: notation.Pos{Line: 3, Col: 5}, Msg: "bad", MsgFR: "mauvais"},
			en:   "turn.yaml:3:5: bad",
			fr:   "turn.yaml:3:5: mauvais",
		},
		{
			name: "file without position",
			err:  &notation.Error{File: "turn.yaml", Msg: "too big", MsgFR: "trop gros"},
			en:   "turn.yaml: too big",
			fr:   "turn.yaml: trop gros",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Localize(notation.English); got != tt.en {
				t.Errorf("Localize(en) = %q, want %q", got, tt.en)
			}
			if got := tt.err.Error(); got != tt.en {
				t.Errorf("Error() = %q, want %q", got, tt.en)
			}
			if got := tt.err.Localize(notation.French); got != tt.fr {
				t.Errorf("Localize(fr) = %q, want %q", got, tt.fr)
			}
		})
	}
}

func TestErrorPretty(t *testing.T) {
	tests := []struct {
		name string
		err  *notation.Error
		lang notation.Lang
		want string
	}{
		{
			name: "caret under the column",
			err: &notation.Error{Pos: notation.Pos{Line: 2, Col: 7}, Msg: `unknown terrain "forrest"`,
				Suggest: []string{"forest"}, Source: "plain forrest e5"},
			want: `2:7: unknown terrain "forrest"; did you mean "forest"?
  plain forrest e5
        ^
`,
		},
		{
			name: "control characters shown, not sent (hostile campaign)",
			err:  &notation.Error{Pos: notation.Pos{Line: 1, Col: 23}, Msg: `unknown square "z9"`, Source: "keep\x1b]0;x\a\x1b[2J\u202e\tplain z9"},
			want: "1:23: unknown square \"z9\"\n  keep\ufffd]0;x\ufffd\ufffd[2J\ufffd plain z9\n" + strings.Repeat(" ", 24) + "^\n",
		},
		{
			name: "accented text counts characters",
			err:  &notation.Error{Pos: notation.Pos{Line: 1, Col: 15}, Msg: `unknown square "z9"`, Source: "forêt château z9"},
			want: `1:15: unknown square "z9"
  forêt château z9
                ^
`,
		},
		{
			name: "tabs become one space",
			err:  &notation.Error{Pos: notation.Pos{Line: 1, Col: 9}, Msg: `unknown square "z9"`, Source: "\tplain\t\tz9"},
			want: `1:9: unknown square "z9"
   plain  z9
          ^
`,
		},
		{
			name: "french with guillemets and example",
			err: &notation.Error{Pos: notation.Pos{Line: 1, Col: 7}, Msg: `unknown terrain "forrest"`,
				MsgFR: "terrain inconnu « forrest »", Suggest: []string{"forêt", "forest"}, Source: "plain forrest e5",
				Example: "plain castle e5", ExampleFR: "plaine château e5"},
			lang: notation.French,
			want: `1:7: terrain inconnu « forrest » ; vouliez-vous dire « forêt » ou « forest » ?
  plain forrest e5
        ^
  par exemple : plaine château e5
`,
		},
		{
			name: "english example",
			err: &notation.Error{Pos: notation.Pos{Line: 1, Col: 7}, Msg: `unknown terrain "forrest"`,
				Source: "plain forrest e5", Example: "plain castle e5", ExampleFR: "plaine château e5"},
			want: `1:7: unknown terrain "forrest"
  plain forrest e5
        ^
  for example: plain castle e5
`,
		},
		{
			name: "french example falls back to english",
			err:  &notation.Error{Msg: "no steps", Example: "end"},
			lang: notation.French,
			want: "no steps\n  par exemple : end\n",
		},
		{
			name: "caret after the end of the line",
			err:  &notation.Error{Pos: notation.Pos{Line: 1, Col: 9}, Msg: "missing square", Source: "plain v"},
			want: "1:9: missing square\n  plain v\n         ^\n",
		},
		{
			name: "caret clamped to just after the line",
			err:  &notation.Error{Pos: notation.Pos{Line: 1, Col: 40}, Msg: "missing square", Source: "plain"},
			want: "1:40: missing square\n  plain\n       ^\n",
		},
		{
			name: "no source, no caret",
			err:  &notation.Error{Pos: notation.Pos{Line: 1, Col: 3}, Msg: "bad"},
			want: "1:3: bad\n",
		},
		{
			name: "no position, no caret",
			err:  &notation.Error{Msg: "bad", Source: "plain"},
			want: "bad\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Pretty(tt.lang); got != tt.want {
				t.Errorf("Pretty(%v) =\n%s\nwant\n%s", tt.lang, got, tt.want)
			}
		})
	}
}

func TestErrorList(t *testing.T) {
	_, errs := notation.Split("plain $\nend\n€ lake")
	if len(errs) != 2 {
		t.Fatalf("Split: %d errors, want 2: %v", len(errs), errs)
	}
	var err error = errs.Err()
	if err == nil {
		t.Fatal("Err() = nil for a list of two")
	}
	var l notation.ErrorList
	if !errors.As(fmt.Errorf("turn: %w", err), &l) || len(l) != 2 {
		t.Errorf("errors.As(wrapped, *ErrorList) = %v, %d errors; want true, 2", l != nil, len(l))
	}
	if got, want := errs.Error(), "1:7: unexpected character '$'\n3:1: unexpected character '€'"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := errs.Localize(notation.French), "1:7: caractère inattendu '$'\n3:1: caractère inattendu '€'"; got != want {
		t.Errorf("Localize(fr) = %q, want %q", got, want)
	}
	want := `1:7: unexpected character '$'
  plain $
        ^
3:1: unexpected character '€'
  € lake
  ^
`
	if got := errs.Pretty(notation.English); got != want {
		t.Errorf("Pretty(en) =\n%s\nwant\n%s", got, want)
	}
	if err := (notation.ErrorList{}).Err(); err != nil {
		t.Errorf("empty Err() = %v, want nil", err)
	}
	if err := notation.ErrorList(nil).Err(); err != nil {
		t.Errorf("nil Err() = %v, want nil", err)
	}
	if got := (notation.ErrorList{}).Pretty(notation.English); got != "" {
		t.Errorf("empty Pretty = %q, want empty", got)
	}
}

// TestLangNamed: the words that name a language, in any case and with or
// without accents, and a word that names none.
func TestLangNamed(t *testing.T) {
	for _, tc := range []struct {
		word string
		lang notation.Lang
		ok   bool
	}{
		{"fr", notation.French, true}, {"Français", notation.French, true}, {"FRENCH", notation.French, true}, {"francais", notation.French, true},
		{"en", notation.English, true}, {"English", notation.English, true}, {"anglais", notation.English, true},
		{"de", notation.English, false}, {"auto", notation.English, false}, {"", notation.English, false},
	} {
		if lang, ok := notation.LangNamed(tc.word); lang != tc.lang || ok != tc.ok {
			t.Errorf("LangNamed(%q) = %v, %v; want %v, %v", tc.word, lang, ok, tc.lang, tc.ok)
		}
	}
}
