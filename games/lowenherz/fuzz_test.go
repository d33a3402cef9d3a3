package lowenherz

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// FuzzParse: any text either fails to parse with a positioned error, or
// parses to a move whose printed form parses back to itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"play A 2 borders", "border e5|e6", "frontière e5 sud", "extend c3 c4 domain a1",
		"transfuge f5 g7", "jouer B chevalier ou extension comme chevaliers", "take A 1 knight", "castle a1 knight b1", "x|y"} {
		f.Add(s)
	}
	var st *State
	f.Fuzz(func(t *testing.T, text string) {
		if st == nil {
			st = playSetup(t, 3, "fuzz")
		}
		steps, errs := notation.Split(text)
		if len(errs) > 0 || len(steps) == 0 {
			return
		}
		p := st.names[st.turn]
		m, err := st.Parse(p, steps[0])
		if err != nil {
			if ne, ok := err.(*notation.Error); !ok || !ne.Pos.IsValid() {
				t.Fatalf("%q: error without position: %v", text, err)
			}
			return
		}
		back, err := parseText(st, p, m.String())
		if err != nil || back.String() != m.String() {
			t.Fatalf("%q -> %q -> %v (%v)", text, m, back, err)
		}
		c := st.clone()
		_ = c.Apply(p, m)
	})
}

// FuzzPosition: any document is refused with an error or loads to a state
// whose position round-trips byte for byte.
func FuzzPosition(f *testing.F) {
	f.Add("turn: red\nborders: [e5|e6]\npieces: {a1: red castle}\n")
	f.Add("phase: setup\n")
	f.Add("step: action\ncard: A 2 borders\ndone: 1\nplayers: {red: {hand: [A 1 border]}}\n")
	// A real mid-game position of red and blue, to mutate.
	if b, err := yaml.Marshal(midGame(f, 2, "fuzz").Position()); err == nil {
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var n yaml.Node
		if yaml.Unmarshal([]byte(doc), &n) != nil || len(n.Content) == 0 {
			return
		}
		opts, _ := Game.ResolveOptions(nil)
		st, err := Game.LoadPosition(adjudicator.Setup{Players: []string{"red", "blue"}, Options: opts, RNG: adjudicator.NewRNG("f")}, &n)
		if err != nil {
			return
		}
		checkRoundTrip(t, st.(*State), []string{"red", "blue"}, doc)
		s := st.(*State)
		for _, p := range s.ToMove() {
			for _, m := range s.Legal(p) {
				c := s.clone()
				if err := c.Apply(p, m); err != nil {
					t.Fatalf("listed step %q refused: %v", m, err)
				}
			}
		}
	})
}
