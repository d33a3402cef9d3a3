// Package heritiers implements Les Deux Héritiers (Albi 2022; Cigánek,
// Dostál, Rejl) for 2 players, and its solo game against the automaton
// Henri, from the French rulebook shared/rules/deux-heritiers-fr.txt.
// Decisions the rulebook leaves open, and the tile list its pictures lost,
// are the DH-* entries of RULINGS.md.
//
// # Rules in brief
//
// Three of the six sets of nine building tiles (option sets; drawn by the
// seed unless given) are shuffled into the common stack (tiles.yaml is the
// list, DH-1; option tiles gives another). The first tile goes face down in
// the middle of the table with both players' cavalry on it; six more form
// the royal reserve, a ring clockwise from the royal shield, and each
// player puts their 2 other troops in the ring. A coin flip chooses who
// starts. On a turn a player, in any order: takes one tile within reach
// into their hand (reach: their troops in the reserve + 1, counted from
// the shield; at most 3 tiles in hand); builds tiles from the hand next to
// one of their troops, paying the cost with the resources in reach, under
// their troops and from their fermes, scieries and carrières; lays tiles
// face down as open terrain, each making one building that turn a
// resource cheaper; moves, deploys or withdraws each troop once. When the
// stack runs out each player plays one last turn. Buildings score by
// their effects, doubled under their owner's troop, and roads score the
// difference of the buildings they join; ties go to the most troops in
// the reserve.
//
// Solo: a game with one player is the solo game against Henri (option
// level, 1 to 3). Henri moves right after each of the player's turns, by
// the rules of the solo booklet, as the seat "henri" (adjudicator.Automaton).
// He draws nothing: his choices follow from the position alone, the stack
// and his treasure pile having been shuffled at the setup from the seed.
//
// # Notation
//
// See (*State).Parse. A turn by mail might read:
//
//	take 2
//	open ferme-1 l12
//	build auberge m12 pay 1 l13
//	move m13 n12
//	end
//
// Buildings are named by their French name in one word (auberge, marché,
// pèlerinage, baronnie, moulin, mine, étable, boulangerie, campement,
// forge, chalet, ferme, scierie, carrière, comptoir, cathédrale, siège,
// forteresse, guet, garnison, paniers, poterie, tonnellerie, hôtel), in
// full ("tour de guet") or in English ("watchtower"); a tile is its
// building and copy number ("guet-3"), the number being needed only when
// the hand holds two tiles of that building.
//
// # Board and squares
//
// Squares are named on a fixed frame of 25 columns a-y and 25 rows 1-25,
// the start tile on m13, so that a square's name never changes during a
// game (DH-7). Row 1 is at the top: the first player listed (and the lone
// player of the solo game) sits at the bottom and their tiles are upright;
// the other seat's tiles lie half turned, their roads rotated (DH-6).
//
// # Position format
//
// `herald show --format position` writes, and `herald new --position`
// reads, this YAML (a referee may leave out what is in brackets):
//
//	phase: play                 # [play] play or over
//	turn: alice                 # [the first player listed] whose turn it is; henri: see below
//	first: bob                  # [the first player listed] who started: the shield's toss (l. 108)
//	sets: [voyage, guerre, patrouille]  # the sets in play
//	taken: false                # [false] the royal shield is flipped: the tile is taken
//	took: true                  # [as taken] a tile was taken, the shield turned back by a Campement
//	discounts: 0                # [0] open terrains laid this turn, not yet used (at most the open terrains besides the start tile)
//	paid: [l13, mine-1]         # [none] what paid this turn: squares, reserve tiles by id
//	destroy: []                 # [none] buildings the siege towers just built may destroy
//	last: 0                     # [-1] turns left after this one once the stack ran out
//	lastbuilt: m12              # [none] solo: the player's last building
//	reserve: [auberge-1, -, mine-1, guet-2, ferme-1, siège-3]  # clockwise from the shield
//	stack: [forge-1, ...]       # top first; [+ the tiles named nowhere, in tiles.yaml's order]
//	removed: [garnison-2]       # [none] solo: the tiles Henri discarded (rule D), in that order
//	start: m13                  # [m13] the square of the start tile, face down, nobody's (l. 112)
//	board:
//	  m13: moulin-1 open / alice* bob*  # tile, open or owner, / troops
//	  m12: auberge-1 alice / alice-1
//	players:
//	  alice:
//	    hand: [guet-1]          # [empty]
//	    reserve: 1              # [the troops not on the board] troops in the royal reserve
//	    moved: [alice-1]        # [none] the troops moved this turn (their cross shows, l. 149)
//	  henri:                    # solo (required): each of the 10 tokens once
//	    treasures: [v-green, h-any]   # the pile, top first
//	    aside: [d-nw-se]        # set aside by the level, unseen
//	    won: []                 # taken back by the player
//	    beside: [henri-grey]    # [the troops not on the board] his troops beside the board (l. 463)
//
// A troop is written by its owner's name: "alice*" the cavalry, "alice-1"
// and "alice-2" the two others; Henri's by their colour (henri-green). The
// troops the board does not hold are in the royal reserve (Henri's beside
// the board). A referee may write "alice" alone for a troop: it takes the
// first of alice-1 and alice-2 the board names nowhere else. deploy moves
// the first troop of the reserve that has not moved this turn, alice-1
// before alice-2. In moved a troop may also be named by the square where it
// stands, or "reserve" for one withdrawn this turn. A treasure on the board
// is written after the troops: "m11: forge-1 henri / henri-green $h-grey".
//
// A solo position may stop as the player's turn ends, at Henri's turn
// (turn: henri; the player's turn then leaves nothing: no taken, took,
// discounts, paid, destroy or moved): Henri plays his turn as the position
// is read, and the game goes on at the player's turn. show never writes
// such a position, since Henri plays as soon as the player ends.
//
// # JSON board
//
// `show --format json` has board.squares (square to {tile, building,
// colour, owner, open, roads, troops, treasure}), board.reserve (the ring
// from the shield, "" for an empty place), board.reach (player to reach),
// board.stack (tiles left) and board.next (the colour of the top of the
// stack, which its back shows), board.hands (tiles in hand per player),
// board.taken, board.last, board.sets; `--as P` adds private.hand.
package heritiers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// Game is Les Deux Héritiers' descriptor.
var Game = &adjudicator.Game{
	Name:       "heritiers",
	Title:      "Les Deux Héritiers (The Two Heirs)",
	TitleFR:    "Les Deux Héritiers",
	Rulebook:   "deux-heritiers-fr.txt",
	TurnRule:   "deux-heritiers-fr.txt:98", // « Les joueurs effectuent leur tour l'un après l'autre »
	SetLists:   []string{"sets"},           // the sets of tiles in play are a set
	MinPlayers: 1,
	MaxPlayers: 2,
	Options: []adjudicator.Option{{
		Name: "sets",
		Doc:  "the 3 sets in play, like voyage,agriculture,commerce (the rulebook's first game); empty: drawn by the seed",
		Type: adjudicator.OptText,
	}, {
		Name:    "level",
		Doc:     "solo: Henri's level, 1 le Pauvre (4 treasures set aside), 2 le Brave (2), 3 le Puissant (none)",
		Type:    adjudicator.OptInt,
		Default: "2",
		Min:     1,
		Max:     3,
	}, {
		Name:    "roads",
		Doc:     "count the roads (the rulebook suggests not to in a first two-player game; the solo game always does)",
		Type:    adjudicator.OptBool,
		Default: "true",
	}, {
		Name: "tiles",
		Doc:  "a tile data file (the format of tiles.yaml) in place of the list of RULINGS.md DH-1; on the command line --opt tiles=@FILE",
		Type: adjudicator.OptText,
	}},
	Help: `Steps, one per line or separated by ';':
  take 2                    take the 2nd tile from the royal shield
  build auberge m12 pay 1 l13   build from your hand on m12, paying
                            with reserve tile 1 and your troop's l13
  open ferme l12            lay a tile from your hand as open terrain
  move m13 n12              move a troop (each troop once a turn)
  deploy n12                deploy a troop from the royal reserve
  withdraw n12              withdraw a troop to the royal reserve
  camp m11                  use your campement: take one more tile
  destroy l11               destroy with your siege towers
  end                       end your turn (after taking a tile)`,
	HelpFR: `Étapes, une par ligne ou séparées par « ; » :
  prendre 2                 prendre la 2e tuile depuis le bouclier royal
  construire auberge m12 payer 1 l13   construire en m12, en payant
                            avec la tuile 1 de la réserve et l13
  ouvrir ferme l12          poser une tuile en terrain ouvert
  déplacer m13 n12          déplacer une troupe (une fois par tour)
  déployer n12              déployer une troupe de la réserve royale
  retirer n12               retirer une troupe dans la réserve royale
  camper m11                utiliser son campement : reprendre une tuile
  détruire l11              détruire avec ses tours de siège
  fin                       finir son tour (après avoir pris une tuile)`,
	// "go" (move) and "use" (camp) begin prose lines too often to mark a
	// step.
	Keywords:     slices.Concat(verbs.Without("go", "use"), buildingVocab, troopWords),
	Words:        slices.Concat(verbs, payWords, nothing, troopWords), // the buildings' names are French already
	New:          newGame,
	LoadPosition: loadPosition,
}

// Rule references into the rulebook (file:line) and RULINGS.md.
const (
	rulePlayHand  = "deux-heritiers-fr.txt:103"
	ruleOnce      = "deux-heritiers-fr.txt:114"
	ruleReach     = "deux-heritiers-fr.txt:120"
	ruleHand      = "RULINGS.md DH-8"
	ruleTake      = "RULINGS.md DH-9"
	ruleBuild     = "RULINGS.md DH-10"
	rulePay       = "RULINGS.md DH-11"
	ruleOpen      = "deux-heritiers-fr.txt:134"
	ruleDiscount  = "deux-heritiers-fr.txt:136"
	ruleMove      = "deux-heritiers-fr.txt:146"
	ruleDeploy    = "deux-heritiers-fr.txt:147"
	ruleWithdraw  = "deux-heritiers-fr.txt:149"
	ruleOneTroop  = "deux-heritiers-fr.txt:90"
	ruleCampement = "deux-heritiers-fr.txt:255"
	ruleSiege     = "deux-heritiers-fr.txt:313"
	ruleFrame     = "RULINGS.md DH-7"
	ruleHenri     = "deux-heritiers-fr.txt:474"
	ruleDiscard   = "deux-heritiers-fr.txt:501"
)

// The frame of square names (DH-7).
const (
	frameW = 25
	frameH = 25
	start  = 12*frameW + 12 // m13
)

// Henri is the name of the seat the game plays in the solo game.
const Henri = "henri"

// Where a troop is, besides a cell index.
const (
	inReserve = -1 // in the royal reserve
	aside     = -2 // beside the board: Henri's troops at the start
)

type troop struct {
	at    int16 // cell index, inReserve or aside
	moved bool  // moved this turn: its cross shows
}

type cell struct {
	tile     int16 // index in data.Tiles, -1 for an empty square
	open     bool  // face down: open terrain, nobody's
	owner    int8  // seat of the building's owner, -1 when open
	treasure int8  // solo: Henri's treasure token on it, -1 for none
}

// State is a game of Les Deux Héritiers. It implements adjudicator.State
// and adjudicator.Automaton.
type State struct {
	data  *Data
	names [2]string // seats: the players, and "henri" in the solo game
	solo  bool
	sets  []Set
	level int
	roads bool

	cells  []cell
	placed []int16  // the cells that hold a tile, ascending
	ring   [6]int16 // the royal reserve clockwise from the shield, -1 empty
	stack  []int16  // the common stack, top first
	hands  [2][]int16
	troops [2][3]troop // players: 0 the cavalry, 1 and 2 normal; Henri: by colour

	turn      int     // seat to move
	first     int     // seat that started the game: the shield's toss (:108)
	startAt   int16   // the cell of the start tile, start unless a position says otherwise
	taken     bool    // the shield is flipped: this turn's tile is taken
	took      bool    // a tile was taken this turn (still true once a Campement turns the shield back)
	discounts int     // open terrains laid this turn, not yet used
	paidTiles []int16 // reserve tiles that paid this turn
	paidCells []int16 // squares that paid this turn, once per resource
	destroy   []int16 // buildings the siege tower just built may destroy
	last      int     // turns left after this one once the stack ran out; -1 before
	over      bool

	// solo
	lastBuilt int16   // the player's last building, -1 before the first
	henriTile int16   // the tile Henri took this turn, -1
	treasures []uint8 // the pile, top first
	setAside  []uint8 // set aside by the level, unseen
	won       []uint8 // taken back by the player
	removed   []int16 // tiles Henri discarded (rule D)
}

var _ adjudicator.State = (*State)(nil)
var _ adjudicator.Automaton = (*State)(nil)
var _ adjudicator.PrivateTexter = (*State)(nil)

func newEmpty(data *Data, players []string, opts adjudicator.Options) (*State, error) {
	s := &State{data: data, last: -1, lastBuilt: -1, henriTile: -1, startAt: start}
	s.level = opts.Int("level")
	if s.level == 0 {
		s.level = 2
	}
	s.roads = opts["roads"] != "false"
	s.names[0] = players[0]
	if len(players) == 1 {
		if strings.EqualFold(players[0], Henri) {
			return nil, fmt.Errorf("%q is the name of the automaton of the solo game; choose another name", players[0])
		}
		if !s.roads {
			// « Vous marquez des points de la même manière que dans le
			// jeu de base, y compris pour les routes. »
			return nil, fmt.Errorf("the solo game counts the roads, as the base game does (deux-heritiers-fr.txt:456): roads=false is for a first two-player game")
		}
		s.solo = true
		s.names[1] = Henri
	} else {
		s.names[1] = players[1]
	}
	s.cells = make([]cell, frameW*frameH)
	for i := range s.cells {
		s.cells[i] = cell{tile: -1, owner: -1, treasure: -1}
	}
	for i := range s.ring {
		s.ring[i] = -1
	}
	return s, nil
}

// gameData returns the tile list of a game: the embedded default, or the
// file given in the tiles option.
func gameData(setup adjudicator.Setup) (*Data, error) {
	if text := setup.Options.String("tiles"); text != "" {
		return ParseData("the tiles option", []byte(text))
	}
	return DefaultData, nil
}

// parseSets reads the sets option: three set names.
func parseSets(v string) ([]Set, error) {
	f := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == ';' || r == '+' })
	var out []Set
	for _, w := range f {
		i := slices.IndexFunc(setNames[:], func(n string) bool { return foldPhrase(n) == foldPhrase(w) })
		if i < 0 {
			if w2 := foldPhrase(w); strings.HasPrefix(w2, "agri") {
				i = int(Agriculture)
			} else if strings.HasPrefix(w2, "commerce") {
				i = int(Commerce)
			} else {
				var v notation.Vocabulary
				for _, n := range setNames {
					v = append(v, notation.Term{Name: n})
				}
				if sug := v.Suggest(w, notation.English); len(sug) > 0 {
					return nil, fmt.Errorf("option sets: %q is not a set; did you mean %q? (sets: %s)", w, sug[0], strings.Join(setNames[:], ", "))
				}
				return nil, fmt.Errorf("option sets: %q is not a set (sets: %s)", w, strings.Join(setNames[:], ", "))
			}
		}
		if slices.Contains(out, Set(i)) {
			return nil, fmt.Errorf("option sets: %s is given twice", setNames[i])
		}
		out = append(out, Set(i))
	}
	if len(out) != 3 {
		return nil, fmt.Errorf("option sets: name 3 sets, not %d (deux-heritiers-fr.txt:78)", len(out))
	}
	slices.Sort(out)
	return out, nil
}

// newGame sets up a game (deux-heritiers-fr.txt:78-112; solo :507-523).
func newGame(setup adjudicator.Setup) (adjudicator.State, error) {
	data, err := gameData(setup)
	if err != nil {
		return nil, err
	}
	s, err := newEmpty(data, setup.Players, setup.Options)
	if err != nil {
		return nil, err
	}
	rng := setup.RNG
	if v := setup.Options.String("sets"); v != "" {
		if s.sets, err = parseSets(v); err != nil {
			return nil, err
		}
	} else {
		// Three sets drawn: a shuffle of the six, the first three kept.
		all := []Set{0, 1, 2, 3, 4, 5}
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		s.sets = all[:3]
		slices.Sort(s.sets)
	}
	for _, set := range s.sets {
		s.stack = append(s.stack, data.bySet[set]...)
	}
	if len(s.stack) < 8 {
		return nil, fmt.Errorf("the sets %s hold %d tiles; a game needs at least 8 (the start tile, 6 in the reserve, 1 to take)", s.setList(), len(s.stack))
	}
	rng.Shuffle(len(s.stack), func(i, j int) { s.stack[i], s.stack[j] = s.stack[j], s.stack[i] })
	// The shield is tossed like a coin: its crown names the first player
	// (:108); in the solo game the player always plays first (:474).
	if !s.solo {
		s.turn = rng.IntN(2)
	}
	s.first = s.turn
	for i := range s.ring {
		s.ring[i] = s.draw()
	}
	s.cells[s.startAt].tile, s.cells[s.startAt].open = s.draw(), true
	s.noteTile(int(s.startAt))
	for seat := range 2 {
		if s.solo && seat == 1 {
			for k := range 3 {
				s.troops[1][k] = troop{at: aside}
			}
			continue
		}
		s.troops[seat] = [3]troop{{at: s.startAt}, {at: inReserve}, {at: inReserve}}
	}
	if s.solo {
		tok := make([]uint8, len(treasureKinds))
		for i := range tok {
			tok[i] = uint8(i)
		}
		rng.Shuffle(len(tok), func(i, j int) { tok[i], tok[j] = tok[j], tok[i] })
		n := [...]int{1: 4, 2: 2, 3: 0}[s.level]
		s.setAside, s.treasures = tok[:n], tok[n:]
	}
	return s, nil
}

// draw takes the top of the stack, or -1 when it is empty.
func (s *State) draw() int16 {
	if len(s.stack) == 0 {
		return -1
	}
	t := s.stack[0]
	s.stack = s.stack[1:]
	return t
}

func (s *State) setList() string {
	names := make([]string, len(s.sets))
	for i, set := range s.sets {
		names[i] = set.String()
	}
	return strings.Join(names, ", ")
}

func (s *State) seat(name string) int {
	for i, n := range s.names {
		if n == name && (i == 0 || !s.solo || name == Henri) {
			return i
		}
	}
	return -1
}

// players returns the record's players: both seats, or the lone player.
func (s *State) players() int {
	if s.solo {
		return 1
	}
	return 2
}

func (s *State) tile(i int16) *Tile { return &s.data.Tiles[i] }

// ToMove returns the seat to move, or nothing once the game is over: a
// list that shares names' memory, capped at its length (the contract
// lets the caller only read it).
func (s *State) ToMove() []string {
	if s.over {
		return nil
	}
	return s.names[s.turn : s.turn+1 : s.turn+1]
}

// Automata returns "henri" in the solo game.
func (s *State) Automata() []string {
	if s.solo {
		return []string{Henri}
	}
	return nil
}

// Clone returns a deep copy.
func (s *State) Clone() adjudicator.State { return s.clone() }

func (s *State) clone() *State {
	c := *s
	c.cells = slices.Clone(s.cells)
	c.placed = slices.Clone(s.placed)
	c.stack = slices.Clone(s.stack)
	c.hands = [2][]int16{slices.Clone(s.hands[0]), slices.Clone(s.hands[1])}
	c.paidTiles = slices.Clone(s.paidTiles)
	c.paidCells = slices.Clone(s.paidCells)
	c.destroy = slices.Clone(s.destroy)
	c.treasures = slices.Clone(s.treasures)
	c.setAside = slices.Clone(s.setAside)
	c.won = slices.Clone(s.won)
	c.removed = slices.Clone(s.removed)
	return &c
}

// inReserveCount returns the troops seat has in the royal reserve.
func (s *State) inReserveCount(seat int) int {
	n := 0
	for _, t := range s.troops[seat] {
		if t.at == inReserve {
			n++
		}
	}
	return n
}

// Scores returns each seat's score now: the players', then Henri's in the
// solo game.
func (s *State) Scores() []int {
	sc := s.score()
	return []int{sc[0].total, sc[1].total}
}

// Result reports the winner once the last round is played: most points,
// then most troops in the royal reserve (deux-heritiers-fr.txt:189); in
// the solo game the player must beat Henri (:556).
func (s *State) Result() adjudicator.Result {
	if !s.over {
		return adjudicator.Result{}
	}
	sc := s.Scores()
	res := adjudicator.Result{Finished: true}
	if s.solo {
		if sc[0] > sc[1] {
			res.Winners = []string{s.names[0]}
			res.Summary = fmt.Sprintf("%s beats Henri %d to %d and wins the crown", s.names[0], sc[0], sc[1])
			res.SummaryFR = fmt.Sprintf("%s bat Henri %d à %d et remporte la couronne", s.names[0], sc[0], sc[1])
		} else {
			res.Winners = []string{Henri}
			if sc[0] == sc[1] {
				res.Summary = fmt.Sprintf("Henri wins the tie at %d: the player must do better than Henri", sc[0])
				res.SummaryFR = fmt.Sprintf("Henri l'emporte à égalité à %d : le joueur doit faire mieux qu'Henri", sc[0])
			} else {
				res.Summary = fmt.Sprintf("Henri beats %s %d to %d", s.names[0], sc[1], sc[0])
				res.SummaryFR = fmt.Sprintf("Henri bat %s %d à %d", s.names[0], sc[1], sc[0])
			}
		}
		return res
	}
	w := -1
	switch {
	case sc[0] > sc[1]:
		w = 0
	case sc[1] > sc[0]:
		w = 1
	default:
		r0, r1 := s.inReserveCount(0), s.inReserveCount(1)
		switch {
		case r0 > r1:
			w = 0
		case r1 > r0:
			w = 1
		}
	}
	if w < 0 {
		res.Draw = true
		in := s.inReserveCount(0)
		res.Summary = fmt.Sprintf("draw: %s and %s tie with %d %s and %d %s in the royal reserve", s.names[0], s.names[1], sc[0], plural(sc[0], "point", "points"), in, plural(in, "troop", "troops"))
		res.SummaryFR = fmt.Sprintf("égalité : %s et %s finissent à %d %s et %d %s dans la réserve royale", s.names[0], s.names[1], sc[0], plural(sc[0], "point", "points"), in, plural(in, "troupe", "troupes"))
		return res
	}
	res.Winners = []string{s.names[w]}
	res.Summary = fmt.Sprintf("%s wins with %d %s to %d", s.names[w], sc[w], plural(sc[w], "point", "points"), sc[1-w])
	res.SummaryFR = fmt.Sprintf("%s gagne avec %d %s contre %d", s.names[w], sc[w], plural(sc[w], "point", "points"), sc[1-w])
	if sc[0] == sc[1] {
		in := s.inReserveCount(w)
		res.Summary += fmt.Sprintf(", breaking the tie with %d %s in the royal reserve", in, plural(in, "troop", "troops"))
		res.SummaryFR += fmt.Sprintf(", départagé par %d %s dans la réserve royale", in, plural(in, "troupe", "troupes"))
	}
	return res
}

// noteTile records that cell i now holds a tile.
func (s *State) noteTile(i int) {
	at, found := slices.BinarySearch(s.placed, int16(i))
	if !found {
		s.placed = slices.Insert(s.placed, at, int16(i))
	}
}

// ruleTurnOrder is the rulebook line that says who plays when
// (Game.TurnRule).
const ruleTurnOrder = "deux-heritiers-fr.txt:98"
