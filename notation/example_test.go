package notation_test

import (
	"fmt"

	"github.com/heraldgames/herald/notation"
)

func ExampleSplit() {
	steps, errs := notation.Split("plain castle e5; knights east 1-2-1 # my turn\nfin $")
	for _, st := range steps {
		fmt.Printf("%v %q\n", st.Pos, st.Text)
		for _, tok := range st.Tokens {
			fmt.Printf("  %v %v %q\n", tok.Pos, tok.Kind, tok.Text)
		}
	}
	fmt.Print(errs.Pretty(notation.English))
	// Output:
	// 1:1 "plain castle e5"
	//   1:1 word "plain"
	//   1:7 word "castle"
	//   1:14 word "e5"
	// 1:18 "knights east 1-2-1"
	//   1:18 word "knights"
	//   1:26 word "east"
	//   1:31 number "1"
	//   1:32 punctuation "-"
	//   1:33 number "2"
	//   1:34 punctuation "-"
	//   1:35 number "1"
	// 2:1 "fin"
	//   2:1 word "fin"
	// 2:5: unexpected character '$'
	//   fin $
	//       ^
}

func ExampleVocabulary_Suggest() {
	terrains := notation.Vocabulary{
		{Name: "forest", FR: []string{"forêt"}},
		{Name: "lake", FR: []string{"lac"}},
	}
	fmt.Println(terrains.Suggest("forrest", notation.English))
	fmt.Println(terrains.Suggest("lak", notation.English))
	fmt.Println(terrains.Suggest("lak", notation.French)) // the player's language first
	fmt.Println(terrains.Suggest("swamp", notation.English))
	// Output:
	// [forest forêt]
	// [lake lac]
	// [lac lake]
	// []
}

func ExampleError_Pretty() {
	e := &notation.Error{
		Pos:       notation.Pos{Line: 2, Col: 8},
		Msg:       `unknown terrain "forrest"`,
		MsgFR:     "terrain inconnu « forrest »",
		Suggest:   []string{"forest"},
		Example:   "plain castle e5",
		ExampleFR: "plaine château e5",
		Source:    "plaine forrest e5",
	}
	fmt.Print(e.Pretty(notation.English))
	fmt.Print(e.Pretty(notation.French))
	// Output:
	// 2:8: unknown terrain "forrest"; did you mean "forest"?
	//   plaine forrest e5
	//          ^
	//   for example: plain castle e5
	// 2:8: terrain inconnu « forrest » ; vouliez-vous dire « forest » ?
	//   plaine forrest e5
	//          ^
	//   par exemple : plaine château e5
}
