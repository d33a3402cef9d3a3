package lowenherz

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// illegalTerrain is the board of the illegal-step table: meadow, with a
// forest on f6, a village on g6, a gold mine on h6 and the city on l12.
const illegalTerrain = `terrain:
  - ............
  - ............
  - ............
  - ............
  - ............
  - .....FVG....
  - ............
  - ............
  - ............
  - ............
  - ............
  - ...........K
`

// illegalCase is a position (on illegalTerrain, red to move, with 3 players
// red, blue and orange unless players says otherwise), steps red takes in
// order, and the code of the error the last must get.
type illegalCase struct {
	pos     string
	steps   string
	code    string
	players []string
}

// Positions for the table.
const (
	// red has a domain a1-b2 with a knight; blue a domain d1-e2 with
	// knights on d2 and e2 linked to its castle on d1; orange's castles
	// are in open land.
	twoDomains = `borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, e1|f1, e2|f2, d2|d3, e2|e3]
pieces: {a1: red castle, a2: red knight, b2: red knight, e1: blue castle, d2: blue knight, e2: blue knight, k1: orange castle, k10: orange castle, l11: red castle}
`
	// red's domain a1-b2 beside blue's c1-d2.
	allyDomains = `borders: [b1|c1, b2|c2, a2|a3, b2|b3, c2|c3, d2|d3, d1|e1, d2|e2]
pieces: {a1: red castle, c1: blue castle, l1: blue castle, a12: orange castle, k12: orange castle, l11: red castle}
`
	hand = `players:
  red: {hand: [A 1 border, B deserter, B alliance], ducats: 30}
  blue: {hand: [A 1 border]}
deck: [A 3 borders]
market: [A 1 knight]
`
)

func TestIllegalTable(t *testing.T) {
	setup := "phase: setup\npieces: {a1: red castle, b1: red knight, l1: blue castle, k1: blue knight, a12: orange castle, b12: orange knight}\nplayers: {red: {hand: [A 1 border]}}\n"
	open := "pieces: {a1: red castle, b1: red knight, l1: blue castle, a12: orange castle}\n"
	cards := func(c string) string {
		return "players:\n  red: {hand: [" + c + "], ducats: 30}\n  blue: {hand: [A 1 border]}\ndeck: [A 3 borders]\nmarket: [A 1 knight]\n"
	}
	for _, tc := range []illegalCase{
		// Setup.
		{pos: setup, steps: "play A 1 border", code: "in-setup"},
		{pos: setup, steps: "castle h6 knight h5", code: "castle-meadow"},
		{pos: setup, steps: "castle l1 knight l2", code: "occupied"},
		{pos: setup, steps: "castle c3 knight c4", code: "castle-distance"},
		{pos: setup, steps: "castle h1 knight h3", code: "knight-beside"},
		{pos: setup, steps: "castle h5 knight h6", code: "knight-land"},
		{pos: open + cards("A 1 border"), steps: "castle h1 knight h2", code: "not-setup"},
		// The card.
		{pos: open + cards("A 1 border, A 2 borders"), steps: "sell A 1 border; sell A 2 borders", code: "one-card"},
		{pos: open + cards("A 1 border"), steps: "sell A 2 borders", code: "not-in-hand"},
		{pos: open + cards("A 1 border"), steps: "play A 1 border as knights", code: "no-such-action"},
		{pos: open + "players: {red: {hand: [A 1 border], ducats: 0}}\n", steps: "play A 1 border", code: "cost"},
		{pos: "borders: [a1|b1, a1|a2]\npieces: {a1: red castle, l1: blue castle, a12: orange castle}\n" + cards("A 1 knight"), steps: "play A 1 knight", code: "cannot-knight"},
		{pos: "pieces: {a1: red castle, l1: blue castle, a12: orange castle, a3: red knight, b3: red knight, c3: red knight, d3: red knight, e3: red knight, f3: red knight, g3: red knight, h3: red knight, i3: red knight, j3: red knight, k3: red knight, l3: red knight, a4: red knight, b4: red knight, c4: red knight}\n" + cards("A 1 knight"), steps: "play A 1 knight", code: "no-knights"},
		{pos: open + cards("B extension"), steps: "play B extension", code: "cannot-extend"},
		{pos: open + cards("B deserter"), steps: "play B deserter", code: "cannot-desert"},
		{pos: open + cards("B alliance"), steps: "play B alliance", code: "cannot-ally"},
		{pos: open + cards("A 1 border"), steps: "border e5|e6", code: "play-first"},
		{pos: open + cards("A 1 border"), steps: "sell A 1 border; border e5|e6", code: "action-over"},
		{pos: open + cards("A 1 border"), steps: "play A 1 border; knight c1", code: "wrong-action"},
		{pos: open + cards("A 1 knight"), steps: "draw", code: "card-first"},
		{pos: open + cards("A 1 knight"), steps: "play A 1 knight; draw", code: "carry-out"},
		// Borders.
		{pos: open + cards("A 2 borders"), steps: "play A 2 borders; border e5|e6; border e6|e5", code: "border-there"},
		{pos: open + cards("A 2 borders"), steps: "play A 2 borders; border a1|b1", code: "border-same"},
		{pos: twoDomains + cards("A 2 borders"), steps: "play A 2 borders; border a1|b1", code: "border-domain"},
		// Knights.
		{pos: open + cards("A 1 knight"), steps: "play A 1 knight; knight e5", code: "knight-next"},
		{pos: open + cards("A 1 knight"), steps: "play A 1 knight; knight a1", code: "occupied"},
		{pos: "pieces: {g5: red castle, l1: blue castle, a12: orange castle}\n" + cards("A 1 knight"), steps: "play A 1 knight; knight g6", code: "knight-land"},
		{pos: "pieces: {f5: red castle, l1: blue castle, a12: orange castle}\nplayers: {red: {hand: [A 1 knight], ducats: 2}}\ndeck: [A 3 borders]\n", steps: "play A 1 knight; knight f6", code: "forest-cost"},
		// Extension.
		{pos: twoDomains + cards("B extension"), steps: "play B extension; extend c1 domain d1", code: "not-your-domain"},
		{pos: twoDomains + cards("B extension"), steps: "play B extension; extend b1", code: "already-yours"},
		{pos: twoDomains + cards("B extension"), steps: "play B extension; extend h8", code: "extend-adjacent"},
		{pos: twoDomains + cards("B extension"), steps: "play B extension; extend c1 d1", code: "extend-knights"},
		{pos: twoDomains + cards("B extension"), steps: "play B extension; extend c1 c2 c3", code: "extend-two"},
		{pos: twoDomains + cards("B extension"), steps: "play B extension; extend c1; extend c2 domain l11", code: "one-domain"},
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3]\npieces: {a1: red castle, c1: blue knight, l1: blue castle, a12: orange castle}\n" + cards("B extension"), steps: "play B extension; extend c1", code: "extend-piece"},
		// Deserter: red's domain a1-b2 beside blue's d1-e2 only through c.
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, c2|c3, d2|d3]\npieces: {a1: red castle, a2: red knight, c1: blue castle, c2: blue knight, l1: blue castle, a12: orange castle, k12: orange castle}\n" + hand,
			steps: "play B deserter; deserter c1 b1", code: "deserter-from"},
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, c2|c3, d2|d3]\npieces: {a1: red castle, a2: red knight, c1: blue castle, c2: blue knight, l5: blue knight, l1: blue castle, a12: orange castle, k12: orange castle}\n" + hand,
			steps: "play B deserter; deserter l5 b1", code: "deserter-domain"},
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, c2|c3, d2|d3]\npieces: {a1: red castle, a2: red knight, c1: blue castle, c2: blue knight, l1: blue castle, a12: orange castle, k12: orange castle}\n" + hand,
			steps: "play B deserter; deserter c2 h8", code: "deserter-to"},
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, c2|c3, d2|d3, h1|i1, h2|i2, i2|i3, j2|j3, j1|k1, j2|k2]\npieces: {a1: red castle, a2: red knight, c1: blue castle, c2: blue knight, i1: red castle, i2: red knight, l1: blue castle, a12: orange castle, k12: orange castle}\n" + hand,
			steps: "play B deserter; deserter c2 j1", code: "deserter-adjacent"},
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, c2|c3, f1|g1, f2|g2, d2|d3, e2|e3, f2|f3]\npieces: {a1: red castle, a2: red knight, c1: blue castle, c2: blue knight, e1: red castle, l1: blue castle, a12: orange castle, k12: orange castle}\n" + hand,
			steps: "play B deserter; deserter c2 d1", code: "deserter-empty"},
		// Alliance.
		{pos: allyDomains + hand, steps: "play B alliance; alliance h8|h9", code: "alliance-border"},
		{pos: strings.Replace(allyDomains, "[b1|c1,", "[h8|h9, b1|c1,", 1) + hand, steps: "play B alliance; alliance h8|h9", code: "alliance-own"},
		{pos: allyDomains + hand, steps: "play B alliance; alliance b2|b3", code: "alliance-other"},
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, c2|c3, d2|d3, e1|f1, e2|f2, e2|e3]\npieces: {a1: red castle, c1: red castle, d1: blue castle, l1: blue castle, a12: orange castle}\n" + hand,
			steps: "play B alliance; alliance b1|c1", code: "alliance-self"},
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, c2|c3, d2|d3, b3|c3, b4|c4, a4|a5, b4|b5]\npieces: {a1: red castle, c1: neutral castle, a3: blue castle, l1: blue castle, a12: red castle}\n" + hand,
			steps: "play B alliance; alliance b1|c1", code: "alliance-neutral", players: []string{"red", "blue"}},
		{pos: "borders: [b1|c1, b2|c2, a2|a3, b2|b3, c1|d1, c2|d2, c2|c3, d2|d3, b3|c3, b4|c4, a4|a5, b4|b5]\npieces: {a1: red castle, c1: blue castle, a3: blue castle, l1: blue castle, a12: orange castle, k12: orange castle}\nalliances: [a1 c1 b1|c1]\n" + hand,
			steps: "play B alliance; alliance b2|c2", code: "alliance-again"},
		// The refill.
		{pos: open + "players: {red: {hand: [A 1 border]}}\nmarket: [A 1 knight]\n", steps: "play A 1 border; take A 1 knight", code: "deck-out"},
		{pos: open + "players: {red: {hand: [A 1 border, B 2 knights], ducats: 30}}\nmarket: [A 1 knight]\n", steps: "play B 2 knights; knight c1; draw", code: "deck-out"},
		{pos: open + cards("A 1 border"), steps: "sell A 1 border; end", code: "must-refill"},
		{pos: open + cards("A 1 border"), steps: "sell A 1 border; take A 1 border", code: "sold-back"},
		{pos: open + cards("A 1 border"), steps: "sell A 1 border; take B alliance", code: "not-in-market"},
	} {
		t.Run(tc.code+": "+tc.steps, func(t *testing.T) {
			players := tc.players
			if players == nil {
				players = []string{"red", "blue", "orange"}
			}
			doc := illegalTerrain + tc.pos
			if !strings.Contains(doc, "turn:") && !strings.Contains(doc, "phase: setup") {
				doc += "turn: red\n"
			}
			st, err := loadDoc(players, doc)
			if err != nil {
				t.Fatalf("position: %v\n%s", err, doc)
			}
			s := st.(*State)
			steps := strings.Split(tc.steps, "; ")
			for i, text := range steps {
				m, err := parseText(s, "red", text)
				if err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				err = s.Apply("red", m)
				if i < len(steps)-1 {
					if err != nil {
						t.Fatalf("%q: %v", text, err)
					}
					continue
				}
				re, ok := err.(*adjudicator.RuleError)
				if !ok || re.Code != tc.code {
					t.Fatalf("%q: got %v, want code %s", text, err, tc.code)
				}
				if re.Rule == "" || re.Msg == "" || re.MsgFR == "" {
					t.Errorf("%q: a rule error needs its rule and both languages: %+v", text, re)
				}
			}
		})
		covered[tc.code] = true
	}
}

// covered holds the codes the table checks; TestEveryCodeTested compares
// it with the codes the rules raise.
var covered = map[string]bool{}

// TestEveryCodeTested: every rule error code of the package is checked by
// the table above or by a scenario file.
func TestEveryCodeTested(t *testing.T) {
	if len(covered) == 0 {
		t.Skip("run with TestIllegalTable")
	}
	src := ""
	for _, f := range []string{"rules.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src += string(b)
	}
	re := regexp.MustCompile(`rulef\("([a-z-]+)"`)
	var missing []string
	for _, m := range re.FindAllStringSubmatch(src, -1) {
		if !covered[m[1]] && !slices.Contains(missing, m[1]) {
			missing = append(missing, m[1])
		}
	}
	// Reached only through a scenario file, or unreachable through Apply.
	for _, code := range []string{"no-borders", "extend-castle", "extend-own", "allied", "which-domain", "end-of-line", "no-domain", "king-ended", "turn-ended"} {
		missing = slices.DeleteFunc(missing, func(c string) bool { return c == code })
	}
	if len(missing) > 0 {
		t.Errorf("rule error codes no test checks: %s", fmt.Sprint(missing))
	}
}
