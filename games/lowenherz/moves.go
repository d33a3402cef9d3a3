package lowenherz

import (
	"github.com/heraldgames/herald/notation"
)

// Place is the setup step: a castle, and a knight beside it.
type Place struct {
	Castle, Knight Square
	pos, kpos      notation.Pos
}

func (m Place) String() string {
	if m.Castle >= 0 && m.Castle < Size*Size {
		for d := North; d <= West; d++ {
			if m.Knight >= 0 && m.Castle.neighbour(d) == m.Knight {
				return placeNames[m.Castle][d]
			}
		}
	}
	return "castle " + m.Castle.String() + " knight " + m.Knight.String()
}

// Sell sells a card from the hand to the market for its blue value.
type Sell struct {
	Card Card
	pos  notation.Pos
}

func (m Sell) String() string {
	if l := int(m.Card.Letter) - 'A'; l >= 0 && l < len(cardStepNames.sell) && m.Card.Kind < numCardKinds {
		return cardStepNames.sell[l][m.Card.Kind]
	}
	return "sell " + m.Card.String()
}

// Play plays a card from the hand for its red cost, choosing one of its
// actions.
type Play struct {
	Card   Card
	Action Action
	pos    notation.Pos
	actPos notation.Pos
}

func (m Play) String() string {
	if l := int(m.Card.Letter) - 'A'; l >= 0 && l < len(playNames) && m.Card.Kind < numCardKinds && m.Action < numActions {
		return playNames[l][m.Card.Kind][m.Action]
	}
	return m.name()
}

// name returns m's notation, made anew.
func (m Play) name() string {
	if len(m.Card.Kind.options()) > 1 {
		return "play " + m.Card.String() + " as " + m.Action.String()
	}
	return "play " + m.Card.String()
}

// BorderStep places one border.
type BorderStep struct {
	Edge Edge
	pos  notation.Pos
}

func (m BorderStep) String() string {
	if m.Edge.valid() {
		return borderNames[m.Edge]
	}
	return "border " + m.Edge.String()
}

// KnightStep places one knight.
type KnightStep struct {
	Square Square
	pos    notation.Pos
}

func (m KnightStep) String() string {
	if m.Square >= 0 && m.Square < Size*Size {
		return knightNames[m.Square]
	}
	return "knight " + m.Square.String()
}

// Extend annexes one or two squares to a domain; Domain names the domain's
// castle when the first square touches several of the player's domains.
type Extend struct {
	Squares []Square
	Domain  Square
	pos     []notation.Pos
	dpos    notation.Pos
}

func (m Extend) String() string {
	s := "extend"
	for _, q := range m.Squares {
		s += " " + q.String()
	}
	if m.Domain >= 0 {
		s += " domain " + m.Domain.String()
	}
	return s
}

// DeserterStep removes an opponent's knight (From) and places one of the
// player's (To).
type DeserterStep struct {
	From, To  Square
	pos, tpos notation.Pos
}

func (m DeserterStep) String() string { return "deserter " + m.From.String() + " " + m.To.String() }

// AllianceStep turns the border Edge between one of the player's domains
// and an opponent's.
type AllianceStep struct {
	Edge Edge
	pos  notation.Pos
}

func (m AllianceStep) String() string { return "alliance " + m.Edge.String() }

// Draw refills the hand from the deck.
type Draw struct{}

func (Draw) String() string { return "draw" }

// Take refills the hand from the market.
type Take struct {
	Card Card
	pos  notation.Pos
}

func (m Take) String() string {
	if l := int(m.Card.Letter) - 'A'; l >= 0 && l < len(cardStepNames.take) && m.Card.Kind < numCardKinds {
		return cardStepNames.take[l][m.Card.Kind]
	}
	return "take " + m.Card.String()
}

// End ends a turn that has no refill: the deck is out.
type End struct{}

func (End) String() string { return "end" }
