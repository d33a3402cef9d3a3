// Package lowenherz97 implements Löwenherz (Klaus Teuber, Goldsieber 1997),
// the original edition with simultaneous decisions, negotiations and
// sealed bids, for 2 to 4 players, from the French rulebook
// shared/rules/lowenherz-1997-fr.txt. Decisions the rulebook leaves open are
// the L97-* entries of RULINGS.md.
//
// # Rules in brief
//
// The board is 15x10 squares (six 5x5 pieces): empty, forest, hill and
// city; its walls cut it into areas. An area with exactly one castle is
// its prince's region; one with none is a neutral zone. Each round the
// first player turns an action card (Silberfund: a power point per hill in
// one's regions, and another card; Der König ist tot: the game ends) and
// the players lay decision cards 1-3 openly, clockwise from the first
// player, who lays two with 2 or 3 players. The actions are carried out top
// to bottom: ducats are shared (the rest stays in the bank); any other
// action chosen by two players is negotiated openly, by three or four
// fought out with sealed bids. Walls that close a region score it by the
// table (3/5/7/9/12 by size, +5 per city); an extension scores 1 per square
// (+5 per city) and costs its loser as much, and a neutral zone cut from a
// region costs its owner the table's points. Political cards (alliance and
// renegade, played with a decision card; fiefs, scored at the end;
// treasures, spent as ducats) stay hidden until played. The game starts
// from the basic start position (map.yaml, ruling L97-1), or with 2 players
// and in the advanced setup from a placement phase.
//
// # Notation
//
// See (*State).Parse. A round by mail might read, for alice:
//
//	choose 2 with renegade
//
// and later, when the negotiation, the bids or the action come to her:
//
//	offer 3                    (or: accept, yield, refuse)
//	bid 5 treasure 8           (sealed; replaceable until every bid is in)
//	renegade f5 g6
//	knight e5
//	extend f4; extend f3
//	wall e5 f5
//	look 1; take treasure 8
//	end
//
// # Simultaneous and sealed steps
//
// ToMove lists one player, except in a confrontation, where it lists every
// bidder of the open round, including those whose bid is in (they may
// replace it until the last bid comes in; the last one counts). A bid is
// held in the state and appears in no public view (Text(""), Board(), the
// events) and in no other player's Text or Private until every bid is in;
// then all are revealed at once in the events. The methods Sealed,
// SealedRound, SealedIn and PublicStep tell a host which steps to keep out
// of broadcasts and what to say instead ("alice has bid" / "alice a
// misé"). Other hidden information: each player's ducats (the rulebook
// lets players hide their money, lowenherz-1997-fr.txt:97) and political
// cards, and the political pile a player looks at.
//
// # Board and squares
//
// Squares are a1 (top left) to o10 (bottom right). A wall is named by the
// two squares it separates: "e5 f5" or "e5-f5". The board frame is a wall.
//
// # Position format
//
// `herald show --format position` writes, and `herald new --position`
// reads, this YAML (a referee may leave out what is in brackets):
//
//	phase: act                 # [decide] place, decide, negotiate, bid, act or over;
//	                           #   decide with no card (and no decisions, or []): the
//	                           #   round begins, the game's first round too, its card
//	                           #   turned from the deck; decide with
//	                           #   every decision laid: no action carried out yet, the
//	                           #   tiers are resolved from there
//	map: ["...", ...]          # [the map option's basic map] 10 rows of 15: . F H C
//	first: alice               # [the first player listed] the first player of the round
//	card: B crown 2w 3w        # the action card turned (not in place or over):
//	                           #   crown, 1w-3w walls, 1s 2s shields, 4d 6d 8d ducats
//	deck: [C silberfund, E king, ...]  # [empty: the game ends with the round] top first
//	piles: [[renegade], [fief 3, treasure 8]]  # [empty] the political piles
//	bank: 74                   # [110 minus the players' ducats]; must make 110 with them
//	castles: {a1: alice, g1: neutral}  # [none] squares to colours
//	knights: {a2: alice}       # [none]
//	walls: [b1-c1, a2-a3]      # [none] the frame is not listed
//	players:
//	  alice: {score: 12, ducats: 9, reserve: 8, political: [renegade], bid: 4 treasure 8}
//	                           # [0, 12, 12 minus those on the board, none, none]
//	neutral: {reserve: 9}      # [12 minus those on the board] 2 and 3 players only
//	places: [bob, alice neutral]       # phase place: the placements to come
//	decisions: [alice 2 renegade, alice 3, bob 1]  # [none] the cards laid, in order
//	tier: 2                    # [1] the action being carried out (negotiate, bid, act)
//	negotiation: {between: [alice, bob], speaker: bob, offer: 3, by: alice}
//	confrontation: {bidders: [alice, bob, carol], rebid: false}
//	action: {actor: bob, card: renegade, knights: 1, walls: 0, extended: 1, from: a1,
//	         open: true, looking: 1, took: false, next: [carol]}
//	alliances: [[a1, n1]]      # [none] pairs of region castles
//	log: ["..."]               # [none] the latest events
//	extension: {squares: [d2], walls: [...], scores: {alice: 3, bob: 5}, log: ["..."]}
//	                           # [the position itself] between the two squares of an
//	                           #   extension (open: true): the squares annexed and the
//	                           #   walls, scores and log before the first, which the
//	                           #   second square is computed from (RULINGS.md L97-20)
//
// # JSON board
//
// `show --format json` has board.phase, first, card, deck (cards left),
// castles and knights (square to colour), walls, regions (owner, castle,
// squares, cities, hills, knights), neutral_zones, decisions, negotiation,
// confrontation (bidders and whether each bid is in: never the bids),
// actor and action, reserve, political (cards held, counted), piles, bank,
// walls_left, alliances and events; `--as P` adds private.ducats,
// private.political, private.pile (while P looks at one) and private.bid.
package lowenherz97

import (
	"slices"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
)

// Game is Löwenherz (1997)'s descriptor.
var Game = &adjudicator.Game{
	Name:       "lowenherz97",
	Title:      "Löwenherz (1997 original edition)",
	TitleFR:    "Löwenherz (édition originale de 1997)",
	Rulebook:   "lowenherz-1997-fr.txt",
	SetLists:   []string{"walls", "regions", "alliances", "bidders", "political"}, // the walls, regions, alliances, bidders and political cards are sets
	Canon:      canon,
	MinPlayers: 2,
	MaxPlayers: 4,
	Options: []adjudicator.Option{{
		Name:    "setup",
		Doc:     "basic: the basic map and start position (3-4 players); advanced: pieces shuffled and turned, castles and knights placed in turn, A cards on top (2 players always place)",
		Type:    adjudicator.OptEnum,
		Default: "basic",
		Values:  []string{"basic", "advanced"},
	}, {
		Name: "map",
		Doc:  "a map data file (the format of map.yaml) in place of the basic map of RULINGS.md L97-1; on the command line --opt map=@FILE",
		Type: adjudicator.OptText,
	}, {
		Name:    "alliance",
		Doc:     "laid: an alliance names its regions as its card is laid, choose 2 with alliance d5 h5, as the rulebook says; action: the earlier rule, the card laid bare and alliance d5 h5 at the action, kept so that games begun under it finish under it (RULINGS.md L97-11)",
		Type:    adjudicator.OptEnum,
		Default: "laid",
		Values:  []string{"laid", "action"},
		Before:  "action",
	}},
	Help: `Steps, one per line or separated by ';':
  choose 2                  lay decision card 2 (1 top, 3 bottom action)
  choose 2 with renegade    the same, playing a renegade card
  choose 2 with alliance d5 h5   the same, with an alliance of your
                            region of d5 and the one of h5
  offer 3 | accept | yield | refuse    negotiate with the other chooser
  bid 5 treasure 8          sealed bid in a confrontation
  look 1; take fief 4       crown and sceptre: a political card
  wall e5 f5                a wall between e5 and f5
  knight e5 [treasure 8]    a knight on e5 (a forest costs 5 ducats)
  extend e5 [from d5]       annex e5 to your region (d5: which region)
  renegade f5 g6            remove the knight on f5, place yours on g6
  break d5 h5               break an alliance for 10 ducats
  castle e5 knight e6       setup: a castle and the knight beside it
  end                       end your action`,
	HelpFR: `Étapes, une par ligne ou séparées par « ; » :
  choisis 2                 poser la carte de décision 2 (1 haut, 3 bas)
  choisis 2 avec renégat    la même, en jouant une carte renégat
  choisis 2 avec alliance d5 h5  la même, avec une alliance de votre
                            région de d5 et de celle de h5
  offre 3 | accepte | cède | refuse    négocier avec l'autre joueur
  mise 5 trésor 8           mise cachée dans une confrontation
  regarde 1 ; prends fief 4 couronne et sceptre : une carte politique
  mur e5 f5                 un mur entre e5 et f5
  chevalier e5 [trésor 8]   un chevalier en e5 (forêt : 5 ducats)
  étends e5 [depuis d5]     annexer e5 à sa région (d5 : laquelle)
  renégat f5 g6             ôter le chevalier en f5, poser le sien en g6
  romps d5 h5               rompre une alliance pour 10 ducats
  château e5 chevalier e6   mise en place : un château et son chevalier
  fin                       finir son action`,
	// "yes", "no", "oui", "non" (accept, refuse) and "see" (look) begin
	// prose lines too often to mark a step.
	Keywords:     slices.Concat(verbs.Without("yes", "no", "oui", "non", "see"), politicals),
	Words:        slices.Concat(shownFR, verbs, politicals, knightWord, fillers, fromWord, pileWord),
	New:          newGame,
	LoadPosition: loadPosition,
}

// canon is the game's Game.Canon: a wall written either way round, or
// with another mark (a2-a1, a1/a2), as the view gives it (a1-a2).
func canon(key, value string) string {
	if key == "walls" {
		if e, err := canonGrid.ParseEdge(value); err == nil {
			return canonGrid.EdgeName(e)
		}
	}
	return value
}

// canonGrid names the walls of every map the same way (grid.EdgeName
// puts the square of lower row, then lower column, first).
var canonGrid = grid.New(26, 26)
