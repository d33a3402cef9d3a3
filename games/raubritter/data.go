package raubritter

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Terrain is the landscape of a tile.
type Terrain uint8

// The terrains. Their order is the order of the rulebook's list.
const (
	Plain Terrain = iota
	Forest
	Mountains
	Lake
)

var terrainNames = [...]string{"plain", "forest", "mountains", "lake"}

// terrainNamesFR are the French names, as the French notation writes them.
var terrainNamesFR = [...]string{"plaine", "forêt", "montagnes", "lac"}

func (t Terrain) String() string { return terrainNames[t] }

// French returns the terrain's French name: "plaine".
func (t Terrain) French() string { return terrainNamesFR[t] }

// Stay returns how many knights must stay on a tile of this terrain when a
// stack enters or leaves it (raubritter-fr-scan.txt:148-161), and whether
// knights may stand there at all (never on a lake, :163).
func (t Terrain) Stay() (n int, ok bool) {
	switch t {
	case Plain:
		return 1, true
	case Forest:
		return 2, true
	case Mountains:
		return 3, true
	}
	return 0, false
}

// Building is what stands on a tile.
type Building uint8

// The buildings.
const (
	NoBuilding Building = iota
	Castle
	Village
	Town
)

var buildingNames = [...]string{"", "castle", "village", "town"}

// buildingNamesFR are the French names, and the French with the
// indefinite article, for the gender: "un château", "une ville".
var (
	buildingNamesFR   = [...]string{"", "château", "village", "ville"}
	buildingArticleFR = [...]string{"", "un château", "un village", "une ville"}
)

func (b Building) String() string { return buildingNames[b] }

// French returns the building's French name: "château".
func (b Building) French() string { return buildingNamesFR[b] }

// Points returns what the top knight on a tile with this building scores
// (raubritter-fr-scan.txt:243-245).
func (b Building) Points() int {
	switch b {
	case Castle:
		return 1
	case Village:
		return 2
	case Town:
		return 3
	}
	return 0
}

// Kind is the face of a tile: its terrain and building.
type Kind struct {
	Terrain  Terrain
	Building Building
}

// String returns "plain castle", or "lake" for a tile without a building.
func (k Kind) String() string {
	if k.Building == NoBuilding {
		return k.Terrain.String()
	}
	return k.Terrain.String() + " " + k.Building.String()
}

// French returns the French name in the order of the French notation,
// terrain first, so that a player can copy it into a step: "plaine
// château", "lac".
func (k Kind) French() string {
	if k.Building == NoBuilding {
		return k.Terrain.French()
	}
	return k.Terrain.French() + " " + k.Building.French()
}

// Words returns the tile's name in English and French, for messages.
func (k Kind) Words() adjudicator.Words { return adjudicator.Words{EN: k.String(), FR: k.French()} }

// kindWords returns the names of kinds, joined with ", ".
func kindWords(kinds []Kind) adjudicator.Words {
	w := make([]adjudicator.Words, len(kinds))
	for i, k := range kinds {
		w[i] = k.Words()
	}
	return adjudicator.JoinWords(w, ", ")
}

// Tile is a tile in a player's stack: its face and the letter on its back.
type Tile struct {
	Letter byte
	Kind   Kind
}

// String returns "B plain village".
func (t Tile) String() string { return string(t.Letter) + " " + t.Kind.String() }

// Data is the tile and knight supply of one player; every player gets the
// same. The default is embedded (tiles.yaml); a game can be started with
// another.
type Data struct {
	Knights int             // knights per player
	Letters map[byte][]Kind // tiles by back letter, A to E
	total   map[Kind]int    // tiles of each kind per player
}

// letters is the order of the back letters: A is dealt at setup, B is the
// top of the stack and E its bottom (raubritter-fr-scan.txt:61-70).
const letters = "ABCDE"

//go:embed tiles.yaml
var defaultTiles []byte

// DefaultData is the embedded tile mix (ruling RB-1).
var DefaultData = mustParseData("tiles.yaml", defaultTiles)

func mustParseData(name string, b []byte) *Data {
	d, err := ParseData(name, b)
	if err != nil {
		panic(err)
	}
	return d
}

// ParseData reads a tile data file in the format of tiles.yaml. Letter A
// must hold exactly 4 tiles with at least one castle, since each player
// keeps a castle and one other A tile in hand and puts two in the start
// layout (raubritter-fr-scan.txt:72-78).
func ParseData(name string, b []byte) (*Data, error) {
	var raw struct {
		Knights int                 `yaml:"knights"`
		Letters map[string][]string `yaml:"letters"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %s", name, notation.YAMLDataText(err))
	}
	d := &Data{Knights: raw.Knights, Letters: map[byte][]Kind{}, total: map[Kind]int{}}
	if d.Knights < 1 || d.Knights > 99 {
		return nil, fmt.Errorf("%s: knights must be 1 to 99, not %d", name, d.Knights)
	}
	for l, tiles := range raw.Letters {
		if len(l) != 1 || !strings.Contains(letters, l) {
			return nil, fmt.Errorf("%s: letter %q is not one of A, B, C, D, E", name, l)
		}
		for _, t := range tiles {
			k, err := ParseKind(t)
			if err != nil {
				return nil, fmt.Errorf("%s: letter %s: %w", name, l, err)
			}
			d.Letters[l[0]] = append(d.Letters[l[0]], k)
			d.total[k]++
		}
	}
	a := d.Letters['A']
	castles := 0
	for _, k := range a {
		if k.Building == Castle {
			castles++
		}
	}
	if len(a) != 4 || castles == 0 {
		return nil, fmt.Errorf("%s: letter A must hold 4 tiles with at least one castle", name)
	}
	return d, nil
}

// count returns how many tiles of kind k with letter l one player has.
func (d *Data) count(l byte, k Kind) int {
	n := 0
	for _, x := range d.Letters[l] {
		if x == k {
			n++
		}
	}
	return n
}

// Total returns how many tiles of kind k one player has.
func (d *Data) Total(k Kind) int { return d.total[k] }

// Size returns the number of tiles of one player.
func (d *Data) Size() int {
	n := 0
	for _, c := range d.total {
		n += c
	}
	return n
}

// ParseKind reads "plain castle", "forest village", "lake", in English or
// French, in either word order.
func ParseKind(s string) (Kind, error) {
	steps, errs := notation.Split(s)
	if len(errs) > 0 {
		return Kind{}, errs[0]
	}
	if len(steps) != 1 {
		return Kind{}, fmt.Errorf("%q is not one tile", s)
	}
	sc := notation.NewScanner(steps[0])
	k, err := scanKind(sc)
	if err != nil {
		return Kind{}, err
	}
	if err := sc.ExpectEnd(); err != nil {
		return Kind{}, err
	}
	return k, nil
}
