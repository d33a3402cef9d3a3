package lowenherz97

import (
	"fmt"
	"slices"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
)

func (s *State) applyAct(p int, m adjudicator.Move) error {
	a := &s.act
	if a.pol >= 0 {
		switch mv := m.(type) {
		case RenegadeMove:
			if PolKind(a.pol) == Renegade {
				return s.applyRenegade(p, mv)
			}
		case AllianceMove: // option alliance=action: the regions named now
			if PolKind(a.pol) == Alliance {
				if err := s.checkAlliance(p, mv); err != nil {
					return err
				}
				lab, ar := s.info()
				s.ally(p, ar[lab[mv.Mine]].castle, ar[lab[mv.Theirs]].castle)
				if a.pol = -1; s.actDone() {
					s.finishAct()
				}
				return nil
			}
		}
		// Its effect applies as the action is carried out (l. 248, 260),
		// a renegade as the action's first step (RULINGS.md L97-11).
		return rulef(codePolitical, ruleAttach, "first carry out your %s card (its effect applies as you carry out the action)",
			"exécutez d'abord votre carte %s (son effet s'applique avec l'action)", adjudicator.Words{EN: polNames[a.pol], FR: polNamesFR[a.pol]})
	}
	switch mv := m.(type) {
	case AllianceMove:
		return rulef(codePolitical, ruleAllianceOn, "an alliance's regions are named when its card is laid, like choose 2 with alliance %s %s, and take effect as the action is carried out",
			"les régions d'une alliance se nomment quand on pose sa carte, par exemple choisis 2 avec alliance %s %s, et l'alliance prend effet quand l'action est exécutée", s.sq(mv.Mine), s.sq(mv.Theirs)).At(mv.pos[0])
	case End:
		if a.looked >= 0 {
			return rulef(codeAction, rulePile, "you have looked at pile %d: take a card from it, the crown and sceptre is to examine a pile and choose a card",
				"vous avez regardé la pile %d : prenez-y une carte, la couronne et le sceptre consiste à examiner une pile et à choisir une carte", a.looked+1)
		}
		if !s.scratch {
			en, fr := a.action.Words()
			s.log(s.names[p]+" ends "+en, s.names[p]+" termine "+fr)
		}
		s.finishAct()
		return nil
	case Look:
		if err := s.checkLook(mv); err != nil {
			return err
		}
		a.looked = int8(mv.Pile - 1)
		s.logf("%s looks at political pile %d", "%s regarde la pile de politique %d", s.names[p], mv.Pile)
		return nil
	case Take:
		c, err := s.checkTake(mv)
		if err != nil {
			return err
		}
		pile := &s.piles[a.looked]
		i := slices.Index(*pile, c)
		*pile = without(*pile, i)
		s.hands[p] = append(s.hands[p], c)
		s.logf("%s takes a political card from pile %d", "%s prend une carte politique de la pile %d", s.names[p], a.looked+1)
		a.took, a.looked = true, -1
	case Wall:
		if err := s.checkWall(p, mv); err != nil {
			return err
		}
		a.walls++
		if !s.scratch {
			s.log(s.names[p]+" places a wall "+board.EdgeName(mv.Edge), s.names[p]+" pose un mur "+board.EdgeName(mv.Edge))
		}
		s.placeWall(mv.Edge)
	case Knight:
		if err := s.checkKnightStep(p, mv); err != nil {
			return err
		}
		a.knights++
		a.extOpen = false
		s.placeKnight(p, mv.Square, mv.Treasure)
	case Extend:
		from, err := s.checkExtend(p, mv)
		if err != nil {
			return err
		}
		if a.ext == 0 {
			a.extFrom = from
			a.extBase = s.extStart()
		}
		a.ext++
		a.extOpen = a.ext < 2
		s.annex(p, from, mv.Square)
	default:
		return s.wrongStep(m)
	}
	if s.actDone() {
		s.finishAct()
	}
	return nil
}

// --- crown -----------------------------------------------------------------

func (s *State) checkLook(m Look) *adjudicator.RuleError {
	a := &s.act
	switch {
	case a.action.Kind != Crown:
		return rulef(codeAction, rulePile, "only the crown and sceptre lets you look at a political pile", "seule la couronne et le sceptre permet de regarder une pile politique").At(m.pos)
	case a.looked >= 0:
		return rulef(codeAction, rulePile, "you are looking at pile %d: take a card from it", "vous regardez la pile %d : prenez-y une carte", a.looked+1).At(m.pos)
	case len(s.piles[m.Pile-1]) == 0:
		return rulef(codeAction, rulePile, "political pile %d is empty", "la pile politique %d est vide", m.Pile).At(m.pos)
	}
	return nil
}

func (s *State) checkTake(m Take) (Political, *adjudicator.RuleError) {
	a := &s.act
	if a.action.Kind != Crown || a.looked < 0 {
		return Political{}, rulef(codeAction, rulePile, "look at a political pile first (look 1 or look 2)", "regardez d'abord une pile politique (regarde 1 ou regarde 2)").At(m.pos)
	}
	pile := s.piles[a.looked]
	var found []Political
	for _, c := range pile {
		if c.Kind == m.Card.Kind && (m.Card.Value == 0 || c.Value == m.Card.Value) && !slices.Contains(found, c) {
			found = append(found, c)
		}
	}
	switch {
	case len(found) == 0:
		return Political{}, rulef(codeAction, rulePile, "pile %d holds no %s", "la pile %d ne contient pas de %s", a.looked+1,
			adjudicator.Words{EN: m.Card.String(), FR: m.Card.French()}).At(m.pos).OnHidden()
	case len(found) > 1:
		return Political{}, rulef(codeAction, rulePile, "pile %d holds %s and %s: say which", "la pile %d contient %s et %s : précisez", a.looked+1,
			adjudicator.Words{EN: found[0].String(), FR: found[0].French()}, adjudicator.Words{EN: found[1].String(), FR: found[1].French()}).At(m.pos).OnHidden()
	}
	return found[0], nil
}

// --- knights ---------------------------------------------------------------

// Reasons a knight may not go on a square, for knightFail.
const (
	knightOK = iota
	knightNoneLeft
	knightTaken
	knightTerrain
	knightAlone
	knightWalled // beside one's own pieces only across walls
)

// knightFail says why colour p may not place a knight on q, without its
// cost, or knightOK; it allocates nothing, for Legal.
func (s *State) knightFail(p int, q grid.Square) int {
	switch {
	case s.reserve[p] == 0:
		return knightNoneLeft
	case s.castle[q] >= 0 || s.knight[q] >= 0:
		return knightTaken
	case s.terrain[q] == Hill || s.terrain[q] == City:
		return knightTerrain
	}
	var nb [4]grid.Square
	fail := knightAlone
	for _, n := range board.Neighbours(nb[:0], q) {
		if int(s.knight[n]) == p || int(s.castle[n]) == p {
			if s.g.Open(q, n) {
				return knightOK
			}
			fail = knightWalled
		}
	}
	return fail
}

// checkKnightAt checks that colour p may place a knight on q
// (lowenherz-1997-fr.txt:163-168), without its cost.
func (s *State) checkKnightAt(p int, q grid.Square) *adjudicator.RuleError {
	switch s.knightFail(p, q) {
	case knightNoneLeft:
		return rulef(codeKnight, ruleKnightLeft, "you have no knight left to place", "vous n'avez plus de chevalier à placer")
	case knightTaken:
		return rulef(codeKnight, ruleTerrain, "%s is taken by %s", "%s est occupée par %s", s.sq(q), s.occupant(q))
	case knightTerrain:
		t := s.terrain[q]
		return rulef(codeKnight, ruleNoHill, "a knight is never placed on a %s (%s)", "un chevalier ne se pose jamais sur une %s (%s)",
			adjudicator.Words{EN: t.String(), FR: t.French()}, s.sq(q))
	case knightAlone:
		return rulef(codeKnight, ruleAdjacent, "%s is not beside one of your knights or castles without a wall between", "%s n'est pas à côté d'un de vos chevaliers ou châteaux sans mur entre eux", s.sq(q))
	case knightWalled:
		return rulef(codeKnight, ruleWallApart, "%s is beside your pieces only across a wall, which keeps them apart", "%s ne touche vos pièces qu'à travers un mur, qui les sépare", s.sq(q))
	}
	return nil
}

func (s *State) knightCost(q grid.Square) int {
	if s.terrain[q] == Forest {
		return forestCost
	}
	return 0
}

func (s *State) checkKnightStep(p int, m Knight) *adjudicator.RuleError {
	a := &s.act
	if a.action.Kind != Shield && a.action.Kind != Shields {
		return rulef(codeAction, ruleCarryOut, "you are carrying out the %s action, which places no knights", "vous exécutez l'action %s, qui ne place pas de chevalier", a.action.Named()).At(m.pos)
	}
	if a.knights >= a.budget() || a.uses() >= a.budget() {
		return rulef(codeAction, a.shieldRule(), "%s is used up", "l'action %s est épuisée", a.action.Named()).At(m.pos)
	}
	if err := s.checkKnightAt(p, m.Square); err != nil {
		return err.At(m.pos)
	}
	if err := s.checkPay(p, s.knightCost(m.Square), m.Treasure, ruleTerrain); err != nil {
		return err.At(m.tpos)
	}
	return nil
}

func (s *State) placeKnight(p int, q grid.Square, tv int) {
	cost := s.knightCost(q)
	s.pay(p, cost, tv)
	s.ownPieces()
	s.knight[q] = int8(p)
	s.reserve[p]--
	if cost > 0 {
		s.logf("%s places a knight at %s, in a forest, for 5 ducats", "%s pose un chevalier en %s, en forêt, pour 5 ducats", s.names[p], s.sq(q))
	} else {
		if !s.scratch {
			s.log(s.names[p]+" places a knight at "+s.sq(q), s.names[p]+" pose un chevalier en "+s.sq(q))
		}
	}
}

// --- walls -----------------------------------------------------------------

// samePair reports whether a wall between a and b would stand between a
// knight and a castle, or two knights, of one prince (lowenherz-1997-fr.txt:141).
func (s *State) samePair(a, b grid.Square) bool {
	ka, kb := s.knight[a], s.knight[b]
	ca, cb := s.castle[a], s.castle[b]
	switch {
	case ka >= 0 && (ka == kb || ka == cb):
		return true
	case kb >= 0 && kb == ca:
		return true
	}
	return false
}

// Reasons a wall may not go on an edge, for wallFail.
const (
	wallOK = iota
	wallThree
	wallThere
	wallPair
	wallRegion
	wallStock
)

// wallFail says why p may not place a wall on e, or wallOK; it allocates
// nothing, for Legal.
func (s *State) wallFail(p int, e grid.Edge) int {
	if s.regionCount(p) >= maxRegions {
		return wallThree
	}
	if s.g.CountWalls() >= wallSupply {
		return wallStock
	}
	return s.edgeFail(e)
}

// edgeFail is wallFail without the checks on the prince and the supply.
func (s *State) edgeFail(e grid.Edge) int {
	switch {
	case s.g.Wall(e.A, e.B):
		return wallThere
	case s.samePair(e.A, e.B):
		return wallPair
	}
	if _, o := s.regionOf(e.A); o >= 0 {
		return wallRegion
	}
	return wallOK
}

func (s *State) checkWallAt(p int, e grid.Edge) *adjudicator.RuleError {
	switch s.wallFail(p, e) {
	case wallThree:
		return rulef(codeWall, ruleThreeReg, "you have 3 regions: you place no more walls", "vous avez 3 régions : vous ne placez plus de murs")
	case wallThere:
		return rulef(codeWall, ruleWallLine, "there is a wall between %s and %s already", "il y a déjà un mur entre %s et %s", s.sq(e.A), s.sq(e.B))
	case wallPair:
		return rulef(codeWall, ruleWallPair, "a wall never separates a knight from a castle or a knight of the same prince (%s, %s)",
			"un mur ne sépare jamais un chevalier d'un château ou d'un chevalier du même prince (%s, %s)", s.sq(e.A), s.sq(e.B))
	case wallRegion:
		_, o := s.regionOf(e.A)
		return rulef(codeWall, ruleWallRegion, "%s and %s are inside %s's region: no wall is placed in a region", "%s et %s sont dans la région %s : aucun mur ne se pose dans une région",
			s.sq(e.A), s.sq(e.B), adjudicator.OfName(s.colourName(o)))
	case wallStock:
		return rulef(codeWall, ruleWallStock, "all 100 walls are on the board", "les 100 murs sont sur le plateau")
	}
	return nil
}

func (s *State) checkWall(p int, m Wall) *adjudicator.RuleError {
	a := &s.act
	if a.action.Kind != Walls {
		return rulef(codeAction, ruleCarryOut, "you are carrying out the %s action, which places no walls", "vous exécutez l'action %s, qui ne place pas de murs", a.action.Named()).At(m.pos)
	}
	if err := s.checkWallAt(p, m.Edge); err != nil {
		return err.At(m.pos)
	}
	return nil
}

// regionCastles returns, for every square with a castle, whether its area
// is a region now.
func (s *State) regionCastles() []grid.Square { return s.appendRegionCastles(nil) }

// appendRegionCastles appends regionCastles() to out.
func (s *State) appendRegionCastles(out []grid.Square) []grid.Square {
	lab, ar := s.info()
	for q, c := range s.castle {
		if c >= 0 && ar[lab[q]].region() {
			out = append(out, grid.Square(q))
		}
	}
	return out
}

// placeWall places a wall and scores the regions it creates.
func (s *State) placeWall(e grid.Edge) {
	if !s.g.MayCut(e) {
		// A wall with a free end cuts no area: the areas, and so the
		// regions, stay as they are.
		s.ownGrid()
		s.g.SetWall(e, true)
		return
	}
	var at [castlesAtMost]grid.Square
	before := s.appendRegionCastles(at[:0])
	s.ownGrid()
	s.g.SetWall(e, true)
	s.dirty = true
	s.scoreNewRegions(before)
}

// scoreNewRegions scores each region that was not one before, for its
// owner, and takes the walls left inside it off the board
// (lowenherz-1997-fr.txt:219-230).
func (s *State) scoreNewRegions(before []grid.Square) {
	var at [castlesAtMost]grid.Square
	for _, q := range s.appendRegionCastles(at[:0]) {
		if slices.Contains(before, q) {
			continue
		}
		lab, ar := s.info()
		l := lab[q]
		a := ar[l]
		c := int(s.castle[q])
		s.logf("a region of %d squares with %d cities is created for %s at %s", "une région de %d cases avec %d villes est créée pour %s en %s",
			a.size, a.cities, s.colourWords(c), s.sq(q))
		s.addScore(c, regionPoints(a.size, a.cities), adjudicator.Words{EN: fmt.Sprintf("new region of %d squares, %d cities", a.size, a.cities),
			FR: fmt.Sprintf("nouvelle région de %d cases, %d villes", a.size, a.cities)})
		for _, e := range s.g.Walls() {
			if lab[e.A] == l && lab[e.B] == l {
				s.g.SetWall(e, false)
			}
		}
	}
}

// --- extensions ------------------------------------------------------------

// extendFrom returns the castle of the region m extends, or an error.
func (s *State) extendFrom(p int, m Extend) (grid.Square, *adjudicator.RuleError) {
	lab, ar := s.info()
	a := &s.act
	if a.ext > 0 {
		if !a.extOpen {
			return 0, rulef(codeExtend, ruleShields, "%s allows one extension only", "l'action %s ne permet qu'une extension", a.action.Named()).At(m.pos)
		}
		l := lab[a.extFrom]
		if m.HasFrom && lab[m.From] != l {
			return 0, rulef(codeExtend, ruleExtend, "the second square extends the same region as the first", "la deuxième case étend la même région que la première").At(m.fromPos)
		}
		return a.extFrom, nil
	}
	if m.HasFrom {
		l := lab[m.From]
		if !ar[l].region() || ar[l].owner != p {
			return 0, rulef(codeExtend, ruleExtend, "%s is not in one of your regions", "%s n'est pas dans une de vos régions", s.sq(m.From)).At(m.fromPos)
		}
		return ar[l].castle, nil
	}
	var found []grid.Square
	var nb [4]grid.Square
	for _, n := range board.Neighbours(nb[:0], m.Square) {
		l := lab[n]
		if ar[l].region() && ar[l].owner == p && l != lab[m.Square] && !slices.Contains(found, ar[l].castle) {
			found = append(found, ar[l].castle)
		}
	}
	if l := lab[m.Square]; len(found) == 0 && ar[l].region() && ar[l].owner == p {
		// Not "does not border": it lies inside.
		return 0, rulef(codeExtend, ruleOwnRegion, "%s is in your region already: extend onto a square beside it", "%s est déjà dans votre région : étendez-la sur une case voisine", s.sq(m.Square)).At(m.pos)
	}
	switch len(found) {
	case 0:
		return 0, rulef(codeExtend, ruleExtend, "%s does not border one of your regions", "%s ne touche aucune de vos régions", s.sq(m.Square)).At(m.pos)
	case 1:
		return found[0], nil
	}
	return 0, rulef(codeExtend, ruleExtend, "%s borders two of your regions: say which, like extend %s from %s", "%s touche deux de vos régions : précisez, par exemple étends %s depuis %s",
		s.sq(m.Square), s.sq(m.Square), s.sq(found[0])).At(m.pos)
}

// checkAnnex checks that p's region with castle from may annex q
// (lowenherz-1997-fr.txt:172-196, rulings L97-9 and L97-10).
func (s *State) checkAnnex(p int, from, q grid.Square) *adjudicator.RuleError {
	fail, n := s.annexFail(p, from, q)
	switch fail {
	case annexOK:
		return nil
	case annexSame:
		return rulef(codeExtend, ruleOwnRegion, "%s is in that region already", "%s est déjà dans cette région", s.sq(q))
	case annexApart:
		return rulef(codeExtend, ruleExtend, "%s does not border the region of %s", "%s ne touche pas la région de %s", s.sq(q), s.sq(from))
	case annexCastle:
		// Another prince's castle is the rulebook's own case (:183); one's
		// own, the ruling's (L97-9).
		rule := ruleCastleAnn
		if int(s.castle[q]) != p {
			rule = ruleOccupied
		}
		return rulef(codeExtend, rule, "%s holds a castle and cannot be annexed", "%s porte un château et ne peut pas être annexée", s.sq(q))
	case annexKnight:
		return rulef(codeExtend, ruleOccupied, "%s holds a knight of %s and cannot be annexed", "%s porte un chevalier %s et ne peut pas être annexée", s.sq(q), adjudicator.OfName(s.colourName(int(s.knight[q]))))
	case annexOwn:
		return rulef(codeExtend, ruleOwnRegion, "%s is in another of your regions: you do not extend into your own regions", "%s est dans une autre de vos régions : on ne s'étend pas dans ses propres régions", s.sq(q))
	}
	lab, ar := s.info()
	rl, qa := lab[from], ar[lab[q]]
	switch fail {
	case annexAllied:
		return rulef(codeExtend, ruleAllied, "your region and %s's region at %s are allied: neither extends into the other", "votre région et celle %s en %s sont alliées : aucune ne s'étend dans l'autre", adjudicator.OfName(s.colourName(qa.owner)), s.sq(qa.castle))
	case annexWeaker:
		mine, theirs := s.knightsIn(rl, p), s.knightsIn(lab[q], qa.owner)
		return rulef(codeExtend, ruleStronger, "your region has %s and %s's has %d: you need more to extend into it",
			"votre région a %s et celle %s %d : il en faut plus pour s'y étendre", counted(mine, "knight", "knights", "chevalier", "chevaliers"), adjudicator.OfName(s.colourName(qa.owner)), theirs)
	case annexPair:
		return rulef(codeExtend, ruleExtWalls, "the new border would separate two pieces of one prince (%s, %s)", "la nouvelle frontière séparerait deux pièces d'un même prince (%s, %s)", s.sq(q), s.sq(n))
	}
	return rulef(codeExtend, ruleWallStock, "there are not walls enough left for the new border", "il ne reste pas assez de murs pour la nouvelle frontière")
}

// Reasons a region may not annex a square, for annexFail.
const (
	annexOK = iota
	annexSame
	annexApart
	annexCastle
	annexKnight
	annexOwn
	annexAllied
	annexWeaker
	annexPair  // the new border would part two pieces of one prince, the second on the square returned
	annexStock // walls run out
)

// annexFail says why p's region with castle from may not annex q, or
// annexOK; it builds no error, for Legal.
func (s *State) annexFail(p int, from, q grid.Square) (int, grid.Square) {
	lab, ar := s.info()
	rl := lab[from]
	ql := lab[q]
	if ql == rl {
		return annexSame, 0
	}
	near := false
	var nb [4]grid.Square
	for _, n := range board.Neighbours(nb[:0], q) {
		if lab[n] == rl {
			near = true
		}
	}
	if !near {
		return annexApart, 0
	}
	if s.castle[q] >= 0 {
		return annexCastle, 0
	}
	if k := int(s.knight[q]); k >= 0 && k != p {
		return annexKnight, 0
	}
	if qa := ar[ql]; qa.region() {
		if qa.owner == p {
			return annexOwn, 0
		}
		if s.allied(from, qa.castle) {
			return annexAllied, 0
		}
		if s.knightsIn(rl, p) <= s.knightsIn(ql, qa.owner) {
			return annexWeaker, 0
		}
	}
	added := 0
	for _, n := range board.Neighbours(nb[:0], q) {
		switch {
		case lab[n] == rl:
			if s.g.Wall(q, n) {
				added--
			}
		case !s.g.Wall(q, n):
			if s.samePair(q, n) {
				return annexPair, n
			}
			added++
		}
	}
	if s.g.CountWalls()+added > wallSupply {
		return annexStock, 0
	}
	return annexOK, 0
}

func (s *State) checkExtend(p int, m Extend) (grid.Square, *adjudicator.RuleError) {
	a := &s.act
	if a.action.Kind != Shield && a.action.Kind != Shields {
		return 0, rulef(codeAction, ruleCarryOut, "you are carrying out the %s action, which extends no region", "vous exécutez l'action %s, qui n'étend pas de région", a.action.Named()).At(m.pos)
	}
	if !(a.extOpen && a.ext < 2) && a.uses() >= a.budget() {
		return 0, rulef(codeAction, a.shieldRule(), "%s is used up", "l'action %s est épuisée", a.action.Named()).At(m.pos)
	}
	from, err := s.extendFrom(p, m)
	if err != nil {
		return 0, err
	}
	if err := s.checkAnnex(p, from, m.Square); err != nil {
		return 0, err.At(m.pos)
	}
	return from, nil
}

// extStart returns the state an extension starts from: the present one.
func (s *State) extStart() extBase {
	s.ownsGrid = false // shared with the extension's start
	return extBase{g: s.g, score: s.score, events: shared(s.events)}
}

// annex adds q to the extension of the region of castle from under way and
// computes the whole extension again from the state it started from, as
// one: « pourpre perd 2 cases ... Une zone neutre a aussi été créée »
// (lowenherz-1997-fr.txt:239-241; RULINGS.md L97-20). A square first cut
// off in a neutral zone and then annexed is so lost by its owner as a
// square, not with the zone.
func (s *State) annex(p int, from, q grid.Square) {
	b := &s.act.extBase
	b.squares = append(slices.Clip(b.squares), q)
	s.g, s.score, s.events = b.g, b.score, shared(b.events)
	s.ownsGrid = false // the extension's start's
	s.dirty = true
	s.annexAll(p, from, b.squares)
}

// annexAll moves the squares qs into the region of castle from: the walls
// between them and it go, new walls close them off from the rest, and the
// scores move (lowenherz-1997-fr.txt:232-241), square by square in board
// order, then for the neutral zones cut off by the whole extension.
func (s *State) annexAll(p int, from grid.Square, qs []grid.Square) {
	qs = sorted(qs)
	lab, ar := s.info()
	rl := lab[from]
	var victims []int // labels of the regions of others the squares are taken from
	for _, q := range qs {
		if l := lab[q]; ar[l].owner >= 0 && !slices.Contains(victims, l) {
			victims = append(victims, l)
		}
	}
	lost := make([][]grid.Square, len(victims)) // each victim region's other squares
	for i, l := range lab {
		if v := slices.Index(victims, l); v >= 0 && !slices.Contains(qs, grid.Square(i)) {
			lost[v] = append(lost[v], grid.Square(i))
		}
	}
	owners := make([]int, len(victims))
	for v, l := range victims {
		owners[v] = ar[l].owner
	}
	gains := make([]int, len(qs))
	takenFrom := make([]int, len(qs))
	for i, q := range qs {
		gains[i] = 1
		if s.terrain[q] == City {
			gains[i] += 5
		}
		takenFrom[i] = ar[lab[q]].owner
	}
	var at [castlesAtMost]grid.Square
	before := s.appendRegionCastles(at[:0])
	s.ownGrid()
	var nb [4]grid.Square
	for _, q := range qs {
		for _, n := range board.Neighbours(nb[:0], q) {
			e, _ := board.EdgeOf(q, n)
			s.g.SetWall(e, lab[n] != rl && !slices.Contains(qs, n))
		}
	}
	s.dirty = true
	for i, q := range qs {
		if !s.scratch {
			s.log(s.names[p]+" extends the region of "+s.sq(from)+" to "+s.sq(q), s.names[p]+" étend la région de "+s.sq(from)+" à "+s.sq(q))
		}
		var why, lost adjudicator.Words
		if !s.scratch { // which logs nothing
			why = adjudicator.Words{EN: "extension to " + s.sq(q), FR: "extension en " + s.sq(q)}
			lost = adjudicator.Words{EN: "lost " + s.sq(q), FR: s.sq(q) + " perdue"}
		}
		s.addScore(p, gains[i], why)
		if takenFrom[i] >= 0 {
			s.addScore(takenFrom[i], -gains[i], lost)
		}
	}
	// Squares of a victim's region now cut off from its castle form
	// neutral zones, lost by the table (:237-241).
	lab, ar = s.info()
	for v, victim := range owners {
		var seen []int
		for _, x := range lost[v] {
			l := lab[x]
			if ar[l].castles == 0 && !slices.Contains(seen, l) {
				seen = append(seen, l)
				s.logf("a neutral zone of %d squares with %d cities is cut from %s's region", "une zone neutre de %d cases avec %d villes est coupée de la région %s",
					ar[l].size, ar[l].cities, s.ofColour(victim))
				s.addScore(victim, -regionPoints(ar[l].size, ar[l].cities), adjudicator.Words{EN: fmt.Sprintf("neutral zone of %d squares, %d cities", ar[l].size, ar[l].cities),
					FR: fmt.Sprintf("zone neutre de %d cases, %d villes", ar[l].size, ar[l].cities)})
			}
		}
	}
	s.scoreNewRegions(before)
}

// --- political cards -------------------------------------------------------

// polPossible reports whether p can carry out a card of kind k now.
func (s *State) polPossible(p int, k PolKind) bool {
	switch k {
	case Renegade:
		return len(s.renegadeMoves(p, 1)) > 0
	case Alliance:
		return len(s.allianceMoves(p, 1)) > 0
	}
	return false
}

// connected reports whether every knight of colour c is joined to one of
// its castles through its own pieces without crossing a wall, with the
// knight on skip taken away.
func (s *State) connected(c int, skip grid.Square) bool {
	seen := make([]bool, board.Len())
	var stack []grid.Square
	for q, v := range s.castle {
		if int(v) == c {
			seen[q] = true
			stack = append(stack, grid.Square(q))
		}
	}
	var nb [4]grid.Square
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range board.Neighbours(nb[:0], q) {
			if !seen[n] && n != skip && (int(s.knight[n]) == c || int(s.castle[n]) == c) && s.g.Open(q, n) {
				seen[n] = true
				stack = append(stack, n)
			}
		}
	}
	for q, v := range s.knight {
		if int(v) == c && grid.Square(q) != skip && !seen[q] {
			return false
		}
	}
	return true
}

// between reports whether the knight on q stands between two knights of
// prince c, one on each side of it in its row or its column, with no wall
// between them and q: « un chevalier [...] placé entre deux chevaliers du
// même prince, ne peut pas être enlevé » (lowenherz-1997-fr.txt:263,
// RULINGS.md L97-17), even where the others stay linked to a castle.
func (s *State) between(c int, q grid.Square) bool {
	col, row := board.Col(q), board.Row(q)
	own := func(dc, dr int) bool {
		n, ok := board.At(col+dc, row+dr)
		return ok && int(s.knight[n]) == c && s.g.Open(q, n)
	}
	return own(-1, 0) && own(1, 0) || own(0, -1) && own(0, 1)
}

// Named returns the action's name in English and French for a refusal:
// "2 shields", "2 boucliers".
func (a Action) Named() adjudicator.Words {
	en, fr := a.Words()
	return adjudicator.Words{EN: en, FR: fr}
}

// bordering reports whether areas l1 and l2 share an edge.
func (s *State) bordering(l1, l2 int) bool {
	lab, _ := s.info()
	for q := range lab {
		if lab[q] != l1 {
			continue
		}
		var nb [4]grid.Square
		for _, n := range board.Neighbours(nb[:0], grid.Square(q)) {
			if lab[n] == l2 {
				return true
			}
		}
	}
	return false
}

func (s *State) checkRenegade(p int, m RenegadeMove) *adjudicator.RuleError {
	lab, ar := s.info()
	v := int(s.knight[m.Remove])
	if v < 0 || v == p {
		return rulef(codePolitical, ruleRenegade, "there is no other prince's knight on %s", "il n'y a pas de chevalier d'un autre prince en %s", s.sq(m.Remove)).At(m.pos[0])
	}
	rl := lab[m.Remove]
	if !ar[rl].region() || ar[rl].owner != v {
		return rulef(codePolitical, ruleRenRegion, "the knight on %s is not in its prince's region", "le chevalier en %s n'est pas dans une région de son prince", s.sq(m.Remove)).At(m.pos[0])
	}
	if !s.connected(v, m.Remove) {
		return rulef(codePolitical, ruleRenLink, "the knight on %s links other knights of %s to their castle and cannot be removed",
			"le chevalier en %s relie d'autres chevaliers %s à leur château et ne peut pas être enlevé", s.sq(m.Remove), adjudicator.OfName(s.colourName(v))).At(m.pos[0])
	}
	if s.between(v, m.Remove) {
		return rulef(codePolitical, ruleRenLink, "the knight on %s stands between two knights of %s and cannot be removed",
			"le chevalier en %s est placé entre deux chevaliers %s et ne peut pas être enlevé", s.sq(m.Remove), adjudicator.OfName(s.colourName(v))).At(m.pos[0])
	}
	pl := lab[m.Place]
	if !ar[pl].region() || ar[pl].owner != p {
		return rulef(codePolitical, ruleRenRegion, "%s is not in one of your regions", "%s n'est pas dans une de vos régions", s.sq(m.Place)).At(m.pos[1])
	}
	if !s.bordering(pl, rl) {
		return rulef(codePolitical, ruleRenegade, "your region at %s does not border the region at %s", "votre région en %s ne touche pas la région en %s", s.sq(m.Place), s.sq(m.Remove)).At(m.pos[1])
	}
	if err := s.checkKnightAt(p, m.Place); err != nil {
		return err.At(m.pos[1])
	}
	if err := s.checkPay(p, s.renegadeCost(m), m.Treasure, s.renegadeCostRule(m)); err != nil {
		return err.At(m.tpos)
	}
	return nil
}

// renegadeCost: 5 when the knight removed stood in a forest
// (lowenherz-1997-fr.txt:269), 5 more for placing one in a forest (:164).
func (s *State) renegadeCost(m RenegadeMove) int {
	return s.knightCost(m.Remove) + s.knightCost(m.Place)
}

// renegadeCostRule is the rule of what a renegade costs: the forest the
// knight is taken from (lowenherz-1997-fr.txt:269), else the forest it is
// placed on (:163).
func (s *State) renegadeCostRule(m RenegadeMove) string {
	if s.knightCost(m.Remove) > 0 {
		return ruleRenForest
	}
	return ruleTerrain
}

func (s *State) applyRenegade(p int, m RenegadeMove) error {
	if err := s.checkRenegade(p, m); err != nil {
		return err
	}
	v := int(s.knight[m.Remove])
	cost := s.renegadeCost(m)
	s.pay(p, cost, m.Treasure)
	s.ownPieces()
	s.knight[m.Remove] = -1
	s.reserve[v]++
	s.knight[m.Place] = int8(p)
	s.reserve[p]--
	s.logf("%s's renegade: %s's knight at %s goes back to its reserve, and %s places a knight at %s (cost %d)",
		"renégat %s : le chevalier %s en %s retourne dans sa réserve, et %s pose un chevalier en %s (coût %d)",
		adjudicator.OfName(s.names[p]), s.ofColour(v), s.sq(m.Remove), s.names[p], s.sq(m.Place), cost)
	s.act.pol = -1
	if s.actDone() {
		s.finishAct()
	}
	return nil
}

func (s *State) checkAlliance(p int, m AllianceMove) *adjudicator.RuleError {
	switch s.allianceFail(p, m) {
	case allyNotMine:
		return rulef(codePolitical, ruleAllyWhich, "%s is not in one of your regions", "%s n'est pas dans une de vos régions", s.sq(m.Mine)).At(m.pos[0])
	case allyNotTheirs:
		return rulef(codePolitical, ruleAllyWhich, "%s is not in another prince's region", "%s n'est pas dans la région d'un autre prince", s.sq(m.Theirs)).At(m.pos[1])
	case allyApart:
		return rulef(codePolitical, ruleAllyWhich, "the regions of %s and %s are not neighbours", "les régions de %s et %s ne sont pas voisines", s.sq(m.Mine), s.sq(m.Theirs)).At(m.pos[1])
	case allyAlready:
		return rulef(codePolitical, ruleAllyWhich, "these regions are allied already", "ces régions sont déjà alliées").At(m.pos[0])
	}
	return nil
}

// Reasons an alliance may not be made, for allianceFail.
const (
	allyOK = iota
	allyNotMine
	allyNotTheirs
	allyApart
	allyAlready
)

// allianceFail says why p may not make the alliance m, or allyOK; it
// builds no error, for Legal.
func (s *State) allianceFail(p int, m AllianceMove) int {
	lab, ar := s.info()
	ml, tl := lab[m.Mine], lab[m.Theirs]
	switch {
	case !ar[ml].region() || ar[ml].owner != p:
		return allyNotMine
	case !ar[tl].region() || ar[tl].owner == p:
		return allyNotTheirs
	case !s.bordering(ml, tl):
		return allyApart
	case s.allied(ar[ml].castle, ar[tl].castle):
		return allyAlready
	}
	return allyOK
}

// ally allies p's region of castle a with the region of castle b.
func (s *State) ally(p int, a, b grid.Square) {
	s.alliances = append(s.alliances, alliance{a, b})
	s.logf("%s's alliance: the regions of %s (%s) and %s (%s) may not extend into each other",
		"alliance %s : les régions de %s (%s) et %s (%s) ne peuvent plus s'étendre l'une dans l'autre",
		adjudicator.OfName(s.names[p]), s.sq(a), s.names[p], s.sq(b), s.colourWords(int(s.castle[b])))
}
