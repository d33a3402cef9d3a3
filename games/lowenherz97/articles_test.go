package lowenherz97_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator/gametest"
)

// TestArticles: the events name castles and political cards with the
// right article (issue 27, item 6): "alice places a castle", "a neutral
// castle", "with an alliance card", never "a alice castle" or "a
// alliance".
func TestArticles(t *testing.T) {
	st := kit.NewState(t, colours[:2], "articles", nil)
	for range 10 { // the setup: 4 castles each, then 2 neutral
		p := st.ToMove()[0]
		mv := st.Legal(p)[0]
		if err := st.Apply(p, mv); err != nil {
			t.Fatal(err)
		}
	}
	events := board(t, st).Events
	if !slices.ContainsFunc(events, func(e string) bool { return strings.Contains(e, " places a castle at ") }) ||
		!slices.ContainsFunc(events, func(e string) bool { return strings.Contains(e, " places a neutral castle at ") }) {
		t.Errorf("events name no castle, or no neutral castle, as wanted:\n%s", strings.Join(events, "\n"))
	}
	for _, e := range events {
		if strings.Contains(e, "places a gold") || strings.Contains(e, "places a purple") {
			t.Errorf("event %q", e)
		}
	}
	// The position of testdata/lowenherz97/l255-alliance-card.yaml.
	st = mustLoad(t, []string{"gold", "purple"}, `map: ["...............", "...............", "...............", "...............", "...............", "...............", "...............", "...............", "...............", "..............."]
card: B 4d 2w 2s
deck: [C crown 1w 2w]
castles: {a1: gold, a4: purple, d1: purple, o10: gold, m10: purple}
knights: {b1: gold, a2: gold, b2: gold, b4: purple, d2: purple}
walls: [a2-a3, b2-b3, b1-c1, b2-c2, a4-a5, b4-b5, b3-c3, b4-c4, c2-c3, d2-d3, d1-e1, d2-e2]
players:
  purple: {political: [alliance]}
`)
	gametest.Play(t, st, "gold", "choose 3; choose 1")
	gametest.Play(t, st, "purple", "choose 2 with alliance a4 a1")
	events = board(t, st).Events
	if !slices.ContainsFunc(events, func(e string) bool {
		return strings.HasSuffix(e, " with an alliance card on the regions of a4 (purple) and a1 (gold)")
	}) {
		t.Errorf("no event of a decision with an alliance card:\n%s", strings.Join(events, "\n"))
	}
}
