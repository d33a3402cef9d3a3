package lowenherz97

import (
	"cmp"
	"slices"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
)

// Legal returns every step player may take next, in a stable order: each
// is accepted back by Parse and by Apply. The frequent steps (decision
// cards, offers, walls, knights paid in ducats, extensions, bids) come
// from tables made once (steps); the bids are pointers into one array,
// and Apply takes a *Bid as the Bid it points to.
func (s *State) Legal(player string) []adjudicator.Move { return s.AppendLegal(nil, player) }

// AppendLegal returns append(out, Legal(player)...), for a search that
// lists steps into a list it reuses (bot.LegalAppender).
func (s *State) AppendLegal(out []adjudicator.Move, player string) []adjudicator.Move {
	p := s.index(player)
	if p < 0 || !s.toMove(p) {
		return out
	}
	switch s.phase {
	case phasePlace:
		return s.placeMoves(out, s.places[0].colour, 0)
	case phaseDecide:
		out = slices.Grow(out, 9)
		var holds [4]bool
		for _, c := range s.hands[p] {
			holds[c.Kind] = true
		}
		for t := 1; t <= 3; t++ {
			if slices.ContainsFunc(s.picks, func(pk pick) bool { return pk.player == p && pk.tier == t-1 }) {
				continue
			}
			out = append(out, steps.choose[t-1][0])
			if holds[Alliance] && s.allianceAtAction {
				out = append(out, steps.choose[t-1][1+Alliance])
			} else if holds[Alliance] {
				// The alliance names its regions with the card (:249).
				for _, am := range s.allianceMoves(p, 0) {
					am := am.(AllianceMove)
					out = append(out, Choose{Tier: t, With: Alliance, HasWith: true, Ally: [2]grid.Square{am.Mine, am.Theirs}})
				}
			}
			if holds[Renegade] && s.reserve[p] > 0 {
				out = append(out, steps.choose[t-1][1+Renegade])
			}
		}
	case phaseNegotiate:
		out = slices.Grow(out, max(0, s.money[p]-s.offer)+3)
		for n := s.offer + 1; n <= s.money[p]; n++ {
			out = append(out, steps.offer[n])
		}
		if s.offerBy == s.other(p) {
			out = append(out, Accept{})
		}
		out = append(out, Yield{}, Refuse{})
	case phaseBid:
		var tsAt [4]int
		ts := tsAt[:0]
		for _, c := range s.hands[p] {
			if c.Kind == Treasure {
				ts = append(ts, c.Value)
			}
		}
		slices.Sort(ts)
		slices.Reverse(ts)
		var subsetsAt [1 << len(tsAt)][4]uint8
		subsets := subsetsAt[:0]
		for mask := range 1 << len(ts) {
			var sub [4]uint8
			k := 0
			for i, v := range ts {
				if mask&(1<<i) != 0 {
					sub[k] = uint8(v)
					k++
				}
			}
			if !slices.Contains(subsets, sub) {
				subsets = append(subsets, sub)
			}
		}
		out = slices.Grow(out, len(subsets)*(s.money[p]+1))
		for _, sub := range subsets {
			if t, ok := bidSet(sub); ok && s.money[p] <= totalMoney {
				out = append(out, steps.bid[t][:s.money[p]+1]...)
				continue
			}
			bids := make([]Bid, s.money[p]+1)
			for n := range bids {
				bids[n] = Bid{Ducats: n, Treasures: sub}
				out = append(out, &bids[n])
			}
		}
		return out
	case phaseAct:
		out = s.actMoves(out, p)
	}
	return append(out, s.breakMoves(p)...)
}

// castlesAtMost bounds the castles on the board, for the lists of them
// made on the stack (a longer list goes to the heap).
const castlesAtMost = 16

// sorted returns a sorted copy of xs, as slices.Sorted(slices.Values(xs))
// does (nil for none), in one allocation.
func sorted[T cmp.Ordered](xs []T) []T {
	if len(xs) == 0 {
		return nil
	}
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// ducatsAlone is payVariants' answer for a cost of 0, made once: capped
// at its length, so that an append would make a new array.
var ducatsAlone = []int{0}[:1:1]

// treasureValues are the values of the treasure cards, smallest first
// (politicalCards).
var treasureValues = [...]uint8{5, 6, 7, 8}

// bidSet returns the set of treasures sub holds (largest first, 0 for
// none), as the index of steps.bid: bit i for treasureValues[i]. It
// reports false for treasures not among treasureValues, or one twice, as
// a position could give.
func bidSet(sub [4]uint8) (int, bool) {
	set := 0
	for _, v := range sub {
		if v == 0 {
			continue
		}
		i := slices.Index(treasureValues[:], v)
		if i < 0 || set&(1<<i) != 0 {
			return 0, false
		}
		set |= 1 << i
	}
	return set, true
}

// treasuresOf returns the distinct values of p's treasures.
func (s *State) treasuresOf(p int) []int {
	var out []int
	for _, c := range s.hands[p] {
		if c.Kind == Treasure && !slices.Contains(out, c.Value) {
			out = append(out, c.Value)
		}
	}
	slices.Sort(out)
	return out
}

// payVariants returns the treasure values (0 for ducats alone) p can pay
// cost with, for the caller to read only.
func (s *State) payVariants(p, cost int) []int {
	if cost == 0 {
		return ducatsAlone
	}
	var out []int
	if s.payOK(p, cost, 0) {
		out = append(out, 0)
	}
	if cost > 0 {
		for _, v := range s.treasuresOf(p) {
			if s.payOK(p, cost, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

func (s *State) breakMoves(p int) []adjudicator.Move {
	if s.phase == phaseBid || s.phase == phasePlace {
		return nil
	}
	var out []adjudicator.Move
	for _, al := range s.alliances {
		if int(s.castle[al.a]) != p && int(s.castle[al.b]) != p {
			continue
		}
		for _, v := range s.payVariants(p, breakCost) {
			out = append(out, Break{A: al.a, B: al.b, Treasure: v})
		}
	}
	return out
}

// actMoves appends to out the steps of the player carrying out an action.
func (s *State) actMoves(out []adjudicator.Move, p int) []adjudicator.Move {
	a := &s.act
	if a.pol >= 0 { // a renegade, or an alliance under option alliance=action
		if PolKind(a.pol) == Alliance {
			return append(out, s.allianceMoves(p, 0)...)
		}
		return append(out, s.renegadeMoves(p, 0)...)
	}
	switch a.action.Kind {
	case Crown:
		if a.looked < 0 {
			for i := range 2 {
				if len(s.piles[i]) > 0 {
					out = append(out, steps.look[i])
				}
			}
		} else {
			var seen []Political
			for _, c := range s.piles[a.looked] {
				if !slices.Contains(seen, c) {
					seen = append(seen, c)
					out = append(out, Take{Card: c})
				}
			}
			return out // a card must be taken once the pile is seen
		}
	case Walls:
		if s.regionCount(p) < maxRegions && s.g.CountWalls() < wallSupply {
			out = s.appendWallSteps(out)
		}
	case Shield, Shields:
		if a.uses() < a.budget() && a.knights < a.budget() {
			for q := range grid.Square(board.Len()) {
				if s.knightFail(p, q) != knightOK {
					continue
				}
				for _, v := range s.payVariants(p, s.knightCost(q)) {
					if v == 0 {
						out = append(out, steps.knight[q])
					} else {
						out = append(out, Knight{Square: q, Treasure: v})
					}
				}
			}
		}
		out = s.appendExtend(out, p)
	}
	return append(out, End{})
}

// allEdges is every edge between two squares, in square order.
var allEdges = func() []grid.Edge {
	out := make([]grid.Edge, 0, 2*board.Len())
	for q := range grid.Square(board.Len()) {
		if e, ok := board.EdgeOf(q, q+1); ok {
			out = append(out, e)
		}
		if e, ok := board.EdgeOf(q, q+width); ok {
			out = append(out, e)
		}
	}
	return out
}()

// steps holds the frequent steps Legal lists, each made into an
// adjudicator.Move once rather than on every call.
var steps = func() (t struct {
	choose [3][3]adjudicator.Move                                // by tier: alone, with a bare alliance (option alliance=action), with a renegade
	offer  [totalMoney + 1]adjudicator.Move                      // by ducats
	wall   [width*(height-1) + (width-1)*height]adjudicator.Move // on each of allEdges, in their order
	knight [width * height]adjudicator.Move                      // on each square, paid in ducats
	place  [width * height][4]adjudicator.Move                   // castle on a square, knight on its neighbours in board.Neighbours' order
	extend [width * height]adjudicator.Move                      // extension to a square, its region not named
	look   [2]adjudicator.Move                                   // at each pile
	// bid holds the bids of each set of treasures (bidSet) for 0 to
	// totalMoney ducats, by pointers into one array, as Legal lists bids.
	bid [1 << len(treasureValues)][totalMoney + 1]adjudicator.Move
}) {
	for i := range t.choose {
		t.choose[i] = [3]adjudicator.Move{Choose{Tier: i + 1}, Choose{Tier: i + 1, With: Alliance, HasWith: true, Bare: true}, Choose{Tier: i + 1, With: Renegade, HasWith: true}}
	}
	for n := range t.offer {
		t.offer[n] = Offer{N: n}
	}
	if len(allEdges) != len(t.wall) {
		panic("lowenherz97: steps.wall does not hold every edge")
	}
	for i, e := range allEdges {
		t.wall[i] = Wall{Edge: e}
	}
	for q := range t.knight {
		t.knight[q] = Knight{Square: grid.Square(q)}
	}
	t.look = [2]adjudicator.Move{Look{Pile: 1}, Look{Pile: 2}}
	for q := range t.extend {
		t.extend[q] = Extend{Square: grid.Square(q)}
	}
	bids := make([]Bid, len(t.bid)*len(t.bid[0]))
	for set := range t.bid {
		// The treasures of the set, largest first, as Legal lists them.
		var sub [4]uint8
		k := 0
		for i := len(treasureValues) - 1; i >= 0; i-- {
			if set&(1<<i) != 0 {
				sub[k] = treasureValues[i]
				k++
			}
		}
		for n := range t.bid[set] {
			b := &bids[set*len(t.bid[0])+n]
			*b = Bid{Ducats: n, Treasures: sub}
			t.bid[set][n] = b
		}
	}
	var nb [4]grid.Square
	for q := range t.place {
		for j, k := range board.Neighbours(nb[:0], grid.Square(q)) {
			t.place[q][j] = Place{Castle: grid.Square(q), Knight: k}
		}
	}
	return t
}()

// stepNames holds the notation of the frequent steps, made once for a
// search, which names the steps it tries: a wall or a placement from a
// square to each of its neighbours (nextTo), a knight paid in ducats and
// an extension that names no region, on each square.
var stepNames = func() (t struct {
	wall, place    [width * height][4]string
	knight, extend [width * height]string
}) {
	for q := range grid.Square(width * height) {
		for d, n := range [4]grid.Square{q - width, q - 1, q + 1, q + width} {
			if n >= 0 && n < width*height {
				t.wall[q][d] = Wall{Edge: grid.Edge{A: q, B: n}}.name()
				t.place[q][d] = Place{Castle: q, Knight: n}.name()
			}
		}
		t.knight[q] = "knight " + board.Name(q)
		t.extend[q] = "extend " + board.Name(q)
	}
	return t
}()

// nextTo returns which of the squares above, left of, right of and below
// a (counted as width a row, across the board's edges) b is, the index of
// stepNames.wall and stepNames.place, when a is on the board.
func nextTo(a, b grid.Square) (int, bool) {
	if a < 0 || a >= width*height {
		return 0, false
	}
	switch b - a {
	case -width:
		return 0, b >= 0
	case -1:
		return 1, b >= 0
	case 1:
		return 2, b < width*height
	case width:
		return 3, b < width*height
	}
	return 0, false
}

// appendWallSteps appends the step of a wall on every edge of allEdges
// where edgeFail passes, in their order: edgeFail written out for
// Legal's most frequent list, the areas read once. TestFastChecks holds
// it to edgeFail.
func (s *State) appendWallSteps(out []adjudicator.Move) []adjudicator.Move {
	lab, ar := s.info()
	out = slices.Grow(out, len(allEdges)+1)
	for i, e := range allEdges {
		if s.g.WallOn(e) || s.samePair(e.A, e.B) {
			continue
		}
		if a := &ar[lab[e.A]]; a.region() && a.owner >= 0 {
			continue
		}
		out = append(out, steps.wall[i])
	}
	return out
}

// appendExtend appends p's extension steps to out, in square order, the
// region named (From) where the square alone would not say which.
func (s *State) appendExtend(out []adjudicator.Move, p int) []adjudicator.Move {
	a := &s.act
	var froms []grid.Square
	if a.extOpen && a.ext < 2 {
		froms = []grid.Square{a.extFrom}
	} else if a.ext == 0 && a.uses() < a.budget() {
		lab, ar := s.info()
		var at [castlesAtMost]grid.Square
		for _, q := range s.appendRegionCastles(at[:0]) {
			if ar[lab[q]].owner == p {
				froms = append(froms, q)
			}
		}
	}
	lab, _ := s.info()
	var nb [4]grid.Square
	var okAt [4]grid.Square
	for q := range grid.Square(board.Len()) {
		ok := okAt[:0]
		for _, f := range froms {
			if lab[q] == lab[f] {
				continue // not near: q is in f's area
			}
			near := false
			for _, n := range board.Neighbours(nb[:0], q) {
				if lab[n] == lab[f] {
					near = true
					break
				}
			}
			if near {
				if fail, _ := s.annexFail(p, f, q); fail == annexOK {
					ok = append(ok, f)
				}
			}
		}
		for _, f := range ok {
			m := Extend{Square: q}
			if _, err := s.extendFrom(p, m); err != nil {
				m.From, m.HasFrom = f, true
				out = append(out, m)
			} else {
				out = append(out, steps.extend[q])
			}
		}
	}
	return out
}

// renegadeMoves lists up to limit renegade steps (0: all).
func (s *State) renegadeMoves(p, limit int) []adjudicator.Move {
	if s.reserve[p] == 0 {
		return nil
	}
	lab, ar := s.info()
	var out []adjudicator.Move
	for x, v := range s.knight {
		if v < 0 || int(v) == p || !ar[lab[x]].region() || ar[lab[x]].owner != int(v) {
			continue
		}
		if !s.connected(int(v), grid.Square(x)) || s.between(int(v), grid.Square(x)) {
			continue
		}
		for y := range grid.Square(board.Len()) {
			yl := lab[y]
			if !ar[yl].region() || ar[yl].owner != p || s.knightFail(p, y) != knightOK || !s.bordering(yl, lab[x]) {
				continue
			}
			m := RenegadeMove{Remove: grid.Square(x), Place: y}
			for _, t := range s.payVariants(p, s.renegadeCost(m)) {
				m.Treasure = t
				out = append(out, m)
				if limit > 0 && len(out) >= limit {
					return out
				}
			}
		}
	}
	return out
}

// allianceMoves lists up to limit alliance steps, each naming the two
// regions by their castles.
func (s *State) allianceMoves(p, limit int) []adjudicator.Move {
	var out []adjudicator.Move
	castles := s.regionCastles()
	for _, a := range castles {
		if int(s.castle[a]) != p {
			continue
		}
		for _, b := range castles {
			m := AllianceMove{Mine: a, Theirs: b}
			if int(s.castle[b]) != p && s.allianceFail(p, m) == allyOK {
				out = append(out, m)
				if limit > 0 && len(out) >= limit {
					return out
				}
			}
		}
	}
	return out
}
