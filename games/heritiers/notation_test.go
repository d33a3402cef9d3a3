package heritiers

import (
	"errors"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// notationPos is the position the notation tests read steps in: alice
// holds an auberge and two tours de guet.
const notationPos = `
turn: alice
sets: [voyage, agriculture, patrouille]
reserve: [mine-1, moulin-1, étable-1, forge-1, chalet-1, marché-1]
board:
  m13: boulangerie-1 open / alice* bob*
  l13: campement-1 alice / alice
players:
  alice:
    hand: [auberge-1, guet-1, guet-2]
`

// TestNotation reads steps in English and French, with every accepted
// spelling, and checks their canonical form (DESIGN.md "Notation").
func TestNotation(t *testing.T) {
	st := mustLoad(t, []string{"alice", "bob"}, notationPos)
	cases := []struct{ in, want string }{
		{"take 2", "take 2"},
		{"prendre 2", "take 2"},
		{"Prends 3", "take 3"},
		{"TAKE place 1", "take 1"},
		{"build auberge m12 pay 1 l13", "build auberge-1 m12 pay 1 l13"},
		{"construire Auberge en m12 payer l13, 1", "build auberge-1 m12 pay 1 l13"},
		{"build inn m12 pay 2 and l13", "build auberge-1 m12 pay 2 l13"},
		{"build auberge m12 pay nothing", "build auberge-1 m12 pay nothing"},
		{"construire auberge m12 payer rien", "build auberge-1 m12 pay nothing"},
		{"build auberge-1 m12 pay l13 l13 3", "build auberge-1 m12 pay 3 l13 l13"},
		{"build tour de guet 2 m12 pay 1", "build guet-2 m12 pay 1"},
		{"construire tour-de-guet-1 m12 payer 1", "build guet-1 m12 pay 1"},
		{"build watchtower 1 l12 pay 1", "build guet-1 l12 pay 1"},
		{"open guet-2 l12", "open guet-2 l12"},
		{"ouvrir guet 2 en l12", "open guet-2 l12"},
		{"open auberge l12", "open auberge-1 l12"},
		{"move m13 n12", "move m13 n12"},
		{"move troop m13 to n12", "move m13 n12"},
		{"déplacer troupe m13 vers n12", "move m13 n12"},
		{"deploy l12", "deploy l12"},
		{"déployer l12", "deploy l12"},
		{"withdraw l13", "withdraw l13"},
		{"retirer la troupe l13", "withdraw l13"},
		{"camp l13", "camp l13"},
		{"camper campement l13", "camp l13"},
		{"utiliser campement en l13", "camp l13"},
		{"destroy l11", "destroy l11"},
		{"détruire l11", "destroy l11"},
		{"end", "end"},
		{"fin", "end"},
		{"Done", "end"},
	}
	for _, c := range cases {
		mv, err := parseStep(st, "alice", c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if mv.String() != c.want {
			t.Errorf("%q = %q, want %q", c.in, mv.String(), c.want)
		}
		back, err := parseStep(st, "alice", mv.String())
		if err != nil || back.String() != mv.String() {
			t.Errorf("%q printed as %q reads back as %v, %v", c.in, mv, back, err)
		}
	}
}

// TestNotationErrors checks what a player is told for a step herald cannot
// read: where (line:col), what would be right, in their language.
func TestNotationErrors(t *testing.T) {
	st := mustLoad(t, []string{"alice", "bob"}, notationPos)
	cases := []struct{ in, want string }{
		{"tkae 2", `1:1: unknown step "tkae"; did you mean "take"?`},
		{"prednre 2", `1:1: étape inconnue « prednre » ; vouliez-vous dire « prendre » ?`},
		{"build aubrege m12", `1:7: unknown building "aubrege"; did you mean "auberge"?`},
		{"construire aubrege m12", `1:12: bâtiment inconnu « aubrege » ; vouliez-vous dire « auberge » ?`},
		{"build guet m12 pay 1", `1:7: your hand holds guet-1 and guet-2: say which`},
		{"construire guet m12", `1:12: votre main contient guet-1 et guet-2 : précisez laquelle`},
		{"build guet-9 m12", `1:12: there is no guet-9; the guet tiles are guet-1 to guet-6`},
		{"build étable-2 m12", `1:14: there is no étable-2; the only étable tile is étable-1`},
		{"construire étable-2 m12", `1:19: il n'y a pas d'étable-2 ; la seule tuile étable est étable-1`},
		{"construire guet-9 m12", `1:17: il n'y a pas de guet-9 ; les tuiles guet vont de guet-1 à guet-6`},
		{"build auberge z12", `1:15: "z12" is not a square: off the board: squares run from a1 to y25`},
		{"build auberge m12 pay z9", `1:23: "z9" is neither a place of the royal reserve (1 to 6) nor a square`},
		{"build auberge m12 pay 7", `1:23: the royal reserve has places 1 to 6 from the shield, not 7`},
		{"build auberge m12 with", `1:24: missing what pays`},
		{"build auberge m12 l13", `1:19: unknown word "l13"`},
		{"take", `1:6: missing the place of the tile in the royal reserve`},
		{"take 9", `1:6: the royal reserve has places 1 to 6 from the shield, not 9`},
		{"move m13", `1:10: missing the square`},
		{"auberge m12", `1:1: say what to do with the tile: build or open`},
		{"end now", `1:5: unexpected "now" at the end of the step`},
	}
	for _, c := range cases {
		_, err := parseStep(st, "alice", c.in)
		var ne *notation.Error
		if !errors.As(err, &ne) {
			t.Errorf("%q: %v, want a notation error", c.in, err)
			continue
		}
		lang := notation.English
		if strings.Contains(c.want, "«") || strings.Contains(c.want, "votre") || strings.Contains(c.want, "il n'y a") {
			lang = notation.French
		}
		if got := ne.Localize(lang); !strings.Contains(got, c.want) {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
	// The form for people: the line, and a caret under the fault.
	_, err := parseStep(st, "alice", "build aubrege m12")
	var ne *notation.Error
	errors.As(err, &ne)
	pretty := ne.Pretty(notation.English)
	if !strings.Contains(pretty, "  build aubrege m12\n        ^") {
		t.Errorf("pretty:\n%s", pretty)
	}
}

// TestRuleErrors checks what a player is told for a step herald reads but
// the rules refuse, in English and French, with the rule cited.
func TestRuleErrors(t *testing.T) {
	cases := []struct{ steps, en, fr, rule string }{
		{"take 4", "place 4 is out of your reach: you reach 2 tiles", "la place 4 est hors de votre portée", ruleReach},
		{"take 1; take 2", "you already took a tile this turn", "vous avez déjà pris une tuile ce tour-ci", ruleOnce},
		{"end", "take a tile before ending your turn: it is mandatory", "prenez une tuile avant de finir votre tour", ruleTake},
		{"build auberge m12 pay 1 2", "the auberge-1 costs 2 stone 1 grain; this pays 1 stone 1 grain", "la tuile auberge-1 coûte", rulePay},
		{"build auberge a1 pay 1 2 l13", "a1 does not touch, edge or corner, a tile with one of your troops", "a1 ne touche pas", ruleBuild},
		{"build auberge l13 pay 1", "l13 already holds a tile", "l13 porte déjà une tuile", ruleBuild},
		{"build forge m12", "you have no forge in your hand", "vous n'avez pas de forge en main", rulePlayHand},
		{"open guet-1 m12; take 1; take 2", "you already took", "vous avez déjà pris", ruleOnce},
		{"move m13 l13", "l13 already holds a troop; one troop per tile", "l13 porte déjà une troupe", ruleOneTroop},
		{"move m13 o13", "o13 is not next to m13", "o13 n'est pas voisine de m13", ruleMove},
		{"move m13 m12", "there is no tile on m12", "il n'y a pas de tuile en m12", ruleMove},
		{"move l13 k13; move k13 l13", "the troop on k13 already moved this turn", "la troupe en k13 s'est déjà déplacée", ruleOnce},
		{"withdraw m13", "your cavalry on m13 never leaves the landscape", "votre cavalerie en m13 ne quitte jamais", ruleWithdraw},
		{"withdraw l13; deploy l13; deploy l12", "was withdrawn this turn", "y a été retirée ce tour-ci", ruleOnce},
		{"camp l13", "a Campement is used after taking this turn's tile", "un Campement s'utilise après avoir pris", ruleCampement},
		{"destroy l13", "no building on l13 may be destroyed now", "aucun bâtiment en l13 ne peut être détruit", ruleSiege},
	}
	for _, c := range cases {
		doc := strings.Replace(notationPos, "hand: [auberge-1, guet-1, guet-2]", "hand: [auberge-1, guet-1]", 1)
		st := mustLoad(t, []string{"alice", "bob"}, doc+"    reserve: 1\n")
		st.cells[12*frameW+10] = cell{tile: 30, open: true, owner: -1, treasure: -1} // k13, so that troops may go there
		st.noteTile(12*frameW + 10)
		err := try(st, "alice", c.steps)
		var re *adjudicator.RuleError
		if !errors.As(err, &re) {
			t.Errorf("%q: %v, want a rule error", c.steps, err)
			continue
		}
		if !strings.Contains(re.Msg, c.en) || !strings.Contains(re.MsgFR, c.fr) || re.Rule != c.rule {
			t.Errorf("%q:\n got %s | %s | %s\nwant %s | %s | %s", c.steps, re.Msg, re.MsgFR, re.Rule, c.en, c.fr, c.rule)
		}
	}
}
