package lowenherz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// The keywords of the Löwenherz notation, English and French (the French
// words of the rulebooks: frontière, chevalier, extension, transfuge...).
var (
	verbs = notation.Vocabulary{
		{Name: "castle", FR: []string{"château", "chateau"}},
		{Name: "sell", EN: []string{"sale"}, FR: []string{"vendre", "vends", "vend", "vente"}},
		{Name: "play", FR: []string{"jouer", "joue", "joues"}},
		{Name: "border", EN: []string{"borders"}, FR: []string{"frontière", "frontières"}},
		{Name: "knight", EN: []string{"knights"}, FR: []string{"chevalier", "chevaliers"}},
		{Name: "extend", EN: []string{"extension", "annex"}, FR: []string{"étendre", "étends", "étend", "annexer"}},
		{Name: "deserter", EN: []string{"defector"}, FR: []string{"transfuge"}},
		{Name: "alliance", EN: []string{"ally"}, FR: []string{"allier", "allie"}},
		{Name: "draw", EN: []string{"refill"}, FR: []string{"piocher", "pioche", "pioches"}},
		{Name: "take", FR: []string{"prendre", "prends", "prend"}},
		{Name: "end", EN: []string{"done", "pass"}, FR: []string{"fin", "finir", "terminer", "termine"}},
	}
	// cardWords are the words of card names.
	cardWords = notation.Vocabulary{
		{Name: "borders", EN: []string{"border"}, FR: []string{"frontières", "frontière"}},
		{Name: "knights", EN: []string{"knight"}, FR: []string{"chevaliers", "chevalier"}},
		{Name: "extension", EN: []string{"extensions", "extend"}, FR: []string{"étendre"}},
		{Name: "deserter", EN: []string{"defector"}, FR: []string{"transfuge", "changement"}},
		{Name: "alliance"},
	}
	orWords    = notation.Vocabulary{{Name: "or", FR: []string{"ou"}}}
	asWords    = notation.Vocabulary{{Name: "as", EN: []string{"for"}, FR: []string{"comme", "pour", "en"}}}
	knightWord = notation.Vocabulary{{Name: "knight", FR: []string{"chevalier"}}}
	domainWord = notation.Vocabulary{{Name: "domain", EN: []string{"from"}, FR: []string{"domaine", "fief", "depuis"}}}
	directions = notation.Vocabulary{
		{Name: "north", EN: []string{"n", "up"}, FR: []string{"nord", "haut"}},
		{Name: "east", EN: []string{"e", "right"}, FR: []string{"est", "droite"}},
		{Name: "south", EN: []string{"s", "down"}, FR: []string{"sud", "bas"}},
		{Name: "west", EN: []string{"w", "left"}, FR: []string{"ouest", "o", "gauche"}},
	}
)

// shownFR are the French spellings of a step shown in French where the
// first of their terms' would not do, first in the game's Words: the words
// of a card that French writes the same (cardNamesFR).
var shownFR = notation.Vocabulary{{Name: "extension", FR: []string{"extension"}}, {Name: "alliance", FR: []string{"alliance"}}}

var stepNoun = notation.Noun{EN: "step", FR: "étape", Feminine: true}

// Parse reads one step. The grammar, with the French in brackets:
//
//	castle SQ knight SQ          château SQ chevalier SQ    (setup)
//	sell CARD                    vendre CARD
//	play CARD [as ACTION]        jouer CARD [comme ACTION]
//	border EDGE                  frontière EDGE
//	knight SQ                    chevalier SQ
//	extend SQ [SQ] [domain SQ]   étendre SQ [SQ] [domaine SQ]
//	deserter SQ SQ               transfuge SQ SQ
//	alliance EDGE                alliance EDGE
//	draw                         piocher
//	take CARD                    prendre CARD
//	end                          fin
//
// SQ is a square a1-l12. EDGE is two adjacent squares, "e5|e6" (also
// e5-e6, e5/e6, "e5 e6") or a square and a side, "e5 south" (sud). CARD is
// a card's back letter (optional when the hand, or the market for take,
// has only one card of that name) and its name as printed: "1 border",
// "2 borders", "3 borders", "1 knight", "2 knights", "knight or 2 borders",
// "knight or extension", "extension", "extension or 2 borders", "2 knights
// or extension", "deserter", "alliance" (French: "2 frontières",
// "chevalier ou extension", "transfuge"...); '/' may stand for "or" and
// the numbers of a two-action card may be left out. ACTION is borders,
// knights or extension, needed for a card with two.
func (s *State) Parse(player string, step *notation.Step) (adjudicator.Move, error) {
	sc := notation.NewScanner(step)
	verbTok, _ := sc.Peek()
	verb, ok := sc.Keyword(verbs)
	if !ok {
		e := sc.Unexpected(verbs, stepNoun)
		e.Example, e.ExampleFR = "play A 2 borders; border e5|e6; draw", "jouer A 2 frontières ; frontière e5|e6 ; piocher"
		if s.phase == phaseSetup { // the setup has one step: say it
			e.Example, e.ExampleFR = "castle a1 knight b1", "château a1 chevalier b1"
		}
		return nil, e
	}
	p := s.index(player)
	var mv adjudicator.Move
	var err *notation.Error
	switch verb {
	case "castle":
		var m Place
		m.pos = verbTok.Pos
		if m.Castle, _, err = scanSquare(sc, "castle a1 knight b1", "château a1 chevalier b1"); err == nil {
			sc.Keyword(knightWord)
			var t notation.Token
			m.Knight, t, err = scanSquare(sc, "castle a1 knight b1", "château a1 chevalier b1")
			m.kpos = t.Pos
		}
		mv = m
	case "sell":
		var c Card
		c, err = s.scanCard(sc, s.hand(p), "sell A 1 border", "vendre A 1 frontière")
		mv = Sell{Card: c, pos: verbTok.Pos}
	case "take":
		var c Card
		c, err = s.scanCard(sc, s.takeable(), "take A 1 knight", "prendre A 1 chevalier")
		mv = Take{Card: c, pos: verbTok.Pos}
	case "play":
		mv, err = s.parsePlay(sc, p, verbTok)
	case "border":
		var e Edge
		e, err = scanEdge(sc, "border e5|e6", "frontière e5|e6")
		mv = BorderStep{Edge: e, pos: verbTok.Pos}
	case "knight":
		var q Square
		var t notation.Token
		q, t, err = scanSquare(sc, "knight g7", "chevalier g7")
		mv = KnightStep{Square: q, pos: t.Pos}
	case "extend":
		mv, err = parseExtend(sc)
	case "deserter":
		var m DeserterStep
		var t notation.Token
		if m.From, t, err = scanSquare(sc, "deserter f5 g7", "transfuge f5 g7"); err == nil {
			m.pos = t.Pos
			m.To, t, err = scanSquare(sc, "deserter f5 g7", "transfuge f5 g7")
			m.tpos = t.Pos
		}
		mv = m
	case "alliance":
		var e Edge
		e, err = scanEdge(sc, "alliance e5|e6", "alliance e5|e6")
		mv = AllianceStep{Edge: e, pos: verbTok.Pos}
	case "draw":
		mv = Draw{}
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

func (s *State) hand(p int) []Card {
	if p < 0 {
		return nil
	}
	return s.players[p].hand
}

// takeable returns the market cards that may be taken now.
func (s *State) takeable() []Card {
	var out []Card
	for i, c := range s.market {
		if i != s.sold {
			out = append(out, c)
		}
	}
	return out
}

func (s *State) parsePlay(sc *notation.Scanner, p int, verbTok notation.Token) (adjudicator.Move, *notation.Error) {
	c, err := s.scanCard(sc, s.hand(p), "play A 2 borders", "jouer A 2 frontières")
	if err != nil {
		return nil, err
	}
	m := Play{Card: c, pos: verbTok.Pos}
	opts := c.Kind.options()
	sc.Keyword(asWords)
	sc.Punct(":")
	actTok, ok := sc.Peek()
	if name, found := sc.Keyword(cardWords); found {
		m.actPos = actTok.Pos
		switch name {
		case "borders":
			m.Action = ActBorders
		case "knights":
			m.Action = ActKnights
		case "extension":
			m.Action = ActExtension
		case "deserter":
			m.Action = ActDeserter
		default:
			m.Action = ActAlliance
		}
		return m, nil
	}
	if ok && actTok.Kind == notation.Word {
		e := sc.Unexpected(cardWords, notation.Noun{EN: "action", FR: "action", Feminine: true})
		return nil, e
	}
	if len(opts) > 1 {
		e := sc.ErrorAt(sc.EndPos(), fmt.Sprintf("the %s card offers %s or %s: say which, like play %s as %s", c.Kind, opts[0].act, opts[1].act, c, opts[1].act),
			fmt.Sprintf("la carte %s offre %s ou %s : précisez laquelle, par exemple jouer %s comme %s", cardNamesFR[c.Kind], opts[0].act.Words().FR, opts[1].act.Words().FR, c.French(), opts[1].act.Words().FR))
		e.Example, e.ExampleFR = fmt.Sprintf("play %s as %s", c, opts[1].act), fmt.Sprintf("jouer %s comme %s", c.French(), opts[1].act.Words().FR)
		return nil, e
	}
	m.Action = opts[0].act
	return m, nil
}

func parseExtend(sc *notation.Scanner) (adjudicator.Move, *notation.Error) {
	m := Extend{Domain: noSquare}
	for len(m.Squares) < 3 {
		tok, ok := sc.Peek()
		if !ok || tok.Kind != notation.Word {
			break
		}
		if _, _, isDom := domainWord.Lookup(tok.Text); isDom {
			break
		}
		q, t, err := scanSquare(sc, "extend c3", "étendre c3")
		if err != nil {
			return nil, err
		}
		m.Squares = append(m.Squares, q)
		m.pos = append(m.pos, t.Pos)
		sc.Punct(",")
	}
	if len(m.Squares) == 0 {
		_, _, err := scanSquare(sc, "extend c3", "étendre c3")
		return nil, err
	}
	if tok, ok := sc.Peek(); ok {
		if _, isDom := sc.Keyword(domainWord); isDom {
			q, t, err := scanSquare(sc, "extend c3 domain a1", "étendre c3 domaine a1")
			if err != nil {
				return nil, err
			}
			m.Domain, m.dpos = q, t.Pos
		} else {
			_ = tok
		}
	}
	return m, nil
}

// scanSquare reads a square a1-l12.
func scanSquare(sc *notation.Scanner, ex, exFR string) (Square, notation.Token, *notation.Error) {
	tok, ok := sc.Next()
	if !ok {
		e := sc.ErrorAt(sc.EndPos(), "missing square, like e5", "il manque la case, par exemple e5")
		e.Example, e.ExampleFR = ex, exFR
		return noSquare, tok, e
	}
	q, good := ParseSquare(tok.Text)
	if !good {
		e := sc.ErrorAtToken(tok, fmt.Sprintf("%q is not a square: squares run from a1 to l12, column then row", tok.Text),
			fmt.Sprintf("« %s » n'est pas une case : les cases vont de a1 à l12, colonne puis ligne", tok.Text))
		e.Example, e.ExampleFR = ex, exFR
		return noSquare, tok, e
	}
	return q, tok, nil
}

// scanEdge reads an edge: "e5|e6", "e5-e6", "e5/e6", "e5 e6" or "e5 south".
func scanEdge(sc *notation.Scanner, ex, exFR string) (Edge, *notation.Error) {
	a, atok, err := scanSquare(sc, ex, exFR)
	if err != nil {
		return noEdge, err
	}
	if !sc.Punct("|") && !sc.Punct("-") {
		sc.Punct("/")
	}
	dirTok, _ := sc.Peek()
	if d, ok := sc.Keyword(directions); ok {
		e := edgeOf(a, dirByName(d))
		if e < 0 {
			er := sc.ErrorAtToken(dirTok, fmt.Sprintf("the %s side of %s is the rim of the board, a border already", d, a),
				fmt.Sprintf("le côté %s de %s est le bord du plateau, déjà une frontière", dirNamesFR[dirByName(d)], a))
			er.Example, er.ExampleFR = ex, exFR
			return noEdge, er
		}
		return e, nil
	}
	b, btok, err := scanSquare(sc, ex, exFR)
	if err != nil {
		if t, ok := sc.Peek(); !ok || t.Kind == notation.Word {
			err.Msg += " or a side: north, east, south, west"
			err.MsgFR += " ou un côté : nord, est, sud, ouest"
		}
		return noEdge, err
	}
	e := between(a, b)
	if e < 0 {
		er := sc.ErrorAtToken(btok, fmt.Sprintf("%s and %s are not side by side: a border goes between two adjacent squares", a, b),
			fmt.Sprintf("%s et %s ne sont pas côte à côte : une frontière se place entre deux cases adjacentes", a, b))
		er.Pos = atok.Pos
		er.Example, er.ExampleFR = ex, exFR
		return noEdge, er
	}
	return e, nil
}

func dirByName(name string) Dir {
	return Dir(slices.Index(dirNames[:], name))
}

// cardItem is one part of a card's name: a number and an action word.
type cardItem struct {
	n      int
	word   string
	plural bool
}

// scanCard reads a card: an optional back letter and the card's name. When
// several cards fit, those in ctx (the hand, or the market) decide; a
// choice left between cards of several letters is an error asking for the
// letter.
func (s *State) scanCard(sc *notation.Scanner, ctx []Card, ex, exFR string) (Card, *notation.Error) {
	start, ok := sc.Peek()
	if !ok {
		e := sc.ErrorAt(sc.EndPos(), "missing card, like A 2 borders", "il manque la carte, par exemple A 2 frontières")
		e.Example, e.ExampleFR = ex, exFR
		return Card{}, e
	}
	var letter byte
	if start.Kind == notation.Word && len(start.Text) == 1 {
		l := strings.ToUpper(start.Text)[0]
		if l >= 'A' && l <= 'D' {
			letter = l
			sc.Next()
		}
	}
	var items []cardItem
	for {
		var it cardItem
		if n, _, ok := sc.Number(); ok {
			it.n = n
		}
		tok, _ := sc.Peek()
		name, found := sc.Keyword(cardWords)
		if !found {
			e := sc.Unexpected(cardWords, notation.Noun{EN: "card", FR: "carte", Feminine: true})
			e.Example, e.ExampleFR = ex, exFR
			return Card{}, e
		}
		it.word = name
		f := notation.Fold(tok.Text)
		it.plural = strings.HasSuffix(f, "s") && name != "alliance"
		items = append(items, it)
		if _, isOr := sc.Keyword(orWords); !isOr && !sc.Punct("/") {
			break
		}
		if len(items) == 2 {
			e := sc.ErrorAt(start.Pos, "a card offers at most two actions", "une carte offre au plus deux actions")
			e.Example, e.ExampleFR = ex, exFR
			return Card{}, e
		}
	}
	kinds := cardKinds(items)
	if len(kinds) == 0 {
		e := sc.ErrorAt(start.Pos, fmt.Sprintf("no card is called %q; the cards: %s", cardText(items), strings.Join(cardNames[:], ", ")),
			fmt.Sprintf("aucune carte ne s'appelle « %s » ; les cartes : %s", cardText(items), strings.Join(cardNamesFR[:], ", ")))
		e.Example, e.ExampleFR = ex, exFR
		return Card{}, e
	}
	var cands []Card
	for _, k := range kinds {
		for _, l := range "ABCD" {
			c := Card{byte(l), k}
			if (letter == 0 || letter == byte(l)) && c.exists() {
				cands = append(cands, c)
			}
		}
	}
	if len(cands) == 0 {
		e := sc.ErrorAt(start.Pos, fmt.Sprintf("there is no %s card with the letter %c", kinds[0], letter),
			fmt.Sprintf("il n'y a pas de carte %s de lettre %c", cardNamesFR[kinds[0]], letter))
		e.Example, e.ExampleFR = ex, exFR
		return Card{}, e
	}
	var inCtx []Card
	for _, c := range cands {
		if slices.Contains(ctx, c) && !slices.Contains(inCtx, c) {
			inCtx = append(inCtx, c)
		}
	}
	switch {
	case len(inCtx) == 1:
		return inCtx[0], nil
	case len(inCtx) > 1:
		names := make([]string, len(inCtx))
		namesFR := make([]string, len(inCtx))
		for i, c := range inCtx {
			names[i], namesFR[i] = c.String(), c.French()
		}
		e := sc.ErrorAt(start.Pos, fmt.Sprintf("that may be %s: say which, with its letter", strings.Join(names, " or ")),
			fmt.Sprintf("cela peut être %s : précisez laquelle, avec sa lettre", strings.Join(namesFR, " ou ")))
		e.Example, e.ExampleFR = strings.Fields(ex)[0]+" "+names[0], strings.Fields(exFR)[0]+" "+namesFR[0]
		return Card{}, e
	}
	// None at hand: the first that fits, for Apply to say it is missing.
	return cands[0], nil
}

func cardText(items []cardItem) string {
	var parts []string
	for _, it := range items {
		if it.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", it.n, it.word))
		} else {
			parts = append(parts, it.word)
		}
	}
	return strings.Join(parts, " or ")
}

// cardKinds returns the kinds of card a name may mean.
func cardKinds(items []cardItem) []CardKind {
	if len(items) == 1 {
		it := items[0]
		switch it.word {
		case "borders":
			switch {
			case it.n == 1 || it.n == 0 && !it.plural:
				return []CardKind{Border1}
			case it.n == 2:
				return []CardKind{Borders2}
			case it.n == 3:
				return []CardKind{Borders3}
			case it.n == 0:
				return []CardKind{Border1, Borders2, Borders3}
			}
		case "knights":
			switch {
			case it.n == 1 || it.n == 0 && !it.plural:
				return []CardKind{Knight1}
			case it.n == 2:
				return []CardKind{Knights2}
			case it.n == 0:
				return []CardKind{Knight1, Knights2}
			}
		case "extension":
			if it.n <= 1 {
				return []CardKind{Extension}
			}
		case "deserter":
			if it.n <= 1 {
				return []CardKind{Deserter}
			}
		case "alliance":
			if it.n <= 1 {
				return []CardKind{Alliance}
			}
		}
		return nil
	}
	a, b := items[0], items[1]
	if a.word > b.word {
		a, b = b, a
	}
	switch {
	case a.word == "borders" && b.word == "knights" && (a.n == 0 || a.n == 2) && b.n <= 1:
		return []CardKind{KnightOrBorders}
	case a.word == "borders" && b.word == "extension" && (a.n == 0 || a.n == 2) && b.n <= 1:
		return []CardKind{ExtensionOrBorders}
	case a.word == "extension" && b.word == "knights" && a.n <= 1:
		switch {
		case b.n == 1 || b.n == 0 && !b.plural:
			return []CardKind{KnightOrExtension}
		case b.n == 2:
			return []CardKind{KnightsOrExtension}
		case b.n == 0:
			return []CardKind{KnightOrExtension, KnightsOrExtension}
		}
	}
	return nil
}
