package raubritter_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/raubritter"
	"gopkg.in/yaml.v3"
)

// The positions the illegal moves are tried in. Red lays its castle on e6:
// west of it is a lake, east a plain then blue's full forest village, south
// a town with 3 blue knights, north and beyond the town empty squares.
const (
	illegalPlay = `
turn: red
board:
  d6: lake
  f6: plain
  g6: forest village / blue blue blue blue
  d7: plain
  e7: plain town / blue blue blue
  f7: forest town
players:
  red:
    hand: [plain castle, forest castle]
    stack: [C plain village, C plain castle]
  blue:
    hand: [plain village, plain town]
`
	// Red has 3 knights left.
	illegalFew = `
turn: red
board: {f6: plain, g6: plain, f7: plain, g7: plain}
players:
  red: {knights: 3, hand: [plain castle, plain]}
  blue: {hand: [plain village, plain town]}
`
	// Red has no knights left (RB-10).
	illegalNone = `
turn: red
board: {f6: plain, g6: plain, f7: plain, g7: plain}
players:
  red: {knights: 0, hand: [plain castle, plain]}
  blue: {hand: [plain village, plain town]}
`
	// Red has 1 knight left: a forest castle, which keeps 2, takes none
	// (l. 173, RB-10).
	illegalOne = `
turn: red
board: {f6: plain, g6: plain, f7: plain, g7: plain}
players:
  red: {knights: 1, hand: [forest castle, plain]}
  blue: {hand: [plain village, plain town]}
`
	// Red has laid 3 tiles, the third a castle waiting for knights.
	illegalThird = `
turn: red
placed: 3
castle: e6
board: {e6: plain castle, f6: plain, g6: plain, f7: plain, g7: plain}
players:
  red: {hand: [plain village, plain]}
  blue: {hand: [plain village, plain town]}
`
	// Seven tiles in row 6: the area's columns are final.
	illegalWide = `
turn: red
board: {c6: plain, d6: plain, e6: plain village, f6: plain town, g6: plain castle, h6: plain village, i6: plain}
players:
  red: {hand: [plain castle, plain]}
`
	illegalSetup = `
phase: setup
players:
  red:
    hand: [plain castle, plain, plain village, forest village]
    slots: [f6, g7]
  blue:
    hand: [plain castle, plain, plain village, forest village]
    slots: [g6, f7]
`
	illegalOver = `
phase: over
board: {f6: plain castle / red, g6: plain, f7: plain, g7: plain}
`
)

const (
	rLeave    = "raubritter-fr-scan.txt:148"
	rEnough   = "raubritter-fr-scan.txt:173"
	rFour     = "raubritter-fr-scan.txt:167"
	rOnce     = "raubritter-fr-scan.txt:177"
	rArea     = "raubritter-fr-scan.txt:217" // the 2-player limit; 222 and 226 for 3 and 4 (scenarios rb13-area-*)
	rKeep     = "raubritter-fr-scan.txt:72"
	rThree    = "raubritter-fr-scan.txt:99"
	rStraight = "raubritter-fr-scan.txt:140"
)

// TestIllegal tries an illegal step of every kind: the error must be a
// *adjudicator.RuleError with the expected code and rule, Apply must leave
// the state as it was, and a submission of the same steps must fail on
// that step, as a *adjudicator.StepError, and change nothing.
func TestIllegal(t *testing.T) {
	tests := []struct {
		name   string
		pos    string
		player string
		prefix []string // legal steps before the illegal one
		step   string
		code   string
		rule   string
	}{
		// Laying tiles.
		{"first tile mandatory", illegalPlay, "red", nil, "end", "first-tile", rThree},
		{"fourth tile", illegalThird, "red", nil, "plain village e5", "three-tiles", rThree},
		{"tile not in hand", illegalPlay, "red", nil, "plain town e6", "not-in-hand", "RULINGS.md RB-5"},
		{"building not in hand", illegalPlay, "red", nil, "town e6", "not-in-hand", "RULINGS.md RB-5"},
		{"off the frame", illegalPlay, "red", nil, "plain castle m6", "off-frame", rArea},
		{"off the frame by row", illegalPlay, "red", nil, "plain castle e13", "off-frame", rArea},
		{"off every frame", illegalPlay, "red", nil, "plain castle e100", "off-frame", rArea},
		{"square taken", illegalPlay, "red", nil, "plain castle f6", "occupied", "raubritter-fr-scan.txt:95"},
		{"diagonal only", illegalPlay, "red", nil, "plain castle c5", "not-adjacent", "raubritter-fr-scan.txt:121"},
		{"far away", illegalPlay, "red", nil, "plain castle a1", "not-adjacent", "raubritter-fr-scan.txt:121"},
		{"area too wide", illegalWide, "red", nil, "plain castle j6", "area", rArea},
		{"area too wide west", illegalWide, "red", nil, "plain b6", "area", rArea},
		// Knights.
		{"knights with no castle", illegalPlay, "red", nil, "knights 1", "no-castle", rOnce},
		{"knights after the next tile", illegalPlay, "red", []string{"plain castle e6", "plain village e5"}, "knights 1", "no-castle", rOnce},
		{"knights twice", illegalPlay, "red", []string{"plain castle e6", "knights 1"}, "knights 1", "no-castle", rOnce},
		{"knights after knights 0", illegalPlay, "red", []string{"plain castle e6", "knights 0"}, "knights 2", "no-castle", rOnce},
		{"no knights left", illegalNone, "red", []string{"plain castle e6"}, "knights 1", "no-knights", "raubritter-fr-scan.txt:186"},
		{"forest castle with one knight left", illegalOne, "red", []string{"forest castle e6"}, "knights 1", "few-knights", "raubritter-fr-scan.txt:173"},
		{"forest castle with one knight left, marching", illegalOne, "red", []string{"forest castle e6"}, "knights east 1 0", "few-knights", "raubritter-fr-scan.txt:173"},
		{"more than left", illegalFew, "red", []string{"plain castle e6"}, "knights east 1 1 2", "supply", "raubritter-fr-scan.txt:134"},
		{"six knights", illegalPlay, "red", []string{"plain castle e6"}, "knights east 2 1 1 2", "five", "raubritter-fr-scan.txt:134"},
		{"five staying", illegalPlay, "red", []string{"plain castle e6"}, "knights 5", "four", rFour},
		{"over four on a stack", illegalPlay, "red", []string{"plain castle e6"}, "knights south 1 2", "four", rFour},
		{"full tile", illegalPlay, "red", []string{"plain castle e6"}, "knights east 1 1 2", "full", rFour},
		{"lake", illegalPlay, "red", []string{"plain castle e6"}, "knights west 1 1", "lake", "raubritter-fr-scan.txt:163"},
		{"gap north", illegalPlay, "red", []string{"plain castle e6"}, "knights north 1 1", "gap", "raubritter-fr-scan.txt:144"},
		{"gap past the town", illegalPlay, "red", []string{"plain castle e6"}, "knights south 1 1 1", "gap", "raubritter-fr-scan.txt:144"},
		{"nothing on the castle", illegalPlay, "red", []string{"plain castle e6"}, "knights south 0 1", "leave", rLeave},
		{"zero march", illegalPlay, "red", []string{"plain castle e6"}, "knights east 0 0", "leave", rLeave},
		{"forest castle keeps 2", illegalPlay, "red", []string{"forest castle e6"}, "knights 1", "leave", rLeave},
		{"forest castle marching", illegalPlay, "red", []string{"forest castle e6"}, "knights east 1 1", "leave", rLeave},
		{"forest needs 2", illegalPlay, "red", []string{"plain castle g7"}, "knights west 1 1", "leave", rEnough},
		{"none left on the way", illegalPlay, "red", []string{"plain castle g7"}, "knights west 1 0 1", "leave", rEnough},
		{"diagonal march", illegalPlay, "red", []string{"plain castle e6"}, "knights southeast 1 1", "straight", rStraight},
		{"diagonal in two words", illegalPlay, "red", []string{"plain castle e6"}, "knights south east 1 1", "straight", rStraight},
		{"diagonal in short", illegalPlay, "red", []string{"plain castle e6"}, "knights ne 1 1", "straight", rStraight},
		{"diagonal in French", illegalPlay, "red", []string{"plain castle e6"}, "chevaliers nord-ouest 1 1", "straight", rStraight},
		// Setup.
		{"keep the castle", illegalSetup, "red", nil, "keep plain castle", "keep-castle", rKeep},
		{"keep a castle not dealt", illegalSetup, "red", nil, "keep forest castle", "keep-missing", rKeep},
		{"keep a tile not dealt", illegalSetup, "red", nil, "keep lake", "keep-missing", rKeep},
		{"lay in setup", illegalSetup, "red", nil, "plain castle e6", "in-setup", rKeep},
		{"end in setup", illegalSetup, "blue", nil, "end", "in-setup", rKeep},
		{"knights in setup", illegalSetup, "red", nil, "knights 1", "in-setup", rKeep},
		{"marching knights in setup", illegalSetup, "red", nil, "chevaliers est 1 1", "in-setup", rKeep},
		{"keep in play", illegalPlay, "red", nil, "keep plain", "not-setup", rKeep},
		// Whose turn.
		{"not your turn", illegalPlay, "blue", nil, "plain village e5", adjudicator.CodeNotYourTurn, "raubritter-fr-scan.txt:87"},
		{"kept already", illegalSetup, "red", []string{"keep plain"}, "keep plain village", "kept", rKeep},
		{"game over", illegalOver, "red", nil, "plain e6", adjudicator.CodeGameOver, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Directly on the state.
			st := mustLoad(t, two, tc.pos)
			for _, p := range tc.prefix {
				gametest.Play(t, st, tc.player, p)
			}
			before, text := kit.PositionBytes(t, st), st.Text("")
			mv, err := gametest.ParseOne(st, tc.player, tc.step)
			if err != nil {
				t.Fatalf("%q does not parse: %v", tc.step, err)
			}
			err = st.Apply(tc.player, mv)
			checkRuleError(t, err, tc.code, tc.rule)
			if after := kit.PositionBytes(t, st); !bytes.Equal(before, after) {
				t.Errorf("Apply changed the position:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if after := st.Text(""); after != text {
				t.Errorf("Apply changed the board:\nbefore:\n%s\nafter:\n%s", text, after)
			}

			// As a submission: all or nothing, the failing step named.
			var node yaml.Node
			if err := yaml.Unmarshal([]byte(tc.pos), &node); err != nil {
				t.Fatal(err)
			}
			rec, err := adjudicator.NewRecord(raubritter.Game, two, nil, "illegal", &node)
			if err != nil {
				t.Fatal(err)
			}
			m, err := adjudicator.Start(reg, rec)
			if err != nil {
				t.Fatal(err)
			}
			start := kit.PositionBytes(t, m.State)
			_, err = m.Submit(tc.player, strings.Join(append(append([]string(nil), tc.prefix...), tc.step), "\n"), "", "test")
			var se *adjudicator.StepError
			if !errors.As(err, &se) {
				t.Fatalf("Submit: %v (%T), want a *adjudicator.StepError", err, err)
			}
			if se.Index != len(tc.prefix)+1 {
				t.Errorf("Submit failed at step %d, want %d: %v", se.Index, len(tc.prefix)+1, err)
			}
			checkRuleError(t, err, tc.code, tc.rule)
			if after := kit.PositionBytes(t, m.State); !bytes.Equal(start, after) {
				t.Errorf("a refused submission changed the position:\nbefore:\n%s\nafter:\n%s", start, after)
			}
			if len(m.Record.Moves) != 0 {
				t.Errorf("a refused submission was recorded: %v", m.Record.Moves)
			}
		})
	}
}

func checkRuleError(t *testing.T, err error, code, rule string) {
	t.Helper()
	var re *adjudicator.RuleError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T), want a *adjudicator.RuleError %s", err, err, code)
	}
	if re.Code != code || re.Rule != rule {
		t.Errorf("error %q: code %q rule %q, want code %q rule %q", err, re.Code, re.Rule, code, rule)
	}
	if re.Msg == "" || re.MsgFR == "" || re.Msg == re.MsgFR {
		t.Errorf("error %q: want an English and a French message, got %q and %q", err, re.Msg, re.MsgFR)
	}
	if rule != "" && !strings.Contains(err.Error(), "[rule: "+rule+"]") {
		t.Errorf("error %q does not cite %s", err, rule)
	}
}

// TestNotAPlayer checks that a submission from someone not in the game is
// refused as such, before anything is read.
func TestNotAPlayer(t *testing.T) {
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(illegalPlay), &node); err != nil {
		t.Fatal(err)
	}
	rec, err := adjudicator.NewRecord(raubritter.Game, []string{"red", "blue"}, nil, "x", &node)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Submit("green", "plain castle e6", "", "test")
	checkRuleError(t, err, adjudicator.CodeNotAPlayer, "")
	// The state refuses a stranger too, as not their turn.
	st := mustLoad(t, []string{"red", "blue"}, illegalPlay)
	mv, err := gametest.ParseOne(st, "green", "plain castle e6")
	if err != nil {
		t.Fatal(err)
	}
	checkRuleError(t, st.Apply("green", mv), adjudicator.CodeNotYourTurn, "raubritter-fr-scan.txt:87")
	if l := st.Legal("green"); len(l) != 0 {
		t.Errorf("Legal(green) = %v, want none", gametest.MoveStrings(l))
	}
}

// TestRuleMessages checks the whole sentence of rule errors that name
// tiles, hands or directions: the English names them as the English
// notation does, the French as the French notation does ("plaine
// château"), so that a player can copy them into their next step.
func TestRuleMessages(t *testing.T) {
	tests := []struct {
		name   string
		pos    string
		prefix []string
		step   string
		en, fr string
	}{
		{"tile not in hand", illegalPlay, nil, "plain town e6",
			"you have no plain town in your hand (your hand: plain castle, forest castle)",
			"vous n'avez pas de plaquette plaine ville en main (votre main : plaine château, forêt château)"},
		{"building not in hand", illegalPlay, nil, "ville e6",
			"you have no tile with a town in your hand (your hand: plain castle, forest castle)",
			"vous n'avez pas de plaquette avec une ville en main (votre main : plaine château, forêt château)"},
		{"square taken", illegalPlay, nil, "plain castle g6",
			"g6 already holds a forest village tile",
			"g6 porte déjà une plaquette forêt village"},
		{"forest needs 2", illegalPlay, []string{"plain castle g7"}, "knights west 1 1",
			"at least 2 knights must stay on the forest town at f7, not 1",
			"au moins 2 chevaliers doivent rester sur la plaquette forêt ville en f7, pas 1"},
		{"diagonal", illegalPlay, []string{"plain castle e6"}, "chevaliers sud est 1 1",
			"knights march in a straight line from their castle, never diagonally: north, south, east or west, not southeast",
			"les chevaliers se déplacent en ligne droite depuis leur château, jamais en diagonale : nord, sud, est ou ouest, pas sud-est"},
		{"keep the castle", illegalSetup, nil, "keep plain castle",
			"your castle stays in your hand anyway; name the other A tile you keep: plain, plain village, forest village",
			"votre château reste en main de toute façon ; nommez l'autre plaquette A gardée : plaine, plaine village, forêt village"},
		{"keep a castle not dealt", illegalSetup, nil, "garde forêt château",
			"you have no forest castle among your A tiles; choose one of: plain, plain village, forest village",
			"vous n'avez pas de forêt château parmi vos plaquettes A ; choisissez parmi : plaine, plaine village, forêt village"},
		{"keep a tile not dealt", illegalSetup, nil, "keep lake",
			"you have no lake among your A tiles; choose one of: plain, plain village, forest village",
			"vous n'avez pas de lac parmi vos plaquettes A ; choisissez parmi : plaine, plaine village, forêt village"},
		{"knights in setup", illegalSetup, nil, "knights 1",
			"the game is in its setup: keep one of your A tiles first",
			"la partie est en cours de mise en place : gardez d'abord une de vos plaquettes A"},
		{"off every frame", illegalPlay, nil, "plain castle e100",
			"e100 is off the board: with 2 players the area never exceeds 7x7 tiles, so squares run from a1 to l12",
			"e100 est hors du plateau : à 2 joueurs la surface ne dépasse jamais 7x7 plaquettes, les cases vont de a1 à l12"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var node yaml.Node
			if err := yaml.Unmarshal([]byte(tc.pos), &node); err != nil {
				t.Fatal(err)
			}
			rec, err := adjudicator.NewRecord(raubritter.Game, two, nil, "messages", &node)
			if err != nil {
				t.Fatal(err)
			}
			m, err := adjudicator.Start(reg, rec)
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Submit("red", strings.Join(append(append([]string(nil), tc.prefix...), tc.step), "\n"), "", "test")
			var re *adjudicator.RuleError
			if !errors.As(err, &re) {
				t.Fatalf("Submit = %v (%T), want a *adjudicator.RuleError", err, err)
			}
			if re.Msg != tc.en {
				t.Errorf("English:\n got %q\nwant %q", re.Msg, tc.en)
			}
			if re.MsgFR != tc.fr {
				t.Errorf("French:\n got %q\nwant %q", re.MsgFR, tc.fr)
			}
		})
	}
}
