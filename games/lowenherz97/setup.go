package lowenherz97

import (
	"slices"
	"strconv"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/internal/grid"
)

// gameMap returns the map of a game: the embedded default, or the data
// file given in the map option.
func gameMap(setup adjudicator.Setup) (*Map, error) {
	if text := setup.Options.String("map"); text != "" {
		return ParseMap("the map option", []byte(text))
	}
	return DefaultMap, nil
}

// newEmpty returns a state with the board empty, every player's money,
// knights and castles in hand, and the neutral colour set: with 3 players
// the fourth colour, with 2 the third (lowenherz-1997-fr.txt:86, 304).
func newEmpty(m *Map, names []string, terrain []Terrain) *State {
	n := len(names)
	seats := 4
	neutral := -1
	switch n {
	case 2:
		seats, neutral = 3, 2
	case 3:
		neutral = 3
	}
	s := &State{
		m:       m,
		names:   slices.Clone(names),
		seats:   seats,
		neutral: neutral,
		terrain: terrain,
		g:       grid.New(width, height),
		hands:   make([][]Political, n),
		bank:    totalMoney - n*startMoney,
		offerBy: -1,
		dirty:   true,
		castle:  new([width * height]int8),
		knight:  new([width * height]int8),
	}
	for i := range s.castle {
		s.castle[i], s.knight[i] = -1, -1
	}
	for c := range seats {
		s.reserve[c] = knightsEach
	}
	for p := range n {
		s.money[p] = startMoney
	}
	s.act.pol, s.act.looked = -1, -1
	return s
}

func newGame(setup adjudicator.Setup) (adjudicator.State, error) {
	m, err := gameMap(setup)
	if err != nil {
		return nil, err
	}
	rng := setup.RNG
	n := len(setup.Players)
	advanced := setup.Options.String("setup") == "advanced"
	terrain := m.Terrain
	if advanced {
		// The pieces shuffled into the frame, each turned at random
		// (lowenherz-1997-fr.txt:294).
		order := []string{m.Layout[0][0], m.Layout[0][1], m.Layout[0][2], m.Layout[1][0], m.Layout[1][1], m.Layout[1][2]}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		turns := make([]int, 6)
		for i := range turns {
			turns[i] = rng.IntN(4)
		}
		terrain = composeMap(m.Pieces, [2][3]string{{order[0], order[1], order[2]}, {order[3], order[4], order[5]}}, turns)
	}
	s := newEmpty(m, setup.Players, terrain)
	s.allianceAtAction = setup.Options.String("alliance") == "action"
	// The action cards: each letter shuffled apart, B on top to E at the
	// bottom; A on top of all in the advanced game (:88-91, 299).
	letters := "BCDE"
	if advanced {
		letters = "ABCDE"
	}
	for _, l := range []byte(letters) {
		var group []Card
		for _, c := range actionCards {
			if c.Letter == l {
				group = append(group, c)
			}
		}
		rng.Shuffle(len(group), func(i, j int) { group[i], group[j] = group[j], group[i] })
		s.deck = append(s.deck, group...)
	}
	// The political cards, shuffled into piles of 6 and 7 (:99-100).
	pol := slices.Clone(politicalCards)
	rng.Shuffle(len(pol), func(i, j int) { pol[i], pol[j] = pol[j], pol[i] })
	s.piles = [2][]Political{pol[:6:6], slices.Clone(pol[6:])}
	if n == 2 || advanced {
		// Each player places their castles and knights in turn, then the
		// neutral prince's (:295-307); 4 each and 2 neutral with 2
		// players, 3 each and 1 neutral with 3 (ruling L97-6).
		own, neutral := 3, 1
		if n == 2 {
			own, neutral = 4, 2
		}
		for range own {
			for p := range n {
				s.places = append(s.places, placement{p, p})
			}
		}
		if s.neutral >= 0 {
			for range neutral {
				for p := range n {
					s.places = append(s.places, placement{p, s.neutral})
				}
			}
		}
		for c := range s.seats {
			s.castles[c] = own
			if c == s.neutral {
				s.castles[c] = neutral * n
			}
		}
		s.phase = phasePlace
		return s, nil
	}
	// The basic start position (ruling L97-1).
	for c := range s.seats {
		st := m.Start[c]
		for i := range st.Castles {
			s.castle[st.Castles[i]] = int8(c)
			s.knight[st.Knights[i]] = int8(c)
		}
		s.reserve[c] -= len(st.Knights)
		for _, e := range st.Walls {
			s.g.SetWall(e, true)
		}
	}
	s.dirty = true
	s.startRound()
	return s, nil
}

// startRound turns action cards until one with three actions, scoring each
// Silberfund, or ends the game on the king's death
// (lowenherz-1997-fr.txt:114-127, 283-290).
func (s *State) startRound() {
	s.picks = nil
	s.tier = 0
	for {
		if len(s.deck) == 0 {
			// Cannot happen with the rulebook's cards: the king is in the
			// deck. A position without him ends here too.
			s.endGame()
			return
		}
		s.card = s.deck[0]
		s.deck = s.deck[1:]
		switch s.card.Special {
		case silberfund:
			s.logf("%s turns Silberfund: one power point per hill in one's regions", "%s retourne Silberfund : un point de pouvoir par colline de ses régions", s.names[s.first])
			s.scoreHills(adjudicator.Words{EN: "Silberfund", FR: "Silberfund"})
			continue
		case kingDead:
			s.logf("%s turns Der König ist tot: the game ends", "%s retourne Der König ist tot : la partie est finie", s.names[s.first])
			s.endGame()
			return
		}
		if !s.scratch {
			s.log(s.names[s.first]+" turns the action card "+s.card.String(), s.names[s.first]+" retourne la carte d'action "+s.card.French())
		}
		break
	}
	// Decision cards, one after the other clockwise from the first player;
	// the first player lays two with 2 or 3 players (:117-118, 308).
	s.decOrder = make([]int, 0, 5)
	n := len(s.names)
	for i := range n {
		p := (s.first + i) % n
		s.decOrder = append(s.decOrder, p)
		if i == 0 && n < 4 {
			s.decOrder = append(s.decOrder, p)
		}
	}
	s.picks = make([]pick, 0, len(s.decOrder)) // one a decision card
	s.decIdx = 0
	s.phase = phaseDecide
}

// scoreHills gives each player a power point per hill in their regions.
func (s *State) scoreHills(why adjudicator.Words) {
	_, ar := s.info()
	for p := range s.names {
		h := 0
		for i := range ar {
			if ar[i].region() && ar[i].owner == p {
				h += ar[i].hills
			}
		}
		if s.scratch { // which logs nothing
			s.addScore(p, h, adjudicator.Words{})
		} else {
			s.addScore(p, h, adjudicator.Words{EN: why.EN + ", " + strconv.Itoa(h) + " " + plural(h, "hill", "hills"),
				FR: why.FR + ", " + strconv.Itoa(h) + " " + plural(h, "colline", "collines")})
		}
	}
}

// endGame scores the hills and the fiefs and ends the game
// (lowenherz-1997-fr.txt:286-289).
func (s *State) endGame() {
	s.scoreHills(adjudicator.Words{EN: "the king is dead", FR: "le roi est mort"})
	for p, h := range s.hands {
		for _, c := range h {
			if c.Kind == Fief {
				s.addScore(p, c.Value, adjudicator.Words{EN: "fief", FR: "fief"})
			}
		}
	}
	s.phase = phaseOver
	res := s.Result()
	s.logf("%s", "%s", adjudicator.Words{EN: res.Summary, FR: res.SummaryFR})
}
