package lowenherz97_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/notation"
)

// TestLegalRoundTrip checks, for many random states, that every step Legal
// lists prints to text that Parse reads back to the same step
// (parse(print(m)) == m), and that Apply accepts it.
func TestLegalRoundTrip(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 10
	}
	moves := 0
	kinds := map[string]bool{}
	for n := 2; n <= 4; n++ {
		for i := range seeds {
			seed := fmt.Sprintf("roundtrip-%d-%d", n, i)
			st := randomState(t, n, seed)
			if i%3 == 0 {
				if b := bidState(t, n, seed); b != nil {
					st = b
				}
			}
			for _, p := range st.ToMove() {
				for _, mv := range st.Legal(p) {
					moves++
					text := mv.String()
					kinds[strings.Fields(text)[0]] = true
					back, err := gametest.ParseOne(st, p, text)
					if err != nil {
						t.Fatalf("%s: %s's legal step %q does not parse: %v", seed, p, text, err)
					}
					if back.String() != text || strings.TrimPrefix(fmt.Sprintf("%T", mv), "*") != fmt.Sprintf("%T", back) {
						t.Fatalf("%s: %q parses to %#v, want %#v", seed, text, back, mv)
					}
					if err := st.Clone().Apply(p, back); err != nil {
						t.Fatalf("%s: %s's legal step %q, parsed back, is refused: %v\n%s", seed, p, text, err, st.Text(""))
					}
				}
			}
		}
	}
	for _, k := range []string{"castle", "choose", "offer", "accept", "refuse", "yield", "bid", "look", "take", "wall", "knight", "extend", "end"} {
		if !kinds[k] && !testing.Short() {
			t.Errorf("no legal %s step was checked", k)
		}
	}
	t.Logf("%d legal steps round-tripped", moves)
}

// TestFrenchSteps checks that French spellings read as the same steps as
// the canonical English ones.
func TestFrenchSteps(t *testing.T) {
	st := kit.NewState(t, colours[:4], "french", nil)
	pairs := [][2]string{
		{"choisis 2", "choose 2"},
		{"Choisis 2 avec renégat", "choose 2 renegade"},
		{"choisir 3 avec ALLIANCE a1 n1", "choose 3 with alliance a1 n1"},
		{"offre 4", "offer 4"},
		{"accepte", "accept"},
		{"refuse", "refuse"},
		{"cède", "yield"},
		{"mise 5 trésor 8", "bid 5 treasure 8"},
		{"mise 3 3 1", "bid 7"},
		{"mise trésor 5 2", "bid 2 treasure 5"},
		{"regarde 1", "look 1"},
		{"regarde pile 2", "look 2"},
		{"prends trésor 8", "take treasure 8"},
		{"prends parchemin 4", "take fief 4"},
		{"mur e5 f5", "wall e5 f5"},
		{"mur e5-f5", "wall f5 e5"},
		{"chevalier e5", "knight e5"},
		{"chevalier en e5 avec trésor 8", "knight e5 treasure 8"},
		{"étends e5 depuis d5", "extend e5 from d5"},
		{"etends E5", "extend e5"},
		{"renégat f5 g6", "renegade f5 g6"},
		{"romps d5 h5", "break d5 h5"},
		{"château e5 chevalier e6", "castle e5 knight e6"},
		{"fin", "end"},
	}
	for _, p := range pairs {
		fr, err := gametest.ParseOne(st, "gold", p[0])
		if err != nil {
			t.Errorf("%q: %v", p[0], err)
			continue
		}
		en, err := gametest.ParseOne(st, "gold", p[1])
		if err != nil {
			t.Errorf("%q: %v", p[1], err)
			continue
		}
		if fr.String() != en.String() {
			t.Errorf("%q reads as %q, want %q", p[0], fr, en)
		}
	}
}

// TestNotationErrors checks what a player is told for steps that cannot be
// understood: where (line:col), did-you-mean, and an example.
func TestNotationErrors(t *testing.T) {
	st := kit.NewState(t, colours[:4], "errors", nil)
	for _, tc := range []struct {
		text, pos, want string
	}{
		{"chose 2", "1:1", `did you mean "choose"`},
		{"choisis 4", "1:9", "numbered 1, 2 and 3"},
		{"choose 2 with renegad", "1:15", `did you mean "renegade"`},
		{"wall e5 p5", "1:9", "not a square"},
		{"knight", "1:8", "missing a square"},
		{"bid", "1:5", "missing the bid"},
		{"offer", "1:7", "missing the ducats offered"},
		{"look 3", "1:1", "two political piles"},
		{"take crown", "1:6", "unknown political card"},
		{"end now", "1:5", `unexpected "now"`},
	} {
		_, err := gametest.ParseOne(st, "gold", tc.text)
		var ne *notation.Error
		if !errors.As(err, &ne) {
			t.Errorf("%q: error %v, want a notation error", tc.text, err)
			continue
		}
		if got := ne.Pos.String(); got != tc.pos {
			t.Errorf("%q: at %s, want %s (%v)", tc.text, got, tc.pos, ne)
		}
		if !strings.Contains(ne.Error(), tc.want) {
			t.Errorf("%q: %q, want it to say %q", tc.text, ne.Error(), tc.want)
		}
		if ne.MsgFR == "" {
			t.Errorf("%q: no French message", tc.text)
		}
	}
}

// TestParseRefusalsCiteRule: the steps that read well but break a rule
// are refused as rule errors, at the fault, citing it: a political card
// offered (l. 209), one laid with a decision card that is not played so,
// an alliance's regions under option alliance=action (RULINGS.md L97-11),
// one bid that is no treasure (l. 214), one paying a cost (RULINGS.md
// L97-3).
func TestParseRefusalsCiteRule(t *testing.T) {
	st := kit.NewState(t, colours[:4], "errors", nil)
	bare := kit.NewState(t, colours[:4], "errors", map[string]string{"alliance": "action"})
	for _, tc := range []struct {
		st                    adjudicator.State
		text, pos, want, rule string
	}{
		{st, "choose 2 with fief", "1:15", "a fief is not played with a decision card", "RULINGS.md L97-11"},
		{st, "choisis 2 avec trésor", "1:16", "a treasure is not played with a decision card", "RULINGS.md L97-11"},
		{bare, "choose 2 with alliance d5 h5", "1:24", "keeps the earlier rule for alliances", "RULINGS.md L97-11"},
		{st, "offer 3 treasure 8", "1:9", "political cards cannot be negotiated", "lowenherz-1997-fr.txt:209"},
		{st, "offer alliance", "1:7", "only ducats are offered", "lowenherz-1997-fr.txt:209"},
		{st, "offre 2 et trésor 5", "1:12", "only ducats are offered", "lowenherz-1997-fr.txt:209"},
		{st, "bid 3 fief", "1:7", "only ducats and treasure cards can be bid", "lowenherz-1997-fr.txt:214"},
		{st, "knight e5 fief 3", "1:11", "only a treasure card pays a cost", "RULINGS.md L97-3"},
		{st, "romps d5 h5 avec renégat", "1:18", "only a treasure card pays a cost", "RULINGS.md L97-3"},
	} {
		_, err := gametest.ParseOne(tc.st, "gold", tc.text)
		var re *adjudicator.RuleError
		if !errors.As(err, &re) {
			t.Errorf("%q: error %v, want a rule error", tc.text, err)
			continue
		}
		if re.Rule != tc.rule || re.Pos.String() != tc.pos || !strings.Contains(re.Msg, tc.want) || re.MsgFR == "" {
			t.Errorf("%q: %s at %s (French %q), want %q citing %s at %s", tc.text, re, re.Pos, re.MsgFR, tc.want, tc.rule, tc.pos)
		}
	}
}

// TestWallApartCitesRule: a wall between squares that are not side by
// side is refused citing « Des murs de frontière doivent toujours être
// placés sur la ligne entre deux cases » (l. 140), like every other
// refusal, at the second square (issue 32, item 5).
func TestWallApartCitesRule(t *testing.T) {
	st := kit.NewState(t, colours[:4], "errors", nil)
	for _, text := range []string{"wall e5 g5", "wall c1 a1"} {
		_, err := gametest.ParseOne(st, "gold", text)
		var re *adjudicator.RuleError
		if !errors.As(err, &re) || re.Rule != "lowenherz-1997-fr.txt:140" || re.Pos.String() != "1:9" || !strings.Contains(re.Msg, "not side by side") || re.MsgFR == "" {
			t.Errorf("%q: error %#v, want the rule of l. 140 at 1:9", text, err)
		}
	}
}

// TestSubmitCaret checks the error of a submission through a Match: the
// failing step, a caret under the fault, in French for a French mail, with
// the rule cited; nothing is recorded.
func TestSubmitCaret(t *testing.T) {
	rec, err := adjudicator.NewRecord(lowenherz97.Game, []string{"gold", "purple", "rose"}, nil, "caret", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Submit("gold", "choisis 2\nchoisis 2", "", "test")
	var se *adjudicator.StepError
	if !errors.As(err, &se) || se.Index != 2 {
		t.Fatalf("error %v, want step 2", err)
	}
	pretty := se.Pretty(notation.French)
	if !strings.Contains(pretty, "choisis 2\n  ^") || !strings.Contains(pretty, "[règle : lowenherz-1997-fr.txt:118]") ||
		!strings.Contains(pretty, "vous avez déjà posé la carte de décision 2") {
		t.Errorf("Pretty in French:\n%s", pretty)
	}
	if len(m.Record.Moves) != 0 {
		t.Errorf("refused submissions were recorded: %v", m.Record.Moves)
	}
}

// TestTakenSaysByWhat checks that a square refused as taken names the
// piece on it (l. 296-297), in English and in French.
func TestTakenSaysByWhat(t *testing.T) {
	rec, err := adjudicator.NewRecord(lowenherz97.Game, []string{"gold", "purple"}, nil, "placement", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Submit("gold", "castle a1 knight a2", "", "test"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ steps, en, fr string }{
		{"château a1 chevalier b2", "a1 is taken by gold's castle", "a1 est occupée par le château de gold"},
		{"castle b2 knight a2", "a2 is taken by gold's knight", "a2 est occupée par le chevalier de gold"},
	} {
		_, err := m.Submit("purple", c.steps, "", "test")
		var se *adjudicator.StepError
		if !errors.As(err, &se) {
			t.Fatalf("%s: error %v, want a step refused", c.steps, err)
		}
		if en, fr := se.Pretty(notation.English), se.Pretty(notation.French); !strings.Contains(en, c.en) || !strings.Contains(fr, c.fr) {
			t.Errorf("%s: refused with\n%s\nand in French\n%s\nwant %q and %q", c.steps, en, fr, c.en, c.fr)
		}
	}
}
