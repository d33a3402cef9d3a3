package lowenherz97_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/lowenherz97"
	"gopkg.in/yaml.v3"
)

// The record of a game played on main at c92e436, before alliances named
// their regions with the card (deae588): both princes lay an alliance bare,
// choose 2 alliance, and name its regions at the action, alliance a1 d1.
// The .adjudicate.txt and .position.yaml beside it are what herald adjudicate
// and show --format position wrote of it then.
const oldRecord = "testdata/alliance-at-action-c92e436"

// TestRecordBeforeAllianceOption replays a record that predates option
// alliance: it means alliance=action (its Before), and the replay judges
// every move and ends in the position and scores it did when it was played
// (RULINGS.md L97-11).
func TestRecordBeforeAllianceOption(t *testing.T) {
	data, err := os.ReadFile(oldRecord + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := adjudicator.ParseRecord(oldRecord+".yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.Options["alliance"]; ok {
		t.Fatalf("the old record names option alliance: %v", rec.Options)
	}
	rep, err := adjudicator.Adjudicate(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Illegal != nil {
		t.Fatalf("move %d (%s) refused: %v", rep.Illegal.Number, rep.Illegal.Player, rep.Illegal.Err)
	}
	var got bytes.Buffer
	rep.Write(&got)
	want, err := os.ReadFile(oldRecord + ".adjudicate.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("adjudicate report:\n%s\nwant, as at c92e436:\n%s", got.String(), want)
	}
	got.Reset()
	enc := yaml.NewEncoder(&got)
	enc.SetIndent(2)
	if err := enc.Encode(rep.Match.State.Position()); err != nil {
		t.Fatal(err)
	}
	want, err = os.ReadFile(oldRecord + ".position.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("final position:\n%s\nwant, as at c92e436:\n%s", got.String(), want)
	}
}

// TestAllianceOptionNewGame: a new game writes alliance=laid in its record
// and refuses the bare card; alliance=action, given, is written too and
// takes the bare card and the step at the action.
func TestAllianceOptionNewGame(t *testing.T) {
	var pos yaml.Node
	if err := yaml.Unmarshal([]byte(alliancePosition), &pos); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		opts  map[string]string
		want  string
		moves [][2]string // player, steps
		err   string      // the last move's refusal, "" for none
	}{
		{nil, "laid", [][2]string{{"gold", "choose 3; choose 1"}, {"purple", "choose 2 with alliance"}},
			"an alliance names its two regions as its card is laid"},
		{nil, "laid", [][2]string{{"gold", "choose 3; choose 1"}, {"purple", "choose 2 with alliance d1 a1"}, {"purple", "alliance d1 a1"}},
			"an alliance's regions are named when its card is laid"},
		{map[string]string{"alliance": "action"}, "action", [][2]string{{"gold", "choose 3; choose 1"}, {"purple", "choose 2 with alliance"}, {"purple", "alliance d1 a1; end"}}, ""},
	}
	for _, tt := range tests {
		rec, err := adjudicator.NewRecord(lowenherz97.Game, []string{"gold", "purple"}, tt.opts, "s", pos.Content[0])
		if err != nil {
			t.Fatal(err)
		}
		if rec.Options["alliance"] != tt.want {
			t.Errorf("NewRecord(%v): options %v, want alliance=%s written", tt.opts, rec.Options, tt.want)
		}
		m, err := adjudicator.Start(reg, rec)
		if err != nil {
			t.Fatal(err)
		}
		for i, mv := range tt.moves {
			_, err := m.Submit(mv[0], mv[1], "2026-11-27T08:00:00Z", "test")
			last := i == len(tt.moves)-1
			switch {
			case last && tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("alliance=%s: %s %q: got %v, want %q", tt.want, mv[0], mv[1], err, tt.err)
				}
			case err != nil:
				t.Fatalf("alliance=%s: %s %q refused: %v", tt.want, mv[0], mv[1], err)
			}
		}
	}
}

// alliancePosition is the position of testdata/lowenherz97/l249-alliance-regions.yaml.
const alliancePosition = `
map: ["...............", "...............", "...............", "...............", "...............", "...............", "...............", "...............", "...............", "..............."]
card: B 4d 2w 1s
deck: [C crown 1w 2w]
castles: {a1: gold, d1: purple, h5: gold, k5: purple, o10: gold}
knights: {b1: gold, d2: purple}
walls: [b1-c1, b2-c2, a2-a3, b2-b3, d1-e1, d2-e2, c2-c3, d2-d3, n9-o9, n10-o10, o8-o9]
players:
  purple: {political: [alliance]}
`
