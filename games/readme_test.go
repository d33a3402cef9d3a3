package games_test

import (
	"os"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games"
	"gopkg.in/yaml.v3"
)

// TestREADMEPositionFormats keeps README's "Position and expect formats"
// complete (issue 27): for Raubritter, Löwenherz 2003 and Löwenherz 1997,
// every line of the position format in the game's package doc stands in
// the game's part of README, and every key the game writes in a position
// (at the top, and of a player) is named there.
func TestREADMEPositionFormats(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, formats, ok := strings.Cut(string(readme), "\n## Position and expect formats\n")
	if !ok {
		t.Fatal("README has no section Position and expect formats")
	}
	for _, name := range []string{"raubritter", "lowenherz", "lowenherz97"} {
		t.Run(name, func(t *testing.T) {
			_, part, ok := strings.Cut(formats, "(`"+name+"`)\n")
			if !ok {
				t.Fatalf("README's formats have no part for %s", name)
			}
			part, _, _ = strings.Cut(part, "\n### ")
			src, err := os.ReadFile(name + "/" + name + ".go")
			if err != nil {
				t.Fatal(err)
			}
			_, doc, _ := strings.Cut(string(src), "// # Position format\n")
			doc, _, _ = strings.Cut(doc, "// # JSON board")
			for _, line := range strings.Split(doc, "\n") {
				if code, ok := strings.CutPrefix(line, "//\t"); ok && !strings.Contains(part, code+"\n") {
					t.Errorf("README lacks the package doc's line %q", code)
				}
			}
			g, err := games.All.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			for n := g.MinPlayers; n <= g.MaxPlayers; n++ {
				for _, key := range positionKeys(t, g, n) {
					if !strings.Contains(part, key+":") {
						t.Errorf("README does not name %q, which a position of %d players holds", key, n)
					}
				}
			}
		})
	}
}

// positionKeys returns the keys of a new game's position of n players, at
// the top and in each player's mapping.
func positionKeys(t *testing.T, g *adjudicator.Game, n int) []string {
	names := []string{"p1", "p2", "p3", "p4"}[:n]
	opts, _ := g.ResolveOptions(nil)
	st, err := g.New(adjudicator.Setup{Players: names, Options: opts, RNG: adjudicator.NewRNG("readme")})
	if err != nil {
		t.Fatal(err)
	}
	data, err := yaml.Marshal(st.Position())
	if err != nil {
		t.Fatal(err)
	}
	var pos map[string]any
	if err := yaml.Unmarshal(data, &pos); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k, v := range pos {
		keys = append(keys, k)
		if k != "players" {
			continue
		}
		for _, pv := range v.(map[string]any) {
			if m, ok := pv.(map[string]any); ok {
				for pk := range m {
					keys = append(keys, pk)
				}
			}
		}
	}
	return keys
}
