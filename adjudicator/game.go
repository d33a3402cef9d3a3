// Package adjudicator is herald's game-agnostic core: the contract every game
// implements ([Game], [State], [Move]), the registry of games, game options,
// the seeded random source, the game record (a YAML file holding the moves,
// never the board), all-or-nothing submissions, replay and adjudication, and
// the scenario files that turn rulebook examples and disputes into checks.
//
// Optional capabilities are small extra interfaces a State may implement,
// found by type assertion: [PrivateTexter] (the shared board rendered once),
// [TurnEnder] (a turn that ends by itself, and the steps that may still
// follow it in the same submission), [Automaton] (seats the game plays itself, as Henri in Les Deux
// Héritiers' solo game; a [Match] plays them right after the players),
// [Sealer] (steps hidden from the others for a while, sealed bids),
// [Defaulter] (what a player who never acts does) and [Picturer] (the
// board as a picture).
//
// A record ([Record]) is tamper- and truncation-evident: each move carries
// a digest chained to the one before and the record ends with a seal, all
// checked when it is read ([ParseRecord]). A game that ends early, by a
// player's resignation or the host abandoning it, is recorded with
// [Match.Resign] or [Match.Abandon] as the record's ended entry
// (RULINGS.md H-1); no move is accepted after it.
//
// A scenario file ([Scenario]) checks a rule on a board: moves with the
// verdict each must get, and expect mappings, after any move or at the end,
// that reach everything `show --format json --as P` shows for any player P
// (the key private maps players to their private views) and can assert
// absence (`e5: !absent`), exact mappings (`!exact`) and sizes (`!len N`).
//
// A game package exports one *Game descriptor; games/games.go lists them. The
// adjudicator never imports a game, and a game never imports the mail layer.
//
// Determinism: a game's State is a pure function of its options, its players,
// its seed (through [NewRNG]) and the moves applied. Nothing in this package
// or in a game reads the clock or math/rand's global source; the time stored
// with each move in a record is written by the caller and never read back by
// the rules.
package adjudicator

import (
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Game describes one game: what the `games` command lists, and how to start
// a state from the setup or from a position.
type Game struct {
	Name       string   // the name used on the command line and in records: "raubritter"
	Title      string   // the game's title for people: "Raubritter (Robber Knights)"
	TitleFR    string   // the same in French ("Les Deux Héritiers"); "": Title
	Rulebook   string   // the rulebook file in shared/rules the rules come from
	MinPlayers int      // fewest players
	MaxPlayers int      // most players
	Options    []Option // named options with types and defaults
	Help       string   // the notation help, a few lines, English
	HelpFR     string   // the same in French

	// Keywords are the words of the game's notation that mark a line of a
	// mail as a step, so that the greetings, thanks and signatures around
	// the steps are told from them and ignored (notation.IgnoreProse): every
	// keyword, but not the small words that prose uses too ("at", "on").
	// Nil ignores no prose: every line is a step.
	Keywords notation.Vocabulary

	// Words are the terms whose canonical names the game's steps are
	// printed with (Move.String), each with its French spelling first:
	// a step shown to a French reader is written with them (StepIn), and
	// must read back as the same step. Nil: Keywords.
	Words notation.Vocabulary

	// SetLists are the keys of the game's view (show --format json) and
	// position whose lists are sets, their order meaningless: the borders
	// on a board, say. A scenario's expect may give them in any order,
	// as a referee who read the rulebook, not herald, would write them
	// (to_move, winners, shared and hand are sets in every game).
	SetLists []string

	// TurnRule is the rulebook line that says who plays when, which "it
	// is not alice's turn" cites ("raubritter-fr-scan.txt:87"); "" cites
	// none, where no one line says it.
	TurnRule string

	// Canon returns the form the game's view gives value, a string an
	// expect gives under key, when it names the same thing in another
	// way: a border written either way round (d1|c1 for c1|d1). Nil, or
	// value itself: as written.
	Canon func(key, value string) string

	// New returns the state at the start of a game: the setup done, with all
	// randomness drawn from s.RNG.
	New func(s Setup) (State, error)

	// LoadPosition returns the state described by a position document (the
	// game's own YAML format, documented in its package). Errors give the
	// line and column in the document. s.RNG is there for the rare game that
	// still draws after the position; most ignore it.
	LoadPosition func(s Setup, pos *yaml.Node) (State, error)
}

// StepIn returns text, one of g's steps as Move.String prints it, with
// its keywords in lang (notation.Vocabulary.StepIn over g.Words): "plain
// castle f5" is "plaine château f5" in French. A nil g returns text.
func (g *Game) StepIn(text string, lang notation.Lang) string {
	if g == nil || lang != notation.French {
		return text
	}
	if g.Words != nil {
		return g.Words.StepIn(text, lang)
	}
	return g.Keywords.StepIn(text, lang)
}

// Setup is what a game is started with.
type Setup struct {
	Players []string // in seating order; the first listed plays first unless the rules draw
	Options Options  // validated, with every default filled in
	RNG     *RNG     // the game's seeded source
}

// State is a game in progress. Implementations must be deterministic and
// must keep hidden information out of every method that is not about one
// player: Text("") and Board() show only what everyone may see.
type State interface {
	// ToMove returns the players who may submit now, in seating order: one,
	// or several when the rules ask for simultaneous decisions. It is empty
	// once the game is over. The slice may share the state's memory: the
	// caller reads it and never writes into it (slices.Clone it first).
	ToMove() []string

	// Legal returns every step player may take next, in a stable order. Each
	// move's String() is accepted back by Parse. It is empty for a player
	// who may not act now.
	Legal(player string) []Move

	// Parse reads one step written by player. It returns a *notation.Error
	// when the text cannot be understood; it does not check the rules.
	Parse(player string, step *notation.Step) (Move, error)

	// Apply checks the move against the rules and plays it. On error, a
	// *RuleError, the state is unchanged.
	Apply(player string, m Move) error

	// Clone returns an independent copy.
	Clone() State

	// Scores returns each player's score now, in seating order. Before the
	// end it is the score the board would give if the game ended now.
	Scores() []int

	// Result reports whether the game is over and who won.
	Result() Result

	// Text renders the board for people in at most 72 columns. With a
	// player name it adds that player's private view (hand, next draw).
	Text(as string) string

	// Board returns the public board as a value for `show --format json`.
	Board() any

	// Private returns player's hidden information for `show --as`.
	Private(player string) any

	// Position returns the complete position as a value that marshals to
	// the game's position YAML; LoadPosition reads it back to an equal state.
	Position() any
}

// A PrivateTexter is a State whose Text(as) is Text("") followed by
// PrivateText(as), the lines only that player sees. A service that shows
// one state to every player then renders the shared board once; Texts
// does it for any State.
type PrivateTexter interface {
	PrivateText(as string) string
}

// A LangTexter is a State whose Text can put its own words around the
// board (the legend, the status lines, a player's hand) in French too:
// TextIn(as, notation.French). The board's notation (squares, the codes
// of its cells, steps) stays as Text writes it.
type LangTexter interface {
	TextIn(as string, lang notation.Lang) string
}

// TextIn returns st.Text(as) with its words in lang where st is a
// LangTexter, else st.Text(as).
func TextIn(st State, as string, lang notation.Lang) string {
	if lt, ok := st.(LangTexter); ok && lang != notation.English {
		return lt.TextIn(as, lang)
	}
	return st.Text(as)
}

// A TurnEnder is a State whose turns can end by themselves, as a
// Raubritter turn does after its third tile. When a step of a submission
// comes after the submitting player's turn ended by itself earlier in the
// same submission, a Match asks AfterTurnEnd about it instead of refusing
// it as "not your turn": nil means the step only states what already
// happened (an `end` after the turn ended) and is dropped, a harmless
// no-op listed in Submission.Dropped; an error, a *RuleError, says that the
// turn ended by itself, when, and that the steps after it must go.
type TurnEnder interface {
	AfterTurnEnd(player string, m Move) error
}

// Texts returns Text(p) for each player p, rendering the shared part once
// when st is a PrivateTexter.
func Texts(st State, players []string) []string {
	out := make([]string, len(players))
	pt, ok := st.(PrivateTexter)
	if !ok {
		for i, p := range players {
			out[i] = st.Text(p)
		}
		return out
	}
	shared := st.Text("")
	for i, p := range players {
		out[i] = shared + pt.PrivateText(p)
	}
	return out
}

// Move is one parsed atomic step. String returns it in canonical notation.
type Move interface {
	String() string
}

// Result is the outcome of a game.
type Result struct {
	Finished bool
	Winners  []string // more than one when the rules let players share a victory
	Draw     bool     // nobody wins
	Shared   []string // for a draw, the players who share it (those tied at the top), in seating order
	Summary  string   // one sentence for people, English
	// SummaryFR is Summary in French, for a French reader's mail and page;
	// empty where a game has none, and SummaryIn gives the English then.
	SummaryFR string
}

// SummaryIn returns the result's sentence in lang: SummaryFR in French
// when the game wrote one, else Summary.
func (r Result) SummaryIn(lang notation.Lang) string {
	if lang == notation.French && r.SummaryFR != "" {
		return r.SummaryFR
	}
	return r.Summary
}

// A Picturer is a State that can draw its board as a picture (package
// picture): the public view only, from the same state its Text("") shows.
// It is an optional part of the engine contract; every game of herald
// has it. The caller fills the picture's Title and Status.
type Picturer interface {
	Picture() *picture.Board
}

// A LangPicturer is a Picturer that can draw its board with its words
// (the keys, the legend, the lines below the board, the players' notes)
// in French too: PictureIn(notation.French), in the words of its French
// Text (LangTexter). The squares, their codes and the letters on them are
// the same in every language.
type LangPicturer interface {
	PictureIn(lang notation.Lang) *picture.Board
}

// PictureIn returns st's picture (st must be a Picturer) with its words
// in lang, and its Lang set to lang, where st is a LangPicturer; else
// st.Picture(), in English.
func PictureIn(st State, lang notation.Lang) *picture.Board {
	if lp, ok := st.(LangPicturer); ok && lang != notation.English {
		b := lp.PictureIn(lang)
		b.Lang = lang
		return b
	}
	return st.(Picturer).Picture()
}

// PictureOf returns the picture of m's board, titled with title and the
// state of the game (whose turn, or the result), with the squares and
// walls the last move changed marked, or an error when the game cannot
// draw one.
func PictureOf(m *Match, title string) (*picture.Board, error) {
	return PictureAt(m, len(m.Record.Moves), title)
}
