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
		if castles[c]+s.players[c].castles != castlesEach(len(s.names)) {
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
	n := len(s.deck) + len(s.market) + s.discard
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
	players := []string{"red", "blue", "yellow", "green"}[:n]
	opts, _ := Game.ResolveOptions(nil)
	st, err := Game.New(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG(seed)})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
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
		if check {
			checkInvariants(t, s, fmt.Sprintf("seed %s step %d (%s)", seed, step, mv))
			if step%25 == 0 {
				checkRoundTrip(t, s, players, fmt.Sprintf("seed %s step %d", seed, step))
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
		ends := map[bool]int{}
		for i := range games {
			s := playRandom(t, n, fmt.Sprintf("%d-%d", n, i), true)
			ends[s.kingEnd]++
		}
		t.Logf("%d players: %d games, %d ended on the king's marker", n, games, ends[true])
	}
}
