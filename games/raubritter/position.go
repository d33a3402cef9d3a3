package raubritter

import (
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/yamldoc"
	"gopkg.in/yaml.v3"
)

// Position returns the complete position as a YAML node in the format of
// the package doc, canonical: board squares row by row, players in seating
// order, English words.
func (s *State) Position() any {
	root := mapping()
	add(root, "phase", scalar(phaseNames[s.phase]))
	if s.phase == phasePlay {
		add(root, "turn", scalar(s.names[s.turn]))
		add(root, "placed", scalar(strconv.Itoa(s.placed)))
		if s.pending >= 0 {
			add(root, "castle", scalar(s.square(s.pending).String()))
		}
	}
	board := mapping()
	for i := range s.cells {
		c := &s.cells[i]
		if !c.placed {
			continue
		}
		v := c.kind.String()
		if c.n > 0 {
			owners := make([]string, c.n)
			for j := range owners {
				owners[j] = s.names[c.k[j]]
			}
			v += " / " + strings.Join(owners, " ")
		}
		add(board, s.square(i).String(), scalar(v))
	}
	add(root, "board", board)
	players := mapping()
	for i, n := range s.names {
		p := s.players[i]
		pm := mapping()
		add(pm, "knights", scalar(strconv.Itoa(p.knights)))
		hand := make([]string, len(p.hand))
		for j, k := range p.hand {
			hand[j] = k.String()
		}
		add(pm, "hand", flow(hand))
		stack := make([]string, len(p.stack))
		for j, t := range p.stack {
			stack[j] = t.String()
		}
		add(pm, "stack", flow(stack))
		if s.phase == phaseSetup {
			add(pm, "kept", scalar(strconv.FormatBool(p.kept)))
			slots := make([]string, len(p.slots))
			for j, q := range p.slots {
				slots[j] = q.String()
			}
			add(pm, "slots", flow(slots))
			layout := make([]string, len(p.layout))
			for j, k := range p.layout {
				layout[j] = k.String()
			}
			add(pm, "layout", flow(layout))
		}
		add(players, n, pm)
	}
	add(root, "players", players)
	return root
}

// The document helpers are shared with the other games (yamldoc).
func mapping() *yaml.Node                        { return yamldoc.Mapping() }
func scalar(v string) *yaml.Node                 { return yamldoc.Scalar(v) }
func flow(items []string) *yaml.Node             { return yamldoc.Flow(items) }
func add(m *yaml.Node, key string, v *yaml.Node) { yamldoc.Add(m, key, v) }

// posError is an error at a node of the position document.
func posError(n *yaml.Node, format string, args ...any) error {
	return yamldoc.Errorf(n, format, args...)
}

var positionKeys = []string{"phase", "turn", "placed", "castle", "board", "players"}
var playerKeys = []string{"knights", "hand", "stack", "kept", "slots", "layout"}

func checkNodeKeys(m *yaml.Node, allowed []string, what string) error {
	return yamldoc.CheckKeys(m, allowed, what)
}

// where remembers the nodes of a position document, so that a fault found
// once everything is read is reported where it is written.
type where struct {
	root, board          *yaml.Node          // the document, and the board: key
	turn, placed, castle *yaml.Node          // those keys' values
	squares              map[int]*yaml.Node  // board square keys, by cell index
	players              []*yaml.Node        // each player's name key
	knights              []*yaml.Node        // each player's knights: value
	hands                []*yaml.Node        // each player's hand: value
	lastKind             map[Kind]*yaml.Node // the last tile of each kind read
}

// at returns the first of nodes that is there, else the document.
func (w *where) at(nodes ...*yaml.Node) *yaml.Node {
	for _, n := range nodes {
		if n != nil {
			return n
		}
	}
	return w.root
}

// loadPosition reads a position document and checks it is one the game can
// reach: every count within the supply, no stack over 4, hands within their
// limit, tiles connected edge to edge inside the area limit, players named
// as in the game. Left-out parts take the defaults of the package doc.
func loadPosition(setup adjudicator.Setup, n *yaml.Node) (adjudicator.State, error) {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil, posError(n, "a Raubritter position is a mapping with keys %s", strings.Join(positionKeys, ", "))
	}
	if err := checkNodeKeys(n, positionKeys, "the position"); err != nil {
		return nil, err
	}
	data, err := gameData(setup)
	if err != nil {
		return nil, err
	}
	s := newFrame(data, setup.Players)
	w := &where{
		root:     n,
		squares:  map[int]*yaml.Node{},
		players:  make([]*yaml.Node, len(s.names)),
		knights:  make([]*yaml.Node, len(s.names)),
		hands:    make([]*yaml.Node, len(s.names)),
		lastKind: map[Kind]*yaml.Node{},
	}
	s.phase = phasePlay
	if v := get(n, "phase"); v != nil {
		i := slices.Index(phaseNames[:], v.Value)
		if i < 0 || v.Kind != yaml.ScalarNode {
			return nil, posError(v, "phase %q: expected setup, play or over", v.Value)
		}
		s.phase = phase(i)
	}
	// The board.
	onBoard := make([]int, len(s.names))
	used := map[Kind]int{}
	if err := s.loadBoard(n, w, onBoard, used); err != nil {
		return nil, err
	}
	if err := s.loadPlayers(n, w, onBoard, used); err != nil {
		return nil, err
	}
	w.turn, w.placed, w.castle = get(n, "turn"), get(n, "placed"), get(n, "castle")
	if err := s.loadTurn(n, w); err != nil {
		return nil, err
	}
	return s, nil
}

// loadBoard reads the tiles laid and the knights on them, counting the
// knights of each player and the tiles of each kind.
func (s *State) loadBoard(n *yaml.Node, w *where, onBoard []int, used map[Kind]int) error {
	if b := get(n, "board"); b != nil && !(b.Kind == yaml.ScalarNode && b.Tag == "!!null") {
		if b.Kind != yaml.MappingNode {
			return posError(b, "board: expected a mapping of squares to tiles, like f6: plain castle / red")
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "board" {
				w.board = n.Content[i]
			}
		}
		for i := 0; i+1 < len(b.Content); i += 2 {
			k, v := b.Content[i], b.Content[i+1]
			q, err := ParseSquare(k.Value)
			if err != nil {
				return posError(k, "board: %q is not a square: %v", k.Value, err)
			}
			c := s.at(q)
			if c == nil {
				return posError(k, "board: %s is off the board; with %d players squares run from a1 to %s",
					q, len(s.names), Square{s.h - 1, s.w - 1})
			}
			if c.placed {
				return posError(k, "board: %s is given twice", q)
			}
			kind, owners, err := s.parseBoardValue(v)
			if err != nil {
				return err
			}
			s.lay(q, kind)
			used[kind]++
			w.squares[q.Row*s.w+q.Col] = k
			w.lastKind[kind] = v
			if len(owners) > 0 {
				if _, ok := kind.Terrain.Stay(); !ok {
					return posError(v, "board: %s is a lake; no knight can stand on it (raubritter-fr-scan.txt:163)", q)
				}
			}
			if len(owners) > 4 {
				return posError(v, "board: %s has %d knights; a tile holds at most 4 (raubritter-fr-scan.txt:167)", q, len(owners))
			}
			for j, o := range owners {
				c.k[j] = uint8(o)
				onBoard[o]++
			}
			c.n = uint8(len(owners))
		}
	}
	return nil
}

// loadPlayers reads each player's knights, hand and stack, and checks the
// knights and tiles against what the players own.
func (s *State) loadPlayers(n *yaml.Node, w *where, onBoard []int, used map[Kind]int) error {
	given := map[int]bool{}
	if pn := get(n, "players"); pn != nil {
		if pn.Kind != yaml.MappingNode {
			return posError(pn, "players: expected a mapping of player names to their knights, hand and stack")
		}
		for i := 0; i+1 < len(pn.Content); i += 2 {
			k, v := pn.Content[i], pn.Content[i+1]
			idx := s.index(k.Value)
			if idx < 0 {
				return posError(k, "players: %q is not a player of this game (players: %s)", k.Value, strings.Join(s.names, ", "))
			}
			if given[idx] {
				return posError(k, "players: %s is given twice", k.Value)
			}
			if err := s.loadPlayer(idx, v, onBoard[idx], used, w); err != nil {
				return err
			}
			w.players[idx], w.knights[idx], w.hands[idx] = k, get(v, "knights"), get(v, "hand")
			given[idx] = true
		}
	}
	for i, p := range s.players {
		if !given[i] {
			p.knights = s.data.Knights - onBoard[i]
		}
		if p.knights+onBoard[i] > s.data.Knights {
			return posError(w.at(w.knights[i], w.players[i], w.board), "player %s has %s on the board and %d left, more than the %d they own",
				s.names[i], nKnights(onBoard[i]).EN, p.knights, s.data.Knights)
		}
	}
	for _, k := range sortedKinds(used) {
		if c, most := used[k], s.data.Total(k)*len(s.names); c > most {
			return posError(w.at(w.lastKind[k]), "the position has %d %s tiles; %d players have only %d", c, k, len(s.names), most)
		}
	}
	return nil
}

// get returns the value of key in mapping m, or nil.
func get(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// parseBoardValue reads "plain castle / red blue".
func (s *State) parseBoardValue(v *yaml.Node) (Kind, []int, error) {
	if v.Kind != yaml.ScalarNode {
		return Kind{}, nil, posError(v, "board: expected a tile like \"plain castle\" or \"forest village / red blue\"")
	}
	tilePart, knightPart, hasKnights := strings.Cut(v.Value, "/")
	kind, err := ParseKind(strings.TrimSpace(tilePart))
	if err != nil {
		return Kind{}, nil, posError(v, "board: %q: %v", v.Value, err)
	}
	var owners []int
	if hasKnights {
		for _, name := range strings.Fields(knightPart) {
			o := s.index(name)
			if o < 0 {
				return Kind{}, nil, posError(v, "board: knight owner %q is not a player of this game (players: %s)", name, strings.Join(s.names, ", "))
			}
			owners = append(owners, o)
		}
	}
	return kind, owners, nil
}

func (s *State) loadPlayer(idx int, v *yaml.Node, onBoard int, used map[Kind]int, w *where) error {
	name := s.names[idx]
	p := s.players[idx]
	if v.Kind != yaml.MappingNode {
		return posError(v, "players: %s: expected a mapping with %s", name, strings.Join(playerKeys, ", "))
	}
	if err := checkNodeKeys(v, playerKeys, "player "+name); err != nil {
		return err
	}
	p.knights = s.data.Knights - onBoard
	mine := map[Kind]int{}
	kinds := func(n *yaml.Node, what string) ([]Kind, error) {
		if n.Kind != yaml.SequenceNode {
			return nil, posError(n, "%s's %s: expected a list of tiles, like [plain castle, lake]", name, what)
		}
		var out []Kind
		for _, it := range n.Content {
			k, err := ParseKind(it.Value)
			if err != nil || it.Kind != yaml.ScalarNode {
				return nil, posError(it, "%s's %s: %q is not a tile: %v", name, what, it.Value, err)
			}
			out = append(out, k)
			mine[k]++
			used[k]++
			w.lastKind[k] = it
		}
		return out, nil
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		var err error
		switch k.Value {
		case "knights":
			n, e := strconv.Atoi(val.Value)
			if e != nil || n < 0 || val.Kind != yaml.ScalarNode {
				return posError(val, "%s's knights: expected the number of knights left, 0 to %d", name, s.data.Knights)
			}
			p.knights = n
		case "hand":
			p.hand, err = kinds(val, "hand")
		case "layout":
			p.layout, err = kinds(val, "layout")
		case "kept":
			b, e := strconv.ParseBool(val.Value)
			if e != nil {
				return posError(val, "%s's kept: expected true or false", name)
			}
			p.kept = b
		case "slots":
			if val.Kind != yaml.SequenceNode {
				return posError(val, "%s's slots: expected a list of two squares of the start layout", name)
			}
			for _, it := range val.Content {
				q, e := ParseSquare(it.Value)
				if e != nil || !slices.Contains(s.layoutSquares(), q) {
					return posError(it, "%s's slots: %q is not a square of the start layout", name, it.Value)
				}
				p.slots = append(p.slots, q)
			}
		case "stack":
			p.stack, err = s.loadStack(name, val, mine, used, w)
		}
		if err != nil {
			return err
		}
	}
	for _, k := range sortedKinds(mine) {
		if c := mine[k]; c > s.data.Total(k) {
			return posError(v, "%s holds %d %s tiles in hand and stack; a player has only %d", name, c, k, s.data.Total(k))
		}
	}
	return nil
}

// loadStack reads a player's stack, top first, each tile with its back
// letter, counting its tiles in mine and used.
func (s *State) loadStack(name string, val *yaml.Node, mine, used map[Kind]int, w *where) ([]Tile, error) {
	var stack []Tile
	if val.Kind != yaml.SequenceNode {
		return nil, posError(val, "%s's stack: expected a list of tiles, top first, like [B plain, B lake]", name)
	}
	last := byte('B')
	type lettered struct {
		letter byte
		kind   Kind
	}
	perLetter := map[lettered]int{}
	for _, it := range val.Content {
		letter, rest, _ := strings.Cut(strings.TrimSpace(it.Value), " ")
		kind, e := ParseKind(rest)
		if len(letter) != 1 || !strings.Contains(letters[1:], strings.ToUpper(letter)) || e != nil {
			return nil, posError(it, "%s's stack: %q: expected a back letter B to E and a tile, like \"C plain village\"", name, it.Value)
		}
		l := strings.ToUpper(letter)[0]
		if l < last {
			return nil, posError(it, "%s's stack: %c comes after %c; the stack runs B on top to E at the bottom (raubritter-fr-scan.txt:67)", name, l, last)
		}
		last = l
		// The back letter is part of the tile: a player's B tiles
		// are the data's letter B, no other (raubritter-fr-scan.txt:61-70).
		perLetter[lettered{l, kind}]++
		if c, most := perLetter[lettered{l, kind}], s.data.count(l, kind); c > most {
			if most == 0 {
				return nil, posError(it, "%s's stack: %q: no %s tile has the letter %c on its back (%c: %s)",
					name, it.Value, kind, l, l, kindWords(s.data.Letters[l]).EN)
			}
			return nil, posError(it, "%s's stack: %q: the stack has %d %s tiles with the letter %c; a player has only %d",
				name, it.Value, c, kind, l, most)
		}
		stack = append(stack, Tile{Letter: l, Kind: kind})
		mine[kind]++
		used[kind]++
		w.lastKind[kind] = it
	}
	return stack, nil
}

// sortedKinds returns the kinds counted in m, in terrain then building
// order, so that the same position always gets the same error.
func sortedKinds(m map[Kind]int) []Kind {
	out := make([]Kind, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Kind) int {
		if a.Terrain != b.Terrain {
			return int(a.Terrain) - int(b.Terrain)
		}
		return int(a.Building) - int(b.Building)
	})
	return out
}

// loadTurn reads and checks the turn, the phase-specific fields and the
// shape of the board.
func (s *State) loadTurn(n *yaml.Node, w *where) error {
	if v := w.turn; v != nil {
		s.turn = s.index(v.Value)
		if s.turn < 0 {
			return posError(v, "turn: %q is not a player of this game (players: %s)", v.Value, strings.Join(s.names, ", "))
		}
	}
	if s.phase != phasePlay {
		// Only a turn in play has tiles laid and a castle waiting; what
		// Position would not write back is refused rather than lost.
		for _, v := range []*yaml.Node{w.placed, w.castle} {
			if v != nil {
				return posError(v, "placed and castle describe a turn in play; the phase is %s", phaseNames[s.phase])
			}
		}
	}
	if v := w.placed; v != nil {
		p, err := strconv.Atoi(v.Value)
		if err != nil || p < 0 || p > 3 {
			return posError(v, "placed: expected the number of tiles laid this turn, 0 to 3")
		}
		s.placed = p
	}
	if v := w.castle; v != nil {
		q, err := ParseSquare(v.Value)
		c := s.at(q)
		if err != nil || c == nil || !c.placed || c.kind.Building != Castle {
			return posError(v, "castle: %q is not a square with a castle on the board", v.Value)
		}
		if c.n > 0 {
			return posError(v, "castle: the castle at %s already has knights; only a castle just laid waits for knights", q)
		}
		if left := s.players[s.turn].knights; left == 0 {
			return posError(v, "castle: %s has no knights left to put on it (raubritter-fr-scan.txt:186)", s.names[s.turn])
		} else if keeps := castleKeeps(c.kind); left < keeps {
			return posError(v, "castle: %s has only %s left and the %s at %s keeps at least %d, so it takes none (raubritter-fr-scan.txt:173)",
				s.names[s.turn], nKnights(left).EN, c.kind, q, keeps)
		}
		if s.placed == 0 {
			s.placed = 1
		}
		s.pending = q.Row*s.w + q.Col
	}
	if s.placed == 3 && s.pending < 0 {
		return posError(w.at(w.placed), "placed: after the third tile the turn is over, unless its castle waits for knights (castle:)")
	}
	for i, p := range s.players {
		limit := 2
		if s.phase == phaseSetup && !p.kept {
			limit = 4
		}
		if len(p.hand) > limit {
			return posError(w.at(w.hands[i]), "%s has %d tiles in hand; the most is %d", s.names[i], len(p.hand), limit)
		}
		if s.phase != phaseSetup && (len(p.slots) > 0 || len(p.layout) > 0 || p.kept) {
			return posError(w.at(w.players[i]), "%s has setup fields (kept, slots, layout) but the phase is %s", s.names[i], phaseNames[s.phase])
		}
	}
	switch s.phase {
	case phaseSetup:
		return s.checkSetup(n, w)
	case phasePlay:
		if _, _, _, _, ok := s.bbox(); !ok {
			return posError(n, "the board is empty; in play the start layout at least is on the table")
		}
		if len(s.players[s.turn].hand) == 0 && s.pending < 0 {
			return posError(w.at(w.turn), "it is %s's turn, but %s has no tile in hand", s.names[s.turn], s.names[s.turn])
		}
	case phaseOver:
		for i, p := range s.players {
			if len(p.hand)+len(p.stack) > 0 {
				return posError(w.at(w.players[i]), "phase over, but %s still has tiles to lay", s.names[i])
			}
		}
	}
	r0, r1, c0, c1, _ := s.bbox()
	if r1-r0+1 > s.limit || c1-c0+1 > s.limit {
		return posError(w.at(w.board), "the board spans %dx%d tiles; with %d players it may not exceed %dx%d (%s)",
			c1-c0+1, r1-r0+1, len(s.names), s.limit, s.limit, areaRule[len(s.names)])
	}
	if stray := s.stray(); stray >= 0 {
		return posError(w.at(w.squares[stray], w.board), "%s is not joined edge to edge to the other tiles on the board (raubritter-fr-scan.txt:95)", s.square(stray))
	}
	return nil
}

// checkSetup checks a setup position: an empty board, each player's two
// slots of the start layout, and hands of four A tiles before the choice
// or the castle and the tile kept after it (raubritter-fr-scan.txt:72-78).
func (s *State) checkSetup(n *yaml.Node, w *where) error {
	if _, _, _, _, ok := s.bbox(); ok {
		return posError(w.at(w.board), "setup: the board is empty until every player has kept an A tile")
	}
	waiting := false
	var taken []Square
	for i, p := range s.players {
		if len(p.slots) != 2 {
			return posError(w.at(w.players[i]), "setup: %s needs slots, the two squares of the start layout their tiles go on", s.names[i])
		}
		for _, q := range p.slots {
			if slices.Contains(taken, q) {
				return posError(w.at(w.players[i]), "setup: %s's slot %s is another slot too; each square of the start layout takes one tile", s.names[i], q)
			}
			taken = append(taken, q)
		}
		castles := 0
		for _, k := range p.hand {
			if k.Building == Castle {
				castles++
			}
		}
		// Before the choice the hand is the four A tiles, after it the
		// castle and the tile kept (raubritter-fr-scan.txt:72-78).
		want := 4
		if p.kept {
			want = 2
			if len(p.layout) != 2 {
				return posError(w.at(w.players[i]), "setup: %s kept a tile, so their layout lists the two A tiles set aside", s.names[i])
			}
		} else {
			waiting = true
		}
		if len(p.hand) != want || castles == 0 {
			return posError(w.at(w.hands[i], w.players[i]), "setup: %s's hand holds %d tiles; it must be %d with a castle", s.names[i], len(p.hand), want)
		}
	}
	if !waiting {
		return posError(n, "setup: every player has kept a tile, so the start layout is laid and the phase is play")
	}
	return nil
}

// stray returns the index of a laid tile not joined edge to edge to the
// first one (in reading order), or -1 when the laid tiles form one group.
func (s *State) stray() int {
	start := slices.IndexFunc(s.cells, func(c cell) bool { return c.placed })
	if start < 0 {
		return -1
	}
	seen := map[int]bool{start: true}
	queue := []int{start}
	for len(queue) > 0 {
		q := s.square(queue[0])
		queue = queue[1:]
		for _, d := range []Direction{North, South, East, West} {
			dr, dc := d.delta()
			nq := Square{q.Row + dr, q.Col + dc}
			if c := s.at(nq); c != nil && c.placed {
				i := nq.Row*s.w + nq.Col
				if !seen[i] {
					seen[i] = true
					queue = append(queue, i)
				}
			}
		}
	}
	for i := range s.cells {
		if s.cells[i].placed && !seen[i] {
			return i
		}
	}
	return -1
}
