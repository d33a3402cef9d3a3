package lowenherz

import (
	"slices"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// borderSteps holds the step of a border on each edge, made once for
// Legal rather than on every call, by pointer as Legal has always listed
// them (Apply reads *BorderStep as BorderStep, and changes none); the
// edges not on the board hold a step Legal never lists.
var borderSteps = func() (t [numEdges]adjudicator.Move) {
	for e := range t {
		t[e] = &BorderStep{Edge: Edge(e)}
	}
	return t
}()

// boardEdges lists the edges between two squares of the board, in order,
// made once for Legal.
var boardEdges = func() (t []Edge) {
	for e := Edge(0); e < numEdges; e++ {
		if e.valid() {
			t = append(t, e)
		}
	}
	return t
}()

// appendBorderSteps appends the step of a border on every edge where
// borderOK passes, in the order of the edges: borderOK written out for
// the rows of east sides, then of south sides, for Legal's most frequent
// list. TestFastChecks holds it to borderOK.
func (s *State) appendBorderSteps(out []adjudicator.Move) []adjudicator.Move {
	if s.bordersOnBoard >= bordersTotal {
		return out
	}
	out = slices.Grow(out, len(boardEdges)+8)
	ok := func(e Edge, a, b Square) bool {
		if s.border[e] {
			return false
		}
		if pa := s.piece[a]; pa >= 0 && pa == s.piece[b] {
			return false
		}
		ra := s.region[a]
		return ra != s.region[b] || s.regions[ra].owner < 0
	}
	for r := range Size {
		for c := range Size - 1 {
			a := sq(r, c)
			if e := Edge(a); ok(e, a, a+1) {
				out = append(out, borderSteps[e])
			}
		}
	}
	for r := range Size - 1 {
		for c := range Size {
			a := sq(r, c)
			if e := Edge(Size*Size + int(a)); ok(e, a, a+Size) {
				out = append(out, borderSteps[e])
			}
		}
	}
	return out
}

// The fast predicates Legal uses: each says whether its check (checkBorder,
// checkKnight, checkExtendSquare, checkAlliance) would pass, without
// building the error message. TestFastChecks holds them to the checks.

// borderOK reports whether checkBorder(p, e) passes.
func (s *State) borderOK(e Edge) bool {
	if s.border[e] || s.bordersOnBoard >= bordersTotal {
		return false
	}
	a, b := e.squares()
	if s.piece[a] >= 0 && s.piece[a] == s.piece[b] {
		return false
	}
	return !(s.region[a] == s.region[b] && s.regions[s.region[a]].owner >= 0)
}

// knightOK reports whether checkKnight(p, q, ducats) passes.
func (s *State) knightOK(p int, q Square, ducats int) bool {
	t := s.terrain[q]
	return s.players[p].knights > 0 && t.holdsKnight() && s.piece[q] < 0 && (t == Meadow || ducats > 0) && s.linked(p, q)
}

// extendOK reports whether checkExtendSquare(p, q, d) passes.
func (s *State) extendOK(p int, q, d Square) bool {
	dom := s.regionOf(d)
	if dom.owner != p || s.region[q] == s.region[d] || !s.touches(q, d) {
		return false
	}
	if c := s.piece[q]; c >= 0 && int(c) != p || s.castle[q] {
		return false
	}
	if r := s.regionOf(q); r.owner >= 0 {
		if r.owner == p || s.allied(d, r.castle) || dom.knights <= r.knights {
			return false
		}
	}
	lay, lift := s.bordersFor(q, d)
	return s.bordersOnBoard+lay-lift <= bordersTotal
}

// allianceOK reports whether checkAlliance(p, e) passes.
func (s *State) allianceOK(p int, e Edge) bool {
	if !s.border[e] {
		return false
	}
	a, b := e.squares()
	ra, rb := s.regionOf(a), s.regionOf(b)
	if rb.owner == p {
		ra, rb = rb, ra
	}
	return ra.owner == p && rb.owner >= 0 && rb.owner != p && rb.owner < len(s.names) && !s.allied(ra.castle, rb.castle)
}

// anyKnightSquare reports whether knightSquares(p, ducats) is not empty.
func (s *State) anyKnightSquare(p int, ducats int) bool {
	for q := Square(0); q < Size*Size; q++ {
		if s.knightOK(p, q, ducats) {
			return true
		}
	}
	return false
}

// anyExtension reports whether extensionSquares(p) is not empty.
func (s *State) anyExtension(p int) bool {
	for i := range s.regions {
		r := &s.regions[i]
		if r.owner != p || s.domain >= 0 && r.castle != s.domain {
			continue
		}
		for q := Square(0); q < Size*Size; q++ {
			if s.extendOK(p, q, r.castle) {
				return true
			}
		}
	}
	return false
}

// deserterPossible reports whether a deserter could be found for p at
// all: a domain of p's with a knight of p's and another colour's domain
// with one of its own, as deserterMoves asks of every step. Most of a
// game has neither, and the squares need not be looked at.
func (s *State) deserterPossible(p int) bool {
	mine, theirs := false, false
	for i := range s.regions {
		switch r := &s.regions[i]; {
		case r.knights == 0:
		case r.owner == p:
			mine = true
		case r.owner >= 0:
			theirs = true
		}
	}
	return mine && theirs
}

// anyAlliance reports whether allianceEdges(p) is not empty.
func (s *State) anyAlliance(p int) bool {
	// An alliance needs a domain of p's and one of another player's: most
	// of a game has neither, and the edges need not be looked at.
	mine, theirs := false, false
	for i := range s.regions {
		switch o := s.regions[i].owner; {
		case o == p:
			mine = true
		case o >= 0 && o < len(s.names):
			theirs = true
		}
	}
	if !mine || !theirs {
		return false
	}
	for e := Edge(0); e < numEdges; e++ {
		if s.allianceOK(p, e) {
			return true
		}
	}
	return false
}

// refillOK reports whether checkRefill passes.
func (s *State) refillOK() bool {
	return s.phase == phasePlay && (s.step == stepRefill || s.step == stepAction && (s.done > 0 || s.act.act == ActBorders))
}

// playOK reports whether checkPlay(p, m) passes.
func (s *State) playOK(p int, m Play) bool {
	if !slices.Contains(s.players[p].hand, m.Card) {
		return false
	}
	opt, ok := optionFor(m.Card.Kind, m.Action)
	left := s.players[p].ducats - m.Card.Cost()
	if !ok || left < 0 {
		return false
	}
	switch opt.act {
	case ActKnights:
		return s.anyKnightSquare(p, left)
	case ActExtension:
		return s.anyExtension(p)
	case ActDeserter:
		return s.deserterPossible(p) && len(s.deserterMoves(p, left, 1)) > 0
	case ActAlliance:
		return s.anyAlliance(p)
	}
	return true
}

// cardChecks holds, over one listing of a player's card steps, what
// playing a card looks for beyond its cost, once found: a square for a
// knight with no ducats left over and with some, a square to extend to,
// an alliance (0 not looked for yet, 1 none, 2 some). A hand with several
// cards of one action looks once.
type cardChecks struct {
	knight              [2]int8
	extension, alliance int8
}

// found returns ok as a cardChecks answer.
func found(ok bool) int8 {
	if ok {
		return 2
	}
	return 1
}

// playable reports whether playOK(p, m) passes for a card of p's hand,
// with what c has found for p in this state, adding what it looks for.
// TestFastChecks holds it to playOK.
func (s *State) playable(p int, m Play, c *cardChecks) bool {
	opt, ok := optionFor(m.Card.Kind, m.Action)
	left := s.players[p].ducats - m.Card.Cost()
	if !ok || left < 0 {
		return false
	}
	switch opt.act {
	case ActKnights:
		// knightOK asks only whether any ducats are left over.
		k := &c.knight[min(left, 1)]
		if *k == 0 {
			*k = found(s.anyKnightSquare(p, left))
		}
		return *k == 2
	case ActExtension:
		if c.extension == 0 {
			c.extension = found(s.anyExtension(p))
		}
		return c.extension == 2
	case ActDeserter:
		return s.deserterPossible(p) && len(s.deserterMoves(p, left, 1)) > 0
	case ActAlliance:
		if c.alliance == 0 {
			c.alliance = found(s.anyAlliance(p))
		}
		return c.alliance == 2
	}
	return true
}

// borderNames holds the notation of the border on each edge of the
// board, made once: a search names the steps it tries.
var borderNames = func() (t [numEdges]string) {
	for e := range t {
		if Edge(e).valid() {
			t[e] = "border " + Edge(e).String()
		}
	}
	return t
}()

// cardSteps holds the steps of selling and of taking a card of each back
// letter ('A' to 'D') and kind, made once for Legal.
var cardSteps = func() (t struct {
	sell, take [4][numCardKinds]adjudicator.Move
}) {
	for l := range t.sell {
		for k := range t.sell[l] {
			c := Card{Letter: 'A' + byte(l), Kind: CardKind(k)}
			t.sell[l][k], t.take[l][k] = Sell{Card: c}, Take{Card: c}
		}
	}
	return t
}()

// playSteps holds the step of playing a card of each back letter and
// kind for each action, and knightSteps the knight step on each square,
// made once for Legal like cardSteps.
var (
	playSteps = func() (t [4][numCardKinds][numActions]adjudicator.Move) {
		for l := range t {
			for k := range t[l] {
				for a := range t[l][k] {
					t[l][k][a] = Play{Card: Card{Letter: 'A' + byte(l), Kind: CardKind(k)}, Action: Action(a)}
				}
			}
		}
		return t
	}()
	knightSteps = func() (t [Size * Size]adjudicator.Move) {
		for q := range t {
			t[q] = KnightStep{Square: Square(q)}
		}
		return t
	}()
)

// placeSteps holds the setup step of a castle on each square with its
// knight on each side, and placeNames their notation, made once for Legal
// and for a search that names the steps it tries.
var placeSteps, placeNames = func() (t [Size * Size][4]adjudicator.Move, names [Size * Size][4]string) {
	for q := range t {
		for d := North; d <= West; d++ {
			if n := Square(q).neighbour(d); n >= 0 {
				m := Place{Castle: Square(q), Knight: n}
				t[q][d], names[q][d] = m, "castle "+m.Castle.String()+" knight "+m.Knight.String()
			}
		}
	}
	return t, names
}()

// cardStepNames holds the notation of selling and of taking a card of each
// back letter ('A' to 'D') and kind, playNames that of playing one for
// each action, and knightNames that of the knight step on each square,
// made once: a search names the steps it tries, as for borderNames.
var (
	cardStepNames = func() (t struct {
		sell, take [4][numCardKinds]string
	}) {
		for l := range t.sell {
			for k := range t.sell[l] {
				c := Card{Letter: 'A' + byte(l), Kind: CardKind(k)}
				t.sell[l][k], t.take[l][k] = "sell "+c.String(), "take "+c.String()
			}
		}
		return t
	}()
	playNames = func() (t [4][numCardKinds][numActions]string) {
		for l := range t {
			for k := range t[l] {
				for a := range t[l][k] {
					t[l][k][a] = Play{Card: Card{Letter: 'A' + byte(l), Kind: CardKind(k)}, Action: Action(a)}.name()
				}
			}
		}
		return t
	}()
	knightNames = func() (t [Size * Size]string) {
		for q := range t {
			t[q] = "knight " + Square(q).String()
		}
		return t
	}()
)

// playStep returns m, from playSteps where it is.
func playStep(m Play) adjudicator.Move {
	if l := int(m.Card.Letter) - 'A'; l >= 0 && l < len(playSteps) && m.Card.Kind < numCardKinds && m.Action < numActions && m.pos == (notation.Pos{}) && m.actPos == (notation.Pos{}) {
		return playSteps[l][m.Card.Kind][m.Action]
	}
	return m
}

// sellStep returns Sell{Card: c}, from cardSteps where it is.
func sellStep(c Card) adjudicator.Move {
	if l := int(c.Letter) - 'A'; l >= 0 && l < len(cardSteps.sell) && c.Kind < numCardKinds {
		return cardSteps.sell[l][c.Kind]
	}
	return Sell{Card: c}
}

// takeStep returns Take{Card: c}, from cardSteps where it is.
func takeStep(c Card) adjudicator.Move {
	if l := int(c.Letter) - 'A'; l >= 0 && l < len(cardSteps.take) && c.Kind < numCardKinds {
		return cardSteps.take[l][c.Kind]
	}
	return Take{Card: c}
}

// canAct reports whether adjudicator.CanAct(s, the player of index p)
// passes: the game not over and p to move. It builds neither the list
// of players to move nor an error, for Legal and Apply. TestCanAct holds
// it to CanAct.
func (s *State) canAct(p int) bool {
	switch {
	case p < 0:
		return false
	case s.phase == phaseSetup:
		return s.order[s.setupAt].player == p
	case s.phase == phasePlay:
		return s.turn == p
	}
	return false
}
