package heritiers

import (
	"fmt"

	"github.com/heraldgames/herald/adjudicator"
)

// treasureKind is one of Henri's ten treasure tokens: the condition that
// takes it off the board (deux-heritiers-fr.txt:522-538; their faces are
// lost, our design is RULINGS.md DH-20).
type treasureKind struct {
	name   string
	line   byte      // 'v' its column, 'h' its row, 'd' a layout
	colour int       // for 'v' and 'h': the colour, or -1 for brown (any)
	at     [2][2]int // for 'd': the two neighbours that must hold tiles
}

var treasureKinds = [...]treasureKind{
	{name: "v-green", line: 'v', colour: int(Green)},
	{name: "v-grey", line: 'v', colour: int(Grey)},
	{name: "v-yellow", line: 'v', colour: int(Yellow)},
	{name: "v-any", line: 'v', colour: -1},
	{name: "h-green", line: 'h', colour: int(Green)},
	{name: "h-grey", line: 'h', colour: int(Grey)},
	{name: "h-yellow", line: 'h', colour: int(Yellow)},
	{name: "h-any", line: 'h', colour: -1},
	{name: "d-nw-se", line: 'd', at: [2][2]int{{-1, -1}, {1, 1}}},
	{name: "d-ne-sw", line: 'd', at: [2][2]int{{-1, 1}, {1, -1}}},
}

func treasureByName(n string) (uint8, bool) {
	for i, k := range treasureKinds {
		if k.name == n {
			return uint8(i), true
		}
	}
	return 0, false
}

// describe says what takes the token off, for people; in French when fr
// is set.
func (k treasureKind) describe(fr bool) string {
	tr := pick(fr)
	col := tr("tiles", "tuiles")
	if k.colour >= 0 {
		col = tr(colourNames[k.colour]+" tiles", "tuiles "+colourTuileFR[k.colour]+"s")
	}
	switch k.line {
	case 'v':
		return "2 " + col + tr(" in its column", " dans sa colonne")
	case 'h':
		return "2 " + col + tr(" in its row", " dans sa rangée")
	}
	if k.at[0][1] == -1 {
		return tr("tiles on its top-left and bottom-right corners", "des tuiles sur ses coins en haut à gauche et en bas à droite")
	}
	return tr("tiles on its top-right and bottom-left corners", "des tuiles sur ses coins en haut à droite et en bas à gauche")
}

// treasureMet reports whether the token on cell i is to come off: its
// tile does not count (deux-heritiers-fr.txt:528-536).
func (s *State) treasureMet(i int, k treasureKind) bool {
	switch k.line {
	case 'd':
		return s.hasTile(neighbour(i, k.at[0][0], k.at[0][1])) && s.hasTile(neighbour(i, k.at[1][0], k.at[1][1]))
	}
	n := 0
	for j := 0; j < frameW; j++ {
		q := i/frameW*frameW + j // the row
		if k.line == 'v' {
			q = j*frameW + i%frameW // the column
		}
		if q == i {
			continue
		}
		if c, ok := s.colour(q); ok && (k.colour < 0 || int(c) == k.colour) {
			n++
		}
	}
	return n >= 2
}

// checkTreasures takes off the board every treasure whose condition is
// met: the player wins it back at once (RULINGS.md DH-20).
func (s *State) checkTreasures() {
	if !s.solo {
		return
	}
	for _, at := range s.placed {
		i := int(at)
		c := &s.cells[i]
		if c.treasure >= 0 && s.treasureMet(i, treasureKinds[c.treasure]) {
			s.won = append(s.won, uint8(c.treasure))
			c.treasure = -1
		}
	}
}

// henriTake returns the place Henri takes: the first tile from the shield
// of the colour of the stack's top, else the first tile
// (deux-heritiers-fr.txt:478-483). rule is "1a" for the first, "1b" for
// the second when the stack has a top, "1b-empty" when it has none.
func (s *State) henriTake() (p int, rule string, col Colour, err error) {
	if len(s.stack) > 0 {
		col = s.tile(s.stack[0]).Colour
		for p := 1; p <= 6; p++ {
			if t := s.ring[p-1]; t >= 0 && s.tile(t).Colour == col {
				return p, "1a", col, nil
			}
		}
		rule = "1b"
	} else {
		rule = "1b-empty"
	}
	for p := 1; p <= 6; p++ {
		if s.ring[p-1] >= 0 {
			return p, rule, col, nil
		}
	}
	return 0, "", 0, fmt.Errorf("the royal reserve is empty")
}

// takeWhy says why Henri takes place p, in English and French.
func takeWhy(p int, rule string, col Colour) (string, string) {
	switch rule {
	case "1a":
		return fmt.Sprintf("rule 1a: the top of the stack is %s, and place %d holds the first %s tile from the shield", col, p, col),
			fmt.Sprintf("règle 1a : le dessus de la pile est %s, et la place %d porte la première tuile %s depuis le bouclier", colourNamesFR[col], p, colourTuileFR[col])
	case "1b":
		return fmt.Sprintf("rule 1b: no %s tile in the royal reserve, so the first tile from the shield, at place %d", col, p),
			fmt.Sprintf("règle 1b : aucune tuile %s dans la réserve royale, donc la première tuile depuis le bouclier, place %d", colourTuileFR[col], p)
	}
	return fmt.Sprintf("rule 1b: the stack is empty, so the first tile from the shield, at place %d", p),
		fmt.Sprintf("règle 1b : la pile est vide, donc la première tuile depuis le bouclier, place %d", p)
}

// henriPlace returns where Henri builds tile t, or -1 to discard it, by
// which rule, and the tile he builds next to: the player's last building
// (the start tile before it); A joining one of its roads, else B blocking
// one, else C the first free place clockwise from the top, else D
// (deux-heritiers-fr.txt:487-503).
func (s *State) henriPlace(t int16) (q int, rule byte, ref int) {
	ref = int(s.lastBuilt)
	if ref < 0 {
		ref = int(s.startAt)
	}
	mine := s.tile(t).Roads.rotate() // Henri's tiles lie half turned (DH-6)
	roads := s.exits(ref)
	for _, r := range []byte{'A', 'B'} {
		for _, e := range edges {
			if roads&e.bit == 0 {
				continue
			}
			q := neighbour(ref, e.dr, e.dc)
			if q < 0 || s.cells[q].tile >= 0 {
				continue
			}
			joins := mine&e.back != 0
			if r == 'A' && joins || r == 'B' && !joins {
				return q, r, ref
			}
		}
	}
	for _, d := range around {
		q := neighbour(ref, d[0], d[1])
		if q >= 0 && s.cells[q].tile < 0 {
			return q, 'C', ref
		}
	}
	return -1, 'D', ref
}

// placeWhy says why Henri builds on q, in English and French.
func (s *State) placeWhy(q int, rule byte, ref int) (string, string) {
	refEN := fmt.Sprintf("%s's last building on %s", s.names[0], squareName(ref))
	// refFR follows « de », which it holds: « du dernier bâtiment d'alice ».
	refFR := fmt.Sprintf("du dernier bâtiment %s en %s", adjudicator.OfName(s.names[0]).FR, squareName(ref))
	if s.lastBuilt < 0 {
		refEN = fmt.Sprintf("the start tile on %s, %s having built nothing yet", squareName(ref), s.names[0])
		refFR = fmt.Sprintf("de la tuile de départ en %s, %s n'ayant encore rien construit", squareName(ref), s.names[0])
	}
	switch rule {
	case 'A':
		return fmt.Sprintf("rule A: on %s it joins the road of %s", squareName(q), refEN),
			fmt.Sprintf("règle A : en %s elle se relie à la route %s", squareName(q), refFR)
	case 'B':
		return fmt.Sprintf("rule B: on %s it blocks the road of %s", squareName(q), refEN),
			fmt.Sprintf("règle B : en %s elle bloque la route %s", squareName(q), refFR)
	case 'C':
		return fmt.Sprintf("rule C: %s is the first free place clockwise from the top around %s", squareName(q), refEN),
			fmt.Sprintf("règle C : %s est le premier emplacement libre dans le sens horaire depuis le haut autour %s", squareName(q), refFR)
	}
	return fmt.Sprintf("rule D: no free place around %s, so the tile leaves the game", refEN),
		fmt.Sprintf("règle D : aucun emplacement libre autour %s, la tuile est donc retirée de la partie", refFR)
}

// henriSteps returns Henri's steps now, with the reasons when why is set.
func (s *State) henriSteps(why bool) ([]adjudicator.AutoStep, error) {
	if !s.solo || s.over || s.turn != 1 {
		return nil, fmt.Errorf("it is not Henri's turn")
	}
	var steps []adjudicator.AutoStep
	t := s.henriTile
	if t < 0 {
		p, rule, col, err := s.henriTake()
		if err != nil {
			// Campements can empty the reserve in the last round: with
			// nothing to take, Henri's turn is over (RULINGS.md DH-19).
			st := adjudicator.AutoStep{Move: End{}}
			if why {
				st.Why = "the royal reserve is empty: Henri has nothing to take and passes"
				st.WhyFR = "la réserve royale est vide : Henri n'a rien à prendre et passe"
			}
			return []adjudicator.AutoStep{st}, nil
		}
		st := adjudicator.AutoStep{Move: Take{Place: p}}
		if why {
			st.Why, st.WhyFR = takeWhy(p, rule, col)
		}
		steps = append(steps, st)
		t = s.ring[p-1]
	}
	q, rule, ref := s.henriPlace(t)
	st := adjudicator.AutoStep{Move: Build{Tile: t, ID: s.tile(t).ID, Square: q, auto: true}}
	if q < 0 {
		st.Move = Discard{Tile: t, ID: s.tile(t).ID}
	}
	if why {
		st.Why, st.WhyFR = s.placeWhy(q, rule, ref)
	}
	return append(steps, st), nil
}

// Henri's rules for the tile he takes (deux-heritiers-fr.txt:480-481), or
// none to take (RULINGS.md DH-19).
const (
	ruleHenri1a   = "deux-heritiers-fr.txt:480"
	ruleHenri1b   = "deux-heritiers-fr.txt:481"
	ruleHenriPass = "RULINGS.md DH-19"
)

// Henri's rules for the place of his tile (deux-heritiers-fr.txt:495-501).
var henriPlaceRules = map[byte]string{
	'A': "deux-heritiers-fr.txt:495",
	'B': "deux-heritiers-fr.txt:497",
	'C': "deux-heritiers-fr.txt:499",
	'D': ruleDiscard,
}

// henriRule is the line of the rule that chooses Henri's next step, as
// henriSteps finds it: the tile he takes by 1a or 1b (l. 480, 481), or
// nothing to take (RULINGS.md DH-19), then where he builds it by A, B, C
// or D (l. 495-501).
func (s *State) henriRule() string {
	if s.henriTile < 0 {
		_, rule, _, err := s.henriTake()
		switch {
		case err != nil:
			return ruleHenriPass
		case rule == "1a":
			return ruleHenri1a
		}
		return ruleHenri1b
	}
	_, r, _ := s.henriPlace(s.henriTile)
	return henriPlaceRules[r]
}

// AutoSteps returns Henri's steps now: the tile he takes, then where he
// builds it or that he discards it, which ends his turn; each with the
// rule of his that chose it.
func (s *State) AutoSteps(seat string) ([]adjudicator.AutoStep, error) {
	if !s.solo || seat != Henri {
		return nil, fmt.Errorf("%s is not played by the game", seat)
	}
	return s.henriSteps(true)
}

// applyHenri plays one of Henri's steps, which must be the one his rules
// choose here.
func (s *State) applyHenri(m adjudicator.Move) error {
	steps, err := s.henriSteps(false)
	if err != nil {
		return err
	}
	want := steps[0]
	if m.String() != want.Move.String() {
		steps, _ = s.henriSteps(true)
		want = steps[0]
		return adjudicator.Rulef(adjudicator.CodeNotTheAutomaton, s.henriRule(), "Henri does not play %s here: he plays %s (%s)",
			"Henri ne joue pas %s ici : il joue %s (%s)", m.String(), want.Move.String(), adjudicator.Words{EN: want.Why, FR: want.WhyFR})
	}
	switch m := want.Move.(type) {
	case Take:
		s.take(1, m.Place)
	case Build:
		s.henriTile = -1
		s.place(1, m.Tile, m.Square)
		// A treasure on it, if any is left, and his troop of its colour
		// onto it (deux-heritiers-fr.txt:513-514).
		if len(s.treasures) > 0 {
			s.cells[m.Square].treasure = int8(s.treasures[0])
			s.treasures = s.treasures[1:]
		}
		s.troops[1][s.tile(m.Tile).Colour] = troop{at: int16(m.Square)}
		s.endTurn()
	case Discard:
		s.henriTile = -1
		s.removed = append(s.removed, m.Tile)
		s.endTurn()
	case End:
		s.endTurn()
	}
	return nil
}
