package lowenherz97

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
	"github.com/heraldgames/herald/games/internal/yamldoc"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Position returns the complete position as a YAML node in the format of
// the package doc, canonical: every key written, squares in board order,
// players in seating order.
func (s *State) Position() any {
	root := mapping()
	add(root, "phase", scalar(phaseNames[s.phase]))
	rows := make([]string, height)
	for r := range height {
		var b strings.Builder
		for c := range width {
			q, _ := board.At(c, r)
			b.WriteByte(terrainCodes[s.terrain[q]])
		}
		rows[r] = b.String()
	}
	add(root, "map", flow(rows))
	add(root, "first", scalar(s.names[s.first]))
	if s.phase != phasePlace && s.phase != phaseOver {
		add(root, "card", scalar(s.card.Code()))
	}
	deck := make([]string, len(s.deck))
	for i, c := range s.deck {
		deck[i] = c.Code()
	}
	add(root, "deck", flow(deck))
	piles := &yaml.Node{Kind: yaml.SequenceNode}
	for _, p := range s.piles {
		piles.Content = append(piles.Content, flow(cardStrings(p)))
	}
	add(root, "piles", piles)
	add(root, "bank", scalar(strconv.Itoa(s.bank)))
	castles, knights := mapping(), mapping()
	for q := range grid.Square(board.Len()) {
		if c := s.castle[q]; c >= 0 {
			add(castles, board.Name(q), scalar(s.colourName(int(c))))
		}
		if k := s.knight[q]; k >= 0 {
			add(knights, board.Name(q), scalar(s.colourName(int(k))))
		}
	}
	castles.Style, knights.Style = yaml.FlowStyle, yaml.FlowStyle
	add(root, "castles", castles)
	add(root, "knights", knights)
	var walls []string
	for _, e := range s.g.Walls() {
		walls = append(walls, board.EdgeName(e))
	}
	add(root, "walls", flow(walls))
	players := mapping()
	for i, n := range s.names {
		pm := mapping()
		pm.Style = yaml.FlowStyle
		add(pm, "score", scalar(strconv.Itoa(s.score[i])))
		add(pm, "ducats", scalar(strconv.Itoa(s.money[i])))
		add(pm, "reserve", scalar(strconv.Itoa(s.reserve[i])))
		add(pm, "political", flow(cardStrings(s.hands[i])))
		if s.phase == phaseBid && s.bids[i].in {
			add(pm, "bid", scalar(strings.TrimPrefix(Bid{Ducats: s.bids[i].ducats, Treasures: s.bids[i].treasures}.String(), "bid ")))
		}
		add(players, n, pm)
	}
	add(root, "players", players)
	if s.neutral >= 0 {
		nm := mapping()
		nm.Style = yaml.FlowStyle
		add(nm, "reserve", scalar(strconv.Itoa(s.reserve[s.neutral])))
		add(root, "neutral", nm)
	}
	s.positionRound(root)
	al := &yaml.Node{Kind: yaml.SequenceNode}
	for _, a := range s.alliances {
		al.Content = append(al.Content, flow([]string{board.Name(a.a), board.Name(a.b)}))
	}
	add(root, "alliances", al)
	add(root, "log", strs(english(s.events)))
	s.positionExtension(root)
	return root
}

// positionRound adds the round's keys: the placements to come, the
// decisions, the tier, the negotiation, confrontation or action under way.
func (s *State) positionRound(root *yaml.Node) {
	switch s.phase {
	case phasePlace:
		var pl []string
		for _, p := range s.places {
			t := s.names[p.player]
			if p.colour == s.neutral {
				t += " neutral"
			}
			pl = append(pl, t)
		}
		add(root, "places", flow(pl))
	case phaseDecide, phaseNegotiate, phaseBid, phaseAct:
		var d []string
		for _, pk := range s.picks {
			t := fmt.Sprintf("%s %d", s.names[pk.player], pk.tier+1)
			if pk.pol >= 0 {
				t += " " + polNames[pk.pol] + s.allyText(pk)
			}
			d = append(d, t)
		}
		add(root, "decisions", flow(d))
	}
	if s.phase == phaseNegotiate || s.phase == phaseBid || s.phase == phaseAct {
		add(root, "tier", scalar(strconv.Itoa(s.tier+1)))
	}
	switch s.phase {
	case phaseNegotiate:
		nm := mapping()
		nm.Style = yaml.FlowStyle
		add(nm, "between", flow([]string{s.names[s.contenders[0]], s.names[s.contenders[1]]}))
		add(nm, "speaker", scalar(s.names[s.speaker]))
		add(nm, "offer", scalar(strconv.Itoa(s.offer)))
		if s.offerBy >= 0 {
			add(nm, "by", scalar(s.names[s.offerBy]))
		}
		add(root, "negotiation", nm)
	case phaseBid:
		cm := mapping()
		cm.Style = yaml.FlowStyle
		var bidders []string
		for _, c := range s.contenders {
			bidders = append(bidders, s.names[c])
		}
		add(cm, "bidders", flow(bidders))
		add(cm, "rebid", scalar(strconv.FormatBool(s.rebid)))
		add(root, "confrontation", cm)
	case phaseAct:
		am := mapping()
		am.Style = yaml.FlowStyle
		add(am, "actor", scalar(s.names[s.actor]))
		a := &s.act
		if a.pol >= 0 {
			add(am, "card", scalar(polNames[a.pol]))
		}
		add(am, "knights", scalar(strconv.Itoa(a.knights)))
		add(am, "walls", scalar(strconv.Itoa(a.walls)))
		add(am, "extended", scalar(strconv.Itoa(a.ext)))
		if a.ext > 0 {
			add(am, "from", scalar(board.Name(a.extFrom)))
			add(am, "open", scalar(strconv.FormatBool(a.extOpen)))
		}
		if a.looked >= 0 {
			add(am, "looking", scalar(strconv.Itoa(int(a.looked)+1)))
		}
		add(am, "took", scalar(strconv.FormatBool(a.took)))
		var ex []string
		for _, p := range s.executors {
			ex = append(ex, s.names[p])
		}
		add(am, "next", flow(ex))
		add(root, "action", am)
	}
}

// positionExtension adds, between the two squares of an extension, the
// state it started from (RULINGS.md L97-20).
func (s *State) positionExtension(root *yaml.Node) {
	if b := &s.act.extBase; s.phase == phaseAct && s.act.extOpen && len(b.squares) > 0 {
		em := mapping()
		var qs, walls []string
		for _, q := range b.squares {
			qs = append(qs, board.Name(q))
		}
		for _, e := range b.g.Walls() {
			walls = append(walls, board.EdgeName(e))
		}
		add(em, "squares", flow(qs))
		add(em, "walls", flow(walls))
		sm := mapping()
		sm.Style = yaml.FlowStyle
		for i, n := range s.names {
			add(sm, n, scalar(strconv.Itoa(b.score[i])))
		}
		add(em, "scores", sm)
		add(em, "log", strs(english(b.events)))
		add(root, "extension", em)
	}
}

func cardStrings(cs []Political) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// The document helpers are shared with the other games (yamldoc).
func mapping() *yaml.Node                        { return yamldoc.Mapping() }
func scalar(v string) *yaml.Node                 { return yamldoc.Scalar(v) }
func add(m *yaml.Node, key string, v *yaml.Node) { yamldoc.Add(m, key, v) }

// flow is a list on one line, each item quoted: log lines and map rows
// read back as the same strings whatever they hold.
func flow(items []string) *yaml.Node {
	n := strs(items)
	n.Style = yaml.FlowStyle
	return n
}

// strs is a block list of quoted strings (a flow list when empty).
// english returns the English of events, as a position writes its log.
func english(events []event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.en
	}
	return out
}

func strs(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, it := range items {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: it, Style: yaml.DoubleQuotedStyle})
	}
	if len(items) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}

// posError is an error at a node of the position document.
func posError(n *yaml.Node, format string, args ...any) error {
	return yamldoc.Errorf(n, format, args...)
}

var (
	positionKeys = []string{"phase", "map", "first", "card", "deck", "piles", "bank", "castles", "knights", "walls", "players", "neutral",
		"places", "decisions", "tier", "negotiation", "confrontation", "action", "alliances", "log", "extension"}
	playerKeys = []string{"score", "ducats", "reserve", "political", "bid"}
	negKeys    = []string{"between", "speaker", "offer", "by"}
	confKeys   = []string{"bidders", "rebid"}
	actKeys    = []string{"actor", "card", "knights", "walls", "extended", "from", "open", "looking", "took", "next"}
	extKeys    = []string{"squares", "walls", "scores", "log"}
)

// checkKeys refuses unknown and repeated keys, with a suggestion.
func checkKeys(m *yaml.Node, allowed []string, what string) error {
	return yamldoc.CheckKeys(m, allowed, what)
}

func get(m *yaml.Node, key string) *yaml.Node { return yamldoc.Get(m, key) }

// loader reads one position document.
type loader struct {
	s        *State
	polCount map[Political]int // political cards met so far
	onBoard  []int             // knights on the board, by colour
	total    int               // the players' ducats
}

func (l *loader) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", posError(n, "%s: expected a single value", what)
	}
	return n.Value, nil
}

func (l *loader) int(n *yaml.Node, what string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || v < lo || v > hi {
		return 0, posError(n, "%s: expected a number from %d to %d", what, lo, hi)
	}
	return v, nil
}

func (l *loader) bool(n *yaml.Node, what string) (bool, error) {
	v, err := strconv.ParseBool(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return false, posError(n, "%s: expected true or false", what)
	}
	return v, nil
}

func (l *loader) list(n *yaml.Node, what string) ([]*yaml.Node, error) {
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "") {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, posError(n, "%s: expected a list", what)
	}
	for _, it := range n.Content {
		if it.Kind != yaml.ScalarNode && what != "piles" && what != "alliances" {
			return nil, posError(it, "%s: expected a list of single values", what)
		}
	}
	return n.Content, nil
}

func (l *loader) player(n *yaml.Node, what string) (int, error) {
	p := l.s.index(n.Value)
	if n.Kind != yaml.ScalarNode || p < 0 {
		return 0, posError(n, "%s: %q is not a player of this game (players: %s)", what, n.Value, strings.Join(l.s.names, ", "))
	}
	return p, nil
}

func (l *loader) colour(n *yaml.Node, what string) (int, error) {
	if n.Kind == yaml.ScalarNode && n.Value == "neutral" && l.s.neutral >= 0 {
		return l.s.neutral, nil
	}
	return l.player(n, what)
}

func (l *loader) square(n *yaml.Node, what string) (grid.Square, error) {
	q, err := board.Parse(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return 0, posError(n, "%s: %q is not a square (a1 to o10)", what, n.Value)
	}
	return q, nil
}

func (l *loader) card(n *yaml.Node, what string) (Political, error) {
	c, err := ParsePolitical(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil {
		return Political{}, posError(n, "%s: %q is not a political card (alliance, renegade, fief 3, fief 4, fief 5, treasure 5 to 8)", what, n.Value)
	}
	return c, nil
}

// loadPosition reads a position document (see the package doc) and checks
// that the game could be in it: pieces on squares they may stand on, every
// count within the supply, money conserved, and a round that fits.
func loadPosition(setup adjudicator.Setup, n *yaml.Node) (adjudicator.State, error) {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if err := checkKeys(n, positionKeys, "the position"); err != nil {
		return nil, err
	}
	m, err := gameMap(setup)
	if err != nil {
		return nil, err
	}
	terrain := slices.Clone(m.Terrain)
	if v := get(n, "map"); v != nil {
		rows, err := (&loader{}).list(v, "map")
		if err != nil {
			return nil, err
		}
		if len(rows) != height {
			return nil, posError(v, "map: expected %d rows of %d squares (. F H C)", height, width)
		}
		for r, row := range rows {
			if len(row.Value) != width {
				return nil, posError(row, "map: row %d has %d squares, want %d", r+1, len(row.Value), width)
			}
			for c := range width {
				t, ok := terrainOf(row.Value[c])
				if !ok {
					return nil, posError(row, "map: row %d: %q is not one of . F H C", r+1, row.Value[c])
				}
				terrain[r*width+c] = t
			}
		}
	}
	s := newEmpty(m, setup.Players, terrain)
	s.allianceAtAction = setup.Options.String("alliance") == "action"
	s.phase = phaseDecide
	l := &loader{s: s}
	if err := l.load(n); err != nil {
		return nil, err
	}
	return s, nil
}

func (l *loader) load(n *yaml.Node) error {
	l.polCount = map[Political]int{}
	for _, pass := range []func(*yaml.Node) error{l.loadHead, l.loadPiles, l.loadPieces, l.loadPlayers, l.loadBank, l.loadAlliances, l.loadRound, l.loadExtension} {
		if err := pass(n); err != nil {
			return err
		}
	}
	return nil
}

// countPol counts a political card against the game's.
func (l *loader) countPol(c Political, at *yaml.Node) error {
	l.polCount[c]++
	if l.polCount[c] > countOf(c) {
		return posError(at, "there are only %d %s cards", countOf(c), c)
	}
	return nil
}

// loadHead reads the phase, the first player and the deck.
func (l *loader) loadHead(n *yaml.Node) error {
	s := l.s
	if v := get(n, "phase"); v != nil {
		i := slices.Index(phaseNames[:], v.Value)
		if i < 0 || v.Kind != yaml.ScalarNode {
			return posError(v, "phase %q: expected one of %s", v.Value, strings.Join(phaseNames[:], ", "))
		}
		s.phase = phase(i)
	}
	if v := get(n, "first"); v != nil {
		p, err := l.player(v, "first")
		if err != nil {
			return err
		}
		s.first = p
	}
	if v := get(n, "deck"); v != nil {
		items, err := l.list(v, "deck")
		if err != nil {
			return err
		}
		for _, it := range items {
			c, err := ParseCardCode(it.Value)
			if err != nil {
				return posError(it, "deck: %v", err)
			}
			s.deck = append(s.deck, c)
		}
		if len(s.deck) > len(actionCards) {
			return posError(v, "deck: %d cards; there are %d action cards", len(s.deck), len(actionCards))
		}
	}
	return nil
}

// loadPiles reads the political piles.
func (l *loader) loadPiles(n *yaml.Node) error {
	s := l.s
	if v := get(n, "piles"); v != nil {
		items, err := l.list(v, "piles")
		if err != nil {
			return err
		}
		if len(items) != 2 {
			return posError(v, "piles: expected two lists of political cards, like [[renegade], [fief 3, treasure 8]]")
		}
		for i, it := range items {
			cards, err := l.list(it, "piles")
			if err != nil {
				return err
			}
			for _, cn := range cards {
				c, err := l.card(cn, "piles")
				if err != nil {
					return err
				}
				if err := l.countPol(c, cn); err != nil {
					return err
				}
				s.piles[i] = append(s.piles[i], c)
			}
		}
	}
	return nil
}

// loadPieces reads the castles, the knights and the walls; the reserves are the
// rest.
func (l *loader) loadPieces(n *yaml.Node) error {
	s := l.s
	l.onBoard = make([]int, s.seats)
	castlesOf := make([]int, s.seats)
	for _, key := range []string{"castles", "knights"} {
		v := get(n, key)
		if v == nil || (v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
			continue
		}
		if v.Kind != yaml.MappingNode {
			return posError(v, "%s: expected a mapping of squares to colours, like {a1: alice}", key)
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, val := v.Content[i], v.Content[i+1]
			q, err := l.square(k, key)
			if err != nil {
				return err
			}
			c, err := l.colour(val, key)
			if err != nil {
				return err
			}
			if s.castle[q] >= 0 || s.knight[q] >= 0 {
				return posError(k, "%s: %s holds a piece already", key, board.Name(q))
			}
			if t := s.terrain[q]; t == Hill || t == City {
				return posError(k, "%s: %s is a %s; no castle or knight stands there (lowenherz-1997-fr.txt:165, 296)", key, board.Name(q), t)
			}
			if key == "castles" {
				s.castle[q] = int8(c)
				castlesOf[c]++
				if castlesOf[c] > 4 {
					return posError(k, "castles: %s has more than 4 castles", s.colourName(c))
				}
			} else {
				s.knight[q] = int8(c)
				l.onBoard[c]++
				if l.onBoard[c] > knightsEach {
					return posError(k, "knights: %s has more than %d knights", s.colourName(c), knightsEach)
				}
			}
		}
	}
	if v := get(n, "walls"); v != nil {
		g, err := l.walls(v, "walls")
		if err != nil {
			return err
		}
		s.g = g
	}
	s.dirty = true
	for c := range s.seats {
		s.reserve[c] = knightsEach - l.onBoard[c]
	}
	return nil
}

// loadPlayers reads each player's score, ducats, reserve, political cards and
// bid.
func (l *loader) loadPlayers(n *yaml.Node) error {
	s := l.s
	if v := get(n, "players"); v != nil {
		if v.Kind != yaml.MappingNode {
			return posError(v, "players: expected a mapping of player names to {score, ducats, reserve, political}")
		}
		seen := map[int]bool{}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, pv := v.Content[i], v.Content[i+1]
			p, err := l.player(k, "players")
			if err != nil {
				return err
			}
			if seen[p] {
				return posError(k, "players: %s is given twice", k.Value)
			}
			seen[p] = true
			if err := checkKeys(pv, playerKeys, "player "+k.Value); err != nil {
				return err
			}
			if x := get(pv, "score"); x != nil {
				if s.score[p], err = l.int(x, "score", 0, 9999); err != nil {
					return err
				}
			}
			if x := get(pv, "ducats"); x != nil {
				if s.money[p], err = l.int(x, "ducats", 0, totalMoney); err != nil {
					return err
				}
			}
			if x := get(pv, "reserve"); x != nil {
				r, err := l.int(x, "reserve", 0, knightsEach)
				if err != nil {
					return err
				}
				if r+l.onBoard[p] > knightsEach {
					return posError(x, "reserve: %s has %d knights on the board and %d in reserve, more than %d", k.Value, l.onBoard[p], r, knightsEach)
				}
				s.reserve[p] = r
			}
			if x := get(pv, "political"); x != nil {
				items, err := l.list(x, "political")
				if err != nil {
					return err
				}
				for _, it := range items {
					c, err := l.card(it, "political")
					if err != nil {
						return err
					}
					if err := l.countPol(c, it); err != nil {
						return err
					}
					s.hands[p] = append(s.hands[p], c)
				}
			}
		}
	}
	for p := range s.names {
		l.total += s.money[p]
	}
	return nil
}

// loadBank reads the neutral prince's reserve and the bank, which makes the
// money whole with the players' ducats.
func (l *loader) loadBank(n *yaml.Node) error {
	s := l.s
	if v := get(n, "neutral"); v != nil {
		if s.neutral < 0 {
			return posError(v, "neutral: there is no neutral prince with %d players", len(s.names))
		}
		if err := checkKeys(v, []string{"reserve"}, "neutral"); err != nil {
			return err
		}
		if x := get(v, "reserve"); x != nil {
			r, err := l.int(x, "reserve", 0, knightsEach-l.onBoard[s.neutral])
			if err != nil {
				return err
			}
			s.reserve[s.neutral] = r
		}
	}
	s.bank = totalMoney - l.total
	if v := get(n, "bank"); v != nil {
		b, err := l.int(v, "bank", 0, totalMoney)
		if err != nil {
			return err
		}
		if b+l.total != totalMoney {
			return posError(v, "bank: %d ducats with the players' %d make %d; the money cards are worth %d", b, l.total, b+l.total, totalMoney)
		}
		s.bank = b
	}
	if s.bank < 0 {
		return posError(get(n, "players"), "the players hold %d ducats; the money cards are worth only %d", l.total, totalMoney)
	}
	return nil
}

// loadAlliances reads the alliances and the log.
func (l *loader) loadAlliances(n *yaml.Node) error {
	s := l.s
	if v := get(n, "alliances"); v != nil {
		items, err := l.list(v, "alliances")
		if err != nil {
			return err
		}
		for _, it := range items {
			pair, err := l.list(it, "alliances")
			if err != nil || len(pair) != 2 {
				return posError(it, "alliances: expected pairs of castle squares, like [a1, n1]")
			}
			a, err := l.square(pair[0], "alliances")
			if err != nil {
				return err
			}
			b, err := l.square(pair[1], "alliances")
			if err != nil {
				return err
			}
			_, oa := s.regionOf(a)
			_, ob := s.regionOf(b)
			if s.castle[a] < 0 || s.castle[b] < 0 || oa < 0 || ob < 0 || oa == ob || s.allied(a, b) {
				return posError(it, "alliances: %s and %s must be the castles of two regions of different princes, allied once", board.Name(a), board.Name(b))
			}
			s.alliances = append(s.alliances, alliance{a, b})
		}
	}
	if v := get(n, "log"); v != nil {
		items, err := l.list(v, "log")
		if err != nil {
			return err
		}
		for _, it := range items {
			s.events = append(s.events, event{it.Value, it.Value}) // in English: a French board shows it as written
		}
		if len(s.events) > maxEvents {
			return posError(v, "log: at most %d events", maxEvents)
		}
	}
	return nil
}

// loadExtension reads the state the extension under way started from,
// which its second square is computed from with its first (RULINGS.md
// L97-20); without the key, the position's own state.
func (l *loader) loadExtension(n *yaml.Node) error {
	s := l.s
	a := &s.act
	v := get(n, "extension")
	open := s.phase == phaseAct && a.extOpen
	if v == nil {
		if open {
			a.extBase = s.extStart()
		}
		return nil
	}
	if !open {
		return posError(v, "extension: only between the two squares of an extension (phase act, action open: true)")
	}
	if err := checkKeys(v, extKeys, "extension"); err != nil {
		return err
	}
	b := s.extStart()
	y := get(v, "squares")
	if y == nil {
		return posError(v, "extension: give the squares annexed so far, like squares: [d2]")
	}
	items, err := l.list(y, "squares")
	if err != nil {
		return err
	}
	if len(items) != a.ext {
		return posError(y, "squares: %d squares, but the action has extended %d", len(items), a.ext)
	}
	lab, _ := s.info()
	for _, it := range items {
		q, err := l.square(it, "squares")
		if err != nil {
			return err
		}
		if lab[q] != lab[a.extFrom] {
			return posError(it, "squares: %s is not in the region of %s", it.Value, board.Name(a.extFrom))
		}
		b.squares = append(b.squares, q)
	}
	if y := get(v, "walls"); y != nil {
		if b.g, err = l.walls(y, "extension walls"); err != nil {
			return err
		}
	}
	if y := get(v, "scores"); y != nil {
		if y.Kind != yaml.MappingNode {
			return posError(y, "extension scores: expected a mapping of player names to scores")
		}
		for i := 0; i+1 < len(y.Content); i += 2 {
			p, err := l.player(y.Content[i], "extension scores")
			if err != nil {
				return err
			}
			if b.score[p], err = l.int(y.Content[i+1], "extension scores", 0, 9999); err != nil {
				return err
			}
		}
	}
	if y := get(v, "log"); y != nil {
		items, err := l.list(y, "extension log")
		if err != nil {
			return err
		}
		if len(items) > maxEvents {
			return posError(y, "extension log: at most %d events", maxEvents)
		}
		b.events = nil
		for _, it := range items {
			b.events = append(b.events, event{it.Value, it.Value})
		}
		b.events = shared(b.events)
	}
	a.extBase = b
	return nil
}

// walls reads a list of walls into a new grid.
func (l *loader) walls(v *yaml.Node, what string) (*grid.Grid, error) {
	items, err := l.list(v, what)
	if err != nil {
		return nil, err
	}
	g := grid.New(width, height)
	for _, it := range items {
		e, err := board.ParseEdge(it.Value)
		if err != nil {
			return nil, posError(it, "%s: %q: %v", what, it.Value, err)
		}
		if g.Wall(e.A, e.B) {
			return nil, posError(it, "%s: %s is given twice", what, board.EdgeName(e))
		}
		g.SetWall(e, true)
	}
	if g.CountWalls() > wallSupply {
		return nil, posError(v, "%s: %d walls; there are %d", what, g.CountWalls(), wallSupply)
	}
	return g, nil
}

// countOf returns how many political cards equal to c there are.
func countOf(c Political) int {
	n := 0
	for _, x := range politicalCards {
		if x == c {
			n++
		}
	}
	return n
}

func (l *loader) loadRound(n *yaml.Node) error {
	s := l.s
	// Keys that belong to other phases are refused, not lost.
	allowed := map[phase][]string{
		phasePlace:     {"places"},
		phaseDecide:    {"card", "decisions"},
		phaseNegotiate: {"card", "decisions", "tier", "negotiation"},
		phaseBid:       {"card", "decisions", "tier", "confrontation"},
		phaseAct:       {"card", "decisions", "tier", "action"},
	}
	for _, k := range []string{"places", "card", "decisions", "tier", "negotiation", "confrontation", "action"} {
		if v := get(n, k); v != nil && !slices.Contains(allowed[s.phase], k) {
			return posError(v, "%s does not belong to the phase %s", k, phaseNames[s.phase])
		}
	}
	if pn := get(n, "players"); pn != nil && pn.Kind == yaml.MappingNode {
		for i := 1; i < len(pn.Content); i += 2 {
			if x := get(pn.Content[i], "bid"); x != nil && s.phase != phaseBid {
				return posError(x, "bid: a bid belongs to the phase bid")
			}
		}
	}
	switch s.phase {
	case phasePlace:
		return l.loadPlaces(n)
	case phaseOver:
		return nil
	}
	if d := get(n, "decisions"); get(n, "card") == nil && s.phase == phaseDecide && (d == nil || d.Kind == yaml.SequenceNode && len(d.Content) == 0) {
		// The round begins: its card is turned from the deck, as at the
		// start of every round (lowenherz-1997-fr.txt:114); the first of
		// the game too, from the position herald starts a game with, its
		// card put back on the deck (decisions: [] as it writes them).
		s.startRound()
		return nil
	}
	if err := l.loadDecisions(n); err != nil {
		return err
	}
	if s.phase == phaseDecide {
		s.decIdx = len(s.picks)
		if s.decIdx == len(s.decOrder) {
			// Every card laid, no action carried out yet: the actions are
			// resolved tier by tier from here, as after the last card laid.
			s.tier = 0
			s.resolve()
		}
		return nil
	}
	if len(s.picks) != len(s.decOrder) {
		return posError(n, "phase %s: every decision card of the round must be laid (%d of %d)", phaseNames[s.phase], len(s.picks), len(s.decOrder))
	}
	s.decIdx = len(s.decOrder)
	if v := get(n, "tier"); v != nil {
		t, err := l.int(v, "tier", 1, 3)
		if err != nil {
			return err
		}
		s.tier = t - 1
	}
	ch := s.choosers(s.tier)
	where := get(n, "tier")
	if where == nil {
		where = n
	}
	switch s.phase {
	case phaseNegotiate:
		return l.loadNegotiation(n, ch, where)
	case phaseBid:
		return l.loadConfrontation(n, ch, where)
	case phaseAct:
		return l.loadAction(n, ch)
	}
	return nil
}

// loadPlaces reads the placements still to come of the setup (phase
// place).
func (l *loader) loadPlaces(n *yaml.Node) error {
	s := l.s
	v := get(n, "places")
	if v == nil {
		return posError(n, "phase place: give places, the placements to come, like [alice, bob, alice neutral]")
	}
	items, err := l.list(v, "places")
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return posError(v, "places: the setup has placements to come")
	}
	for _, it := range items {
		name, neutral := strings.CutSuffix(it.Value, " neutral")
		p := s.index(name)
		if p < 0 || (neutral && s.neutral < 0) {
			return posError(it, "places: %q: expected a player, or a player and neutral", it.Value)
		}
		c := p
		if neutral {
			c = s.neutral
		}
		s.places = append(s.places, placement{p, c})
		s.castles[c]++
	}
	for c := range s.seats {
		if s.castles[c] > s.reserve[c] {
			return posError(v, "places: %s has fewer knights in reserve than castles to place", s.colourName(c))
		}
	}
	s.skipImpossiblePlaces()
	if len(s.places) == 0 {
		return posError(v, "places: no placement to come is possible")
	}
	return nil
}

// loadDecisions reads the action card turned and the decision cards laid.
func (l *loader) loadDecisions(n *yaml.Node) error {
	s := l.s
	v := get(n, "card")
	if v == nil {
		return posError(n, "phase %s: give the action card turned, like card: B crown 2w 3w", phaseNames[s.phase])
	}
	c, err := ParseCardCode(v.Value)
	if err != nil || c.Special != 0 {
		return posError(v, "card: expected an action card with three actions, like B crown 2w 3w")
	}
	s.card = c
	n2 := len(s.names)
	for i := range n2 {
		p := (s.first + i) % n2
		s.decOrder = append(s.decOrder, p)
		if i == 0 && n2 < 4 {
			s.decOrder = append(s.decOrder, p)
		}
	}
	if v := get(n, "decisions"); v != nil {
		items, err := l.list(v, "decisions")
		if err != nil {
			return err
		}
		if len(items) > len(s.decOrder) {
			return posError(v, "decisions: %d cards; this round has %d", len(items), len(s.decOrder))
		}
		for i, it := range items {
			f := strings.Fields(it.Value)
			if len(f) < 2 || len(f) > 5 || len(f) == 4 {
				return posError(it, "decisions: %q: expected a player and a card 1-3, and a political card played with it, like \"alice 2 renegade\" or \"alice 2 alliance a1 n1\"", it.Value)
			}
			p := s.index(f[0])
			t, err := strconv.Atoi(f[1])
			if p < 0 || err != nil || t < 1 || t > 3 {
				return posError(it, "decisions: %q: expected a player and a card 1-3", it.Value)
			}
			if p != s.decOrder[i] {
				return posError(it, "decisions: card %d of the round is %s's to lay, clockwise from the first player", i+1, s.names[s.decOrder[i]])
			}
			pk := pick{player: p, tier: t - 1, pol: -1}
			if len(f) >= 3 {
				k := slices.Index(polNames[:], f[2])
				if k != int(Alliance) && k != int(Renegade) {
					return posError(it, "decisions: %q: only alliance and renegade are played with a decision card", it.Value)
				}
				pk.pol = int8(k)
				if (k == int(Alliance) && !s.allianceAtAction) != (len(f) == 5) {
					return posError(it, "decisions: %q: an alliance, and only an alliance, names the castles of its two regions, like \"alice 2 alliance a1 n1\"", it.Value)
				}
			}
			if len(f) == 5 {
				for j, name := range f[3:] {
					q, err := board.Parse(name)
					if err != nil || s.castle[q] < 0 || (j == 0) != (int(s.castle[q]) == p) {
						return posError(it, "decisions: %q: an alliance names the castle of a region of %s's, then one of another prince's", it.Value, f[0])
					}
					pk.ally[j] = q
				}
			}
			for _, o := range s.picks {
				if o.player == p && o.tier == pk.tier {
					return posError(it, "decisions: %s lays card %d twice", f[0], t)
				}
			}
			s.picks = append(s.picks, pk)
		}
	}
	return nil
}

// loadNegotiation reads the negotiation under way on tier's action
// between the two who chose it.
func (l *loader) loadNegotiation(n *yaml.Node, ch []pick, where *yaml.Node) error {
	s := l.s
	var err error
	if len(ch) != 2 || s.card.Tiers[s.tier].Kind == Ducats {
		return posError(where, "tier %d: a negotiation is between the two players who chose the same action (not ducats)", s.tier+1)
	}
	s.contenders = []int{ch[0].player, ch[1].player}
	v := get(n, "negotiation")
	s.speaker = ch[0].player
	if v != nil {
		if err := checkKeys(v, negKeys, "negotiation"); err != nil {
			return err
		}
		if x := get(v, "speaker"); x != nil {
			if s.speaker, err = l.player(x, "negotiation"); err != nil {
				return err
			}
		}
		if x := get(v, "offer"); x != nil {
			if s.offer, err = l.int(x, "offer", 0, totalMoney); err != nil {
				return err
			}
		}
		if x := get(v, "by"); x != nil {
			if s.offerBy, err = l.player(x, "negotiation"); err != nil {
				return err
			}
		}
		if x := get(v, "between"); x != nil {
			items, err := l.list(x, "between")
			if err != nil || len(items) != 2 || items[0].Value != s.names[ch[0].player] || items[1].Value != s.names[ch[1].player] {
				return posError(x, "negotiation: between is %s and %s, who chose tier %d", s.names[ch[0].player], s.names[ch[1].player], s.tier+1)
			}
		}
	}
	if !slices.Contains(s.contenders, s.speaker) {
		return posError(n, "negotiation: the speaker is one of %s and %s", s.names[ch[0].player], s.names[ch[1].player])
	}
	if (s.offer > 0) != (s.offerBy >= 0) || (s.offerBy >= 0 && s.offerBy == s.speaker) {
		return posError(n, "negotiation: an offer has an amount and is made by the other negotiator than the speaker")
	}
	if s.offerBy >= 0 && s.offer > s.money[s.offerBy] {
		return posError(n, "negotiation: %s offers more than their %d ducats", s.names[s.offerBy], s.money[s.offerBy])
	}
	return nil
}

// loadConfrontation reads the confrontation under way: its bidders and
// which bids are in.
func (l *loader) loadConfrontation(n *yaml.Node, ch []pick, where *yaml.Node) error {
	s := l.s
	var err error
	s.sealRound = 1 // the first confrontation of the game from here
	v := get(n, "confrontation")
	if v == nil {
		return posError(n, "phase bid: give the confrontation: {bidders: [...], rebid: false}")
	}
	if err := checkKeys(v, confKeys, "confrontation"); err != nil {
		return err
	}
	x := get(v, "bidders")
	if x == nil {
		return posError(v, "confrontation: give the bidders")
	}
	items, err := l.list(x, "bidders")
	if err != nil {
		return err
	}
	for _, it := range items {
		p, err := l.player(it, "bidders")
		if err != nil {
			return err
		}
		if slices.Contains(s.contenders, p) || !slices.ContainsFunc(ch, func(pk pick) bool { return pk.player == p }) {
			return posError(it, "bidders: %s did not choose tier %d, or is given twice", it.Value, s.tier+1)
		}
		s.contenders = append(s.contenders, p)
	}
	slices.Sort(s.contenders)
	if len(s.contenders) < 2 || s.card.Tiers[s.tier].Kind == Ducats {
		return posError(x, "bidders: a confrontation has at least two bidders, over an action that is not ducats")
	}
	if y := get(v, "rebid"); y != nil {
		if s.rebid, err = l.bool(y, "rebid"); err != nil {
			return err
		}
	}
	if !s.rebid && len(s.contenders) != len(ch) {
		return posError(x, "bidders: the first round of a confrontation has every player who chose tier %d", s.tier+1)
	}
	pn := get(n, "players")
	for i := 0; pn != nil && i+1 < len(pn.Content); i += 2 {
		b := get(pn.Content[i+1], "bid")
		if b == nil {
			continue
		}
		p := s.index(pn.Content[i].Value)
		if !slices.Contains(s.contenders, p) {
			return posError(b, "bid: %s is not a bidder", s.names[p])
		}
		steps, errs := notation.Split("bid " + b.Value)
		if len(errs) > 0 || len(steps) != 1 || b.Kind != yaml.ScalarNode {
			return posError(b, "bid: %q: expected ducats and treasures, like 4 treasure 8", b.Value)
		}
		sc := notation.NewScanner(steps[0])
		sc.Next()
		mv, perr, refused := parseBid(sc, notation.Pos{})
		if perr == nil && refused == nil {
			perr = sc.ExpectEnd()
		}
		if perr != nil || refused != nil {
			return posError(b, "bid: %q: expected ducats and treasures, like 4 treasure 8", b.Value)
		}
		bm := mv.(Bid)
		if err := s.checkBid(p, bm); err != nil {
			return posError(b, "bid: %s", err.Msg)
		}
		s.bids[p] = bid{in: true, ducats: bm.Ducats, treasures: bm.Treasures}
	}
	all := true
	for _, c := range s.contenders {
		all = all && s.bids[c].in
	}
	if all {
		return posError(v, "confrontation: every bid is in, so the bids are revealed; a position holds an open confrontation")
	}
	return nil
}

// loadAction reads the action being carried out: who, and how far.
func (l *loader) loadAction(n *yaml.Node, ch []pick) error {
	s := l.s
	var err error
	v := get(n, "action")
	if v == nil {
		return posError(n, "phase act: give the action: {actor: NAME, ...}")
	}
	if err := checkKeys(v, actKeys, "action"); err != nil {
		return err
	}
	x := get(v, "actor")
	if x == nil {
		return posError(v, "action: give the actor")
	}
	if s.actor, err = l.player(x, "actor"); err != nil {
		return err
	}
	if !slices.ContainsFunc(ch, func(pk pick) bool { return pk.player == s.actor }) {
		return posError(x, "actor: %s did not choose tier %d", x.Value, s.tier+1)
	}
	a := act{action: s.card.Tiers[s.tier], pol: -1, looked: -1}
	if y := get(v, "card"); y != nil {
		k := slices.Index(polNames[:], y.Value)
		if k != int(Renegade) && (k != int(Alliance) || !s.allianceAtAction) {
			return posError(y, "card: renegade, the political card still to carry out (an alliance takes effect by itself; under option alliance=action, alliance or renegade)")
		}
		a.pol = int8(k)
	}
	ints := map[string]*int{"knights": &a.knights, "walls": &a.walls, "extended": &a.ext}
	for _, k := range []string{"knights", "walls", "extended"} {
		if y := get(v, k); y != nil {
			if *ints[k], err = l.int(y, k, 0, 3); err != nil {
				return err
			}
		}
	}
	if y := get(v, "from"); y != nil {
		if a.extFrom, err = l.square(y, "from"); err != nil {
			return err
		}
		if _, o := s.regionOf(a.extFrom); o != s.actor || s.castle[a.extFrom] < 0 {
			return posError(y, "from: %s is not the castle of one of %s's regions", y.Value, s.names[s.actor])
		}
	} else if a.ext > 0 {
		return posError(v, "action: an extension names the castle of its region (from)")
	}
	if y := get(v, "open"); y != nil {
		if a.extOpen, err = l.bool(y, "open"); err != nil {
			return err
		}
	}
	if y := get(v, "looking"); y != nil {
		pile, err := l.int(y, "looking", 1, 2)
		if err != nil {
			return err
		}
		if len(s.piles[pile-1]) == 0 {
			return posError(y, "looking: pile %d is empty", pile)
		}
		a.looked = int8(pile - 1)
	}
	if y := get(v, "took"); y != nil {
		if a.took, err = l.bool(y, "took"); err != nil {
			return err
		}
	}
	if y := get(v, "next"); y != nil {
		items, err := l.list(y, "next")
		if err != nil {
			return err
		}
		for _, it := range items {
			p, err := l.player(it, "next")
			if err != nil {
				return err
			}
			s.executors = append(s.executors, p)
		}
	}
	kind := a.action.Kind
	ok := true
	switch {
	case a.walls > 0 && (kind != Walls || a.walls >= a.action.N):
		ok = false
	case (a.knights > 0 || a.ext > 0) && kind != Shield && kind != Shields:
		ok = false
	case (a.looked >= 0 || a.took) && (kind != Crown || (a.looked >= 0 && a.took)):
		ok = false
	case a.ext > 2 || (a.extOpen && a.ext != 1) || (kind == Shield || kind == Shields) && (a.uses() > a.budget() || a.knights >= 2 && a.ext > 0):
		ok = false
	}
	s.act = a
	if !ok || (a.pol < 0 && s.actDone()) {
		return posError(v, "action: %s cannot be carried out that far and still go on", a.action)
	}
	return nil
}
