package lowenherz97

import (
	"slices"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// Sealed reports whether player's step m, taken now, is sealed: a bid in
// an open confrontation, which nobody else may see until every bid is in
// (lowenherz-1997-fr.txt:214-215: "Les joueurs révèlent leurs cartes
// simultanément"). Every other step of this game is open.
func (s *State) Sealed(player string, m adjudicator.Move) bool {
	switch m.(type) {
	case Bid, *Bid:
		return s.phase == phaseBid && slices.Contains(s.ToMove(), player)
	}
	return false
}

// SealRound names the open confrontation, 0 when none is: each one opened
// in the game, a tie's rebid included, gets the next number, so that the
// bids of the first round of a tie are revealed when it ends, as the
// rulebook's players show their cards before they rebid (line 216). A
// game started from a position in a confrontation numbers that one 1.
func (s *State) SealRound() int {
	if s.phase != phaseBid {
		return 0
	}
	return s.sealRound
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
// bid, the step itself for any other.
func (s *State) PublicStep(player string, m adjudicator.Move, lang notation.Lang) string {
	switch m.(type) {
	case Bid, *Bid:
		if lang == notation.French {
			return player + " a misé"
		}
		return player + " has bid"
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
