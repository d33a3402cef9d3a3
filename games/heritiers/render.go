package heritiers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/textwrap"
	"github.com/heraldgames/herald/notation"
)

// textWidth is the most columns a line of Text may take.
const textWidth = textwrap.Width

// cellW is the inside width of a square on the board; perStrip how many
// columns fit in textWidth.
const (
	cellW    = 8
	perStrip = (textWidth - 4) / (cellW + 1)
)

// symbols returns one lower-case letter per seat: the initials when they
// differ, else a and b. Henri is h unless the player's initial is h.
func (s *State) symbols() [2]byte { return [2]byte(textwrap.Initials(s.names[:])) }

// shortCost returns "2s 1g".
func (t *Tile) shortCost() string {
	var parts []string
	for c := range 3 {
		if n := t.Cost[c]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d%c", n, colourCode[c]))
		}
	}
	return strings.Join(parts, " ")
}

// describe returns a tile for people: "auberge-1 grey, costs 2s 1g,
// roads ns, row"; in French when fr is set: "auberge-1 grise, coûte
// 2s 1g, routes ns, rangée".
func (t *Tile) describe(fr bool) string {
	tr := pick(fr)
	var b strings.Builder
	fmt.Fprintf(&b, tr("%s %s, costs %s", "%s %s, coûte %s"), t.ID, tr(t.Colour.String(), colourTuileFR[t.Colour]), t.shortCost())
	if t.Roads != 0 {
		fmt.Fprintf(&b, tr(", roads %s", ", routes %s"), t.Roads)
	}
	if d := t.detail(); d != "" {
		if t.Building != Comptoir && t.Building != Hotel {
			d = tr(d, paramNamesFR[t.Param])
		}
		fmt.Fprintf(&b, ", %s", d)
	}
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

// window returns the rows and columns to draw: the tiles and one square
// around them, but for the columns of the margins that would start a strip
// of their own.
func (s *State) window() (r0, r1, c0, c1 int) {
	r0, c0, r1, c1 = frameH, frameW, -1, -1
	for i := range s.cells {
		if s.cells[i].tile < 0 {
			continue
		}
		r, c := i/frameW, i%frameW
		r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
	}
	w0, w1 := max(c0-1, 0), min(c1+1, frameW-1)
	// The margins give way first when the landscape would need one more
	// strip for them alone.
	if w1-w0+1 > perStrip && w0 < c0 {
		w0++
	}
	if w1-w0+1 > perStrip && w1 > c1 {
		w1--
	}
	return max(r0-1, 0), min(r1+1, frameH-1), w0, w1
}

// Text renders the board in at most 72 columns, then the royal reserve,
// the scores and whose turn it is; with a player's name, their hand.
// Each square is two lines: building code, resource (w wood, s stone,
// g grain) and owner; then the troops and the roads as the tile lies.
// A landscape wider than 7 columns is drawn in strips.
func (s *State) Text(as string) string { return s.text(as, false) }

// TextIn is Text with its words in lang (adjudicator.LangTexter): the
// legend, the royal reserve, the scores, Henri's treasures, whose turn and
// the hand in French, in the rulebook's terms (réserve royale, bouclier,
// troupes, cavalerie, portée, réserve commune, trésors); the squares keep
// their codes, the tiles and buildings their names of the notation.
func (s *State) TextIn(as string, lang notation.Lang) string {
	return s.text(as, lang == notation.French)
}

// text is Text, in French when fr is set.
func (s *State) text(as string, fr bool) string {
	var b strings.Builder
	b.Grow(4096)
	sym := s.symbols()
	r0, r1, c0, c1 := s.window()
	free := map[int]bool{}
	if !s.over && !(s.solo && s.turn == 1) {
		for _, q := range s.freeBeside(s.turn) {
			free[q] = true
		}
	}
	for cs := c0; cs <= c1; cs += perStrip {
		ce := min(cs+perStrip-1, c1)
		s.writeStrip(&b, sym, r0, r1, cs, ce, free)
	}
	var status strings.Builder
	s.writeStatus(&status, sym, fr)
	textwrap.Write(&b, status.String())
	b.WriteString(s.privateText(as, fr))
	return b.String()
}

func (s *State) writeStrip(b *strings.Builder, sym [2]byte, r0, r1, c0, c1 int, free map[int]bool) {
	b.WriteString("    ")
	for c := c0; c <= c1; c++ {
		fmt.Fprintf(b, " %-*s", cellW, fmt.Sprintf("   %c", 'a'+c))
	}
	b.WriteString("\n")
	border := func(r int) {
		// The border above row r: '#' where a road crosses it.
		b.WriteString("    +")
		for c := c0; c <= c1; c++ {
			mid := byte('-')
			if r > 0 {
				if _, ok := s.joined((r-1)*frameW+c, 2); ok {
					mid = '#'
				}
			}
			b.WriteString(strings.Repeat("-", cellW/2-1))
			b.WriteByte(mid)
			b.WriteString(strings.Repeat("-", cellW-cellW/2))
			b.WriteByte('+')
		}
		b.WriteString("\n")
	}
	border(r0)
	for r := r0; r <= r1; r++ {
		var top, bot strings.Builder
		fmt.Fprintf(&top, "%3d |", r+1)
		bot.WriteString("    |")
		for c := c0; c <= c1; c++ {
			i := r*frameW + c
			t1, t2 := s.cellText(i, sym, free[i])
			fmt.Fprintf(&top, "%-*s|", cellW, t1)
			fmt.Fprintf(&bot, "%-*s", cellW, t2)
			if _, ok := s.joined(i, 1); ok {
				bot.WriteByte('=')
			} else {
				bot.WriteByte('|')
			}
		}
		b.WriteString(top.String())
		b.WriteString("\n")
		b.WriteString(bot.String())
		b.WriteString("\n")
		border(r + 1)
	}
}

// cellText returns the two lines of a square.
func (s *State) cellText(i int, sym [2]byte, free bool) (string, string) {
	c := &s.cells[i]
	if c.tile < 0 {
		if free {
			return "   .", ""
		}
		return "", ""
	}
	t := s.tile(c.tile)
	var l1, l2 []byte
	if c.open {
		l1 = append(l1, "... "...)
		l1 = append(l1, colourCode[t.Colour])
	} else {
		l1 = append(l1, buildings[t.Building].code...)
		l1 = append(l1, ' ', colourCode[t.Colour], ' ', sym[c.owner])
	}
	for seat := range 2 {
		for k, tr := range s.troops[seat] {
			if int(tr.at) != i {
				continue
			}
			ch := sym[seat]
			if k == 0 && !(s.solo && seat == 1) {
				ch -= 'a' - 'A' // the cavalry in capitals
			}
			l2 = append(l2, ch)
			if tr.moved {
				l2 = append(l2, '*')
			}
		}
	}
	if c.treasure >= 0 {
		l2 = append(l2, '$')
	}
	if r := s.exits(i); r != 0 {
		pad := cellW - len(l2) - len(r.String())
		for range max(pad, 1) {
			l2 = append(l2, ' ')
		}
		l2 = append(l2, r.String()...)
	}
	return string(l1), string(l2)
}

// writeStatus writes what everyone sees below the board, in French when
// fr is set.
func (s *State) writeStatus(b *strings.Builder, sym [2]byte, fr bool) {
	tr := pick(fr)
	b.WriteString(tr("AUB s a: building, resource (w wood, s stone, g grain), owner;\n",
		"AUB s a : bâtiment, ressource (w bois, s pierre, g blé), propriétaire ;\n"))
	b.WriteString(tr("... open terrain; troops below, capitals the cavalry, * moved this\n",
		"... terrain ouvert ; troupes dessous, cavalerie en capitale, * déplacée\n"))
	if s.solo {
		b.WriteString(tr("turn, $ a treasure; roads as they lie, = and # where they join\n",
			"ce tour, $ un trésor ; routes telles que posées, = et # aux jonctions\n"))
	} else {
		// Treasures are the solo game's alone (l. 464).
		b.WriteString(tr("turn; roads as they lie, = and # where they join\n",
			"ce tour ; routes telles que posées, = et # aux jonctions\n"))
	}
	var codes []string
	seen := map[Building]bool{}
	for _, at := range s.placed {
		i := int(at)
		if bl, _, ok := s.building(i); ok && !seen[bl] {
			seen[bl] = true
		}
	}
	for bl := range numBuildings {
		if seen[bl] {
			codes = append(codes, buildings[bl].code+" "+bl.String())
		}
	}
	if len(codes) > 0 {
		b.WriteString(strings.Join(codes, ", ") + "\n")
	}
	fmt.Fprintf(b, tr("sets: %s\n", "ensembles : %s\n"), s.setList())
	b.WriteString(tr("royal reserve, clockwise from the shield:\n", "réserve royale, en sens horaire depuis le bouclier :\n"))
	for p := 1; p <= 6; p++ {
		t := s.ring[p-1]
		if t < 0 {
			fmt.Fprintf(b, tr("  %d  (empty)\n", "  %d  (vide)\n"), p)
			continue
		}
		var who []string
		for seat := range s.players() {
			if s.inReach(seat, p) {
				who = append(who, string(sym[seat]))
			}
		}
		reach := ""
		if len(who) > 0 {
			reach = tr("  reach ", "  portée ") + strings.Join(who, " ")
		}
		fmt.Fprintf(b, "  %d  %s%s\n", p, s.tile(t).describe(fr), reach)
	}
	if len(s.stack) > 0 {
		fmt.Fprintf(b, tr("stack: %d %s, the top one %s\n", "réserve commune : %d %s, celle du dessus %s\n"),
			len(s.stack), plural(len(s.stack), tr("tile", "tuile"), tr("tiles", "tuiles")), tr(s.tile(s.stack[0]).Colour.String(), colourTuileFR[s.tile(s.stack[0]).Colour]))
	} else {
		b.WriteString(tr("stack: empty\n", "réserve commune : vide\n"))
	}
	sc := s.score()
	for seat := range 2 {
		fmt.Fprintf(b, tr("%c %s: %d %s", "%c %s : %d %s"), sym[seat], s.names[seat], sc[seat].total, plural(sc[seat].total, "point", "points"))
		if sc[seat].roads > 0 {
			fmt.Fprintf(b, tr(" (roads %d)", " (routes %d)"), sc[seat].roads)
		}
		if s.solo && seat == 1 {
			left := s.treasuresLeft()
			fmt.Fprintf(b, tr(", %d %s left (%d in the pile), %d won back by %s", ", reste %d %s (%d dans la pile), %d repris par %s"),
				left, plural(left, tr("treasure", "trésor"), tr("treasures", "trésors")), len(s.treasures), len(s.won), s.names[0])
			// Each token by name, in the order won: the last is the one
			// the last move took back.
			for j, t := range s.won {
				sep := tr(", then ", ", puis ")
				if j == 0 {
					sep = tr(": ", " : ")
				}
				fmt.Fprintf(b, "%s%s (%s)", sep, treasureKinds[t].name, treasureKinds[t].describe(fr))
			}
			b.WriteString("\n")
			continue
		}
		in, hand := s.inReserveCount(seat), len(s.hands[seat])
		fmt.Fprintf(b, tr(", %d %s in the royal reserve, reach %d, %d %s in hand\n", ", %d %s en réserve, portée %d, %d %s en main\n"),
			in, plural(in, tr("troop", "troupe"), tr("troops", "troupes")), s.reach(seat), hand, plural(hand, tr("tile", "tuile"), tr("tiles", "tuiles")))
	}
	if s.solo {
		for _, at := range s.placed {
			i := int(at)
			if t := s.cells[i].treasure; t >= 0 {
				fmt.Fprintf(b, tr("treasure on %s: comes off with %s\n", "trésor en %s : retiré avec %s\n"), squareName(i), treasureKinds[t].describe(fr))
			}
		}
		if s.lastBuilt >= 0 {
			fmt.Fprintf(b, tr("%s's last building (Henri builds next to it): %s\n", "dernier bâtiment %s (Henri construit à côté) : %s\n"),
				tr(s.names[0], adjudicator.OfName(s.names[0]).FR), squareName(int(s.lastBuilt)))
		}
	}
	switch {
	case s.over:
		fmt.Fprintf(b, tr("game over: %s\n", "partie finie : %s\n"), tr(s.Result().Summary, s.Result().SummaryFR))
	default:
		fmt.Fprintf(b, tr("to move: %s", "à jouer : %s"), s.names[s.turn])
		if s.taken {
			b.WriteString(tr(", tile taken", ", tuile prise"))
		} else {
			b.WriteString(tr(", tile not taken yet", ", tuile pas encore prise"))
		}
		if s.discounts > 0 {
			fmt.Fprintf(b, ", %d %s", s.discounts, plural(s.discounts, tr("discount", "réduction"), tr("discounts", "réductions")))
		}
		if len(s.paidCells)+len(s.paidTiles) > 0 {
			var paid []string
			for _, q := range s.paidCells {
				paid = append(paid, squareName(int(q)))
			}
			paid = append(paid, s.ids(s.paidTiles)...)
			fmt.Fprintf(b, tr(", paid this turn: %s", ", payé ce tour : %s"), strings.Join(paid, " "))
		}
		if len(s.destroy) > 0 {
			var d []string
			for _, q := range s.destroy {
				d = append(d, squareName(int(q)))
			}
			fmt.Fprintf(b, tr(", may destroy %s", ", peut détruire %s"), strings.Join(d, " "))
		}
		if s.last >= 0 {
			fmt.Fprintf(b, tr("; last round: %d %s after this one", " ; fin de partie : %d %s après celui-ci"), s.last, plural(s.last, tr("turn", "tour"), tr("turns", "tours")))
		}
		b.WriteString("\n")
	}
}

// PrivateText returns the lines of Text(as) only as sees: their hand.
func (s *State) PrivateText(as string) string { return s.privateText(as, false) }

// privateText is PrivateText, in French when fr is set.
func (s *State) privateText(as string, fr bool) string {
	seat := s.seat(as)
	if seat < 0 || (s.solo && seat == 1) {
		return ""
	}
	tr := pick(fr)
	whose := tr(as+"'s", adjudicator.OfName(as).FR)
	var b strings.Builder
	if len(s.hands[seat]) == 0 {
		fmt.Fprintf(&b, tr("%s hand: empty\n", "main %s : vide\n"), whose)
	} else {
		fmt.Fprintf(&b, tr("%s hand:\n", "main %s :\n"), whose)
		for _, t := range s.hands[seat] {
			fmt.Fprintf(&b, "  %s\n", s.tile(t).describe(fr))
		}
	}
	var out strings.Builder
	textwrap.Write(&out, b.String())
	return out.String()
}

// handWords names the tiles of seat's hand, or says it is empty, in
// English and in French.
func (s *State) handWords(seat int) adjudicator.Words {
	if len(s.hands[seat]) == 0 {
		return adjudicator.Words{EN: "empty", FR: "vide"}
	}
	ids := make([]string, len(s.hands[seat]))
	for i, t := range s.hands[seat] {
		ids[i] = s.tile(t).ID
	}
	hand := strings.Join(ids, ", ")
	return adjudicator.Words{EN: hand, FR: hand}
}

// plural words a count: plural(2, "point", "points") is "points".
var plural = textwrap.Plural

type squareView struct {
	Tile     string   `json:"tile"`
	Building string   `json:"building,omitempty"`
	Colour   string   `json:"colour"`
	Owner    string   `json:"owner,omitempty"`
	Open     bool     `json:"open"`
	Roads    string   `json:"roads,omitempty"`
	Troops   []string `json:"troops"`
	Treasure string   `json:"treasure,omitempty"`
}

type boardView struct {
	Squares map[string]squareView `json:"squares"`
	Reserve []string              `json:"reserve"`
	Reach   map[string]int        `json:"reach"`
	Stack   int                   `json:"stack"`
	Next    string                `json:"next,omitempty"`
	Hands   map[string]int        `json:"hands"`
	Taken   bool                  `json:"taken"`
	Last    int                   `json:"last"`
	Sets    []string              `json:"sets"`
}

// troopName returns how a troop is written: its owner, with "*" for a
// player's cavalry; Henri's by colour.
func (s *State) troopName(seat, k int) string {
	if s.solo && seat == 1 {
		return Henri + "-" + colourNames[k]
	}
	if k == 0 {
		return s.names[seat] + "*"
	}
	return s.names[seat]
}

// Board returns the public board for JSON; see the package doc.
func (s *State) Board() any {
	v := boardView{Squares: map[string]squareView{}, Reach: map[string]int{}, Hands: map[string]int{}, Stack: len(s.stack), Taken: s.taken, Last: s.last}
	for _, at := range s.placed {
		i := int(at)
		c := &s.cells[i]
		if c.tile < 0 {
			continue
		}
		t := s.tile(c.tile)
		sv := squareView{Tile: t.ID, Colour: t.Colour.String(), Open: c.open, Roads: s.exits(i).String(), Troops: []string{}}
		if !c.open {
			sv.Building = t.Building.String()
			sv.Owner = s.names[c.owner]
		}
		for seat := range 2 {
			for k, tr := range s.troops[seat] {
				if int(tr.at) == i {
					sv.Troops = append(sv.Troops, s.troopName(seat, k))
				}
			}
		}
		if c.treasure >= 0 {
			sv.Treasure = treasureKinds[c.treasure].name
		}
		v.Squares[squareName(i)] = sv
	}
	for _, t := range s.ring {
		if t < 0 {
			v.Reserve = append(v.Reserve, "")
		} else {
			v.Reserve = append(v.Reserve, s.tile(t).ID)
		}
	}
	for seat := range s.players() {
		v.Reach[s.names[seat]] = s.reach(seat)
		v.Hands[s.names[seat]] = len(s.hands[seat])
	}
	if len(s.stack) > 0 {
		v.Next = s.tile(s.stack[0]).Colour.String()
	}
	for _, set := range s.sets {
		v.Sets = append(v.Sets, set.String())
	}
	return v
}

type privateView struct {
	Hand []string `json:"hand"`
}

// Private returns player's hand for JSON.
func (s *State) Private(player string) any {
	seat := s.seat(player)
	if seat < 0 || (s.solo && seat == 1) {
		return nil
	}
	v := privateView{Hand: []string{}}
	for _, t := range s.hands[seat] {
		v.Hand = append(v.Hand, s.tile(t).ID)
	}
	slices.Sort(v.Hand)
	return v
}
