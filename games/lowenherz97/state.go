package lowenherz97

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
)

// Rule references into the rulebook (file:line) and RULINGS.md.
const (
	ruleMap        = "RULINGS.md L97-1"
	ruleDecide     = "lowenherz-1997-fr.txt:117"
	ruleTwoCards   = "lowenherz-1997-fr.txt:118"
	ruleCarryOut   = "lowenherz-1997-fr.txt:119"
	ruleTwoPlayers = "lowenherz-1997-fr.txt:308"
	ruleShare      = "lowenherz-1997-fr.txt:134"
	ruleWalls      = "lowenherz-1997-fr.txt:138"
	ruleWallLine   = "lowenherz-1997-fr.txt:140"
	ruleWallPair   = "lowenherz-1997-fr.txt:141"
	ruleWallRegion = "lowenherz-1997-fr.txt:143"
	ruleThreeReg   = "lowenherz-1997-fr.txt:146"
	ruleKnightLeft = "lowenherz-1997-fr.txt:150"
	ruleShield     = "lowenherz-1997-fr.txt:150"
	ruleShields    = "lowenherz-1997-fr.txt:155"
	rulePile       = "lowenherz-1997-fr.txt:160"
	ruleTerrain    = "lowenherz-1997-fr.txt:163"
	ruleNoHill     = "lowenherz-1997-fr.txt:165"
	ruleAdjacent   = "lowenherz-1997-fr.txt:166"
	ruleWallApart  = "lowenherz-1997-fr.txt:168"
	ruleExtend     = "lowenherz-1997-fr.txt:174"
	ruleOccupied   = "lowenherz-1997-fr.txt:183"
	ruleOwnRegion  = "lowenherz-1997-fr.txt:186"
	ruleStronger   = "lowenherz-1997-fr.txt:187"
	ruleNegotiate  = "lowenherz-1997-fr.txt:204"
	ruleNoPolitics = "lowenherz-1997-fr.txt:209"
	ruleConfront   = "lowenherz-1997-fr.txt:214"
	rulePolHeld    = "lowenherz-1997-fr.txt:244"
	ruleAllianceOn = "lowenherz-1997-fr.txt:248"
	ruleAllyWhich  = "lowenherz-1997-fr.txt:249"
	ruleAllied     = "lowenherz-1997-fr.txt:250"
	ruleBreak      = "lowenherz-1997-fr.txt:252"
	ruleRenegade   = "lowenherz-1997-fr.txt:262"
	ruleRenLink    = "lowenherz-1997-fr.txt:263"
	ruleRenRegion  = "lowenherz-1997-fr.txt:264"
	ruleRenForest  = "lowenherz-1997-fr.txt:269"
	ruleRenReserve = "lowenherz-1997-fr.txt:270"
	ruleTreasure   = "lowenherz-1997-fr.txt:275"
	rulePlacement  = "lowenherz-1997-fr.txt:295"
	ruleSetupTerr  = "lowenherz-1997-fr.txt:296"
	ruleSpread     = "lowenherz-1997-fr.txt:297"
	ruleCounter    = "RULINGS.md L97-4"
	ruleMailTalk   = "RULINGS.md L97-4"
	rulePlaceTurns = "RULINGS.md L97-6"
	ruleMoney      = "RULINGS.md L97-2"
	ruleValues     = "RULINGS.md L97-3"
	ruleCastleAnn  = "RULINGS.md L97-9"
	ruleExtWalls   = "RULINGS.md L97-10"
	ruleBreakWhen  = "RULINGS.md L97-8"
	ruleAttach     = "RULINGS.md L97-11"
	ruleWallStock  = "RULINGS.md L97-12"
	ruleSealedOnly = "RULINGS.md L97-5"
)

type phase uint8

const (
	phasePlace phase = iota
	phaseDecide
	phaseNegotiate
	phaseBid
	phaseAct
	phaseOver
)

var phaseNames = [...]string{"place", "decide", "negotiate", "bid", "act", "over"}

// pick is a decision card laid: its player, the tier (0 top, 2 bottom) and
// the political card played with it, if any.
type pick struct {
	player int
	tier   int
	pol    int8           // a PolKind, or -1
	ally   [2]grid.Square // an alliance's regions, by their castles: the player's, the other's
}

// bid is one bidder's sealed bid in a confrontation.
type bid struct {
	in        bool
	ducats    int
	treasures [4]uint8 // values, largest first, 0 for none
}

func (b bid) total() int {
	t := b.ducats
	for _, v := range b.treasures {
		t += int(v)
	}
	return t
}

// alliance links two regions, each known by its castle (a region keeps its
// one castle for good, lowenherz-1997-fr.txt:251).
type alliance struct {
	a, b grid.Square
}

// act is what the player carrying out an action has done so far.
type act struct {
	action  Action
	pol     int8 // political card still to carry out, or -1
	knights int
	walls   int
	ext     int         // squares annexed
	extOpen bool        // the extension may take one more square
	extFrom grid.Square // the castle of the region being extended
	extBase extBase     // what the extension under way started from
	looked  int8        // pile looked at, or -1
	took    bool        // crown: card taken
}

// extBase is the state an extension started from, and the squares it has
// annexed so far: each square recomputes the whole extension from it, so
// that its result does not depend on the order of its squares (RULINGS.md
// L97-20). Its grid and events are shared, never written in place.
type extBase struct {
	g       *grid.Grid
	score   [4]int
	events  []event
	squares []grid.Square // in the order they were annexed
}

// placement is one castle-and-knight placement of the setup: the player who
// places and the colour placed (their own, or the neutral prince's).
type placement struct {
	player, colour int
}

// State is a game of Löwenherz (1997). It implements adjudicator.State,
// adjudicator.PrivateTexter and the sealed-step methods of the package doc.
type State struct {
	m       *Map
	names   []string
	seats   int // colours on the board
	neutral int // the neutral prince's colour, or -1
	terrain []Terrain
	g       *grid.Grid
	castle  *[width * height]int8 // colour of the castle on each square, or -1
	knight  *[width * height]int8 // colour of the knight on each square, or -1
	reserve [4]int                // knights in reserve, by colour
	castles [4]int                // castles still to place in the setup, by colour
	score   [4]int                // by player
	money   [4]int                // ducats, by player
	bank    int
	hands   [][]Political // by player
	piles   [2][]Political
	deck    []Card
	card    Card
	first   int
	phase   phase

	places   []placement // the setup's placements still to come
	decOrder []int       // who lays each decision card this round
	decIdx   int
	picks    []pick
	tier     int

	contenders []int  // of the negotiation or confrontation
	speaker    int    // negotiation: who speaks
	offer      int    // negotiation: the standing offer, 0 for none
	offerBy    int    // negotiation: who made it, or -1
	bids       [4]bid // confrontation, by player
	rebid      bool   // the confrontation is the rebid of a tie
	sealRound  int    // the confrontations opened so far: names the open one

	executors []int // players carrying out the current tier, in order
	actor     int
	act       act

	alliances []alliance
	// allianceAtAction is option alliance=action, the earlier rule of
	// RULINGS.md L97-11: an alliance card is laid bare and its regions
	// named by the step alliance d5 h5, as the action's first step.
	allianceAtAction bool
	events           []event // what happened since the round began, for everyone

	lab   []int  // area of each square, cached
	areas []area // areas by label, cached
	dirty bool

	// scratch marks a determinization's copy (Determinize), which only
	// the bot's search plays on, step after step, and nobody reads but
	// for its play: it keeps no event log, and once it has a grid and
	// pieces of its own (ownsGrid, ownsPieces) it changes them in place
	// rather than copying them at every step. A clone of it is not
	// scratch, and takes the ownership away from it (the two share
	// them).
	scratch, ownsGrid, ownsPieces bool
	// ownsInfo marks a scratch copy's lab and areas as its own, computed
	// again in place.
	ownsInfo bool
}

var _ adjudicator.State = (*State)(nil)
var _ adjudicator.PrivateTexter = (*State)(nil)
var _ adjudicator.Defaulter = (*State)(nil)

// area is a part of the board cut off by walls.
type area struct {
	castles int
	castle  grid.Square // the castle, when there is one
	owner   int         // colour of a region's castle, else -1
	size    int
	cities  int
	hills   int
}

// region reports whether the area is a region: exactly one castle.
func (a *area) region() bool { return a.castles == 1 }

func (s *State) index(name string) int { return slices.Index(s.names, name) }

// colourName names a colour: a player, or "neutral".
func (s *State) colourName(c int) string {
	if c == s.neutral {
		return "neutral"
	}
	return s.names[c]
}

// colourWords names a colour in English and French: a player, or
// "neutral", "neutre".
func (s *State) colourWords(c int) adjudicator.Words {
	if c == s.neutral {
		return adjudicator.Words{EN: "neutral", FR: "neutre"}
	}
	return adjudicator.Words{EN: s.names[c], FR: s.names[c]}
}

// ofColour names a colour as the owner of something: in English the name
// (written before "'s"), in French "d'alice", "du prince neutre".
func (s *State) ofColour(c int) adjudicator.Words {
	if c == s.neutral {
		return adjudicator.Words{EN: "neutral", FR: "du prince neutre"}
	}
	return adjudicator.OfName(s.names[c])
}

// joinWords joins names with " and ", " et ".
func joinWords(names []string) adjudicator.Words {
	return adjudicator.Words{EN: strings.Join(names, " and "), FR: strings.Join(names, " et ")}
}

// Clone returns a deep copy.
func (s *State) Clone() adjudicator.State { return s.clone() }

func (s *State) clone() *State {
	if s.scratch {
		// c shares the grid, the pieces and the areas: neither may change
		// them now.
		s.ownsGrid, s.ownsPieces, s.ownsInfo = false, false, false
	}
	c := *s
	c.scratch = false
	// The copies share the slices, the grid and the pieces, which are
	// never written in place: an append to a slice capped at its length
	// (shared) makes a new array, a deletion makes a new slice (without),
	// and a step that moves walls or pieces moves them on a copy (ownGrid,
	// ownPieces). names, terrain and the deck are never written at all,
	// and lab and areas never once computed (info makes new ones, but in
	// a scratch copy's own, ownsInfo).
	c.hands = slices.Clone(s.hands) // hands[p] is assigned in place
	for i, h := range c.hands {
		c.hands[i] = shared(h)
	}
	c.piles = [2][]Political{shared(s.piles[0]), shared(s.piles[1])}
	c.places = shared(s.places)
	c.decOrder = shared(s.decOrder)
	c.picks = shared(s.picks)
	c.contenders = shared(s.contenders)
	c.executors = shared(s.executors)
	c.alliances = shared(s.alliances)
	c.events = shared(s.events)
	return &c
}

// shared returns xs capped at its length, for a clone: appending to it
// makes a new array rather than writing into the one it shares.
func shared[T any](xs []T) []T { return xs[:len(xs):len(xs)] }

// without returns xs without its element i, in a new array when needed:
// xs itself is never written, as clones share it.
func without[T any](xs []T, i int) []T { return append(xs[:i:i], xs[i+1:]...) }

// ownGrid gives s a grid of its own to change, before a step moves walls:
// clones share the grid.
func (s *State) ownGrid() {
	if s.ownsGrid {
		return
	}
	s.g = s.g.Clone()
	s.ownsGrid = s.scratch
}

// ownPieces gives s castles and knights of its own to move, before a step
// moves them: clones share them.
func (s *State) ownPieces() {
	if s.ownsPieces {
		return
	}
	s.ownsPieces = s.scratch
	castle, knight := *s.castle, *s.knight
	s.castle, s.knight = &castle, &knight
}

// info returns the area label of every square and the areas, computed
// once after each change of walls or castles.
func (s *State) info() ([]int, []area) {
	if !s.dirty && s.lab != nil {
		return s.lab, s.areas
	}
	// A scratch copy computes them again into its own (ownsInfo); any
	// other state into new ones, as clones share them.
	var lab []int
	var areas []area
	if s.ownsInfo {
		lab, areas = s.lab, s.areas
	}
	lab, n := s.g.Areas(lab)
	s.lab = lab
	s.areas = slices.Grow(areas[:0], n)[:n]
	clear(s.areas)
	s.ownsInfo = s.scratch
	for q, l := range lab {
		a := &s.areas[l]
		a.size++
		switch s.terrain[q] {
		case City:
			a.cities++
		case Hill:
			a.hills++
		}
		if s.castle[q] >= 0 {
			a.castles++
			a.castle = grid.Square(q)
			a.owner = int(s.castle[q])
		}
	}
	for i := range s.areas {
		if !s.areas[i].region() {
			s.areas[i].owner = -1
		}
	}
	s.dirty = false
	return s.lab, s.areas
}

// regionOf returns the area of the region q is in and its owner, or -1.
func (s *State) regionOf(q grid.Square) (int, int) {
	lab, ar := s.info()
	l := lab[q]
	if ar[l].region() {
		return l, ar[l].owner
	}
	return l, -1
}

// regionCount returns how many regions colour c owns.
func (s *State) regionCount(c int) int {
	_, ar := s.info()
	n := 0
	for i := range ar {
		if ar[i].region() && ar[i].owner == c {
			n++
		}
	}
	return n
}

// knightsIn counts colour c's knights in area l.
func (s *State) knightsIn(l, c int) int {
	lab, _ := s.info()
	n := 0
	for q, k := range s.knight {
		if int(k) == c && lab[q] == l {
			n++
		}
	}
	return n
}

// toMove reports whether player p may submit now, as ToMove would say,
// without building the list.
func (s *State) toMove(p int) bool {
	switch s.phase {
	case phasePlace:
		return s.places[0].player == p
	case phaseDecide:
		return s.decOrder[s.decIdx] == p
	case phaseNegotiate:
		return s.speaker == p
	case phaseBid:
		return slices.Contains(s.contenders, p)
	case phaseAct:
		return s.actor == p
	}
	return false
}

// ToMove returns who may submit now: the one player to act, or every
// bidder of an open confrontation. The list may share the state's memory:
// read it, never write into it.
func (s *State) ToMove() []string {
	switch s.phase {
	case phasePlace:
		return s.alone(s.places[0].player)
	case phaseDecide:
		return s.alone(s.decOrder[s.decIdx])
	case phaseNegotiate:
		return s.alone(s.speaker)
	case phaseBid:
		var out []string
		for i, n := range s.names {
			if slices.Contains(s.contenders, i) {
				out = append(out, n)
			}
		}
		return out
	case phaseAct:
		return s.alone(s.actor)
	}
	return nil
}

// alone returns player p's name alone in a list, without allocating: a
// slice of names, which never change, capped so that an append copies it.
func (s *State) alone(p int) []string { return s.names[p : p+1 : p+1] }

// Scores returns each player's power points: the score track, which moves
// as regions are created, extended and lost (lowenherz-1997-fr.txt:218-241).
// Fiefs are added only at the end (:281).
func (s *State) Scores() []int { return slices.Clone(s.score[:len(s.names)]) }

// wealth is a player's ducats with their treasures, the tie-breaker
// (lowenherz-1997-fr.txt:290).
func (s *State) wealth(p int) int {
	w := s.money[p]
	for _, c := range s.hands[p] {
		if c.Kind == Treasure {
			w += c.Value
		}
	}
	return w
}

// Result reports the winner once the king is dead: most power points, then
// most ducats with treasures, else a shared victory (ruling L97-13).
func (s *State) Result() adjudicator.Result {
	if s.phase != phaseOver {
		return adjudicator.Result{}
	}
	scores := s.score[:len(s.names)]
	best := slices.Max(scores)
	var tied []int
	for i, v := range scores {
		if v == best {
			tied = append(tied, i)
		}
	}
	res := adjudicator.Result{Finished: true}
	if len(tied) > 1 {
		most := -1
		for _, i := range tied {
			most = max(most, s.wealth(i))
		}
		tied = slices.DeleteFunc(tied, func(i int) bool { return s.wealth(i) != most })
	}
	for _, i := range tied {
		res.Winners = append(res.Winners, s.names[i])
	}
	switch {
	case len(tied) == 1 && countEq(scores, best) == 1:
		res.Summary = fmt.Sprintf("the king is dead; long live king %s, with %d power points", s.names[tied[0]], best)
		res.SummaryFR = fmt.Sprintf("le roi est mort ; vive le roi %s, avec %d points de pouvoir", s.names[tied[0]], best)
	case len(tied) == 1:
		res.Summary = fmt.Sprintf("the king is dead; long live king %s, with %d power points and the most ducats (%d)", s.names[tied[0]], best, s.wealth(tied[0]))
		res.SummaryFR = fmt.Sprintf("le roi est mort ; vive le roi %s, avec %d points de pouvoir et le plus de ducats (%d)", s.names[tied[0]], best, s.wealth(tied[0]))
	default:
		res.Summary = fmt.Sprintf("the king is dead; %s share the crown with %d power points and %d ducats each", strings.Join(res.Winners, " and "), best, s.wealth(tied[0]))
		res.SummaryFR = fmt.Sprintf("le roi est mort ; %s se partagent la couronne avec %d points de pouvoir et %d ducats chacun", strings.Join(res.Winners, " et "), best, s.wealth(tied[0]))
	}
	return res
}

// event is a line of the log everyone sees, in English and in French.
type event struct{ en, fr string }

// logf records an event everyone may see: en formatted in English, fr in
// French, with the same arguments, an adjudicator.Words giving each
// language its own words.
func (s *State) logf(en, fr string, args ...any) {
	if !s.scratch {
		s.log(fmt.Sprintf(en, wordsIn(args, false)...), fmt.Sprintf(fr, wordsIn(args, true)...))
	}
}

// wordsIn returns args with every adjudicator.Words replaced by its
// English, or its French when fr is set.
func wordsIn(args []any, fr bool) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if w, ok := a.(adjudicator.Words); ok {
			a = w.EN
			if fr {
				a = w.FR
			}
		}
		out[i] = a
	}
	return out
}

// log records an event everyone may see, already written out in English
// (en) and in French (fr): the frequent events are joined with + rather
// than formatted.
func (s *State) log(en, fr string) {
	if s.scratch {
		return
	}
	s.events = append(s.events, event{en, fr})
	if len(s.events) > maxEvents {
		// Resliced, not shifted: clones share the array (see clone).
		s.events = s.events[len(s.events)-maxEvents:]
	}
}

// maxEvents is how many of the latest events the board shows.
const maxEvents = 12

// addScore moves colour c's power marker by d; it never goes behind the
// lion (ruling L97-7). The neutral prince has no marker.
func (s *State) addScore(c, d int, why adjudicator.Words) {
	if c < 0 || c == s.neutral || d == 0 {
		return
	}
	before := s.score[c]
	s.score[c] = max(0, s.score[c]+d)
	if !s.scratch { // logf would log nothing, but its arguments are made first
		s.logf("%s %+d power (%s): %d", "%s %+d pouvoir (%s) : %d", s.names[c], s.score[c]-before, why, s.score[c])
	}
}

func countEq(xs []int, v int) int {
	n := 0
	for _, x := range xs {
		if x == v {
			n++
		}
	}
	return n
}
