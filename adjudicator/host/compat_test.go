package host_test

import (
	"context"
	"os"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// TestStoredGameBeforeOption: a game stored before Löwenherz 1997 had option
// alliance, its options without the name, is read as the option's Before
// (alliance=action, the rule it began under) and goes on: the next player
// names their alliance's regions at the action, as the game's first moves
// laid the card bare. The stored header keeps its options as they were.
func TestStoredGameBeforeOption(t *testing.T) {
	data, err := os.ReadFile("../../games/lowenherz97/testdata/alliance-at-action-c92e436.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := adjudicator.ParseRecord("alliance-at-action-c92e436.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	// The game as it was stored after its second move: both alliance
	// cards laid bare; gold carries out its action next.
	next := rec.Moves[2]
	rec.Moves, rec.Ended = rec.Moves[:2], nil
	if _, ok := rec.Options["alliance"]; ok {
		t.Fatalf("the old record names option alliance: %v", rec.Options)
	}
	r := newRig(t, false)
	var id int64
	err = r.st.Process(context.Background(), host.Intake{MessageID: "old-game", BodyHash: "h", Sender: "h@x.org", Received: r.clock}, func(tx host.Tx) error {
		var err error
		id, err = tx.CreateGame(context.Background(), "h@x.org", "hk", rec, []host.Player{
			{Name: "gold", Address: "gold@x.org", Secret: "kg"}, {Name: "purple", Address: "purple@x.org", Secret: "kp"}})
		tx.SetOutcome("created", id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r.keys[host.HashKey("kg")] = "kg"
	gold := r.game(id).Players[0]
	rep := r.send(id, gold.Address, "key "+gold.Secret+"\n"+next.Text)
	if rep.Outcome != host.Applied {
		t.Fatalf("gold's %q in the stored game: %+v", next.Text, rep)
	}
	got := r.game(id).Record
	if len(got.Moves) != 3 || got.Moves[2].Text != next.Text {
		t.Errorf("stored moves: %+v", got.Moves)
	}
	if _, ok := got.Options["alliance"]; ok {
		t.Errorf("the stored options changed: %v", got.Options)
	}
}
