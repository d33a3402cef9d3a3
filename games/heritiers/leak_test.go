package heritiers

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// TestNoLeak checks that no player's hand reaches what another may see:
// the public board and text, the other player's text and private view,
// and the errors the other player gets for steps naming those tiles'
// buildings
// (DESIGN.md "Hidden information"). Tile ids are whole words, so that
// guet-1 is not found in guet-10.
func TestNoLeak(t *testing.T) {
	for i := range 60 {
		n := 1 + i%2
		st := randomState(t, n, fmt.Sprintf("leak-%d", i))
		seats := []string{"alice", "bob"}[:n]
		for seat, p := range seats {
			for _, tl := range st.hands[seat] {
				id := st.tile(tl).ID
				re := regexp.MustCompile(`(^|[^\pL\d-])` + regexp.QuoteMeta(id) + `($|[^\pL\d-])`)
				var seen []string
				pub, _ := json.Marshal(st.Board())
				seen = append(seen, st.Text(""), string(pub))
				for _, q := range append(seats, Henri) {
					if q == p {
						continue
					}
					priv, _ := json.Marshal(st.Private(q))
					seen = append(seen, st.Text(q), string(priv))
					for _, step := range []string{"build " + st.tile(tl).Building.String() + " m12", "open " + st.tile(tl).Building.String() + " m12",
						"discard " + st.tile(tl).Building.String(), "take 1", "end"} {
						// What herald says back, without the step as the player wrote it.
						if err := tryErr(st.Clone(), q, step); err != nil {
							seen = append(seen, err.Error(), adjudicator.Localize(err, notation.French))
						}
					}
				}
				for _, s := range seen {
					if re.MatchString(s) {
						t.Fatalf("leak-%d: %s's tile %s is visible to others:\n%s", i, p, id, s)
					}
				}
			}
		}
		if strings.Contains(st.Text(""), "'s hand") {
			t.Fatalf("leak-%d: the public text shows a hand", i)
		}
	}
}

// tryErr parses and applies step for player and returns the error herald
// would explain, without the echo of the step.
func tryErr(st adjudicator.State, player, step string) error {
	steps, errs := notation.Split(step)
	if len(errs) > 0 {
		return errs
	}
	mv, err := st.Parse(player, steps[0])
	if err != nil {
		var ne *notation.Error
		if errors.As(err, &ne) {
			return errors.New(ne.Msg + " " + ne.MsgFR)
		}
		return err
	}
	return st.Apply(player, mv)
}
