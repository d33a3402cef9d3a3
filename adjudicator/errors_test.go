package adjudicator_test

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// TestRulefWords checks that Rulef gives a Words argument to each format in
// its language, and every other argument as is.
func TestRulefWords(t *testing.T) {
	tile := adjudicator.Words{EN: "plain castle", FR: "plaine château"}
	tests := []struct {
		name   string
		en, fr string
		args   []any
		wantEN string
		wantFR string
	}{
		{"one word", "no %s here", "pas de %s ici", []any{tile},
			"no plain castle here", "pas de plaine château ici"},
		{"with other arguments", "%s holds a %s tile, %d knights", "%s porte une plaquette %s, %d chevaliers", []any{"e5", tile, 3},
			"e5 holds a plain castle tile, 3 knights", "e5 porte une plaquette plaine château, 3 chevaliers"},
		{"quoted", "%q", "« %s »", []any{tile},
			`"plain castle"`, "« plaine château »"},
		{"empty French is the English", "%s", "%s", []any{adjudicator.Words{EN: "village"}},
			"village", "village"},
		{"joined", "hand: %s", "main : %s", []any{adjudicator.JoinWords([]adjudicator.Words{tile, {EN: "lake", FR: "lac"}, {EN: "village"}}, ", ")},
			"hand: plain castle, lake, village", "main : plaine château, lac, village"},
		{"joined nothing", "[%s]", "[%s]", []any{adjudicator.JoinWords(nil, ", ")},
			"[]", "[]"},
		{"no arguments", "over", "fini", nil,
			"over", "fini"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := adjudicator.Rulef("code", "", tt.en, tt.fr, tt.args...)
			if e.Msg != tt.wantEN {
				t.Errorf("Msg = %q, want %q", e.Msg, tt.wantEN)
			}
			if e.MsgFR != tt.wantFR {
				t.Errorf("MsgFR = %q, want %q", e.MsgFR, tt.wantFR)
			}
		})
	}
}

func TestWords(t *testing.T) {
	w := adjudicator.Words{EN: "north", FR: "nord"}
	if got := w.In(notation.English); got != "north" {
		t.Errorf("In(en) = %q", got)
	}
	if got := w.In(notation.French); got != "nord" {
		t.Errorf("In(fr) = %q", got)
	}
	if got := w.String(); got != "north" {
		t.Errorf("String() = %q, want the English", got)
	}
	if got := (adjudicator.Words{EN: "village"}).In(notation.French); got != "village" {
		t.Errorf("In(fr) without FR = %q, want the English", got)
	}
}

// TestOfName checks the French "of" before a player's name, elided before
// a vowel or an h, and the English name alone.
func TestOfName(t *testing.T) {
	for _, tt := range []struct{ name, fr string }{
		{"blue", "de blue"}, {"orange", "d'orange"}, {"alice", "d'alice"},
		{"henri", "d'henri"}, {"Émile", "d'Émile"}, {"yellow", "d'yellow"}, {"gold", "de gold"},
	} {
		w := adjudicator.OfName(tt.name)
		if w.EN != tt.name || w.FR != tt.fr {
			t.Errorf("OfName(%q) = %+v, want EN %q, FR %q", tt.name, w, tt.name, tt.fr)
		}
	}
}

// TestStepErrorLocalize checks the one-line forms: Go quotes in English,
// « » and a space before the colon in French, the line:column unchanged.
func TestStepErrorLocalize(t *testing.T) {
	step := &notation.Step{Text: `knights "e" 1 2`, Pos: notation.Pos{Line: 5, Col: 3}}
	tests := []struct {
		name   string
		err    error
		en, fr string
	}{
		{"rule error at the step",
			adjudicator.Rulef("gap", "raubritter-fr-scan.txt:144", "no tile on %s", "pas de plaquette en %s", "e5"),
			`step 2 "knights \"e\" 1 2": 5:3: no tile on e5 [rule: raubritter-fr-scan.txt:144]`,
			`étape 2 « knights "e" 1 2 » : 5:3: pas de plaquette en e5 [règle : raubritter-fr-scan.txt:144]`},
		{"rule error at a word",
			adjudicator.Rulef("five", "", "too many", "trop").At(notation.Pos{Line: 5, Col: 11}),
			`step 2 "knights \"e\" 1 2": 5:11: too many`,
			`étape 2 « knights "e" 1 2 » : 5:11: trop`},
		{"notation error",
			&notation.Error{Pos: notation.Pos{Line: 5, Col: 11}, Msg: `unknown direction "e"`, MsgFR: "direction inconnue « e »", Suggest: []string{"est"}},
			`step 2 "knights \"e\" 1 2": 5:11: unknown direction "e"; did you mean "est"?`,
			`étape 2 « knights "e" 1 2 » : 5:11: direction inconnue « e » ; vouliez-vous dire « est » ?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			se := &adjudicator.StepError{Index: 2, Step: step, Err: tt.err}
			if got := se.Localize(notation.English); got != tt.en {
				t.Errorf("Localize(en) =\n%s\nwant\n%s", got, tt.en)
			}
			if got := se.Error(); got != tt.en {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tt.en)
			}
			if got := se.Localize(notation.French); got != tt.fr {
				t.Errorf("Localize(fr) =\n%s\nwant\n%s", got, tt.fr)
			}
		})
	}
}
