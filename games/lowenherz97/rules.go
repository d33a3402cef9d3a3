package lowenherz97

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
)

// Rule error codes, for tests and tools.
const (
	codeSetup     = "setup"
	codeDecide    = "decide"
	codeNegotiate = "negotiate"
	codeBid       = "bid"
	codeAction    = "action"
	codeMoney     = "money"
	codeKnight    = "knight"
	codeWall      = "wall"
	codeExtend    = "extend"
	codePolitical = "political"
	codeWrongStep = "wrong-step"
)

func rulef(code, rule, en, fr string, args ...any) *adjudicator.RuleError {
	return adjudicator.Rulef(code, rule, en, fr, args...)
}

func (s *State) sq(q grid.Square) string { return board.Name(q) }

// occupant names the piece that stands on q, in English and French:
// "alice's castle", "le château d'alice", "a neutral knight".
func (s *State) occupant(q grid.Square) adjudicator.Words {
	en, fr, c := "castle", "château", int(s.castle[q])
	if c < 0 {
		en, fr, c = "knight", "chevalier", int(s.knight[q])
	}
	if c == s.neutral {
		return adjudicator.Words{EN: "a neutral " + en, FR: "un " + fr + " neutre"}
	}
	return adjudicator.Words{EN: s.names[c] + "'s " + en, FR: "le " + fr + " " + adjudicator.OfName(s.names[c]).FR}
}

// counted returns "1 knight", "3 knights" in English and French: n with
// the noun's singular when n is 1, its plural otherwise.
func counted(n int, en1, en, fr1, fr string) adjudicator.Words {
	if n == 1 {
		en, fr = en1, fr1
	}
	return adjudicator.Words{EN: fmt.Sprintf("%d %s", n, en), FR: fmt.Sprintf("%d %s", n, fr)}
}

// Apply checks m against the rules and plays it; on error nothing changes.
func (s *State) Apply(player string, m adjudicator.Move) error {
	p := s.index(player)
	if p < 0 || !s.toMove(p) {
		return rulef(adjudicator.CodeNotYourTurn, "", "it is not %s's turn: waiting for %s",
			"ce n'est pas à %s de jouer : on attend %s", player, strings.Join(s.ToMove(), ", "))
	}
	switch mv := m.(type) {
	case *Wall:
		m = *mv
	case *Knight:
		m = *mv
	case *Offer:
		m = *mv
	case *Bid:
		if s.phase == phaseBid {
			return s.applyBid(p, *mv) // as below, without boxing a copy
		}
		m = *mv
	}
	if b, ok := m.(Break); ok {
		return s.applyBreak(p, b)
	}
	switch s.phase {
	case phasePlace:
		if mv, ok := m.(Place); ok {
			return s.applyPlace(p, mv)
		}
	case phaseDecide:
		if mv, ok := m.(Choose); ok {
			return s.applyChoose(p, mv)
		}
	case phaseNegotiate:
		switch mv := m.(type) {
		case Offer:
			return s.applyOffer(p, mv)
		case Accept:
			return s.applyAccept(p)
		case Yield:
			o := s.other(p)
			if !s.scratch {
				en, fr := s.card.Tiers[s.tier].Words()
				s.log(s.names[p]+" yields: "+s.names[o]+" carries out "+en, s.names[p]+" cède : "+s.names[o]+" exécute "+fr)
			}
			s.winner(o)
			return nil
		case Refuse:
			if !s.scratch {
				s.log(s.names[p]+" refuses: "+s.names[s.contenders[0]]+" and "+s.names[s.contenders[1]]+" confront each other with sealed bids",
					s.names[p]+" refuse : "+s.names[s.contenders[0]]+" et "+s.names[s.contenders[1]]+" s'affrontent avec des mises secrètes")
			}
			s.openBids(false)
			return nil
		}
	case phaseBid:
		if mv, ok := m.(Bid); ok {
			return s.applyBid(p, mv)
		}
	case phaseAct:
		return s.applyAct(p, m)
	}
	return s.wrongStep(m)
}

// wrongStep is the error for a step that does not fit the moment, citing
// the rule of what the player is to do now.
func (s *State) wrongStep(m adjudicator.Move) error {
	en, fr := s.expected()
	return rulef(codeWrongStep, s.expectedRule(), "%q does not fit now: %s", "« %s » ne convient pas maintenant : %s", m.String(), adjudicator.Words{EN: en, FR: fr})
}

// expectedRule is the rule of what the player to move is to do, as
// expected says it: the setup placements (RULINGS.md L97-6), laying a
// decision card (l. 117), negotiating (RULINGS.md L97-4), bidding in a
// confrontation (RULINGS.md L97-5), carrying out the action chosen
// (l. 119), its political card first (RULINGS.md L97-11).
func (s *State) expectedRule() string {
	switch s.phase {
	case phasePlace:
		return rulePlaceTurns
	case phaseDecide:
		return ruleDecide
	case phaseNegotiate:
		return ruleMailTalk
	case phaseBid:
		return ruleSealedOnly
	case phaseAct:
		if s.act.pol >= 0 {
			return ruleAttach
		}
		return ruleCarryOut
	}
	return ""
}

// expected says what the player to move may do, in English and French.
func (s *State) expected() (string, string) {
	switch s.phase {
	case phasePlace:
		return "place a castle and a knight beside it (castle e5 knight e6)", "posez un château et un chevalier à côté (château e5 chevalier e6)"
	case phaseDecide:
		return "lay a decision card (choose 1, 2 or 3)", "posez une carte de décision (choisis 1, 2 ou 3)"
	case phaseNegotiate:
		return "negotiate: offer N, accept, yield or refuse", "négociez : offre N, accepte, cède ou refuse"
	case phaseBid:
		return "bid in the confrontation (bid N)", "misez dans la confrontation (mise N)"
	case phaseAct:
		en, fr := s.act.action.Words()
		if s.act.pol >= 0 {
			return fmt.Sprintf("first carry out your %s card", polNames[s.act.pol]), fmt.Sprintf("exécutez d'abord votre carte %s", polNamesFR[s.act.pol])
		}
		return "carry out " + en + ", or end", "exécutez " + fr + ", ou fin"
	}
	return "the game is over", "la partie est terminée"
}

// other returns the other negotiator.
func (s *State) other(p int) int {
	if s.contenders[0] == p {
		return s.contenders[1]
	}
	return s.contenders[0]
}

// --- setup ---------------------------------------------------------------

// Reasons a setup placement may not be made, for placeFail.
const (
	placeOK = iota
	placeCastleTaken
	placeCastleTerrain
	placeSpread
	placeApart
	placeKnightTaken
	placeKnightTerrain
)

// placeFail says why colour c may not make the setup placement m, or
// placeOK, and for placeSpread the castle too near; it allocates nothing,
// for Legal.
func (s *State) placeFail(c int, m Place) (int, grid.Square) {
	if fail, o := s.castleSiteFail(c, m.Castle); fail != placeOK {
		return fail, o
	}
	if !board.Adjacent(m.Castle, m.Knight) {
		return placeApart, 0
	}
	return s.knightSiteFail(m.Knight), 0
}

// castleSiteFail is placeFail's checks on the castle's square q.
func (s *State) castleSiteFail(c int, q grid.Square) (int, grid.Square) {
	if s.castle[q] >= 0 || s.knight[q] >= 0 {
		return placeCastleTaken, 0
	}
	if t := s.terrain[q]; t == Hill || t == City {
		return placeCastleTerrain, 0
	}
	for o := range s.castle {
		if int(s.castle[o]) == c && board.Distance(grid.Square(o), q) < castleSpread {
			return placeSpread, grid.Square(o)
		}
	}
	return placeOK, 0
}

// knightSiteFail is placeFail's checks on the knight's square k.
func (s *State) knightSiteFail(k grid.Square) int {
	if s.castle[k] >= 0 || s.knight[k] >= 0 {
		return placeKnightTaken
	}
	if s.terrain[k] != Empty {
		return placeKnightTerrain
	}
	return placeOK
}

// checkPlace checks a setup placement of colour c (lowenherz-1997-fr.txt:295-297).
func (s *State) checkPlace(c int, m Place) *adjudicator.RuleError {
	q, k := m.Castle, m.Knight
	fail, o := s.placeFail(c, m)
	switch fail {
	case placeCastleTaken:
		return rulef(codeSetup, rulePlacement, "%s is taken by %s", "%s est occupée par %s", s.sq(q), s.occupant(q)).At(m.pos[0])
	case placeCastleTerrain:
		t := s.terrain[q]
		return rulef(codeSetup, ruleSetupTerr, "a castle cannot stand on a %s (%s)", "un château ne peut pas être sur une %s (%s)",
			adjudicator.Words{EN: t.String(), FR: t.French()}, s.sq(q)).At(m.pos[0])
	case placeSpread:
		return rulef(codeSetup, ruleSpread, "%s is %d squares from %s's castle at %s; castles of one colour stand at least 6 apart",
			"%s est à %d cases du château %s en %s ; les châteaux d'une couleur sont à 6 cases au moins",
			s.sq(q), board.Distance(o, q), adjudicator.OfName(s.colourName(c)), s.sq(o)).At(m.pos[0])
	case placeApart:
		return rulef(codeSetup, rulePlacement, "the knight goes beside its castle: %s is not next to %s", "le chevalier se pose à côté de son château : %s n'est pas voisine de %s", s.sq(k), s.sq(q)).At(m.pos[1])
	case placeKnightTaken:
		return rulef(codeSetup, rulePlacement, "%s is taken by %s", "%s est occupée par %s", s.sq(k), s.occupant(k)).At(m.pos[1])
	case placeKnightTerrain:
		t := s.terrain[k]
		return rulef(codeSetup, ruleSetupTerr, "in the setup a knight goes on an empty square, not a %s (%s)", "pendant la mise en place un chevalier se pose sur une case vide, pas une %s (%s)",
			adjudicator.Words{EN: t.String(), FR: t.French()}, s.sq(k)).At(m.pos[1])
	}
	return nil
}

func (s *State) applyPlace(p int, m Place) error {
	c := s.places[0].colour
	if err := s.checkPlace(c, m); err != nil {
		return err
	}
	s.ownPieces()
	s.castle[m.Castle], s.knight[m.Knight] = int8(c), int8(c)
	s.reserve[c]--
	s.castles[c]--
	s.dirty = true
	s.logf("%s places %s at %s and a knight at %s", "%s pose %s en %s et un chevalier en %s",
		s.names[p], adjudicator.Words{EN: s.aCastle(p, c), FR: s.aCastleIn(p, c, true)}, s.sq(m.Castle), s.sq(m.Knight))
	s.places = s.places[1:]
	s.skipImpossiblePlaces()
	if len(s.places) == 0 {
		s.startRound()
	}
	return nil
}

// skipImpossiblePlaces drops placements for which no square is left
// (ruling L97-6).
func (s *State) skipImpossiblePlaces() {
	for len(s.places) > 0 && len(s.placeMoves(nil, s.places[0].colour, 1)) == 0 {
		pl := s.places[0]
		s.logf("no square is left for %s: %s places nothing", "plus aucune case pour %s : %s ne pose rien",
			adjudicator.Words{EN: s.aCastle(pl.player, pl.colour), FR: s.aCastleIn(pl.player, pl.colour, true)}, s.names[pl.player])
		s.castles[pl.colour]--
		s.places = s.places[1:]
	}
}

// placeMoves appends to out up to limit legal placements of colour c (0:
// all).
func (s *State) placeMoves(out []adjudicator.Move, c, limit int) []adjudicator.Move {
	start := len(out)
	var nb [4]grid.Square
	for q := range grid.Square(board.Len()) {
		if fail, _ := s.castleSiteFail(c, q); fail != placeOK {
			continue
		}
		for j, k := range board.Neighbours(nb[:0], q) {
			if s.knightSiteFail(k) == placeOK {
				out = append(out, steps.place[q][j])
				if limit > 0 && len(out)-start >= limit {
					return out
				}
			}
		}
	}
	return out
}

// --- decisions -------------------------------------------------------------

func (s *State) checkChoose(p int, m Choose) *adjudicator.RuleError {
	for _, pk := range s.picks {
		if pk.player == p && pk.tier == m.Tier-1 {
			// Only the first player lays two: with 3 players (:118), with
			// 2 always (:308).
			rule := ruleTwoCards
			if len(s.names) == 2 {
				rule = ruleTwoPlayers
			}
			return rulef(codeDecide, rule, "you already laid decision card %d: choose another", "vous avez déjà posé la carte de décision %d : choisissez-en une autre", m.Tier).At(m.pos)
		}
	}
	if m.HasWith {
		if !slices.ContainsFunc(s.hands[p], func(c Political) bool { return c.Kind == m.With }) {
			// A card is played by the player who took it (l. 244), not
			// the alliance's own rule (l. 248).
			return rulef(codePolitical, rulePolHeld, "you hold no %s card", "vous n'avez pas de carte %s", adjudicator.Words{EN: polNames[m.With], FR: polNamesFR[m.With]}).At(m.withPos)
		}
		if m.With == Renegade && s.reserve[p] == 0 {
			return rulef(codePolitical, ruleRenReserve, "you have no knight left, so you cannot play a renegade card", "vous n'avez plus de chevalier : vous ne pouvez pas jouer de carte renégat").At(m.withPos)
		}
		if m.With == Alliance && m.Bare != s.allianceAtAction {
			if s.allianceAtAction {
				return rulef(codePolitical, ruleAttach, "this game keeps the earlier rule for alliances (option alliance=action): lay the card bare, choose %d with alliance, and name the regions at the action",
					"cette partie garde l'ancienne règle des alliances (option alliance=action) : posez la carte seule, choisis %d avec alliance, et nommez les régions à l'action", m.Tier).At(m.withPos)
			}
			return rulef(codePolitical, ruleAllianceOn, "an alliance names its two regions as its card is laid, like choose %d with alliance d5 h5",
				"une alliance nomme ses deux régions quand sa carte est posée, par exemple choisis %d avec alliance d5 h5", m.Tier).At(m.withPos)
		}
		if m.With == Alliance && !m.Bare {
			// The regions are chosen with the card, for good (:249).
			return s.checkAlliance(p, AllianceMove{Mine: m.Ally[0], Theirs: m.Ally[1], pos: m.allyPos})
		}
	}
	return nil
}

func (s *State) applyChoose(p int, m Choose) error {
	if err := s.checkChoose(p, m); err != nil {
		return err
	}
	pk := pick{player: p, tier: m.Tier - 1, pol: -1}
	if m.HasWith {
		// Played openly with the decision card, then discarded (:244, 248).
		i := slices.IndexFunc(s.hands[p], func(c Political) bool { return c.Kind == m.With })
		s.hands[p] = without(s.hands[p], i)
		pk.pol = int8(m.With)
		if m.With == Alliance && !m.Bare {
			lab, ar := s.info()
			pk.ally = [2]grid.Square{ar[lab[m.Ally[0]]].castle, ar[lab[m.Ally[1]]].castle}
		}
	}
	s.picks = append(s.picks, pk)
	if !s.scratch {
		s.log(s.describePick(pk, false), s.describePick(pk, true))
	}
	s.decIdx++
	if s.decIdx == len(s.decOrder) {
		s.tier = 0
		s.resolve()
	}
	return nil
}

// --- negotiation -----------------------------------------------------------

func (s *State) checkOffer(p int, m Offer) *adjudicator.RuleError {
	switch {
	case m.N < 1:
		return rulef(codeNegotiate, ruleNegotiate, "an offer is at least 1 ducat; to let the other act for nothing, yield", "une offre est d'au moins 1 ducat ; pour laisser l'autre agir pour rien, cédez").At(m.pos)
	case m.N <= s.offer:
		return rulef(codeNegotiate, ruleCounter, "a counter-offer must beat the standing offer of %s", "une contre-offre doit dépasser l'offre de %s", counted(s.offer, "ducat", "ducats", "ducat", "ducats")).At(m.pos)
	case m.N > s.money[p]:
		return rulef(codeMoney, ruleNegotiate, "you have only %s; treasures and political cards cannot be offered", "vous n'avez que %s ; trésors et cartes politiques ne s'offrent pas", counted(s.money[p], "ducat", "ducats", "ducat", "ducats")).At(m.pos)
	}
	return nil
}

func (s *State) applyOffer(p int, m Offer) error {
	if err := s.checkOffer(p, m); err != nil {
		return err
	}
	s.offer, s.offerBy = m.N, p
	s.speaker = s.other(p)
	if !s.scratch {
		en, fr := s.card.Tiers[s.tier].Words()
		s.log(s.names[p]+" offers "+s.names[s.speaker]+" "+strconv.Itoa(m.N)+" ducats to carry out "+en,
			s.names[p]+" offre "+strconv.Itoa(m.N)+" ducats à "+s.names[s.speaker]+" pour exécuter "+fr)
	}
	return nil
}

func (s *State) applyAccept(p int) error {
	o := s.other(p)
	if s.offerBy != o {
		return rulef(codeNegotiate, ruleNegotiate, "%s has made no offer to accept; offer, yield or refuse", "%s n'a fait aucune offre à accepter ; offrez, cédez ou refusez", s.names[o])
	}
	s.money[o] -= s.offer
	s.money[p] += s.offer
	s.logf("%s accepts %d ducats from %s, who carries out %s", "%s accepte %d ducats de %s, qui exécute %s", s.names[p], s.offer, s.names[o], s.card.Tiers[s.tier].Named())
	s.winner(o)
	return nil
}

// --- confrontation ---------------------------------------------------------

func (s *State) checkBid(p int, m Bid) *adjudicator.RuleError {
	if m.Ducats > s.money[p] {
		return rulef(codeMoney, ruleConfront, "you have only %s", "vous n'avez que %s", counted(s.money[p], "ducat", "ducats", "ducat", "ducats")).At(m.pos)
	}
	hand := slices.Clone(s.hands[p])
	for i, v := range m.Treasures {
		if v == 0 {
			break
		}
		j := slices.Index(hand, Political{Treasure, int(v)})
		if j < 0 {
			return rulef(codePolitical, ruleTreasure, "you hold no treasure %d", "vous n'avez pas de trésor %d", v).At(m.tpos[i])
		}
		hand = slices.Delete(hand, j, j+1)
	}
	return nil
}

func (s *State) applyBid(p int, m Bid) error {
	if err := s.checkBid(p, m); err != nil {
		return err
	}
	// Sealed: kept in the state, shown to nobody until every bid is in; a
	// bidder may replace it until then (:214-215).
	s.bids[p] = bid{in: true, ducats: m.Ducats, treasures: m.Treasures}
	for _, c := range s.contenders {
		if !s.bids[c].in {
			return nil
		}
	}
	s.reveal()
	return nil
}

// reveal shows every bid at once; the highest pays the bank and acts, a tie
// is rebid once by the tied, then nobody acts (lowenherz-1997-fr.txt:215-216).
func (s *State) reveal() {
	var parts, partsFR []string
	best := -1
	for _, c := range s.contenders {
		if !s.scratch { // which logs nothing
			parts = append(parts, s.names[c]+" "+bidWords(s.bids[c]))
			partsFR = append(partsFR, s.names[c]+" "+bidWordsIn(s.bids[c], true))
		}
		best = max(best, s.bids[c].total())
	}
	if !s.scratch {
		s.log("bids revealed: "+strings.Join(parts, ", "), "mises révélées : "+strings.Join(partsFR, ", "))
	}
	var top []int
	for _, c := range s.contenders {
		if s.bids[c].total() == best {
			top = append(top, c)
		}
	}
	if len(top) == 1 {
		w := top[0]
		b := s.bids[w]
		s.money[w] -= b.ducats
		s.bank += b.ducats
		for _, v := range b.treasures {
			if v > 0 {
				i := slices.Index(s.hands[w], Political{Treasure, int(v)})
				s.hands[w] = without(s.hands[w], i)
			}
		}
		if !s.scratch {
			en, fr := s.card.Tiers[s.tier].Words()
			s.log(s.names[w]+" pays "+strconv.Itoa(b.total())+" to the bank and carries out "+en,
				s.names[w]+" paie "+strconv.Itoa(b.total())+" à la banque et exécute "+fr)
		}
		s.clearBids()
		s.winner(w)
		return
	}
	names := make([]string, len(top))
	for i, c := range top {
		names[i] = s.names[c]
	}
	if !s.rebid {
		s.logf("%s tie with %d: they bid again", "%s sont à égalité avec %d : ils misent de nouveau", joinWords(names), best)
		s.contenders = top
		s.openBids(true)
		return
	}
	s.logf("%s tie again with %d: nobody carries out %s", "%s sont de nouveau à égalité avec %d : personne n'exécute %s", joinWords(names), best, s.card.Tiers[s.tier].Named())
	s.clearBids()
	s.afterTier()
}

func (s *State) clearBids() {
	for i := range s.bids {
		s.bids[i] = bid{}
	}
	s.rebid = false
}

// bidWords is a bid for the reveal: "7", "4 + treasure 8".
func bidWords(b bid) string { return bidWordsIn(b, false) }

// bidWordsIn is bidWords, in French when fr is set: "4 + trésor 8".
func bidWordsIn(b bid, fr bool) string {
	t := strconv.Itoa(b.ducats)
	for _, v := range b.treasures {
		if v > 0 {
			t += picker(fr)(" + treasure ", " + trésor ") + strconv.Itoa(int(v))
		}
	}
	return t
}

// --- payments --------------------------------------------------------------

// checkPay checks that p can pay cost with ducats, or with the treasure of
// value tv and ducats for the rest; a treasure gives no change
// (lowenherz-1997-fr.txt:276-278).
func (s *State) checkPay(p, cost, tv int, rule string) *adjudicator.RuleError {
	if tv > 0 {
		if !slices.Contains(s.hands[p], Political{Treasure, tv}) {
			return rulef(codePolitical, ruleTreasure, "you hold no treasure %d", "vous n'avez pas de trésor %d", tv)
		}
		if cost == 0 {
			return rulef(codePolitical, ruleTreasure, "this costs nothing: no treasure to pay", "cela ne coûte rien : pas de trésor à payer")
		}
		cost = max(0, cost-tv)
	}
	if cost > s.money[p] {
		return rulef(codeMoney, rule, "this costs %d ducats and you have %d", "cela coûte %d ducats et vous en avez %d", cost, s.money[p])
	}
	return nil
}

// payOK reports whether checkPay(p, cost, tv, …) passes, building no
// error, for Legal.
func (s *State) payOK(p, cost, tv int) bool {
	if tv > 0 {
		if cost == 0 || !slices.Contains(s.hands[p], Political{Treasure, tv}) {
			return false
		}
		cost = max(0, cost-tv)
	}
	return cost <= s.money[p]
}

func (s *State) pay(p, cost, tv int) {
	if tv > 0 {
		i := slices.Index(s.hands[p], Political{Treasure, tv})
		s.hands[p] = without(s.hands[p], i)
		cost = max(0, cost-tv)
	}
	s.money[p] -= cost
	s.bank += cost
}

// --- alliances -------------------------------------------------------------

func (s *State) allied(a, b grid.Square) bool {
	return slices.ContainsFunc(s.alliances, func(al alliance) bool {
		return (al.a == a && al.b == b) || (al.a == b && al.b == a)
	})
}

func (s *State) checkBreak(p int, m Break) *adjudicator.RuleError {
	if s.phase == phaseBid {
		return rulef(codePolitical, ruleBreakWhen, "an alliance cannot be broken during a confrontation", "une alliance ne peut pas être rompue pendant une confrontation").At(m.pos[0])
	}
	la, oa := s.regionOf(m.A)
	lb, ob := s.regionOf(m.B)
	if oa < 0 || ob < 0 {
		return rulef(codePolitical, ruleBreak, "name a square of each allied region", "nommez une case de chaque région alliée").At(m.pos[0])
	}
	_, ar := s.info()
	if !s.allied(ar[la].castle, ar[lb].castle) {
		return rulef(codePolitical, ruleBreak, "the regions of %s and %s are not allied", "les régions de %s et %s ne sont pas alliées", s.sq(m.A), s.sq(m.B)).At(m.pos[0])
	}
	if oa != p && ob != p {
		return rulef(codePolitical, ruleBreak, "only a prince of the alliance can break it", "seul un prince de l'alliance peut la rompre").At(m.pos[0])
	}
	if err := s.checkPay(p, breakCost, m.Treasure, ruleBreak); err != nil {
		return err.At(m.tpos)
	}
	return nil
}

func (s *State) applyBreak(p int, m Break) error {
	if err := s.checkBreak(p, m); err != nil {
		return err
	}
	la, _ := s.regionOf(m.A)
	lb, _ := s.regionOf(m.B)
	_, ar := s.info()
	a, b := ar[la].castle, ar[lb].castle
	s.alliances = slices.DeleteFunc(slices.Clone(s.alliances), func(al alliance) bool {
		return (al.a == a && al.b == b) || (al.a == b && al.b == a)
	})
	s.pay(p, breakCost, m.Treasure)
	s.logf("%s pays 10 ducats and breaks the alliance between the regions of %s and %s", "%s paie 10 ducats et rompt l'alliance entre les régions de %s et %s", s.names[p], s.sq(a), s.sq(b))
	s.spendImpossiblePol()
	return nil
}

// spendImpossiblePol spends without effect the political card of the
// player carrying out an action when a step taken before it (a break,
// which costs ducats and changes which regions may ally) left nothing it
// allows possible, as startExec does when the action begins (RULINGS.md
// L97-11, l. 248): else that player would be left with no legal step.
func (s *State) spendImpossiblePol() {
	a := &s.act
	if s.phase != phaseAct || a.pol < 0 || s.polPossible(s.actor, PolKind(a.pol)) {
		return
	}
	s.logf("%s's %s card has no effect: nothing it allows is possible", "la carte %[2]s %[1]s est sans effet : rien de ce qu'elle permet n'est possible",
		adjudicator.OfName(s.names[s.actor]), adjudicator.Words{EN: polNames[a.pol], FR: polNamesFR[a.pol]})
	if a.pol = -1; s.actDone() {
		s.finishAct()
	}
}
