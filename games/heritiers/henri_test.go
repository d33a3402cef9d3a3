package heritiers

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

// TestHenriEmptyReserve checks that Henri passes when campements have
// emptied the royal reserve in the last round (RULINGS.md DH-19), and
// that the game then ends as the last round says.
func TestHenriEmptyReserve(t *testing.T) {
	st := mustLoad(t, []string{"alice"}, `
turn: alice
sets: [voyage, agriculture, commerce]
last: 1
reserve: [-, -, -, -, -, moulin-1]
board:
  m13: étable-1 open / alice*
  l13: campement-1 alice
players:
  alice:
    hand: [auberge-1]
  henri:
    treasures: [v-green, v-grey, v-yellow, v-any, h-green, h-grey, h-yellow, h-any]
    aside: [d-nw-se, d-ne-sw]
`)
	// The stack is out, the tiles it held discarded by Henri earlier.
	st.removed, st.stack = st.stack, nil
	m := matchFrom(t, st)
	sub, err := m.Submit("alice", "take 6; end", "", "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Auto) != 1 || sub.Auto[0].Text() != "end" || sub.Auto[0].Why[0] != "the royal reserve is empty: Henri has nothing to take and passes" {
		t.Fatalf("Henri's move: %d %q %q", len(sub.Auto), sub.Auto[0].Text(), sub.Auto[0].Why)
	}
	if !m.State.Result().Finished {
		t.Errorf("the game is not over after the last round")
	}
	rep, err := adjudicator.Adjudicate(reg, m.Record)
	if err != nil || rep.Illegal != nil {
		t.Fatalf("adjudicate: %v %+v", err, rep.Illegal)
	}
}

// afterPilgrimage is a solo game in which alice's last building is the
// pèlerinage-1 on m12, beside the start tile.
const afterPilgrimage = `
turn: alice
sets: [voyage, agriculture, commerce]
lastbuilt: m12
reserve: [ferme-1, moulin-1, mine-1, scierie-1, ferme-2, carrière-1]
board:
  m13: étable-1 open / alice*
  m12: pèlerinage-1 alice
players:
  henri:
    treasures: [v-green, v-grey, v-yellow, v-any, h-green, h-grey, h-yellow, h-any]
    aside: [d-nw-se, d-ne-sw]
`

// TestHenriWrongStepCitesHisRule: a step of Henri's that his rules do
// not choose (a forged record) is refused citing the rule that chooses
// his step: 1a for the tile he takes (l. 480), then the rule of the place
// he builds it on (l. 495-501), not only the start of his turn (l. 474).
func TestHenriWrongStepCitesHisRule(t *testing.T) {
	st := mustLoad(t, []string{"alice"}, afterPilgrimage)
	tile := func(id string) int16 {
		for i, x := range st.data.Tiles {
			if x.ID == id {
				return int16(i)
			}
		}
		t.Fatalf("no tile %s", id)
		return -1
	}
	// The top of the stack is grey: Henri takes mine-1 at place 3 (1a).
	st.stack = []int16{tile("carrière-2")}
	st.turn = 1
	refused := func(m adjudicator.Move, rule string) {
		t.Helper()
		err := st.Clone().Apply(Henri, m)
		re, ok := err.(*adjudicator.RuleError)
		if !ok || re.Code != adjudicator.CodeNotTheAutomaton || re.Rule != rule {
			t.Errorf("%s: %v, want %s citing %s", m, err, adjudicator.CodeNotTheAutomaton, rule)
		}
	}
	refused(Take{Place: 1}, "deux-heritiers-fr.txt:480")
	// Henri holds the mine: rule B blocks the pèlerinage's road on m11
	// (as in testdata/heritiers/solo-henri-turn.yaml).
	st.henriTile = tile("mine-1")
	refused(Build{Tile: st.henriTile, ID: "mine-1", Square: 10*frameW + 11, auto: true}, "deux-heritiers-fr.txt:497")
	refused(Discard{Tile: st.henriTile, ID: "mine-1"}, "deux-heritiers-fr.txt:497")
}

// TestHenriTakeWhyFR checks the French of Henri's reasons for his take: a
// colour after « tuile » agrees with it (« la première tuile verte »), the
// stack's top stays masculine (« le dessus de la pile est vert »).
func TestHenriTakeWhyFR(t *testing.T) {
	cases := []struct {
		rule string
		col  Colour
		en   string
		fr   string
	}{
		{"1a", Green, "rule 1a: the top of the stack is green, and place 2 holds the first green tile from the shield",
			"règle 1a : le dessus de la pile est vert, et la place 2 porte la première tuile verte depuis le bouclier"},
		{"1a", Grey, "rule 1a: the top of the stack is grey, and place 2 holds the first grey tile from the shield",
			"règle 1a : le dessus de la pile est gris, et la place 2 porte la première tuile grise depuis le bouclier"},
		{"1a", Yellow, "rule 1a: the top of the stack is yellow, and place 2 holds the first yellow tile from the shield",
			"règle 1a : le dessus de la pile est jaune, et la place 2 porte la première tuile jaune depuis le bouclier"},
		{"1b", Grey, "rule 1b: no grey tile in the royal reserve, so the first tile from the shield, at place 2",
			"règle 1b : aucune tuile grise dans la réserve royale, donc la première tuile depuis le bouclier, place 2"},
		{"1b", Green, "rule 1b: no green tile in the royal reserve, so the first tile from the shield, at place 2",
			"règle 1b : aucune tuile verte dans la réserve royale, donc la première tuile depuis le bouclier, place 2"},
	}
	for _, c := range cases {
		en, fr := takeWhy(2, c.rule, c.col)
		if en != c.en || fr != c.fr {
			t.Errorf("takeWhy(2, %s, %s) = %q, %q, want %q, %q", c.rule, c.col, en, fr, c.en, c.fr)
		}
	}
}

// TestHenriPlaceWhyFR checks the French of Henri's reasons for where he
// builds: « la route du dernier bâtiment d'alice », « autour de la tuile de
// départ », never « de le » nor « de alice ».
func TestHenriPlaceWhyFR(t *testing.T) {
	st := mustLoad(t, []string{"alice"}, afterPilgrimage)
	m11, l12 := 10*frameW+12, 11*frameW+11
	cases := []struct {
		rule  byte
		q     int
		start bool
		fr    string
	}{
		{'A', m11, false, "règle A : en m11 elle se relie à la route du dernier bâtiment d'alice en m12"},
		{'B', m11, false, "règle B : en m11 elle bloque la route du dernier bâtiment d'alice en m12"},
		{'C', l12, false, "règle C : l12 est le premier emplacement libre dans le sens horaire depuis le haut autour du dernier bâtiment d'alice en m12"},
		{'D', -1, false, "règle D : aucun emplacement libre autour du dernier bâtiment d'alice en m12, la tuile est donc retirée de la partie"},
		{'C', l12, true, "règle C : l12 est le premier emplacement libre dans le sens horaire depuis le haut autour de la tuile de départ en m13, alice n'ayant encore rien construit"},
	}
	for _, c := range cases {
		ref := 11*frameW + 12 // m12
		st.lastBuilt = int16(ref)
		if c.start {
			st.lastBuilt, ref = -1, int(st.startAt)
		}
		if _, fr := st.placeWhy(c.q, c.rule, ref); fr != c.fr {
			t.Errorf("placeWhy(%c):\n got %q\nwant %q", c.rule, fr, c.fr)
		}
	}
}

// TestSoloCountsRoads: the solo game counts the roads as the base game
// does (deux-heritiers-fr.txt:456, « y compris pour les routes »), so it
// refuses roads=false, which the base game offers for a first game (l.
// 187): Henri's score and the player's both lost their roads.
func TestSoloCountsRoads(t *testing.T) {
	start := func(players ...string) error {
		rec, err := adjudicator.NewRecord(Game, players, adjudicator.Options{"roads": "false"}, "test", nil)
		if err != nil {
			return err
		}
		_, err = adjudicator.Start(reg, rec)
		return err
	}
	if err := start("alice"); err == nil || !strings.Contains(err.Error(), "deux-heritiers-fr.txt:456") {
		t.Errorf("a solo game without roads: %v", err)
	}
	if err := start("alice", "bob"); err != nil {
		t.Errorf("a two-player game without roads: %v", err)
	}
}
