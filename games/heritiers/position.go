package heritiers

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
// the package doc, canonical: squares row by row, seats in order.
func (s *State) Position() any {
	root := mapping()
	phase := "play"
	if s.over {
		phase = "over"
	}
	add(root, "phase", scalar(phase))
	if !s.over {
		add(root, "turn", scalar(s.names[s.turn]))
	}
	sets := make([]string, len(s.sets))
	for i, set := range s.sets {
		sets[i] = set.String()
	}
	add(root, "sets", flow(sets))
	add(root, "taken", scalar(strconv.FormatBool(s.taken)))
	if s.took && !s.taken {
		add(root, "took", scalar("true"))
	}
	add(root, "discounts", scalar(strconv.Itoa(s.discounts)))
	var paid []string
	for _, q := range s.paidCells {
		paid = append(paid, squareName(int(q)))
	}
	paid = append(paid, s.ids(s.paidTiles)...)
	add(root, "paid", flow(paid))
	var destroy []string
	for _, q := range s.destroy {
		destroy = append(destroy, squareName(int(q)))
	}
	add(root, "destroy", flow(destroy))
	add(root, "last", scalar(strconv.Itoa(s.last)))
	if s.solo && s.lastBuilt >= 0 {
		add(root, "lastbuilt", scalar(squareName(int(s.lastBuilt))))
	}
	ring := make([]string, 6)
	for i, t := range s.ring {
		ring[i] = "-"
		if t >= 0 {
			ring[i] = s.tile(t).ID
		}
	}
	add(root, "reserve", flow(ring))
	add(root, "stack", flow(s.ids(s.stack)))
	add(root, "removed", flow(s.ids(s.removed)))
	add(root, "board", s.positionBoard())
	players := mapping()
	for seat := range s.players() {
		pm := mapping()
		add(pm, "hand", flow(s.ids(s.hands[seat])))
		add(pm, "reserve", scalar(strconv.Itoa(s.inReserveCount(seat))))
		var moved []string
		for _, t := range s.troops[seat] {
			switch {
			case !t.moved:
			case t.at == inReserve:
				moved = append(moved, "reserve")
			default:
				moved = append(moved, squareName(int(t.at)))
			}
		}
		add(pm, "moved", flow(moved))
		add(players, s.names[seat], pm)
	}
	if s.solo {
		hm := mapping()
		add(hm, "treasures", flow(treasureNames(s.treasures)))
		add(hm, "aside", flow(treasureNames(s.setAside)))
		add(hm, "won", flow(treasureNames(s.won)))
		add(players, Henri, hm)
	}
	add(root, "players", players)
	return root
}

// positionBoard returns the board of the position: each tile laid, in the
// order laid, with its owner, troops and treasure.
func (s *State) positionBoard() *yaml.Node {
	board := mapping()
	for _, at := range s.placed {
		i := int(at)
		c := &s.cells[i]
		if c.tile < 0 {
			continue
		}
		v := s.tile(c.tile).ID
		if c.open {
			v += " open"
		} else {
			v += " " + s.names[c.owner]
		}
		var troops []string
		for seat := range 2 {
			for k, t := range s.troops[seat] {
				if int(t.at) == i {
					troops = append(troops, s.troopName(seat, k))
				}
			}
		}
		if len(troops) > 0 {
			v += " / " + strings.Join(troops, " ")
		}
		if c.treasure >= 0 {
			v += " $" + treasureKinds[c.treasure].name
		}
		add(board, squareName(i), scalar(v))
	}
	return board
}

func (s *State) ids(ts []int16) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = s.tile(t).ID
	}
	return out
}

func treasureNames(ts []uint8) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = treasureKinds[t].name
	}
	return out
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

var positionKeys = []string{"phase", "turn", "sets", "taken", "took", "discounts", "paid", "destroy", "last", "lastbuilt",
	"reserve", "stack", "removed", "board", "players"}
var playerKeys = []string{"hand", "reserve", "moved"}
var henriKeys = []string{"treasures", "aside", "won"}

func checkNodeKeys(m *yaml.Node, allowed []string, what string) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		for j := 0; j < i; j += 2 {
			if m.Content[j].Value == k.Value {
				return posError(k, "%s: key %q is given twice (first on line %d)", what, k.Value, m.Content[j].Line)
			}
		}
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

func get(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// loader reads a position, remembering where each tile was named so that
// a tile given twice is reported where it is.
type loader struct {
	s      *State
	seen   map[int16]*yaml.Node
	inSet  map[int16]bool
	placed [2][3]bool // by seat, the troops on the board
}

func (l *loader) tileID(n *yaml.Node, what string) (int16, error) {
	if n.Kind != yaml.ScalarNode {
		return -1, posError(n, "%s: expected a tile id like auberge-1", what)
	}
	i := slices.IndexFunc(l.s.data.Tiles, func(t Tile) bool { return notation.Fold(t.ID) == notation.Fold(n.Value) })
	if i < 0 {
		return -1, posError(n, "%s: %q is not a tile id (ids are a building and a copy number, like auberge-1)", what, n.Value)
	}
	t := int16(i)
	if !l.inSet[t] {
		return -1, posError(n, "%s: %s is in the set %s, not in play (sets: %s)", what, l.s.tile(t).ID, l.s.tile(t).Set, l.s.setList())
	}
	if prev, dup := l.seen[t]; dup {
		return -1, posError(n, "%s: %s is already on line %d", what, l.s.tile(t).ID, prev.Line)
	}
	l.seen[t] = n
	return t, nil
}

func (l *loader) tileList(n *yaml.Node, what string) ([]int16, error) {
	if n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, posError(n, "%s: expected a list of tile ids, like [auberge-1, mine-1]", what)
	}
	var out []int16
	for _, it := range n.Content {
		t, err := l.tileID(it, what)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func list(n *yaml.Node, what string) ([]*yaml.Node, error) {
	if n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, posError(n, "%s: expected a list", what)
	}
	return n.Content, nil
}

func intValue(n *yaml.Node, what string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(n.Value)
	if err != nil || n.Kind != yaml.ScalarNode || v < lo || v > hi {
		return 0, posError(n, "%s: expected a whole number from %d to %d", what, lo, hi)
	}
	return v, nil
}

func squareValue(n *yaml.Node, what string) (int, error) {
	q, err := parseSquare(n.Value)
	if err != nil || n.Kind != yaml.ScalarNode {
		return 0, posError(n, "%s: %q is not a square: a column letter and a row number, a1 to y25", what, n.Value)
	}
	return q, nil
}

// loadPosition reads a position document and checks it is one the game can
// reach: every tile of the sets in play once (those named nowhere go to
// the bottom of the stack), at most one troop per tile
// (both cavalry together only), the cavalry on the board, hands within
// their limit, Henri never to move.
func loadPosition(setup adjudicator.Setup, n *yaml.Node) (adjudicator.State, error) {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil, posError(n, "a Deux Héritiers position is a mapping with keys %s", strings.Join(positionKeys, ", "))
	}
	if err := checkNodeKeys(n, positionKeys, "the position"); err != nil {
		return nil, err
	}
	data, err := gameData(setup)
	if err != nil {
		return nil, err
	}
	s, err := newEmpty(data, setup.Players, setup.Options)
	if err != nil {
		return nil, err
	}
	l := &loader{s: s, seen: map[int16]*yaml.Node{}, inSet: map[int16]bool{}}
	for _, pass := range []func(*yaml.Node) error{l.loadHead, l.loadTiles, l.loadBoard, l.loadPlayers, l.loadTurn} {
		if err := pass(n); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// loadHead reads the sets, the phase and the turn's progress: the tile
// taken, the discounts left, the last building.
func (l *loader) loadHead(n *yaml.Node) error {
	s := l.s
	// Sets.
	sn := get(n, "sets")
	if sn == nil {
		return posError(n, "the position needs sets: the 3 sets in play, like [voyage, agriculture, commerce]")
	}
	items, err := list(sn, "sets")
	if err != nil {
		return err
	}
	var names []string
	for _, it := range items {
		names = append(names, it.Value)
	}
	if s.sets, err = parseSets(strings.Join(names, ",")); err != nil {
		return posError(sn, "%v", strings.TrimPrefix(err.Error(), "option "))
	}
	for _, set := range s.sets {
		for _, t := range s.data.bySet[set] {
			l.inSet[t] = true
		}
	}
	if v := get(n, "phase"); v != nil {
		switch v.Value {
		case "play":
		case "over":
			s.over = true
		default:
			return posError(v, "phase %q: expected play or over", v.Value)
		}
	}
	if v := get(n, "taken"); v != nil {
		b, e := strconv.ParseBool(v.Value)
		if e != nil {
			return posError(v, "taken: expected true or false")
		}
		s.taken, s.took = b, b
	}
	if v := get(n, "took"); v != nil {
		b, e := strconv.ParseBool(v.Value)
		if e != nil {
			return posError(v, "took: expected true or false")
		}
		if s.taken && !b {
			return posError(v, "took: false, but taken is true: the tile of the turn is taken")
		}
		s.took = b || s.taken
	}
	if v := get(n, "discounts"); v != nil {
		if s.discounts, err = intValue(v, "discounts", 0, 54); err != nil {
			return err
		}
	}
	if v := get(n, "last"); v != nil {
		if s.last, err = intValue(v, "last", -1, 2); err != nil {
			return err
		}
	}
	if v := get(n, "lastbuilt"); v != nil {
		q, err := squareValue(v, "lastbuilt")
		if err != nil {
			return err
		}
		s.lastBuilt = int16(q)
	}
	return nil
}

// loadTiles reads the royal reserve, the stack and the tiles removed.
func (l *loader) loadTiles(n *yaml.Node) error {
	s := l.s
	var items []*yaml.Node
	var err error
	// The reserve.
	rn := get(n, "reserve")
	if rn == nil {
		return posError(n, "the position needs reserve: the 6 places clockwise from the shield, - for an empty one")
	}
	items, err = list(rn, "reserve")
	if err != nil {
		return err
	}
	if len(items) != 6 {
		return posError(rn, "reserve: expected 6 places clockwise from the shield, not %d", len(items))
	}
	for i, it := range items {
		s.ring[i] = -1
		if it.Value == "-" {
			continue
		}
		if s.ring[i], err = l.tileID(it, "reserve"); err != nil {
			return err
		}
	}
	if s.stack, err = l.tileList(get(n, "stack"), "stack"); err != nil {
		return err
	}
	if s.removed, err = l.tileList(get(n, "removed"), "removed"); err != nil {
		return err
	}
	if len(s.removed) > 0 && !s.solo {
		return posError(get(n, "removed"), "removed: only Henri discards tiles, in the solo game")
	}
	return nil
}

// loadBoard reads the tiles on the board, their owners, troops and treasures;
// the start tile must be there.
func (l *loader) loadBoard(n *yaml.Node) error {
	s := l.s
	// The board.
	for seat := range 2 {
		for k := range 3 {
			s.troops[seat][k] = troop{at: inReserve}
			if s.solo && seat == 1 {
				s.troops[seat][k].at = aside
			}
		}
	}
	if b := get(n, "board"); b != nil && !(b.Kind == yaml.ScalarNode && b.Tag == "!!null") {
		if b.Kind != yaml.MappingNode {
			return posError(b, "board: expected a mapping of squares to tiles, like m13: moulin-1 open / alice*")
		}
		for i := 0; i+1 < len(b.Content); i += 2 {
			k, v := b.Content[i], b.Content[i+1]
			q, err := squareValue(k, "board")
			if err != nil {
				return err
			}
			if s.cells[q].tile >= 0 {
				return posError(k, "board: %s is given twice", squareName(q))
			}
			if err := l.boardValue(q, v, &l.placed); err != nil {
				return err
			}
		}
	}
	if !s.hasTile(start) {
		return posError(n, "the board needs the start tile on %s", squareName(start))
	}
	return nil
}

// loadPlayers reads the players' hands, reserves and moved troops, and Henri's
// treasure tokens in the solo game.
func (l *loader) loadPlayers(n *yaml.Node) error {
	s := l.s
	// Players.
	pn := get(n, "players")
	given := [2]bool{}
	if pn != nil {
		if pn.Kind != yaml.MappingNode {
			return posError(pn, "players: expected a mapping of player names to their hand, reserve and moved troops")
		}
		for i := 0; i+1 < len(pn.Content); i += 2 {
			k, v := pn.Content[i], pn.Content[i+1]
			seat := s.seat(k.Value)
			if seat < 0 {
				return posError(k, "players: %q is not a player of this game (players: %s)", k.Value, strings.Join(s.names[:s.players()], ", "))
			}
			if given[seat] {
				return posError(k, "players: %s is given twice", k.Value)
			}
			given[seat] = true
			if v.Kind != yaml.MappingNode {
				return posError(v, "players: %s: expected a mapping", k.Value)
			}
			if s.solo && seat == 1 {
				if err := l.henri(v); err != nil {
					return err
				}
				continue
			}
			if err := l.player(seat, v); err != nil {
				return err
			}
		}
	}
	for seat := range s.players() {
		if !l.placed[seat][0] {
			return posError(n, "%s's cavalry is not on the board; it never leaves it (deux-heritiers-fr.txt:149)", s.names[seat])
		}
	}
	// The tiles of the sets named nowhere go to the bottom of the stack,
	// in the order of the tile list.
	for i := range s.data.Tiles {
		t := int16(i)
		if _, ok := l.seen[t]; l.inSet[t] && !ok {
			s.stack = append(s.stack, t)
		}
	}
	if s.solo {
		if !given[1] {
			return posError(n, "a solo position needs players: henri: with his treasure tokens (treasures, aside, won)")
		}
		var count [len(treasureKinds)]int
		for _, l := range [][]uint8{s.treasures, s.setAside, s.won} {
			for _, k := range l {
				count[k]++
			}
		}
		for _, at := range s.placed {
			i := int(at)
			if k := s.cells[i].treasure; k >= 0 {
				count[k]++
			}
		}
		for k, c := range count {
			if c != 1 {
				return posError(pn, "Henri's treasure token %s is listed %d times; each of the %d is once in the pile, aside, won or on the board",
					treasureKinds[k].name, c, len(treasureKinds))
			}
		}
	}
	return nil
}

// loadTurn reads the tiles paid and the square to destroy of the step under
// way, and whose turn it is.
func (l *loader) loadTurn(n *yaml.Node) error {
	s := l.s
	var items []*yaml.Node
	var err error
	// Paid and destroy.
	items, err = list(get(n, "paid"), "paid")
	if err != nil {
		return err
	}
	for _, it := range items {
		if q, e := parseSquare(it.Value); e == nil {
			s.paidCells = append(s.paidCells, int16(q))
			continue
		}
		i := slices.IndexFunc(s.data.Tiles, func(t Tile) bool { return notation.Fold(t.ID) == notation.Fold(it.Value) })
		if i < 0 {
			return posError(it, "paid: %q is neither a square nor a tile id", it.Value)
		}
		s.paidTiles = append(s.paidTiles, int16(i))
	}
	items, err = list(get(n, "destroy"), "destroy")
	if err != nil {
		return err
	}
	for _, it := range items {
		q, err := squareValue(it, "destroy")
		if err != nil {
			return err
		}
		s.destroy = append(s.destroy, int16(q))
	}
	// Whose turn.
	if v := get(n, "turn"); v != nil && !s.over {
		seat := s.seat(v.Value)
		if seat < 0 {
			return posError(v, "turn: %q is not a player of this game (players: %s)", v.Value, strings.Join(s.names[:s.players()], ", "))
		}
		if s.solo && seat == 1 {
			return posError(v, "turn: Henri never waits to move: he plays right after the player, so a position is always the player's turn (deux-heritiers-fr.txt:474)")
		}
		s.turn = seat
	}
	return nil
}

// boardValue reads "auberge-1 alice / alice* bob $v-green".
func (l *loader) boardValue(q int, v *yaml.Node, placed *[2][3]bool) error {
	s := l.s
	if v.Kind != yaml.ScalarNode {
		return posError(v, "board: expected a tile like \"auberge-1 alice\" or \"moulin-1 open / alice*\"")
	}
	text := v.Value
	treasure := -1
	if a, b, ok := strings.Cut(text, "$"); ok {
		k, ok := treasureByName(strings.TrimSpace(b))
		if !ok || !s.solo {
			return posError(v, "board: %s: %q is not a treasure token of the solo game", squareName(q), strings.TrimSpace(b))
		}
		treasure, text = int(k), a
	}
	tilePart, troopPart, _ := strings.Cut(text, "/")
	f := strings.Fields(tilePart)
	if len(f) != 2 {
		return posError(v, "board: %s: expected the tile id and its owner or open, like \"auberge-1 alice\"", squareName(q))
	}
	t, err := l.tileID(&yaml.Node{Kind: yaml.ScalarNode, Value: f[0], Line: v.Line, Column: v.Column}, "board")
	if err != nil {
		return err
	}
	c := &s.cells[q]
	c.tile = t
	s.noteTile(q)
	if f[1] == "open" {
		c.open = true
	} else {
		o := s.seat(f[1])
		if o < 0 {
			return posError(v, "board: %s: owner %q is not a player of this game; write a player's name or open", squareName(q), f[1])
		}
		c.owner = int8(o)
	}
	if treasure >= 0 {
		if c.owner == 0 {
			return posError(v, "board: %s: treasures lie on Henri's buildings (or on one destroyed since), never on the player's", squareName(q))
		}
		c.treasure = int8(treasure)
	}
	troops := strings.Fields(troopPart)
	if len(troops) > 2 || len(troops) == 2 && !(strings.HasSuffix(troops[0], "*") && strings.HasSuffix(troops[1], "*")) {
		return posError(v, "board: %s: one troop per tile; only the two cavalry share the start tile before they part (deux-heritiers-fr.txt:90)", squareName(q))
	}
	for _, name := range troops {
		seat, k := -1, -1
		switch {
		case s.solo && strings.HasPrefix(name, Henri+"-"):
			col, ok := colourByWord(strings.TrimPrefix(name, Henri+"-"))
			if ok {
				seat, k = 1, int(col)
			}
		case strings.HasSuffix(name, "*"):
			if seat = s.seat(strings.TrimSuffix(name, "*")); seat >= 0 && !(s.solo && seat == 1) {
				k = 0
			}
		default:
			if seat = s.seat(name); seat >= 0 && !(s.solo && seat == 1) {
				k = 1
				if placed[seat][1] {
					k = 2
				}
			}
		}
		if k < 0 {
			return posError(v, "board: %s: troop %q: write a player's name, with * for their cavalry%s", squareName(q), name,
				map[bool]string{true: ", or henri-green, henri-grey, henri-yellow", false: ""}[s.solo])
		}
		if placed[seat][k] {
			return posError(v, "board: %s: %s has no more such troops (each player has 1 cavalry and 2 troops)", squareName(q), name)
		}
		placed[seat][k] = true
		s.troops[seat][k].at = int16(q)
	}
	return nil
}

func (l *loader) player(seat int, v *yaml.Node) error {
	s := l.s
	name := s.names[seat]
	if err := checkNodeKeys(v, playerKeys, "player "+name); err != nil {
		return err
	}
	var err error
	if s.hands[seat], err = l.tileList(get(v, "hand"), name+"'s hand"); err != nil {
		return err
	}
	if len(s.hands[seat]) > handLimit {
		return posError(get(v, "hand"), "%s's hand: %d tiles; a hand holds at most %d (RULINGS.md DH-8)", name, len(s.hands[seat]), handLimit)
	}
	if r := get(v, "reserve"); r != nil {
		want, err := intValue(r, name+"'s reserve", 0, 2)
		if err != nil {
			return err
		}
		if got := s.inReserveCount(seat); got != want {
			return posError(r, "%s's reserve: %d, but %d of their 2 troops are not on the board", name, want, got)
		}
	}
	items, err := list(get(v, "moved"), name+"'s moved")
	if err != nil {
		return err
	}
	for _, it := range items {
		k := -1
		if it.Value == "reserve" {
			for j, t := range s.troops[seat] {
				if t.at == inReserve && !t.moved {
					k = j
					break
				}
			}
		} else if q, e := parseSquare(it.Value); e == nil {
			k = s.troopAt(seat, q)
		}
		if k < 0 || s.troops[seat][k].moved {
			return posError(it, "%s's moved: no troop of %s's on %q", name, name, it.Value)
		}
		s.troops[seat][k].moved = true
	}
	return nil
}

func (l *loader) henri(v *yaml.Node) error {
	s := l.s
	if err := checkNodeKeys(v, henriKeys, "Henri"); err != nil {
		return err
	}
	seen := map[uint8]*yaml.Node{}
	read := func(key string) ([]uint8, error) {
		items, err := list(get(v, key), "Henri's "+key)
		if err != nil {
			return nil, err
		}
		var out []uint8
		for _, it := range items {
			k, ok := treasureByName(it.Value)
			if !ok {
				names := make([]string, len(treasureKinds))
				for i, t := range treasureKinds {
					names[i] = t.name
				}
				return nil, posError(it, "Henri's %s: %q is not a treasure token (tokens: %s)", key, it.Value, strings.Join(names, ", "))
			}
			if prev, dup := seen[k]; dup {
				return nil, posError(it, "Henri's %s: %s is already on line %d", key, it.Value, prev.Line)
			}
			seen[k] = it
			out = append(out, k)
		}
		return out, nil
	}
	var err error
	if s.treasures, err = read("treasures"); err != nil {
		return err
	}
	if s.setAside, err = read("aside"); err != nil {
		return err
	}
	s.won, err = read("won")
	return err
}
