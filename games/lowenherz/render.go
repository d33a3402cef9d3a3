package lowenherz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/textwrap"
	"github.com/heraldgames/herald/notation"
)

// symbols returns one lower-case letter per colour for the board: each
// player's initial when the initials differ (and are not n, the neutral
// colour's), else a, b, c, d in seating order; the neutral colour is n.
func (s *State) symbols() []byte {
	out := make([]byte, s.colours)
	copy(out, textwrap.Initials(s.names, 'n'))
	if s.colours > len(s.names) {
		out[len(s.names)] = 'n'
	}
	return out
}

// textWidth is the most columns a line of Text may take.
const textWidth = textwrap.Width

// Text renders the board in at most 72 columns: each square as three
// characters (terrain; castle in capitals or knight in lower case, by
// colour letter; whose domain, or ~ for a neutral zone), borders drawn
// between the squares, then the scores, ducats, cards, market, king's
// marker and whose turn it is. With a player name it adds that player's
// hand.
func (s *State) Text(as string) string { return s.text(as, false) }

// TextIn is Text with its words in lang (adjudicator.LangTexter): the
// legend, the status lines and the hand in French, in the rulebook's
// terms (pré, château, chevalier, domaine, frontières, pion du Roi) and
// with the cards named as the French notation writes them; the squares
// keep their codes.
func (s *State) TextIn(as string, lang notation.Lang) string {
	return s.text(as, lang == notation.French)
}

// text is Text, in French when fr is set.
func (s *State) text(as string, fr bool) string {
	var b strings.Builder
	b.Grow(4096)
	sym := s.symbols()
	b.WriteString("    ")
	for c := range Size {
		b.WriteString("  ")
		b.WriteByte(byte('a' + c))
		if c < Size-1 {
			b.WriteByte(' ')
		}
	}
	b.WriteString("\n")
	sep := func(r int) {
		b.WriteString("    +")
		for c := range Size {
			if r < 0 || r == Size-1 || s.border[edgeOf(sq(r, c), South)] {
				b.WriteString("---+")
			} else {
				b.WriteString("   +")
			}
		}
		b.WriteString("\n")
	}
	sep(-1)
	for r := range Size {
		fmt.Fprintf(&b, "%3d |", r+1)
		for c := range Size {
			q := sq(r, c)
			b.WriteByte(terrainCodes[s.terrain[q]])
			switch p := s.piece[q]; {
			case p < 0:
				b.WriteByte(' ')
			case s.castle[q]:
				b.WriteByte(sym[p] - 'a' + 'A')
			default:
				b.WriteByte(sym[p])
			}
			reg := s.regionOf(q)
			switch {
			case reg.domain():
				b.WriteByte(sym[reg.owner])
			case reg.neutral():
				b.WriteByte('~')
			default:
				b.WriteByte(' ')
			}
			if c == Size-1 || s.border[edgeOf(q, East)] {
				b.WriteByte('|')
			} else {
				b.WriteByte(' ')
			}
		}
		fmt.Fprintf(&b, " %d\n", r+1)
		sep(r)
	}
	var status strings.Builder
	s.writeStatus(&status, sym, fr)
	textwrap.Write(&b, status.String())
	b.WriteString(s.privateText(as, fr))
	return b.String()
}

// PrivateText returns the lines of Text(as) only as sees: their hand.
// Text(as) is Text("") followed by them (adjudicator.Texts).
func (s *State) PrivateText(as string) string { return s.privateText(as, false) }

// privateText is PrivateText, in French when fr is set.
func (s *State) privateText(as string, fr bool) string {
	i := s.index(as)
	if i < 0 {
		return ""
	}
	tr := pick(fr)
	var b strings.Builder
	var list []string
	for _, c := range s.players[i].hand {
		list = append(list, fmt.Sprintf(tr("%s (cost %d, sells %d)", "%s (coûte %d, se vend %d)"), tr(c.String(), c.French()), c.Cost(), c.Sale()))
	}
	if len(list) == 0 {
		list = []string{tr("empty", "vide")}
	}
	textwrap.Write(&b, fmt.Sprintf(tr("%s's hand: %s\n", "main %s : %s\n"), tr(as, adjudicator.OfName(as).FR), strings.Join(list, ", ")))
	return b.String()
}

// pick returns the function that picks the English or, when fr is set,
// the French of a text; both take the same arguments in the same order.
func pick(fr bool) func(en, frText string) string {
	return func(en, frText string) string {
		if fr {
			return frText
		}
		return en
	}
}

// plural words a count: plural(2, "point", "points") is "points".
var plural = textwrap.Plural

// writeStatus writes what everyone sees below the board, in French when
// fr is set.
func (s *State) writeStatus(b *strings.Builder, sym []byte, fr bool) {
	tr := pick(fr)
	b.WriteString(tr(". meadow F forest V village K king's city; mines G gold S silver\n",
		". pré F forêt V village K cité du Roi ; mines G or S argent\n"))
	b.WriteString(tr("C copper P precious stones. 2nd column: castle (capital) or knight\n",
		"C cuivre P pierres précieuses. 2e colonne : château (capitale) ou\n"))
	b.WriteString(tr("by colour; 3rd: whose domain, ~ a neutral zone. | and --- borders\n",
		"chevalier, par couleur ; 3e : le domaine de qui, ~ une zone neutre.\n| et --- les frontières\n"))
	for c := range s.colours {
		pl := &s.players[c]
		if c >= len(s.names) {
			fmt.Fprintf(b, tr("%c neutral: %d %s left; never acts nor scores\n", "%c neutre : %d %s en réserve ; ne joue ni ne marque jamais\n"),
				sym[c], pl.knights, tr("knights", plural(pl.knights, "chevalier", "chevaliers")))
			continue
		}
		fmt.Fprintf(b, tr("%c %s: %d %s, %d %s, %d %s left, %d %s in hand\n", "%c %s : %d %s, %d %s, %d %s en réserve, %d %s en main\n"), sym[c], s.names[c],
			pl.score, plural(pl.score, "point", "points"), pl.ducats, plural(pl.ducats, "ducat", "ducats"),
			pl.knights, tr("knights", plural(pl.knights, "chevalier", "chevaliers")), len(pl.hand), plural(len(pl.hand), tr("card", "carte"), tr("cards", "cartes")))
	}
	var doms []string
	for i := range s.regions {
		r := &s.regions[i]
		if r.domain() {
			doms = append(doms, fmt.Sprintf(tr("%c %s (%d %s, %d kn)", "%c %s (%d %s, %d ch)"), sym[r.owner], r.castle, r.points, plural(r.points, "pt", "pts"), r.knights))
		}
	}
	if len(doms) > 0 {
		fmt.Fprintf(b, tr("domains: %s\n", "domaines : %s\n"), strings.Join(doms, tr("; ", " ; ")))
	}
	if len(s.allies) > 0 {
		var al []string
		for _, a := range s.allies {
			al = append(al, fmt.Sprintf("%s+%s", a.a, a.b))
		}
		fmt.Fprintf(b, tr("alliances: %s\n", "alliances : %s\n"), strings.Join(al, ", "))
	}
	fmt.Fprintf(b, tr("king's marker at %d; deck %d %s; borders left %d\n", "pion du Roi à %d ; pioche %d %s ; frontières en réserve %d\n"),
		s.king, len(s.deck), plural(len(s.deck), tr("card", "carte"), tr("cards", "cartes")), bordersTotal-s.bordersOnBoard)
	if len(s.market) > 0 {
		var mk []string
		for _, c := range s.market {
			mk = append(mk, tr(c.String(), c.French()))
		}
		fmt.Fprintf(b, tr("market: %s\n", "marché : %s\n"), strings.Join(mk, ", "))
	} else {
		b.WriteString(tr("market: empty\n", "marché : vide\n"))
	}
	switch s.phase {
	case phaseSetup:
		pl := s.order[s.setupAt]
		what := tr("their castle", "un de ses châteaux")
		if pl.colour != pl.player {
			what = tr("a neutral castle", "un château neutre")
		}
		fmt.Fprintf(b, tr("setup: %s places %s and a knight (castle %d of %d)\n", "mise en place : %s pose %s et un chevalier (château %d sur %d)\n"),
			s.names[pl.player], what, s.setupAt+1, len(s.order))
	case phasePlay:
		who := s.names[s.turn]
		switch s.step {
		case stepCard:
			fmt.Fprintf(b, tr("to move: %s (income %d): sell or play a card\n", "à jouer : %s (revenus %d) : vendre ou jouer une carte\n"), who, s.income)
		case stepAction:
			fmt.Fprintf(b, tr("to move: %s, playing %s for %s (%d done)\n", "à jouer : %s, joue %s comme %s (déjà %d)\n"),
				who, tr(s.card.String(), s.card.French()), tr(s.act.act.String(), s.act.act.Words().FR), s.done)
		default:
			fmt.Fprintf(b, tr("to move: %s: draw or take a card from the market\n", "à jouer : %s : piocher ou prendre une carte au marché\n"), who)
		}
		if s.deckOut {
			b.WriteString(tr("the deck is out: hands are played out, no refills\n", "la pioche est épuisée : on joue ses cartes en main, sans compléter\n"))
		}
	default:
		fmt.Fprintf(b, tr("game over: %s\n", "partie finie : %s\n"), tr(s.Result().Summary, s.Result().SummaryFR))
	}
}

type domainView struct {
	Owner   string `json:"owner"`
	Squares int    `json:"squares"`
	Knights int    `json:"knights"`
	Points  int    `json:"points"`
	Mines   []int  `json:"mines"`
}

type allianceView struct {
	Castles []string `json:"castles"`
	Border  string   `json:"border,omitempty"`
}

type boardView struct {
	Phase     string                `json:"phase"`
	Step      string                `json:"step,omitempty"`
	Card      string                `json:"card,omitempty"`
	Action    string                `json:"action,omitempty"`
	Done      int                   `json:"done"`
	Terrain   []string              `json:"terrain"`
	Borders   []string              `json:"borders"`
	Pieces    map[string]string     `json:"pieces"`
	Domains   map[string]domainView `json:"domains"`
	Neutral   [][]string            `json:"neutral_zones"`
	Alliances []allianceView        `json:"alliances"`
	Ducats    map[string]int        `json:"ducats"`
	Knights   map[string]int        `json:"knights"`
	Hands     map[string]int        `json:"hand_sizes"`
	Deck      int                   `json:"deck"`
	Market    []string              `json:"market"`
	King      int                   `json:"king"`
	Income    int                   `json:"income"`
	DeckOut   bool                  `json:"deck_out"`
}

// Board returns the public board for JSON; see the package doc.
func (s *State) Board() any {
	v := boardView{
		Phase: phaseNames[s.phase], Done: s.done, Borders: []string{}, Pieces: map[string]string{},
		Domains: map[string]domainView{}, Neutral: [][]string{}, Alliances: []allianceView{},
		Ducats: map[string]int{}, Knights: map[string]int{}, Hands: map[string]int{},
		Deck: len(s.deck), Market: []string{}, King: s.king, Income: s.income, DeckOut: s.deckOut,
	}
	if s.phase == phasePlay {
		v.Step = stepNames[s.step]
		if s.step != stepCard {
			v.Card = s.card.String()
		}
		if s.step == stepAction {
			v.Action = s.act.act.String()
		}
	}
	for r := range Size {
		row := make([]byte, Size)
		for c := range Size {
			row[c] = terrainCodes[s.terrain[sq(r, c)]]
		}
		v.Terrain = append(v.Terrain, string(row))
	}
	for e := Edge(0); e < numEdges; e++ {
		if s.border[e] {
			v.Borders = append(v.Borders, e.String())
		}
	}
	neutral := map[int8][]string{}
	for q := Square(0); q < Size*Size; q++ {
		if p := s.piece[q]; p >= 0 {
			v.Pieces[q.String()] = s.colourName(int(p)) + " " + s.pieceWords(q).EN
		}
		if r := s.regionOf(q); r.neutral() {
			neutral[s.region[q]] = append(neutral[s.region[q]], q.String())
		}
	}
	ids := make([]int8, 0, len(neutral))
	for id := range neutral {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		v.Neutral = append(v.Neutral, neutral[id])
	}
	for i := range s.regions {
		r := &s.regions[i]
		if r.domain() {
			v.Domains[r.castle.String()] = domainView{Owner: s.colourName(r.owner), Squares: r.size, Knights: r.knights, Points: r.points, Mines: r.mines[:]}
		}
	}
	for _, a := range s.allies {
		av := allianceView{Castles: []string{a.a.String(), a.b.String()}}
		if a.edge >= 0 {
			av.Border = a.edge.String()
		}
		v.Alliances = append(v.Alliances, av)
	}
	for i, n := range s.names {
		v.Ducats[n] = s.players[i].ducats
		v.Knights[n] = s.players[i].knights
		v.Hands[n] = len(s.players[i].hand)
	}
	if s.colours > len(s.names) {
		v.Knights["neutral"] = s.players[len(s.names)].knights
	}
	for _, c := range s.market {
		v.Market = append(v.Market, c.String())
	}
	return v
}

type privateView struct {
	Hand []string `json:"hand"`
}

// Private returns player's hand for JSON.
func (s *State) Private(player string) any {
	i := s.index(player)
	if i < 0 {
		return nil
	}
	v := privateView{Hand: []string{}}
	for _, c := range s.players[i].hand {
		v.Hand = append(v.Hand, c.String())
	}
	return v
}
