package lowenherz97

import (
	"fmt"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
	"github.com/heraldgames/herald/games/internal/textwrap"
	"github.com/heraldgames/herald/notation"
)

// symbols returns one lower-case letter per colour for the board: the
// initial of each player when the initials differ, else a, b, c, d in
// seating order; the neutral prince is x.
func (s *State) symbols() []byte {
	out := make([]byte, s.seats)
	copy(out, textwrap.Initials(s.names, 'x'))
	if s.neutral >= 0 {
		out[s.neutral] = 'x'
	}
	return out
}

var terrainGlyph = [...]byte{'.', '*', '^', '#'}

// Text renders the board in at most 72 columns: each square as three
// characters (terrain; castle in capitals or knight; the owner of the
// region it is in, ~ for a neutral zone), walls as | and ---, then the
// state of the round and the players. With a player name it adds that
// player's hidden information.
func (s *State) Text(as string) string { return s.text(as, false) }

// TextIn is Text with its words in lang (adjudicator.LangTexter): the
// legend, the round, the players and the hidden information in French, in
// the rulebook's terms (pouvoir, banque, murs, cartes de politique, carte
// d'action, carte de décision, négociation, confrontation, mises), the
// cards named as the French notation names them; the squares keep their
// codes. The latest events are in French too but for those a position
// file gave, which are in English.
func (s *State) TextIn(as string, lang notation.Lang) string {
	return s.text(as, lang == notation.French)
}

// text is Text, in French when fr is set.
func (s *State) text(as string, fr bool) string {
	var b strings.Builder
	b.Grow(4096)
	s.writeBoard(&b)
	var status strings.Builder
	s.writeStatus(&status, fr)
	textwrap.Write(&b, status.String())
	b.WriteString(s.privateText(as, fr))
	return b.String()
}

// picker returns the function that picks the English or, when fr is set,
// the French of a text; both take the same arguments in the same order.
func picker(fr bool) func(en, frText string) string {
	return func(en, frText string) string {
		if fr {
			return frText
		}
		return en
	}
}

func (s *State) writeBoard(b *strings.Builder) {
	sym := s.symbols()
	lab, ar := s.info()
	b.WriteString("    ")
	for c := range width {
		b.WriteString("  ")
		b.WriteByte(byte('a' + c))
		b.WriteByte(' ')
	}
	b.WriteString("\n")
	wallAt := func(c1, r1, c2, r2 int) bool {
		q1, ok1 := board.At(c1, r1)
		q2, ok2 := board.At(c2, r2)
		if !ok1 || !ok2 {
			return ok1 || ok2 // the frame
		}
		return s.g.Wall(q1, q2)
	}
	// hline draws the line above row r (r == height: below the last).
	hline := func(r int) {
		b.WriteString("    ")
		for c := 0; c <= width; c++ {
			corner := wallAt(c-1, r-1, c, r-1) || wallAt(c-1, r, c, r) || wallAt(c-1, r-1, c-1, r) || wallAt(c, r-1, c, r)
			if corner {
				b.WriteByte('+')
			} else {
				b.WriteByte(' ')
			}
			if c < width {
				if wallAt(c, r-1, c, r) {
					b.WriteString("---")
				} else {
					b.WriteString("   ")
				}
			}
		}
		b.WriteString("\n")
	}
	for r := range height {
		hline(r)
		fmt.Fprintf(b, "%3d ", r+1)
		for c := range width {
			if wallAt(c-1, r, c, r) {
				b.WriteByte('|')
			} else {
				b.WriteByte(' ')
			}
			q, _ := board.At(c, r)
			b.WriteByte(terrainGlyph[s.terrain[q]])
			switch {
			case s.castle[q] >= 0:
				b.WriteByte(sym[s.castle[q]] - 'a' + 'A')
			case s.knight[q] >= 0:
				b.WriteByte(sym[s.knight[q]])
			default:
				b.WriteByte(' ')
			}
			a := ar[lab[q]]
			switch {
			case a.region():
				b.WriteByte(sym[a.owner] - 'a' + 'A')
			case a.castles == 0:
				b.WriteByte('~')
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString("|\n")
	}
	hline(height)
}

// writeStatus writes what everyone sees below the board, in French when
// fr is set.
func (s *State) writeStatus(b *strings.Builder, fr bool) {
	tr := picker(fr)
	// action names an action in the reader's language.
	action := func(a Action) string {
		en, frText := a.Words()
		return tr(en, frText)
	}
	// colour names a colour: a player, or the neutral prince.
	colour := func(c int) string {
		if c == s.neutral {
			return tr("neutral", "neutre")
		}
		return s.names[c]
	}
	sym := s.symbols()
	b.WriteString(tr(". empty  * forest  ^ hill  # city; castle X, knight x; 3rd: region\n",
		". vide  * forêt  ^ colline  # ville ; château X, chevalier x ;\n"))
	b.WriteString(tr("of X, ~ neutral zone; walls | and ---\n", "3e : région de X, ~ zone neutre ; murs | et ---\n"))
	if s.neutral >= 0 {
		b.WriteString(tr("x: the neutral prince\n", "x : le prince neutre\n"))
	}
	counts := s.regionCounts()
	for i, n := range s.names {
		fmt.Fprintf(b, tr("%c %-12s %3d power, %2d %s left, %d %s, %d %s\n", "%c %-12s %3d pouvoir, %2d %s en réserve, %d %s, %d %s\n"),
			sym[i], n, s.score[i], s.reserve[i], tr("knights", plural(s.reserve[i], "chevalier", "chevaliers")),
			counts[i], plural(counts[i], tr("region", "région"), tr("regions", "régions")),
			len(s.hands[i]), tr("political", plural(len(s.hands[i]), "carte politique", "cartes politiques")))
	}
	fmt.Fprintf(b, tr("bank %d ducats; %d walls left; political piles %d and %d; %d action %s left\n",
		"banque %d ducats ; %d murs en réserve ; piles de politique %d et %d ; reste %d %s d'action\n"),
		s.bank, wallSupply-s.g.CountWalls(), len(s.piles[0]), len(s.piles[1]), len(s.deck), plural(len(s.deck), tr("card", "carte"), tr("cards", "cartes")))
	for _, al := range s.alliances {
		fmt.Fprintf(b, tr("alliance: the regions of %s (%s) and %s (%s)\n", "alliance : les régions de %s (%s) et %s (%s)\n"),
			board.Name(al.a), colour(int(s.castle[al.a])), board.Name(al.b), colour(int(s.castle[al.b])))
	}
	if len(s.events) > 0 {
		b.WriteString(tr("latest:\n", "derniers événements :\n"))
		for _, e := range s.events {
			b.WriteString("  " + tr(e.en, e.fr) + "\n")
		}
	}
	switch s.phase {
	case phasePlace:
		pl := s.places[0]
		fmt.Fprintf(b, tr("setup: %s places %s and a knight beside it\n", "mise en place : %s pose %s et un chevalier à côté\n"),
			s.names[pl.player], s.aCastleIn(pl.player, pl.colour, fr))
		return
	case phaseOver:
		fmt.Fprintf(b, tr("game over: %s\n", "partie finie : %s\n"), tr(s.Result().Summary, s.Result().SummaryFR))
		return
	}
	fmt.Fprintf(b, tr("first player %s; action card %s\n", "premier joueur %s ; carte d'action %s\n"), s.names[s.first], s.card.text(fr))
	if len(s.picks) > 0 {
		var d []string
		for _, pk := range s.picks {
			t := fmt.Sprintf("%s %d", s.names[pk.player], pk.tier+1)
			if pk.pol >= 0 {
				t += tr(" with ", " avec ") + tr(polNames[pk.pol], polNamesFR[pk.pol]) + s.allyText(pk)
			}
			d = append(d, t)
		}
		fmt.Fprintf(b, tr("decisions: %s\n", "décisions : %s\n"), strings.Join(d, ", "))
	}
	switch s.phase {
	case phaseDecide:
		fmt.Fprintf(b, tr("to move: %s, lay a decision card\n", "à jouer : %s, poser une carte de décision\n"), s.names[s.decOrder[s.decIdx]])
	case phaseNegotiate:
		a := action(s.card.Tiers[s.tier])
		if s.offerBy >= 0 {
			fmt.Fprintf(b, tr("negotiation on %s: %s offers %d ducats; %s answers\n", "négociation sur %s : %s offre %d ducats ; %s répond\n"),
				a, s.names[s.offerBy], s.offer, s.names[s.speaker])
		} else {
			fmt.Fprintf(b, tr("negotiation on %s between %s and %s; %s speaks\n", "négociation sur %s entre %s et %s ; %s parle\n"),
				a, s.names[s.contenders[0]], s.names[s.contenders[1]], s.names[s.speaker])
		}
	case phaseBid:
		var st []string
		for _, c := range s.contenders {
			if s.bids[c].in {
				st = append(st, s.names[c]+tr(" has bid", " a misé"))
			} else {
				st = append(st, s.names[c]+tr(" has not", " pas encore"))
			}
		}
		again := ""
		if s.rebid {
			again = tr(" (the rebid of a tie)", " (nouvelle mise après une égalité)")
		}
		fmt.Fprintf(b, tr("confrontation on %s%s, sealed bids: %s\n", "confrontation sur %s%s, mises secrètes : %s\n"),
			action(s.card.Tiers[s.tier]), again, strings.Join(st, ", "))
	case phaseAct:
		fmt.Fprintf(b, tr("to move: %s, carrying out %s%s\n", "à jouer : %s, exécute %s%s\n"), s.names[s.actor], action(s.act.action), s.actProgress(fr))
	}
}

// actProgress says what the actor has done so far, in French when fr is
// set.
func (s *State) actProgress(fr bool) string {
	tr := picker(fr)
	a := &s.act
	var d []string
	if a.pol >= 0 {
		d = append(d, tr("first the "+polNames[a.pol]+" card", "d'abord la carte "+polNamesFR[a.pol]))
	}
	if a.knights > 0 {
		d = append(d, fmt.Sprintf("%d %s", a.knights, plural(a.knights, tr("knight placed", "chevalier posé"), tr("knights placed", "chevaliers posés"))))
	}
	if a.ext > 0 {
		d = append(d, fmt.Sprintf(tr("%d %s annexed to the region of %s", "%d %s à la région de %s"),
			a.ext, plural(a.ext, tr("square", "case annexée"), tr("squares", "cases annexées")), board.Name(a.extFrom)))
	}
	if a.walls > 0 {
		d = append(d, fmt.Sprintf("%d %s", a.walls, plural(a.walls, tr("wall placed", "mur posé"), tr("walls placed", "murs posés"))))
	}
	if a.looked >= 0 {
		d = append(d, fmt.Sprintf(tr("looking at pile %d", "regarde la pile %d"), a.looked+1))
	}
	if len(d) == 0 {
		return ""
	}
	return " (" + strings.Join(d, ", ") + ")"
}

func (s *State) regionCounts() []int {
	out := make([]int, len(s.names))
	for _, q := range s.regionCastles() {
		if c := int(s.castle[q]); c < len(out) {
			out[c]++
		}
	}
	return out
}

// PrivateText returns the lines of Text(as) only as sees: their ducats,
// political cards, the pile they look at and their sealed bid. Text(as) is
// Text("") followed by them.
func (s *State) PrivateText(as string) string { return s.privateText(as, false) }

// privateText is PrivateText, in French when fr is set.
func (s *State) privateText(as string, fr bool) string {
	p := s.index(as)
	if p < 0 {
		return ""
	}
	tr := picker(fr)
	whose := tr(as+"'s", adjudicator.OfName(as).FR)
	var b strings.Builder
	fmt.Fprintf(&b, tr("%s ducats: %d\n", "ducats %s : %d\n"), whose, s.money[p])
	fmt.Fprintf(&b, tr("%s political cards: %s\n", "cartes politiques %s : %s\n"), whose, cardList(s.hands[p], fr))
	if s.phase == phaseAct && s.actor == p && s.act.looked >= 0 {
		fmt.Fprintf(&b, tr("political pile %d: %s\n", "pile de politique %d : %s\n"), s.act.looked+1, cardList(s.piles[s.act.looked], fr))
	}
	if s.phase == phaseBid && s.bids[p].in {
		fmt.Fprintf(&b, tr("%s sealed bid: %s (may be replaced until every bid is in)\n", "mise secrète %s : %s (remplaçable jusqu'à la dernière mise)\n"),
			whose, bidWordsIn(s.bids[p], fr))
	}
	var out strings.Builder
	textwrap.Write(&out, b.String())
	return out.String()
}

// cardList names political cards, in French when fr is set.
func cardList(cs []Political, fr bool) string {
	if len(cs) == 0 {
		return picker(fr)("none", "aucune")
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = picker(fr)(c.String(), c.French())
	}
	return strings.Join(names, ", ")
}

// plural words a count: plural(2, "point", "points") is "points".
var plural = textwrap.Plural

type regionView struct {
	Owner   string `json:"owner"`
	Castle  string `json:"castle"`
	Squares int    `json:"squares"`
	Cities  int    `json:"cities"`
	Hills   int    `json:"hills"`
	Knights int    `json:"knights"`
}

type negotiationView struct {
	Between []string `json:"between"`
	Speaker string   `json:"speaker"`
	Offer   int      `json:"offer"`
	OfferBy string   `json:"offer_by,omitempty"`
}

type confrontationView struct {
	Bidders []string        `json:"bidders"`
	In      map[string]bool `json:"in"`
	Rebid   bool            `json:"rebid"`
}

type boardView struct {
	Phase         string             `json:"phase"`
	First         string             `json:"first"`
	Card          string             `json:"card"`
	Deck          int                `json:"deck"`
	Castles       map[string]string  `json:"castles"`
	Knights       map[string]string  `json:"knights"`
	Walls         []string           `json:"walls"`
	Regions       []regionView       `json:"regions"`
	NeutralZones  int                `json:"neutral_zones"`
	Decisions     []string           `json:"decisions"`
	Negotiation   *negotiationView   `json:"negotiation,omitempty"`
	Confrontation *confrontationView `json:"confrontation,omitempty"`
	Actor         string             `json:"actor,omitempty"`
	Action        string             `json:"action,omitempty"`
	Reserve       map[string]int     `json:"reserve"`
	Political     map[string]int     `json:"political"`
	Piles         [2]int             `json:"piles"`
	Bank          int                `json:"bank"`
	WallsLeft     int                `json:"walls_left"`
	Alliances     [][2]string        `json:"alliances"`
	Events        []string           `json:"events"`
}

// Board returns the public board for JSON; see the package doc.
func (s *State) Board() any {
	v := boardView{
		Phase:     phaseNames[s.phase],
		First:     s.names[s.first],
		Deck:      len(s.deck),
		Castles:   map[string]string{},
		Knights:   map[string]string{},
		Walls:     []string{},
		Regions:   []regionView{},
		Decisions: []string{},
		Reserve:   map[string]int{},
		Political: map[string]int{},
		Piles:     [2]int{len(s.piles[0]), len(s.piles[1])},
		Bank:      s.bank,
		WallsLeft: wallSupply - s.g.CountWalls(),
		Alliances: [][2]string{},
		Events:    english(s.events),
	}
	if v.Events == nil {
		v.Events = []string{}
	}
	if s.phase != phasePlace {
		v.Card = s.card.String()
	}
	for q := range grid.Square(board.Len()) {
		if c := s.castle[q]; c >= 0 {
			v.Castles[board.Name(q)] = s.colourName(int(c))
		}
		if k := s.knight[q]; k >= 0 {
			v.Knights[board.Name(q)] = s.colourName(int(k))
		}
	}
	for _, e := range s.g.Walls() {
		v.Walls = append(v.Walls, board.EdgeName(e))
	}
	lab, ar := s.info()
	for l := range ar {
		a := &ar[l]
		if a.castles == 0 {
			v.NeutralZones++
		}
		if !a.region() {
			continue
		}
		v.Regions = append(v.Regions, regionView{Owner: s.colourName(a.owner), Castle: board.Name(a.castle),
			Squares: a.size, Cities: a.cities, Hills: a.hills, Knights: s.knightsIn(lab[a.castle], a.owner)})
	}
	for _, pk := range s.picks {
		t := fmt.Sprintf("%s %d", s.names[pk.player], pk.tier+1)
		if pk.pol >= 0 {
			t += " " + polNames[pk.pol] + s.allyText(pk)
		}
		v.Decisions = append(v.Decisions, t)
	}
	switch s.phase {
	case phaseNegotiate:
		n := &negotiationView{Between: []string{s.names[s.contenders[0]], s.names[s.contenders[1]]}, Speaker: s.names[s.speaker], Offer: s.offer}
		if s.offerBy >= 0 {
			n.OfferBy = s.names[s.offerBy]
		}
		v.Negotiation = n
	case phaseBid:
		c := &confrontationView{In: map[string]bool{}, Rebid: s.rebid}
		for _, p := range s.contenders {
			c.Bidders = append(c.Bidders, s.names[p])
			c.In[s.names[p]] = s.bids[p].in
		}
		v.Confrontation = c
	case phaseAct:
		v.Actor, v.Action = s.names[s.actor], s.act.action.String()
	}
	for i, n := range s.names {
		v.Reserve[n] = s.reserve[i]
		v.Political[n] = len(s.hands[i])
	}
	if s.neutral >= 0 {
		v.Reserve["neutral"] = s.reserve[s.neutral]
	}
	for _, al := range s.alliances {
		v.Alliances = append(v.Alliances, [2]string{board.Name(al.a), board.Name(al.b)})
	}
	return v
}

type privateView struct {
	Ducats    int      `json:"ducats"`
	Political []string `json:"political"`
	Pile      []string `json:"pile,omitempty"`
	Bid       string   `json:"bid,omitempty"`
}

// Private returns player's ducats, political cards, the pile they look at
// and their sealed bid, for JSON.
func (s *State) Private(player string) any {
	p := s.index(player)
	if p < 0 {
		return nil
	}
	v := privateView{Ducats: s.money[p], Political: []string{}}
	for _, c := range s.hands[p] {
		v.Political = append(v.Political, c.String())
	}
	if s.phase == phaseAct && s.actor == p && s.act.looked >= 0 {
		for _, c := range s.piles[s.act.looked] {
			v.Pile = append(v.Pile, c.String())
		}
	}
	if s.phase == phaseBid && s.bids[p].in {
		v.Bid = bidWords(s.bids[p])
	}
	return v
}

// allyText is " a1 n1", an alliance's regions by their castles, or ""
// (under option alliance=action they are named at the action).
func (s *State) allyText(pk pick) string {
	if PolKind(pk.pol) != Alliance || s.allianceAtAction {
		return ""
	}
	return " " + board.Name(pk.ally[0]) + " " + board.Name(pk.ally[1])
}
