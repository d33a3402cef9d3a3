package raubritter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// The keywords of the Raubritter notation, English and French.
var (
	verbs = notation.Vocabulary{
		{Name: "place", EN: []string{"play", "lay", "put"}, FR: []string{"pose", "poser", "place", "placer", "joue", "jouer"}},
		{Name: "knights", EN: []string{"knight", "k"}, FR: []string{"chevaliers", "chevalier", "ch"}},
		{Name: "keep", EN: []string{"take"}, FR: []string{"garde", "garder", "prends", "prendre"}},
		{Name: "end", EN: []string{"done", "pass", "stop"}, FR: []string{"fin", "finir", "termine", "terminer", "passe"}},
	}
	terrains = notation.Vocabulary{
		{Name: "plain", EN: []string{"plains", "p"}, FR: []string{"plaine", "plaines"}},
		{Name: "forest", EN: []string{"forests", "f"}, FR: []string{"forêt", "forêts"}},
		{Name: "mountains", EN: []string{"mountain", "m"}, FR: []string{"montagnes", "montagne"}},
		{Name: "lake", EN: []string{"l"}, FR: []string{"lac"}},
	}
	buildings = notation.Vocabulary{
		{Name: "castle", EN: []string{"c"}, FR: []string{"château", "château-fort", "chateau-fort", "fort"}},
		{Name: "village", EN: []string{"v"}},
		{Name: "town", EN: []string{"city", "t"}, FR: []string{"ville"}},
	}
	directions = notation.Vocabulary{
		{Name: "north", EN: []string{"n", "up"}, FR: []string{"nord", "haut"}},
		{Name: "south", EN: []string{"s", "down"}, FR: []string{"sud", "bas"}},
		{Name: "east", EN: []string{"e", "right"}, FR: []string{"est", "droite"}},
		{Name: "west", EN: []string{"w", "left"}, FR: []string{"ouest", "o", "gauche"}},
	}
	fillers = notation.Vocabulary{{Name: "at", EN: []string{"on", "to"}, FR: []string{"en", "sur", "à", "a"}}}
	// diagonals are understood, so that Apply can say knights never march
	// diagonally (raubritter-fr-scan.txt:140), rather than "unknown word".
	diagonals = notation.Vocabulary{
		{Name: "northeast", EN: []string{"north-east", "ne"}, FR: []string{"nord-est", "nordest"}},
		{Name: "northwest", EN: []string{"north-west", "nw"}, FR: []string{"nord-ouest", "nordouest"}},
		{Name: "southeast", EN: []string{"south-east", "se"}, FR: []string{"sud-est", "sudest"}},
		{Name: "southwest", EN: []string{"south-west", "sw"}, FR: []string{"sud-ouest", "sudouest"}},
	}
)

// Direction is one of the four ways knights may march from their castle,
// or a diagonal a player wrote, which Apply refuses for a march
// (raubritter-fr-scan.txt:140).
type Direction uint8

// The directions, as on the board: north is toward row 1.
const (
	North Direction = iota
	South
	East
	West
	// The diagonals: understood, never allowed for a march.
	northEast
	northWest
	southEast
	southWest
)

var (
	dirNames   = [...]string{"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"}
	dirNamesFR = [...]string{"nord", "sud", "est", "ouest", "nord-est", "nord-ouest", "sud-est", "sud-ouest"}
)

func (d Direction) String() string { return dirNames[d] }

// Words returns the direction's name in English and French, for messages.
func (d Direction) Words() adjudicator.Words {
	return adjudicator.Words{EN: dirNames[d], FR: dirNamesFR[d]}
}

// straight reports whether d is one of the four directions a march may
// take.
func (d Direction) straight() bool { return d <= West }

// diagonal returns the diagonal between a north or south and an east or
// west, in either order; ok is false for any other pair.
func diagonal(a, b Direction) (Direction, bool) {
	if a == East || a == West {
		a, b = b, a
	}
	switch {
	case a == North && b == East:
		return northEast, true
	case a == North && b == West:
		return northWest, true
	case a == South && b == East:
		return southEast, true
	case a == South && b == West:
		return southWest, true
	}
	return 0, false
}

func directionByName(name string) Direction {
	for i, n := range dirNames {
		if n == name {
			return Direction(i)
		}
	}
	return North
}

func (d Direction) delta() (dr, dc int) {
	switch d {
	case North:
		return -1, 0
	case South:
		return 1, 0
	case East:
		return 0, 1
	case West:
		return 0, -1
	// The diagonals, which no march takes (checkKnights refuses them).
	case northEast:
		return -1, 1
	case northWest:
		return -1, -1
	case southEast:
		return 1, 1
	}
	return 1, -1
}

// Keep is the setup step: keep the castle and this other A tile in hand.
type Keep struct {
	Kind Kind
	pos  notation.Pos
}

func (m Keep) String() string { return "keep " + m.Kind.String() }

// Place lays a tile from the hand on a square.
type Place struct {
	Kind   Kind
	Square Square
	// partial is set when the player named only the building or was
	// otherwise vague; Apply resolves it against the hand.
	partial bool
	pos     notation.Pos // of the tile words
	sqPos   notation.Pos
}

func (m Place) String() string { return m.Kind.String() + " " + m.Square.String() }

// Knights puts knights on the castle just laid and marches them: Counts[i]
// knights stay on the i-th tile from the castle (the castle is the 0th)
// in direction Dir. One count means they all stay on the castle.
type Knights struct {
	Dir    Direction
	Counts []int
	dirSet bool
	dirPos notation.Pos   // of the direction
	pos    []notation.Pos // of each count
}

// knightsWords writes a knights step in English and French notation.
func knightsWords(d Direction, counts []int) adjudicator.Words {
	nums := make([]string, len(counts))
	for i, c := range counts {
		nums[i] = strconv.Itoa(c)
	}
	n := strings.Join(nums, " ")
	if len(counts) <= 1 {
		return adjudicator.Words{EN: "knights " + n, FR: "chevaliers " + n}
	}
	return adjudicator.Words{EN: "knights " + d.String() + " " + n, FR: "chevaliers " + d.Words().FR + " " + n}
}

func (m Knights) String() string {
	nums := make([]string, len(m.Counts))
	for i, c := range m.Counts {
		nums[i] = strconv.Itoa(c)
	}
	if len(m.Counts) <= 1 {
		return "knights " + strings.Join(nums, " ")
	}
	return "knights " + m.Dir.String() + " " + strings.Join(nums, " ")
}

// Total returns the number of knights put on the castle.
func (m Knights) Total() int {
	n := 0
	for _, c := range m.Counts {
		n += c
	}
	return n
}

// End ends the turn after one to three tiles.
type End struct{}

func (End) String() string { return "end" }

// Parse reads one step. The grammar, with French words in brackets:
//
//	keep TILE                        garde TILE
//	[place] TILE [at] SQUARE         [pose] TILE [en] SQUARE
//	knights N                        chevaliers N
//	knights DIR N N ...              chevaliers DIR N N ...
//	end                              fin
//
// TILE is a terrain and a building in either order ("plain castle",
// "château plaine"), a terrain alone for a tile without a building
// ("lake"), or a building alone when the hand holds one tile with it
// ("castle"). DIR is north, south, east or west (nord, sud, est, ouest);
// counts may be separated by spaces, commas or dashes. A diagonal
// ("northeast", "nord-est", "south west") is read too, so that Apply can
// say why a march may not take it (raubritter-fr-scan.txt:140). SQUARE is
// checked for its form only; Apply checks it is on the frame.
func (s *State) Parse(player string, step *notation.Step) (adjudicator.Move, error) {
	sc := notation.NewScanner(step)
	first, _ := sc.Peek()
	verb, ok := sc.Keyword(verbs)
	if !ok {
		// A step may start with the tile: "plain castle e5".
		if _, _, isT := terrains.Lookup(first.Text); !isT {
			if _, _, isB := buildings.Lookup(first.Text); !isB {
				e := sc.Unexpected(verbs, notation.Noun{EN: "step", FR: "étape", Feminine: true})
				if first.Kind == notation.Word {
					e.Suggest = append(verbs.Suggest(first.Text, step.Lang), append(terrains.Suggest(first.Text, step.Lang), buildings.Suggest(first.Text, step.Lang)...)...)
					if len(e.Suggest) > 3 {
						e.Suggest = e.Suggest[:3]
					}
				}
				e.Example, e.ExampleFR = "plain castle e5; knights east 1 2 1; end", "plaine château e5 ; chevaliers est 1 2 1 ; fin"
				if s.phase == phaseSetup { // the setup has one step: say it
					e.Example, e.ExampleFR = "keep plain village", "garde plaine village"
				}
				return nil, e
			}
		}
		verb = "place"
	}
	var mv adjudicator.Move
	var err *notation.Error
	switch verb {
	case "keep":
		mv, err = s.parseKeep(sc)
	case "place":
		mv, err = s.parsePlace(player, sc)
	case "knights":
		mv, err = parseKnights(sc)
	case "end":
		mv = End{}
	}
	if err == nil {
		err = sc.ExpectEnd()
	}
	if err != nil {
		return nil, err
	}
	return mv, nil
}

func (s *State) parseKeep(sc *notation.Scanner) (adjudicator.Move, *notation.Error) {
	tok, _ := sc.Peek()
	k, err := scanKind(sc)
	if err != nil {
		err.Example, err.ExampleFR = "keep plain village", "garde plaine village"
		return nil, err
	}
	return Keep{Kind: k, pos: tok.Pos}, nil
}

func (s *State) parsePlace(player string, sc *notation.Scanner) (adjudicator.Move, *notation.Error) {
	tok, _ := sc.Peek()
	var k Kind
	partial := false
	if b, ok := peekBuildingOnly(sc); ok {
		// A building alone: take the tile with it from the hand, if there
		// is only one kind of it there. Keyword notes the word's language.
		sc.Keyword(buildings)
		var kinds []Kind
		k, kinds = s.resolveBuilding(player, b)
		partial = true
		if len(kinds) > 1 {
			e := sc.ErrorAtToken(tok, fmt.Sprintf("your hand holds a %s and a %s: say which %s", kinds[0], kinds[1], b),
				fmt.Sprintf("votre main contient les plaquettes %s et %s : précisez laquelle", kinds[0].French(), kinds[1].French()))
			e.Example, e.ExampleFR = kinds[0].String()+" e5", kinds[0].French()+" e5"
			return nil, e
		}
	} else {
		var err *notation.Error
		k, err = scanKind(sc)
		if err != nil {
			err.Example, err.ExampleFR = "plain castle e5", "plaine château e5"
			return nil, err
		}
	}
	sc.Keyword(fillers)
	sqTok, ok := sc.Next()
	if !ok {
		e := sc.ErrorAt(sc.EndPos(), "missing square: say where the tile goes, like e5",
			"il manque la case : dites où poser la plaquette, par exemple e5")
		e.Example, e.ExampleFR = k.String()+" e5", k.French()+" e5"
		return nil, e
	}
	// Only the form of the name is checked here; whether the square is on
	// the frame, which depends on the number of players, is Apply's
	// off-frame error.
	sq, perr := ParseSquare(sqTok.Text)
	if perr != nil {
		e := sc.ErrorAtToken(sqTok, fmt.Sprintf("%q is not a square: %v", sqTok.Text, perr),
			fmt.Sprintf("« %s » n'est pas une case : %s", sqTok.Text, perr.(squareError).FR))
		e.Example, e.ExampleFR = k.String()+" e5", k.French()+" e5"
		return nil, e
	}
	return Place{Kind: k, Square: sq, partial: partial, pos: tok.Pos, sqPos: sqTok.Pos}, nil
}

// peekBuildingOnly reports whether the next word is a building not preceded
// by a terrain and not followed by one ("castle e5").
func peekBuildingOnly(sc *notation.Scanner) (Building, bool) {
	tok, ok := sc.Peek()
	if !ok || tok.Kind != notation.Word {
		return 0, false
	}
	name, _, ok := buildings.Lookup(tok.Text)
	if !ok {
		return 0, false
	}
	toks := sc.Step().Tokens
	for i, t := range toks {
		if t.Pos == tok.Pos && i+1 < len(toks) {
			if _, _, isT := terrains.Lookup(toks[i+1].Text); isT {
				return 0, false
			}
		}
	}
	return buildingByName(name), true
}

func buildingByName(name string) Building {
	for i, n := range buildingNames {
		if n == name {
			return Building(i)
		}
	}
	return NoBuilding
}

func terrainByName(name string) Terrain {
	for i, n := range terrainNames {
		if n == name {
			return Terrain(i)
		}
	}
	return Plain
}

// resolveBuilding returns the kind of the tile in player's hand with
// building b, and every kind with b in the hand: when there are two, the
// step is ambiguous. With none it returns a plain one, so that Apply
// reports the tile missing from the hand.
func (s *State) resolveBuilding(player string, b Building) (Kind, []Kind) {
	var kinds []Kind
	if p := s.index(player); p >= 0 {
		for _, k := range s.players[p].hand {
			if k.Building == b && !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	if len(kinds) == 0 {
		return Kind{Plain, b}, nil
	}
	return kinds[0], kinds
}

// scanKind reads a tile face: terrain and building in either order, or a
// terrain alone. It checks that such a tile exists in the game.
func scanKind(sc *notation.Scanner) (Kind, *notation.Error) {
	start, _ := sc.Peek()
	var k Kind
	gotT, gotB := false, false
	for range 2 {
		if !gotT {
			if t, ok := sc.Keyword(terrains); ok {
				k.Terrain, gotT = terrainByName(t), true
				continue
			}
		}
		if !gotB {
			if b, ok := sc.Keyword(buildings); ok {
				k.Building, gotB = buildingByName(b), true
				continue
			}
		}
		break
	}
	if gotT && !gotB {
		// A letters-only word after the terrain that is not "at" is a
		// misspelt building: "forest villag".
		if tok, ok := sc.Peek(); ok && tok.Kind == notation.Word && isLetters(tok.Text) {
			if _, _, filler := fillers.Lookup(tok.Text); !filler {
				return k, sc.Unexpected(buildings, notation.Noun{EN: "building", FR: "bâtiment"})
			}
		}
	}
	if !gotT {
		if gotB {
			return k, sc.ErrorAt(start.Pos, fmt.Sprintf("say on which terrain the %s stands: %s or %s", k.Building, Kind{Plain, k.Building}, Kind{Forest, k.Building}),
				fmt.Sprintf("précisez le terrain : %s ou %s", Kind{Plain, k.Building}.French(), Kind{Forest, k.Building}.French()))
		}
		return k, sc.Unexpected(terrains, notation.Noun{EN: "terrain", FR: "terrain"})
	}
	switch {
	case k.Terrain == Forest && k.Building == NoBuilding:
		return k, sc.ErrorAt(start.Pos, "there is no forest tile without a building (raubritter-fr-scan.txt:35); say forest village, forest castle or forest town",
			"il n'y a pas de forêt sans bâtiment (raubritter-fr-scan.txt:35) ; dites forêt village, forêt château ou forêt ville")
	case (k.Terrain == Mountains || k.Terrain == Lake) && k.Building != NoBuilding:
		return k, sc.ErrorAt(start.Pos, fmt.Sprintf("there is no %s tile with a %s: buildings stand on plain or forest", k.Terrain, k.Building),
			fmt.Sprintf("aucune plaquette %s ne porte de %s : les bâtiments sont sur plaine ou forêt", k.Terrain.French(), k.Building.French()))
	}
	return k, nil
}

func parseKnights(sc *notation.Scanner) (adjudicator.Move, *notation.Error) {
	var m Knights
	dirTok, _ := sc.Peek()
	if d, ok := sc.Keyword(directions); ok {
		m.Dir, m.dirSet, m.dirPos = directionByName(d), true, dirTok.Pos
		// "north east": a diagonal in two words.
		if tok, ok := sc.Peek(); ok && tok.Kind == notation.Word {
			if d2, _, ok := directions.Lookup(tok.Text); ok {
				if diag, ok := diagonal(m.Dir, directionByName(d2)); ok {
					sc.Keyword(directions)
					m.Dir = diag
				}
			}
		}
	} else if d, ok := sc.Keyword(diagonals); ok {
		m.Dir, m.dirSet, m.dirPos = directionByName(d), true, dirTok.Pos
	}
	for {
		n, tok, ok := sc.Number()
		if !ok {
			break
		}
		m.Counts = append(m.Counts, n)
		m.pos = append(m.pos, tok.Pos)
		if !sc.Punct(",") {
			sc.Punct("-")
		}
	}
	if tok, ok := sc.Peek(); ok && len(m.Counts) > 0 && tok.Kind == notation.Word {
		// "knights west 1 1 north 1": a march that turns.
		_, _, isDir := directions.Lookup(tok.Text)
		_, _, isDiag := diagonals.Lookup(tok.Text)
		if isDir || isDiag {
			var rest []int
			for sc.Next(); !sc.Done(); {
				if n, _, ok := sc.Number(); ok {
					rest = append(rest, n)
					if !sc.Punct(",") {
						sc.Punct("-")
					}
				} else {
					sc.Next()
				}
			}
			ex := knightsWords(m.Dir, append(slices.Clone(m.Counts), rest...))
			e := sc.ErrorAtToken(tok,
				fmt.Sprintf("knights march in a straight line from their castle and never turn: one direction per march [rule: %s]", ruleStraight),
				fmt.Sprintf("les chevaliers se déplacent en ligne droite depuis leur château, sans jamais dévier : une seule direction par déplacement [règle : %s]", ruleStraight))
			e.Example, e.ExampleFR = ex.EN, ex.FR
			return nil, e
		}
	}
	if len(m.Counts) == 0 {
		tok, ok := sc.Peek()
		if ok && tok.Kind == notation.Word && !m.dirSet {
			e := sc.Unexpected(directions, notation.Noun{EN: "direction", FR: "direction", Feminine: true})
			e.Example, e.ExampleFR = "knights east 1 2 1", "chevaliers est 1 2 1"
			return nil, e
		}
		e := sc.ErrorAt(sc.EndPos(), "missing the number of knights to leave on each tile, from the castle on",
			"il manque le nombre de chevaliers à laisser sur chaque plaquette, depuis le château")
		if ok {
			e.Pos = tok.Pos
		}
		e.Example, e.ExampleFR = "knights east 1 2 1", "chevaliers est 1 2 1"
		return nil, e
	}
	if len(m.Counts) > 1 && !m.dirSet {
		e := sc.ErrorAt(m.pos[0], "knights that march need a direction: north, south, east or west",
			"des chevaliers qui se déplacent ont besoin d'une direction : nord, sud, est ou ouest")
		counts := strings.Trim(fmt.Sprint(m.Counts), "[]")
		e.Example, e.ExampleFR = "knights east "+counts, "chevaliers est "+counts
		return nil, e
	}
	return m, nil
}

// Square is a square of the board, named by its column letter and row
// number as printed on the board ("e5"). Names never change during a game.
type Square struct {
	Row, Col int // 0-based
}

// String returns "e5".
func (q Square) String() string {
	return string(rune('a'+q.Col)) + strconv.Itoa(q.Row+1)
}

// squareError is an error of ParseSquare, in English and French.
type squareError struct{ adjudicator.Words }

func (e squareError) Error() string { return e.EN }

var (
	errSquareForm = squareError{adjudicator.Words{EN: "a square is a column letter then a row number, like e5",
		FR: "une case est une lettre de colonne puis un numéro de ligne, par exemple e5"}}
	errSquareRow0 = squareError{adjudicator.Words{EN: "rows are numbered from 1", FR: "les lignes sont numérotées à partir de 1"}}
)

// ParseSquare reads "e5": one column letter a-z, then the row number. It
// checks only the form of the name: which squares exist depends on the
// number of players (see the package doc), so a square off the frame, like
// z99, is refused by Apply or the position loader, which know the frame.
func ParseSquare(s string) (Square, error) {
	s = strings.ToLower(s)
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' || !isDigits(s[1:]) {
		return Square{}, errSquareForm
	}
	row := strings.TrimLeft(s[1:], "0")
	switch {
	case row == "":
		return Square{}, errSquareRow0
	case len(row) > 3:
		// Too far to be worth a number; no frame comes near.
		return Square{}, squareError{adjudicator.Words{EN: fmt.Sprintf("no board has a row %s", row),
			FR: fmt.Sprintf("aucun plateau n'a de ligne %s", row)}}
	}
	n, _ := strconv.Atoi(row)
	return Square{Row: n - 1, Col: int(s[0] - 'a')}, nil
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}
