package lowenherz

import (
	"fmt"
	"slices"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

type rerr = adjudicator.RuleError

var rulef = adjudicator.Rulef

type words = adjudicator.Words

// at points err at pos when pos is known.
func at(err *rerr, pos notation.Pos) *rerr {
	if err == nil || !pos.IsValid() {
		return err
	}
	return err.At(pos)
}

// Apply checks m against the rules and plays it. On error the state is
// unchanged.
func (s *State) Apply(player string, m adjudicator.Move) error {
	p := s.index(player)
	if !s.canAct(p) {
		return adjudicator.CanActCiting(s, player, ruleTurnOrder)
	}
	wasDeckEnd := s.deckEnd
	s.deckEnd = false // set again if this step ends the turn by itself
	if b, ok := m.(*BorderStep); ok {
		// Legal's border steps (borderSteps), played as the BorderStep
		// each points to without boxing a copy of it.
		if err := s.applyBorder(p, *b); err != nil {
			s.deckEnd = wasDeckEnd
			return err
		}
		return nil
	}
	var err *rerr
	switch m := m.(type) {
	case Place:
		if err = s.checkPlace(p, m); err == nil {
			s.place(m)
		}
	case Sell:
		if err = s.checkCardStep(m.pos, "sell", "vendre"); err == nil {
			err = s.checkInHand(p, m.Card, m.pos)
		}
		if err == nil {
			s.sell(p, m.Card)
		}
	case Play:
		if err = s.checkCardStep(m.pos, "play", "jouer"); err == nil {
			err = s.checkPlay(p, m)
		}
		if err == nil {
			s.play(p, m)
		}
	case BorderStep:
		err = s.applyBorder(p, m)
	case KnightStep:
		if err = s.checkAction(ActKnights, m.pos); err == nil {
			err = at(s.checkKnight(p, m.Square, s.players[p].ducats), m.pos)
		}
		if err == nil {
			s.placeKnight(p, m.Square)
		}
	case Extend:
		err = s.applyExtend(p, m)
	case DeserterStep:
		if err = s.checkAction(ActDeserter, m.pos); err == nil {
			err = s.checkDeserter(p, m)
		}
		if err == nil {
			s.desert(p, m)
		}
	case AllianceStep:
		if err = s.checkAction(ActAlliance, m.pos); err == nil {
			err = at(s.checkAlliance(p, m.Edge), m.pos)
		}
		if err == nil {
			s.ally(m.Edge)
		}
	case Draw, Take, End:
		if err = s.checkRefill(); err == nil && s.kingReached() {
			// A refill after the king's marker is reached ends the action
			// (fewer borders than printed), and with it the game.
			s.finish(true)
			break
		}
		err = s.applyRefill(p, m)
	default:
		s.deckEnd = wasDeckEnd
		return fmt.Errorf("lowenherz: unknown move type %T", m)
	}
	if err != nil {
		s.deckEnd = wasDeckEnd
		return err
	}
	return nil
}

// applyBorder applies a BorderStep.
func (s *State) applyBorder(p int, m BorderStep) *rerr {
	err := s.checkAction(ActBorders, m.pos)
	if err == nil {
		err = at(s.checkBorder(p, m.Edge), m.pos)
	}
	if err == nil {
		s.placeBorder(m.Edge)
	}
	return err
}

// applyRefill applies a Draw, Take or End step.
func (s *State) applyRefill(p int, m adjudicator.Move) *rerr {
	var err *rerr
	switch m := m.(type) {
	case Draw:
		if err = s.checkRefill(); err == nil && len(s.deck) == 0 {
			err = rulef("deck-out", ruleDeckOut, "the deck is out: no more refills, end your turn with end",
				"la pioche est épuisée : plus de cartes à prendre, finissez votre tour par fin")
		}
		if err == nil {
			s.draw(p)
		}
	case Take:
		if err = s.checkRefill(); err == nil {
			err = s.checkTake(m)
		}
		if err == nil {
			s.take(p, m.Card)
		}
	case End:
		if err = s.checkRefill(); err == nil && len(s.deck) > 0 {
			err = rulef("must-refill", ruleRefill, "refill your hand to 3 to end your turn: draw, or take a card from the market",
				"complétez votre main à 3 cartes pour finir votre tour : piocher, ou prendre une carte au marché")
		}
		if err == nil {
			s.nextTurn()
		}
	}
	return err
}

// AfterTurnEnd implements adjudicator.TurnEnder. Once the player's action
// has taken a marker to the king's, the game is over at once
// (lowenherz-2003-fr.txt:230; RULINGS.md LH-11), and a refill (draw, take
// or end) in the same submission states what would have come next and is
// dropped; any other step is refused. Once the deck is out, the turn ends
// by itself after the sale or the action (lowenherz-2003-fr.txt:234: no
// refill; RULINGS.md LH-9): an `end` after it states what happened and is
// dropped, a draw or a take is refused as the refill it is, and any other
// step is refused.
func (s *State) AfterTurnEnd(player string, m adjudicator.Move) error {
	p := s.index(player)
	switch {
	case s.kingEnd && s.phase == phaseOver && p == s.turn:
		switch m.(type) {
		case Draw, Take, End:
			return nil
		}
		return rulef("king-ended", ruleKing, "the game ended at once when a marker reached the king's at %d: drop the steps after your action",
			"la partie s'est terminée aussitôt qu'un marqueur a atteint celui du Roi à %d : supprimez les étapes qui suivent votre action", s.king)
	case s.deckEnd && p == s.deckEndP:
		switch m.(type) {
		case End:
			return nil
		case Draw:
			return rulef("deck-out", ruleDeckOut, "the deck is out: no refill; your turn ended by itself with your card: drop the steps after it",
				"la pioche est épuisée : plus de main à compléter ; votre tour s'est terminé de lui-même avec votre carte : supprimez les étapes qui la suivent")
		case Take:
			return rulef("deck-out", ruleDeckOut, "the deck is out: no card may be taken from the market any more; your turn ended by itself with your card: drop the steps after it",
				"la pioche est épuisée : plus aucune carte ne se prend au marché ; votre tour s'est terminé de lui-même avec votre carte : supprimez les étapes qui la suivent")
		}
		return rulef("turn-ended", ruleDeckOut, "the deck is out, so your turn ended by itself with your card (sold, or its action done): drop the steps after it",
			"la pioche est épuisée : votre tour s'est donc terminé de lui-même avec votre carte (vendue, ou son action faite) : supprimez les étapes qui la suivent")
	}
	return adjudicator.CanAct(s, player)
}

// errSetup is the error for a step of play during the setup.
func errSetup() *rerr {
	return rulef("in-setup", ruleSetup, "the game is in its setup: place a castle and a knight, like castle a1 knight b1",
		"la partie est en cours de mise en place : placez un château et un chevalier, par exemple château a1 chevalier b1")
}

// distance returns the orthogonal distance between two squares: the
// squares between them counted without diagonals, plus one.
func distance(a, b Square) int {
	dr, dc := a.Row()-b.Row(), a.Col()-b.Col()
	if dr < 0 {
		dr = -dr
	}
	if dc < 0 {
		dc = -dc
	}
	return dr + dc
}

// castleGap returns the distance colour c's next castle must keep from its
// others: 7 (six squares between), 6 where no square is left at 7, and 0
// where none is left at 6 either (RULINGS.md LH-2).
func (s *State) castleGap(c int) int {
	castles := s.castlesOf(c)
	for _, gap := range []int{7, 6} {
		for q := Square(0); q < Size*Size; q++ {
			if castleSpotAmong(s, castles, q, gap) && s.knightBeside(q) {
				return gap
			}
		}
	}
	return 0
}

// castleSpot reports whether colour c may put a castle on q keeping gap
// from its other castles.
func (s *State) castleSpot(c int, q Square, gap int) bool {
	if s.terrain[q] != Meadow || s.piece[q] >= 0 {
		return false
	}
	return castleSpotAmong(s, s.castlesOf(c), q, gap)
}

// castleSpotAmong is castleSpot with the colour's castles given.
func castleSpotAmong(s *State, castles []Square, q Square, gap int) bool {
	if s.terrain[q] != Meadow || s.piece[q] >= 0 {
		return false
	}
	for _, o := range castles {
		if distance(o, q) < gap {
			return false
		}
	}
	return true
}

// castlesOf returns the squares of colour c's castles.
func (s *State) castlesOf(c int) []Square {
	var out []Square
	for o := Square(0); o < Size*Size; o++ {
		if s.castle[o] && int(s.piece[o]) == c {
			out = append(out, o)
		}
	}
	return out
}

// knightBeside reports whether a knight could go beside a castle on q.
func (s *State) knightBeside(q Square) bool {
	for d := North; d <= West; d++ {
		if n := q.neighbour(d); n >= 0 && s.piece[n] < 0 && s.terrain[n].holdsKnight() {
			return true
		}
	}
	return false
}

func (s *State) checkPlace(p int, m Place) *rerr {
	if s.phase != phaseSetup {
		return at(rulef("not-setup", ruleSetup, "castles are placed only at the setup, which is over",
			"les châteaux ne se placent qu'à la mise en place, qui est terminée"), m.pos)
	}
	c := s.order[s.setupAt].colour
	if s.terrain[m.Castle] != Meadow {
		return at(rulef("castle-meadow", ruleSetup, "a castle goes on a meadow; %s is %s",
			"un château se place sur un pré ; %s est %s", m.Castle, s.terrain[m.Castle].WordsA()), m.pos)
	}
	if s.piece[m.Castle] >= 0 {
		return at(rulef("occupied", ruleSetup, "%s is taken", "%s est occupée", m.Castle), m.pos)
	}
	if gap := s.castleGap(c); !s.castleSpot(c, m.Castle, gap) {
		var near Square
		for o := Square(0); o < Size*Size; o++ {
			if s.castle[o] && int(s.piece[o]) == c && distance(o, m.Castle) < gap {
				near = o
				break
			}
		}
		return at(rulef("castle-distance", ruleDistance,
			"%s is %d squares from %s's castle on %s; castles of one colour keep at least %d squares apart, counted along rows and columns without diagonals (%d squares between them; RULINGS.md LH-2)",
			"%s est à %d cases du château %s en %s ; les châteaux d'une couleur sont distants d'au moins %d cases, comptées en lignes et colonnes sans diagonale (%d cases entre eux ; RULINGS.md LH-2)",
			m.Castle, distance(near, m.Castle), adjudicator.OfName(s.colourName(c)), near, gap, gap-1), m.pos)
	}
	if between(m.Castle, m.Knight) < 0 {
		return at(rulef("knight-beside", ruleSetup, "the knight goes on a square beside the castle (not diagonally); %s is not beside %s",
			"le chevalier se place sur une case adjacente au château (pas en diagonale) ; %s n'est pas à côté de %s", m.Knight, m.Castle), m.kpos)
	}
	if !s.terrain[m.Knight].holdsKnight() {
		return at(rulef("knight-land", ruleKnightLand, "knights stand only on meadow or forest; %s is %s",
			"les chevaliers ne se placent que sur un pré ou une forêt ; %s est %s", m.Knight, s.terrain[m.Knight].WordsA()), m.kpos)
	}
	if s.piece[m.Knight] >= 0 {
		return at(rulef("occupied", ruleSetup, "%s is taken", "%s est occupée", m.Knight), m.kpos)
	}
	return nil
}

// place puts a setup castle and knight; after the last, the last placer
// starts (lowenherz-2003-fr-scan.txt:98).
func (s *State) place(m Place) {
	pl := s.order[s.setupAt]
	c := int8(pl.colour)
	s.piece[m.Castle], s.castle[m.Castle] = c, true
	s.piece[m.Knight] = c
	s.players[pl.colour].castles--
	s.players[pl.colour].knights--
	s.setupAt++
	if s.setupAt == len(s.order) {
		s.phase = phasePlay
		s.rescore()
		s.startTurn(pl.player)
	}
}

// startTurn begins p's turn with the mine income
// (lowenherz-2003-fr-scan.txt:99, 314-318; RULINGS.md LH-14).
func (s *State) startTurn(p int) {
	s.turn = p
	s.step = stepCard
	s.sold = -1
	s.done = 0
	s.domain = noSquare
	s.card = Card{}
	s.act = option{}
	s.income = s.mineTypes(p)
	s.players[p].ducats += s.income
}

// nextTurn ends the turn: when a marker has reached the king's the game
// is over (RULINGS.md LH-11; endAction looks first); else the turn passes clockwise to the next
// player holding a card, and when nobody holds one, the last card has been
// played and the game ends (lowenherz-2003-fr-scan.txt:346-359).
func (s *State) nextTurn() {
	if s.kingReached() {
		s.finish(true)
		return
	}
	for i := 1; i <= len(s.names); i++ {
		next := (s.turn + i) % len(s.names)
		if len(s.players[next].hand) > 0 {
			s.startTurn(next)
			return
		}
	}
	s.finish(false)
}

func (s *State) checkCardStep(pos notation.Pos, en, fr string) *rerr {
	switch {
	case s.phase == phaseSetup:
		return at(errSetup(), pos)
	case s.step != stepCard:
		return at(rulef("one-card", ruleTurn, "you have already sold or played your card this turn; you cannot %s another",
			"vous avez déjà vendu ou joué votre carte ce tour-ci ; vous ne pouvez pas en %s une autre", words{EN: en, FR: fr}), pos)
	}
	return nil
}

func (s *State) checkInHand(p int, c Card, pos notation.Pos) *rerr {
	if !slices.Contains(s.players[p].hand, c) {
		return at(rulef("not-in-hand", ruleTurn, "you have no %s card in your hand (your hand: %s)",
			"vous n'avez pas de carte %s en main (votre main : %s)", c.Words(), handWords(s.players[p].hand)).OnHidden(), pos)
	}
	return nil
}

// handWords returns a hand for messages.
func handWords(h []Card) words {
	if len(h) == 0 {
		return words{EN: "empty", FR: "vide"}
	}
	w := make([]words, len(h))
	for i, c := range h {
		w[i] = c.Words()
	}
	return adjudicator.JoinWords(w, ", ")
}

func removeCard(h []Card, c Card) []Card {
	i := slices.Index(h, c)
	return slices.Delete(h, i, i+1)
}

func (s *State) sell(p int, c Card) {
	pl := &s.players[p]
	pl.hand = removeCard(pl.hand, c)
	pl.ducats += c.Sale()
	s.market = append(s.market, c)
	s.sold = len(s.market) - 1
	s.card = c
	s.endAction()
}

// optionFor returns the card's option for action a.
func optionFor(k CardKind, a Action) (option, bool) {
	for _, o := range k.options() {
		if o.act == a {
			return o, true
		}
	}
	return option{}, false
}

func (s *State) checkPlay(p int, m Play) *rerr {
	if err := s.checkInHand(p, m.Card, m.pos); err != nil {
		return err
	}
	opt, ok := optionFor(m.Card.Kind, m.Action)
	if !ok {
		return at(rulef("no-such-action", ruleTwoActions, "the %s card offers no %s action", "la carte %s n'offre pas l'action %s",
			m.Card.Words(), m.Action.Words()), m.actPos)
	}
	left := s.players[p].ducats - m.Card.Cost()
	if left < 0 {
		return at(rulef("cost", rulePlay, "the %s card costs %s and you have %d",
			"la carte %s coûte %s et vous en avez %d", m.Card.Words(), counted(m.Card.Cost(), "ducat", "ducats", "ducat", "ducats"), s.players[p].ducats), m.pos)
	}
	if err := s.canCarryOut(p, opt, left); err != nil {
		return at(err, m.pos)
	}
	return nil
}

// canCarryOut returns why colour p could not carry out opt with left
// ducats after paying, or nil (RULINGS.md LH-12).
func (s *State) canCarryOut(p int, opt option, left int) *rerr {
	switch opt.act {
	case ActKnights:
		if s.players[p].knights == 0 {
			return rulef("no-knights", ruleKnightOut, "you have no knight left in your supply, so you cannot play a knights action",
				"il ne vous reste aucun chevalier en réserve : vous ne pouvez pas jouer l'action chevaliers")
		}
		if !s.anyKnightSquare(p, left) {
			if s.anyKnightSquare(p, 1) {
				// left is 0: only forests are free, and each costs 1.
				return rulef("cannot-knight", ruleCannot, "the card's cost would leave you no ducat, and the only squares free for a knight of yours are forests, where a knight costs 1 ducat: the card cannot be played for knights",
					"le prix de la carte ne vous laisserait aucun ducat, et les seules cases libres pour un chevalier à vous sont des forêts, où un chevalier coûte 1 ducat : la carte ne peut pas être jouée pour des chevaliers")
			}
			return rulef("cannot-knight", ruleCannot, "no square can take a knight of yours now: none is a free meadow or forest beside one of your castles or knights with no border between, so the card cannot be played for knights",
				"aucune case ne peut recevoir de chevalier à vous : aucune n'est un pré ou une forêt libre à côté d'un de vos châteaux ou chevaliers sans frontière entre eux, donc la carte ne peut pas être jouée pour des chevaliers")
		}
	case ActExtension:
		if !s.anyExtension(p) {
			if !s.hasDomain(p) {
				return rulef("cannot-extend", ruleCannot, "you have no domain yet (a castle alone inside borders and the rim), and an extension grows one of your domains: the card cannot be played for an extension",
					"vous n'avez encore aucun domaine (un château seul entouré de frontières et du bord), et une extension agrandit un de vos domaines : la carte ne peut pas être jouée pour une extension")
			}
			return rulef("cannot-extend", ruleCannot, "none of your domains can be extended now, so the card cannot be played for an extension",
				"aucun de vos domaines ne peut s'étendre maintenant : la carte ne peut pas être jouée pour une extension")
		}
	case ActDeserter:
		if len(s.deserterMoves(p, left, 1)) == 0 {
			return rulef("cannot-desert", ruleCannot, "no deserter is possible now: it needs one of your domains with a knight of yours, beside an opponent's domain with a knight that may leave, a free square for your knight and a knight in your supply",
				"aucun transfuge n'est possible : il faut un de vos domaines avec un de vos chevaliers, voisin d'un domaine adverse avec un chevalier qui peut partir, une case libre pour votre chevalier et un chevalier en réserve")
		}
	case ActAlliance:
		if !s.anyAlliance(p) {
			return rulef("cannot-ally", ruleCannot, "none of your domains borders an opponent's domain you are not allied with yet, so the card cannot be played",
				"aucun de vos domaines ne touche un domaine adverse avec lequel vous n'êtes pas encore allié : la carte ne peut pas être jouée")
		}
	}
	return nil
}

func (s *State) play(p int, m Play) {
	pl := &s.players[p]
	pl.hand = removeCard(pl.hand, m.Card)
	pl.ducats -= m.Card.Cost()
	s.discard = append(s.discard, m.Card)
	s.card = m.Card
	s.act, _ = optionFor(m.Card.Kind, m.Action)
	s.step = stepAction
	s.done = 0
	s.domain = noSquare
}

// endAction closes the card's action: the hand is refilled next, or with
// the deck out the turn ends (lowenherz-2003-fr.txt:234).
func (s *State) endAction() {
	s.step = stepRefill
	if s.kingReached() {
		// « Ce joueur a aussitôt gagné » (lowenherz-2003-fr.txt:230): no
		// refill can change a score (RULINGS.md LH-11).
		s.finish(true)
		return
	}
	if len(s.deck) == 0 {
		// No refill (lowenherz-2003-fr.txt:234): the turn ends here.
		s.deckEnd, s.deckEndP = true, s.turn
		s.nextTurn()
	}
}

// afterStep closes the action once its last border, knight or square is
// done.
func (s *State) afterStep() {
	s.done++
	if s.phase == phasePlay && s.done >= s.act.n {
		s.endAction()
	}
}

// checkAction checks that a step of action a may come now.
func (s *State) checkAction(a Action, pos notation.Pos) *rerr {
	switch {
	case s.phase == phaseSetup:
		return at(errSetup(), pos)
	case s.step == stepCard:
		return at(rulef("play-first", rulePlay, "play a card with the %s action first, like play A 2 borders",
			"jouez d'abord une carte avec l'action %s, par exemple jouer A 2 frontières", a.Words()), pos)
	case s.step == stepRefill:
		return at(rulef("action-over", ruleRefill, "your card's action is over; refill your hand: draw, or take a card from the market",
			"l'action de votre carte est terminée ; complétez votre main : piocher, ou prendre une carte au marché"), pos)
	case s.act.act != a:
		return at(rulef("wrong-action", ruleTwoActions, "you played the %s card for its %s action, not %s",
			"vous avez joué la carte %s pour l'action %s, pas %s", s.card.Words(), s.act.act.Words(), a.Words()), pos)
	}
	return nil
}

// checkBorder checks a border on e (lowenherz-2003-fr-scan.txt:155-168).
func (s *State) checkBorder(p int, e Edge) *rerr {
	a, b := e.squares()
	switch {
	case s.border[e]:
		return rulef("border-there", ruleBorders, "there is already a border between %s and %s", "il y a déjà une frontière entre %s et %s", a, b)
	case s.bordersOnBoard >= bordersTotal:
		return rulef("no-borders", ruleSupply, "all %d borders are on the board", "les %d frontières sont toutes sur le plateau", bordersTotal)
	case s.piece[a] >= 0 && s.piece[a] == s.piece[b]:
		return rulef("border-same", ruleBorderSame, "no border between two adjacent pieces of one colour: %s and %s are both %s's",
			"pas de frontière entre deux pions adjacents d'une même couleur : %s et %s sont tous deux à %s", a, b, s.colourName(int(s.piece[a])))
	case s.region[a] == s.region[b] && s.regionOf(a).domain():
		return rulef("border-domain", ruleBorderDom, "borders are never placed inside a domain: %s and %s are both in the domain of the castle on %s",
			"les frontières ne se placent jamais dans un domaine : %s et %s sont dans le domaine du château en %s", a, b, s.regionOf(a).castle)
	}
	return nil
}

func (s *State) placeBorder(e Edge) {
	s.border[e] = true
	s.bordersOnBoard++
	if a, b := e.squares(); s.region[a] != s.region[b] || s.joined(a, b) {
		// The border divides no region: recompute would find the regions,
		// their counts and the markers as they are. Only an alliance that
		// had no border left between its domains may mark this one.
		s.fixAlliances()
	} else {
		s.rescore()
	}
	s.afterStep()
}

// joined reports whether a and b, in one region, are still joined by a
// path that crosses no border: whether the border just placed between
// them leaves the region whole.
func (s *State) joined(a, b Square) bool {
	var seen [Size * Size]int8 // 1: reached
	var queue [Size * Size]Square
	return s.flood(a, b, &seen, 1, &queue)
}

// checkKnight checks a knight of colour p on q with ducats in hand
// (lowenherz-2003-fr-scan.txt:187-205; RULINGS.md LH-5).
func (s *State) checkKnight(p int, q Square, ducats int) *rerr {
	t := s.terrain[q]
	switch {
	case s.players[p].knights == 0:
		return rulef("no-knights", ruleKnightOut, "you have no knight left in your supply", "il ne vous reste aucun chevalier en réserve")
	case !t.holdsKnight():
		return rulef("knight-land", ruleKnightLand, "knights stand only on meadow or forest; %s is %s",
			"les chevaliers ne se placent que sur un pré ou une forêt ; %s est %s", q, t.WordsA())
	case s.piece[q] >= 0:
		return rulef("occupied", ruleKnightNext, "%s is taken by %s's %s", "%[1]s est occupée par un %[3]s %[2]s", q, adjudicator.OfName(s.colourName(int(s.piece[q]))), s.pieceWords(q))
	}
	if !s.linked(p, q) {
		return rulef("knight-next", ruleKnightNext, "a knight goes beside one of your castles or knights, not diagonally and not across a border; %s is not",
			"un chevalier se place à côté d'un de vos châteaux ou chevaliers, pas en diagonale ni au-delà d'une frontière ; ce n'est pas le cas de %s", q)
	}
	if t == Forest && ducats < 1 {
		return rulef("forest-cost", ruleKnightLand, "a knight on a forest costs 1 ducat and you have none",
			"un chevalier sur une forêt coûte 1 ducat et vous n'en avez plus")
	}
	return nil
}

func (s *State) pieceWords(q Square) words {
	if s.castle[q] {
		return words{EN: "castle", FR: "château"}
	}
	return words{EN: "knight", FR: "chevalier"}
}

// linked reports whether q is beside a piece of colour p with no border
// between them.
func (s *State) linked(p int, q Square) bool {
	for d := North; d <= West; d++ {
		n := q.neighbour(d)
		if n >= 0 && int(s.piece[n]) == p && !s.border[edgeOf(q, d)] {
			return true
		}
	}
	return false
}

func (s *State) placeKnight(p int, q Square) {
	s.piece[q] = int8(p)
	s.players[p].knights--
	if s.terrain[q] == Forest {
		s.players[p].ducats--
	}
	// A knight moves no border: the regions stay, and only the count of
	// their owner's knights can change (what recompute would find).
	if r := s.regionOf(q); r.owner == p {
		r.knights++
	}
	s.afterStep()
}

// knightSquares lists the squares a knight of p may take with ducats.
func (s *State) knightSquares(p int, ducats int) []Square {
	var out []Square
	if s.players[p].knights == 0 {
		return nil
	}
	for q := Square(0); q < Size*Size; q++ {
		if s.piece[q] < 0 && s.terrain[q].holdsKnight() && (s.terrain[q] == Meadow || ducats > 0) && s.linked(p, q) {
			out = append(out, q)
		}
	}
	return out
}

// extendTarget is a square an extension may take, and the castle of the
// domain it would join.
type extendTarget struct{ q, domain Square }

// extensionSquares lists every square p's next extension step may take.
func (s *State) extensionSquares(p int) []extendTarget {
	var out []extendTarget
	var domains []Square
	if s.domain >= 0 {
		domains = []Square{s.domain}
	} else {
		for i := range s.regions {
			if r := &s.regions[i]; r.owner == p {
				domains = append(domains, r.castle)
			}
		}
		slices.Sort(domains)
	}
	for q := Square(0); q < Size*Size; q++ {
		for _, d := range domains {
			if s.extendOK(p, q, d) {
				out = append(out, extendTarget{q, d})
			}
		}
	}
	return out
}

// touches reports whether q is outside the region of castle d and beside it.
func (s *State) touches(q, d Square) bool {
	rd := s.region[d]
	if s.region[q] == rd {
		return false
	}
	for dir := North; dir <= West; dir++ {
		if n := q.neighbour(dir); n >= 0 && s.region[n] == rd {
			return true
		}
	}
	return false
}

// allied reports whether the domains of castles a and b are allied.
func (s *State) allied(a, b Square) bool {
	for _, al := range s.allies {
		if (al.a == a && al.b == b) || (al.a == b && al.b == a) {
			return true
		}
	}
	return false
}

// bordersFor returns how many borders annexing q to the domain of castle d
// lays (around q where it faces outside the domain) and lifts (between q
// and the domain, back to the supply): it takes lay-lift from the supply,
// net (RULINGS.md LH-16).
func (s *State) bordersFor(q, d Square) (lay, lift int) {
	for dir := North; dir <= West; dir++ {
		n := q.neighbour(dir)
		if n < 0 {
			continue
		}
		on := s.border[edgeOf(q, dir)]
		switch {
		case s.region[n] == s.region[d]:
			if on {
				lift++
			}
		case !on:
			lay++
		}
	}
	return lay, lift
}

// checkExtendSquare checks that q may join p's domain of castle d
// (lowenherz-2003-fr-scan.txt:213-243; RULINGS.md LH-4, LH-7).
func (s *State) checkExtendSquare(p int, q, d Square) *rerr {
	dom := s.regionOf(d)
	if !dom.domain() || dom.owner != p {
		return rulef("not-your-domain", ruleExtend, "there is no domain of yours with a castle on %s",
			"vous n'avez pas de domaine avec un château en %s", d)
	}
	if s.region[q] == s.region[d] {
		return rulef("already-yours", ruleExtend, "%s is already in your domain", "%s est déjà dans votre domaine", q)
	}
	if !s.touches(q, d) {
		return rulef("extend-adjacent", ruleExtendAdj, "%s does not touch your domain of %s (a square beside it, not diagonally)",
			"%s ne touche pas votre domaine de %s (une case adjacente, pas en diagonale)", q, d)
	}
	if c := s.piece[q]; c >= 0 && int(c) != p {
		return rulef("extend-piece", ruleExtendPcs, "%s holds %s's %s: a square with an opponent's piece cannot be annexed",
			"%[1]s porte un %[3]s %[2]s : une case occupée par un pion adverse ne peut être annexée", q, adjudicator.OfName(s.colourName(int(c))), s.pieceWords(q))
	}
	if s.castle[q] {
		return rulef("extend-castle", ruleOwnCastle, "%s holds your own castle: annexing it would put two castles in one region",
			"%s porte votre propre château : l'annexer mettrait deux châteaux dans une même région", q)
	}
	if r := s.regionOf(q); r.domain() {
		switch {
		case r.owner == p:
			return rulef("extend-own", ruleExtendOwn, "%s is in another of your domains (castle %s): you never extend into your own domain",
				"%s est dans un autre de vos domaines (château %s) : on ne s'étend jamais dans son propre domaine", q, r.castle)
		case s.allied(d, r.castle):
			return rulef("allied", ruleAllied, "your domain of %s and %s's domain of %s are allied: neither extends into the other",
				"votre domaine de %s et le domaine %s en %s sont alliés : aucun ne s'étend dans l'autre", d, adjudicator.OfName(s.colourName(r.owner)), r.castle)
		case dom.knights <= r.knights:
			return rulef("extend-knights", ruleExtendMore, "your domain of %s has %s and %s's domain of %s has %d: you extend into an opponent's domain only with strictly more",
				"votre domaine de %s a %s et le domaine %s en %s en a %d : on ne s'étend dans un domaine adverse qu'avec strictement plus",
				d, counted(dom.knights, "knight", "knights", "chevalier", "chevaliers"), adjudicator.OfName(s.colourName(r.owner)), r.castle, r.knights)
		}
	}
	if lay, lift := s.bordersFor(q, d); s.bordersOnBoard+lay-lift > bordersTotal {
		return rulef("no-borders", ruleSupply, "annexing %s lays %s and lifts %d back to the supply: it takes %d from the supply, which holds %d",
			"annexer %s pose %s et en rend %d à la réserve : il en faut %d de la réserve, qui en a %d",
			q, counted(lay, "border", "borders", "frontière", "frontières"), lift, lay-lift, bordersTotal-s.bordersOnBoard)
	}
	return nil
}

// applyExtend checks and plays each square of an extension in turn,
// all or nothing.
func (s *State) applyExtend(p int, m Extend) *rerr {
	pos := func(i int) notation.Pos {
		if i < len(m.pos) {
			return m.pos[i]
		}
		return notation.Pos{}
	}
	if err := s.checkAction(ActExtension, pos(0)); err != nil {
		return err
	}
	if s.done+len(m.Squares) > 2 {
		return at(rulef("extend-two", ruleExtend, "an extension takes 1 or 2 squares; you have taken %d already",
			"une extension prend 1 ou 2 cases ; vous en avez déjà pris %d", s.done), pos(2-s.done))
	}
	work := s.clone()
	for i, q := range m.Squares {
		d := work.domain
		switch {
		case d >= 0 && m.Domain >= 0 && m.Domain != d:
			return at(rulef("one-domain", ruleOneDomain, "this extension serves your domain of %s; a card extends one domain only",
				"cette extension sert votre domaine de %s ; une carte n'étend qu'un seul domaine", d), m.dpos)
		case d < 0 && m.Domain >= 0:
			d = m.Domain
		case d < 0:
			var cands []Square
			for _, t := range work.extensionSquares(p) {
				if t.q == q {
					cands = append(cands, t.domain)
				}
			}
			switch len(cands) {
			case 0:
				// Say why, against the nearest domain of the player.
				return at(work.whyNotExtend(p, q), pos(i))
			case 1:
				d = cands[0]
			default:
				return at(rulef("which-domain", ruleOneDomain, "%s touches your domains of %s and %s: say which, like extend %s domain %s",
					"%s touche vos domaines de %s et %s : précisez lequel, par exemple étendre %s domaine %s", q, cands[0], cands[1], q, cands[0]), pos(i))
			}
		}
		if err := work.checkExtendSquare(p, q, d); err != nil {
			return at(err, pos(i))
		}
		work.annex(q, d)
		if work.phase != phasePlay || work.step != stepAction {
			break
		}
	}
	*s = *work
	return nil
}

// whyNotExtend explains why q cannot join any of p's domains.
func (s *State) whyNotExtend(p int, q Square) *rerr {
	var first *rerr
	for i := range s.regions {
		r := &s.regions[i]
		if r.owner != p {
			continue
		}
		err := s.checkExtendSquare(p, q, r.castle)
		if err == nil {
			continue
		}
		if first == nil || err.Code != "extend-adjacent" && first.Code == "extend-adjacent" {
			first = err
		}
	}
	if first == nil {
		return rulef("no-domain", ruleExtend, "you have no domain to extend", "vous n'avez aucun domaine à étendre")
	}
	return first
}

// annex joins q to the domain of castle d: borders around q where it
// faces outside the domain, whatever pieces they separate (RULINGS.md
// LH-18), none between q and the domain (lowenherz-2003-fr-scan.txt:213-215),
// then scores and closes the action after the second square.
func (s *State) annex(q, d Square) {
	rd := s.region[d]
	for dir := North; dir <= West; dir++ {
		n := q.neighbour(dir)
		if n < 0 {
			continue
		}
		e := edgeOf(q, dir)
		inside := s.region[n] == rd
		if inside && s.border[e] {
			s.border[e] = false
			s.bordersOnBoard--
		} else if !inside && !s.border[e] {
			s.border[e] = true
			s.bordersOnBoard++
		}
	}
	s.domain = d
	s.rescore()
	s.afterStep()
}

// checkDeserter checks a deserter step (lowenherz-2003-fr-scan.txt:273-285,
// lowenherz-2003-fr.txt:191-195; RULINGS.md LH-3).
func (s *State) checkDeserter(p int, m DeserterStep) *rerr {
	o := int(s.piece[m.From])
	if o < 0 || s.castle[m.From] || o == p {
		return at(rulef("deserter-from", ruleDeserter, "%s holds no opponent's knight to leave", "%s ne porte aucun chevalier adverse qui puisse partir", m.From), m.pos)
	}
	e := s.regionOf(m.From)
	if !e.domain() || e.owner != o {
		return at(rulef("deserter-domain", ruleDeserter, "the knight on %s is not in a domain of %s's",
			"le chevalier en %s n'est pas dans un domaine %s", m.From, adjudicator.OfName(s.colourName(o))), m.pos)
	}
	if !s.removable(m.From) {
		return at(rulef("end-of-line", ruleEndLine, "the knight on %s links other knights to their castle on %s: only a knight at the end of a line may leave",
			"le chevalier en %s relie d'autres chevaliers à leur château en %s : seul un chevalier en fin de file peut partir", m.From, e.castle), m.pos)
	}
	d := s.regionOf(m.To)
	if !d.domain() || d.owner != p {
		return at(rulef("deserter-to", ruleDeserter, "your knight goes into one of your domains; %s is not in one",
			"votre chevalier va dans un de vos domaines ; %s n'en fait pas partie", m.To), m.tpos)
	}
	if !s.adjacentRegions(s.region[m.To], s.region[m.From]) {
		return at(rulef("deserter-adjacent", ruleDeserter, "your domain of %s does not touch %s's domain of %s",
			"votre domaine de %s ne touche pas le domaine %s en %s", d.castle, adjudicator.OfName(s.colourName(o)), e.castle), m.tpos)
	}
	if d.knights == 0 {
		return at(rulef("deserter-empty", ruleDeserter, "your domain of %s holds none of your knights: both domains need at least one",
			"votre domaine de %s ne contient aucun de vos chevaliers : les deux domaines en demandent au moins un", d.castle), m.tpos)
	}
	return at(s.checkKnight(p, m.To, s.players[p].ducats), m.tpos)
}

// hasDomain reports whether colour p owns a domain.
func (s *State) hasDomain(p int) bool {
	for i := range s.regions {
		if s.regions[i].owner == p {
			return true
		}
	}
	return false
}

// adjacentRegions reports whether regions a and b share an edge.
func (s *State) adjacentRegions(a, b int8) bool {
	for e := Edge(0); e < numEdges; e++ {
		if !e.valid() {
			continue
		}
		x, y := e.squares()
		if (s.region[x] == a && s.region[y] == b) || (s.region[x] == b && s.region[y] == a) {
			return true
		}
	}
	return false
}

// linkedToCastle returns the pieces of the owner of the domain around
// castle c that are linked to it by a line of their colour.
func (s *State) linkedToCastle(c Square, skip Square) [Size * Size]bool {
	var seen [Size * Size]bool
	col := s.piece[c]
	stack := []Square{c}
	seen[c] = true
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := North; d <= West; d++ {
			n := q.neighbour(d)
			if n < 0 || n == skip || seen[n] || s.piece[n] != col || s.border[edgeOf(q, d)] {
				continue
			}
			seen[n] = true
			stack = append(stack, n)
		}
	}
	return seen
}

// removable reports whether the knight on q may leave its domain: every
// other knight linked to the castle stays linked (RULINGS.md LH-3).
func (s *State) removable(q Square) bool {
	c := s.regionOf(q).castle
	before := s.linkedToCastle(c, noSquare)
	after := s.linkedToCastle(c, q)
	for o := Square(0); o < Size*Size; o++ {
		if o != q && before[o] && !after[o] {
			return false
		}
	}
	return true
}

func (s *State) desert(p int, m DeserterStep) {
	o := int(s.piece[m.From])
	s.piece[m.From] = -1
	s.players[o].knights++
	s.piece[m.To] = int8(p)
	s.players[p].knights--
	if s.terrain[m.To] == Forest {
		s.players[p].ducats--
	}
	s.rescore()
	s.afterStep()
}

// deserterMoves lists deserter steps for p with ducats, at most limit (0:
// all).
func (s *State) deserterMoves(p int, ducats int, limit int) []DeserterStep {
	if s.players[p].knights == 0 {
		return nil
	}
	var out []DeserterStep
	for from := Square(0); from < Size*Size; from++ {
		o := int(s.piece[from])
		if o < 0 || o == p || s.castle[from] {
			continue
		}
		e := s.regionOf(from)
		if !e.domain() || e.owner != o || !s.removable(from) {
			continue
		}
		for to := Square(0); to < Size*Size; to++ {
			d := s.regionOf(to)
			if !d.domain() || d.owner != p || d.knights == 0 {
				continue
			}
			if !s.knightOK(p, to, ducats) || !s.adjacentRegions(s.region[to], s.region[from]) {
				continue
			}
			out = append(out, DeserterStep{From: from, To: to})
			if limit > 0 && len(out) >= limit {
				return out
			}
		}
	}
	return out
}

// checkAlliance checks an alliance on border e
// (lowenherz-2003-fr-scan.txt:297-304; RULINGS.md LH-13).
func (s *State) checkAlliance(p int, e Edge) *rerr {
	a, b := e.squares()
	if !s.border[e] {
		return rulef("alliance-border", ruleAlliance, "there is no border between %s and %s to turn",
			"il n'y a pas de frontière à tourner entre %s et %s", a, b)
	}
	ra, rb := s.regionOf(a), s.regionOf(b)
	if rb.owner == p {
		ra, rb = rb, ra
	}
	switch {
	case !ra.domain() || ra.owner != p:
		return rulef("alliance-own", ruleAlliance, "the border %s does not bound one of your domains", "la frontière %s ne borde aucun de vos domaines", e)
	case !rb.domain() || rb.owner < 0:
		return rulef("alliance-other", ruleAlliance, "the other side of %s is not an opponent's domain", "l'autre côté de %s n'est pas un domaine adverse", e)
	case rb.owner == p:
		return rulef("alliance-self", ruleAlliance, "both sides of %s are your own domains: an alliance joins yours with an opponent's",
			"les deux côtés de %s sont vos propres domaines : une alliance lie le vôtre à un domaine adverse", e)
	case rb.owner >= len(s.names):
		return rulef("alliance-neutral", ruleNeutral, "the neutral colour makes no alliance", "la couleur neutre ne s'allie pas")
	case s.allied(ra.castle, rb.castle):
		return rulef("alliance-again", ruleAllied, "your domain of %s and %s's domain of %s are allied already",
			"votre domaine de %s et le domaine %s en %s sont déjà alliés", ra.castle, adjudicator.OfName(s.colourName(rb.owner)), rb.castle)
	}
	return nil
}

func (s *State) ally(e Edge) {
	a, b := e.squares()
	ca, cb := s.regionOf(a).castle, s.regionOf(b).castle
	if int(s.piece[cb]) == s.turn {
		ca, cb = cb, ca
	}
	s.allies = append(s.allies, alliance{ca, cb, e})
	s.afterStep()
}

// allianceEdges lists the borders p may turn for an alliance.
func (s *State) allianceEdges(p int) []Edge {
	var out []Edge
	for e := Edge(0); e < numEdges; e++ {
		if s.allianceOK(p, e) {
			out = append(out, e)
		}
	}
	return out
}

// fixAlliances marks another border between two allied domains when an
// extension took the marked one; with none left they stay allied
// (DATA-NOTES.md, official).
func (s *State) fixAlliances() {
	for i := range s.allies {
		al := &s.allies[i]
		if al.edge >= 0 && s.border[al.edge] && s.separates(al.edge, al.a, al.b) {
			continue
		}
		al.edge = noEdge
		for e := Edge(0); e < numEdges; e++ {
			if s.border[e] && s.separates(e, al.a, al.b) {
				al.edge = e
				break
			}
		}
	}
}

// separates reports whether e lies between the regions of castles a and b.
func (s *State) separates(e Edge, a, b Square) bool {
	x, y := e.squares()
	ra, rb := s.region[a], s.region[b]
	return (s.region[x] == ra && s.region[y] == rb) || (s.region[x] == rb && s.region[y] == ra)
}

// checkRefill checks that the hand may be refilled now: after a sale, or
// once the action has done what it must (RULINGS.md LH-12).
func (s *State) checkRefill() *rerr {
	switch {
	case s.phase == phaseSetup:
		return errSetup()
	case s.step == stepCard:
		return rulef("card-first", ruleTurn, "sell or play a card before refilling your hand",
			"vendez ou jouez une carte avant de compléter votre main")
	case s.step == stepAction && s.done == 0 && s.act.act != ActBorders:
		return rulef("carry-out", ruleCannot, "carry out your card's %s action first", "réalisez d'abord l'action %s de votre carte", s.act.act.Words())
	}
	return nil
}

func (s *State) checkTake(m Take) *rerr {
	if len(s.deck) == 0 {
		return at(rulef("deck-out", ruleDeckOut, "the deck is out: no card may be taken from the market any more; end your turn with end",
			"la pioche est épuisée : plus aucune carte ne se prend au marché ; finissez votre tour par fin"), m.pos)
	}
	if s.takeIndex(m.Card) < 0 {
		if i := slices.Index(s.market, m.Card); i >= 0 && i == s.sold {
			return at(rulef("sold-back", ruleSoldBack, "you cannot take back the %s card you have just sold", "vous ne pouvez pas reprendre la carte %s que vous venez de vendre", m.Card.Words()), m.pos)
		}
		return at(rulef("not-in-market", ruleRefill, "there is no %s card in the market (market: %s)", "il n'y a pas de carte %s au marché (marché : %s)", m.Card.Words(), handWords(s.market)), m.pos)
	}
	return nil
}

// takeIndex returns the market index of a card c that may be taken: not
// the one just sold.
func (s *State) takeIndex(c Card) int {
	for i, x := range s.market {
		if x == c && i != s.sold {
			return i
		}
	}
	return -1
}

func (s *State) draw(p int) {
	s.players[p].hand = append(s.players[p].hand, s.deck[0])
	s.deck = s.deck[1:]
	if len(s.deck) == 0 {
		s.deckOut = true
	}
	s.nextTurn()
}

func (s *State) take(p int, c Card) {
	i := s.takeIndex(c)
	s.market = slices.Delete(s.market, i, i+1)
	s.players[p].hand = append(s.players[p].hand, c)
	s.nextTurn()
}

// Legal returns every step player may take now, in a stable order.
func (s *State) Legal(player string) []adjudicator.Move { return s.AppendLegal(nil, player) }

// AppendLegal returns append(out, Legal(player)...), for a search that
// lists steps into a list it reuses (bot.LegalAppender).
func (s *State) AppendLegal(out []adjudicator.Move, player string) []adjudicator.Move {
	p := s.index(player)
	if !s.canAct(p) {
		return out
	}
	if s.phase == phaseSetup {
		c := s.order[s.setupAt].colour
		gap := s.castleGap(c)
		castles := s.castlesOf(c)
		for q := Square(0); q < Size*Size; q++ {
			if !castleSpotAmong(s, castles, q, gap) {
				continue
			}
			for d := North; d <= West; d++ {
				n := q.neighbour(d)
				if n >= 0 && s.piece[n] < 0 && s.terrain[n].holdsKnight() {
					out = append(out, placeSteps[q][d])
				}
			}
		}
		return out
	}
	pl := &s.players[p]
	switch s.step {
	case stepCard:
		var checks cardChecks
		for i, c := range pl.hand {
			if slices.Contains(pl.hand[:i], c) {
				continue
			}
			out = append(out, sellStep(c))
			for _, o := range c.Kind.options() {
				m := Play{Card: c, Action: o.act}
				if s.playable(p, m, &checks) {
					out = append(out, playStep(m))
				}
			}
		}
		return out
	case stepAction:
		switch s.act.act {
		case ActBorders:
			// The steps made once (borderSteps): no allocation but the list's.
			out = s.appendBorderSteps(out)
		case ActKnights:
			// knightSquares' squares, with the steps made once (knightSteps).
			for q := Square(0); q < Size*Size; q++ {
				if s.knightOK(p, q, pl.ducats) {
					out = append(out, knightSteps[q])
				}
			}
		case ActExtension:
			ts := s.extensionSquares(p)
			for i, t := range ts {
				m := Extend{Squares: []Square{t.q}, Domain: noSquare}
				if s.domain < 0 && (i > 0 && ts[i-1].q == t.q || i+1 < len(ts) && ts[i+1].q == t.q) {
					m.Domain = t.domain
				}
				out = append(out, m)
			}
		case ActDeserter:
			for _, m := range s.deserterMoves(p, pl.ducats, 0) {
				out = append(out, m)
			}
		case ActAlliance:
			for _, e := range s.allianceEdges(p) {
				out = append(out, AllianceStep{Edge: e})
			}
		}
		if !s.refillOK() {
			return out
		}
	}
	if len(s.deck) == 0 {
		return append(out, End{})
	}
	out = append(out, Draw{})
	var seen []Card
	for i, c := range s.market {
		if i != s.sold && !slices.Contains(seen, c) {
			seen = append(seen, c)
			out = append(out, takeStep(c))
		}
	}
	return out
}

// counted returns "1 knight", "3 knights" in English and French: n with
// the noun's singular when n is 1, its plural otherwise.
func counted(n int, en1, en, fr1, fr string) adjudicator.Words {
	if n == 1 {
		en, fr = en1, fr1
	}
	return adjudicator.Words{EN: fmt.Sprintf("%d %s", n, en), FR: fmt.Sprintf("%d %s", n, fr)}
}
