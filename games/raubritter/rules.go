package raubritter

import (
	"fmt"
	"slices"

	"github.com/heraldgames/herald/adjudicator"
)

// errInSetup is the error for a step of play (place, knights, end) while
// the players still choose the A tile they keep.
func errInSetup() *adjudicator.RuleError {
	return adjudicator.Rulef("in-setup", ruleKeep, "the game is in its setup: keep one of your A tiles first",
		"la partie est en cours de mise en place : gardez d'abord une de vos plaquettes A")
}

// keepChoices returns the A tiles player p may keep beside the castle.
func (s *State) keepChoices(p *player) []Kind {
	c := slices.IndexFunc(p.hand, func(k Kind) bool { return k.Building == Castle })
	var out []Kind
	for i, k := range p.hand {
		if i != c && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// Apply checks m against the rules and plays it.
func (s *State) Apply(player string, m adjudicator.Move) error {
	p := s.index(player)
	if err := adjudicator.CanActCiting(s, player, ruleTurnOrder); err != nil {
		return err
	}
	var err *adjudicator.RuleError
	switch m := m.(type) {
	case Keep:
		if s.phase != phaseSetup {
			return adjudicator.Rulef("not-setup", ruleKeep, "keep is a setup step; the setup is over",
				"garder est une étape de la mise en place, qui est terminée").At(m.pos)
		}
		if err = s.keep(p, m.Kind); err != nil {
			return err.At(m.pos)
		}
	case Place:
		if err = s.checkPlace(p, m); err != nil {
			return err
		}
		s.place(p, m)
	case Knights:
		if s.noKnightsNoOp(p, m) {
			// It states what happens anyway: the castle takes none (RB-10).
			return nil
		}
		if err = s.checkKnights(p, m); err != nil {
			return err
		}
		s.knights(p, m)
	case End:
		if s.phase == phaseSetup {
			return errInSetup()
		}
		if s.placed == 0 {
			return adjudicator.Rulef("first-tile", ruleThree, "lay at least one tile before ending your turn: the first is mandatory",
				"posez au moins une plaquette avant de finir votre tour : la première est obligatoire")
		}
		s.selfEnd = endNone
		s.endTurn()
	default:
		return fmt.Errorf("raubritter: unknown move type %T", m)
	}
	return nil
}

func (s *State) checkKeep(p int, k Kind) *adjudicator.RuleError {
	pl := s.players[p]
	if pl.kept {
		return adjudicator.Rulef("kept", ruleKeep, "you already kept your A tile", "vous avez déjà gardé votre plaquette A")
	}
	choices := s.keepChoices(pl)
	if !slices.Contains(choices, k) {
		if slices.Contains(pl.hand, k) {
			// In the hand but not a choice: it is the castle.
			return adjudicator.Rulef("keep-castle", ruleKeep, "your castle stays in your hand anyway; name the other A tile you keep: %s",
				"votre château reste en main de toute façon ; nommez l'autre plaquette A gardée : %s", kindWords(choices))
		}
		return adjudicator.Rulef("keep-missing", ruleKeep, "you have no %s among your A tiles; choose one of: %s",
			"vous n'avez pas de %s parmi vos plaquettes A ; choisissez parmi : %s", k.Words(), kindWords(choices))
	}
	return nil
}

// keep keeps the castle and k; the other two A tiles go aside for the start
// layout, which is laid once every player has chosen.
func (s *State) keep(p int, k Kind) *adjudicator.RuleError {
	if err := s.checkKeep(p, k); err != nil {
		return err
	}
	pl := s.players[p]
	s.selfEnd = endNone
	c := slices.IndexFunc(pl.hand, func(x Kind) bool { return x.Building == Castle })
	castle := pl.hand[c]
	rest := slices.Delete(slices.Clone(pl.hand), c, c+1)
	i := slices.Index(rest, k)
	rest = slices.Delete(rest, i, i+1)
	pl.hand = []Kind{castle, k}
	pl.layout = rest
	pl.kept = true
	for _, q := range s.players {
		if !q.kept {
			return nil
		}
	}
	// Everyone has chosen: the layout is turned face up and play begins
	// with the first player listed (RB-3).
	for _, q := range s.players {
		for j, sq := range q.slots {
			s.lay(sq, q.layout[j])
		}
		q.slots, q.layout = nil, nil
	}
	s.phase = phasePlay
	s.turn = 0
	return nil
}

func (s *State) checkPlace(p int, m Place) *adjudicator.RuleError {
	pl := s.players[p]
	if s.phase == phaseSetup {
		return errInSetup().At(m.pos)
	}
	if s.placed >= 3 {
		return adjudicator.Rulef("three-tiles", ruleThree, "you have laid 3 tiles this turn, the most allowed",
			"vous avez posé 3 plaquettes ce tour-ci, le maximum").At(m.pos)
	}
	if !slices.Contains(pl.hand, m.Kind) {
		what := adjudicator.Words{EN: m.Kind.String(), FR: "plaquette " + m.Kind.French()}
		if m.partial {
			what = adjudicator.Words{EN: "tile with a " + m.Kind.Building.String(),
				FR: "plaquette avec " + buildingArticleFR[m.Kind.Building]}
		}
		return adjudicator.Rulef("not-in-hand", ruleHand, "you have no %s in your hand (your hand: %s)",
			"vous n'avez pas de %s en main (votre main : %s)", what, handWords(pl.hand)).At(m.pos).OnHidden()
	}
	c := s.at(m.Square)
	if c == nil {
		return adjudicator.Rulef("off-frame", areaRule[len(s.names)], "%s is off the board: with %d players the area never exceeds %dx%d tiles, so squares run from a1 to %s",
			"%s est hors du plateau : à %d joueurs la surface ne dépasse jamais %dx%d plaquettes, les cases vont de a1 à %s",
			m.Square, len(s.names), s.limit, s.limit, Square{s.h - 1, s.w - 1}).At(m.sqPos)
	}
	if c.placed {
		return adjudicator.Rulef("occupied", ruleEdge, "%s already holds a %s tile", "%s porte déjà une plaquette %s",
			m.Square, c.kind.Words()).At(m.sqPos)
	}
	if !s.touches(m.Square) {
		return adjudicator.Rulef("not-adjacent", ruleDiagonal, "%s does not touch the table edge to edge; a tile must share at least one side with a laid tile (a corner is not enough)",
			"%s ne touche pas la table bord à bord ; une plaquette doit partager au moins un côté avec une plaquette posée (un coin ne suffit pas)",
			m.Square).At(m.sqPos)
	}
	r0, r1, c0, c1, _ := s.bbox()
	r0, r1 = min(r0, m.Square.Row), max(r1, m.Square.Row)
	c0, c1 = min(c0, m.Square.Col), max(c1, m.Square.Col)
	if w, h := c1-c0+1, r1-r0+1; w > s.limit || h > s.limit {
		return adjudicator.Rulef("area", areaRule[len(s.names)], "a tile on %s would make the area %dx%d tiles; with %d players it may not exceed %dx%d",
			"une plaquette en %s porterait la surface à %dx%d plaquettes ; à %d joueurs elle ne peut dépasser %dx%d",
			m.Square, w, h, len(s.names), s.limit, s.limit).At(m.sqPos)
	}
	return nil
}

// handWords returns the tiles of a hand, for messages.
func handWords(h []Kind) adjudicator.Words {
	if len(h) == 0 {
		return adjudicator.Words{EN: "empty", FR: "vide"}
	}
	return kindWords(h)
}

// touches reports whether q shares a side with a laid tile.
func (s *State) touches(q Square) bool {
	for _, d := range sides {
		if c := s.at(Square{q.Row + d.Row, q.Col + d.Col}); c != nil && c.placed {
			return true
		}
	}
	return false
}

// sides are the steps to the four squares that share a side with one.
var sides = [4]Square{{-1, 0}, {1, 0}, {0, 1}, {0, -1}}

// place lays the tile, draws the top of the stack (raubritter-fr-scan.txt:96),
// and opens the castle for knights when the player has as many left as its
// terrain keeps (:173, :186): a castle they cannot garrison takes none and
// does not wait (RULINGS.md RB-10).
func (s *State) place(p int, m Place) {
	pl := s.players[p]
	s.selfEnd = endNone // set again if this tile ends the turn by itself
	s.pending = -1      // a castle left waiting gets no knights (RB-4)
	s.bare = -1
	i := slices.Index(pl.hand, m.Kind)
	pl.hand = slices.Delete(pl.hand, i, i+1)
	s.lay(m.Square, m.Kind)
	if len(pl.stack) > 0 {
		pl.hand = append(pl.hand, pl.stack[0].Kind)
		pl.stack = pl.stack[1:]
	}
	s.placed++
	if m.Kind.Building == Castle {
		if pl.knights >= castleKeeps(m.Kind) {
			s.pending = m.Square.Row*s.w + m.Square.Col
		} else {
			s.bare = m.Square.Row*s.w + m.Square.Col
		}
	}
	s.maybeEndTurn()
}

// castleKeeps returns the knights a castle of kind k keeps, the fewest a
// player must have left to put any on it: 1 on plain, 2 on forest, 3 on
// mountains (raubritter-fr-scan.txt:148-161, 173; RULINGS.md RB-8).
func castleKeeps(k Kind) int {
	if need, ok := k.Terrain.Stay(); ok {
		return need
	}
	return 1 // no knight enters a lake (:163): checkKnights says so
}

// march returns the squares a stack of len(counts) tiles covers from the
// castle in direction d.
func (s *State) march(from Square, d Direction, n int) []Square {
	dr, dc := d.delta()
	out := make([]Square, n)
	for i := range out {
		out[i] = Square{from.Row + i*dr, from.Col + i*dc}
	}
	return out
}

func (s *State) checkKnights(p int, m Knights) *adjudicator.RuleError {
	pl := s.players[p]
	// pos points an error at the i-th count of the step.
	pos := func(i int) func(*adjudicator.RuleError) *adjudicator.RuleError {
		return func(err *adjudicator.RuleError) *adjudicator.RuleError {
			if i < len(m.pos) {
				return err.At(m.pos[i])
			}
			return err
		}
	}
	if s.phase == phaseSetup {
		return errInSetup()
	}
	if s.pending < 0 && pl.knights == 0 && s.phase == phasePlay {
		// A castle laid with no knights left never waits for any (RB-10).
		return pos(0)(adjudicator.Rulef("no-knights", ruleNoKnights, "you have no knights left, so a castle you lay takes none",
			"il ne vous reste aucun chevalier : un château posé n'en reçoit donc aucun"))
	}
	if s.pending < 0 && s.bare >= 0 && s.placed > 0 && s.phase == phasePlay {
		// A castle laid with fewer knights left than it keeps never waits
		// for any either (RB-10).
		c := &s.cells[s.bare]
		return pos(0)(adjudicator.Rulef("few-knights", ruleEnough, "you have only %s left and the %s at %s keeps at least %d, so it takes none",
			"il ne vous reste que %s et la plaquette %s en %s en garde au moins %d : elle n'en reçoit donc aucun",
			nKnights(pl.knights), c.kind.Words(), s.square(s.bare), castleKeeps(c.kind)))
	}
	if s.pending < 0 {
		return pos(0)(adjudicator.Rulef("no-castle", ruleOnce, "no castle is waiting for knights: knights go only on the castle you have just laid, at once",
			"aucun château n'attend de chevaliers : ils ne se posent que sur le château que vous venez de poser, immédiatement"))
	}
	if len(m.Counts) > 1 && !m.Dir.straight() {
		// The direction of a march; knights all staying need none.
		return adjudicator.Rulef("straight", ruleStraight, "knights march in a straight line from their castle, never diagonally: north, south, east or west, not %s",
			"les chevaliers se déplacent en ligne droite depuis leur château, jamais en diagonale : nord, sud, est ou ouest, pas %s", m.Dir.Words()).At(m.dirPos)
	}
	total := m.Total()
	if total == 0 {
		if len(m.Counts) > 1 {
			return pos(1)(adjudicator.Rulef("leave", ruleLeave, "marching knights must leave at least one knight on every tile they pass",
				"des chevaliers en marche laissent au moins un chevalier sur chaque plaquette"))
		}
		return nil
	}
	if total > 5 {
		return pos(0)(adjudicator.Rulef("five", ruleFive, "a castle takes at most 5 knights, not %d", "un château reçoit au plus 5 chevaliers, pas %d", total))
	}
	if total > pl.knights {
		return pos(0)(adjudicator.Rulef("supply", ruleSupply, "you have only %s left, not %d", "il ne vous reste que %s, pas %d", nKnights(pl.knights), total))
	}
	castle := s.square(s.pending)
	march := s.march(castle, m.Dir, len(m.Counts))
	for i, q := range march {
		c := s.at(q)
		if c == nil && i > 0 {
			// Off the frame of square names: q has no name to give.
			return pos(i)(adjudicator.Rulef("gap", ruleGap, "%s is at the edge of the board: knights cannot go further %s, and they never cross a gap",
				"%s est au bord du plateau : les chevaliers ne peuvent aller plus loin %s, et ils ne franchissent jamais un vide",
				march[i-1], adjudicator.Words{EN: m.Dir.String(), FR: towardsFR(m.Dir)}))
		}
		if c == nil || !c.placed {
			return pos(i)(adjudicator.Rulef("gap", ruleGap, "knights cannot reach %s: there is no tile there, and knights never cross a gap",
				"les chevaliers ne peuvent atteindre %s : il n'y a pas de plaquette, et ils ne franchissent jamais un vide", q))
		}
		need, ok := c.kind.Terrain.Stay()
		if !ok {
			return pos(i)(adjudicator.Rulef("lake", ruleLake, "knights cannot enter the lake on %s", "les chevaliers ne peuvent entrer sur le lac en %s", q))
		}
		if c.n >= 4 {
			return pos(i)(s.withLongest(p, m, adjudicator.Rulef("full", ruleFour, "%s already holds 4 knights: a full tile cannot be entered",
				"%s porte déjà 4 chevaliers : une plaquette pleine ne peut plus être occupée", q)))
		}
		if i > 0 && int(c.n)+need > 4 {
			// Too full for the knights this terrain keeps (l. 173).
			return pos(i)(s.withLongest(p, m, adjudicator.Rulef("four", ruleEnough, "the %s tile at %s holds %s, and at least %d must stay on it, which would make more than 4: knights cannot enter it",
				"la plaquette %s en %s porte %s, et au moins %d doivent y rester, ce qui dépasserait 4 : les chevaliers ne peuvent y entrer",
				c.kind.Words(), q, nKnights(int(c.n)), need)))
		}
		if i == 0 && m.Counts[0] > 4 {
			// The castle was just laid: it holds none yet.
			return pos(i)(s.withLongest(p, m, adjudicator.Rulef("four", ruleFour, "a tile holds at most 4 knights: %d cannot stay on the castle at %s, so march the others out of it",
				"une plaquette porte au plus 4 chevaliers : %d ne peuvent rester sur le château en %s, faites donc partir les autres",
				m.Counts[0], q)))
		}
		if int(c.n)+m.Counts[i] > 4 {
			return pos(i)(s.withLongest(p, m, adjudicator.Rulef("four", ruleFour, "%s holds %s; %d more would make more than 4",
				"%s porte %s ; %d de plus dépasseraient 4", q, nKnights(int(c.n)), m.Counts[i])))
		}
		if m.Counts[i] < need {
			rule := ruleLeave
			if need > 1 && i > 0 {
				rule = ruleEnough
			}
			return pos(i)(adjudicator.Rulef("leave", rule, "at least %s on the %s at %s, not %d",
				"au moins %s sur la plaquette %s en %s, pas %d", mustStay(need), c.kind.Words(), q, m.Counts[i]))
		}
	}
	return nil
}

func (s *State) knights(p int, m Knights) {
	pl := s.players[p]
	s.selfEnd = endNone // set again if these knights end the turn by itself
	castle := s.square(s.pending)
	for i, q := range s.march(castle, m.Dir, len(m.Counts)) {
		c := s.at(q)
		for range m.Counts[i] {
			c.k[c.n] = uint8(p)
			c.n++
		}
	}
	pl.knights -= m.Total()
	s.pending = -1
	s.maybeEndTurn()
}

// maybeEndTurn ends the turn when the player has nothing left to decide:
// three tiles laid, or an empty hand, and no castle waiting for knights.
func (s *State) maybeEndTurn() {
	if s.pending < 0 && (s.placed == 3 || len(s.players[s.turn].hand) == 0) {
		s.selfEnd, s.selfEndP = endThird, s.turn
		if s.placed < 3 {
			s.selfEnd = endEmpty
		}
		s.endTurn()
		if s.phase == phaseOver {
			s.selfEnd = endGameOver
		}
	}
}

// noKnightsNoOp reports whether m is `knights 0` from p, in play, with no
// knights left, or just after a castle p has too few knights left for: a
// castle p lays takes none anyway (RULINGS.md RB-10), so the step changes
// nothing and is accepted as the harmless no-op it is.
func (s *State) noKnightsNoOp(p int, m Knights) bool {
	return s.phase == phasePlay && s.pending < 0 && (s.players[p].knights == 0 || s.bare >= 0 && s.placed > 0) &&
		m.Total() == 0 && len(m.Counts) == 1
}

// AfterTurnEnd implements adjudicator.TurnEnder: after a turn ended by
// itself (RULINGS.md RB-11), an `end` in the same submission states what
// happened and is dropped, and so is `knights 0` from a player with no
// knights left, or after a last tile that was a castle they had too few
// knights for (RB-10: such a castle takes none); any other step is refused
// with the reason the turn ended.
func (s *State) AfterTurnEnd(player string, m adjudicator.Move) error {
	p := s.index(player)
	if s.selfEnd == endNone || p != s.selfEndP {
		return adjudicator.CanActCiting(s, player, ruleTurnOrder)
	}
	switch m := m.(type) {
	case End:
		return nil
	case Knights:
		if m.Total() == 0 && len(m.Counts) == 1 && (s.players[p].knights == 0 || s.bare >= 0) {
			return nil
		}
	}
	switch s.selfEnd {
	case endEmpty:
		return adjudicator.Rulef("turn-ended", ruleSelfEnd, "your turn ended by itself when your hand was empty: drop the steps after your last tile",
			"votre tour s'est terminé de lui-même quand votre main a été vide : supprimez les étapes qui suivent votre dernière plaquette")
	case endGameOver:
		return adjudicator.Rulef("turn-ended", ruleSelfEnd, "your turn, and the game, ended by themselves when the last tile was laid: drop the steps after it",
			"votre tour, et la partie, se sont terminés d'eux-mêmes avec la dernière plaquette posée : supprimez les étapes qui la suivent")
	}
	return adjudicator.Rulef("turn-ended", ruleSelfEnd, "your turn ended by itself after your third tile (at most 3 tiles a turn): drop the steps after it",
		"votre tour s'est terminé de lui-même après votre troisième plaquette (3 au plus par tour) : supprimez les étapes qui la suivent")
}

// nKnights returns "1 knight", "3 knights" in English and French.
func nKnights(n int) adjudicator.Words {
	if n == 1 {
		return adjudicator.Words{EN: "1 knight", FR: "1 chevalier"}
	}
	return adjudicator.Words{EN: fmt.Sprintf("%d knights", n), FR: fmt.Sprintf("%d chevaliers", n)}
}

// mustStay returns "1 knight must stay", "2 knights must stay".
func mustStay(n int) adjudicator.Words {
	w := nKnights(n)
	if n == 1 {
		return adjudicator.Words{EN: w.EN + " must stay", FR: w.FR + " doit rester"}
	}
	return adjudicator.Words{EN: w.EN + " must stay", FR: w.FR + " doivent rester"}
}

// withLongest adds to err, the refusal of march m, the longest legal march
// in the same direction: with as many knights if there is one, else with
// fewer.
func (s *State) withLongest(p int, m Knights, err *adjudicator.RuleError) *adjudicator.RuleError {
	var best Knights
	found, same := false, false
	for _, mv := range s.legalKnights(p) {
		k := mv.(Knights)
		if len(k.Counts) < 2 || k.Dir != m.Dir {
			continue
		}
		kSame := k.Total() == m.Total()
		if !found || kSame && !same || kSame == same && len(k.Counts) > len(best.Counts) {
			best, found, same = k, true, kSame
		}
	}
	c := *err
	if !found {
		// No march that way: the knights may still stay on the castle.
		stay := Knights{Counts: []int{m.Total()}}
		if !slices.ContainsFunc(s.legalKnights(p), func(mv adjudicator.Move) bool { return mv.String() == stay.String() }) {
			return err
		}
		w := knightsWords(North, stay.Counts)
		c.Msg += fmt.Sprintf("; no march %s is legal, but the knights may stay on the castle: %s", m.Dir, w.EN)
		c.MsgFR += fmt.Sprintf(" ; aucune marche %s n'est permise, mais les chevaliers peuvent rester sur le château : %s", towardsFR(m.Dir), w.FR)
		return &c
	}
	w := knightsWords(best.Dir, best.Counts)
	c.Msg += "; the longest legal march that way: " + w.EN
	c.MsgFR += " ; la plus longue marche permise dans cette direction : " + w.FR
	return &c
}

// towardsFR returns "vers le nord", "vers l'est": the French for going
// in direction d, elided before a vowel.
func towardsFR(d Direction) string {
	name := d.Words().FR
	if name[0] == 'e' || name[0] == 'o' {
		return "vers l'" + name
	}
	return "vers le " + name
}

// endTurn passes the turn clockwise to the next player with a tile in hand;
// when no one has one, every tile is laid and the game is over
// (raubritter-fr-scan.txt:227-231).
func (s *State) endTurn() {
	s.pending = -1
	s.placed = 0
	for i := 1; i <= len(s.players); i++ {
		next := (s.turn + i) % len(s.players)
		if len(s.players[next].hand) > 0 {
			s.turn = next
			return
		}
	}
	s.phase = phaseOver
}

// Legal returns every step player may take now, in a stable order: keeps,
// then knights, then tiles by hand order and square, then end.
func (s *State) Legal(player string) []adjudicator.Move { return s.AppendLegal(nil, player) }

// AppendLegal returns append(out, Legal(player)...), for a search that
// lists steps into a list it reuses (bot.LegalAppender).
func (s *State) AppendLegal(out []adjudicator.Move, player string) []adjudicator.Move {
	p := s.index(player)
	if p < 0 || adjudicator.CanAct(s, player) != nil {
		return out
	}
	pl := s.players[p]
	if s.phase == phaseSetup {
		for _, k := range s.keepChoices(pl) {
			out = append(out, Keep{Kind: k})
		}
		return out
	}
	if s.pending >= 0 {
		out = s.appendKnights(out, p)
	}
	if s.placed < 3 {
		// Lists on the stack unless long.
		var kindsAt [8]Kind
		var spotsAt [64]Square
		kinds := kindsAt[:0]
		for _, k := range pl.hand {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
		spots := s.appendSpots(spotsAt[:0])
		out = slices.Grow(out, len(kinds)*len(spots)+1)
		for _, k := range kinds {
			for _, q := range spots {
				out = append(out, placeStep(k, q))
			}
		}
	}
	if s.placed > 0 {
		out = append(out, End{})
	}
	return out
}

// spots returns the empty squares a tile may be laid on, row by row. Only
// the squares around the laid tiles' rectangle can touch one.
func (s *State) spots() []Square {
	r0, r1, c0, c1, ok := s.bbox()
	if !ok {
		return nil
	}
	return s.appendSpots(make([]Square, 0, 2*(r1-r0+c1-c0)+8)) // about the rectangle's rim
}

// appendSpots appends spots() to out.
func (s *State) appendSpots(out []Square) []Square {
	r0, r1, c0, c1, ok := s.bbox()
	if !ok {
		return out
	}
	for r := max(r0-1, 0); r <= min(r1+1, s.h-1); r++ {
		for c := max(c0-1, 0); c <= min(c1+1, s.w-1); c++ {
			q := Square{r, c}
			if s.cells[r*s.w+c].placed || !s.touches(q) {
				continue
			}
			if max(r1, r)-min(r0, r)+1 > s.limit || max(c1, c)-min(c0, c)+1 > s.limit {
				continue
			}
			out = append(out, q)
		}
	}
	return out
}

// legalKnights lists every way to put knights on the waiting castle:
// none, all staying, then each march by direction.
func (s *State) legalKnights(p int) []adjudicator.Move { return s.appendKnights(nil, p) }

// appendKnights appends legalKnights(p) to out. The steps' counts share
// one array, each capped at its length, so that an append to one makes
// a new array.
func (s *State) appendKnights(out []adjudicator.Move, p int) []adjudicator.Move {
	most := min(5, s.players[p].knights)
	pool := make([]int, 1, 64)
	out = append(out, Knights{Counts: pool[0:1:1]})
	castle := s.square(s.pending)
	var countsAt [8]int
	counts := countsAt[:0] // the march being built, one count per tile
	for _, d := range []Direction{North, South, East, West} {
		dr, dc := d.delta()
		var walk func(q Square, left int)
		walk = func(q Square, left int) {
			c := s.at(q)
			if c == nil || !c.placed {
				return
			}
			need, ok := c.kind.Terrain.Stay()
			if !ok || c.n >= 4 {
				return
			}
			room := 4 - int(c.n)
			for k := need; k <= min(left, room); k++ {
				counts = append(counts, k)
				if k == left {
					// Everyone placed: a complete move. All-stay moves are
					// listed once, without a direction.
					if len(counts) > 1 || d == North {
						at := len(pool)
						pool = append(pool, counts...)
						out = append(out, Knights{Dir: d, Counts: pool[at:len(pool):len(pool)], dirSet: len(counts) > 1})
					}
				} else {
					walk(Square{q.Row + dr, q.Col + dc}, left-k)
				}
				counts = counts[:len(counts)-1]
			}
		}
		for n := 1; n <= most; n++ {
			walk(castle, n)
		}
	}
	return out
}
