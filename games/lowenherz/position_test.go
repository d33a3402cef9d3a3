package lowenherz

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"gopkg.in/yaml.v3"
)

func loadDoc(players []string, doc string) (adjudicator.State, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		return nil, err
	}
	opts, _ := Game.ResolveOptions(nil)
	return Game.LoadPosition(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG("t")}, &n)
}

// TestPositionErrors: impossible positions are refused with the line and
// column of the fault.
func TestPositionErrors(t *testing.T) {
	rb := []string{"red", "blue"}
	for _, tc := range []struct{ doc, want string }{
		{"turn: green\n", "1:7: turn: \"green\" is not a player"},
		{"phase: middle\n", "1:8: phase \"middle\""},
		{"trun: red\n", `1:1: unknown key "trun" in the position; did you mean "turn"?`},
		{"pieces:\n  a1: red castle\n  m1: red knight\n", `3:3: "m1" is not a square`},
		{"pieces:\n  a1: red tower\n", "2:7: a1: expected a colour and castle or knight"},
		{"pieces:\n  a1: green castle\n", `2:7: a1: "green" is not a colour of this game (red, blue, neutral)`},
		{"players: {green: {ducats: 3}}\n", `1:11: "green" is not a player of this game (red, blue, neutral)`},
		{"terrain: [............, ............, ............, ............, ............, ............, ............, ............, ............, ............, ............, ...........K]\npieces: {a1: red castle, b1: red castle, c1: red castle, d1: red castle, e1: red castle}\n", "2:78: e1: red has only 4 castles"},
		{"terrain: [F..........., ............, ............, ............, ............, ............, ............, ............, ............, ............, ............, ...........K]\npieces: {a1: red castle}\n", "2:14: a1: a castle stands on a meadow, not on a forest"},
		{"terrain: [.V.........., ............, ............, ............, ............, ............, ............, ............, ............, ............, ............, ...........K]\npieces: {a1: red castle, b1: red knight}\n", "2:30: b1: a knight stands on meadow or forest, not on a village"},
		{"terrain: [............]\n", "1:10: terrain: expected 12 rows"},
		{"borders: [e5|e7]\n", `1:11: border "e5|e7": e5 and e7 are not side by side`},
		{"borders: [e5|e6, e6|e5]\n", "1:18: border e5|e6 is given twice"},
		{"players: {red: {hand: [A 1 border, A 1 border, A 1 border]}}\ndeck: [A 1 border]\n", "1:48: more A 1 border cards than the game's 2"},
		{"players: {red: {hand: [A 1 border, A 2 borders, A 2 borders, A 3 borders]}}\n", "1:23: a hand holds at most 3 cards"},
		{"players: {red: {hand: [Z 1 border]}}\n", `1:24: card "Z 1 border"`},
		{"players: {red: {score: 4}}\n", "1:24: red's score is 4 but the board gives 0"},
		{"step: action\n", "step action: say which card"},
		{"step: action\ncard: A knight or extension\n", "2:7: the A knight or extension card offers knights or extension: say which with action:"},
		{"step: card\ndone: 1\nplayers: {red: {hand: [A 2 borders]}}\n", "2:7: done is given only in the action step"},
		{"sold: A 1 border\nplayers: {red: {hand: [A 2 borders]}}\n", "1:7: sold: the card sold this turn is the last one in the market"},
		{"turn: blue\n", "1:1: blue's turn to sell or play a card, with no card in hand"},
		{"pieces: {a1: red castle}\nplayers: {red: {castles: 4}}\n", "2:26: castles: red has 3 castles in supply, not 4: 4 in all, 1 on the board"},
		{"players: {red: {castles: 5}}\n", "1:26: castles: expected a whole number from 0 to 4"},
		{"pieces: {b1: red knight}\nplayers: {red: {knights: 15}}\n", "2:26: knights: red has 14 knights in supply, not 15"},
		{"players: {neutral: {castles: 1}}\n", "1:30: castles: neutral has 2 castles in supply, not 1: 2 in all, 0 on the board (lowenherz-2003-fr.txt:107)"},
		{"players: {neutral: {hand: [A 1 border]}}\n", `1:21: unknown key "hand" in neutral`},
		{"deck: [B alliance, A 1 border]\n", "1:20: deck: A 1 border lies below B alliance; the deck is stacked D (bottom), C, B, A (top)"},
		{"deck: []\ndiscard: [A 1 border]\n", "2:10: discard: with the deck given too, the hands, deck, market and discard pile hold every card of the game; 59 are nowhere"},
		{"discard: [A 1 border, A 1 border, A 1 border]\n", "1:35: more A 1 border cards than the game's 2"},
		{"terrain: [............, ............, ............, ............, ............, ............, ............, ............, ............, ............, ............, ...........K]\npieces: {a1: red castle, a12: blue castle}\nborders: [b1|c1, a1|b1, b2|c2, a2|a3, b2|b3]\n", "3:18: border a1|b1 lies inside the domain of the castle on a1"},
	} {
		_, err := loadDoc(rb, tc.doc)
		if err == nil {
			t.Errorf("%q: accepted", tc.doc)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.doc, err, tc.want)
		}
	}
}
