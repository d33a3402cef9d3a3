package lowenherz97

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/heraldgames/herald/games/internal/grid"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// The board: 6 pieces of 5x5 squares, 3 across and 2 down
// (lowenherz-1997-fr.txt:14, DATA-NOTES.md).
const (
	width  = 15
	height = 10
	piece  = 5
)

// Terrain is what a square shows.
type Terrain uint8

// The terrains (lowenherz-1997-fr.txt:163-165).
const (
	Empty Terrain = iota
	Forest
	Hill
	City
)

var (
	terrainNames   = [...]string{"empty", "forest", "hill", "city"}
	terrainNamesFR = [...]string{"vide", "forêt", "colline", "ville"}
	terrainCodes   = [...]byte{'.', 'F', 'H', 'C'}
)

// String returns the terrain's English name.
func (t Terrain) String() string { return terrainNames[t] }

// French returns the terrain's French name.
func (t Terrain) French() string { return terrainNamesFR[t] }

func terrainOf(c byte) (Terrain, bool) {
	i := strings.IndexByte(string(terrainCodes[:]), c)
	return Terrain(max(i, 0)), i >= 0
}

// Start is one colour's basic start position: castles, the knight beside
// each, and the walls of its first region.
type Start struct {
	Castles, Knights []grid.Square
	Walls            []grid.Edge
}

// Map is a board's terrain and the basic start positions (map.yaml).
type Map struct {
	Pieces  map[string][piece * piece]Terrain // the six pieces, row by row
	Layout  [2][3]string                      // the pieces in the frame
	Terrain []Terrain                         // the basic board, square by square
	Start   []Start                           // by colour, 4
}

//go:embed map.yaml
var defaultMapText []byte

// DefaultMap is the embedded basic map (ruling L97-1).
var DefaultMap = mustParseMap("map.yaml", defaultMapText)

func mustParseMap(name string, b []byte) *Map {
	m, err := ParseMap(name, b)
	if err != nil {
		panic(err)
	}
	return m
}

// ParseMap reads a map file in the format of map.yaml and checks it: six
// pieces of 5 rows of 5 squares, each used once in the layout, and four
// start positions of 3 castles on empty or forest squares, each with a
// knight on an empty square beside it, castles of a colour at least 6
// squares apart (lowenherz-1997-fr.txt:295-297), walls between adjacent
// squares and no square used twice.
func ParseMap(name string, b []byte) (*Map, error) {
	var raw struct {
		Pieces map[string][]string `yaml:"pieces"`
		Layout [][]string          `yaml:"layout"`
		Start  []struct {
			Castles []string `yaml:"castles"`
			Knights []string `yaml:"knights"`
			Walls   []string `yaml:"walls"`
		} `yaml:"start"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %s", name, notation.YAMLDataText(err))
	}
	m := &Map{Pieces: map[string][piece * piece]Terrain{}}
	for k, rows := range raw.Pieces {
		if len(rows) != piece {
			return nil, fmt.Errorf("%s: piece %s has %d rows, want %d", name, k, len(rows), piece)
		}
		var p [piece * piece]Terrain
		for r, row := range rows {
			if len(row) != piece {
				return nil, fmt.Errorf("%s: piece %s row %d is %q; want %d of . F H C", name, k, r+1, row, piece)
			}
			for c := range piece {
				t, ok := terrainOf(row[c])
				if !ok {
					return nil, fmt.Errorf("%s: piece %s row %d: %q is not one of . F H C", name, k, r+1, row[c])
				}
				p[r*piece+c] = t
			}
		}
		m.Pieces[k] = p
	}
	if len(m.Pieces) != 6 {
		return nil, fmt.Errorf("%s: %d pieces, want 6", name, len(m.Pieces))
	}
	if len(raw.Layout) != 2 || len(raw.Layout[0]) != 3 || len(raw.Layout[1]) != 3 {
		return nil, fmt.Errorf("%s: layout is 2 rows of 3 pieces", name)
	}
	used := map[string]bool{}
	for r := range 2 {
		for c := range 3 {
			k := raw.Layout[r][c]
			if _, ok := m.Pieces[k]; !ok || used[k] {
				return nil, fmt.Errorf("%s: layout: %q is not a piece, or is used twice", name, k)
			}
			used[k] = true
			m.Layout[r][c] = k
		}
	}
	m.Terrain = composeMap(m.Pieces, m.Layout, nil)
	if len(raw.Start) != 4 {
		return nil, fmt.Errorf("%s: start gives %d colours, want 4", name, len(raw.Start))
	}
	g := grid.New(width, height)
	taken := map[grid.Square]bool{}
	for i, st := range raw.Start {
		var s Start
		if len(st.Castles) != 3 || len(st.Knights) != 3 {
			return nil, fmt.Errorf("%s: start %d: 3 castles and 3 knights", name, i+1)
		}
		for j := range 3 {
			c, err := g.Parse(st.Castles[j])
			if err != nil {
				return nil, fmt.Errorf("%s: start %d: castle: %v", name, i+1, err)
			}
			k, err := g.Parse(st.Knights[j])
			if err != nil {
				return nil, fmt.Errorf("%s: start %d: knight: %v", name, i+1, err)
			}
			if taken[c] || taken[k] {
				return nil, fmt.Errorf("%s: start %d: %s or %s is used twice", name, i+1, g.Name(c), g.Name(k))
			}
			taken[c], taken[k] = true, true
			if t := m.Terrain[c]; t == Hill || t == City {
				return nil, fmt.Errorf("%s: start %d: castle on %s, a %s", name, i+1, g.Name(c), t)
			}
			if m.Terrain[k] != Empty || !g.Adjacent(c, k) {
				return nil, fmt.Errorf("%s: start %d: the knight %s must be on an empty square beside its castle %s", name, i+1, g.Name(k), g.Name(c))
			}
			for _, o := range s.Castles {
				if g.Distance(o, c) < 6 {
					return nil, fmt.Errorf("%s: start %d: castles %s and %s are less than 6 squares apart", name, i+1, g.Name(o), g.Name(c))
				}
			}
			s.Castles = append(s.Castles, c)
			s.Knights = append(s.Knights, k)
		}
		for _, w := range st.Walls {
			e, err := g.ParseEdge(w)
			if err != nil {
				return nil, fmt.Errorf("%s: start %d: wall %q: %v", name, i+1, w, err)
			}
			s.Walls = append(s.Walls, e)
		}
		m.Start = append(m.Start, s)
	}
	return m, nil
}

// composeMap lays pieces in the frame; turns, when given, rotates each
// piece (by layout position) by that many quarter turns clockwise.
func composeMap(pieces map[string][piece * piece]Terrain, layout [2][3]string, turns []int) []Terrain {
	out := make([]Terrain, width*height)
	for pr := range 2 {
		for pc := range 3 {
			p := pieces[layout[pr][pc]]
			t := 0
			if turns != nil {
				t = turns[pr*3+pc]
			}
			for r := range piece {
				for c := range piece {
					sr, sc := r, c
					for range t {
						// The square that lands on (r, c) after a quarter
						// turn clockwise came from (piece-1-c, r).
						sr, sc = piece-1-sc, sr
					}
					out[(pr*piece+r)*width+pc*piece+c] = p[sr*piece+sc]
				}
			}
		}
	}
	return out
}

// ActionKind is what one third of an action card lets a player do
// (lowenherz-1997-fr.txt:130-160).
type ActionKind uint8

// The actions.
const (
	Crown   ActionKind = iota // take a political card
	Walls                     // place N walls
	Shield                    // place a knight or extend a region
	Shields                   // place 2 knights, or a knight and extend
	Ducats                    // receive N ducats
)

// Action is one third of an action card.
type Action struct {
	Kind ActionKind
	N    int // walls or ducats
}

// actionWords holds the names of every action, by kind and number.
var actionWords = func() (w [5][9][2]string) {
	for k := Crown; k <= Ducats; k++ {
		for n := range 9 {
			w[k][n][0], w[k][n][1] = Action{k, n}.words()
		}
	}
	return w
}()

// Words returns the action in English and French: "2 walls", "2 murs".
func (a Action) Words() (string, string) {
	if a.N >= 0 && a.N < 9 {
		w := actionWords[a.Kind][a.N]
		return w[0], w[1]
	}
	return a.words()
}

func (a Action) words() (string, string) {
	switch a.Kind {
	case Crown:
		return "crown and sceptre", "couronne et sceptre"
	case Walls:
		if a.N == 1 {
			return "1 wall", "1 mur"
		}
		return fmt.Sprintf("%d walls", a.N), fmt.Sprintf("%d murs", a.N)
	case Shield:
		return "1 shield", "1 bouclier"
	case Shields:
		return "2 shields", "2 boucliers"
	}
	return fmt.Sprintf("%d ducats", a.N), fmt.Sprintf("%d ducats", a.N)
}

// String returns the action's English name.
func (a Action) String() string { en, _ := a.Words(); return en }

// Card is an action card: three actions, or Silberfund, or the end.
type Card struct {
	Letter  byte
	Special uint8 // 0 three actions, silberfund, kingDead
	Tiers   [3]Action
}

const (
	silberfund = 1
	kingDead   = 2
)

// String names the card: "B: crown / 2 walls / 3 walls".
func (c Card) String() string { return c.text(false) }

// French names the card in French: "B : couronne et sceptre / 2 murs /
// 3 murs"; Silberfund and Der König ist tot keep the names the French
// rulebook gives them.
func (c Card) French() string { return c.text(true) }

// text is String, in French when fr is set.
func (c Card) text(fr bool) string {
	sep := ": "
	if fr {
		sep = " : "
	}
	switch c.Special {
	case silberfund:
		return string(c.Letter) + sep + "Silberfund"
	case kingDead:
		return string(c.Letter) + sep + "Der König ist tot"
	}
	tier := func(a Action) string {
		en, frText := a.Words()
		if fr {
			return frText
		}
		return en
	}
	return string(c.Letter) + sep + tier(c.Tiers[0]) + " / " + tier(c.Tiers[1]) + " / " + tier(c.Tiers[2])
}

// Code is the card's form in a position file: "B crown 2w 3w", "B silberfund".
func (c Card) Code() string {
	switch c.Special {
	case silberfund:
		return string(c.Letter) + " silberfund"
	case kingDead:
		return string(c.Letter) + " king"
	}
	parts := []string{string(c.Letter)}
	for _, a := range c.Tiers {
		parts = append(parts, a.code())
	}
	return strings.Join(parts, " ")
}

func (a Action) code() string {
	switch a.Kind {
	case Crown:
		return "crown"
	case Walls:
		return fmt.Sprintf("%dw", a.N)
	case Shield:
		return "1s"
	case Shields:
		return "2s"
	}
	return fmt.Sprintf("%dd", a.N)
}

func parseActionCode(s string) (Action, bool) {
	switch s {
	case "crown":
		return Action{Kind: Crown}, true
	case "1w", "2w", "3w":
		return Action{Kind: Walls, N: int(s[0] - '0')}, true
	case "1s":
		return Action{Kind: Shield}, true
	case "2s":
		return Action{Kind: Shields}, true
	case "4d", "6d", "8d":
		return Action{Kind: Ducats, N: int(s[0] - '0')}, true
	}
	return Action{}, false
}

// ParseCardCode reads a card's Code back.
func ParseCardCode(s string) (Card, error) {
	f := strings.Fields(s)
	if len(f) < 2 || len(f[0]) != 1 || f[0][0] < 'A' || f[0][0] > 'E' {
		return Card{}, fmt.Errorf("%q: expected a letter A-E and the card, like \"B crown 2w 3w\" or \"C silberfund\"", s)
	}
	c := Card{Letter: f[0][0]}
	switch {
	case len(f) == 2 && f[1] == "silberfund":
		c.Special = silberfund
	case len(f) == 2 && f[1] == "king":
		c.Special = kingDead
	case len(f) == 4:
		for i := range 3 {
			a, ok := parseActionCode(f[i+1])
			if !ok {
				return Card{}, fmt.Errorf("%q: %q is not an action (crown, 1w-3w, 1s, 2s, 4d, 6d, 8d)", s, f[i+1])
			}
			c.Tiers[i] = a
		}
	default:
		return Card{}, fmt.Errorf("%q: expected a letter A-E and three actions, or silberfund, or king", s)
	}
	return c, nil
}

// actionCards is the table of the 31 action cards
// (lowenherz-1997-fr.txt:325-453): "-" marks Silberfund and the end.
var actionCards = func() []Card {
	table := []string{
		"A crown 3w 1s", "A crown 2w 3w", "A 4d 2w 1s", "A 6d 2w 1s", "A 6d 1s 3w", "A 8d 2w 3w",
		"B crown 2w 3w", "B crown 1s 3w", "B crown 2w 2s", "B 4d 2w 1s", "B 6d 2w 1s", "B 8d 2w 2s", "B silberfund",
		"C crown 1w 2w", "C crown 1s 2s", "C crown 2w 1s", "C 4d 2w 2s", "C 6d 2w 1s", "C 8d 3w 2s", "C silberfund",
		"D crown 3w 2s", "D crown 2w 1s", "D crown 1w 2w", "D 4d 2w 2s", "D 6d 1s 2s", "D 8d 1s 2s", "D silberfund",
		"E crown 2w 2s", "E crown 1s 2s", "E 8d 1s 2s", "E king",
	}
	out := make([]Card, len(table))
	for i, s := range table {
		c, err := ParseCardCode(s)
		if err != nil {
			panic(err)
		}
		out[i] = c
	}
	return out
}()

// PolKind is a kind of political card (lowenherz-1997-fr.txt:243-281).
type PolKind uint8

// The political cards.
const (
	Alliance PolKind = iota // Bündniszwang
	Renegade                // Überläufer
	Fief                    // Lehen: power points at the end
	Treasure                // Dukatenschatz: ducats in a confrontation or a payment
)

var (
	polNames   = [...]string{"alliance", "renegade", "fief", "treasure"}
	polNamesFR = [...]string{"alliance", "renégat", "fief", "trésor"}
)

// Political is a political card. Value is the power points of a fief or
// the ducats of a treasure (ruling L97-3), 0 for the others.
type Political struct {
	Kind  PolKind
	Value int
}

// String returns "renegade", "treasure 8".
func (p Political) String() string {
	if p.Value > 0 {
		return fmt.Sprintf("%s %d", polNames[p.Kind], p.Value)
	}
	return polNames[p.Kind]
}

// French returns "renégat", "trésor 8".
func (p Political) French() string {
	if p.Value > 0 {
		return fmt.Sprintf("%s %d", polNamesFR[p.Kind], p.Value)
	}
	return polNamesFR[p.Kind]
}

// ParsePolitical reads "renegade" or "treasure 8" (English names).
func ParsePolitical(s string) (Political, error) {
	f := strings.Fields(s)
	for _, p := range politicalCards {
		if p.String() == strings.Join(f, " ") {
			return p, nil
		}
	}
	return Political{}, fmt.Errorf("%q is not a political card (alliance, renegade, fief 3-5, treasure 5-8)", s)
}

// politicalCards are the 13 political cards (lowenherz-1997-fr.txt:62-64);
// the values of the fiefs and treasures are ruling L97-3.
var politicalCards = []Political{
	{Alliance, 0}, {Alliance, 0}, {Alliance, 0},
	{Renegade, 0}, {Renegade, 0}, {Renegade, 0},
	{Fief, 3}, {Fief, 4}, {Fief, 5},
	{Treasure, 5}, {Treasure, 6}, {Treasure, 7}, {Treasure, 8},
}

// regionPoints is the scoring table for a region created or lost to a
// neutral zone (lowenherz-1997-fr.txt:35-48): by size, plus 5 per city.
func regionPoints(squares, cities int) int {
	p := 12
	switch {
	case squares <= 4:
		p = 3
	case squares <= 10:
		p = 5
	case squares <= 20:
		p = 7
	case squares <= 30:
		p = 9
	}
	return p + 5*cities
}

// Money and supplies (lowenherz-1997-fr.txt:20-31, 61, 97).
const (
	totalMoney   = 14*1 + 18*2 + 20*3 // the bank's 52 money cards
	startMoney   = 12
	knightsEach  = 12
	wallSupply   = 100
	forestCost   = 5
	breakCost    = 10
	maxRegions   = 3
	castleSpread = 6
)
