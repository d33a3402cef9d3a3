package raubritter_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/notation"
)

// TestPositionRoundTrip writes the position of many random states, reads
// it back and writes it again: the bytes must be identical, and the state
// read back must be the same game: the same legal steps, scores, player to
// move, result and boards, now and after one more random step.
func TestPositionRoundTrip(t *testing.T) {
	seeds := 100
	if testing.Short() {
		seeds = 20
	}
	for n := 2; n <= 4; n++ {
		players := colours[:n]
		for i := range seeds {
			seed := fmt.Sprintf("position-%d-%d", n, i)
			st := randomState(t, n, seed)
			first := kit.PositionBytes(t, st)
			back, err := kit.LoadPosition(players, string(first))
			if err != nil {
				t.Fatalf("%s: the position written does not load: %v\n%s", seed, err, first)
			}
			if second := kit.PositionBytes(t, back); !bytes.Equal(first, second) {
				t.Fatalf("%s: position written, read and written again differs:\n%s\n---\n%s", seed, first, second)
			}
			sameState(t, seed, players, st, back)
			// The same step on both keeps them equal: the stacks' order and
			// everything else the next steps depend on came through.
			rng := adjudicator.NewRNG(seed)
			for range 3 {
				to := st.ToMove()
				if len(to) == 0 {
					break
				}
				p := to[rng.IntN(len(to))]
				legal := st.Legal(p)
				mv := legal[rng.IntN(len(legal))]
				if err := st.Apply(p, mv); err != nil {
					t.Fatal(err)
				}
				if err := back.Apply(p, mv); err != nil {
					t.Fatalf("%s: %s %q refused after reload: %v", seed, p, mv, err)
				}
				sameState(t, seed+" after "+mv.String(), players, st, back)
			}
		}
	}
}

func sameState(t *testing.T, what string, players []string, a, b adjudicator.State) {
	t.Helper()
	if !slices.Equal(a.ToMove(), b.ToMove()) {
		t.Fatalf("%s: ToMove %v, reloaded %v", what, a.ToMove(), b.ToMove())
	}
	if !slices.Equal(a.Scores(), b.Scores()) {
		t.Fatalf("%s: Scores %v, reloaded %v", what, a.Scores(), b.Scores())
	}
	ra, rb := a.Result(), b.Result()
	if ra.Finished != rb.Finished || ra.Draw != rb.Draw || ra.Summary != rb.Summary || !slices.Equal(ra.Winners, rb.Winners) {
		t.Fatalf("%s: Result %+v, reloaded %+v", what, ra, rb)
	}
	if boardJSON(t, a) != boardJSON(t, b) {
		t.Fatalf("%s: Board %s, reloaded %s", what, boardJSON(t, a), boardJSON(t, b))
	}
	for _, as := range append([]string{""}, players...) {
		if a.Text(as) != b.Text(as) {
			t.Fatalf("%s: Text(%q)\n%s\nreloaded\n%s", what, as, a.Text(as), b.Text(as))
		}
	}
	for _, p := range players {
		la, lb := gametest.MoveStrings(a.Legal(p)), gametest.MoveStrings(b.Legal(p))
		if !slices.Equal(la, lb) {
			t.Fatalf("%s: Legal(%s) %v, reloaded %v", what, p, la, lb)
		}
		if fmt.Sprint(a.Private(p)) != fmt.Sprint(b.Private(p)) {
			t.Fatalf("%s: Private(%s) %v, reloaded %v", what, p, a.Private(p), b.Private(p))
		}
	}
}

// TestPositionDefaults checks what a referee may leave out: the phase is
// play, the turn the first player's, no tile laid yet, each player's
// knights 30 minus those on the board, hands and stacks empty.
func TestPositionDefaults(t *testing.T) {
	st := mustLoad(t, []string{"red", "blue"}, `
board:
  f6: plain castle / red blue red
  g6: plain
players:
  red: {hand: [plain town]}
`)
	want := `phase: play
turn: red
placed: 0
board:
  f6: plain castle / red blue red
  g6: plain
players:
  red:
    knights: 28
    hand: [plain town]
    stack: []
  blue:
    knights: 29
    hand: []
    stack: []
`
	if got := string(kit.PositionBytes(t, st)); got != want {
		t.Errorf("position with defaults filled in:\n%s\nwant:\n%s", got, want)
	}
	if got := st.Scores(); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("Scores() = %v, want [1 0]", got)
	}
}

// TestPositionErrors checks that impossible positions are refused with an
// error at the line and column of the fault, never a panic.
func TestPositionErrors(t *testing.T) {
	for _, tc := range positionErrors {
		t.Run(tc.name, func(t *testing.T) {
			st, err := kit.LoadPosition(tc.players, tc.doc)
			if err == nil {
				t.Fatalf("position loaded, want an error at %s %q:\n%s\n%s", tc.pos, tc.msg, tc.doc, kit.PositionBytes(t, st))
			}
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Fatalf("error %v (%T), want a *notation.Error", err, err)
			}
			if got := ne.Pos.String(); got != tc.pos {
				t.Errorf("error at %s, want %s: %v", got, tc.pos, err)
			}
			if !strings.Contains(ne.Msg, tc.msg) {
				t.Errorf("error %q, want %q in it", ne.Msg, tc.msg)
			}
		})
	}
}

// positionErrors are impossible positions and the error each must get.
var positionErrors = []struct {
	name    string
	players []string
	doc     string
	pos     string // line:column of the error
	msg     string // a substring of the message
}{
	{"not a mapping", two, "[f6, g6]", "1:1", "a Raubritter position is a mapping"},
	{"unknown key", two, "turn: red\nboadr: {}\n", "2:1", `unknown key "boadr" in the position; did you mean "board"?`},
	{"unknown key far off", two, "turn: red\nscore: 3\n", "2:1", `unknown key "score" in the position (expected one of phase, turn, placed, castle, board, players)`},
	{"key twice", two, "turn: red\nboard: {f6: plain}\nturn: blue\n", "3:1", `key "turn" is given twice (first on line 1)`},
	{"bad phase", two, "phase: playing\n", "1:8", `phase "playing": expected setup, play or over`},
	{"board not a mapping", two, "board: [f6]\n", "1:8", "board: expected a mapping of squares"},
	{"bad square name", two, "board:\n  f6: plain\n  6f: plain\n", "3:3", `board: "6f" is not a square`},
	{"square zero", two, "board:\n  f0: plain\n", "2:3", `board: "f0" is not a square`},
	{"square off the frame", two, "board:\n  f6: plain\n  m6: plain\n", "3:3", "board: m6 is off the board; with 2 players squares run from a1 to l12"},
	{"square off every frame", two, "board:\n  f6: plain\n  e100: plain\n", "3:3", "board: e100 is off the board; with 2 players squares run from a1 to l12"},
	{"square off the 4p frame", colours, "board:\n  q1: plain\n", "2:3", "squares run from a1 to p18"},
	{"square twice", two, "board:\n  f6: plain\n  g6: lake\n  F6: plain village\n", "4:3", "board: f6 is given twice"},
	{"bad tile", two, "board:\n  f6: plain castel\n", "2:7", `board: "plain castel"`},
	{"forest without building", two, "board:\n  f6: forest / red red\n", "2:7", "no forest tile without a building"},
	{"tile not a scalar", two, "board:\n  f6: [plain]\n", "2:7", "board: expected a tile"},
	{"lake with knights", two, "board:\n  f6: plain\n  g6: lake / red\n", "3:7", "g6 is a lake; no knight can stand on it"},
	{"stack of five", two, "board:\n  f6: plain village / red red red blue blue\n", "2:7", "f6 has 5 knights; a tile holds at most 4"},
	{"unknown knight owner", two, "board:\n  f6: plain / red green\n", "2:7", `knight owner "green" is not a player`},
	{"unknown player", two, "board: {f6: plain}\nplayers:\n  red: {hand: [plain]}\n  green: {hand: [lake]}\n", "4:3", `players: "green" is not a player of this game (players: red, blue)`},
	{"player twice", two, "board: {f6: plain}\nplayers:\n  red: {hand: [plain]}\n  red: {hand: [lake]}\n", "4:3", "players: red is given twice"},
	{"unknown player key", two, "board: {f6: plain}\nplayers:\n  red:\n    hand: [plain]\n    knigths: 3\n", "5:5", `unknown key "knigths" in player red; did you mean "knights"?`},
	{"player not a mapping", two, "board: {f6: plain}\nplayers:\n  red: [plain]\n", "3:8", "players: red: expected a mapping"},
	{"knights over supply", two, "board:\n  f6: plain castle / red\n  g6: plain\nplayers:\n  red:\n    hand: [plain]\n    knights: 30\n", "7:14", "player red has 1 knight on the board and 30 left, more than the 30 they own"},
	{"knights over supply by board", two, "board:\n  f6: plain castle / red red red red\n  g6: plain town / red red red red\nplayers:\n  red: {hand: [plain], knights: 23}\n", "5:33", "player red has 8 knights on the board and 23 left"},
	{"negative knights", two, "board: {f6: plain}\nplayers:\n  red: {knights: -1, hand: [plain]}\n", "3:18", "red's knights: expected the number of knights left, 0 to 30"},
	{"knights not a number", two, "board: {f6: plain}\nplayers:\n  red: {knights: many, hand: [plain]}\n", "3:18", "red's knights"},
	{"hand over its limit", two, "board: {f6: plain}\nplayers:\n  red:\n    knights: 3\n    hand: [plain, plain, lake]\n", "5:11", "red has 3 tiles in hand; the most is 2"},
	{"hand not a list", two, "board: {f6: plain}\nplayers:\n  red: {hand: plain}\n", "3:15", "red's hand: expected a list of tiles"},
	{"bad tile in hand", two, "board: {f6: plain}\nplayers:\n  red: {hand: [plain, castle]}\n", "3:23", `red's hand: "castle" is not a tile`},
	{"too many of a kind for a player", two, "board: {f6: plain}\nplayers:\n  red:\n    hand: [lake]\n    stack: [C lake]\n", "4:5", "red holds 2 lake tiles in hand and stack; a player has only 1"},
	{"too many of a kind in the game", two, "board:\n  f6: lake\n  g6: lake\n  f7: lake\nplayers:\n  red: {hand: [plain]}\n", "4:7", "the position has 3 lake tiles; 2 players have only 2"},
	{"stack letters out of order", two, "board: {f6: plain}\nplayers:\n  red:\n    hand: [plain]\n    stack: [B plain town, D mountains, C lake]\n", "5:40", "red's stack: C comes after D; the stack runs B on top to E at the bottom"},
	{"stack tile of another letter", two, "board: {f6: plain}\nplayers:\n  red:\n    hand: [plain]\n    stack: [B plain town, B lake]\n", "5:27",
		`red's stack: "B lake": no lake tile has the letter B on its back (B: plain castle, plain, plain town, forest village, mountains)`},
	{"stack tile of another letter, lower case", two, "board: {f6: plain}\nplayers:\n  red:\n    hand: [plain]\n    stack: [b plain village]\n", "5:13",
		`red's stack: "b plain village": no plain village tile has the letter B on its back`},
	{"stack letter holds fewer", two, "board: {f6: plain}\nplayers:\n  red:\n    hand: [plain]\n    stack: [C plain castle, D plain castle, D plain castle, D plain castle]\n", "5:61",
		`red's stack: "D plain castle": the stack has 3 plain castle tiles with the letter D; a player has only 2`},
	{"stack letter A", two, "board: {f6: plain}\nplayers:\n  red:\n    hand: [plain]\n    stack: [A plain]\n", "5:13", `red's stack: "A plain": expected a back letter B to E and a tile`},
	{"stack tile without letter", two, "board: {f6: plain}\nplayers:\n  red:\n    hand: [plain]\n    stack: [plain town]\n", "5:13", "expected a back letter B to E"},
	{"turn of a stranger", two, "turn: green\nboard: {f6: plain}\n", "1:7", `turn: "green" is not a player of this game`},
	{"turn of an empty hand", two, "turn: blue\nboard: {f6: plain}\nplayers:\n  red: {hand: [plain]}\n", "1:7", "it is blue's turn, but blue has no tile in hand"},
	{"empty board in play", two, "players:\n  red: {hand: [plain]}\n", "1:1", "the board is empty"},
	{"placed too many", two, "placed: 4\nboard: {f6: plain}\nplayers:\n  red: {hand: [plain]}\n", "1:9", "placed: expected the number of tiles laid this turn, 0 to 3"},
	{"placed 3 without castle", two, "placed: 3\nboard: {f6: plain}\nplayers:\n  red: {hand: [plain]}\n", "1:9", "after the third tile the turn is over"},
	{"castle not a castle", two, "castle: f6\nboard: {f6: plain}\nplayers:\n  red: {hand: [plain]}\n", "1:9", `castle: "f6" is not a square with a castle on the board`},
	{"castle with knights", two, "castle: f6\nboard: {f6: plain castle / red}\nplayers:\n  red: {hand: [plain]}\n", "1:9", "the castle at f6 already has knights"},
	{"castle without knights left", two, "castle: f6\nboard: {f6: plain castle}\nplayers:\n  red: {hand: [plain], knights: 0}\n", "1:9", "red has no knights left to put on it"},
	{"forest castle with one knight left", two, "castle: f6\nboard: {f6: forest castle}\nplayers:\n  red: {hand: [plain], knights: 1}\n", "1:9", "red has only 1 knight left and the forest castle at f6 keeps at least 2, so it takes none (raubritter-fr-scan.txt:173)"},
	{"castle in setup", two, "phase: setup\ncastle: f6\n", "2:9", "placed and castle describe a turn in play; the phase is setup"},
	{"placed when over", two, "phase: over\nplaced: 1\nboard: {f6: plain}\n", "2:9", "placed and castle describe a turn in play; the phase is over"},
	{"disconnected tiles", two, "board:\n  f6: plain\n  g6: plain\n  f7: plain\n  a1: plain town\nplayers:\n  red: {hand: [plain]}\n", "2:3", "f6 is not joined edge to edge"},
	{"diagonal tiles", two, "board:\n  f6: plain\n  g7: plain\nplayers:\n  red: {hand: [plain]}\n", "3:3", "g7 is not joined edge to edge"},
	{"area too wide", two, "board:\n  b6: plain\n  c6: plain\n  d6: plain\n  e6: plain village\n  f6: plain village\n  g6: plain village\n  h6: plain town\n  i6: plain town\nplayers:\n  red: {hand: [plain castle]}\n", "1:1", "the board spans 8x1 tiles; with 2 players it may not exceed 7x7"},
	{"over with tiles left", two, "phase: over\nboard: {f6: plain}\nplayers:\n  blue: {hand: [plain]}\n", "4:3", "phase over, but blue still has tiles to lay"},
	{"setup fields in play", two, "board: {f6: plain}\nplayers:\n  red: {hand: [plain], kept: true}\n", "3:3", "red has setup fields (kept, slots, layout) but the phase is play"},
	{"setup with a board", two, "phase: setup\nboard: {f6: plain}\n", "2:1", "setup: the board is empty until every player has kept an A tile"},
	{"setup without slots", two, "phase: setup\nplayers:\n  red: {hand: [plain castle, plain, plain village, forest village]}\n", "3:3", "setup: red needs slots"},
	{"setup slot outside the layout", two, "phase: setup\nplayers:\n  red: {slots: [f6, e6]}\n", "3:21", `red's slots: "e6" is not a square of the start layout`},
	{"setup slot twice", two, setupDoc("[f6, g7]", "[g6, g7]"), "5:3", "setup: blue's slot g7 is another slot too"},
	{"setup hand without castle", two, "phase: setup\nplayers:\n  red:\n    hand: [plain, plain, plain village, forest village]\n    slots: [f6, g7]\n", "4:11", "setup: red's hand holds 4 tiles; it must be 4 with a castle"},
	{"setup hand short", two, "phase: setup\nplayers:\n  red:\n    hand: [plain castle, plain]\n    slots: [f6, g7]\n", "4:11", "setup: red's hand holds 2 tiles; it must be 4 with a castle"},
	{"setup kept without layout", two, "phase: setup\nplayers:\n  red: {hand: [plain castle, plain], kept: true, slots: [f6, g7]}\n", "3:3", "setup: red kept a tile, so their layout lists the two A tiles set aside"},
	{"setup all kept", two, "phase: setup\nplayers:\n  red: {hand: [plain castle, plain], kept: true, slots: [f6, g7], layout: [plain, forest village]}\n  blue: {hand: [plain castle, plain], kept: true, slots: [g6, f7], layout: [plain, forest village]}\n", "1:1", "every player has kept a tile"},
	{"setup hand over limit", two, "phase: setup\nplayers:\n  red: {hand: [plain castle, plain, plain, plain village, lake], slots: [f6, g7]}\n", "3:15", "red has 5 tiles in hand; the most is 4"},
	{"kept not a bool", two, "phase: setup\nplayers:\n  red: {kept: maybe}\n", "3:15", "red's kept: expected true or false"},
}

var two = []string{"red", "blue"}

// setupDoc is a 2-player setup position with the given slots.
func setupDoc(redSlots, blueSlots string) string {
	const hand = "[plain castle, plain, plain village, forest village]"
	return fmt.Sprintf("phase: setup\nplayers:\n  red:\n    {hand: %s, slots: %s}\n  blue:\n    {hand: %s, slots: %s}\n",
		hand, redSlots, hand, blueSlots)
}
