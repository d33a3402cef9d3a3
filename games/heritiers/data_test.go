package heritiers

import (
	"strings"
	"testing"
)

// TestDefaultData checks the embedded tile list against every fact
// DATA-NOTES.md gives (RULINGS.md DH-1): 54 tiles, 6 sets of 9, each set's
// buildings, the costs the examples show, 3 tiles of each colour per set.
func TestDefaultData(t *testing.T) {
	d := DefaultData
	if len(d.Tiles) != 54 {
		t.Fatalf("%d tiles, want 54", len(d.Tiles))
	}
	for set := range numSets {
		if n := len(d.bySet[set]); n != 9 {
			t.Errorf("set %s has %d tiles, want 9", set, n)
		}
		var colours [3]int
		for _, i := range d.bySet[set] {
			colours[d.Tiles[i].Colour]++
		}
		if colours != [3]int{3, 3, 3} {
			t.Errorf("set %s colours %v, want 3 of each", set, colours)
		}
	}
	sets := map[string][]string{
		"voyage":      {"auberge", "marché", "pèlerinage", "baronnie"},
		"agriculture": {"moulin", "mine", "étable", "boulangerie", "campement", "forge", "chalet"},
		"commerce":    {"ferme", "scierie", "carrière", "comptoir", "cathédrale"},
		"guerre":      {"siège", "forteresse"},
		"patrouille":  {"guet", "garnison"},
		"artisanat":   {"paniers", "poterie", "tonnellerie", "hôtel"},
	}
	for _, tl := range d.Tiles {
		found := false
		for _, b := range sets[tl.Set.String()] {
			found = found || b == tl.Building.String()
		}
		if !found {
			t.Errorf("%s in set %s", tl.ID, tl.Set)
		}
	}
	for set, bs := range sets {
		for _, b := range bs {
			n := 0
			for _, tl := range d.Tiles {
				if tl.Building.String() == b && tl.Set.String() == set {
					n++
				}
			}
			if n == 0 {
				t.Errorf("no %s in %s", b, set)
			}
		}
	}
	cost := func(id string) string {
		for _, tl := range d.Tiles {
			if tl.ID == id {
				return tl.costWords().EN
			}
		}
		return "?"
	}
	// deux-heritiers-fr.txt:130, 138, 153.
	for id, want := range map[string]string{"auberge-1": "2 stone 1 grain", "comptoir-1": "1 wood 2 grain", "boulangerie-1": "1 wood 2 grain"} {
		if got := cost(id); got != want {
			t.Errorf("%s costs %s, want %s", id, got, want)
		}
	}
	for _, tl := range d.Tiles {
		if tl.Building == Guet && tl.costWords().EN != "1 wood 1 stone 1 grain" {
			t.Errorf("%s costs %s, want 1 wood 1 stone 1 grain", tl.ID, tl.costWords().EN)
		}
	}
}

// TestParseDataErrors checks that a faulty tile file is refused with the
// line of the tile and what would be right.
func TestParseDataErrors(t *testing.T) {
	good := "tiles:\n  - {id: auberge-1, set: voyage, building: auberge, colour: grey, cost: [stone], roads: ns, param: row}\n"
	cases := []struct{ from, to, want string }{
		{"colour: grey", "colour: blue", `x:2: tile "auberge-1": colour "blue" is not green, grey or yellow`},
		{"id: auberge-1", "id: auberge-2", "id should be auberge-1"},
		{"set: voyage", "set: guerre", "the auberge belongs to the set voyage, not guerre"},
		{"building: auberge", "building: castle", `building "castle" is not one of the 24`},
		{"roads: ns", "roads: nsw", "not 3 (RULINGS.md DH-3)"},
		{"roads: ns", "roads: nx", `roads "nx": use the letters n, e, s and w`},
		{"param: row", "param: diagonal", `param "diagonal": a auberge names one of row, column`},
		{"cost: [stone]", "cost: [gold]", `cost: "gold" is not wood, stone or grain`},
		{"cost: [stone]", "cost: []", "a cost is 1 to 6 resources"},
		{"param: row}", "param: row, size: 3}", "unknown name size (the names here: id, set, building, colour, cost, roads, param)"},
	}
	for _, c := range cases {
		_, err := ParseData("x", []byte(strings.Replace(good, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: %v, want %q", c.from, c.to, err, c.want)
		}
	}
	farm := "tiles:\n  - {id: ferme-1, set: commerce, building: ferme, colour: green, cost: [stone]}\n"
	if _, err := ParseData("x", []byte(farm)); err == nil || !strings.Contains(err.Error(), "a ferme gives grain, so its tile is yellow") {
		t.Errorf("a green ferme: %v", err)
	}
	if _, err := ParseData("x", []byte(good)); err != nil {
		t.Errorf("good file: %v", err)
	}
}

// TestTilesOption starts a game with another tile file, as --opt
// tiles=@FILE does: auberge-1 green here.
func TestTilesOption(t *testing.T) {
	text := strings.ReplaceAll(string(defaultTiles), "building: auberge, colour: grey", "building: auberge, colour: green")
	st := newState(t, []string{"alice", "bob"}, "tiles", map[string]string{"tiles": text, "sets": "voyage,guerre,patrouille"})
	for _, tl := range st.data.Tiles {
		if tl.ID == "auberge-1" && tl.Colour != Green {
			t.Errorf("%s is %s", tl.ID, tl.Colour)
		}
	}
	o, _ := Game.ResolveOptions(map[string]string{"tiles": "tiles: [{id: x}]"})
	if _, err := Game.New(setupFor([]string{"alice"}, o)); err == nil || !strings.Contains(err.Error(), "the tiles option") {
		t.Errorf("a bad tiles option: %v", err)
	}
}
