package heritiers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// The keywords of the notation, English and French.
var (
	verbs = notation.Vocabulary{
		{Name: "take", EN: []string{"draw"}, FR: []string{"prendre", "prends", "prend"}},
		{Name: "build", EN: []string{"construct"}, FR: []string{"construire", "construis", "construit", "bâtir", "bâtis"}},
		{Name: "open", EN: []string{"terrain"}, FR: []string{"ouvrir", "ouvre"}},
		{Name: "move", EN: []string{"go"}, FR: []string{"déplacer", "déplace"}},
		{Name: "deploy", FR: []string{"déployer", "déploie"}},
		{Name: "withdraw", EN: []string{"retreat", "recall"}, FR: []string{"retirer", "retire"}},
		{Name: "camp", EN: []string{"use"}, FR: []string{"camper", "utiliser", "utilise"}},
		{Name: "destroy", FR: []string{"détruire", "détruis"}},
		{Name: "discard", FR: []string{"défausser", "défausse", "écarter"}},
		{Name: "end", EN: []string{"done", "pass", "stop"}, FR: []string{"fin", "finir", "termine", "terminer", "passe"}},
	}
	payWords   = notation.Vocabulary{{Name: "pay", EN: []string{"paying", "with", "using"}, FR: []string{"payer", "paie", "paye", "payant", "avec"}}}
	nothing    = notation.Vocabulary{{Name: "nothing", EN: []string{"none", "free"}, FR: []string{"rien", "gratuit"}}}
	troopWords = notation.Vocabulary{{Name: "troop", EN: []string{"troops", "cavalry", "knight"}, FR: []string{"troupe", "troupes", "cavalerie"}}}
	fillers    = notation.Vocabulary{{Name: "at", EN: []string{"on", "to", "from", "and", "place", "tile", "the", "my"}, FR: []string{"en", "sur", "à", "a", "vers", "de", "et", "place", "tuile", "la", "le", "les", "ma", "mon"}}}
)

// buildingVocab is every building spelling in one word, for suggestions.
var buildingVocab = func() notation.Vocabulary {
	var v notation.Vocabulary
	for _, b := range buildings {
		t := notation.Term{Name: b.name}
		for _, e := range b.en {
			if !strings.Contains(e, " ") {
				t.EN = append(t.EN, e)
			}
		}
		for _, f := range b.fr {
			if !strings.Contains(f, " ") {
				t.FR = append(t.FR, f)
			}
		}
		v = append(v, t)
	}
	return v
}()

// buildingPhrases maps every folded spelling of a building, in one or more
// words, to it and to whether it is French only.
var buildingPhrases = func() map[string]struct {
	b  Building
	fr bool
} {
	m := map[string]struct {
		b  Building
		fr bool
	}{}
	for i, b := range buildings {
		m[foldPhrase(b.name)] = struct {
			b  Building
			fr bool
		}{Building(i), false}
		if _, ok := m[foldPhrase(b.title)]; !ok { // the title often folds to the name, which is no French
			m[foldPhrase(b.title)] = struct {
				b  Building
				fr bool
			}{Building(i), true}
		}
		for _, e := range b.en {
			m[foldPhrase(e)] = struct {
				b  Building
				fr bool
			}{Building(i), false}
		}
		for _, f := range b.fr {
			if _, ok := m[foldPhrase(f)]; !ok {
				m[foldPhrase(f)] = struct {
					b  Building
					fr bool
				}{Building(i), true}
			}
		}
	}
	return m
}()

// squareName names a cell of the frame: column a-y, row 1-25: "m13".
func squareName(i int) string {
	return string(rune('a'+i%frameW)) + strconv.Itoa(i/frameW+1)
}

// parseSquare reads "m13". Squares run from a1 to y25 (DH-7).
func parseSquare(s string) (int, error) {
	f := strings.ToLower(s)
	if len(f) < 2 || f[0] < 'a' || f[0] > 'z' || !isDigits(f[1:]) {
		return 0, fmt.Errorf("a square is a column letter and a row number, like m13")
	}
	if f[0] > 'y' || len(f) > 3 {
		return 0, fmt.Errorf("off the board: squares run from a1 to y25")
	}
	r, _ := strconv.Atoi(f[1:])
	if r < 1 || r > frameH {
		return 0, fmt.Errorf("off the board: squares run from a1 to y25")
	}
	return (r-1)*frameW + int(f[0]-'a'), nil
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// The steps.
type (
	// Take takes the tile at Place (1 to 6, clockwise from the royal
	// shield) into the hand: action A.
	Take struct {
		Place int
		pos   notation.Pos
	}
	// Build builds a tile from the hand on Square, paying with Pay: each
	// a reserve place (1 to 6, as -1 to -6) or a square (a cell index),
	// listed twice for two resources of one square. Action B.1.
	Build struct {
		Tile   int16
		ID     string
		Square int
		Pay    []int
		auto   bool // no pay given, and none found
		pos    notation.Pos
		sqPos  notation.Pos
		payPos []notation.Pos
	}
	// Open lays a tile from the hand face down on Square: action B.2.
	Open struct {
		Tile   int16
		ID     string
		Square int
		pos    notation.Pos
		sqPos  notation.Pos
	}
	// Move moves the troop on From to To: action C.1.
	Move struct {
		From, To int
		pos      notation.Pos
		toPos    notation.Pos
	}
	// Deploy deploys a troop from the royal reserve on To: action C.2.
	Deploy struct {
		To  int
		pos notation.Pos
	}
	// Withdraw withdraws the troop on From to the royal reserve: C.3.
	Withdraw struct {
		From int
		pos  notation.Pos
	}
	// Camp turns the player's Campement on Square face down to take one
	// more tile.
	Camp struct {
		Square int
		pos    notation.Pos
	}
	// Destroy turns the building on Square face down with two siege
	// towers.
	Destroy struct {
		Square int
		pos    notation.Pos
	}
	// Discard is Henri's rule D: the tile he took leaves the game.
	Discard struct {
		Tile int16
		ID   string
		pos  notation.Pos
	}
	// End ends the turn.
	End struct{}
)

func (m Take) String() string { return "take " + strconv.Itoa(m.Place) }

func (m Build) String() string {
	var b strings.Builder
	b.WriteString("build ")
	b.WriteString(m.ID)
	b.WriteByte(' ')
	b.WriteString(squareName(m.Square))
	if m.auto {
		return b.String()
	}
	b.WriteString(" pay")
	if len(m.Pay) == 0 {
		b.WriteString(" nothing")
	}
	for _, p := range m.Pay {
		b.WriteByte(' ')
		b.WriteString(placeName(p))
	}
	return b.String()
}

func placeName(p int) string {
	if p < 0 {
		return strconv.Itoa(-p)
	}
	return squareName(p)
}

func (m Open) String() string     { return "open " + m.ID + " " + squareName(m.Square) }
func (m Move) String() string     { return "move " + squareName(m.From) + " " + squareName(m.To) }
func (m Deploy) String() string   { return "deploy " + squareName(m.To) }
func (m Withdraw) String() string { return "withdraw " + squareName(m.From) }
func (m Camp) String() string     { return "camp " + squareName(m.Square) }
func (m Destroy) String() string  { return "destroy " + squareName(m.Square) }
func (m Discard) String() string  { return "discard " + m.ID }
func (End) String() string        { return "end" }

// Parse reads one step. The grammar, with French words in brackets:
//
//	take N                              prendre N
//	build TILE SQUARE [pay PLACE ...]   construire TILE SQUARE [payer PLACE ...]
//	open TILE SQUARE                    ouvrir TILE SQUARE
//	move [troop] SQUARE [to] SQUARE     déplacer [troupe] SQUARE [vers] SQUARE
//	deploy SQUARE                       déployer SQUARE
//	withdraw SQUARE                     retirer SQUARE
//	camp SQUARE                         camper SQUARE
//	destroy SQUARE                      détruire SQUARE
//	end                                 fin
//
// N and PLACE's numbers count the places of the royal reserve clockwise
// from the shield, 1 to 6. TILE is a building in one word, in full or in
// English ("guet", "tour de guet", "watchtower"), with its copy number when
// the hand holds two of it ("guet-3", "guet 3"). PLACE is a reserve place
// or a square; a square gives one resource, twice for a troop on one's own
// ferme, scierie or carrière ("pay m12 m12"); "pay nothing" when an open
// terrain's discount pays all. Without pay, herald picks a payment: the
// first that works, the resources under the troops and from the buildings
// first, the discount last. Henri's "discard TILE" is read for the record.
func (s *State) Parse(player string, step *notation.Step) (adjudicator.Move, error) {
	sc := notation.NewScanner(step)
	first, _ := sc.Peek()
	verb, ok := sc.Keyword(verbs)
	if !ok {
		e := sc.Unexpected(verbs, notation.Noun{EN: "step", FR: "étape", Feminine: true})
		if first.Kind == notation.Word {
			if _, ok := s.peekBuilding(sc); ok {
				e = sc.ErrorAtToken(first, "say what to do with the tile: build or open",
					"dites quoi faire de la tuile : construire ou ouvrir")
			}
		}
		e.Example, e.ExampleFR = "take 2; build auberge m12 pay 1 l13; end", "prendre 2 ; construire auberge m12 payer 1 l13 ; fin"
		return nil, e
	}
	seat := s.seat(player)
	var mv adjudicator.Move
	var err *notation.Error
	switch verb {
	case "take":
		skipFillers(sc)
		n, tok, ok := sc.Number()
		if !ok {
			err = sc.ErrorAt(sc.EndPos(), "missing the place of the tile in the royal reserve, 1 to 6 from the shield",
				"il manque la place de la tuile dans la réserve royale, de 1 à 6 depuis le bouclier")
			if t, ok := sc.Peek(); ok {
				err.Pos = t.Pos
			}
			err.Example, err.ExampleFR = "take 2", "prendre 2"
			break
		}
		if n < 1 || n > 6 {
			err = sc.ErrorAtToken(tok, fmt.Sprintf("the royal reserve has places 1 to 6 from the shield, not %d", n),
				fmt.Sprintf("la réserve royale a les places 1 à 6 depuis le bouclier, pas %d", n))
			break
		}
		mv = Take{Place: n, pos: tok.Pos}
	case "build":
		mv, err = s.parseBuild(seat, sc)
	case "open":
		t, id, pos, e := s.scanTile(seat, sc, "open ferme l12", "ouvrir ferme l12")
		if e != nil {
			err = e
			break
		}
		sq, sqPos, e := scanSquare(sc, "open "+id+" l12", "ouvrir "+id+" l12")
		if e != nil {
			err = e
			break
		}
		mv = Open{Tile: t, ID: id, Square: sq, pos: pos, sqPos: sqPos}
	case "move":
		skipFillers(sc)
		from, pos, e := scanSquare(sc, "move m13 n12", "déplacer m13 n12")
		if e != nil {
			err = e
			break
		}
		to, toPos, e := scanSquare(sc, "move "+squareName(from)+" n12", "déplacer "+squareName(from)+" n12")
		if e != nil {
			err = e
			break
		}
		mv = Move{From: from, To: to, pos: pos, toPos: toPos}
	case "deploy", "withdraw", "camp", "destroy":
		skipFillers(sc)
		if verb == "camp" {
			if b, ok := s.peekBuilding(sc); ok && b == Campement {
				s.scanBuildingWord(sc)
			}
		}
		ex := map[string][2]string{"deploy": {"deploy n12", "déployer n12"}, "withdraw": {"withdraw n12", "retirer n12"},
			"camp": {"camp m11", "camper m11"}, "destroy": {"destroy l11", "détruire l11"}}[verb]
		sq, pos, e := scanSquare(sc, ex[0], ex[1])
		if e != nil {
			err = e
			break
		}
		switch verb {
		case "deploy":
			mv = Deploy{To: sq, pos: pos}
		case "withdraw":
			mv = Withdraw{From: sq, pos: pos}
		case "camp":
			mv = Camp{Square: sq, pos: pos}
		default:
			mv = Destroy{Square: sq, pos: pos}
		}
	case "discard":
		t, id, pos, e := s.scanTile(seat, sc, "discard siège-2", "défausser siège-2")
		if e != nil {
			err = e
			break
		}
		mv = Discard{Tile: t, ID: id, pos: pos}
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

func (s *State) parseBuild(seat int, sc *notation.Scanner) (adjudicator.Move, *notation.Error) {
	t, id, pos, err := s.scanTile(seat, sc, "build auberge m12 pay 1 l13", "construire auberge m12 payer 1 l13")
	if err != nil {
		return nil, err
	}
	sq, sqPos, err := scanSquare(sc, "build "+id+" m12 pay 1 l13", "construire "+id+" m12 payer 1 l13")
	if err != nil {
		return nil, err
	}
	m := Build{Tile: t, ID: id, Square: sq, pos: pos, sqPos: sqPos}
	if _, ok := sc.Keyword(payWords); !ok {
		if _, ok := sc.Peek(); ok {
			return nil, sc.Unexpected(payWords, notation.Noun{EN: "word", FR: "mot"})
		}
		// No payment given: the first that works, if any.
		m.auto = true
		if seat >= 0 && t >= 0 && !(s.solo && seat == 1) {
			if pays := s.payments(seat, t, 1); len(pays) > 0 {
				m.Pay, m.auto = pays[0], false
			}
		}
		return m, nil
	}
	m.Pay = []int{}
	if _, ok := sc.Keyword(nothing); ok {
		return m, nil
	}
	for {
		sc.Punct(",")
		sc.Punct("+")
		sc.Keyword(fillers)
		tok, ok := sc.Peek()
		if !ok {
			break
		}
		if n, _, ok := sc.Number(); ok {
			if n < 1 || n > 6 {
				return nil, sc.ErrorAtToken(tok, fmt.Sprintf("the royal reserve has places 1 to 6 from the shield, not %d", n),
					fmt.Sprintf("la réserve royale a les places 1 à 6 depuis le bouclier, pas %d", n))
			}
			m.Pay = append(m.Pay, -n)
			m.payPos = append(m.payPos, tok.Pos)
			continue
		}
		if tok.Kind != notation.Word {
			break
		}
		q, perr := parseSquare(tok.Text)
		if perr != nil {
			e := sc.ErrorAtToken(tok, fmt.Sprintf("%q is neither a place of the royal reserve (1 to 6) nor a square: %v", tok.Text, perr),
				fmt.Sprintf("« %s » n'est ni une place de la réserve royale (1 à 6) ni une case", tok.Text))
			e.Example, e.ExampleFR = "build "+id+" m12 pay 1 l13", "construire "+id+" m12 payer 1 l13"
			return nil, e
		}
		sc.Next()
		m.Pay = append(m.Pay, q)
		m.payPos = append(m.payPos, tok.Pos)
	}
	if len(m.Pay) == 0 {
		e := sc.ErrorAt(sc.EndPos(), "missing what pays: reserve places (1 to 6) and squares, or nothing",
			"il manque ce qui paie : places de la réserve (1 à 6) et cases, ou rien")
		e.Example, e.ExampleFR = "build "+id+" m12 pay 1 l13", "construire "+id+" m12 payer 1 l13"
		return nil, e
	}
	sortPay(&m)
	return m, nil
}

// sortPay puts the payment in canonical order: reserve places first, then
// squares, each ascending.
func sortPay(m *Build) {
	idx := make([]int, len(m.Pay))
	for i := range idx {
		idx[i] = i
	}
	key := func(p int) int {
		if p < 0 {
			return -1000 - p // places before squares, 1 before 6
		}
		return p
	}
	slices.SortStableFunc(idx, func(a, b int) int { return key(m.Pay[a]) - key(m.Pay[b]) })
	pay := make([]int, len(idx))
	pos := make([]notation.Pos, len(idx))
	for i, j := range idx {
		pay[i] = m.Pay[j]
		if j < len(m.payPos) {
			pos[i] = m.payPos[j]
		}
	}
	m.Pay, m.payPos = pay, pos
}

// peekBuilding reports the building the next words name, without reading.
func (s *State) peekBuilding(sc *notation.Scanner) (Building, bool) {
	b, _, _, ok := matchBuilding(sc)
	return b, ok
}

// matchBuilding finds the longest building name at the scanner: it
// returns the building, how many tokens it takes, and whether the
// spelling is French only.
func matchBuilding(sc *notation.Scanner) (Building, int, bool, bool) {
	tok, ok := sc.Peek()
	if !ok || tok.Kind != notation.Word {
		return 0, 0, false, false
	}
	toks := sc.Step().Tokens
	at := slices.IndexFunc(toks, func(t notation.Token) bool { return t.Pos == tok.Pos })
	for n := min(4, len(toks)-at); n >= 1; n-- {
		words := make([]string, 0, n)
		okw := true
		for _, t := range toks[at : at+n] {
			if t.Kind != notation.Word {
				okw = false
				break
			}
			words = append(words, t.Text)
		}
		if !okw {
			continue
		}
		if m, ok := buildingPhrases[foldPhrase(strings.Join(words, " "))]; ok {
			return m.b, n, m.fr, true
		}
	}
	return 0, 0, false, false
}

// scanBuildingWord reads a building name of one or more words.
func (s *State) scanBuildingWord(sc *notation.Scanner) (Building, bool) {
	b, n, fr, ok := matchBuilding(sc)
	if !ok {
		return 0, false
	}
	for range n {
		sc.Next()
	}
	if fr {
		sc.Step().Lang = notation.French
	}
	return b, true
}

// scanTile reads a tile: a building with an optional copy number. Without
// the number it is the one tile of that building in seat's hand.
func (s *State) scanTile(seat int, sc *notation.Scanner, ex, exFR string) (int16, string, notation.Pos, *notation.Error) {
	tok, _ := sc.Peek()
	b, ok := s.scanBuildingWord(sc)
	if !ok {
		e := sc.Unexpected(buildingVocab, notation.Noun{EN: "building", FR: "bâtiment"})
		e.Example, e.ExampleFR = ex, exFR
		return -1, "", tok.Pos, e
	}
	hyphen := sc.Punct("-")
	if n, ntok, ok := sc.Number(); ok {
		id := fmt.Sprintf("%s-%d", b, n)
		i := slices.IndexFunc(s.data.Tiles, func(t Tile) bool { return t.ID == id })
		if i < 0 {
			count := 0
			for _, t := range s.data.Tiles {
				if t.Building == b {
					count++
				}
			}
			en, fr := fmt.Sprintf("the %s tiles are %s-1 to %s-%d", b, b, b, count), fmt.Sprintf("les tuiles %s vont de %s-1 à %s-%d", b, b, b, count)
			if count == 1 {
				en, fr = fmt.Sprintf("the only %s tile is %s-1", b, b), fmt.Sprintf("la seule tuile %s est %s-1", b, b)
			}
			e := sc.ErrorAtToken(ntok, fmt.Sprintf("there is no %s; %s", id, en),
				fmt.Sprintf("il n'y a pas %s ; %s", adjudicator.OfName(id).FR, fr))
			return -1, "", tok.Pos, e
		}
		return int16(i), id, tok.Pos, nil
	} else if hyphen {
		return -1, "", tok.Pos, sc.ErrorAt(sc.EndPos(), "missing the copy number after the hyphen, like "+b.String()+"-1",
			"il manque le numéro après le tiret, par exemple "+b.String()+"-1")
	}
	var mine []int16
	if seat >= 0 {
		for _, t := range s.handOf(seat) {
			if s.tile(t).Building == b && !slices.Contains(mine, t) {
				mine = append(mine, t)
			}
		}
	}
	switch len(mine) {
	case 0:
		// Apply says it is not in the hand.
		return -1, b.String(), tok.Pos, nil
	case 1:
		return mine[0], s.tile(mine[0]).ID, tok.Pos, nil
	}
	ids := make([]string, len(mine))
	for i, t := range mine {
		ids[i] = s.tile(t).ID
	}
	e := sc.ErrorAtToken(tok, fmt.Sprintf("your hand holds %s: say which", strings.Join(ids, " and ")),
		fmt.Sprintf("votre main contient %s : précisez laquelle", strings.Join(ids, " et ")))
	e.Example, e.ExampleFR = strings.Replace(ex, b.String(), ids[0], 1), strings.Replace(exFR, b.String(), ids[0], 1)
	return -1, "", tok.Pos, e
}

// handOf returns the tiles in seat's hand; Henri's is the tile he took.
func (s *State) handOf(seat int) []int16 {
	if s.solo && seat == 1 {
		if s.henriTile >= 0 {
			return []int16{s.henriTile}
		}
		return nil
	}
	return s.hands[seat]
}

// skipFillers reads the little words a player may put before a square:
// "the troop on", "la troupe en".
func skipFillers(sc *notation.Scanner) {
	for {
		if _, ok := sc.Keyword(fillers); ok {
			continue
		}
		if _, ok := sc.Keyword(troopWords); ok {
			continue
		}
		return
	}
}

func scanSquare(sc *notation.Scanner, ex, exFR string) (int, notation.Pos, *notation.Error) {
	skipFillers(sc)
	tok, ok := sc.Next()
	if !ok {
		e := sc.ErrorAt(sc.EndPos(), "missing the square, like m12", "il manque la case, par exemple m12")
		e.Example, e.ExampleFR = ex, exFR
		return 0, sc.EndPos(), e
	}
	q, err := parseSquare(tok.Text)
	if err != nil || tok.Kind != notation.Word {
		msg := "a square is a column letter and a row number, like m13"
		if err != nil {
			msg = err.Error()
		}
		e := sc.ErrorAtToken(tok, fmt.Sprintf("%q is not a square: %s", tok.Text, msg),
			fmt.Sprintf("« %s » n'est pas une case : une case est une lettre de colonne (a à y) et un numéro de ligne (1 à 25), par exemple m13", tok.Text))
		e.Example, e.ExampleFR = ex, exFR
		return 0, tok.Pos, e
	}
	return q, tok.Pos, nil
}
