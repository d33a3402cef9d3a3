package lowenherz97

import (
	"slices"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// handRound is the sealed round of every card taken from a political
// pile: the card stays hidden until the game is over (l. 244: « il la
// regarde sans la montrer jusqu'à ce qu'il décide de la jouer »). Playing
// it shows it through its own step (a renegade, an alliance); a fief shows
// in the final scores. The reveal at the end proves every card taken
// (RULINGS.md L97-21).
const handRound = -1

// SealOf returns the sealed round of player's step m, taken now, or 0: a
// bid in an open confrontation is sealed in it, and nobody else may see it
// until every bid is in (lowenherz-1997-fr.txt:214-215: "Les joueurs
// révèlent leurs cartes simultanément"); the card a take names is sealed
// until the end (handRound). Every other step of this game is open.
func (s *State) SealOf(player string, m adjudicator.Move) int {
	switch m.(type) {
	case Bid, *Bid:
		if s.phase == phaseBid && slices.Contains(s.ToMove(), player) {
			return s.sealRound
		}
	case Take, *Take:
		return handRound
	}
	return 0
}

// SealOpen reports whether the steps sealed in round r are still hidden:
// the cards taken until the game is over, the bids of a confrontation
// while it is open. Each confrontation opened in the game, a tie's rebid
// included, gets the next number, so that the bids of the first round of
// a tie are revealed when it ends, as the rulebook's players show their
// cards before they rebid (line 216). A game started from a position in a
// confrontation numbers that one 1.
func (s *State) SealOpen(r int) bool {
	if r == handRound {
		return s.phase != phaseOver
	}
	return s.phase == phaseBid && r == s.sealRound
}

// SealedRound returns the bidders of the open confrontation, in seating
// order, and for each whether their bid is in; both are nil when no sealed
// round is open. The round closes, and the bids are revealed, when the last
// bid comes in.
func (s *State) SealedRound() (players []string, in []bool) {
	if s.phase != phaseBid {
		return nil, nil
	}
	for _, c := range s.contenders {
		players = append(players, s.names[c])
		in = append(in, s.bids[c].in)
	}
	return players, in
}

// SealedIn reports whether player has a sealed step in an open round: they
// are still in ToMove, since they may replace it, but need not act.
func (s *State) SealedIn(player string) bool {
	p := s.index(player)
	return p >= 0 && s.phase == phaseBid && slices.Contains(s.contenders, p) && s.bids[p].in
}

// PublicStep returns the text of player's step m as the other players may
// see it before the reveal: "alice has bid" / "alice a misé" for a sealed
// bid, "alice takes a political card" for a card taken ("has bid", "takes
// a political card" for player ""), the step itself for any other.
func (s *State) PublicStep(player string, m adjudicator.Move, lang notation.Lang) string {
	switch m.(type) {
	case Bid, *Bid:
		if lang == notation.French {
			return adjudicator.Subject(player, "a misé")
		}
		return adjudicator.Subject(player, "has bid")
	case Take, *Take:
		if lang == notation.French {
			return adjudicator.Subject(player, "prend une carte politique")
		}
		return adjudicator.Subject(player, "takes a political card")
	}
	return m.String()
}

// The host shows a step to other players through adjudicator.StepText and
// Match.History, which rely on these methods.
var _ adjudicator.Sealer = (*State)(nil)

// Default returns what player does who never acts when they must: in a
// confrontation, a bidder whose bid never came bids nothing (RULINGS.md
// H-3; the host plays it once the deadline and its grace have passed).
// Anywhere else there is no default.
func (s *State) Default(player string) (adjudicator.Move, bool) {
	p := s.index(player)
	if p < 0 || s.phase != phaseBid || !slices.Contains(s.contenders, p) || s.bids[p].in {
		return nil, false
	}
	return Bid{}, true
}
