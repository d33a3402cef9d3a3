package raubritter_test

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// TestPictures pins the pictures of 2- and 4-player games at the start and
// in the middle (issue 20): go test -run TestPictures -update rewrites
// them.
func TestPictures(t *testing.T) { kit.Pictures(t, 10, 2, 4) }

// TestPictureStacks pins the picture of stacks of 1 to 4 knights (a tile
// holds at most 4, raubritter-fr-scan.txt:167), one on the last column, and of a castle awaiting its knights,
// just laid by the last move (issue 28, items 1 and 4): every stack is
// drawn inside its square, the top knight a disc on the bands of those
// below.
func TestPictureStacks(t *testing.T) {
	players := []string{"red", "blue"}
	const board = `
  f6: plain castle / red
  g6: forest village / red blue
  h6: plain town / blue red blue
  f7: plain castle / blue blue red red
  g7: forest town / red blue red
  h7: plain village / blue red red blue
  g8: plain castle
`
	const hands = "players:\n  red: {hand: [plain town, forest village]}\n  blue: {hand: [plain town]}\n"
	before := mustLoad(t, players, "phase: play\nturn: red\nboard:"+board+hands)
	after := mustLoad(t, players, "phase: play\nturn: red\nplaced: 1\ncastle: h8\nboard:"+board+"  h8: plain castle\n"+hands)
	kit.PictureAfter(t, before, after, players, filepath.Join("testdata", "golden", "picture-stacks.svg"))
	// In French: its keys, legend and the stacks' hints ("chevaliers de
	// bas en haut : rbr").
	kit.PictureAfterIn(t, before, after, players, filepath.Join("testdata", "golden", "picture-stacks-fr.svg"), notation.French)
}

// BenchmarkPictureSVG and BenchmarkPicturePNG draw the picture of a game
// in the middle, as a mail or the page does: under 1 ms an SVG and 5 ms a
// PNG (issue 28).
func BenchmarkPictureSVG(b *testing.B) { kit.BenchPicture(b, 4, 10, "svg") }

func BenchmarkPicturePNG(b *testing.B) { kit.BenchPicture(b, 4, 10, "png") }

// TestCountsInTheSingular checks that the private stack line and the
// picture's note on each player count one tile and one knight in the
// singular: "1 tile, next letter B", "1 knight, 1 tile left".
func TestCountsInTheSingular(t *testing.T) {
	st := mustLoad(t, []string{"red", "blue", "yellow"}, `
turn: red
board:
  g8: plain
  h8: plain
  i8: plain
  g9: plain
  h9: plain
  i9: plain village / red
players:
  red: {knights: 1, hand: [plain castle], stack: [B plain]}
  blue: {knights: 2, hand: [plain town], stack: [B plain, B mountains]}
  yellow: {knights: 29, hand: [plain town]}
`).(*raubritter.State)
	for _, tc := range []struct{ as, want string }{
		{"red", "red's stack: 1 tile, next letter B\n"},
		{"blue", "blue's stack: 2 tiles, next letter B\n"},
	} {
		if text := st.Text(tc.as); !strings.Contains(text, tc.want) {
			t.Errorf("Text(%q) lacks %q:\n%s", tc.as, tc.want, text)
		}
	}
	notes := map[string]string{}
	for _, p := range st.Picture().Players {
		notes[p.Name] = p.Note
	}
	if want := (map[string]string{"red": "1 knight, 2 tiles left", "blue": "2 knights, 3 tiles left", "yellow": "29 knights, 1 tile left"}); !maps.Equal(notes, want) {
		t.Errorf("picture notes %v, want %v", notes, want)
	}
}

// TestStatusCastleWaiting checks the status line while a castle waits for
// its knights: "or go on" while another tile may follow, "or end" after
// the third tile or the last tile in hand, when none can.
func TestStatusCastleWaiting(t *testing.T) {
	const board = "board:\n  f6: plain\n  g6: plain\n  f7: plain\n  g7: plain\n  e6: plain castle\n"
	for _, tc := range []struct{ name, pos, want string }{
		{"another tile may follow", "turn: red\nplaced: 1\ncastle: e6\n" + board +
			"players:\n  red: {hand: [plain]}\n  blue: {hand: [plain]}\n", "to move: red, tile 1 of 1-3; knights for the castle at e6, or go on\n"},
		{"third tile", "turn: red\nplaced: 3\ncastle: e6\n" + board +
			"players:\n  red: {hand: [plain]}\n  blue: {hand: [plain]}\n", "to move: red, tile 3 of 1-3; knights for the castle at e6, or end\n"},
		{"last tile in hand", "turn: red\nplaced: 1\ncastle: e6\n" + board +
			"players:\n  blue: {hand: [plain]}\n", "to move: red, tile 1 of 1-3; knights for the castle at e6, or end\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if text := mustLoad(t, []string{"red", "blue"}, tc.pos).Text(""); !strings.Contains(text, tc.want) {
				t.Errorf("the board lacks %q:\n%s", tc.want, text)
			}
		})
	}
}

// TestPictureInFrench: the picture of every golden board in French has
// the same squares as in English and its keys, legend and players' notes
// in the words of the French board (plaine, plaquette, chevaliers), no
// English word of the English picture's left.
func TestPictureInFrench(t *testing.T) {
	gametest.PicturesInFrench(t, goldenStates(t), "plain", "forest", "mountains", "lake", "a", "free", "square", "castle", "awaiting",
		"knight", "knights", "tile", "tiles", "left", "letter", "town", "stack", "of", "those", "below", "as", "bands", "bottom", "to",
		"top", "the", "one", "which", "scores", "disc", "with", "its", "capital")
}
