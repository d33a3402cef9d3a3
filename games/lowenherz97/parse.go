package lowenherz97

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
	"github.com/heraldgames/herald/notation"
)

// The keywords of the Löwenherz (1997) notation, English and French.
var (
	verbs = notation.Vocabulary{
		{Name: "choose", EN: []string{"pick", "decide", "decision"}, FR: []string{"choisis", "choisir", "choix", "décision"}},
		{Name: "offer", EN: []string{"offers"}, FR: []string{"offre", "offrir", "propose", "proposer"}},
		{Name: "accept", EN: []string{"accepted", "agree", "yes"}, FR: []string{"accepte", "accepter", "oui"}},
		{Name: "refuse", EN: []string{"reject", "decline", "no"}, FR: []string{"refuser", "non"}},
		{Name: "yield", EN: []string{"concede", "cede"}, FR: []string{"cède", "céder", "laisse", "laisser"}},
		{Name: "bid", EN: []string{"bids"}, FR: []string{"mise", "miser", "enchère"}},
		{Name: "look", EN: []string{"examine", "see"}, FR: []string{"regarde", "regarder", "examiner"}},
		{Name: "take", EN: []string{"draw"}, FR: []string{"prends", "prendre"}},
		{Name: "wall", EN: []string{"walls"}, FR: []string{"mur", "murs"}},
		{Name: "knight", EN: []string{"knights"}, FR: []string{"chevalier", "chevaliers"}},
		{Name: "extend", EN: []string{"annex", "expand"}, FR: []string{"étends", "étendre", "agrandis", "agrandir", "annexe", "annexer"}},
		{Name: "renegade", EN: []string{"ueberlaeufer"}, FR: []string{"renégat", "überläufer", "uberlaufer"}},
		{Name: "alliance", EN: []string{"ally"}, FR: []string{"bündniszwang", "bundniszwang"}},
		{Name: "break", EN: []string{"dissolve"}, FR: []string{"romps", "rompre", "romp"}},
		{Name: "castle", FR: []string{"château"}},
		{Name: "end", EN: []string{"done", "pass", "stop"}, FR: []string{"fin", "finir", "termine", "terminer", "passe"}},
	}
	politicals = notation.Vocabulary{
		{Name: "alliance", EN: []string{"ally"}, FR: []string{"bündniszwang", "bundniszwang"}},
		{Name: "renegade", FR: []string{"renégat", "überläufer", "uberlaufer"}},
		{Name: "fief", EN: []string{"lehen"}, FR: []string{"parchemin"}},
		{Name: "treasure", EN: []string{"dukatenschatz"}, FR: []string{"trésor"}},
	}
	knightWord = notation.Vocabulary{{Name: "knight", FR: []string{"chevalier"}}}
	fillers    = notation.Vocabulary{{Name: "with", EN: []string{"at", "on", "to", "and", "card"}, FR: []string{"avec", "en", "sur", "à", "a", "et", "carte"}}}
	fromWord   = notation.Vocabulary{{Name: "from", EN: []string{"of"}, FR: []string{"depuis", "de"}}}
	pileWord   = notation.Vocabulary{{Name: "pile", EN: []string{"stack"}, FR: []string{"pile", "tas"}}}
)

// shownFR are the French spellings of a step shown in French where the
// first of their terms' would not do, first in the game's Words: the
// political cards French writes the same (polNamesFR), and "céder", since
// "cède" folds to the English "cede".
var shownFR = notation.Vocabulary{{Name: "alliance", FR: []string{"alliance"}}, {Name: "fief", FR: []string{"fief"}}, {Name: "yield", FR: []string{"céder"}}}

var board = grid.New(width, height)

// Place is a setup step: a castle and the knight beside it, of the player's
// own colour or, once their own are placed, the neutral prince's
// (lowenherz-1997-fr.txt:295-307).
type Place struct {
	Castle, Knight grid.Square
	pos            [2]notation.Pos
}

// String returns the step in canonical notation.
func (m Place) String() string {
	if d, ok := nextTo(m.Castle, m.Knight); ok {
		return stepNames.place[m.Castle][d]
	}
	return m.name()
}

// name returns m's notation, made anew.
func (m Place) name() string {
	return "castle " + board.Name(m.Castle) + " knight " + board.Name(m.Knight)
}

// Choose lays decision card Tier (1 top, 2 middle, 3 bottom), openly, with
// a political card played with it when With is set
// (lowenherz-1997-fr.txt:117, 248, 260). An alliance names its two regions
// at once, by a square of each, the player's first: « Une fois choisi, il
// ne peut plus changer » (l. 249).
type Choose struct {
	Tier    int
	With    PolKind
	HasWith bool
	Ally    [2]grid.Square // with an alliance: the player's region, the other prince's
	Bare    bool           // an alliance without its regions, under option alliance=action (RULINGS.md L97-11)
	pos     notation.Pos
	withPos notation.Pos
	allyPos [2]notation.Pos
}

// String returns the step in canonical notation.
func (m Choose) String() string {
	switch {
	case m.HasWith && m.With == Alliance && !m.Bare:
		return "choose " + strconv.Itoa(m.Tier) + " alliance " + board.Name(m.Ally[0]) + " " + board.Name(m.Ally[1])
	case m.HasWith:
		return "choose " + strconv.Itoa(m.Tier) + " " + polNames[m.With]
	}
	return "choose " + strconv.Itoa(m.Tier)
}

// Offer offers the other negotiator N ducats to be let to act
// (lowenherz-1997-fr.txt:204-208).
type Offer struct {
	N   int
	pos notation.Pos
}

// String returns the step in canonical notation.
func (m Offer) String() string { return "offer " + strconv.Itoa(m.N) }

// Accept takes the other negotiator's standing offer: they pay it and act.
type Accept struct{}

// String returns the step in canonical notation.
func (Accept) String() string { return "accept" }

// Refuse ends the negotiation: a confrontation follows
// (lowenherz-1997-fr.txt:210).
type Refuse struct{}

// String returns the step in canonical notation.
func (Refuse) String() string { return "refuse" }

// Yield lets the other negotiator act for nothing (ruling L97-4).
type Yield struct{}

// String returns the step in canonical notation.
func (Yield) String() string { return "yield" }

// Bid is a sealed bid in a confrontation: ducats, and treasure cards by
// value, largest first (lowenherz-1997-fr.txt:214, 275).
type Bid struct {
	Ducats    int
	Treasures [4]uint8
	pos       notation.Pos
	tpos      [4]notation.Pos
}

// String returns the step in canonical notation.
func (m Bid) String() string {
	var b strings.Builder
	b.WriteString("bid ")
	b.WriteString(strconv.Itoa(m.Ducats))
	for _, v := range m.Treasures {
		if v > 0 {
			b.WriteString(" treasure ")
			b.WriteString(strconv.Itoa(int(v)))
		}
	}
	return b.String()
}

// Look looks at political pile 1 or 2 (lowenherz-1997-fr.txt:160).
type Look struct {
	Pile int
	pos  notation.Pos
}

// String returns the step in canonical notation.
func (m Look) String() string { return "look " + strconv.Itoa(m.Pile) }

// Take takes a card from the pile looked at. A fief or treasure written
// without its value is the only one of its kind there.
type Take struct {
	Card Political
	pos  notation.Pos
}

// String returns the step in canonical notation.
func (m Take) String() string { return "take " + m.Card.String() }

// Wall places a wall between two adjacent squares.
type Wall struct {
	Edge grid.Edge
	pos  notation.Pos
}

// String returns the step in canonical notation.
func (m Wall) String() string {
	if d, ok := nextTo(m.Edge.A, m.Edge.B); ok {
		return stepNames.wall[m.Edge.A][d]
	}
	return m.name()
}

// name returns m's notation, made anew.
func (m Wall) name() string { return "wall " + board.Name(m.Edge.A) + " " + board.Name(m.Edge.B) }

// Knight places a knight from the reserve; Treasure, when not 0, is the
// treasure card that pays for a forest (lowenherz-1997-fr.txt:164, 277).
type Knight struct {
	Square   grid.Square
	Treasure int
	pos      notation.Pos
	tpos     notation.Pos
}

// String returns the step in canonical notation.
func (m Knight) String() string {
	if m.Treasure == 0 && m.Square >= 0 && int(m.Square) < len(stepNames.knight) {
		return stepNames.knight[m.Square]
	}
	return "knight " + board.Name(m.Square) + treasureSuffix(m.Treasure)
}

func treasureSuffix(v int) string {
	if v == 0 {
		return ""
	}
	return " treasure " + strconv.Itoa(v)
}

// Extend annexes a square to one of the player's regions; From names a
// square of the region when the square borders two of them.
type Extend struct {
	Square  grid.Square
	From    grid.Square
	HasFrom bool
	pos     notation.Pos
	fromPos notation.Pos
}

// String returns the step in canonical notation.
func (m Extend) String() string {
	if !m.HasFrom && m.Square >= 0 && int(m.Square) < len(stepNames.extend) {
		return stepNames.extend[m.Square]
	}
	if m.HasFrom {
		return "extend " + board.Name(m.Square) + " from " + board.Name(m.From)
	}
	return "extend " + board.Name(m.Square)
}

// RenegadeMove carries out a renegade card: the knight on Remove goes back
// to its owner, and one of the player's knights goes on Place
// (lowenherz-1997-fr.txt:259-271).
type RenegadeMove struct {
	Remove, Place grid.Square
	Treasure      int
	pos           [2]notation.Pos
	tpos          notation.Pos
}

// String returns the step in canonical notation.
func (m RenegadeMove) String() string {
	return "renegade " + board.Name(m.Remove) + " " + board.Name(m.Place) + treasureSuffix(m.Treasure)
}

// AllianceMove carries out an alliance card between the player's region
// holding Mine and the neighbouring region holding Theirs
// (lowenherz-1997-fr.txt:247-252).
type AllianceMove struct {
	Mine, Theirs grid.Square
	pos          [2]notation.Pos
}

// String returns the step in canonical notation.
func (m AllianceMove) String() string {
	return "alliance " + board.Name(m.Mine) + " " + board.Name(m.Theirs)
}

// Break breaks the alliance between the regions holding A and B for 10
// ducats (lowenherz-1997-fr.txt:252).
type Break struct {
	A, B     grid.Square
	Treasure int
	pos      [2]notation.Pos
	tpos     notation.Pos
}

// String returns the step in canonical notation.
func (m Break) String() string {
	return "break " + board.Name(m.A) + " " + board.Name(m.B) + treasureSuffix(m.Treasure)
}

// End ends the player's action, with what is left of it unused.
type End struct{}

// String returns the step in canonical notation.
func (End) String() string { return "end" }

var stepNoun = notation.Noun{EN: "step", FR: "étape", Feminine: true}

// Parse reads one step. The grammar, French words in brackets:
//
//	castle SQ knight SQ          château SQ chevalier SQ   (setup)
//	choose N [with CARD]         choisis N [avec CARD]     (N 1-3; CARD alliance or renegade)
//	offer N | accept | refuse | yield                      offre N | accepte | refuse | cède
//	bid N [treasure V]...        mise N [trésor V]...
//	look N | take CARD [V]       regarde N | prends CARD [V]
//	wall SQ SQ                   mur SQ SQ
//	knight SQ [treasure V]       chevalier SQ [trésor V]
//	extend SQ [from SQ]          étends SQ [depuis SQ]
//	renegade SQ SQ [treasure V]  renégat SQ SQ [trésor V]  (remove, then place)
//	alliance SQ SQ               alliance SQ SQ            (mine, theirs)
//	break SQ SQ [treasure V]     romps SQ SQ [trésor V]
//	end                          fin
//
// Squares are a column letter a-o and a row 1-10; a wall's squares may be
// joined by a dash ("e5-f5"), and a bid's numbers are added ("bid 3 3 1"
// bids 7). Parse checks the form only; Apply checks the rules.
func (s *State) Parse(player string, step *notation.Step) (adjudicator.Move, error) {
	sc := notation.NewScanner(step)
	first, _ := sc.Peek()
	verb, ok := sc.Keyword(verbs)
	if !ok {
		e := sc.Unexpected(verbs, stepNoun)
		if first.Kind == notation.Word && len(e.Suggest) > 3 {
			e.Suggest = e.Suggest[:3]
		}
		e.Example, e.ExampleFR = "choose 2; knight e5; end", "choisis 2 ; chevalier e5 ; fin"
		if s.phase == phasePlace { // the placement has one step: say it
			e.Example, e.ExampleFR = "castle e5 knight e6", "château e5 chevalier e6"
		}
		return nil, e
	}
	var mv adjudicator.Move
	var err *notation.Error
	var apart *adjudicator.RuleError // a wall between squares not side by side
	var refused *adjudicator.RuleError
	switch verb {
	case "castle":
		mv, err = parsePlace(sc, first.Pos)
	case "choose":
		mv, err, refused = parseChoose(sc, first.Pos, s.allianceAtAction)
	case "offer":
		mv, err, refused = parseOffer(sc, first.Pos)
	case "accept":
		mv = Accept{}
	case "refuse":
		mv = Refuse{}
	case "yield":
		mv = Yield{}
	case "bid":
		mv, err, refused = parseBid(sc, first.Pos)
	case "look":
		sc.Keyword(pileWord)
		var n int
		n, _, err = number(sc, "the pile, 1 or 2", "la pile, 1 ou 2", "look 1", "regarde 1")
		if err == nil && n != 1 && n != 2 {
			err = sc.ErrorAt(first.Pos, "there are two political piles: look 1 or look 2", "il y a deux piles politiques : regarde 1 ou regarde 2")
		}
		mv = Look{Pile: n, pos: first.Pos}
	case "take":
		mv, err = parseTake(sc, first.Pos)
	case "wall":
		var q [2]grid.Square
		var ps [2]notation.Pos
		q, ps, err = squares(sc, 2, "wall e5 f5", "mur e5 f5")
		if err == nil {
			e, ok := board.EdgeOf(q[0], q[1])
			if !ok {
				// The rule of l. 140, cited like every other refusal.
				apart = rulef(codeWall, ruleWallLine, "%s and %s are not side by side: a wall stands on the line between two squares",
					"%s et %s ne sont pas côte à côte : un mur se pose sur la ligne entre deux cases", board.Name(q[0]), board.Name(q[1])).At(ps[1])
			}
			mv = Wall{Edge: e, pos: ps[0]}
		}
	case "knight":
		var q [2]grid.Square
		var ps [2]notation.Pos
		q, ps, err = squares(sc, 1, "knight e5", "chevalier e5")
		var t int
		var tp notation.Pos
		if err == nil {
			t, tp, err, refused = treasureSuffixOf(sc)
		}
		mv = Knight{Square: q[0], Treasure: t, pos: ps[0], tpos: tp}
	case "extend":
		var q [2]grid.Square
		var ps [2]notation.Pos
		q, ps, err = squares(sc, 1, "extend e5", "étends e5")
		m := Extend{Square: q[0], pos: ps[0]}
		if err == nil {
			if _, ok := sc.Keyword(fromWord); ok {
				var f [2]grid.Square
				var fp [2]notation.Pos
				f, fp, err = squares(sc, 1, "extend e5 from d5", "étends e5 depuis d5")
				m.From, m.HasFrom, m.fromPos = f[0], true, fp[0]
			}
		}
		mv = m
	case "renegade":
		var q [2]grid.Square
		var ps [2]notation.Pos
		q, ps, err = squares(sc, 2, "renegade f5 g6", "renégat f5 g6")
		var t int
		var tp notation.Pos
		if err == nil {
			t, tp, err, refused = treasureSuffixOf(sc)
		}
		mv = RenegadeMove{Remove: q[0], Place: q[1], Treasure: t, pos: ps, tpos: tp}
	case "alliance":
		var q [2]grid.Square
		var ps [2]notation.Pos
		q, ps, err = squares(sc, 2, "alliance d5 h5", "alliance d5 h5")
		mv = AllianceMove{Mine: q[0], Theirs: q[1], pos: ps}
	case "break":
		sc.Keyword(notation.Vocabulary{{Name: "alliance"}})
		var q [2]grid.Square
		var ps [2]notation.Pos
		q, ps, err = squares(sc, 2, "break d5 h5", "romps d5 h5")
		var t int
		var tp notation.Pos
		if err == nil {
			t, tp, err, refused = treasureSuffixOf(sc)
		}
		mv = Break{A: q[0], B: q[1], Treasure: t, pos: ps, tpos: tp}
	case "end":
		mv = End{}
	}
	if refused != nil { // a rule broken as the step is read: the rest is moot
		return nil, refused
	}
	if err == nil {
		err = sc.ExpectEnd()
	}
	if err != nil {
		return nil, err
	}
	if apart != nil {
		return nil, apart
	}
	return mv, nil
}

func number(sc *notation.Scanner, what, whatFR, ex, exFR string) (int, notation.Pos, *notation.Error) {
	n, tok, ok := sc.Number()
	if !ok {
		pos := sc.EndPos()
		if t, more := sc.Peek(); more {
			pos = t.Pos
		}
		e := sc.ErrorAt(pos, "missing "+what+": a number", "il manque "+whatFR+" : un nombre")
		e.Example, e.ExampleFR = ex, exFR
		return 0, pos, e
	}
	return n, tok.Pos, nil
}

// squares reads n squares, with fillers and dashes between them.
func squares(sc *notation.Scanner, n int, ex, exFR string) ([2]grid.Square, [2]notation.Pos, *notation.Error) {
	var out [2]grid.Square
	var pos [2]notation.Pos
	for i := range n {
		sc.Keyword(fillers)
		if i > 0 {
			sc.Punct("-")
			sc.Punct("/")
			sc.Keyword(knightWord)
		}
		tok, ok := sc.Next()
		if !ok {
			e := sc.ErrorAt(sc.EndPos(), "missing a square, like e5", "il manque une case, par exemple e5")
			e.Example, e.ExampleFR = ex, exFR
			return out, pos, e
		}
		q, err := board.Parse(tok.Text)
		if err != nil {
			e := sc.ErrorAtToken(tok, fmt.Sprintf("%q is not a square: columns run a to o, rows 1 to 10, like e5", tok.Text),
				fmt.Sprintf("« %s » n'est pas une case : colonnes a à o, lignes 1 à 10, par exemple e5", tok.Text))
			e.Example, e.ExampleFR = ex, exFR
			return out, pos, e
		}
		out[i], pos[i] = q, tok.Pos
	}
	return out, pos, nil
}

// treasureSuffixOf reads an optional "treasure V" paying a cost.
func treasureSuffixOf(sc *notation.Scanner) (int, notation.Pos, *notation.Error, *adjudicator.RuleError) {
	sc.Keyword(fillers)
	tok, ok := sc.Peek()
	if !ok {
		return 0, notation.Pos{}, nil, nil
	}
	name, ok := sc.Keyword(politicals)
	if !ok || name != "treasure" {
		if ok {
			// A treasure pays a cost (RULINGS.md L97-3); a fief is kept
			// for the end (l. 281), an alliance or a renegade is played
			// with a decision card.
			return 0, tok.Pos, nil, rulef(codePolitical, ruleValues, "only a treasure card pays a cost", "seule une carte trésor paie un coût").At(tok.Pos)
		}
		return 0, notation.Pos{}, sc.Unexpected(politicals[3:], notation.Noun{EN: "treasure card", FR: "carte trésor", Feminine: true}), nil
	}
	v, _, err := number(sc, "the treasure's value", "la valeur du trésor", "knight e5 treasure 8", "chevalier e5 trésor 8")
	return v, tok.Pos, err, nil
}

// parseOffer reads the ducats of an offer. A political card in an offer,
// before or after the ducats, is refused with the rule that forbids it
// (lowenherz-1997-fr.txt:209), as a rule error.
func parseOffer(sc *notation.Scanner, start notation.Pos) (adjudicator.Move, *notation.Error, *adjudicator.RuleError) {
	noPolitical := func() *adjudicator.RuleError {
		sc.Keyword(fillers)
		tok, ok := sc.Peek()
		if !ok {
			return nil
		}
		if _, ok := sc.Keyword(politicals); !ok {
			return nil
		}
		return rulef(codeNegotiate, ruleNoPolitics, "political cards cannot be negotiated, only ducats are offered, like offer 3",
			"les cartes de politique ne peuvent pas être l'objet de négociations, on n'offre que des ducats, par exemple offre 3").At(tok.Pos)
	}
	if r := noPolitical(); r != nil {
		return nil, nil, r
	}
	n, _, err := number(sc, "the ducats offered", "les ducats offerts", "offer 3", "offre 3")
	if err != nil {
		return nil, err, nil
	}
	if r := noPolitical(); r != nil {
		return nil, nil, r
	}
	return Offer{N: n, pos: start}, nil, nil
}

func parsePlace(sc *notation.Scanner, start notation.Pos) (adjudicator.Move, *notation.Error) {
	q, ps, err := squares(sc, 2, "castle e5 knight e6", "château e5 chevalier e6")
	if err != nil {
		return nil, err
	}
	return Place{Castle: q[0], Knight: q[1], pos: ps}, nil
}

// With bare (option alliance=action), an alliance is laid without its
// regions, which are named at the action. A political card that is not
// played with a decision card, or an alliance's regions under option
// alliance=action, is refused as a rule error (RULINGS.md L97-11).
func parseChoose(sc *notation.Scanner, start notation.Pos, bare bool) (adjudicator.Move, *notation.Error, *adjudicator.RuleError) {
	n, pos, err := number(sc, "the decision card, 1 (top), 2 (middle) or 3 (bottom)", "la carte de décision, 1 (haut), 2 (milieu) ou 3 (bas)", "choose 2", "choisis 2")
	if err != nil {
		return nil, err, nil
	}
	if n < 1 || n > 3 {
		e := sc.ErrorAt(pos, "decision cards are numbered 1, 2 and 3: 1 for the top action, 3 for the bottom",
			"les cartes de décision sont numérotées 1, 2 et 3 : 1 pour l'action du haut, 3 pour celle du bas")
		e.Example, e.ExampleFR = "choose 2", "choisis 2"
		return nil, e, nil
	}
	m := Choose{Tier: n, pos: start}
	sc.Keyword(fillers)
	tok, ok := sc.Peek()
	if !ok {
		return m, nil, nil
	}
	name, ok := sc.Keyword(politicals)
	if !ok {
		return nil, sc.Unexpected(politicals[:2], notation.Noun{EN: "political card", FR: "carte politique", Feminine: true}), nil
	}
	if name != "alliance" && name != "renegade" {
		return nil, nil, rulef(codePolitical, ruleAttach, "a %s is not played with a decision card: only alliance and renegade are",
			"un %s ne se joue pas avec une carte de décision : seuls alliance et renégat le sont",
			adjudicator.Words{EN: name, FR: polNamesFR[polByName(name)]}).At(tok.Pos)
	}
	m.With, m.HasWith, m.withPos = polByName(name), true, tok.Pos
	if m.With == Alliance && bare {
		m.Bare = true
		sc.Keyword(fillers)
		if tok, ok := sc.Peek(); ok {
			return nil, nil, rulef(codePolitical, ruleAttach, "this game keeps the earlier rule for alliances (option alliance=action): lay the card bare, choose %d with alliance, then name the regions as you carry out the action, alliance d5 h5",
				"cette partie garde l'ancienne règle des alliances (option alliance=action) : posez la carte seule, choisis %d avec alliance, puis nommez les régions en exécutant l'action, alliance d5 h5", n).At(tok.Pos)
		}
	} else if m.With == Alliance {
		sc.Keyword(fillers)
		if _, ok := sc.Peek(); !ok {
			e := sc.ErrorAt(sc.EndPos(), "an alliance names its two regions as its card is laid: a square of your region, then one of the other prince's",
				"une alliance nomme ses deux régions quand sa carte est posée : une case de votre région, puis une de celle de l'autre prince")
			e.Example, e.ExampleFR = "choose 2 with alliance d5 h5", "choisis 2 avec alliance d5 h5"
			return nil, e, nil
		}
		var err *notation.Error
		if m.Ally, m.allyPos, err = squares(sc, 2, "choose 2 with alliance d5 h5", "choisis 2 avec alliance d5 h5"); err != nil {
			return nil, err, nil
		}
	}
	return m, nil, nil
}

func polByName(name string) PolKind {
	return PolKind(max(0, slices.Index(polNames[:], name)))
}

// parseBid reads a bid; a political card other than a treasure is refused
// as a rule error: a bid is money cards (lowenherz-1997-fr.txt:214) and
// treasures (:275).
func parseBid(sc *notation.Scanner, start notation.Pos) (adjudicator.Move, *notation.Error, *adjudicator.RuleError) {
	m := Bid{pos: start}
	got := false
	nt := 0
	for {
		sc.Punct(",")
		sc.Punct("+")
		if n, tok, ok := sc.Number(); ok {
			if m.Ducats+n > 1000 {
				return nil, sc.ErrorAtToken(tok, "no bid comes near that many ducats", "aucune mise n'approche autant de ducats"), nil
			}
			m.Ducats += n
			got = true
			continue
		}
		sc.Keyword(fillers)
		tok, ok := sc.Peek()
		if !ok {
			break
		}
		name, isPol := sc.Keyword(politicals)
		if !isPol {
			return nil, sc.Unexpected(politicals[3:], notation.Noun{EN: "treasure card", FR: "carte trésor", Feminine: true}), nil
		}
		if name != "treasure" {
			return nil, nil, rulef(codeBid, ruleConfront, "only ducats and treasure cards can be bid", "seuls les ducats et les cartes trésor peuvent être misés").At(tok.Pos)
		}
		v, _, err := number(sc, "the treasure's value", "la valeur du trésor", "bid 4 treasure 8", "mise 4 trésor 8")
		if err != nil {
			return nil, err, nil
		}
		if nt == len(m.Treasures) || v > 255 || v < 1 {
			return nil, sc.ErrorAtToken(tok, "there are 4 treasure cards, worth 5 to 8", "il y a 4 cartes trésor, de 5 à 8"), nil
		}
		m.Treasures[nt], m.tpos[nt] = uint8(v), tok.Pos
		nt++
		got = true
	}
	if !got {
		e := sc.ErrorAt(sc.EndPos(), "missing the bid: a number of ducats (0 for none)", "il manque la mise : un nombre de ducats (0 pour rien)")
		e.Example, e.ExampleFR = "bid 5", "mise 5"
		return nil, e, nil
	}
	sortTreasures(&m)
	return m, nil, nil
}

// sortTreasures puts a bid's treasures largest first, with their positions.
func sortTreasures(m *Bid) {
	for i := 1; i < len(m.Treasures); i++ {
		for j := i; j > 0 && m.Treasures[j] > m.Treasures[j-1]; j-- {
			m.Treasures[j], m.Treasures[j-1] = m.Treasures[j-1], m.Treasures[j]
			m.tpos[j], m.tpos[j-1] = m.tpos[j-1], m.tpos[j]
		}
	}
}

func parseTake(sc *notation.Scanner, start notation.Pos) (adjudicator.Move, *notation.Error) {
	name, err := sc.Expect(politicals, notation.Noun{EN: "political card", FR: "carte politique", Feminine: true})
	if err != nil {
		err.Example, err.ExampleFR = "take renegade", "prends renégat"
		return nil, err
	}
	c := Political{Kind: polByName(name)}
	if n, tok, ok := sc.Number(); ok {
		if c.Kind != Fief && c.Kind != Treasure {
			return nil, sc.ErrorAtToken(tok, "only fiefs and treasures have a value", "seuls les fiefs et les trésors ont une valeur")
		}
		if n < 1 || n > 99 {
			return nil, sc.ErrorAtToken(tok, "no card has that value", "aucune carte n'a cette valeur")
		}
		c.Value = n
	}
	return Take{Card: c, pos: start}, nil
}
