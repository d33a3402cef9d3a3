package lowenherz

import (
	"github.com/heraldgames/herald/adjudicator/gametest"
	"os"
	"path/filepath"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// goldenStates are the boards kept as golden files: the setup, mid-game
// with domains, neutral zones and borders, an action under way, the end.
func goldenStates(t *testing.T) map[string]*State {
	out := map[string]*State{}
	opts, _ := Game.ResolveOptions(nil)
	st, err := Game.New(adjudicator.Setup{Players: []string{"red", "blue"}, Options: opts, RNG: adjudicator.NewRNG("golden")})
	if err != nil {
		t.Fatal(err)
	}
	out["setup-2p"] = st.(*State)
	out["mid-3p"] = midGame(t, 3, "golden")
	mid4 := midGame(t, 4, "golden")
	out["mid-4p"] = mid4
	// An action under way: play a borders card if one is in hand.
	act := midGame(t, 2, "golden-action")
	p := act.ToMove()[0]
	for _, m := range act.Legal(p) {
		if pl, ok := m.(Play); ok && pl.Action == ActBorders {
			if err := act.Apply(p, pl); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	out["action-2p"] = act
	out["over-3p"] = playRandom(t, 3, "golden", false)
	return out
}

// TestGolden compares Text("") and Text(first player), and the same in
// French (TextIn, the files ending in -fr), with the files in
// testdata/golden; go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	for name, s := range goldenStates(t) {
		for _, v := range []struct {
			as   string
			lang notation.Lang
		}{{"", notation.English}, {s.names[0], notation.English}, {"", notation.French}, {s.names[0], notation.French}} {
			file := name
			if v.as != "" {
				file += "-" + v.as
			}
			if v.lang == notation.French {
				file += "-fr"
			}
			path := filepath.Join("testdata", "golden", file+".txt")
			got := adjudicator.TextIn(s, v.as, v.lang)
			if *gametest.Update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -run TestGolden -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the golden file:\n%s\n--- want:\n%s", path, got, want)
			}
		}
	}
}
