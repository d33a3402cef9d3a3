package heritiers

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Colour is a tile's terrain: it is printed on both faces, and it is the
// resource the tile gives (deux-heritiers-fr.txt:52, 58-70).
type Colour uint8

// The colours, and the resource each gives.
const (
	Green  Colour = iota // wood
	Grey                 // stone
	Yellow               // grain
)

var (
	colourNames    = [...]string{"green", "grey", "yellow"}
	colourNamesFR  = [...]string{"vert", "gris", "jaune"}
	colourTuileFR  = [...]string{"verte", "grise", "jaune"} // after « tuile », feminine
	resourceNames  = [...]string{"wood", "stone", "grain"}
	resourceNameFR = [...]string{"bois", "pierre", "blé"}
	colourCode     = [...]byte{'w', 's', 'g'} // on the board: the resource's initial
)

func (c Colour) String() string { return colourNames[c] }

// Resource returns the resource the colour gives: "wood".
func (c Colour) Resource() string { return resourceNames[c] }

// Words returns the resource's name in English and French, for messages.
func (c Colour) Words() adjudicator.Words {
	return adjudicator.Words{EN: resourceNames[c], FR: resourceNameFR[c]}
}

// Set is one of the six sets of nine tiles (deux-heritiers-fr.txt:7-8, 21-45).
type Set uint8

// The sets, in the rulebook's order of effects.
const (
	Voyage Set = iota
	Agriculture
	Commerce
	Guerre
	Patrouille
	Artisanat
	numSets
)

var setNames = [...]string{"voyage", "agriculture", "commerce", "guerre", "patrouille", "artisanat"}

// setTitles are the sets' full French names.
var setTitles = [...]string{"Voyage", "Agriculture et Industrie", "Commerce et Église", "Guerre", "Patrouille", "Artisanat"}

func (s Set) String() string { return setNames[s] }

// Building is what a tile's face shows.
type Building uint8

// The buildings, by set (DATA-NOTES.md; deux-heritiers-fr.txt:195-370).
const (
	Auberge Building = iota
	Marche
	Pelerinage
	Baronnie
	Moulin
	Mine
	Etable
	Boulangerie
	Campement
	Forge
	Chalet
	Ferme
	Scierie
	Carriere
	Comptoir
	Cathedrale
	Siege
	Forteresse
	Guet
	Garnison
	Paniers
	Poterie
	Tonnellerie
	Hotel
	numBuildings
)

// buildingInfo is what the notation and the board need of a building.
type buildingInfo struct {
	name  string   // canonical, as printed: the French name in one word
	title string   // the full French name
	code  string   // three letters for the board
	set   Set      // its set
	en    []string // English names and short forms
	fr    []string // other French spellings, in one or more words
}

var buildings = [numBuildings]buildingInfo{
	{"auberge", "Auberge", "AUB", Voyage, []string{"inn"}, nil},
	{"marché", "Marché", "MAR", Voyage, []string{"market"}, nil},
	{"pèlerinage", "Lieu de pèlerinage", "PEL", Voyage, []string{"shrine", "pilgrimage", "pilgrimage site"}, []string{"lieu de pèlerinage", "lieu"}},
	{"baronnie", "Baronnie des voleurs", "BAR", Voyage, []string{"barony", "robber barony", "robbers"}, []string{"baronnie des voleurs", "voleurs"}},
	{"moulin", "Moulin", "MOU", Agriculture, []string{"mill"}, nil},
	{"mine", "Mine", "MIN", Agriculture, nil, nil},
	{"étable", "Étable", "ETA", Agriculture, []string{"stable", "cowshed"}, nil},
	{"boulangerie", "Boulangerie", "BOU", Agriculture, []string{"bakery"}, nil},
	{"campement", "Campement", "CAM", Agriculture, []string{"camp", "encampment"}, nil},
	{"forge", "Forge", "FOR", Agriculture, []string{"smithy"}, nil},
	{"chalet", "Chalet", "CHA", Agriculture, []string{"lodge", "hut"}, nil},
	{"ferme", "Ferme", "FER", Commerce, []string{"farm"}, nil},
	{"scierie", "Scierie", "SCI", Commerce, []string{"sawmill"}, nil},
	{"carrière", "Carrière", "CAR", Commerce, []string{"quarry"}, nil},
	{"comptoir", "Comptoir d'échange", "CPT", Commerce, []string{"trading post", "trade post", "trading"}, []string{"comptoir d'échange"}},
	{"cathédrale", "Cathédrale", "CAT", Commerce, []string{"cathedral"}, nil},
	{"siège", "Tour de siège", "SIE", Guerre, []string{"siege", "siege tower"}, []string{"tour de siège"}},
	{"forteresse", "Forteresse", "FRT", Guerre, []string{"fortress", "fort"}, nil},
	{"guet", "Tour de guet", "GUE", Patrouille, []string{"watchtower", "watch tower", "watch"}, []string{"tour de guet"}},
	{"garnison", "Garnison", "GAR", Patrouille, []string{"garrison"}, nil},
	{"paniers", "Boutique de paniers", "PAN", Artisanat, []string{"basket shop", "baskets", "basket"}, []string{"boutique de paniers", "boutique"}},
	{"poterie", "Atelier de poterie", "POT", Artisanat, []string{"pottery", "potter"}, []string{"atelier de poterie", "atelier"}},
	{"tonnellerie", "Tonnellerie", "TON", Artisanat, []string{"cooperage", "cooper"}, nil},
	{"hôtel", "Hôtel de ville", "HOT", Artisanat, []string{"town hall", "townhall", "hall"}, []string{"hôtel de ville", "mairie"}},
}

func (b Building) String() string { return buildings[b].name }

// Title returns the building's full French name: "Tour de guet".
func (b Building) Title() string { return buildings[b].title }

// Roads is the set of a tile's edges its road section reaches.
type Roads uint8

// The edges, as bits of Roads.
const (
	RoadN Roads = 1 << iota
	RoadE
	RoadS
	RoadW
)

// Crossroads is a tile whose four roads each end there
// (deux-heritiers-fr.txt:179).
const Crossroads = RoadN | RoadE | RoadS | RoadW

// rotate returns the roads of a tile turned half round, as the tiles of
// the player sitting opposite lie (RULINGS.md DH-6).
func (r Roads) rotate() Roads {
	return (r&RoadN)<<2 | (r&RoadS)>>2 | (r&RoadE)<<2 | (r&RoadW)>>2
}

func (r Roads) String() string {
	var b strings.Builder
	for i, c := range "nesw" {
		if r&(1<<i) != 0 {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func (r Roads) count() int {
	n := 0
	for i := range 4 {
		if r&(1<<i) != 0 {
			n++
		}
	}
	return n
}

func parseRoads(s string) (Roads, error) {
	var r Roads
	for _, c := range strings.ToLower(s) {
		i := strings.IndexRune("nesw", c)
		if i < 0 {
			return 0, fmt.Errorf("roads %q: use the letters n, e, s and w", s)
		}
		if r&(1<<i) != 0 {
			return 0, fmt.Errorf("roads %q: %c is given twice", s, c)
		}
		r |= 1 << i
	}
	return r, nil
}

// Param is what a tile indicates where its effect needs it
// (deux-heritiers-fr.txt:201, 329, 344, 368).
type Param uint8

// The parameters. A comptoir's and an hôtel's name a building instead,
// held in Tile.Of.
const (
	NoParam Param = iota
	Row
	Column
	Orthogonal
	Diagonal
)

var paramNames = [...]string{"", "row", "column", "orthogonal", "diagonal"}
var paramNamesFR = [...]string{"", "rangée", "colonne", "orthogonal", "diagonal"}

// Tile is one of the building tiles.
type Tile struct {
	ID       string // "auberge-2"
	Set      Set
	Building Building
	Colour   Colour
	Cost     [3]uint8 // resources by colour: wood, stone, grain
	Roads    Roads    // as printed, the tile upright
	Param    Param    // row/column, orthogonal/diagonal
	Of       Building // for a comptoir or an hôtel: the building it names
}

// costWords returns the cost for people: "2 stone 1 grain".
func (t *Tile) costWords() adjudicator.Words {
	var en, fr []string
	for c := range 3 {
		if n := t.Cost[c]; n > 0 {
			en = append(en, fmt.Sprintf("%d %s", n, resourceNames[c]))
			w := resourceNameFR[c]
			if n > 1 && c != int(Green) {
				w += "s" // 2 pierres, 2 blés; bois is both
			}
			fr = append(fr, fmt.Sprintf("%d %s", n, w))
		}
	}
	if len(en) == 0 {
		return adjudicator.Words{EN: "nothing", FR: "rien"}
	}
	return adjudicator.Words{EN: strings.Join(en, " "), FR: strings.Join(fr, " ")}
}

// detail returns the tile's parameter for people: "row", "ferme", or "".
func (t *Tile) detail() string {
	switch t.Building {
	case Comptoir, Hotel:
		return t.Of.String()
	}
	return paramNames[t.Param]
}

// Data is the list of building tiles a game is played with. The default is
// embedded (tiles.yaml, RULINGS.md DH-1); the option tiles gives another.
type Data struct {
	Tiles []Tile
	bySet [numSets][]int16
}

//go:embed tiles.yaml
var defaultTiles []byte

// DefaultData is the embedded tile list (RULINGS.md DH-1).
var DefaultData = mustParseData("tiles.yaml", defaultTiles)

func mustParseData(name string, b []byte) *Data {
	d, err := ParseData(name, b)
	if err != nil {
		panic(err)
	}
	return d
}

// wantParam returns the parameters a building's tiles must name, or nil.
func wantParam(b Building) []string {
	switch b {
	case Auberge, Guet:
		return []string{"row", "column"}
	case Paniers, Poterie, Tonnellerie:
		return []string{"orthogonal", "diagonal"}
	case Comptoir:
		return []string{"ferme", "scierie", "carrière"}
	case Hotel:
		return []string{"paniers", "poterie", "tonnellerie"}
	}
	return nil
}

// ParseData reads a tile list in the format of tiles.yaml. Each tile's id
// is its building and its copy number; a ferme must be yellow, a scierie
// green and a carrière grey, since a troop on one gives "2 ressources du
// type correspondant" (deux-heritiers-fr.txt:291); a road section reaches
// 0, 1, 2 or all 4 edges (RULINGS.md DH-3). Errors give the line.
func ParseData(name string, b []byte) (*Data, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var raw struct {
		Tiles []yaml.Node `yaml:"tiles"`
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty document; expected tiles: [...]", name)
	}
	if err := strictDecode(doc.Content[0], &raw); err != nil {
		return nil, fmt.Errorf("%s: %s", name, notation.YAMLDataText(err))
	}
	d := &Data{}
	var err error
	seen := map[string]int{}
	copies := map[Building]int{}
	for _, n := range raw.Tiles {
		var rt struct { // anonymous: a type error says "a mapping" (notation.YAMLDataText)
			ID       string   `yaml:"id"`
			Set      string   `yaml:"set"`
			Building string   `yaml:"building"`
			Colour   string   `yaml:"colour"`
			Cost     []string `yaml:"cost"`
			Roads    string   `yaml:"roads"`
			Param    string   `yaml:"param"`
		}
		if err := strictDecode(&n, &rt); err != nil {
			// The lines of err count from the tile's (strictDecode).
			return nil, fmt.Errorf("%s:%d: tile: %s", name, n.Line, tileLines.ReplaceAllString(notation.YAMLDataText(err), "$1"))
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: tile %q: %s", name, n.Line, rt.ID, fmt.Sprintf(format, args...))
		}
		var t Tile
		set := slices.IndexFunc(setNames[:], func(s string) bool { return notation.Fold(s) == notation.Fold(rt.Set) })
		if set < 0 {
			return nil, fail("set %q is not one of %s", rt.Set, strings.Join(setNames[:], ", "))
		}
		t.Set = Set(set)
		bld, ok := buildingByWord(rt.Building)
		if !ok {
			return nil, fail("building %q is not one of the 24 (auberge, marché, ... hôtel)", rt.Building)
		}
		t.Building = bld
		if buildings[bld].set != t.Set {
			return nil, fail("the %s belongs to the set %s, not %s", bld, buildings[bld].set, t.Set)
		}
		copies[bld]++
		want := fmt.Sprintf("%s-%d", bld, copies[bld])
		if notation.Fold(rt.ID) != notation.Fold(want) {
			return nil, fail("id should be %s: the building and its copy number, in the file's order", want)
		}
		t.ID = want
		if line, dup := seen[want]; dup {
			return nil, fail("id given twice (first on line %d)", line)
		}
		seen[want] = n.Line
		c, ok := colourByWord(rt.Colour)
		if !ok {
			return nil, fail("colour %q is not green, grey or yellow", rt.Colour)
		}
		t.Colour = c
		if len(rt.Cost) == 0 || len(rt.Cost) > 6 {
			return nil, fail("a cost is 1 to 6 resources (wood, stone, grain)")
		}
		for _, r := range rt.Cost {
			rc, ok := colourByWord(r)
			if !ok {
				return nil, fail("cost: %q is not wood, stone or grain", r)
			}
			t.Cost[rc]++
		}
		if t.Roads, err = parseRoads(rt.Roads); err != nil {
			return nil, fail("%v", err)
		}
		if n := t.Roads.count(); n == 3 {
			return nil, fail("a road section reaches 0, 1, 2 or 4 edges (a crossroads), not 3 (RULINGS.md DH-3)")
		}
		switch {
		case bld == Ferme && c != Yellow, bld == Scierie && c != Green, bld == Carriere && c != Grey:
			return nil, fail("a %s gives %s, so its tile is %s (deux-heritiers-fr.txt:291)", bld,
				[...]string{Ferme: "grain", Scierie: "wood", Carriere: "stone"}[bld],
				[...]string{Ferme: "yellow", Scierie: "green", Carriere: "grey"}[bld])
		}
		params := wantParam(bld)
		switch {
		case params == nil && rt.Param != "":
			return nil, fail("a %s has no param", bld)
		case params != nil:
			i := slices.IndexFunc(params, func(p string) bool { return notation.Fold(p) == notation.Fold(rt.Param) })
			if i < 0 {
				return nil, fail("param %q: a %s names one of %s", rt.Param, bld, strings.Join(params, ", "))
			}
			switch bld {
			case Comptoir, Hotel:
				t.Of, _ = buildingByWord(params[i])
			default:
				t.Param = Param(slices.Index(paramNames[:], params[i]))
			}
		}
		d.Tiles = append(d.Tiles, t)
		d.bySet[t.Set] = append(d.bySet[t.Set], int16(len(d.Tiles)-1))
	}
	if len(d.Tiles) > 200 {
		return nil, fmt.Errorf("%s: %d tiles; at most 200", name, len(d.Tiles))
	}
	return d, nil
}

// tileLines are the line numbers in the messages of a tile's strict
// decoding, which count from the tile, not from the file.
var tileLines = regexp.MustCompile(`(^|; )line [0-9]+: `)

func strictDecode(n *yaml.Node, v any) error {
	// yaml.v3 has no KnownFields for Node.Decode: re-encode and decode
	// strictly, so that a misspelt key is an error, not ignored.
	b, e := yaml.Marshal(n)
	if e != nil {
		return e
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// buildingByWord finds a building by its canonical name or any spelling.
func buildingByWord(w string) (Building, bool) {
	f := foldPhrase(w)
	for i := range buildings {
		if foldPhrase(buildings[i].name) == f {
			return Building(i), true
		}
	}
	for i := range buildings {
		for _, s := range append(slices.Clone(buildings[i].en), buildings[i].fr...) {
			if foldPhrase(s) == f {
				return Building(i), true
			}
		}
	}
	return 0, false
}

// foldPhrase folds a name of one or more words for comparison: accents and
// case ignored, hyphens read as spaces.
func foldPhrase(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(notation.Fold(s), "-", " ")), " ")
}

func colourByWord(w string) (Colour, bool) {
	switch notation.Fold(strings.TrimSpace(w)) {
	case "green", "wood", "vert", "bois", "w":
		return Green, true
	case "grey", "gray", "stone", "gris", "pierre", "s":
		return Grey, true
	case "yellow", "grain", "wheat", "jaune", "ble", "g":
		return Yellow, true
	}
	return 0, false
}

// SetNames returns the names of the sets, in order.
func SetNames() []string { return slices.Clone(setNames[:]) }
