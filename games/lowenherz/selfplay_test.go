package lowenherz

import (
	"bytes"
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"gopkg.in/yaml.v3"
)

var soak = flag.Int("soak", 300, "self-play games per player count in TestSelfPlayInvariants")

// checkInvariants checks what must hold after every step: the markers
// equal the score recomputed from the borders alone (plus the ducat bonus
// once given), every piece and all 60 cards are accounted for, and the
// borders on the board match the count.
func checkInvariants(t testing.TB, s *State, where string) {
	t.Helper()
	fresh := s.clone()
	fresh.recompute()
	base := fresh.base()
	for i := range s.names {
		want := base[i]
		if s.bonus != nil {
			want += s.bonus[i]
		}
		if s.players[i].score != want {
			t.Fatalf("%s: %s's marker is %d, the board gives %d", where, s.names[i], s.players[i].score, want)
		}
	}
	if fresh.border != s.border {
		t.Fatalf("%s: a border lies inside a domain", where)
	}
	// The regions a border or a knight updates in place (placeBorder,
	// placeKnight) are the ones recompute finds from the board (during the
	// setup, which has neither, the castles are counted at its end).
	if s.phase != phaseSetup && (fresh.region != s.region || !slices.Equal(fresh.regions, s.regions)) {
		t.Fatalf("%s: the regions kept are not the board's:\n%+v\nrecomputed:\n%+v", where, s.regions, fresh.regions)
	}
	borders := 0
	for _, b := range s.border {
		if b {
			borders++
		}
	}
	if borders != s.bordersOnBoard || borders > bordersTotal {
		t.Fatalf("%s: %d borders on the board, count %d", where, borders, s.bordersOnBoard)
	}
	knights := make([]int, s.colours)
	castles := make([]int, s.colours)
	for q := range s.piece {
		if c := s.piece[q]; c >= 0 {
			if s.castle[q] {
				castles[c]++
			} else {
				knights[c]++
			}
		}
	}
	for c := range s.colours {
		if knights[c]+s.players[c].knights != knightsEach {
			t.Fatalf("%s: colour %d has %d knights on the board and %d in supply", where, c, knights[c], s.players[c].knights)
		}
		if castles[c]+s.players[c].castles != colourCastles(len(s.names), c) {
			t.Fatalf("%s: colour %d has %d castles on the board and %d to place", where, c, castles[c], s.players[c].castles)
		}
	}
	cards := map[Card]int{}
	for _, c := range s.deck {
		cards[c]++
	}
	for _, c := range s.market {
		cards[c]++
	}
	for _, c := range s.discard {
		cards[c]++
	}
	n := len(s.deck) + len(s.market) + len(s.discard)
	for i := range s.names {
		for _, c := range s.players[i].hand {
			cards[c]++
		}
		n += len(s.players[i].hand)
	}
	if n != 60 {
		t.Fatalf("%s: %d cards in all, not 60", where, n)
	}
	for c, k := range cards {
		if k > cardTable[c].count {
			t.Fatalf("%s: %d %s cards, the game has %d", where, k, c, cardTable[c].count)
		}
	}
}

// playRandom plays one game with random legal steps, checking the
// invariants after each step and the position round trip now and then.
// It prefers playing cards to selling them so that domains form.
func playRandom(t testing.TB, n int, seed string, check bool) *State {
	return play(t, n, seed, check, true)
}

// play plays one random game; with walls, border steps favour the boxes
// around the mover's castles (see closer).
func play(t testing.TB, n int, seed string, check, walls bool) *State {
	s := newState(t, n, seed)
	rng := adjudicator.NewRNG("play\x00" + seed)
	for step := 0; ; step++ {
		to := s.ToMove()
		if len(to) == 0 {
			return s
		}
		legal := s.Legal(to[0])
		if len(legal) == 0 {
			t.Fatalf("seed %s step %d: %s has no legal step\n%s", seed, step, to[0], s.Text(""))
		}
		mv := legal[rng.IntN(len(legal))]
		// Prefer playing a card, and border steps before refilling.
		for range 3 {
			switch mv.(type) {
			case Sell, Draw, Take:
				mv = legal[rng.IntN(len(legal))]
			}
		}
		if _, ok := mv.(*BorderStep); ok && walls && rng.IntN(5) > 0 {
			mv = closer(s, to[0], legal, rng)
		}
		if check {
			// Every listed step is printed and read back to itself.
			parsed, err := parseText(s, to[0], mv.String())
			if err != nil || !sameMove(parsed, mv) {
				t.Fatalf("seed %s step %d: %q read back as %v (%v)", seed, step, mv, parsed, err)
			}
		}
		if err := s.Apply(to[0], mv); err != nil {
			t.Fatalf("seed %s step %d: listed step %q refused: %v", seed, step, mv, err)
		}
		if countSteps {
			stepKinds[fmt.Sprintf("%T", mv)]++
		}
		if check {
			checkInvariants(t, s, fmt.Sprintf("seed %s step %d (%s)", seed, step, mv))
			if step%25 == 0 {
				checkRoundTrip(t, s, s.names, fmt.Sprintf("seed %s step %d", seed, step))
			}
		}
	}
}

func sameMove(a, b adjudicator.Move) bool { return a != nil && a.String() == b.String() }

// checkRoundTrip writes the position, reads it back and writes it again:
// the same bytes, and the same view.
func checkRoundTrip(t testing.TB, s *State, players []string, where string) {
	t.Helper()
	out1, err := yaml.Marshal(s.Position())
	if err != nil {
		t.Fatal(err)
	}
	var n yaml.Node
	if err := yaml.Unmarshal(out1, &n); err != nil {
		t.Fatal(err)
	}
	opts, _ := Game.ResolveOptions(nil)
	st, err := Game.LoadPosition(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG("x")}, &n)
	if err != nil {
		t.Fatalf("%s: position read back: %v\n%s", where, err, out1)
	}
	out2, _ := yaml.Marshal(st.Position())
	if !bytes.Equal(out1, out2) {
		t.Fatalf("%s: position round trip differs:\n%s\n---\n%s", where, out1, out2)
	}
	if a, b := s.Text(players[0]), st.Text(players[0]); a != b {
		t.Fatalf("%s: board differs after the round trip:\n%s\n---\n%s", where, a, b)
	}
	if !slices.Equal(s.Scores(), st.Scores()) {
		t.Fatalf("%s: scores differ after the round trip", where)
	}
}

func TestSelfPlayInvariants(t *testing.T) {
	games := *soak
	if testing.Short() {
		games = 20
	}
	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			t.Parallel()
			for i := range games {
				playRandom(t, n, fmt.Sprintf("%d-%d", n, i), true)
			}
		})
	}
}

// stepKinds counts the steps random games took, by type, for
// TestSelfPlayStats.
var stepKinds = map[string]int{}

// countSteps turns the counting on; only TestSelfPlayStats, which runs
// alone, sets it.
var countSteps bool

func TestSelfPlayStats(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("statistics: run with -v")
	}
	countSteps = true
	defer func() { countSteps = false }()
	for n := 2; n <= 4; n++ {
		domains, kings, steps := 0, 0, 0
		for i := range 50 {
			s := playRandom(t, n, fmt.Sprint("stats", i), false)
			for r := range s.regions {
				if s.regions[r].domain() {
					domains++
				}
			}
			if s.kingEnd {
				kings++
			}
			_ = steps
		}
		t.Logf("%d players: %d domains at the end of 50 games, %d king ends; steps %v", n, domains, kings, stepKinds)
		clear(stepKinds)
	}
}

// closer picks a border on the box around one of the mover's castles
// not yet in a domain (2 squares each way, clipped by the rim), so that
// random games close domains and reach extensions, deserters, alliances
// and the king's marker.
func closer(s *State, player string, legal []adjudicator.Move, rng *adjudicator.RNG) adjudicator.Move {
	p := s.index(player)
	ok := map[Edge]bool{}
	for _, m := range legal {
		if b, isB := m.(*BorderStep); isB {
			ok[b.Edge] = true
		}
	}
	k := 1 + rng.IntN(2)
	for q := Square(0); q < Size*Size; q++ {
		if !s.castle[q] || int(s.piece[q]) != p || s.regionOf(q).domain() {
			continue
		}
		r0, r1 := max(q.Row()-k, 0), min(q.Row()+k, Size-1)
		c0, c1 := max(q.Col()-k, 0), min(q.Col()+k, Size-1)
		var cands []Edge
		for r := r0; r <= r1; r++ {
			if c0 > 0 {
				cands = append(cands, edgeOf(sq(r, c0), West))
			}
			if c1 < Size-1 {
				cands = append(cands, edgeOf(sq(r, c1), East))
			}
		}
		for c := c0; c <= c1; c++ {
			if r0 > 0 {
				cands = append(cands, edgeOf(sq(r0, c), North))
			}
			if r1 < Size-1 {
				cands = append(cands, edgeOf(sq(r1, c), South))
			}
		}
		var legalC []Edge
		for _, e := range cands {
			if ok[e] {
				legalC = append(legalC, e)
			}
		}
		if len(legalC) > 0 {
			return BorderStep{Edge: legalC[rng.IntN(len(legalC))]}
		}
	}
	return legal[rng.IntN(len(legal))]
}

// TestFastChecks holds the fast predicates Legal uses to the checks Apply
// uses, on every edge and square of positions from random games (and of
// one whose meadows are all forests), and playable, with what it found
// for the cards before, to playOK.
func TestFastChecks(t *testing.T) {
	for i := range 12 {
		n := 2 + i%3
		s := playRandom(t, n, fmt.Sprint("fast", i), false)
		// playRandom plays to the end; check the final board, then a
		// mid-game one.
		// And the mid-game board with every meadow a forest, where a
		// knight needs a ducat left over.
		forest := midGame(t, n, fmt.Sprint("fast", i))
		for q, tr := range forest.terrain {
			if tr == Meadow {
				forest.terrain[q] = Forest
			}
		}
		for _, st := range []*State{s, midGame(t, n, fmt.Sprint("fast", i)), forest} {
			for p := range st.names {
				var checks cardChecks // what one listing finds, card after card
				ducats := st.players[p].ducats
				for _, c := range deckOrder {
					st.players[p].hand = []Card{c}
					for _, o := range c.Kind.options() {
						m := Play{Card: c, Action: o.act}
						if st.playOK(p, m) != (st.checkPlay(p, m) == nil) {
							t.Fatalf("play %s for %s: fast %v, check %v", m, st.names[p], st.playOK(p, m), st.checkPlay(p, m))
						}
						// With the ducats the game gave, then with none
						// left over and with some (a forest's knight).
						for _, d := range []int{ducats, c.Cost(), c.Cost() + 1} {
							st.players[p].ducats = d
							if st.playable(p, m, &checks) != st.playOK(p, m) {
								t.Fatalf("play %s for %s with %d ducats: playable %v, playOK %v (found before: %+v)", m, st.names[p], d, !st.playOK(p, m), st.playOK(p, m), checks)
							}
						}
						st.players[p].ducats = ducats
					}
				}
				var borders []string
				for _, m := range st.appendBorderSteps(nil) {
					borders = append(borders, m.String())
				}
				var want []string
				for _, e := range boardEdges {
					if st.borderOK(e) {
						want = append(want, borderSteps[e].String())
					}
				}
				if !slices.Equal(borders, want) {
					t.Fatalf("appendBorderSteps lists %v, borderOK passes %v", borders, want)
				}
				for e := Edge(0); e < numEdges; e++ {
					if !e.valid() {
						continue
					}
					if st.borderOK(e) != (st.checkBorder(p, e) == nil) {
						t.Fatalf("border %s: fast %v, check %v", e, st.borderOK(e), st.checkBorder(p, e))
					}
					if st.allianceOK(p, e) != (st.checkAlliance(p, e) == nil) {
						t.Fatalf("alliance %s for %s: fast %v, check %v", e, st.names[p], st.allianceOK(p, e), st.checkAlliance(p, e))
					}
				}
				for q := Square(0); q < Size*Size; q++ {
					for _, ducats := range []int{0, 5} {
						if st.knightOK(p, q, ducats) != (st.checkKnight(p, q, ducats) == nil) {
							t.Fatalf("knight %s for %s: fast %v, check %v", q, st.names[p], st.knightOK(p, q, ducats), st.checkKnight(p, q, ducats))
						}
					}
					for d := Square(0); d < Size*Size; d++ {
						if st.castle[d] && st.extendOK(p, q, d) != (st.checkExtendSquare(p, q, d) == nil) {
							t.Fatalf("extend %s from %s for %s: fast %v, check %v", q, d, st.names[p], st.extendOK(p, q, d), st.checkExtendSquare(p, q, d))
						}
					}
				}
			}
		}
	}
}

// midGame returns a random game stopped halfway through its deck.
func midGame(t testing.TB, n int, seed string) *State {
	s := newState(t, n, seed)
	rng := adjudicator.NewRNG("mid" + seed)
	for len(s.deck) > 25 && len(s.ToMove()) > 0 {
		p := s.ToMove()[0]
		l := s.Legal(p)
		mv := l[rng.IntN(len(l))]
		if _, ok := mv.(*BorderStep); ok {
			mv = closer(s, p, l, rng)
		}
		if err := s.Apply(p, mv); err != nil {
			t.Fatal(err)
		}
	}
	return s
}
