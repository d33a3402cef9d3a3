package heritiers

import (
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/yamldoc"
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
	add(root, "first", scalar(s.names[s.first]))
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
	add(root, "start", scalar(squareName(int(s.startAt))))
	add(root, "board", s.positionBoard())
	add(root, "players", s.positionPlayers())
	return root
}

// positionTroop names troop k of seat in a position: alice* the cavalry,
// alice-1 and alice-2 the two others, Henri's by colour (henri-green).
func (s *State) positionTroop(seat, k int) string {
	if k == 0 || s.solo && seat == 1 {
		return s.troopName(seat, k)
	}
	return s.names[seat] + "-" + strconv.Itoa(k)
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
					troops = append(troops, s.positionTroop(seat, k))
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

// positionPlayers returns the players of the position: each one's hand,
// troops in the royal reserve and troops moved this turn; in the solo
// game Henri's treasure tokens and his troops beside the board.
func (s *State) positionPlayers() *yaml.Node {
	players := mapping()
	for seat := range s.players() {
		pm := mapping()
		add(pm, "hand", flow(s.ids(s.hands[seat])))
		add(pm, "reserve", scalar(strconv.Itoa(s.inReserveCount(seat))))
		var moved []string
		for k, t := range s.troops[seat] {
			if t.moved {
				moved = append(moved, s.positionTroop(seat, k))
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
		var beside []string
		for k, t := range s.troops[1] {
			if t.at == aside {
				beside = append(beside, s.positionTroop(1, k))
			}
		}
		add(hm, "beside", flow(beside))
		add(players, Henri, hm)
	}
	return players
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

func mapping() *yaml.Node                        { return yamldoc.Mapping() }
func scalar(v string) *yaml.Node                 { return yamldoc.Scalar(v) }
func flow(items []string) *yaml.Node             { return yamldoc.Flow(items) }
func add(m *yaml.Node, key string, v *yaml.Node) { yamldoc.Add(m, key, v) }
func get(m *yaml.Node, key string) *yaml.Node    { return yamldoc.Get(m, key) }

// posError is an error at a node of the position document.
func posError(n *yaml.Node, format string, args ...any) error {
	return yamldoc.Errorf(n, format, args...)
}

var positionKeys = []string{"phase", "turn", "first", "sets", "taken", "took", "discounts", "paid", "destroy", "last", "lastbuilt",
	"reserve", "stack", "removed", "start", "board", "players"}
var playerKeys = []string{"hand", "reserve", "moved"}
var henriKeys = []string{"treasures", "aside", "won", "beside"}

// loader reads a position, remembering where each tile was named so that
// a tile given twice is reported where it is.
type loader struct {
	s      *State
	seen   map[int16]*yaml.Node
	inSet  map[int16]bool
	placed [2][3]bool   // by seat, the troops on the board
	plain  []plainTroop // troops named by their owner alone, placed once the board is read
}

// plainTroop is a troop written by its owner's name alone on square q: the
// first of the owner's two troops the board names nowhere else.
type plainTroop struct {
	seat, q int
	node    *yaml.Node
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
// their limit. A solo position at Henri's turn (turn: henri) stops as the
// player's turn ends: Henri plays his turn as it is read.
func loadPosition(setup adjudicator.Setup, n *yaml.Node) (adjudicator.State, error) {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil, posError(n, "a Deux Héritiers position is a mapping with keys %s", strings.Join(positionKeys, ", "))
	}
	if err := yamldoc.CheckKeys(n, positionKeys, "the position"); err != nil {
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
	for _, pass := range []func(*yaml.Node) error{l.loadSets, l.loadHead, l.loadTiles, l.loadBoard, l.loadPlayers, l.loadPaid, l.loadTurn} {
		if err := pass(n); err != nil {
			return nil, err
		}
	}
	if err := s.playHenri(); err != nil {
		return nil, posError(n, "Henri cannot play his turn from this position: %v", err)
	}
	return s, nil
}

// playHenri plays Henri's turn, his take and his build or discard by the
// rules of the solo booklet (deux-heritiers-fr.txt:474-514), when a
// position stops as the player's turn ends.
func (s *State) playHenri() error {
	for s.solo && !s.over && s.turn == 1 {
		steps, err := s.henriSteps(false)
		if err != nil {
			return err
		}
		if err := s.Apply(Henri, steps[0].Move); err != nil {
			return err
		}
	}
	return nil
}

// loadSets reads the three sets in play, which say which tiles a position
// may name.
func (l *loader) loadSets(n *yaml.Node) error {
	s := l.s
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
	return nil
}

func boolValue(n *yaml.Node, what string) (bool, error) {
	b, err := strconv.ParseBool(n.Value)
	if err != nil || n.Kind != yaml.ScalarNode {
		return false, posError(n, "%s: expected true or false", what)
	}
	return b, nil
}

// playerValue reads a player's name: one of the record's players, never
// Henri.
func (l *loader) playerValue(n *yaml.Node, what string) (int, error) {
	s := l.s
	seat := s.seat(n.Value)
	if seat < 0 || n.Kind != yaml.ScalarNode {
		return -1, posError(n, "%s: %q is not a player of this game (players: %s)", what, n.Value, strings.Join(s.names[:s.players()], ", "))
	}
	return seat, nil
}

// loadHead reads the phase, who started and the turn's progress: the tile
// taken, the discounts left, the last building.
func (l *loader) loadHead(n *yaml.Node) error {
	s := l.s
	var err error
	if v := get(n, "phase"); v != nil {
		switch v.Value {
		case "play":
		case "over":
			s.over = true
		default:
			return posError(v, "phase %q: expected play or over", v.Value)
		}
	}
	if v := get(n, "first"); v != nil {
		if s.first, err = l.playerValue(v, "first"); err != nil {
			return err
		}
		if s.solo && s.first == 1 {
			return posError(v, "first: the player starts the solo game, never Henri (deux-heritiers-fr.txt:474); write first: %s", s.names[0])
		}
	}
	if v := get(n, "taken"); v != nil {
		if s.taken, err = boolValue(v, "taken"); err != nil {
			return err
		}
		s.took = s.taken
	}
	if v := get(n, "took"); v != nil {
		b, err := boolValue(v, "took")
		if err != nil {
			return err
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

// loadBoard reads the tiles on the board, their owners, troops and
// treasures, and where the start tile lies: m13 unless start says
// otherwise; it lies face down, nobody's (deux-heritiers-fr.txt:112).
func (l *loader) loadBoard(n *yaml.Node) error {
	s := l.s
	for seat := range 2 {
		for k := range 3 {
			s.troops[seat][k] = troop{at: inReserve}
			if s.solo && seat == 1 {
				s.troops[seat][k].at = aside
			}
		}
	}
	at := get(n, "start")
	if at != nil {
		q, err := squareValue(at, "start")
		if err != nil {
			return err
		}
		s.startAt = int16(q)
	}
	if b := get(n, "board"); b != nil && !(b.Kind == yaml.ScalarNode && b.Tag == "!!null") {
		if b.Kind != yaml.MappingNode {
			return posError(b, "board: expected a mapping of squares to tiles, like m13: moulin-1 open / alice* bob*")
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
			if err := l.boardValue(q, v); err != nil {
				return err
			}
		}
	}
	if err := l.placePlain(); err != nil {
		return err
	}
	c := s.cells[s.startAt]
	switch {
	case c.tile < 0 && at == nil:
		return posError(n, "the board needs the start tile on %s (or start: names the square where it lies)", squareName(int(s.startAt)))
	case c.tile < 0:
		return posError(at, "start: the board has no tile on %s; the start tile lies there", squareName(int(s.startAt)))
	case !c.open:
		return posError(l.seen[c.tile], "board: %s: the start tile lies face down, nobody's (deux-heritiers-fr.txt:112): write %q",
			squareName(int(s.startAt)), s.tile(c.tile).ID+" open")
	}
	return nil
}

// placePlain places the troops the board names by their owner alone, in
// the order given, each on the first of the owner's two troops the board
// names nowhere else.
func (l *loader) placePlain() error {
	s := l.s
	for _, p := range l.plain {
		k := 1
		if l.placed[p.seat][1] {
			k = 2
		}
		if l.placed[p.seat][k] {
			name := s.names[p.seat]
			return posError(p.node, "board: %s: %s has no more troops on the board: a cavalry (%s*) and 2 troops (%s-1, %s-2)",
				squareName(p.q), name, name, name, name)
		}
		l.placed[p.seat][k] = true
		s.troops[p.seat][k].at = int16(p.q)
	}
	return nil
}

// loadPlayers reads the players' hands, reserves and moved troops, and Henri's
// treasure tokens and troops beside the board in the solo game.
func (l *loader) loadPlayers(n *yaml.Node) error {
	s := l.s
	pn := get(n, "players")
	given := [2]bool{}
	if pn != nil {
		if pn.Kind != yaml.MappingNode {
			return posError(pn, "players: expected a mapping of player names to their hand, reserve and moved troops")
		}
		for i := 0; i+1 < len(pn.Content); i += 2 {
			k, v := pn.Content[i], pn.Content[i+1]
			seat, err := l.playerValue(k, "players")
			if err != nil {
				return err
			}
			if given[seat] {
				return posError(k, "players: %s is given twice", k.Value)
			}
			given[seat] = true
			if v.Kind != yaml.MappingNode {
				return posError(v, "players: %s: expected a mapping", k.Value)
			}
			if s.solo && seat == 1 {
				err = l.henri(v)
			} else {
				err = l.player(seat, v)
			}
			if err != nil {
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
	if s.solo && !given[1] {
		return posError(n, "a solo position needs players: henri: with his treasure tokens (treasures, aside, won)")
	}
	return l.countTreasures(pn)
}

// countTreasures checks that each of Henri's treasure tokens is once in
// the pile, aside, won or on the board.
func (l *loader) countTreasures(pn *yaml.Node) error {
	s := l.s
	if !s.solo {
		return nil
	}
	var count [len(treasureKinds)]int
	for _, l := range [][]uint8{s.treasures, s.setAside, s.won} {
		for _, k := range l {
			count[k]++
		}
	}
	for _, at := range s.placed {
		if k := s.cells[at].treasure; k >= 0 {
			count[k]++
		}
	}
	for k, c := range count {
		if c != 1 {
			return posError(pn, "Henri's treasure token %s is listed %d times; each of the %d is once in the pile, aside, won or on the board",
				treasureKinds[k].name, c, len(treasureKinds))
		}
	}
	return nil
}

// loadPaid reads the tiles paid and the squares to destroy of the step
// under way.
func (l *loader) loadPaid(n *yaml.Node) error {
	s := l.s
	items, err := list(get(n, "paid"), "paid")
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
	return nil
}

// loadTurn reads whose turn it is, and checks the discounts against the
// open terrains on the board. At Henri's turn the player's turn is over:
// nothing of it may be left.
func (l *loader) loadTurn(n *yaml.Node) error {
	s := l.s
	open := 0
	for _, at := range s.placed {
		if s.cells[at].open && at != s.startAt {
			open++
		}
	}
	if s.discounts > open {
		return posError(get(n, "discounts"), "discounts: %d, but the board holds %d open %s besides the start tile; each discount is an open terrain laid this turn (deux-heritiers-fr.txt:136)",
			s.discounts, open, plural(open, "terrain", "terrains"))
	}
	v := get(n, "turn")
	if v == nil || s.over {
		return nil
	}
	seat, err := l.playerValue(v, "turn")
	if err != nil {
		return err
	}
	s.turn = seat
	if !s.solo || seat == 0 {
		return nil
	}
	moved := false
	for _, t := range s.troops[0] {
		moved = moved || t.moved
	}
	for _, f := range []struct {
		key string
		set bool
	}{{"taken", s.took}, {"discounts", s.discounts > 0}, {"paid", len(s.paidCells)+len(s.paidTiles) > 0}, {"destroy", len(s.destroy) > 0}, {"moved", moved}} {
		if f.set {
			return posError(v, "turn: henri: the position stops as %s's turn ends, so %s has nothing of it: leave it out (a turn's troops turn back and its discounts lapse as it ends, deux-heritiers-fr.txt:149)",
				s.names[0], f.key)
		}
	}
	return nil
}

// boardValue reads "auberge-1 alice / alice* bob-1 $v-green".
func (l *loader) boardValue(q int, v *yaml.Node) error {
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
	return l.boardTroops(q, v, strings.Fields(troopPart))
}

// troopRef reads a troop's name: alice* (the cavalry), alice-1, alice-2,
// henri-green (Henri's, by colour); k is -1 for alice alone, either of
// alice's two troops.
func (s *State) troopRef(name string) (seat, k int, ok bool) {
	player := func(n string) int {
		if seat := s.seat(n); seat >= 0 && !(s.solo && seat == 1) {
			return seat
		}
		return -1
	}
	if c, found := strings.CutPrefix(name, Henri+"-"); found && s.solo {
		if col, ok := colourByWord(c); ok {
			return 1, int(col), true
		}
	}
	if base, found := strings.CutSuffix(name, "*"); found {
		seat := player(base)
		return seat, 0, seat >= 0
	}
	if i := strings.LastIndexByte(name, '-'); i > 0 && (name[i+1:] == "1" || name[i+1:] == "2") {
		if seat := player(name[:i]); seat >= 0 {
			return seat, int(name[i+1] - '0'), true
		}
	}
	seat = player(name)
	return seat, -1, seat >= 0
}

// boardTroops places the troops named on square q.
func (l *loader) boardTroops(q int, v *yaml.Node, troops []string) error {
	s := l.s
	if len(troops) > 2 || len(troops) == 2 && !(strings.HasSuffix(troops[0], "*") && strings.HasSuffix(troops[1], "*")) {
		return posError(v, "board: %s: one troop per tile; only the two cavalry share the start tile before they part (deux-heritiers-fr.txt:90)", squareName(q))
	}
	for _, name := range troops {
		seat, k, ok := s.troopRef(name)
		if !ok {
			return posError(v, "board: %s: troop %q: write a player's name, with * for their cavalry, -1 or -2 for their other troops%s", squareName(q), name,
				map[bool]string{true: ", or henri-green, henri-grey, henri-yellow", false: ""}[s.solo])
		}
		if k < 0 {
			l.plain = append(l.plain, plainTroop{seat: seat, q: q, node: v})
			continue
		}
		if l.placed[seat][k] {
			return posError(v, "board: %s: %s is already on the board (each player has 1 cavalry and 2 troops)", squareName(q), name)
		}
		l.placed[seat][k] = true
		s.troops[seat][k].at = int16(q)
	}
	return nil
}

func (l *loader) player(seat int, v *yaml.Node) error {
	s := l.s
	name := s.names[seat]
	if err := yamldoc.CheckKeys(v, playerKeys, "player "+name); err != nil {
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
		k, err := l.movedTroop(seat, it)
		if err != nil {
			return err
		}
		s.troops[seat][k].moved = true
	}
	return nil
}

// movedTroop reads a troop of seat's moved this turn: its name (alice-1),
// the square where it stands, or reserve for one withdrawn to the royal
// reserve.
func (l *loader) movedTroop(seat int, it *yaml.Node) (int, error) {
	s := l.s
	name := s.names[seat]
	k := -1
	if it.Value == "reserve" {
		for j, t := range s.troops[seat] {
			if t.at == inReserve && !t.moved {
				k = j
				break
			}
		}
		if k < 0 {
			return -1, posError(it, "%s's moved: no more troops of %s's in the royal reserve", name, name)
		}
	} else if q, e := parseSquare(it.Value); e == nil {
		if k = s.troopAt(seat, q); k < 0 {
			return -1, posError(it, "%s's moved: no troop of %s's on %q", name, name, it.Value)
		}
	} else if ts, tk, ok := s.troopRef(it.Value); ok && ts == seat && tk >= 0 {
		k = tk
	} else {
		return -1, posError(it, "%s's moved: %q is not one of %s's troops: write %s*, %s-1 or %s-2, the square where it stands, or reserve",
			name, it.Value, name, name, name, name)
	}
	if s.troops[seat][k].moved {
		return -1, posError(it, "%s's moved: %s is given twice", name, s.positionTroop(seat, k))
	}
	return k, nil
}

func (l *loader) henri(v *yaml.Node) error {
	s := l.s
	if err := yamldoc.CheckKeys(v, henriKeys, "Henri"); err != nil {
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
	if s.won, err = read("won"); err != nil {
		return err
	}
	return l.henriBeside(get(v, "beside"))
}

// henriBeside checks Henri's troops beside the board, when the position
// lists them: exactly those the board does not hold (they start beside it,
// deux-heritiers-fr.txt:463).
func (l *loader) henriBeside(b *yaml.Node) error {
	s := l.s
	items, err := list(b, "Henri's beside")
	if b == nil || err != nil {
		return err
	}
	var given [3]bool
	for _, it := range items {
		seat, k, ok := s.troopRef(it.Value)
		switch {
		case !ok || seat != 1:
			return posError(it, "Henri's beside: %q is not one of Henri's troops (henri-green, henri-grey, henri-yellow)", it.Value)
		case given[k]:
			return posError(it, "Henri's beside: %s is given twice", it.Value)
		case s.troops[1][k].at != aside:
			return posError(it, "Henri's beside: %s stands on %s; his troops beside the board are those it does not hold", it.Value, squareName(int(s.troops[1][k].at)))
		}
		given[k] = true
	}
	for k, t := range s.troops[1] {
		if t.at == aside && !given[k] {
			return posError(b, "Henri's beside: %s is not on the board, so it is beside it: list it too", s.positionTroop(1, k))
		}
	}
	return nil
}
