// Package raubritter implements Raubritter (Robber Knights, Rüdiger Dorn,
// Queen Games), for 2 to 4 players, from the French rulebook
// shared/rules/raubritter-fr-scan.txt. Decisions the rulebook leaves open are
// the RB-* entries of RULINGS.md.
//
// # Rules in brief
//
// Each player has 24 terrain tiles (the mix by back letter is tiles.yaml,
// ruling RB-1; the option tiles gives another data file) and 30 knights.
// At setup each player keeps their A castle and one other A tile of their
// choice in hand (step "keep", sealed: the others see which only once
// every player has kept, RULINGS.md RB-15); the other two A
// tiles of every player form the start layout, a rectangle of 2 rows and as
// many columns as players, laid face down at random (RB-2). On a turn a
// player lays 1 to 3 tiles edge to edge with the table, drawing after each;
// a castle just laid may take up to 5 of the player's knights, which march in
// one straight line leaving at least 1 knight on plain, 2 on forest and 3 on
// mountains, never entering a lake or a tile with 4 knights. The game ends
// when every tile is laid; the top knight of each castle, village and town
// scores 1, 2 and 3.
//
// # Notation
//
// See (*State).Parse. A turn by mail might read:
//
//	plain castle e5
//	knights east 1 2 1
//	forest village f4
//	end
//
// # Board and squares
//
// Squares are named by column letter and row number on a fixed frame large
// enough for the board to grow in any direction up to the area limit (7, 9
// or 10 tiles per row and column for 2, 3 or 4 players), so a square's name
// never changes during a game. Row 1 is at the top. With 2 players the frame
// is a1-l12 and the start layout is f6-g7; with 3, a1-o16 and g8-i9; with 4,
// a1-p18 and g9-j10.
//
// # Position format
//
// `herald show --format position` writes, and `herald new --position`
// reads, this YAML (a referee may leave out what is in brackets):
//
//	phase: play              # [play] setup, play or over
//	turn: red                # [first player] whose turn it is
//	placed: 1                # [0] tiles laid so far this turn
//	castle: f5               # [none] the castle just laid, waiting for its knights
//	board:                   # square: tile [/ knights, bottom to top]
//	  f5: plain castle
//	  f6: plain castle / blue red
//	  g6: forest village / red red
//	players:
//	  red:
//	    knights: 27          # [30 minus those on the board] knights left to play
//	    hand: [plain town]   # [empty] tiles in hand
//	    stack: [B plain, B mountains]  # [empty] the stack, top first, with back letters
//
// A stack runs B to E, and holds per letter no more tiles of a kind than
// the letter has in tiles.yaml (B has no lake, so "B lake" is refused).
//
// A position may hold fewer knights or tiles than a game would: a player's
// knights left and on the board may come to less than 30, and their hand
// and stack to fewer tiles than they own. What a position leaves out is out
// of the game, so that a rulebook example sets only what it shows ("0
// knights left" with one knight on the board, to show a player who cannot
// garrison a castle). Only more than a player owns is refused. A knight
// never leaves the board in a game (raubritter-fr-scan.txt:59, 177), so a
// position that follows a real game has them all.
//
// In the setup phase a player also has kept (whether they chose their A
// tile yet), slots (their two squares of the start layout) and layout (the
// two A tiles set aside for it).
//
// # JSON board
//
// `show --format json` has board.squares (square to {tile, knights bottom to
// top, top}), board.knights (knights left per player), board.tiles (tiles
// left in hand and stack per player), board.area ({limit, columns, rows}),
// board.phase, board.placed and board.castle; `--as P` adds private.hand,
// private.stack (tiles left) and private.next (the letter of the next draw).
package raubritter

import (
	"fmt"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
)

// Game is Raubritter's descriptor.
var Game = &adjudicator.Game{
	Name:       "raubritter",
	Title:      "Raubritter (Robber Knights)",
	TitleFR:    "Raubritter",
	Rulebook:   "raubritter-fr-scan.txt",
	TurnRule:   "raubritter-fr-scan.txt:87", // « Le joueur le plus agé commence et les autres suivent dans le sens des aiguilles d'une montre »
	MinPlayers: 2,
	MaxPlayers: 4,
	Options: []adjudicator.Option{{
		Name:    "setup",
		Doc:     "choose: each player keeps an A tile of their choice (rulebook); random: herald picks it, and play starts at once",
		Type:    adjudicator.OptEnum,
		Default: "choose",
		Values:  []string{"choose", "random"},
	}, {
		Name: "tiles",
		Doc:  "a tile data file (the format of tiles.yaml) in place of the rulebook mix of RULINGS.md RB-1; on the command line --opt tiles=@FILE",
		Type: adjudicator.OptText,
	}},
	Help: `Steps, one per line or separated by ';':
  keep plain village        setup: keep your castle and this A tile
  plain castle e5           lay a tile from your hand on e5
  knights east 1 2 1        on the castle just laid: 4 knights, leave
                            1 on it, 2 on the next tile east, 1 beyond
  knights 3                 3 knights that stay on the castle
  knights 0                 no knights on this castle
  end                       end your turn (after 1 to 3 tiles)
Tiles: plain, forest, mountains, lake; castle, village, town.`,
	HelpFR: `Étapes, une par ligne ou séparées par « ; » :
  garde plaine village      mise en place : garder château, plaquette A
  plaine château e5         poser une plaquette de sa main en e5
  chevaliers est 1 2 1      sur le château posé : 4 chevaliers, 1 y
                            reste, 2 sur la suivante à l'est, 1 au-delà
  chevaliers 3              3 chevaliers qui restent sur le château
  chevaliers 0              aucun chevalier sur ce château
  fin                       finir son tour (après 1 à 3 plaquettes)
Plaquettes : plaine, forêt, montagnes, lac ; château, village, ville.`,
	Keywords:     slices.Concat(verbs, terrains, buildings, directions, diagonals),
	New:          newGame,
	LoadPosition: loadPosition,
}

// Rule references into the rulebook (file:line) and RULINGS.md.
const (
	ruleKeep      = "raubritter-fr-scan.txt:72"
	ruleEdge      = "raubritter-fr-scan.txt:95"
	ruleDiagonal  = "raubritter-fr-scan.txt:121"
	ruleThree     = "raubritter-fr-scan.txt:99"
	ruleFive      = "raubritter-fr-scan.txt:134"
	ruleStraight  = "raubritter-fr-scan.txt:140"
	ruleGap       = "raubritter-fr-scan.txt:144"
	ruleLeave     = "raubritter-fr-scan.txt:148"
	ruleLake      = "raubritter-fr-scan.txt:163"
	ruleFour      = "raubritter-fr-scan.txt:167"
	ruleEnough    = "raubritter-fr-scan.txt:173"
	ruleOnce      = "raubritter-fr-scan.txt:177"
	ruleArea2     = "raubritter-fr-scan.txt:217"
	ruleArea3     = "raubritter-fr-scan.txt:222"
	ruleArea4     = "raubritter-fr-scan.txt:226"
	ruleHand      = "RULINGS.md RB-5"
	ruleNoKnights = "raubritter-fr-scan.txt:186"
	ruleSelfEnd   = "RULINGS.md RB-11"
	// ruleSupply: a castle takes « jusqu'à cinq de ses pions chevaliers »,
	// the player's own, so no more than they have left (l. 186 is about a
	// player with none at all).
	ruleSupply = ruleFive
)

// areaLimit is the most tiles per row and column, by player count
// (raubritter-fr-scan.txt:212-227), and areaRule the line that says so.
var (
	areaLimit = map[int]int{2: 7, 3: 9, 4: 10}
	areaRule  = map[int]string{2: ruleArea2, 3: ruleArea3, 4: ruleArea4}
)

type phase uint8

const (
	phaseSetup phase = iota
	phasePlay
	phaseOver
)

var phaseNames = [...]string{"setup", "play", "over"}

// cell is one square of the frame.
type cell struct {
	placed bool
	kind   Kind
	n      uint8    // knights on the tile
	k      [4]uint8 // their owners, bottom to top
}

func (c *cell) top() int {
	if c.n == 0 {
		return -1
	}
	return int(c.k[c.n-1])
}

type player struct {
	hand    []Kind
	stack   []Tile // top first; never written once built, so clones share it
	knights int    // left to play
	// setup only
	kept   bool
	slots  []Square
	layout []Kind
}

// State is a game of Raubritter. It implements adjudicator.State.
type State struct {
	data    *Data
	names   []string
	players []*player
	limit   int // most tiles per row and column
	w, h    int // frame size
	cells   []cell
	phase   phase
	turn    int // index of the player whose turn it is
	placed  int // tiles laid this turn
	pending int // cell index of the castle waiting for knights, or -1
	box     box // the rectangle the laid tiles span; tiles are laid only by lay

	// bare is the cell index of the last tile laid when it is a castle
	// that takes no knights because its player has fewer left than its
	// terrain keeps (RULINGS.md RB-10), or -1. Only the next steps of the
	// same turn read it (placed > 0), or, after the turn ended by itself,
	// those of the same submission (AfterTurnEnd): like selfEnd it is not
	// part of the position.
	bare int

	// selfEnd says how the last step applied ended its player's turn by
	// itself (endNone when it did not), for the steps that may follow it
	// in the same submission (AfterTurnEnd). It is not part of the
	// position: it only speaks of the step just applied.
	selfEnd  endHow
	selfEndP int // the player whose turn ended
}

// endHow is how a turn ended by itself.
type endHow uint8

const (
	endNone     endHow = iota
	endThird           // after the third tile (and its knights)
	endEmpty           // when the hand was empty
	endGameOver        // and with it the game: every tile is laid
)

var _ adjudicator.State = (*State)(nil)

func newFrame(data *Data, names []string) *State {
	n := len(names)
	lim := areaLimit[n]
	s := &State{
		data:    data,
		names:   slices.Clone(names),
		limit:   lim,
		w:       2*lim - n,
		h:       2*lim - 2,
		pending: -1,
		bare:    -1,
	}
	s.cells = make([]cell, s.w*s.h)
	for range names {
		s.players = append(s.players, &player{knights: data.Knights})
	}
	return s
}

// layoutSquares returns the squares of the start layout: 2 rows and one
// column per player, in the middle of the frame.
func (s *State) layoutSquares() []Square {
	n := len(s.names)
	var out []Square
	for r := s.limit - 2; r < s.limit; r++ {
		for c := s.limit - n; c < s.limit; c++ {
			out = append(out, Square{r, c})
		}
	}
	return out
}

// gameData returns the tile data of a game: the embedded default, or the
// data file given in the tiles option, which must fit the playing area
// with a square to spare (RB-14 relies on it).
func gameData(setup adjudicator.Setup) (*Data, error) {
	d := DefaultData
	if text := setup.Options.String("tiles"); text != "" {
		var err error
		if d, err = ParseData("the tiles option", []byte(text)); err != nil {
			return nil, err
		}
	}
	n := len(setup.Players)
	if lim := areaLimit[n]; n*d.Size() >= lim*lim {
		return nil, fmt.Errorf("%d players with %d tiles each would fill the %dx%d area; at most %d tiles each",
			n, d.Size(), lim, lim, (lim*lim-1)/n)
	}
	return d, nil
}

func newGame(setup adjudicator.Setup) (adjudicator.State, error) {
	data, err := gameData(setup)
	if err != nil {
		return nil, err
	}
	s := newFrame(data, setup.Players)
	rng := setup.RNG
	for _, p := range s.players {
		// Each player shuffles their tiles within each letter and stacks
		// them B on top, E at the bottom (raubritter-fr-scan.txt:61-70).
		for _, l := range letters[1:] {
			group := make([]Tile, 0, len(s.data.Letters[byte(l)]))
			for _, k := range s.data.Letters[byte(l)] {
				group = append(group, Tile{Letter: byte(l), Kind: k})
			}
			rng.Shuffle(len(group), func(i, j int) { group[i], group[j] = group[j], group[i] })
			p.stack = append(p.stack, group...)
		}
		p.hand = slices.Clone(s.data.Letters['A'])
	}
	// The start layout is laid face down: which squares get whose tiles is
	// left to chance (RB-2).
	slots := s.layoutSquares()
	rng.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
	for i, p := range s.players {
		p.slots = []Square{slots[2*i], slots[2*i+1]}
	}
	if setup.Options.String("setup") == "random" {
		for i, p := range s.players {
			choices := s.keepChoices(p)
			if err := s.keep(i, choices[rng.IntN(len(choices))]); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

func (s *State) index(name string) int { return slices.Index(s.names, name) }

func (s *State) at(q Square) *cell {
	if q.Row < 0 || q.Col < 0 || q.Row >= s.h || q.Col >= s.w {
		return nil
	}
	return &s.cells[q.Row*s.w+q.Col]
}

func (s *State) square(i int) Square { return Square{i / s.w, i % s.w} }

// inFrame reports whether q is on the frame of square names.
func (s *State) inFrame(q Square) bool { return s.at(q) != nil }

// lay puts a tile of kind k on q, which is on the frame and empty, and
// keeps the rectangle the laid tiles span (bbox).
func (s *State) lay(q Square, k Kind) {
	c := s.at(q)
	c.placed, c.kind = true, k
	b := &s.box
	if !b.ok {
		*b = box{q.Row, q.Row, q.Col, q.Col, true}
		return
	}
	b.r0, b.r1 = min(b.r0, q.Row), max(b.r1, q.Row)
	b.c0, b.c1 = min(b.c0, q.Col), max(b.c1, q.Col)
}

// box is the rectangle of squares the laid tiles span.
type box struct {
	r0, r1, c0, c1 int
	ok             bool // false on an empty table
}

// bbox returns the rows and columns the laid tiles span; ok is false on an
// empty table.
func (s *State) bbox() (r0, r1, c0, c1 int, ok bool) {
	b := s.box
	return b.r0, b.r1, b.c0, b.c1, b.ok
}

// ToMove returns who may submit now.
func (s *State) ToMove() []string {
	switch s.phase {
	case phaseSetup:
		var out []string
		for i, p := range s.players {
			if !p.kept {
				out = append(out, s.names[i])
			}
		}
		return out
	case phasePlay:
		return []string{s.names[s.turn]}
	}
	return nil
}

// Clone returns a deep copy.
func (s *State) Clone() adjudicator.State { return s.clone() }

func (s *State) clone() *State {
	c := *s
	c.names = slices.Clone(s.names)
	c.cells = slices.Clone(s.cells)
	c.players = make([]*player, len(s.players))
	for i, p := range s.players {
		cp := *p
		cp.hand = slices.Clone(p.hand)
		// cp.stack shares p.stack: a stack is built at the start and
		// then only drawn from the top (pl.stack[1:]), never written.
		cp.slots = slices.Clone(p.slots)
		cp.layout = slices.Clone(p.layout)
		c.players[i] = &cp
	}
	return &c
}

// Scores returns the points of the top knights now
// (raubritter-fr-scan.txt:239-250).
func (s *State) Scores() []int {
	sc := make([]int, len(s.names))
	for i := range s.cells {
		c := &s.cells[i]
		if t := c.top(); c.placed && t >= 0 {
			sc[t] += c.kind.Building.Points()
		}
	}
	return sc
}

// Result reports the winner once every tile is laid: most points, then most
// knights left, else a draw (raubritter-fr-scan.txt:253-257).
func (s *State) Result() adjudicator.Result {
	if s.phase != phaseOver {
		return adjudicator.Result{}
	}
	sc := s.Scores()
	best := slices.Max(sc)
	var tied []int
	for i, v := range sc {
		if v == best {
			tied = append(tied, i)
		}
	}
	if len(tied) > 1 {
		most := -1
		for _, i := range tied {
			most = max(most, s.players[i].knights)
		}
		var still []int
		for _, i := range tied {
			if s.players[i].knights == most {
				still = append(still, i)
			}
		}
		tied = still
	}
	res := adjudicator.Result{Finished: true}
	if len(tied) == 1 {
		w := tied[0]
		res.Winners = []string{s.names[w]}
		res.Summary = fmt.Sprintf("%s wins with %d %s", s.names[w], sc[w], plural(sc[w], "point", "points"))
		res.SummaryFR = fmt.Sprintf("%s gagne avec %d %s", s.names[w], sc[w], plural(sc[w], "point", "points"))
		if countEq(sc, best) > 1 {
			res.Summary += fmt.Sprintf(", breaking the tie with %s left", nKnights(s.players[w].knights).EN)
			res.SummaryFR += fmt.Sprintf(", départagé par ses chevaliers restants (%s)", nKnights(s.players[w].knights).FR)
		}
		return res
	}
	res.Draw = true
	names := make([]string, len(tied))
	for i, t := range tied {
		names[i] = s.names[t]
	}
	res.Shared = names
	res.Summary = fmt.Sprintf("draw: %s and %s tie with %d %s and %s left",
		strings.Join(names[:len(names)-1], ", "), names[len(names)-1], best, plural(best, "point", "points"), nKnights(s.players[tied[0]].knights).EN)
	res.SummaryFR = fmt.Sprintf("égalité : %s et %s finissent à %d %s, avec les mêmes chevaliers restants (%s)",
		strings.Join(names[:len(names)-1], ", "), names[len(names)-1], best, plural(best, "point", "points"), nKnights(s.players[tied[0]].knights).FR)
	return res
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

// ruleTurnOrder is the rulebook line that says who plays when
// (Game.TurnRule).
const ruleTurnOrder = "raubritter-fr-scan.txt:87"
