package raubritter_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// TestKeepSealed: the A tile a player keeps in the setup stays secret from
// the others until every player has kept (RULINGS.md RB-15): their history
// says only that the player kept one, the game lists the keep among their
// secrets, and once the last player has kept every history shows it.
func TestKeepSealed(t *testing.T) {
	m := kit.NewMatch(t, 3, "sealed-keep", nil)
	names := m.Record.Players
	if _, err := m.Submit(names[0], "keep forest village", "", "test"); err != nil {
		t.Fatal(err)
	}
	history := func(viewer string, lang notation.Lang) string {
		t.Helper()
		h, err := m.History(reg, viewer, lang)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(h, "\n")
	}
	for _, v := range []string{names[1], names[2], ""} {
		for lang, want := range map[notation.Lang]string{
			notation.English: names[0] + " keeps an A tile",
			notation.French:  names[0] + " garde une plaquette A",
		} {
			if h := history(v, lang); h != want {
				t.Errorf("%q's history during the setup = %q, want %q", v, h, want)
			}
		}
		if s := adjudicator.Secrets(m.State, v); !slices.Contains(s, "keep forest village") {
			t.Errorf("Secrets(%q) = %q, want the keep of %s", v, s, names[0])
		}
	}
	for lang, want := range map[notation.Lang]string{notation.English: "keeps an A tile", notation.French: "garde une plaquette A"} {
		if h, err := m.TurnHistory(reg, "", lang); err != nil || !slices.Equal(h, []string{want}) {
			t.Errorf("the public history without subjects during the setup = %q, %v, want %q", h, err, want)
		}
	}
	if h := history(names[0], notation.English); h != "keep forest village" {
		t.Errorf("%s's own history = %q, want their keep", names[0], h)
	}
	for _, p := range names[1:] {
		if _, err := m.Submit(p, "keep plain", "", "test"); err != nil {
			t.Fatal(err)
		}
	}
	want := "keep forest village\nkeep plain\nkeep plain"
	for _, v := range append(slices.Clone(names), "") {
		if h := history(v, notation.English); h != want {
			t.Errorf("%q's history after the setup = %q, want %q", v, h, want)
		}
	}
}
