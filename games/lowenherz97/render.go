package lowenherz97

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/games/internal/grid"
	"github.com/heraldgames/herald/games/internal/textwrap"
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
func (s *State) Text(as string) string {
	var b strings.Builder
	b.Grow(4096)
	s.writeBoard(&b)
	var status strings.Builder
	s.writeStatus(&status)
	textwrap.Write(&b, status.String())
	b.WriteString(s.PrivateText(as))
	return b.String()
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

// writeStatus writes what everyone sees below the board.
func (s *State) writeStatus(b *strings.Builder) {
	sym := s.symbols()
	b.WriteString(". empty  * forest  ^ hill  # city; castle X, knight x; 3rd: region\n")
	b.WriteString("of X, ~ neutral zone; walls | and ---\n")
	if s.neutral >= 0 {
		b.WriteString("x: the neutral prince\n")
	}
	counts := s.regionCounts()
	for i, n := range s.names {
		fmt.Fprintf(b, "%c %-12s %3d power, %2d knights left, %d %s, %d political\n",
			sym[i], n, s.score[i], s.reserve[i], counts[i], plural(counts[i], "region", "regions"), len(s.hands[i]))
	}
	fmt.Fprintf(b, "bank %d ducats; %d walls left; political piles %d and %d; %d action %s left\n",
		s.bank, wallSupply-s.g.CountWalls(), len(s.piles[0]), len(s.piles[1]), len(s.deck), plural(len(s.deck), "card", "cards"))
	for _, al := range s.alliances {
		fmt.Fprintf(b, "alliance: the regions of %s (%s) and %s (%s)\n", board.Name(al.a), s.colourName(int(s.castle[al.a])), board.Name(al.b), s.colourName(int(s.castle[al.b])))
	}
	if len(s.events) > 0 {
		b.WriteString("latest:\n")
		for _, e := range s.events {
			b.WriteString("  " + e + "\n")
		}
	}
	switch s.phase {
	case phasePlace:
		pl := s.places[0]
		fmt.Fprintf(b, "setup: %s places %s and a knight beside it\n", s.names[pl.player], s.aCastle(pl.player, pl.colour))
		return
	case phaseOver:
		fmt.Fprintf(b, "game over: %s\n", s.Result().Summary)
		return
	}
	fmt.Fprintf(b, "first player %s; action card %s\n", s.names[s.first], s.card)
	if len(s.picks) > 0 {
		var d []string
		for _, pk := range s.picks {
			t := fmt.Sprintf("%s %d", s.names[pk.player], pk.tier+1)
			if pk.pol >= 0 {
				t += " with " + polNames[pk.pol] + s.allyText(pk)
			}
			d = append(d, t)
		}
		fmt.Fprintf(b, "decisions: %s\n", strings.Join(d, ", "))
	}
	switch s.phase {
	case phaseDecide:
		fmt.Fprintf(b, "to move: %s, lay a decision card\n", s.names[s.decOrder[s.decIdx]])
	case phaseNegotiate:
		a := s.card.Tiers[s.tier]
		if s.offerBy >= 0 {
			fmt.Fprintf(b, "negotiation on %s: %s offers %d ducats; %s answers\n", a, s.names[s.offerBy], s.offer, s.names[s.speaker])
		} else {
			fmt.Fprintf(b, "negotiation on %s between %s and %s; %s speaks\n", a, s.names[s.contenders[0]], s.names[s.contenders[1]], s.names[s.speaker])
		}
	case phaseBid:
		var st []string
		for _, c := range s.contenders {
			if s.bids[c].in {
				st = append(st, s.names[c]+" has bid")
			} else {
				st = append(st, s.names[c]+" has not")
			}
		}
		again := ""
		if s.rebid {
			again = " (the rebid of a tie)"
		}
		fmt.Fprintf(b, "confrontation on %s%s, sealed bids: %s\n", s.card.Tiers[s.tier], again, strings.Join(st, ", "))
	case phaseAct:
		fmt.Fprintf(b, "to move: %s, carrying out %s%s\n", s.names[s.actor], s.act.action, s.actProgress())
	}
}

// actProgress says what the actor has done so far.
func (s *State) actProgress() string {
	a := &s.act
	var d []string
	if a.pol >= 0 {
		d = append(d, "first the "+polNames[a.pol]+" card")
	}
	if a.knights > 0 {
		d = append(d, fmt.Sprintf("%d %s placed", a.knights, plural(a.knights, "knight", "knights")))
	}
	if a.ext > 0 {
		d = append(d, fmt.Sprintf("%d %s annexed to the region of %s", a.ext, plural(a.ext, "square", "squares"), board.Name(a.extFrom)))
	}
	if a.walls > 0 {
		d = append(d, fmt.Sprintf("%d %s placed", a.walls, plural(a.walls, "wall", "walls")))
	}
	if a.looked >= 0 {
		d = append(d, fmt.Sprintf("looking at pile %d", a.looked+1))
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
func (s *State) PrivateText(as string) string {
	p := s.index(as)
	if p < 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s's ducats: %d\n", as, s.money[p])
	fmt.Fprintf(&b, "%s's political cards: %s\n", as, cardList(s.hands[p]))
	if s.phase == phaseAct && s.actor == p && s.act.looked >= 0 {
		fmt.Fprintf(&b, "political pile %d: %s\n", s.act.looked+1, cardList(s.piles[s.act.looked]))
	}
	if s.phase == phaseBid && s.bids[p].in {
		fmt.Fprintf(&b, "%s's sealed bid: %s (may be replaced until every bid is in)\n", as, bidWords(s.bids[p]))
	}
	var out strings.Builder
	textwrap.Write(&out, b.String())
	return out.String()
}

func cardList(cs []Political) string {
	if len(cs) == 0 {
		return "none"
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.String()
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
		Events:    slices.Clone(s.events),
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
