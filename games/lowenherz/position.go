package lowenherz

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/yamldoc"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Position returns the complete position as a YAML node in the format of
// the package doc, canonical: squares row by row, players in seating
// order, English words.
func (s *State) Position() any {
	root := yamldoc.Mapping()
	yamldoc.Add(root, "phase", yamldoc.Scalar(phaseNames[s.phase]))
	switch s.phase {
	case phaseSetup:
		yamldoc.Add(root, "setup", yamldoc.Scalar(strconv.Itoa(s.setupAt)))
	case phasePlay:
		yamldoc.Add(root, "turn", yamldoc.Scalar(s.names[s.turn]))
		yamldoc.Add(root, "step", yamldoc.Scalar(stepNames[s.step]))
		if s.step == stepAction {
			yamldoc.Add(root, "card", yamldoc.Scalar(s.card.String()))
			yamldoc.Add(root, "action", yamldoc.Scalar(s.act.act.String()))
			yamldoc.Add(root, "done", yamldoc.Scalar(strconv.Itoa(s.done)))
			if s.domain >= 0 {
				yamldoc.Add(root, "domain", yamldoc.Scalar(s.domain.String()))
			}
		}
		if s.sold >= 0 {
			yamldoc.Add(root, "sold", yamldoc.Scalar(s.market[s.sold].String()))
		}
		yamldoc.Add(root, "income", yamldoc.Scalar(strconv.Itoa(s.income)))
	case phaseOver:
		end := "deck"
		if s.kingEnd {
			end = "king"
		}
		yamldoc.Add(root, "ended", yamldoc.Scalar(end))
	}
	if s.deckOut {
		yamldoc.Add(root, "last_round", yamldoc.Scalar("true"))
	}
	terrain := &yaml.Node{Kind: yaml.SequenceNode}
	for r := range Size {
		row := make([]byte, Size)
		for c := range Size {
			row[c] = terrainCodes[s.terrain[sq(r, c)]]
		}
		terrain.Content = append(terrain.Content, yamldoc.Scalar(string(row)))
	}
	yamldoc.Add(root, "terrain", terrain)
	var borders []string
	for e := Edge(0); e < numEdges; e++ {
		if s.border[e] {
			borders = append(borders, e.String())
		}
	}
	yamldoc.Add(root, "borders", yamldoc.Flow(borders))
	pieces := yamldoc.Mapping()
	for q := Square(0); q < Size*Size; q++ {
		if p := s.piece[q]; p >= 0 {
			yamldoc.Add(pieces, q.String(), yamldoc.Scalar(s.colourName(int(p))+" "+s.pieceWords(q).EN))
		}
	}
	yamldoc.Add(root, "pieces", pieces)
	var al []string
	for _, a := range s.allies {
		t := a.a.String() + " " + a.b.String()
		if a.edge >= 0 {
			t += " " + a.edge.String()
		}
		al = append(al, t)
	}
	yamldoc.Add(root, "alliances", yamldoc.Flow(al))
	players := yamldoc.Mapping()
	for i, n := range s.names {
		p := &s.players[i]
		pm := yamldoc.Mapping()
		yamldoc.Add(pm, "ducats", yamldoc.Scalar(strconv.Itoa(p.ducats)))
		yamldoc.Add(pm, "score", yamldoc.Scalar(strconv.Itoa(p.score)))
		addSupply(pm, p)
		yamldoc.Add(pm, "hand", yamldoc.Flow(cardStrings(p.hand)))
		yamldoc.Add(players, n, pm)
	}
	if c := s.neutral(); c >= 0 {
		pm := yamldoc.Mapping()
		addSupply(pm, &s.players[c])
		yamldoc.Add(players, "neutral", pm)
	}
	yamldoc.Add(root, "players", players)
	yamldoc.Add(root, "deck", yamldoc.Flow(cardStrings(s.deck)))
	yamldoc.Add(root, "market", yamldoc.Flow(cardStrings(s.market)))
	yamldoc.Add(root, "discard", yamldoc.Flow(cardStrings(s.discard)))
	return root
}

// addSupply adds a colour's castles and knights in supply to its mapping.
func addSupply(pm *yaml.Node, p *player) {
	yamldoc.Add(pm, "castles", yamldoc.Scalar(strconv.Itoa(p.castles)))
	yamldoc.Add(pm, "knights", yamldoc.Scalar(strconv.Itoa(p.knights)))
}

func cardStrings(cs []Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

var positionKeys = []string{"phase", "setup", "turn", "step", "card", "action", "done", "domain", "sold", "income", "ended",
	"last_round", "terrain", "borders", "pieces", "alliances", "players", "deck", "market", "discard"}
var playerKeys = []string{"ducats", "score", "castles", "knights", "hand"}

// supplyKeys are the keys of the neutral colour in players.
var supplyKeys = []string{"castles", "knights"}

func isNull(n *yaml.Node) bool { return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// seq returns the items of a sequence node, or an error.
func seq(n *yaml.Node, what string) ([]*yaml.Node, error) {
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, yamldoc.Errorf(n, "%s: expected a list", what)
	}
	for _, it := range n.Content {
		if it.Kind != yaml.ScalarNode {
			return nil, yamldoc.Errorf(it, "%s: expected a plain value", what)
		}
	}
	return n.Content, nil
}

func intValue(n *yaml.Node, what string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || v < lo || v > hi {
		return 0, yamldoc.Errorf(n, "%s: expected a whole number from %d to %d, not %q", what, lo, hi, n.Value)
	}
	return v, nil
}

// parseCardText reads a card as positions write it: "B knight or
// extension", the letter required.
func parseCardText(n *yaml.Node) (Card, error) {
	steps, errs := notation.Split(n.Value)
	if len(errs) > 0 || len(steps) != 1 {
		return Card{}, yamldoc.Errorf(n, "%q is not a card, like \"A 2 borders\"", n.Value)
	}
	s := &State{}
	sc := notation.NewScanner(steps[0])
	tok, _ := sc.Peek()
	if len(tok.Text) != 1 {
		return Card{}, yamldoc.Errorf(n, "card %q: start with its back letter, A to D, like \"A 2 borders\"", n.Value)
	}
	c, err := s.scanCard(sc, nil, "A 2 borders", "A 2 frontières")
	if err == nil {
		err = sc.ExpectEnd()
	}
	if err != nil {
		return Card{}, yamldoc.Errorf(n, "card %q: %s", n.Value, err.Msg)
	}
	return c, nil
}

// posLoader reads a position document in passes, each in its own
// function: the terrain, the pieces, the borders, the players' hands and
// the cards, the scores, the alliances and the turn. Errors keep the line
// and column of the node at fault.
type posLoader struct {
	s          *State
	n          *yaml.Node
	setup      adjudicator.Setup
	used       map[Card]int // cards of each kind met so far
	scoreNodes []*yaml.Node // by player, the score given, if any
}

// loadPosition reads a position document and checks it is one the game
// can reach: pieces and cards within the supply, castles on meadows,
// knights on meadow or forest, no border inside a domain, scores as the
// board gives them. Left-out parts take the defaults of the package doc.
func loadPosition(setup adjudicator.Setup, n *yaml.Node) (adjudicator.State, error) {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil, yamldoc.Errorf(n, "a Löwenherz position is a mapping with keys %s", strings.Join(positionKeys, ", "))
	}
	if err := yamldoc.CheckKeys(n, positionKeys, "the position"); err != nil {
		return nil, err
	}
	s := newEmpty(setup.Players)
	s.phase = phasePlay
	if v := yamldoc.Get(n, "phase"); v != nil {
		i := slices.Index(phaseNames[:], v.Value)
		if i < 0 || v.Kind != yaml.ScalarNode {
			return nil, yamldoc.Errorf(v, "phase %q: expected setup, play or over", v.Value)
		}
		s.phase = phase(i)
	}
	l := &posLoader{s: s, n: n, setup: setup, used: map[Card]int{}, scoreNodes: make([]*yaml.Node, len(s.names))}
	for _, pass := range []func() error{l.terrain, l.pieces, l.borders, l.players, l.cards, l.scores, l.alliances, l.phase} {
		if err := pass(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// terrain reads the terrain, or lays the default tiles unturned.
func (l *posLoader) terrain() error {
	s, n := l.s, l.n
	if v := yamldoc.Get(n, "terrain"); v != nil {
		rows, err := seq(v, "terrain")
		if err != nil {
			return err
		}
		if len(rows) != Size {
			return yamldoc.Errorf(v, "terrain: expected %d rows of %d squares, got %d rows", Size, Size, len(rows))
		}
		cities := 0
		for r, row := range rows {
			if len(row.Value) != Size {
				return yamldoc.Errorf(row, "terrain row %d: expected %d squares, got %d", r+1, Size, len(row.Value))
			}
			for c := range Size {
				k := strings.IndexByte(terrainCodes, row.Value[c])
				if k < 0 {
					return &notation.Error{Pos: notation.Pos{Line: row.Line, Col: row.Column + c}, Msg: fmt.Sprintf("terrain row %d: %q is not a terrain code (one of %s)", r+1, row.Value[c], terrainCodes)}
				}
				s.terrain[sq(r, c)] = Terrain(k)
				if Terrain(k) == City {
					cities++
				}
			}
		}
		if cities != 1 {
			return yamldoc.Errorf(v, "terrain: the board has one square of the king's city (K), not %d", cities)
		}
	} else {
		data, err := boardData(l.setup)
		if err != nil {
			return err
		}
		s.terrain = data.Layout(nil, true)
	}
	return nil
}

// pieces reads the castles and knights, taking them from the supplies.
func (l *posLoader) pieces() error {
	s, n := l.s, l.n
	if v := yamldoc.Get(n, "pieces"); !isNull(v) {
		if v.Kind != yaml.MappingNode {
			return yamldoc.Errorf(v, "pieces: expected a mapping of squares to pieces, like a1: red castle")
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, val := v.Content[i], v.Content[i+1]
			q, ok := ParseSquare(k.Value)
			if !ok {
				return yamldoc.Errorf(k, "%q is not a square a1-l12", k.Value)
			}
			if s.piece[q] >= 0 {
				return yamldoc.Errorf(k, "%s is given twice", q)
			}
			f := strings.Fields(val.Value)
			if len(f) != 2 || (f[1] != "castle" && f[1] != "knight") {
				return yamldoc.Errorf(val, "%s: expected a colour and castle or knight, like \"red castle\", not %q", q, val.Value)
			}
			c := s.index(f[0])
			if f[0] == "neutral" && s.neutral() >= 0 {
				c = s.neutral()
			}
			if c < 0 {
				return yamldoc.Errorf(val, "%s: %q is not a colour of this game (%s)", q, f[0], strings.Join(s.colourNames(), ", "))
			}
			pl := &s.players[c]
			if f[1] == "castle" {
				if s.terrain[q] != Meadow {
					return yamldoc.Errorf(val, "%s: a castle stands on a meadow, not on %s", q, s.terrain[q].WordsA().EN)
				}
				if pl.castles == 0 {
					return yamldoc.Errorf(val, "%s: %s has only %d castles", q, f[0], colourCastles(len(s.names), c))
				}
				pl.castles--
				s.castle[q] = true
			} else {
				if !s.terrain[q].holdsKnight() {
					return yamldoc.Errorf(val, "%s: a knight stands on meadow or forest, not on %s", q, s.terrain[q].WordsA().EN)
				}
				if pl.knights == 0 {
					return yamldoc.Errorf(val, "%s: %s has only %d knights", q, f[0], knightsEach)
				}
				pl.knights--
			}
			s.piece[q] = int8(c)
		}
	}
	return nil
}

// borders reads the borders; none may lie inside a domain.
func (l *posLoader) borders() error {
	s, n := l.s, l.n
	if v := yamldoc.Get(n, "borders"); v != nil {
		items, err := seq(v, "borders")
		if err != nil {
			return err
		}
		nodes := map[Edge]*yaml.Node{}
		for _, it := range items {
			e, err := parseEdgeText(it.Value)
			if err != nil {
				return yamldoc.Errorf(it, "border %q: %v", it.Value, err)
			}
			if s.border[e] {
				return yamldoc.Errorf(it, "border %s is given twice", e)
			}
			if s.bordersOnBoard == bordersTotal {
				return yamldoc.Errorf(it, "more than the %d borders of the game", bordersTotal)
			}
			s.border[e] = true
			s.bordersOnBoard++
			nodes[e] = it
		}
		if s.phase == phaseSetup && len(items) > 0 {
			return yamldoc.Errorf(v, "no border is placed during the setup")
		}
		before := s.border
		s.recompute()
		for _, it := range items {
			e, _ := parseEdgeText(it.Value)
			if before[e] && !s.border[e] {
				return yamldoc.Errorf(nodes[e], "border %s lies inside the domain of the castle on %s: superfluous borders are removed (lowenherz-2003-fr.txt:97)", e, s.regionOf(e.squaresA()).castle)
			}
		}
	}
	s.recompute()
	return nil
}

// players reads each player's ducats, score and hand.
func (l *posLoader) players() error {
	s, n := l.s, l.n
	if v := yamldoc.Get(n, "players"); !isNull(v) {
		if v.Kind != yaml.MappingNode {
			return yamldoc.Errorf(v, "players: expected a mapping of player names")
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, pm := v.Content[i], v.Content[i+1]
			p, keys := s.index(k.Value), playerKeys
			if k.Value == "neutral" && s.neutral() >= 0 {
				p, keys = s.neutral(), supplyKeys
			}
			if p < 0 {
				return yamldoc.Errorf(k, "%q is not a player of this game (%s)", k.Value, strings.Join(s.colourNames(), ", "))
			}
			if isNull(pm) {
				continue
			}
			if pm.Kind != yaml.MappingNode {
				return yamldoc.Errorf(pm, "%s: expected a mapping with keys %s", k.Value, strings.Join(keys, ", "))
			}
			if err := yamldoc.CheckKeys(pm, keys, k.Value); err != nil {
				return err
			}
			if err := l.supply(pm, p); err != nil {
				return err
			}
			if d := yamldoc.Get(pm, "ducats"); d != nil {
				x, err := intValue(d, "ducats", 0, 9999)
				if err != nil {
					return err
				}
				s.players[p].ducats = x
			}
			if sc := yamldoc.Get(pm, "score"); sc != nil {
				x, err := intValue(sc, "score", -999, 9999)
				if err != nil {
					return err
				}
				s.players[p].score = x
				l.scoreNodes[p] = sc
			}
			items, err := seq(yamldoc.Get(pm, "hand"), "hand")
			if err != nil {
				return err
			}
			if len(items) > handSize {
				return yamldoc.Errorf(yamldoc.Get(pm, "hand"), "a hand holds at most %d cards", handSize)
			}
			for _, it := range items {
				c, err := l.useCard(it)
				if err != nil {
					return err
				}
				s.players[p].hand = append(s.players[p].hand, c)
			}
		}
	}
	return nil
}

// supply checks the castles and knights a colour's mapping says are in
// supply against the pieces on the board: a colour has 15 knights and 4
// castles, 3 with 4 players (lowenherz-2003-fr.txt:37), 2 neutral castles
// with 2 players (l. 107); a castle never leaves the board, and a knight
// that does goes back to the supply.
func (l *posLoader) supply(pm *yaml.Node, c int) error {
	s := l.s
	for _, f := range []struct {
		key          string
		left, supply int
	}{
		{"castles", s.players[c].castles, colourCastles(len(s.names), c)},
		{"knights", s.players[c].knights, knightsEach},
	} {
		v := yamldoc.Get(pm, f.key)
		if v == nil {
			continue
		}
		x, err := intValue(v, f.key, 0, f.supply)
		if err != nil {
			return err
		}
		if x != f.left {
			rule := "lowenherz-2003-fr.txt:37"
			if c >= len(s.names) {
				rule = "lowenherz-2003-fr.txt:107"
			}
			return yamldoc.Errorf(v, "%s: %s has %d %s in supply, not %d: %d in all, %d on the board (%s)",
				f.key, s.colourName(c), f.left, f.key, x, f.supply, f.supply-f.left, rule)
		}
	}
	return nil
}

// cards reads the deck, the market and the discard pile. The cards
// neither in a hand nor in the market nor in the piles given are the rest:
// with the deck given and the discard pile left out, the rest is the
// discard pile, in the order of the card table; with the discard pile given
// and the deck left out, the rest is the deck, shuffled letter by letter
// from the seed and stacked A on top, as the game makes it (a referee who
// knows what was played but not the deck's order); with both given, there
// is no rest.
func (l *posLoader) cards() error {
	s := l.s
	var err error
	if s.deck, err = l.cardList("deck"); err != nil {
		return err
	}
	if err := l.deckOrder(); err != nil {
		return err
	}
	if s.market, err = l.cardList("market"); err != nil {
		return err
	}
	if s.discard, err = l.cardList("discard"); err != nil {
		return err
	}
	left := map[Card]int{}
	var rest []Card
	for _, c := range deckOrder {
		if left[c]++; left[c] > l.used[c] {
			rest = append(rest, c)
		}
	}
	deck, discard := yamldoc.Get(l.n, "deck"), yamldoc.Get(l.n, "discard")
	switch {
	case discard == nil:
		s.discard = rest
	case deck == nil:
		rng := l.setup.RNG
		if rng == nil {
			rng = adjudicator.NewRNG("")
		}
		s.deck = stack(rest, rng)
	case len(rest) > 0:
		return yamldoc.Errorf(discard, "discard: with the deck given too, the hands, deck, market and discard pile hold every card of the game; %d are nowhere: %s",
			len(rest), strings.Join(cardStrings(rest), ", "))
	}
	return nil
}

// deckOrder checks the deck runs A to D from the top: the piles are
// stacked D (bottom), C, B, A (top) and drawn from the top
// (lowenherz-2003-fr.txt:41).
func (l *posLoader) deckOrder() error {
	items, _ := seq(yamldoc.Get(l.n, "deck"), "deck")
	for i := 1; i < len(l.s.deck); i++ {
		if a, b := l.s.deck[i-1], l.s.deck[i]; b.Letter < a.Letter {
			return yamldoc.Errorf(items[i], "deck: %s lies below %s; the deck is stacked D (bottom), C, B, A (top), and drawn from the top (lowenherz-2003-fr.txt:41)", b, a)
		}
	}
	return nil
}

// scores gives each player the board's score, or checks the one given
// against it (a game over keeps its scores and bonus).
func (l *posLoader) scores() error {
	s := l.s
	// Scores: as the board gives them, unless the game is over.
	base := s.base()
	copy(s.lastBase, base)
	for i := range s.names {
		if l.scoreNodes[i] == nil {
			s.players[i].score = base[i]
		} else if s.phase != phaseOver && s.players[i].score != base[i] {
			return yamldoc.Errorf(l.scoreNodes[i], "%s's score is %d but the board gives %d (domains and monopolies)", s.names[i], s.players[i].score, base[i])
		}
	}
	return nil
}

// alliances reads the last round flag and the alliances.
func (l *posLoader) alliances() error {
	s, n := l.s, l.n
	if v := yamldoc.Get(n, "last_round"); v != nil {
		s.deckOut = v.Value == "true"
	}
	if v := yamldoc.Get(n, "alliances"); v != nil {
		items, err := seq(v, "alliances")
		if err != nil {
			return err
		}
		for _, it := range items {
			al, err := s.parseAlliance(it.Value)
			if err != nil {
				return yamldoc.Errorf(it, "alliance %q: %v", it.Value, err)
			}
			s.allies = append(s.allies, al)
		}
	}
	return nil
}

// phase reads what the phase needs: the setup's progress, the turn, or how
// the game ended.
func (l *posLoader) phase() error {
	s, n := l.s, l.n
	switch s.phase {
	case phaseSetup:
		castles := 0
		for q := range s.castle {
			if s.castle[q] {
				castles++
			}
		}
		s.setupAt = castles
		if v := yamldoc.Get(n, "setup"); v != nil {
			x, err := intValue(v, "setup", 0, len(s.order)-1)
			if err != nil {
				return err
			}
			if x != castles {
				return yamldoc.Errorf(v, "setup %d: the board holds %d castles", x, castles)
			}
		}
		if castles >= len(s.order) {
			return yamldoc.Errorf(n, "every castle is placed: the setup is over")
		}
	case phasePlay:
		if err := s.loadTurn(n); err != nil {
			return err
		}
	case phaseOver:
		s.kingEnd = yamldoc.Get(n, "ended") != nil && yamldoc.Get(n, "ended").Value == "king"
	}
	return nil
}

// useCard reads a card and counts it against the game's cards.
func (l *posLoader) useCard(it *yaml.Node) (Card, error) {
	c, err := parseCardText(it)
	if err != nil {
		return c, err
	}
	l.used[c]++
	if l.used[c] > cardTable[c].count {
		return c, yamldoc.Errorf(it, "more %s cards than the game's %d", c, cardTable[c].count)
	}
	return c, nil
}

// cardList reads the list of cards under key.
func (l *posLoader) cardList(key string) ([]Card, error) {
	items, err := seq(yamldoc.Get(l.n, key), key)
	if err != nil {
		return nil, err
	}
	var out []Card
	for _, it := range items {
		c, err := l.useCard(it)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (s *State) colourNames() []string {
	out := slices.Clone(s.names)
	if s.neutral() >= 0 {
		out = append(out, "neutral")
	}
	return out
}

// squaresA returns the first square of e.
func (e Edge) squaresA() Square { a, _ := e.squares(); return a }

// parseEdgeText reads "e5|e6" (or e5-e6, e5/e6, "e5 south").
func parseEdgeText(t string) (Edge, error) {
	steps, errs := notation.Split(t)
	if len(errs) > 0 || len(steps) != 1 {
		return noEdge, fmt.Errorf("expected two adjacent squares, like e5|e6")
	}
	sc := notation.NewScanner(steps[0])
	e, err := scanEdge(sc, "e5|e6", "e5|e6")
	if err == nil {
		err = sc.ExpectEnd()
	}
	if err != nil {
		return noEdge, fmt.Errorf("%s", err.Msg)
	}
	return e, nil
}

// parseAlliance reads "a1 h1 d1|e1": the two castles and the turned
// border, which may be left out when no border is left between them.
func (s *State) parseAlliance(t string) (alliance, error) {
	f := strings.Fields(t)
	if len(f) != 2 && len(f) != 3 {
		return alliance{}, fmt.Errorf("expected the two castles and the turned border, like \"a1 h1 d1|e1\"")
	}
	var al alliance
	var ok bool
	if al.a, ok = ParseSquare(f[0]); !ok {
		return al, fmt.Errorf("%q is not a square", f[0])
	}
	if al.b, ok = ParseSquare(f[1]); !ok {
		return al, fmt.Errorf("%q is not a square", f[1])
	}
	for _, c := range []Square{al.a, al.b} {
		if r := s.regionOf(c); !s.castle[c] || !r.domain() {
			return al, fmt.Errorf("%s is not the castle of a domain", c)
		}
	}
	if s.piece[al.a] == s.piece[al.b] {
		return al, fmt.Errorf("both castles are %s's", s.colourName(int(s.piece[al.a])))
	}
	al.edge = noEdge
	if len(f) == 3 {
		e, err := parseEdgeText(f[2])
		if err != nil {
			return al, err
		}
		if !s.border[e] || !s.separates(e, al.a, al.b) {
			return al, fmt.Errorf("%s is not a border between the two domains", e)
		}
		al.edge = e
	}
	return al, nil
}

// loadTurn reads whose turn it is and where it stands.
// loadIncome reads income: the ducats collected as the turn began, or
// pending, the moment the turn begins, before the mine income: it is
// collected now (lowenherz-2003-fr-scan.txt:315-316; RULINGS.md LH-14).
func (s *State) loadIncome(v *yaml.Node) error {
	if v == nil {
		return nil
	}
	if v.Value != "pending" {
		x, err := intValue(v, "income", 0, 4)
		if err != nil {
			return yamldoc.Errorf(v, "income: expected the ducats collected as the turn began (0 to 4), or pending, before they are")
		}
		s.income = x
		return nil
	}
	if s.step != stepCard || s.sold >= 0 {
		return yamldoc.Errorf(v, "income: pending is the moment the turn begins: step card, nothing sold")
	}
	s.income = s.mineTypes(s.turn)
	s.players[s.turn].ducats += s.income
	return nil
}

func (s *State) loadTurn(n *yaml.Node) error {
	s.turn = 0
	if v := yamldoc.Get(n, "turn"); v != nil {
		if s.turn = s.index(v.Value); s.turn < 0 {
			return yamldoc.Errorf(v, "turn: %q is not a player of this game (%s)", v.Value, strings.Join(s.names, ", "))
		}
	}
	s.step = stepCard
	if v := yamldoc.Get(n, "step"); v != nil {
		i := slices.Index(stepNames[:], v.Value)
		if i < 0 {
			return yamldoc.Errorf(v, "step %q: expected card, action or refill", v.Value)
		}
		s.step = step(i)
	}
	if v := yamldoc.Get(n, "sold"); v != nil {
		c, err := parseCardText(v)
		if err != nil {
			return err
		}
		if len(s.market) == 0 || s.market[len(s.market)-1] != c {
			return yamldoc.Errorf(v, "sold: the card sold this turn is the last one in the market")
		}
		s.sold = len(s.market) - 1
	}
	if s.step == stepCard && len(s.players[s.turn].hand) == 0 {
		return yamldoc.Errorf(n, "%s's turn to sell or play a card, with no card in hand", s.names[s.turn])
	}
	if err := s.loadIncome(yamldoc.Get(n, "income")); err != nil {
		return err
	}
	if s.step != stepAction {
		for _, k := range []string{"card", "action", "done", "domain"} {
			if v := yamldoc.Get(n, k); v != nil {
				return yamldoc.Errorf(v, "%s is given only in the action step", k)
			}
		}
		if s.step == stepRefill && len(s.deck) == 0 {
			return yamldoc.Errorf(n, "step refill with the deck out: the turn would be over")
		}
		return nil
	}
	v := yamldoc.Get(n, "card")
	if v == nil {
		return yamldoc.Errorf(n, "step action: say which card is being carried out (card:)")
	}
	c, err := parseCardText(v)
	if err != nil {
		return err
	}
	s.card = c
	opts := c.Kind.options()
	s.act = opts[0]
	if a := yamldoc.Get(n, "action"); a != nil {
		i := slices.Index(actionNames[:], a.Value)
		o, ok := option{}, false
		if i >= 0 {
			o, ok = optionFor(c.Kind, Action(i))
		}
		if !ok {
			return yamldoc.Errorf(a, "the %s card offers no %q action", c, a.Value)
		}
		s.act = o
	} else if len(opts) > 1 {
		return yamldoc.Errorf(v, "the %s card offers %s or %s: say which with action:", c, opts[0].act, opts[1].act)
	}
	if d := yamldoc.Get(n, "done"); d != nil {
		x, err := intValue(d, "done", 0, s.act.n-1)
		if err != nil {
			return err
		}
		s.done = x
	}
	if d := yamldoc.Get(n, "domain"); d != nil {
		q, ok := ParseSquare(d.Value)
		if !ok || s.act.act != ActExtension || !s.castle[q] || s.regionOf(q).owner != s.turn {
			return yamldoc.Errorf(d, "domain: expected the castle of a domain of %s's that an extension serves", s.names[s.turn])
		}
		s.domain = q
	}
	return nil
}
