// Package lowenherz implements Löwenherz (Klaus Teuber, Kosmos 2003;
// Filosofia's "Richard Cœur de Lion", Mayfair's "Domaine"), for 2 to 4
// players, from the publisher's French text
// shared/rules/lowenherz-2003-fr-scan.txt (lines 1-370), the fan
// translation shared/rules/lowenherz-2003-fr.txt with its card table, and
// the official rulings of shared/rules/DATA-NOTES.md. Decisions the texts
// leave open are the LH-* entries of RULINGS.md.
//
// # Rules in brief
//
// The board is 12x12 squares made of nine 4x4 tiles (tiles.yaml, ruling
// LH-15; the option tiles gives another file, layout=fixed lays them
// unturned in the file's order). At setup each player in turn places a
// castle on an empty meadow and a knight beside it, four rounds (three with
// 4 players); two players then place the neutral colour's two castles and knights.
// On a turn a player collects a ducat per kind of mine in their domains,
// then sells a card (its blue value) or plays one (its red cost) and
// carries out one of its actions: borders, knights, extension, deserter or
// alliance; then refills their hand to 3 from the deck or the market. A
// region closed by borders and the rim with exactly one castle is that
// castle's domain; its forests, villages and the king's city score 1, 3 and
// 5; 3 or 4 mines of one kind score 5 more. The game ends at once when a
// player's score reaches the king's marker (30, 40, 50 with 4, 3, 2
// players), or when the hands are played out after the last card is drawn,
// with 5 and 3 points to the richest in ducats.
//
// # Notation
//
// See (*State).Parse. A turn by mail might read:
//
//	play B extension or 2 borders as borders
//	border e5|e6
//	border f5 south
//	draw
//
// # Board and squares
//
// Columns a to l, rows 1 to 12, row 1 at the top. An edge between two
// squares is written "e5|e6" (or e5-e6, e5/e6, or "e5 south").
//
// # Position format
//
// `herald show --format position` writes, and `herald new --position`
// reads, this YAML (a referee may leave out what is in brackets):
//
//	phase: play            # [play] setup, play or over
//	turn: red              # [first player] whose turn it is
//	step: card             # [card] card, action or refill
//	card: B knight or extension   # the card being carried out (step action)
//	action: knights        # [the card's only action] the action chosen
//	done: 1                # [0] borders, knights or squares done so far
//	domain: a1             # the castle of the domain an extension serves
//	sold: A 1 border       # the card sold this turn, not to be taken back
//	income: 2              # [0] the ducats collected at the start of this turn;
//	                       #   pending: the turn begins, its mine income to collect
//	ended: king            # (phase over) king or deck: how the game ended
//	last_round: false      # [false] the deck ran out: no more refills
//	terrain:               # [the default tiles, layout fixed] 12 rows of 12 codes
//	  - .F...G.F...C
//	  ...
//	borders: [e5|e6, f4|f5]  # [none] borders on the board
//	pieces:                # [none] square: colour and piece
//	  a1: red castle
//	  b1: red knight
//	  f6: neutral castle
//	alliances: [a1 h1 d1|e1] # [none] the two castles, and the turned border
//	players:
//	  red:
//	    ducats: 7           # [7]
//	    score: 0            # [the board's] checked against the board
//	    castles: 0          # [the board's] castles in supply: 4 (3 with 4
//	                        #   players) less those on the board; checked
//	    knights: 12         # [the board's] knights in supply: 15 less those
//	                        #   on the board; checked
//	    hand: [A 1 border, B alliance]   # [empty]
//	  neutral: {castles: 0, knights: 13} # (2 players) the neutral supply
//	deck: [A 3 borders]     # [empty, or the rest] top first, letters A to D
//	market: [A 1 knight]    # [empty] oldest first
//	discard: [B alliance]   # [the rest] the cards played, oldest first
//
// In the setup phase the position also has setup: the number of castles
// placed so far in the setup order. The deck runs A (top) to D (bottom),
// as it is stacked (lowenherz-2003-fr.txt:41). Every card of the game is
// in a hand, the deck, the market or the discard pile: with the discard
// pile left out it is the cards found nowhere else (in the order of the
// card table); with the deck left out and the discard pile given, the deck
// is the cards found nowhere else, shuffled letter by letter from the seed
// and stacked A on top; with both given, no card may be missing. The
// king's marker follows from the rest; a position with more of a piece or
// a card than the game has is refused with the line and column of the
// first one too many.
//
// # JSON board
//
// `show --format json` has board.phase, board.step, board.card,
// board.action, board.done, board.terrain (12 strings), board.borders,
// board.pieces (square to "colour castle|knight"), board.domains (castle
// square to {owner, squares, knights, points, mines}), board.neutral_zones
// (lists of squares), board.alliances, board.ducats, board.knights,
// board.hand_sizes, board.deck (cards left), board.deck_out (the last card
// was drawn), board.market, board.king and board.income (the last income
// collected); `--as P` adds private.hand.
package lowenherz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
)

// Game is Löwenherz's descriptor.
var Game = &adjudicator.Game{
	Name:       "lowenherz",
	Title:      "Löwenherz (Richard Cœur de Lion, Domaine), 2003",
	TitleFR:    "Löwenherz (Richard Cœur de Lion, Domaine), 2003",
	Rulebook:   "lowenherz-2003-fr-scan.txt",
	TurnRule:   "lowenherz-2003-fr-scan.txt:109",                                       // « Le jeu se poursuit dans le sens des aiguilles d'une montre »
	SetLists:   []string{"borders", "alliances", "neutral_zones", "castles", "market"}, // the borders, alliances, neutral zones and market are sets
	Canon:      canon,
	MinPlayers: 2,
	MaxPlayers: 4,
	Options: []adjudicator.Option{{
		Name:    "layout",
		Doc:     "random: the eight outer tiles placed and turned by the seed; fixed: in the tile file's order, unturned",
		Type:    adjudicator.OptEnum,
		Default: "random",
		Values:  []string{"random", "fixed"},
	}, {
		Name: "tiles",
		Doc:  "a tile file (the format of tiles.yaml) in place of the design of RULINGS.md LH-15; on the command line --opt tiles=@FILE",
		Type: adjudicator.OptText,
	}},
	Help:         helpEN,
	HelpFR:       helpFR,
	Keywords:     slices.Concat(verbs, cardWords),
	Words:        slices.Concat(shownFR, verbs, cardWords, orWords, asWords, domainWord, directions),
	New:          newGame,
	LoadPosition: loadPosition,
}

const helpEN = `Steps, one per line or separated by ';' (squares a1-l12, row 1 on top):
  castle a1 knight b1     setup: a castle on a meadow, a knight beside
  sell B alliance         sell a card for its blue value
  play A 2 borders        play a card, paying its red cost
  play B knight or extension as knights    a card with two actions
  border e5|e6            a border between two squares (or e5 south)
  knight g7               a knight beside your piece (forest: 1 ducat)
  extend c3               annex a square to a domain (2 per card)
  deserter f5 g7          the knight on f5 leaves; yours goes on g7
  alliance e5|e6          ally the two domains this border separates
  draw                    refill your hand from the deck; turn over
  take A 1 knight         or take that card from the market
  end                     end your turn once the deck is out
A card's letter may be left out when you hold one card of that name.`

const helpFR = `Étapes, une par ligne ou séparées par « ; » (cases a1-l12) :
  château a1 chevalier b1   départ : un château sur un pré, un chevalier
  vendre B alliance         vendre une carte au prix bleu
  jouer A 2 frontières      jouer une carte au prix rouge
  jouer B chevalier ou extension comme chevaliers    carte à 2 actions
  frontière e5|e6           une frontière entre deux cases (ou e5 sud)
  chevalier g7              un chevalier à côté d'un pion (forêt : 1)
  étendre c3                annexer une case à un domaine (2 par carte)
  transfuge f5 g7           le chevalier en f5 part ; le vôtre va en g7
  alliance e5|e6            allier les domaines de part et d'autre
  piocher                   compléter sa main à la pioche ; fin du tour
  prendre A 1 chevalier     ou prendre cette carte au marché
  fin                       finir son tour, la pioche épuisée
La lettre d'une carte peut être omise si la main n'en a qu'une.`

// Rule references into the texts (file:line) and RULINGS.md.
const (
	ruleSetup      = "lowenherz-2003-fr-scan.txt:20"
	ruleDistance   = "RULINGS.md LH-2"
	ruleTurn       = "lowenherz-2003-fr-scan.txt:99"
	ruleSoldBack   = "lowenherz-2003-fr-scan.txt:119"
	rulePlay       = "lowenherz-2003-fr-scan.txt:127"
	ruleTwoActions = "lowenherz-2003-fr-scan.txt:136"
	ruleBorders    = "lowenherz-2003-fr-scan.txt:155"
	ruleBorderSame = "lowenherz-2003-fr-scan.txt:165"
	ruleBorderDom  = "lowenherz-2003-fr-scan.txt:168"
	ruleKnightLand = "lowenherz-2003-fr-scan.txt:190"
	ruleKnightNext = "lowenherz-2003-fr-scan.txt:196"
	ruleKnightOut  = "lowenherz-2003-fr-scan.txt:204"
	ruleExtend     = "lowenherz-2003-fr-scan.txt:214"
	ruleExtendAdj  = "lowenherz-2003-fr-scan.txt:219"
	ruleExtendPcs  = "lowenherz-2003-fr-scan.txt:231"
	ruleExtendOwn  = "lowenherz-2003-fr-scan.txt:237"
	ruleExtendMore = "lowenherz-2003-fr-scan.txt:239"
	ruleDeserter   = "lowenherz-2003-fr-scan.txt:275"
	ruleAlliance   = "lowenherz-2003-fr-scan.txt:299"
	ruleAllied     = "lowenherz-2003-fr-scan.txt:303"
	ruleRefill     = "lowenherz-2003-fr-scan.txt:107"
	ruleDeckOut    = "lowenherz-2003-fr-scan.txt:352"
	ruleCannot     = "RULINGS.md LH-12"
	ruleSupply     = "RULINGS.md LH-16"
	ruleOwnCastle  = "RULINGS.md LH-7"
	ruleOneDomain  = "RULINGS.md LH-4"
	ruleEndLine    = "RULINGS.md LH-3"
	ruleNeutral    = "RULINGS.md LH-17"
	ruleKing       = "lowenherz-2003-fr.txt:230"
)

// Pieces and marks (lowenherz-2003-fr-scan.txt:13-18, 75-78).
const (
	startDucats  = 7
	knightsEach  = 15
	bordersTotal = 100
	handSize     = 3
)

// kingMark is the king's marker by number of players.
var kingMark = map[int]int{2: 50, 3: 40, 4: 30}

// castlesEach is the castles each player places (3 with 4 players).
func castlesEach(players int) int {
	if players == 4 {
		return 3
	}
	return 4
}

// neutralCastles is the castles (and knights) the neutral colour places
// with 2 players: « Finalement ils placent en alternance encore 2 châteaux
// et 2 chevaliers de la couleur neutre » (lowenherz-2003-fr.txt:107).
const neutralCastles = 2

// colourCastles is the castles colour c places in a game of n players.
func colourCastles(n, c int) int {
	if c >= n {
		return neutralCastles
	}
	return castlesEach(n)
}

type phase uint8

const (
	phaseSetup phase = iota
	phasePlay
	phaseOver
)

var phaseNames = [...]string{"setup", "play", "over"}

// step is where a turn stands.
type step uint8

const (
	stepCard   step = iota // sell or play a card
	stepAction             // carry out the card's action
	stepRefill             // draw or take a card
)

var stepNames = [...]string{"card", "action", "refill"}

// player is a colour's supply and hand; the neutral colour has one too,
// with no hand and no ducats.
type player struct {
	ducats  int
	score   int
	knights int // in supply
	castles int // still to place at setup
	hand    []Card
}

// alliance joins two domains, named by their castles, to the end of the
// game (RULINGS.md LH-13); edge is the turned border, or noEdge when no
// border is left between them.
type alliance struct {
	a, b Square
	edge Edge
}

// placement is one castle and knight of the setup: who places it and
// whose colour it is.
type placement struct{ player, colour int }

// State is a game of Löwenherz. It implements adjudicator.State.
type State struct {
	names   []string
	colours int // players, plus the neutral colour with 2 players

	terrain        [Size * Size]Terrain
	piece          [Size * Size]int8 // colour of the piece on a square, -1 for none
	castle         [Size * Size]bool // the piece is a castle
	border         [numEdges]bool
	bordersOnBoard int
	region         [Size * Size]int8
	regions        []region

	players  []player // by colour; the neutral colour last
	lastBase []int    // base() when the markers last moved
	king     int
	deck     []Card // top first
	market   []Card // oldest first
	discard  []Card // the cards played, oldest first (lowenherz-2003-fr.txt:45)

	phase   phase
	setupAt int // placements done
	order   []placement
	turn    int
	step    step
	card    Card
	act     option
	done    int
	domain  Square // the domain an extension serves, once chosen
	sold    int    // index in market of the card sold this turn, or -1
	deckOut bool   // the last card was drawn
	income  int    // ducats collected at the start of this turn
	kingEnd bool   // the game ended on the king's marker
	bonus   []int  // the ducat bonus, once given
	allies  []alliance

	// deckEnd says that the last step applied ended its player's turn by
	// itself because the deck is out (lowenherz-2003-fr.txt:234: no
	// refill after the card), for the steps that may follow it in the
	// same submission (AfterTurnEnd). It is not part of the position: it
	// only speaks of the step just applied.
	deckEnd  bool
	deckEndP int // the player whose turn ended
}

var _ adjudicator.State = (*State)(nil)
var _ adjudicator.PrivateTexter = (*State)(nil)

// neutral returns the neutral colour, or -1 with 3 or 4 players.
func (s *State) neutral() int {
	if len(s.names) == 2 {
		return 2
	}
	return -1
}

// colourName returns a colour's name: the player's, or "neutral".
func (s *State) colourName(c int) string {
	if c < len(s.names) {
		return s.names[c]
	}
	return "neutral"
}

func (s *State) index(name string) int { return slices.Index(s.names, name) }

// boardData returns the tiles of a game: the embedded default, or the
// file given in the tiles option.
func boardData(setup adjudicator.Setup) (*Data, error) {
	if text := setup.Options.String("tiles"); text != "" {
		return ParseData("the tiles option", []byte(text))
	}
	return DefaultData, nil
}

// newEmpty returns a game with no piece, no border and no card dealt.
func newEmpty(names []string) *State {
	n := len(names)
	s := &State{names: slices.Clone(names), colours: n, king: kingMark[n], sold: -1, domain: noSquare}
	if n == 2 {
		s.colours = 3
	}
	for i := range s.piece {
		s.piece[i] = -1
	}
	s.players = make([]player, s.colours)
	s.lastBase = make([]int, s.colours)
	for c := range s.players {
		s.players[c] = player{knights: knightsEach, castles: colourCastles(n, c)}
		if c < n {
			s.players[c].ducats = startDucats
		}
	}
	s.order = setupOrder(n)
	s.regions = make([]region, 0, 32)
	return s
}

// setupOrder lists who places which colour's castle, in order: rounds in
// seating order (RULINGS.md LH-1); with 2 players, the neutral colour's
// two castles after, alternately, the first player first
// (lowenherz-2003-fr.txt:107).
func setupOrder(n int) []placement {
	var out []placement
	for range castlesEach(n) {
		for p := range n {
			out = append(out, placement{p, p})
		}
	}
	if n == 2 {
		for i := range neutralCastles {
			out = append(out, placement{i % 2, 2})
		}
	}
	return out
}

func newGame(setup adjudicator.Setup) (adjudicator.State, error) {
	data, err := boardData(setup)
	if err != nil {
		return nil, err
	}
	s := newEmpty(setup.Players)
	s.terrain = data.Layout(setup.RNG, setup.Options.String("layout") == "fixed")
	s.deck = stack(deckOrder, setup.RNG)
	// Each player takes 3 cards (lowenherz-2003-fr-scan.txt:7).
	for p := range s.names {
		s.players[p].hand = append([]Card(nil), s.deck[:handSize]...)
		s.deck = s.deck[handSize:]
	}
	s.recompute()
	return s, nil
}

// stack returns cards as the deck is made: shuffled letter by letter and
// stacked A on top (lowenherz-2003-fr-scan.txt:80-83), top first.
func stack(cards []Card, rng *adjudicator.RNG) []Card {
	var deck []Card
	for _, l := range "ABCD" {
		var group []Card
		for _, c := range cards {
			if c.Letter == byte(l) {
				group = append(group, c)
			}
		}
		rng.Shuffle(len(group), func(i, j int) { group[i], group[j] = group[j], group[i] })
		deck = append(deck, group...)
	}
	return deck
}

// ToMove returns who may submit now: a slice of the players' names, as
// adjudicator.State allows, so that a search asking at every step
// allocates nothing.
func (s *State) ToMove() []string {
	switch s.phase {
	case phaseSetup:
		p := s.order[s.setupAt].player
		return s.names[p : p+1 : p+1]
	case phasePlay:
		return s.names[s.turn : s.turn+1 : s.turn+1]
	}
	return nil
}

// Clone returns a deep copy.
func (s *State) Clone() adjudicator.State { return s.clone() }

func (s *State) clone() *State {
	c := *s
	c.names = slices.Clone(s.names)
	c.regions = slices.Clone(s.regions)
	c.players = slices.Clone(s.players)
	for i := range c.players {
		c.players[i].hand = slices.Clone(s.players[i].hand)
	}
	c.lastBase = slices.Clone(s.lastBase)
	c.deck = slices.Clone(s.deck)
	c.market = slices.Clone(s.market)
	c.discard = slices.Clone(s.discard)
	c.allies = slices.Clone(s.allies)
	c.bonus = slices.Clone(s.bonus)
	return &c
}

// Scores returns each player's victory points now.
func (s *State) Scores() []int {
	out := make([]int, len(s.names))
	for i := range out {
		out[i] = s.players[i].score
	}
	return out
}

// finish ends the game: at once on the king's marker, or after the last
// card with the ducat bonus (lowenherz-2003-fr-scan.txt:342-361).
func (s *State) finish(king bool) {
	s.phase = phaseOver
	s.kingEnd = king
	if king {
		return
	}
	s.bonus = ducatBonus(s.ducats())
	for i, b := range s.bonus {
		s.players[i].score += b
	}
}

func (s *State) ducats() []int {
	out := make([]int, len(s.names))
	for i := range out {
		out[i] = s.players[i].ducats
	}
	return out
}

// ducatBonus gives 5 to the most ducats and 3 to the next amount, ties
// sharing; a player with none gets nothing (RULINGS.md LH-10).
func ducatBonus(d []int) []int {
	out := make([]int, len(d))
	first, second := 0, 0
	for _, v := range d {
		if v > first {
			first = v
		}
	}
	for _, v := range d {
		if v < first && v > second {
			second = v
		}
	}
	for i, v := range d {
		switch {
		case v == 0:
		case v == first:
			out[i] = 5
		case v == second:
			out[i] = 3
		}
	}
	return out
}

// Result reports the winners once the game is over: on the king's marker
// the players who reached it, else everyone; most points, then most
// ducats; still equal, they share the victory (lowenherz-2003-fr.txt:230,
// 234; DATA-NOTES.md).
func (s *State) Result() adjudicator.Result {
	if s.phase != phaseOver {
		return adjudicator.Result{}
	}
	var cands []int
	for i := range s.names {
		if !s.kingEnd || s.players[i].score >= s.king {
			cands = append(cands, i)
		}
	}
	best := cands[0]
	for _, i := range cands[1:] {
		if better(s.players[i], s.players[best]) {
			best = i
		}
	}
	var win []string
	for _, i := range cands {
		if !better(s.players[best], s.players[i]) {
			win = append(win, s.names[i])
		}
	}
	b := s.players[best]
	res := adjudicator.Result{Finished: true, Winners: win}
	how, howFR := "after the last card", "après la dernière carte"
	if s.kingEnd {
		how = fmt.Sprintf("on reaching the king's marker at %d", s.king)
		howFR = fmt.Sprintf("en atteignant le marqueur du roi à %d", s.king)
	}
	if len(win) == 1 {
		res.Summary = fmt.Sprintf("%s wins %s with %d %s and %d ducats", win[0], how, b.score, plural(b.score, "point", "points"), b.ducats)
		res.SummaryFR = fmt.Sprintf("%s gagne %s avec %d %s et %d ducats", win[0], howFR, b.score, plural(b.score, "point", "points"), b.ducats)
	} else {
		res.Summary = fmt.Sprintf("%s share the victory %s with %d %s and %d ducats", strings.Join(win, " and "), how, b.score, plural(b.score, "point", "points"), b.ducats)
		res.SummaryFR = fmt.Sprintf("%s se partagent la victoire %s avec %d %s et %d ducats", strings.Join(win, " et "), howFR, b.score, plural(b.score, "point", "points"), b.ducats)
	}
	return res
}

// better reports whether a ranks before b: more points, then more ducats.
func better(a, b player) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.ducats > b.ducats
}

// canon is the game's Game.Canon: a border written either way round, or
// with another mark (d1|c1, c1-d1), as the view gives it (c1|d1).
func canon(key, value string) string {
	if key == "borders" {
		if e, err := parseEdgeText(value); err == nil {
			return e.String()
		}
	}
	return value
}

// ruleTurnOrder is the rulebook line that says who plays when
// (Game.TurnRule).
const ruleTurnOrder = "lowenherz-2003-fr-scan.txt:109"
