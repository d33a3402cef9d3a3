package lowenherz

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Terrain is the landscape of a square.
type Terrain uint8

// The terrains (lowenherz-2003-fr.txt:90-95, DATA-NOTES.md).
const (
	Meadow Terrain = iota
	Forest
	Village
	City // the king's city (cité du Roi)
	Gold
	Silver
	Copper
	Stones // precious stones (pierres précieuses, diamant)
)

// terrainCodes are the one-character codes of tiles.yaml, the board and
// the position's terrain rows.
const terrainCodes = ".FVKGSCP"

var (
	terrainNames   = [...]string{"meadow", "forest", "village", "king's city", "gold mine", "silver mine", "copper mine", "precious-stone mine"}
	terrainNamesFR = [...]string{"pré", "forêt", "village", "cité du Roi", "mine d'or", "mine d'argent", "mine de cuivre", "mine de pierres précieuses"}
)

func (t Terrain) String() string { return terrainNames[t] }

// Words returns the terrain's name in English and French.
func (t Terrain) Words() adjudicator.Words {
	return adjudicator.Words{EN: terrainNames[t], FR: terrainNamesFR[t]}
}

// WordsA returns the terrain's name with its article, for a sentence such
// as "b3 is a village" or "b3 est un village".
func (t Terrain) WordsA() adjudicator.Words {
	en, fr := "a ", "un "
	switch t {
	case City:
		en, fr = "the ", "la "
	case Forest, Gold, Silver, Copper, Stones:
		fr = "une "
	}
	return adjudicator.Words{EN: en + terrainNames[t], FR: fr + terrainNamesFR[t]}
}

// Points returns what the terrain scores in a domain: forest 1, village 3,
// the king's city 5 (lowenherz-2003-fr.txt:92-95).
func (t Terrain) Points() int {
	switch t {
	case Forest:
		return 1
	case Village:
		return 3
	case City:
		return 5
	}
	return 0
}

// Mine reports whether the terrain is a mine, and which (0-3).
func (t Terrain) Mine() (int, bool) {
	if t >= Gold {
		return int(t - Gold), true
	}
	return 0, false
}

// holdsKnight reports whether a knight may stand on the terrain: meadow or
// forest (lowenherz-2003-fr.txt:146-147).
func (t Terrain) holdsKnight() bool { return t == Meadow || t == Forest }

// Size is the number of rows and columns of the board: nine 4x4 tiles.
const Size = 12

// Tile is one of the nine 4x4 landscape tiles.
type Tile struct {
	Name  string
	Cells [16]Terrain // row by row, north row first
}

// rotate returns the tile turned a quarter clockwise n times.
func (t Tile) rotate(n int) Tile {
	for range n % 4 {
		var r [16]Terrain
		for row := range 4 {
			for col := range 4 {
				// The square at (row, col) goes to (col, 3-row).
				r[col*4+(3-row)] = t.Cells[row*4+col]
			}
		}
		t.Cells = r
	}
	return t
}

func (t Tile) royal() bool { return slices.Contains(t.Cells[:], City) }

// Data is the landscape tiles a board is made of. The default is embedded
// (tiles.yaml); a game can be started with another file.
type Data struct {
	Tiles []Tile // nine; Tiles[Royal] holds the king's city
	Royal int
}

//go:embed tiles.yaml
var defaultTiles []byte

// DefaultData is the embedded tile design (ruling LH-15).
var DefaultData = mustParseData("tiles.yaml", defaultTiles)

func mustParseData(name string, b []byte) *Data {
	d, err := ParseData(name, b)
	if err != nil {
		panic(err)
	}
	return d
}

// ParseData reads a tile file in the format of tiles.yaml: nine tiles of
// 4 rows of 4 terrain codes, exactly one of them holding the king's city,
// which it holds once. Errors give the line and column in the file.
func ParseData(name string, b []byte) (*Data, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var raw struct {
		Tiles []struct {
			Name string   `yaml:"name"`
			Rows []string `yaml:"rows"`
		} `yaml:"tiles"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %s", name, notation.YAMLDataText(err))
	}
	// Lines of each tile, for the errors.
	var lines []int
	if len(doc.Content) == 1 {
		root := doc.Content[0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "tiles" {
				for _, t := range root.Content[i+1].Content {
					lines = append(lines, t.Line)
				}
			}
		}
	}
	at := func(i int) string {
		if i < len(lines) {
			return fmt.Sprintf("%s:%d", name, lines[i])
		}
		return name
	}
	if len(raw.Tiles) != 9 {
		return nil, fmt.Errorf("%s: the board is nine tiles, not %d", name, len(raw.Tiles))
	}
	d := &Data{Royal: -1}
	cities := 0
	for i, rt := range raw.Tiles {
		t := Tile{Name: rt.Name}
		if t.Name == "" {
			t.Name = fmt.Sprintf("tile %d", i+1)
		}
		if len(rt.Rows) != 4 {
			return nil, fmt.Errorf("%s: tile %s has %d rows, not 4", at(i), t.Name, len(rt.Rows))
		}
		for r, row := range rt.Rows {
			if len(row) != 4 {
				return nil, fmt.Errorf("%s: tile %s, row %d: %q is not 4 squares", at(i), t.Name, r+1, row)
			}
			for c := range 4 {
				k := strings.IndexByte(terrainCodes, row[c])
				if k < 0 {
					return nil, fmt.Errorf("%s: tile %s, row %d: %q is not a terrain (one of %s)", at(i), t.Name, r+1, row[c], terrainCodes)
				}
				t.Cells[r*4+c] = Terrain(k)
				if Terrain(k) == City {
					cities++
				}
			}
		}
		if t.royal() {
			d.Royal = i
		}
		d.Tiles = append(d.Tiles, t)
	}
	if cities != 1 {
		return nil, fmt.Errorf("%s: the board has one square of the king's city (K), not %d", name, cities)
	}
	return d, nil
}

// Layout places the nine tiles on the board. fixed: in the file's order
// row by row, the royal tile swapped into the centre, none turned. Else
// the royal tile goes in the centre and the others in an order and turns
// drawn from rng, as the rulebook lets the players choose
// (lowenherz-2003-fr-scan.txt:33-36).
func (d *Data) Layout(rng *adjudicator.RNG, fixed bool) [Size * Size]Terrain {
	slots := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	slots[4], slots[d.Royal] = slots[d.Royal], slots[4]
	turns := make([]int, 9)
	if !fixed {
		others := append(slices.Clone(slots[:4]), slots[5:]...)
		rng.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
		copy(slots[:4], others[:4])
		copy(slots[5:], others[4:])
		for i := range turns {
			turns[i] = rng.IntN(4)
		}
	}
	var out [Size * Size]Terrain
	for s, ti := range slots {
		t := d.Tiles[ti].rotate(turns[s])
		r0, c0 := (s/3)*4, (s%3)*4
		for r := range 4 {
			for c := range 4 {
				out[(r0+r)*Size+c0+c] = t.Cells[r*4+c]
			}
		}
	}
	return out
}

// CardKind is what an action card lets its player do.
type CardKind uint8

// The twelve kinds of action card (lowenherz-2003-fr.txt:240-285).
const (
	Border1 CardKind = iota
	Borders2
	Borders3
	Knight1
	Knights2
	KnightOrBorders
	KnightOrExtension
	Extension
	ExtensionOrBorders
	KnightsOrExtension
	Deserter
	Alliance
	numCardKinds
)

var (
	cardNames = [...]string{"1 border", "2 borders", "3 borders", "1 knight", "2 knights",
		"knight or 2 borders", "knight or extension", "extension", "extension or 2 borders",
		"2 knights or extension", "deserter", "alliance"}
	cardNamesFR = [...]string{"1 frontière", "2 frontières", "3 frontières", "1 chevalier", "2 chevaliers",
		"chevalier ou 2 frontières", "chevalier ou extension", "extension", "extension ou 2 frontières",
		"2 chevaliers ou extension", "transfuge", "alliance"}
)

func (k CardKind) String() string { return cardNames[k] }

// Action is one of the five actions a card may carry out
// (lowenherz-2003-fr-scan.txt:129-134).
type Action uint8

// The actions.
const (
	ActBorders Action = iota
	ActKnights
	ActExtension
	ActDeserter
	ActAlliance
	numActions
)

var (
	actionNames   = [...]string{"borders", "knights", "extension", "deserter", "alliance"}
	actionNamesFR = [...]string{"frontières", "chevaliers", "extension", "transfuge", "alliance"}
)

func (a Action) String() string { return actionNames[a] }

// Words returns the action's name in English and French.
func (a Action) Words() adjudicator.Words {
	return adjudicator.Words{EN: actionNames[a], FR: actionNamesFR[a]}
}

// option is one action a card offers, with how many borders or knights.
type option struct {
	act Action
	n   int // borders or knights at most; extension squares 2
}

// options returns the actions a card of kind k offers; a card with two
// offers one or the other (lowenherz-2003-fr-scan.txt:136-139). The list
// is shared: not to be changed.
func (k CardKind) options() []option {
	if k < numCardKinds {
		return cardOptions[k]
	}
	return cardOptions[Alliance]
}

// cardOptions are the options of each card kind, made once: Legal asks
// for them at every step of a search.
var cardOptions = [...][]option{
	Border1:            {{ActBorders, 1}},
	Borders2:           {{ActBorders, 2}},
	Borders3:           {{ActBorders, 3}},
	Knight1:            {{ActKnights, 1}},
	Knights2:           {{ActKnights, 2}},
	KnightOrBorders:    {{ActKnights, 1}, {ActBorders, 2}},
	KnightOrExtension:  {{ActKnights, 1}, {ActExtension, 2}},
	Extension:          {{ActExtension, 2}},
	ExtensionOrBorders: {{ActExtension, 2}, {ActBorders, 2}},
	KnightsOrExtension: {{ActKnights, 2}, {ActExtension, 2}},
	Deserter:           {{ActDeserter, 1}},
	Alliance:           {{ActAlliance, 1}},
}

// Card is one action card: its back letter and kind.
type Card struct {
	Letter byte // 'A' to 'D'
	Kind   CardKind
}

// String returns "B knight or 2 borders".
func (c Card) String() string { return string(c.Letter) + " " + cardNames[c.Kind] }

// French returns "B chevalier ou 2 frontières".
func (c Card) French() string { return string(c.Letter) + " " + cardNamesFR[c.Kind] }

// Words returns the card's name in English and French.
func (c Card) Words() adjudicator.Words { return adjudicator.Words{EN: c.String(), FR: c.French()} }

// cardInfo is a card's red cost and blue sale value.
type cardInfo struct{ cost, sale, count int }

//go:embed cards.yaml
var cardsYAML []byte

// cardTable is the cost, sale value and count of each card, by letter and
// kind; deckOrder lists the 60 cards letter by letter in the table's order.
var cardTable, deckOrder = mustCards()

func mustCards() (map[Card]cardInfo, []Card) {
	var raw map[string][]struct {
		Card  string `yaml:"card"`
		Cost  int    `yaml:"cost"`
		Sale  int    `yaml:"sale"`
		Count int    `yaml:"count"`
	}
	if err := yaml.Unmarshal(cardsYAML, &raw); err != nil {
		panic(err)
	}
	table := map[Card]cardInfo{}
	var all []Card
	for _, l := range "ABCD" {
		for _, e := range raw[string(l)] {
			k := slices.Index(cardNames[:], e.Card)
			if k < 0 {
				panic("cards.yaml: unknown card " + e.Card)
			}
			c := Card{byte(l), CardKind(k)}
			table[c] = cardInfo{e.Cost, e.Sale, e.Count}
			for range e.Count {
				all = append(all, c)
			}
		}
	}
	if len(all) != 60 {
		panic(fmt.Sprintf("cards.yaml: %d cards, not 60", len(all)))
	}
	return table, all
}

// cardByLetter is cardTable by back letter ('A' to 'D') and kind, made
// once: a search asks a card's cost at every step.
var cardByLetter = func() (t [4][numCardKinds]cardInfo) {
	for c, info := range cardTable {
		t[c.Letter-'A'][c.Kind] = info
	}
	return t
}()

// info returns the card's line of cardTable (zero for no card of the game).
func (c Card) info() cardInfo {
	if l := int(c.Letter) - 'A'; l >= 0 && l < len(cardByLetter) && c.Kind < numCardKinds {
		return cardByLetter[l][c.Kind]
	}
	return cardInfo{}
}

// Cost returns the card's red cost.
func (c Card) Cost() int { return c.info().cost }

// Sale returns the card's blue sale value.
func (c Card) Sale() int { return c.info().sale }

// exists reports whether the card is in the table.
func (c Card) exists() bool { _, ok := cardTable[c]; return ok }
