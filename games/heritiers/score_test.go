package heritiers

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// layout builds a state with the given board for scoring: each entry is
// "square tile owner" with owner a (the first seat), b (the second) or
// open, and optionally "+a" or "+b" for a troop of that seat on it. Tiles
// may repeat: only their faces matter here.
func layout(t *testing.T, solo bool, entries ...string) *State {
	t.Helper()
	players := []string{"alice", "bob"}
	if solo {
		players = players[:1]
	}
	s, err := newEmpty(DefaultData, players, adjudicator.Options{"level": "2", "roads": "true"})
	if err != nil {
		t.Fatal(err)
	}
	s.sets = []Set{0, 1, 2}
	for seat := range 2 {
		for k := range 3 {
			s.troops[seat][k] = troop{at: inReserve}
		}
	}
	used := [2]int{}
	for _, e := range entries {
		f := strings.Fields(e)
		q, err := parseSquare(f[0])
		if err != nil {
			t.Fatalf("%q: %v", e, err)
		}
		i := slices.IndexFunc(s.data.Tiles, func(x Tile) bool { return x.ID == f[1] })
		if i < 0 {
			t.Fatalf("%q: no tile %s", e, f[1])
		}
		c := &s.cells[q]
		c.tile = int16(i)
		s.noteTile(q)
		switch f[2] {
		case "open":
			c.open = true
		case "a":
			c.owner = 0
		case "b":
			c.owner = 1
		default:
			t.Fatalf("%q: owner %q", e, f[2])
		}
		for _, x := range f[3:] {
			seat := int(x[1] - 'a')
			s.troops[seat][used[seat]].at = int16(q)
			used[seat]++
		}
	}
	return s
}

// valueAt returns the points of the building on square q, doubling
// included, as score gives them to its owner.
func valueAt(t *testing.T, s *State, q string) int {
	t.Helper()
	i, _ := parseSquare(q)
	_, owner, ok := s.building(i)
	if !ok {
		t.Fatalf("no building on %s", q)
	}
	return s.score()[owner].buildings[i]
}

// TestBuildingValues checks each building's effect at its bounds
// (deux-heritiers-fr.txt:195-370; RULINGS.md DH-13 to DH-15). Opponent is
// b; open terrain is written open. Colours: auberge-1 grey, auberge-2
// green, marché-1 yellow, moulin-1 yellow, mine-1 grey, étable-1 green,
// ferme-1 yellow, scierie-1 green, carrière-1 grey, cathédrale-1 green,
// siège-1 green, guet-1 green row, guet-2 green column, paniers-1 green
// orthogonal, paniers-2 grey diagonal, hôtel-1 grey (paniers).
func TestBuildingValues(t *testing.T) {
	row := func(sq ...string) []string {
		var out []string
		for _, q := range sq {
			out = append(out, q+" mine-1 open")
		}
		return out
	}
	cases := []struct {
		name  string
		at    string
		board []string
		want  int
	}{
		// Auberge: 1 + tiles along its line, up to 3 each way; a gap ends it.
		{"auberge alone", "m13", []string{"m13 auberge-1 a"}, 1},
		{"auberge 3 each way: 7", "m13", append([]string{"m13 auberge-1 a"}, row("j13", "k13", "l13", "n13", "o13", "p13")...), 7},
		{"auberge 4 each way: still 7", "m13", append([]string{"m13 auberge-1 a"}, row("i13", "j13", "k13", "l13", "n13", "o13", "p13", "q13")...), 7},
		{"auberge gap ends the count", "m13", append([]string{"m13 auberge-1 a"}, row("l13", "j13", "n13")...), 3},
		{"auberge row ignores its column", "m13", append([]string{"m13 auberge-1 a"}, row("m12", "m14")...), 1},
		{"auberge column", "m13", append([]string{"m13 auberge-2 a"}, row("m10", "m11", "m12", "m14", "l13")...), 5},
		// Marché: 1 + orthogonal neighbours, at most 5.
		{"marché alone", "m13", []string{"m13 marché-1 a"}, 1},
		{"marché 4 sides: 5", "m13", append([]string{"m13 marché-1 a"}, row("m12", "m14", "l13", "n13", "l12", "n14")...), 5},
		// Baronnie: 2 + 2 per opponent building edge to edge, at most 10.
		{"baronnie alone", "m13", []string{"m13 baronnie-1 a"}, 2},
		{"baronnie 4 opponents: 10", "m13", []string{"m13 baronnie-1 a", "m12 mine-1 b", "m14 mine-1 b", "l13 mine-1 b", "n13 mine-1 b", "l12 mine-1 b"}, 10},
		{"baronnie own and open count nothing", "m13", []string{"m13 baronnie-1 a", "m12 mine-1 a", "m14 mine-1 open"}, 2},
		// Moulin, Mine, Étable: 1 + the zone of their colour, edge to edge.
		{"moulin alone", "m13", []string{"m13 moulin-1 a"}, 1},
		{"moulin zone through yellow, any owner, open too", "m13", []string{"m13 moulin-1 a", "m12 ferme-1 b", "m11 ferme-1 open", "l11 ferme-1 a", "n13 mine-1 open", "o13 ferme-1 a", "l14 ferme-1 a"}, 4},
		{"mine grey zone", "m13", []string{"m13 mine-1 a", "n13 carrière-1 b", "o13 auberge-1 open", "m14 moulin-1 a"}, 3},
		{"étable green zone", "m13", []string{"m13 étable-1 a", "m12 scierie-1 a", "m11 étable-1 open"}, 3},
		// Boulangerie, Forge, Chalet: 1 + own other buildings on their colour.
		{"boulangerie counts own yellow buildings", "m13", []string{"m13 boulangerie-1 a", "a1 ferme-1 a", "a3 moulin-1 a", "a5 ferme-1 b", "a7 ferme-1 open"}, 3},
		{"forge counts own grey buildings", "m13", []string{"m13 forge-1 a", "a1 mine-1 a", "a5 mine-1 b"}, 2},
		{"chalet counts own green buildings", "m13", []string{"m13 chalet-1 a", "a1 étable-1 a", "a3 scierie-1 a", "a5 forge-1 a"}, 4},
		// Campement: 2 while unused.
		{"campement unused", "m13", []string{"m13 campement-1 a"}, 2},
		// Comptoir: 3 per own building of its type.
		{"comptoir ferme, none", "m13", []string{"m13 comptoir-1 a", "a1 ferme-1 b"}, 0},
		{"comptoir ferme, two", "m13", []string{"m13 comptoir-1 a", "a1 ferme-1 a", "a3 ferme-2 a", "a5 scierie-1 a"}, 6},
		// Cathédrale: 5.
		{"cathédrale", "m13", []string{"m13 cathédrale-1 a"}, 5},
		// Forteresse: 1 per own siege tower and forteresse, itself included.
		{"forteresse alone", "m13", []string{"m13 forteresse-1 a"}, 1},
		{"forteresse with towers", "m13", []string{"m13 forteresse-1 a", "a1 siège-1 a", "a3 siège-2 a", "a5 forteresse-2 a", "a7 siège-3 b"}, 4},
		// Tour de guet: 1 + tiles of its colour in its line, any distance.
		{"guet alone", "m13", []string{"m13 guet-1 a"}, 1},
		{"guet row, gaps and owners", "m13", []string{"m13 guet-1 a", "a13 scierie-1 b", "y13 étable-1 open", "n13 mine-1 a", "m1 scierie-1 a"}, 3},
		{"guet column", "m13", []string{"m13 guet-2 a", "m1 scierie-1 b", "m25 étable-1 open", "a13 scierie-1 a"}, 3},
		// Garnison: 2 per Tour de guet on its diagonals, any distance.
		{"garnison none", "m13", []string{"m13 garnison-1 a", "m12 guet-1 a"}, 0},
		{"garnison diagonals", "m13", []string{"m13 garnison-1 a", "l12 guet-1 b", "a1 guet-2 a", "p16 guet-3 a", "q9 guet-4 open"}, 6},
		// Artisanat: 3 per pair on opposite sides in its sense; 4 with an hôtel.
		{"paniers no pair", "m13", []string{"m13 paniers-1 a", "m12 scierie-1 a"}, 0},
		{"paniers one pair", "m13", []string{"m13 paniers-1 a", "m12 scierie-1 a", "m14 ferme-1 b"}, 3},
		{"paniers two pairs", "m13", []string{"m13 paniers-1 a", "m12 scierie-1 a", "m14 ferme-1 b", "l13 ferme-1 open", "n13 étable-1 a"}, 6},
		{"paniers two pairs with hôtel: 8", "m13", []string{"m13 paniers-1 a", "m12 scierie-1 a", "m14 ferme-1 b", "l13 ferme-1 open", "n13 étable-1 a", "a1 hôtel-1 a"}, 8},
		{"paniers with the opponent's hôtel: 3", "m13", []string{"m13 paniers-1 a", "m12 scierie-1 a", "m14 ferme-1 b", "a1 hôtel-1 b"}, 3},
		{"paniers with an hôtel of another shop: 3", "m13", []string{"m13 paniers-1 a", "m12 scierie-1 a", "m14 ferme-1 b", "a1 hôtel-2 a"}, 3},
		{"paniers diagonal ignores orthogonal pairs", "m13", []string{"m13 paniers-2 a", "m12 scierie-1 a", "m14 ferme-1 b"}, 0},
		{"paniers diagonal pair", "m13", []string{"m13 paniers-2 a", "l12 scierie-1 a", "n14 ferme-1 b"}, 3},
		{"poterie grey and yellow", "m13", []string{"m13 poterie-1 a", "l13 mine-1 a", "n13 ferme-1 b"}, 3},
		{"tonnellerie grey and green", "m13", []string{"m13 tonnellerie-1 a", "m12 mine-1 a", "m14 scierie-1 b"}, 3},
		// No points of their own.
		{"siège", "m13", []string{"m13 siège-1 a"}, 0},
		{"hôtel", "m13", []string{"m13 hôtel-1 a"}, 0},
		{"ferme", "m13", []string{"m13 ferme-1 a"}, 0},
		// Doubling under the owner's troop only (l. 173).
		{"own troop doubles", "m13", []string{"m13 cathédrale-1 a +a"}, 10},
		{"opponent's troop does not", "m13", []string{"m13 cathédrale-1 a +b"}, 5},
		{"marché 5 doubled: 10", "m13", append([]string{"m13 marché-1 a +a"}, row("m12", "m14", "l13", "n13")...), 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := layout(t, false, c.board...)
			if got := valueAt(t, s, c.at); got != c.want {
				t.Errorf("%s scores %d, want %d\n%s", c.at, got, c.want, s.Text(""))
			}
		})
	}
}

// TestRoads checks the roads of example 5 (deux-heritiers-fr.txt:181-185)
// and their ends (l. 177-179, 221; RULINGS.md DH-12).
func TestRoads(t *testing.T) {
	cases := []struct {
		name  string
		board []string
		a, b  int
	}{
		// Route A: 3 buildings of a's: 3 - 0.
		{"three of one player", []string{"l13 siège-1 a", "l14 pèlerinage-1 a", "l12 moulin-1 a"}, 3, 0},
		// Route B: 2 of b's, 1 of a's: b scores 1. b's tiles lie half turned.
		{"two against one", []string{"l12 moulin-1 a", "l13 siège-1 b", "l14 ferme-1 b"}, 0, 1},
		// Route C: 2 and 2: nobody.
		{"two against two", []string{"l11 moulin-1 a", "l12 siège-1 a", "l13 siège-1 b", "l14 ferme-1 b"}, 0, 0},
		// Route D: one building only.
		{"one building", []string{"l13 siège-1 b"}, 0, 0},
		// Open terrain breaks a road.
		{"open terrain breaks it", []string{"l12 moulin-1 a", "l13 siège-1 open", "l14 ferme-1 a"}, 0, 0},
		// A crossroads ends each road: two roads of 2.
		{"crossroads ends roads", []string{"l12 moulin-1 a", "l13 marché-1 a", "l14 ferme-1 a"}, 2 + 2, 0},
		// Bent and straight sections: étable-1 (es), auberge-2 (ew), mill (ns).
		{"a bend", []string{"l13 étable-1 a", "m13 auberge-2 a", "l14 moulin-1 a"}, 3, 0},
		// Roads that do not meet edge to edge do not join.
		{"sections must meet", []string{"l13 siège-1 a", "m13 siège-1 a"}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := layout(t, false, c.board...)
			sc := s.score()
			if sc[0].roads != c.a || sc[1].roads != c.b {
				t.Errorf("roads a %d b %d, want %d %d\n%s", sc[0].roads, sc[1].roads, c.a, c.b, s.Text(""))
			}
		})
	}
	// The Lieu de pèlerinage scores its longest road, whoever owns it
	// (l. 213), at least 1.
	s := layout(t, false, "l14 pèlerinage-1 a", "l13 siège-1 b", "l12 moulin-1 open", "l15 ferme-1 b", "l16 ferme-1 b", "l17 ferme-1 b")
	if got := valueAt(t, s, "l14"); got != 4 {
		t.Errorf("pèlerinage = %d, want 4 (itself and 3 tiles south)\n%s", got, s.Text(""))
	}
	if got := valueAt(t, layout(t, false, "l14 pèlerinage-1 a"), "l14"); got != 1 {
		t.Errorf("lone pèlerinage = %d, want 1", got)
	}
	// A loop is one road, each tile once: four bends.
	loop := layout(t, false, "l13 étable-1 a", "m13 campement-3 a", "l14 hôtel-3 a", "m14 carrière-1 a")
	if r := loop.roadsOn(); len(r) != 1 || len(r[0]) != 4 {
		t.Errorf("loop roads = %v, want one road of 4", r)
	}
}

// TestHenriScore checks Henri's scoring: his 3 best buildings doubled, his
// troops ignored, 5 per treasure in the pile or on the board, and the
// player losing ties (deux-heritiers-fr.txt:546-556; RULINGS.md DH-21).
func TestHenriScore(t *testing.T) {
	s := layout(t, true, "a1 cathédrale-1 b +b", "a3 campement-1 b", "a5 campement-2 b", "a7 campement-3 b", "a9 forteresse-1 b", "c1 cathédrale-1 a")
	s.treasures = []uint8{0, 1}
	s.cells[0].treasure = 2
	sc := s.score()
	// 5 + 2 + 2 + 2 + 1, the three best (5, 2, 2) again, 3 treasures.
	if want := 12 + 9 + 15; sc[1].total != want {
		t.Errorf("Henri scores %d, want %d", sc[1].total, want)
	}
	if sc[0].total != 5 {
		t.Errorf("alice scores %d, want 5", sc[0].total)
	}
	// Henri 5 + 1, doubled: 12; alice 5 + 5 + 2: 12, a tie Henri wins.
	s = layout(t, true, "a1 cathédrale-1 b", "a9 forteresse-1 b", "c1 cathédrale-1 a", "c3 cathédrale-1 a", "c5 campement-1 a")
	s.over = true
	got := s.Scores()
	if got[0] != 12 || got[1] != 12 {
		t.Fatalf("scores %v, want a tie at 12", got)
	}
	if r := s.Result(); len(r.Winners) != 1 || r.Winners[0] != Henri {
		t.Errorf("tie: winners %v, want henri", r.Winners)
	}
}

// TestTieBreak checks the 2-player tie break by troops in the royal
// reserve, then a draw (deux-heritiers-fr.txt:189).
func TestTieBreak(t *testing.T) {
	s := layout(t, false, "a1 cathédrale-1 a", "c1 cathédrale-1 b")
	s.over = true
	s.troops[0][0].at, s.troops[1][0].at = start, start
	if r := s.Result(); !r.Draw {
		t.Errorf("equal reserves: %+v, want a draw", r)
	}
	s.troops[1][1].at = start + 2
	if r := s.Result(); len(r.Winners) != 1 || r.Winners[0] != "alice" {
		t.Errorf("alice has more troops in reserve: %+v", r)
	}
}
