package games

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
)

// TestNotYourTurnCitesTurnOrder: a step from a player who is not to move
// cites the rulebook line on who plays when (Game.TurnRule), which a
// referee's scenario may name as the rule broken; the line is in the
// rulebook. Löwenherz 1997 names none: its phases each have their own
// order.
func TestNotYourTurnCitesTurnOrder(t *testing.T) {
	for _, g := range All.Games() {
		t.Run(g.Name, func(t *testing.T) {
			if g.TurnRule == "" {
				if g.Name != "lowenherz97" {
					t.Fatalf("%s cites no turn order", g.Name)
				}
				return
			}
			cite := gametest.NewCitations(t, filepath.Join("..", "..", "shared", "rules", g.Rulebook), filepath.Join("..", "RULINGS.md"), "")
			if err := cite.Check(g.TurnRule); err != nil {
				t.Error(err)
			}
			rec, err := adjudicator.NewRecord(g, []string{"red", "blue"}, nil, "turn", nil)
			if err != nil {
				t.Fatal(err)
			}
			m, err := adjudicator.Start(All, rec)
			if err != nil {
				t.Fatal(err)
			}
			var idle string
			for _, p := range []string{"red", "blue"} {
				if len(m.State.Legal(p)) == 0 {
					idle = p
				}
			}
			if idle == "" {
				t.Skip("both players may act at the start")
			}
			mover := m.State.ToMove()[0]
			step := m.State.Legal(mover)[0].String()
			_, err = m.Submit(idle, step, "", "test")
			var re *adjudicator.RuleError
			if !errors.As(err, &re) || re.Code != adjudicator.CodeNotYourTurn || re.Rule != g.TurnRule {
				t.Errorf("%s plays %q: %v, want not-your-turn citing %s", idle, step, err, g.TurnRule)
			}
		})
	}
}
