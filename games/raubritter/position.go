package raubritter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
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

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func flow(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, it := range items {
		n.Content = append(n.Content, scalar(it))
	}
	return n
}

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalar(key), v)
}

// posError is an error at a node of the position document.
func posError(n *yaml.Node, format string, args ...any) error {
	return &notation.Error{Pos: notation.Pos{Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)}
}

var positionKeys = []string{"phase", "turn", "placed", "castle", "board", "players"}
var playerKeys = []string{"knights", "hand", "stack", "kept", "slots", "layout"}

func checkNodeKeys(m *yaml.Node, allowed []string, what string) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if !slices.Contains(allowed, k.Value) {
			var v notation.Vocabulary
			for _, a := range allowed {
				v = append(v, notation.Term{Name: a})
			}
			if sug := v.Suggest(k.Value, notation.English); len(sug) > 0 {
				return posError(k, "unknown key %q in %s; did you mean %q?", k.Value, what, sug[0])
			}
			return posError(k, "unknown key %q in %s (expected one of %s)", k.Value, what, strings.Join(allowed, ", "))
		}
	}
	return nil
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
	s := newFrame(DefaultData, setup.Players)
	get := func(m *yaml.Node, key string) *yaml.Node {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return m.Content[i+1]
			}
		}
		return nil
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
	if b := get(n, "board"); b != nil && !(b.Kind == yaml.ScalarNode && b.Tag == "!!null") {
		if b.Kind != yaml.MappingNode {
			return nil, posError(b, "board: expected a mapping of squares to tiles, like f6: plain castle / red")
		}
		for i := 0; i+1 < len(b.Content); i += 2 {
			k, v := b.Content[i], b.Content[i+1]
			q, err := ParseSquare(k.Value)
			if err != nil {
				return nil, posError(k, "board: %q is not a square: %v", k.Value, err)
			}
			c := s.at(q)
			if c == nil {
				return nil, posError(k, "board: %s is off the board; with %d players squares run from a1 to %s",
					q, len(s.names), Square{s.h - 1, s.w - 1})
			}
			if c.placed {
				return nil, posError(k, "board: %s is given twice", q)
			}
			kind, owners, err := s.parseBoardValue(v)
			if err != nil {
				return nil, err
			}
			c.placed, c.kind = true, kind
			used[kind]++
			if len(owners) > 0 {
				if _, ok := kind.Terrain.Stay(); !ok {
					return nil, posError(v, "board: %s is a lake; no knight can stand on it (raubritter-fr-scan.txt:163)", q)
				}
			}
			if len(owners) > 4 {
				return nil, posError(v, "board: %s has %d knights; a tile holds at most 4 (raubritter-fr-scan.txt:167)", q, len(owners))
			}
			for j, o := range owners {
				c.k[j] = uint8(o)
				onBoard[o]++
			}
			c.n = uint8(len(owners))
		}
	}
	// Players.
	given := map[int]bool{}
	if pn := get(n, "players"); pn != nil {
		if pn.Kind != yaml.MappingNode {
			return nil, posError(pn, "players: expected a mapping of player names to their knights, hand and stack")
		}
		for i := 0; i+1 < len(pn.Content); i += 2 {
			k, v := pn.Content[i], pn.Content[i+1]
			idx := s.index(k.Value)
			if idx < 0 {
				return nil, posError(k, "players: %q is not a player of this game (players: %s)", k.Value, strings.Join(s.names, ", "))
			}
			if err := s.loadPlayer(idx, v, onBoard[idx], used); err != nil {
				return nil, err
			}
			given[idx] = true
		}
	}
	for i, p := range s.players {
		if !given[i] {
			p.knights = s.data.Knights - onBoard[i]
		}
		if p.knights+onBoard[i] > s.data.Knights {
			return nil, posError(n, "player %s has %d knights on the board and %d left, more than the %d they own",
				s.names[i], onBoard[i], p.knights, s.data.Knights)
		}
	}
	for k, c := range used {
		if most := s.data.Total(k) * len(s.names); c > most {
			return nil, posError(n, "the position has %d %s tiles; %d players have only %d", c, k, len(s.names), most)
		}
	}
	if err := s.loadTurn(n, get); err != nil {
		return nil, err
	}
	return s, nil
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

func (s *State) loadPlayer(idx int, v *yaml.Node, onBoard int, used map[Kind]int) error {
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
			if val.Kind != yaml.SequenceNode {
				return posError(val, "%s's stack: expected a list of tiles, top first, like [B plain, B lake]", name)
			}
			last := byte('B')
			for _, it := range val.Content {
				letter, rest, _ := strings.Cut(strings.TrimSpace(it.Value), " ")
				kind, e := ParseKind(rest)
				if len(letter) != 1 || !strings.Contains(letters[1:], strings.ToUpper(letter)) || e != nil {
					return posError(it, "%s's stack: %q: expected a back letter B to E and a tile, like \"C plain village\"", name, it.Value)
				}
				l := strings.ToUpper(letter)[0]
				if l < last {
					return posError(it, "%s's stack: %c comes after %c; the stack runs B on top to E at the bottom (raubritter-fr-scan.txt:67)", name, l, last)
				}
				last = l
				p.stack = append(p.stack, Tile{Letter: l, Kind: kind})
				mine[kind]++
				used[kind]++
			}
		}
		if err != nil {
			return err
		}
	}
	for k, c := range mine {
		if c > s.data.Total(k) {
			return posError(v, "%s holds %d %s tiles in hand and stack; a player has only %d", name, c, k, s.data.Total(k))
		}
	}
	return nil
}

// loadTurn reads and checks the turn, the phase-specific fields and the
// shape of the board.
func (s *State) loadTurn(n *yaml.Node, get func(*yaml.Node, string) *yaml.Node) error {
	if v := get(n, "turn"); v != nil {
		s.turn = s.index(v.Value)
		if s.turn < 0 {
			return posError(v, "turn: %q is not a player of this game (players: %s)", v.Value, strings.Join(s.names, ", "))
		}
	}
	if v := get(n, "placed"); v != nil {
		p, err := strconv.Atoi(v.Value)
		if err != nil || p < 0 || p > 3 {
			return posError(v, "placed: expected the number of tiles laid this turn, 0 to 3")
		}
		s.placed = p
	}
	if v := get(n, "castle"); v != nil {
		q, err := ParseSquare(v.Value)
		c := s.at(q)
		if err != nil || c == nil || !c.placed || c.kind.Building != Castle {
			return posError(v, "castle: %q is not a square with a castle on the board", v.Value)
		}
		if c.n > 0 {
			return posError(v, "castle: the castle at %s already has knights; only a castle just laid waits for knights", q)
		}
		if s.players[s.turn].knights == 0 {
			return posError(v, "castle: %s has no knights left to put on it (raubritter-fr-scan.txt:186)", s.names[s.turn])
		}
		if s.placed == 0 {
			s.placed = 1
		}
		s.pending = q.Row*s.w + q.Col
	}
	for i, p := range s.players {
		limit := 2
		if s.phase == phaseSetup && !p.kept {
			limit = 4
		}
		if len(p.hand) > limit {
			return posError(n, "%s has %d tiles in hand; the most is %d", s.names[i], len(p.hand), limit)
		}
		if s.phase != phaseSetup && (len(p.slots) > 0 || len(p.layout) > 0 || p.kept) {
			return posError(n, "%s has setup fields (kept, slots, layout) but the phase is %s", s.names[i], phaseNames[s.phase])
		}
	}
	switch s.phase {
	case phaseSetup:
		for i, p := range s.players {
			if len(p.slots) != 2 {
				return posError(n, "setup: %s needs slots, the two squares of the start layout their tiles go on", s.names[i])
			}
			if p.kept && len(p.layout) != 2 {
				return posError(n, "setup: %s kept a tile, so their layout lists the two A tiles set aside", s.names[i])
			}
		}
		return nil
	case phasePlay:
		if _, _, _, _, ok := s.bbox(); !ok {
			return posError(n, "the board is empty; in play the start layout at least is on the table")
		}
		if len(s.players[s.turn].hand) == 0 && s.pending < 0 {
			return posError(n, "it is %s's turn, but %s has no tile in hand", s.names[s.turn], s.names[s.turn])
		}
	case phaseOver:
		for i, p := range s.players {
			if len(p.hand)+len(p.stack) > 0 {
				return posError(n, "phase over, but %s still has tiles to lay", s.names[i])
			}
		}
	}
	r0, r1, c0, c1, _ := s.bbox()
	if r1-r0+1 > s.limit || c1-c0+1 > s.limit {
		return posError(n, "the board spans %dx%d tiles; with %d players it may not exceed %dx%d (raubritter-fr-scan.txt:212)",
			c1-c0+1, r1-r0+1, len(s.names), s.limit, s.limit)
	}
	if !s.connected() {
		return posError(n, "the tiles on the board are not all joined edge to edge (raubritter-fr-scan.txt:95)")
	}
	return nil
}

// connected reports whether the laid tiles form one group, edge to edge.
func (s *State) connected() bool {
	start, total := -1, 0
	for i := range s.cells {
		if s.cells[i].placed {
			total++
			if start < 0 {
				start = i
			}
		}
	}
	if total == 0 {
		return true
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
	return len(seen) == total
}
