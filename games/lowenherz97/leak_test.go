package lowenherz97_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// probes are steps every player tries in the leak test, to compare the
// errors they get.
var probes = []string{
	"bid 0", "bid 5", "bid 3 treasure 8", "offer 1", "offer 7", "accept", "refuse", "yield",
	"choose 1", "choose 2 with renegade", "choose 3 with alliance a1 n1", "look 1", "look 2", "take renegade",
	"take treasure", "take fief 4", "wall e5 f5", "knight e5", "knight b1 treasure 5", "extend c1", "renegade b1 c2",
	"alliance a1 n1", "break a1 n1", "castle e5 knight e6", "end",
}

// TestLeaks checks, over random games of every size, that hidden
// information reaches nobody else: for each player, a position that differs
// only in what that player hides (their ducats, their political cards,
// their sealed bid) and in what nobody sees (the piles' cards, the order of
// the action cards) gives the same public board (Text(""), Board()), the
// same view, private view and legal steps to every other player, and the
// same answer to every step another player tries, error or not.
func TestLeaks(t *testing.T) {
	seeds := 80
	if testing.Short() {
		seeds = 15
	}
	altered := map[string]int{}
	for n := 2; n <= 4; n++ {
		players := colours[:n]
		for i := range seeds {
			seed := fmt.Sprintf("leak-%d-%d", n, i)
			st := randomState(t, n, seed)
			if i%2 == 1 {
				st = bidState(t, n, seed)
			}
			if st == nil || st.Result().Finished {
				continue
			}
			for _, p := range players {
				for _, what := range []string{"ducats", "political", "bid", "piles", "deck"} {
					other, ok := alter(t, st, players, p, what)
					if !ok {
						continue
					}
					altered[what]++
					owners := []string{p}
					if what == "ducats" {
						owners = append(owners, players[(slices.Index(players, p)+1)%n])
					}
					compareViews(t, fmt.Sprintf("%s, %s's %s altered", seed, p, what), st, other, players, owners)
				}
			}
		}
	}
	for _, what := range []string{"ducats", "political", "bid", "piles", "deck"} {
		if altered[what] == 0 {
			t.Errorf("no state had a %s to alter", what)
		}
	}
	t.Logf("states altered: %v", altered)
}

// compareViews fails unless everything but the owners' own views is the same in
// a and b.
func compareViews(t *testing.T, what string, a, b adjudicator.State, players []string, owners []string) {
	t.Helper()
	if x, y := a.Text(""), b.Text(""); x != y {
		t.Fatalf("%s: the public board changed:\n%s\n---\n%s", what, x, y)
	}
	if x, y := boardJSON(t, a), boardJSON(t, b); x != y {
		t.Fatalf("%s: Board() changed:\n%s\n---\n%s", what, x, y)
	}
	for _, q := range players {
		if slices.Contains(owners, q) {
			continue
		}
		if x, y := a.Text(q), b.Text(q); x != y {
			t.Fatalf("%s: %s's view changed:\n%s\n---\n%s", what, q, x, y)
		}
		if x, y := privateJSON(t, a, q), privateJSON(t, b, q); x != y {
			t.Fatalf("%s: %s's private view changed: %s / %s", what, q, x, y)
		}
		if x, y := moveStrings(a.Legal(q)), moveStrings(b.Legal(q)); x != y {
			t.Fatalf("%s: %s's legal steps changed", what, q)
		}
		// After an accepted step the next action card may be turned:
		// a deck in another order then shows another card, rightly.
		// A pile looked at shows its cards to the one who looks, rightly.
		mode := "full"
		switch {
		case strings.HasSuffix(what, "deck altered"):
			mode = "bare"
		case strings.HasSuffix(what, "piles altered"), strings.HasSuffix(what, "political altered"):
			mode = "public"
		}
		for _, text := range probes {
			if x, y := answer(a, q, text, mode), answer(b, q, text, mode); x != y {
				t.Fatalf("%s: %s's step %q gets %q in one and %q in the other", what, q, text, x, y)
			}
		}
	}
}

// answer is what player is told after trying text on a copy of st, in
// both languages, and their view after it (mode full), the public board
// after it (public) or nothing more (bare).
func answer(st adjudicator.State, player, text string, mode string) string {
	c := st.Clone()
	steps, errs := notation.Split(text)
	if len(errs) > 0 || len(steps) != 1 {
		return "split"
	}
	mv, err := c.Parse(player, steps[0])
	if err == nil {
		if cerr := adjudicator.CanAct(c, player); cerr != nil {
			err = cerr
		} else {
			err = c.Apply(player, mv)
		}
	}
	if err != nil {
		return adjudicator.Localize(err, notation.English) + " | " + adjudicator.Localize(err, notation.French)
	}
	bidders, in := st.(*lowenherz97.State).SealedRound()
	closes := bidders != nil
	for i, b := range bidders {
		closes = closes && (in[i] || b == player)
	}
	switch {
	case mode == "bare" || closes || c.Result().Finished:
		// The last bid came in, or the game ended: the bids, or the
		// fiefs, are revealed, rightly.
		return "ok"
	case mode == "public":
		return "ok\n" + c.Text("")
	}
	return "ok\n" + c.Text(player)
}

func moveStrings(ms []adjudicator.Move) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func privateJSON(t *testing.T, st adjudicator.State, p string) string {
	t.Helper()
	data, err := json.Marshal(st.Private(p))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// alter returns st with one hidden thing changed through the position
// format, and whether there was one to change.
func alter(t *testing.T, st adjudicator.State, players []string, p, what string) (adjudicator.State, bool) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(kit.PositionBytes(t, st), &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	pl := lookup(lookup(root, "players"), p)
	switch what {
	case "ducats":
		// One ducat moves to the next player, whose view is then not
		// compared: the bank lies face up (RULINGS.md L97-2), so the
		// players' total is public, each player's share is not.
		d := lookup(pl, "ducats")
		next := players[(slices.Index(players, p)+1)%len(players)]
		d2 := lookup(lookup(lookup(root, "players"), next), "ducats")
		dv, _ := strconv.Atoi(d.Value)
		dv2, _ := strconv.Atoi(d2.Value)
		if dv == 0 || len(players) < 3 {
			return nil, false
		}
		d.Value, d2.Value = strconv.Itoa(dv-1), strconv.Itoa(dv2+1)
	case "political":
		hand, piles := lookup(pl, "political"), lookup(root, "piles")
		if len(hand.Content) == 0 {
			return nil, false
		}
		swapped := false
		for i, pile := range piles.Content {
			if act := lookup(root, "action"); act != nil && lookup(act, "looking") != nil && lookup(act, "looking").Value == strconv.Itoa(i+1) {
				continue // seen by the actor
			}
			for _, c := range pile.Content {
				if c.Value != hand.Content[0].Value {
					c.Value, hand.Content[0].Value = hand.Content[0].Value, c.Value
					swapped = true
					break
				}
			}
			if swapped {
				break
			}
		}
		if !swapped {
			return nil, false
		}
	case "bid":
		b := lookup(pl, "bid")
		if b == nil {
			return nil, false
		}
		if b.Value == "0" {
			b.Value = "1"
		} else {
			b.Value = "0"
		}
	case "piles":
		piles := lookup(root, "piles")
		a, c := piles.Content[0], piles.Content[1]
		if len(a.Content) == 0 || len(c.Content) == 0 || a.Content[0].Value == c.Content[0].Value {
			return nil, false
		}
		if act := lookup(root, "action"); act != nil && lookup(act, "looking") != nil {
			return nil, false // the actor sees the pile: only they may differ
		}
		a.Content[0].Value, c.Content[0].Value = c.Content[0].Value, a.Content[0].Value
	case "deck":
		deck := lookup(root, "deck")
		if len(deck.Content) < 2 || deck.Content[0].Value == deck.Content[1].Value {
			return nil, false
		}
		deck.Content[0].Value, deck.Content[1].Value = deck.Content[1].Value, deck.Content[0].Value
	}
	var b bytes.Buffer
	if err := yaml.NewEncoder(&b).Encode(&doc); err != nil {
		t.Fatal(err)
	}
	other, err := loadPosition(players, b.String())
	if err != nil {
		return nil, false // a bid above the ducats left, say
	}
	return other, true
}

// lookup returns the value of key in the mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// bidState walks a game from seed until a confrontation has a bid in and
// another to come; nil if the game ends first.
func bidState(t *testing.T, n int, seed string) adjudicator.State {
	t.Helper()
	st := kit.NewState(t, colours[:n], seed, nil)
	rng := adjudicator.NewRNG("bid\x00" + seed)
	for gametest.Walk(t, st, rng, 1) == 1 {
		bidders, in := st.(*lowenherz97.State).SealedRound()
		if bidders != nil && slices.Contains(in, true) {
			return st
		}
	}
	return nil
}
