package heritiers

import (
	"fmt"
	"slices"
	"sync"

	"github.com/heraldgames/herald/adjudicator"
)

// handLimit is the most tiles a hand holds (DATA-NOTES.md; DH-8).
const handLimit = 3

// Apply checks m against the rules and plays it.
func (s *State) Apply(player string, m adjudicator.Move) error {
	if err := adjudicator.CanActCiting(s, player, ruleTurnOrder); err != nil {
		return err
	}
	seat := s.seat(player)
	if s.solo && seat == 1 {
		if err := s.applyHenri(m); err != nil {
			return err
		}
		s.checkTreasures()
		return nil
	}
	var err *adjudicator.RuleError
	switch m := m.(type) {
	case Take:
		if err = s.checkTake(seat, m); err != nil {
			return err
		}
		s.take(seat, m.Place)
	case Build:
		if err = s.checkBuild(seat, m); err != nil {
			return err
		}
		s.build(seat, m)
	case Open:
		if err = s.checkOpen(seat, m); err != nil {
			return err
		}
		s.removeFromHand(seat, m.Tile)
		c := &s.cells[m.Square]
		c.tile, c.open, c.owner = m.Tile, true, -1
		s.noteTile(m.Square)
		s.discounts++
	case Move:
		if err = s.checkMove(seat, m); err != nil {
			return err
		}
		k := s.troopAt(seat, m.From)
		s.troops[seat][k] = troop{at: int16(m.To), moved: true}
	case Deploy:
		if err = s.checkDeploy(seat, m); err != nil {
			return err
		}
		k := s.readyInReserve(seat)
		s.troops[seat][k] = troop{at: int16(m.To), moved: true}
	case Withdraw:
		if err = s.checkWithdraw(seat, m); err != nil {
			return err
		}
		k := s.troopAt(seat, m.From)
		s.troops[seat][k] = troop{at: inReserve, moved: true}
	case Camp:
		if err = s.checkCamp(seat, m); err != nil {
			return err
		}
		c := &s.cells[m.Square]
		c.open, c.owner = true, -1
		s.taken = false
	case Destroy:
		if !slices.Contains(s.destroy, int16(m.Square)) {
			return adjudicator.Rulef("no-siege", ruleSiege, "no building on %s may be destroyed now: it takes an opponent's building edge to edge with two of your siege towers, the second built this turn",
				"aucun bâtiment en %s ne peut être détruit : il faut un bâtiment adverse bord à bord avec deux de vos tours de siège, la seconde construite ce tour-ci",
				squareName(m.Square)).At(m.pos)
		}
		c := &s.cells[m.Square]
		c.open, c.owner = true, -1
		s.destroy = slices.DeleteFunc(s.destroy, func(x int16) bool { return x == int16(m.Square) })
	case Discard:
		// Henri's rule D (l. 501); the players' turn has no discard.
		return adjudicator.Rulef("not-henri", ruleDiscard, "only Henri discards a tile (rule D of the solo game)",
			"seul Henri défausse une tuile (règle D du mode solo)").At(m.pos)
	case End:
		if err = s.checkEnd(seat); err != nil {
			return err
		}
		s.endTurn()
	default:
		return fmt.Errorf("heritiers: unknown move type %T", m)
	}
	s.checkTreasures()
	return nil
}

// reach returns how many tiles seat reaches: their troops in the reserve
// + 1 (deux-heritiers-fr.txt:120).
func (s *State) reach(seat int) int { return s.inReserveCount(seat) + 1 }

// inReach reports whether reserve place p (1 to 6) holds a tile seat
// reaches: empty places do not count (deux-heritiers-fr.txt:165).
func (s *State) inReach(seat, p int) bool {
	if p < 1 || p > 6 || s.ring[p-1] < 0 {
		return false
	}
	n := 0
	for k := 0; k < p; k++ {
		if s.ring[k] >= 0 {
			n++
		}
	}
	return n <= s.reach(seat)
}

func (s *State) checkTake(seat int, m Take) *adjudicator.RuleError {
	if s.taken {
		return adjudicator.Rulef("taken", ruleOnce, "you already took a tile this turn (the royal shield is turned); only a Campement lets you take another",
			"vous avez déjà pris une tuile ce tour-ci (le bouclier royal est retourné) ; seul un Campement permet d'en prendre une autre").At(m.pos)
	}
	if len(s.hands[seat]) >= handLimit {
		return adjudicator.Rulef("hand-full", ruleHand, "your hand already holds %d tiles, the most: build or open one first",
			"votre main contient déjà %d tuiles, le maximum : construisez ou ouvrez-en une d'abord", handLimit).At(m.pos)
	}
	if s.ring[m.Place-1] < 0 {
		return adjudicator.Rulef("empty-place", ruleReach, "place %d of the royal reserve is empty", "la place %d de la réserve royale est vide", m.Place).At(m.pos)
	}
	if !s.inReach(seat, m.Place) {
		return adjudicator.Rulef("reach", ruleReach, "place %d is out of your reach: you reach %s from the shield (your troops in the royal reserve + 1)",
			"la place %d est hors de votre portée : vous atteignez %s depuis le bouclier (vos troupes dans la réserve royale + 1)",
			m.Place, tilesWords(s.reach(seat))).At(m.pos)
	}
	return nil
}

// take moves the tile at place p into seat's hand: the shield moves into
// the emptied place and flips, and the top of the stack fills the place
// the shield left (DATA-NOTES.md; DH-9). When that was the stack's last
// tile, the last round begins (deux-heritiers-fr.txt:165).
func (s *State) take(seat, p int) {
	t := s.ring[p-1]
	if s.solo && seat == 1 {
		s.henriTile = t
	} else {
		s.hands[seat] = append(s.hands[seat], t)
	}
	var ring [6]int16
	n := copy(ring[:], s.ring[p:])
	refill := s.draw()
	ring[n] = refill
	copy(ring[n+1:], s.ring[:p-1])
	s.ring = ring
	s.taken, s.took = true, true
	if refill >= 0 && len(s.stack) == 0 && s.last < 0 {
		s.last = 2
	}
}

func (s *State) removeFromHand(seat int, t int16) {
	if s.solo && seat == 1 {
		s.henriTile = -1
		return
	}
	i := slices.Index(s.hands[seat], t)
	s.hands[seat] = slices.Delete(s.hands[seat], i, i+1)
}

// besideTroop reports whether square q touches, edge or corner, a tile
// with one of seat's troops (deux-heritiers-fr.txt:134, 155; DH-10).
func (s *State) besideTroop(seat, q int) bool {
	for _, t := range s.troops[seat] {
		if t.at >= 0 && touches(int(t.at), q) {
			return true
		}
	}
	return false
}

// touches reports whether cells a and b are neighbours, edge or corner.
func touches(a, b int) bool {
	dr, dc := a/frameW-b/frameW, a%frameW-b%frameW
	return a != b && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1
}

func (s *State) notInHand(seat int, t int16, id string) *adjudicator.RuleError {
	if t >= 0 && slices.Contains(s.hands[seat], t) {
		return nil
	}
	// « JOUEZ 1 OU PLUSIEURS TUILES BÂTIMENT DE VOTRE MAIN » (l. 103).
	return adjudicator.Rulef("not-in-hand", rulePlayHand, "you have no %s in your hand (your hand: %s)",
		"vous n'avez pas %s en main (votre main : %s)", adjudicator.OfName(id), s.handWords(seat)).OnHidden()
}

// tilesWords counts tiles in English and French: "1 tile", "3 tuiles".
func tilesWords(n int) adjudicator.Words {
	return adjudicator.Words{EN: fmt.Sprintf("%d %s", n, plural(n, "tile", "tiles")), FR: fmt.Sprintf("%d %s", n, plural(n, "tuile", "tuiles"))}
}

// checkPlace checks a square for a tile from seat's hand: on the frame,
// free, next to one of their troops.
func (s *State) checkPlace(seat, q int, rule string) *adjudicator.RuleError {
	if s.cells[q].tile >= 0 {
		return adjudicator.Rulef("occupied", rule, "%s already holds a tile", "%s porte déjà une tuile", squareName(q))
	}
	if !s.besideTroop(seat, q) {
		return adjudicator.Rulef("not-beside", rule, "%s does not touch, edge or corner, a tile with one of your troops",
			"%s ne touche pas, par un bord ou un coin, une tuile occupée par l'une de vos troupes", squareName(q))
	}
	return nil
}

func (s *State) checkOpen(seat int, m Open) *adjudicator.RuleError {
	if err := s.notInHand(seat, m.Tile, m.ID); err != nil {
		return err.At(m.pos)
	}
	if err := s.checkPlace(seat, m.Square, ruleOpen); err != nil {
		return err.At(m.sqPos)
	}
	return nil
}

func (s *State) checkBuild(seat int, m Build) *adjudicator.RuleError {
	if err := s.notInHand(seat, m.Tile, m.ID); err != nil {
		return err.At(m.pos)
	}
	if err := s.checkPlace(seat, m.Square, ruleBuild); err != nil {
		return err.At(m.sqPos)
	}
	t := s.tile(m.Tile)
	if m.auto {
		return adjudicator.Rulef("cannot-pay", rulePay, "you cannot pay the %s (%s) with what you reach now",
			"vous ne pouvez pas payer la tuile %s (%s) avec ce que vous atteignez maintenant", t.ID, t.costWords()).At(m.pos)
	}
	_, err := s.checkPay(seat, m)
	return err
}

// source returns the resource and how many times seat may still pay with
// place p this turn: a reserve place within reach once, a square once per
// troop of seat's on it and once more for seat's own ferme, scierie or
// carrière there (deux-heritiers-fr.txt:277-291; DH-11).
func (s *State) source(seat, p int) (Colour, int) {
	if p < 0 {
		if !s.inReach(seat, -p) || slices.Contains(s.paidTiles, s.ring[-p-1]) {
			return 0, 0
		}
		return s.tile(s.ring[-p-1]).Colour, 1
	}
	col, ok := s.colour(p)
	if !ok {
		return 0, 0
	}
	n := s.sourceTotal(seat, p)
	for _, x := range s.paidCells {
		if int(x) == p {
			n--
		}
	}
	return col, max(n, 0)
}

// sourceTotal returns how many resources square q gives seat in a turn,
// before any has paid.
func (s *State) sourceTotal(seat, q int) int {
	n := 0
	if s.troopOf(seat, q) {
		n++
	}
	if b, o, ok := s.building(q); ok && o == seat && (b == Ferme || b == Scierie || b == Carriere) {
		n++
	}
	return n
}

// checkPay checks m's payment and returns whether it uses the discount of
// an open terrain.
func (s *State) checkPay(seat int, m Build) (bool, *adjudicator.RuleError) {
	t := s.tile(m.Tile)
	var got [3]int
	for i, p := range m.Pay {
		at := func(e *adjudicator.RuleError) *adjudicator.RuleError {
			if i < len(m.payPos) {
				return e.At(m.payPos[i])
			}
			return e.At(m.pos)
		}
		times := 0
		for _, q := range m.Pay[:i+1] {
			if q == p {
				times++
			}
		}
		col, n := s.source(seat, p)
		if times > n {
			if p < 0 {
				switch {
				case s.ring[-p-1] < 0:
					return false, at(adjudicator.Rulef("empty-place", ruleReach, "place %d of the royal reserve is empty", "la place %d de la réserve royale est vide", -p))
				case !s.inReach(seat, -p):
					return false, at(adjudicator.Rulef("reach", ruleReach, "place %d is out of your reach: you reach %s from the shield",
						"la place %d est hors de votre portée : vous atteignez %s depuis le bouclier", -p, tilesWords(s.reach(seat))))
				}
				if n > 0 {
					// Named twice in this payment, not paid before it.
					return false, at(adjudicator.Rulef("paid", rulePay, "the tile at place %d gives only 1 resource: name it once", "la tuile de la place %d ne donne qu'une ressource : nommez-la une fois", -p))
				}
				return false, at(adjudicator.Rulef("paid", rulePay, "the tile at place %d already paid this turn", "la tuile de la place %d a déjà payé ce tour-ci", -p))
			}
			if full := s.sourceTotal(seat, p); times <= full {
				return false, at(adjudicator.Rulef("paid", rulePay, "%s already paid this turn: each tile and building pays once a turn",
					"%s a déjà payé ce tour-ci : chaque tuile et bâtiment paie une fois par tour", squareName(p)))
			}
			if times == 1 {
				return false, at(adjudicator.Rulef("no-source", rulePay, "%s gives you nothing: you have no troop there and no ferme, scierie or carrière of yours, or it already paid this turn",
					"%s ne vous donne rien : vous n'y avez ni troupe ni ferme, scierie ou carrière, ou elle a déjà payé ce tour-ci", squareName(p)))
			}
			only := adjudicator.Words{EN: fmt.Sprintf("only %d resources", n), FR: fmt.Sprintf("que %d ressources", n)}
			if n == 1 {
				only = adjudicator.Words{EN: "only 1 resource", FR: "qu'une ressource"}
			}
			return false, at(adjudicator.Rulef("no-source", rulePay, "%s gives you %s this turn", "%s ne vous donne %s ce tour-ci", squareName(p), only))
		}
		got[col]++
	}
	short, extra := 0, 0
	for c := range 3 {
		d := int(t.Cost[c]) - got[c]
		if d > 0 {
			short += d
		} else {
			extra -= d
		}
	}
	if extra == 0 && short == 0 {
		return false, nil
	}
	if extra == 0 && short == 1 && s.discounts > 0 {
		return true, nil
	}
	paid := adjudicator.Words{EN: "this pays nothing", FR: "ceci ne paie rien"}
	if len(m.Pay) > 0 {
		w := resourceWords(got)
		paid = adjudicator.Words{EN: "this pays " + w.EN, FR: "ceci paie " + w.FR}
	}
	why := adjudicator.Words{}
	if extra == 0 && short == 1 {
		why = adjudicator.Words{EN: " (an open terrain laid this turn would make it a resource cheaper)", FR: " (un terrain ouvert posé ce tour-ci le rendrait moins cher d'une ressource)"}
	} else if extra == 0 && short > 1 && s.discounts > 0 {
		why = adjudicator.Words{EN: " (an open terrain's discount takes off only one)", FR: " (la réduction d'un terrain ouvert n'en retire qu'une)"}
	}
	return false, adjudicator.Rulef("pay", rulePay, "the %s costs %s; %s%s", "la tuile %s coûte %s ; %s%s",
		t.ID, t.costWords(), paid, why).At(m.pos)
}

func resourceWords(got [3]int) adjudicator.Words {
	var t Tile
	for c := range 3 {
		t.Cost[c] = uint8(got[c])
	}
	return t.costWords()
}

// build plays a checked Build: the tile face up, turned to its builder.
func (s *State) build(seat int, m Build) {
	disc, _ := s.checkPay(seat, m)
	if disc {
		s.discounts--
	}
	for _, p := range m.Pay {
		if p < 0 {
			s.paidTiles = append(s.paidTiles, s.ring[-p-1])
		} else {
			s.paidCells = append(s.paidCells, int16(p))
		}
	}
	s.removeFromHand(seat, m.Tile)
	s.place(seat, m.Tile, m.Square)
	if s.solo && seat == 0 {
		s.lastBuilt = int16(m.Square)
	}
	if s.tile(m.Tile).Building == Siege {
		// Each tower adds its targets to those of the towers built
		// before it this turn: a right to destroy lasts until the turn
		// ends (deux-heritiers-fr.txt:313; DH-16).
		for _, q := range s.siegeTargets(seat, m.Square) {
			if !slices.Contains(s.destroy, q) {
				s.destroy = append(s.destroy, q)
			}
		}
		slices.Sort(s.destroy)
	}
}

func (s *State) place(seat int, t int16, q int) {
	c := &s.cells[q]
	c.tile, c.open, c.owner = t, false, int8(seat)
	s.noteTile(q)
}

// siegeTargets returns the opponent's buildings edge to edge with the
// siege tower just built on q and with another of seat's siege towers
// (deux-heritiers-fr.txt:313).
func (s *State) siegeTargets(seat, q int) []int16 {
	var out []int16
	for _, e := range edges {
		j := neighbour(q, e.dr, e.dc)
		if _, o, ok := s.building(j); !ok || o == seat {
			continue
		}
		for _, e2 := range edges {
			k := neighbour(j, e2.dr, e2.dc)
			if b, o, ok := s.building(k); ok && k != q && o == seat && b == Siege {
				out = append(out, int16(j))
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// troopAt returns the index of seat's troop on cell q, or -1.
func (s *State) troopAt(seat, q int) int {
	for k, t := range s.troops[seat] {
		if int(t.at) == q {
			return k
		}
	}
	return -1
}

// occupied reports whether any troop stands on cell q.
func (s *State) occupied(q int) bool {
	return s.troopAt(0, q) >= 0 || s.troopAt(1, q) >= 0
}

// readyInReserve returns a troop of seat's in the royal reserve that has
// not moved this turn, or -1.
func (s *State) readyInReserve(seat int) int {
	for k, t := range s.troops[seat] {
		if t.at == inReserve && !t.moved {
			return k
		}
	}
	return -1
}

func errMoved(q int) *adjudicator.RuleError {
	return adjudicator.Rulef("moved", ruleOnce, "the troop on %s already moved this turn", "la troupe en %s s'est déjà déplacée ce tour-ci", squareName(q))
}

func (s *State) checkMove(seat int, m Move) *adjudicator.RuleError {
	k := s.troopAt(seat, m.From)
	if k < 0 {
		return adjudicator.Rulef("no-troop", ruleMove, "you have no troop on %s", "vous n'avez pas de troupe en %s", squareName(m.From)).At(m.pos)
	}
	if s.troops[seat][k].moved {
		return errMoved(m.From).At(m.pos)
	}
	if m.From == m.To {
		return adjudicator.Rulef("not-adjacent", ruleMove, "a troop moves to another tile: yours already stands on %s",
			"une troupe se déplace sur une autre tuile : la vôtre est déjà en %s", squareName(m.To)).At(m.toPos)
	}
	if !touches(m.From, m.To) {
		return adjudicator.Rulef("not-adjacent", ruleMove, "%s is not next to %s: a troop moves one tile, edge or corner",
			"%s n'est pas voisine de %s : une troupe se déplace d'une tuile, par un bord ou un coin", squareName(m.To), squareName(m.From)).At(m.toPos)
	}
	if !s.hasTile(m.To) {
		return adjudicator.Rulef("no-tile", ruleMove, "there is no tile on %s", "il n'y a pas de tuile en %s", squareName(m.To)).At(m.toPos)
	}
	if s.occupied(m.To) {
		return adjudicator.Rulef("troop-there", ruleOneTroop, "%s already holds a troop; one troop per tile", "%s porte déjà une troupe ; une troupe par tuile", squareName(m.To)).At(m.toPos)
	}
	return nil
}

func (s *State) checkDeploy(seat int, m Deploy) *adjudicator.RuleError {
	if s.readyInReserve(seat) < 0 {
		if s.inReserveCount(seat) == 0 {
			return adjudicator.Rulef("reserve-empty", ruleDeploy, "you have no troop in the royal reserve", "vous n'avez aucune troupe dans la réserve royale").At(m.pos)
		}
		return adjudicator.Rulef("moved", ruleOnce, "your troop in the royal reserve was withdrawn this turn: each troop moves once a turn",
			"votre troupe dans la réserve royale y a été retirée ce tour-ci : chaque troupe se déplace une fois par tour").At(m.pos)
	}
	if !s.hasTile(m.To) {
		return adjudicator.Rulef("no-tile", ruleDeploy, "there is no tile on %s", "il n'y a pas de tuile en %s", squareName(m.To)).At(m.pos)
	}
	if s.occupied(m.To) {
		return adjudicator.Rulef("troop-there", ruleDeploy, "%s already holds a troop", "%s porte déjà une troupe", squareName(m.To)).At(m.pos)
	}
	if !s.besideTroop(seat, m.To) {
		return adjudicator.Rulef("not-beside", ruleDeploy, "%s does not touch, edge or corner, a tile with another of your troops",
			"%s ne touche pas, par un bord ou un coin, une tuile occupée par une autre de vos troupes", squareName(m.To)).At(m.pos)
	}
	return nil
}

func (s *State) checkWithdraw(seat int, m Withdraw) *adjudicator.RuleError {
	k := s.troopAt(seat, m.From)
	if k < 0 {
		return adjudicator.Rulef("no-troop", ruleWithdraw, "you have no troop on %s", "vous n'avez pas de troupe en %s", squareName(m.From)).At(m.pos)
	}
	if k == 0 {
		return adjudicator.Rulef("cavalry", ruleWithdraw, "your cavalry on %s never leaves the landscape", "votre cavalerie en %s ne quitte jamais la zone de jeu", squareName(m.From)).At(m.pos)
	}
	if s.troops[seat][k].moved {
		return errMoved(m.From).At(m.pos)
	}
	return nil
}

func (s *State) checkCamp(seat int, m Camp) *adjudicator.RuleError {
	if b, o, ok := s.building(m.Square); !ok || b != Campement || o != seat {
		return adjudicator.Rulef("no-campement", ruleCampement, "you have no unused Campement on %s", "vous n'avez pas de Campement inutilisé en %s", squareName(m.Square)).At(m.pos)
	}
	if !s.taken {
		return adjudicator.Rulef("not-taken", ruleCampement, "a Campement is used after taking this turn's tile; take one first",
			"un Campement s'utilise après avoir pris la tuile du tour ; prenez-en une d'abord").At(m.pos)
	}
	return nil
}

// mustTake reports whether seat must still take a tile before ending:
// action A is mandatory (deux-heritiers-fr.txt:102) while a tile is within
// reach and the hand has room, or can be made room by laying a tile (DH-9).
func (s *State) mustTake(seat int) bool {
	if s.took {
		return false // a Campement's second take is a choice
	}
	any := false
	for p := 1; p <= 6; p++ {
		if s.inReach(seat, p) {
			any = true
		}
	}
	if !any {
		return false
	}
	if len(s.hands[seat]) < handLimit {
		return true
	}
	return len(s.freeBeside(seat)) > 0
}

func (s *State) checkEnd(seat int) *adjudicator.RuleError {
	if !s.mustTake(seat) {
		return nil
	}
	if len(s.hands[seat]) >= handLimit {
		return adjudicator.Rulef("must-take", ruleTake, "take a tile before ending your turn: your hand is full, so build or open one first",
			"prenez une tuile avant de finir votre tour : votre main est pleine, construisez ou ouvrez-en une d'abord")
	}
	return adjudicator.Rulef("must-take", ruleTake, "take a tile before ending your turn: it is mandatory", "prenez une tuile avant de finir votre tour : c'est obligatoire")
}

// endTurn turns the troops back, and passes the turn; after the last
// round the game is over.
func (s *State) endTurn() {
	for k := range s.troops[s.turn] {
		s.troops[s.turn][k].moved = false
	}
	s.taken, s.took = false, false
	s.discounts = 0
	s.paidTiles, s.paidCells, s.destroy = nil, nil, nil
	if s.last == 0 {
		s.over = true
		return
	}
	if s.last > 0 {
		s.last--
	}
	s.turn = 1 - s.turn
}

// takeSteps holds the step of taking from each place (1 to 6), and
// frameSteps those of deploying on and of withdrawing from each square of
// the frame, made once for Legal rather than on every call.
var (
	takeSteps  = [7]adjudicator.Move{1: Take{Place: 1}, 2: Take{Place: 2}, 3: Take{Place: 3}, 4: Take{Place: 4}, 5: Take{Place: 5}, 6: Take{Place: 6}}
	frameSteps = func() (t struct {
		deploy, withdraw [frameW * frameH]adjudicator.Move
	}) {
		for q := range t.deploy {
			t.deploy[q], t.withdraw[q] = Deploy{To: q}, Withdraw{From: q}
		}
		return t
	}()
)

// moveSteps returns the step of moving a troop from each square of the
// frame to each square around it (Move; nil off the frame), made the
// first time Legal lists one.
var moveSteps = sync.OnceValue(func() *[frameW * frameH][len(around)]adjudicator.Move {
	var t [frameW * frameH][len(around)]adjudicator.Move
	for q := range t {
		for i, d := range around {
			if n := neighbour(q, d[0], d[1]); n >= 0 {
				t[q][i] = Move{From: q, To: n}
			}
		}
	}
	return &t
})

// freeBeside returns the free squares of the frame next to seat's troops,
// ascending.
func (s *State) freeBeside(seat int) []int { return s.appendFreeBeside(nil, seat) }

// appendFreeBeside appends freeBeside(seat) to out, which must be empty.
func (s *State) appendFreeBeside(out []int, seat int) []int {
	for _, t := range s.troops[seat] {
		if t.at < 0 {
			continue
		}
		for _, d := range around {
			q := neighbour(int(t.at), d[0], d[1])
			if q >= 0 && s.cells[q].tile < 0 && !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
	}
	slices.Sort(out)
	return out
}

// payments returns the ways seat may pay for tile t now, in canonical
// order, at most limit of them (0: all): full payments before those using
// an open terrain's discount, squares before reserve places.
func (s *State) payments(seat int, t int16, limit int) [][]int {
	type src struct {
		p   int
		col Colour
		n   int
	}
	var srcs []src
	for _, q := range s.paySquares(seat) {
		if col, n := s.source(seat, q); n > 0 {
			srcs = append(srcs, src{q, col, n})
		}
	}
	for p := 1; p <= 6; p++ {
		if col, n := s.source(seat, -p); n > 0 {
			srcs = append(srcs, src{-p, col, n})
		}
	}
	cost := s.tile(t).Cost
	var out [][]int
	var cur []int
	var walk func(i int, need [3]int, disc bool)
	walk = func(i int, need [3]int, disc bool) {
		if limit > 0 && len(out) >= limit {
			return
		}
		left := need[0] + need[1] + need[2]
		if left == 0 || disc && left == 1 {
			if !disc || left == 1 {
				m := Build{Pay: slices.Clone(cur)}
				sortPay(&m)
				out = append(out, m.Pay)
			}
			if left == 0 {
				return
			}
		}
		if i == len(srcs) {
			return
		}
		sr := srcs[i]
		for k := min(sr.n, need[sr.col]); k >= 0; k-- {
			n2 := need
			n2[sr.col] -= k
			for range k {
				cur = append(cur, sr.p)
			}
			walk(i+1, n2, disc)
			cur = cur[:len(cur)-k]
		}
	}
	need := [3]int{int(cost[0]), int(cost[1]), int(cost[2])}
	walk(0, need, false)
	if s.discounts > 0 {
		walk(0, need, true)
	}
	return out
}

// paySquares returns the squares that may give seat resources: under
// their troops and their own fermes, scieries and carrières, ascending.
func (s *State) paySquares(seat int) []int {
	var out []int
	for _, t := range s.troops[seat] {
		if t.at >= 0 && s.hasTile(int(t.at)) {
			out = append(out, int(t.at))
		}
	}
	for _, at := range s.placed {
		i := int(at)
		if b, o, ok := s.building(i); ok && o == seat && (b == Ferme || b == Scierie || b == Carriere) && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// Legal returns every step player may take now, in a stable order: take,
// build (by tile in hand order, square, payment), open, camp, destroy,
// move, deploy, withdraw, end. For Henri it is his next step.
func (s *State) Legal(player string) []adjudicator.Move { return s.AppendLegal(nil, player) }

// AppendLegal returns append(out, Legal(player)...), for a search that
// lists steps into a list it reuses (bot.LegalAppender).
func (s *State) AppendLegal(out []adjudicator.Move, player string) []adjudicator.Move {
	seat := s.seat(player)
	if seat < 0 || adjudicator.CanAct(s, player) != nil {
		return out
	}
	if s.solo && seat == 1 {
		steps, err := s.henriSteps(false)
		if err != nil || len(steps) == 0 {
			return out
		}
		return append(out, steps[0].Move)
	}
	if !s.taken && len(s.hands[seat]) < handLimit {
		for p := 1; p <= 6; p++ {
			if s.inReach(seat, p) {
				out = append(out, takeSteps[p])
			}
		}
	}
	var freeAt [64]int // on the stack unless long
	free := s.appendFreeBeside(freeAt[:0], seat)
	hand := s.hands[seat]
	for i, t := range hand {
		if slices.Contains(hand[:i], t) {
			continue
		}
		pays := s.payments(seat, t, 0)
		for _, q := range free {
			for _, p := range pays {
				out = append(out, Build{Tile: t, ID: s.tile(t).ID, Square: q, Pay: p})
			}
		}
	}
	for i, t := range hand {
		if slices.Contains(hand[:i], t) {
			continue
		}
		for _, q := range free {
			out = append(out, Open{Tile: t, ID: s.tile(t).ID, Square: q})
		}
	}
	if s.taken {
		for _, at := range s.placed {
			i := int(at)
			if b, o, ok := s.building(i); ok && b == Campement && o == seat {
				out = append(out, Camp{Square: i})
			}
		}
	}
	for _, q := range s.destroy {
		out = append(out, Destroy{Square: int(q)})
	}
	var moves *[frameW * frameH][len(around)]adjudicator.Move
	for _, t := range s.troops[seat] {
		if t.at < 0 || t.moved {
			continue
		}
		for i, d := range around {
			q := neighbour(int(t.at), d[0], d[1])
			if q >= 0 && s.hasTile(q) && !s.occupied(q) {
				if moves == nil {
					moves = moveSteps()
				}
				out = append(out, moves[t.at][i])
			}
		}
	}
	if s.readyInReserve(seat) >= 0 {
		for _, at := range s.placed {
			i := int(at)
			if s.hasTile(i) && !s.occupied(i) && s.besideTroop(seat, i) {
				out = append(out, frameSteps.deploy[i])
			}
		}
	}
	for k, t := range s.troops[seat] {
		if k > 0 && t.at >= 0 && !t.moved {
			out = append(out, frameSteps.withdraw[t.at])
		}
	}
	if !s.mustTake(seat) { // checkEnd(seat) == nil, without building its error
		out = append(out, End{})
	}
	return out
}
