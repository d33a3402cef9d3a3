package adjudicator_test

import (
	"encoding/json"
	"fmt"

	"github.com/heraldgames/herald/adjudicator"
	"gopkg.in/yaml.v3"
)

func ExampleCommit() {
	// Published when the game starts; the seed is revealed when it ends,
	// and anyone can check it with `printf %s 42 | sha256sum`.
	fmt.Println(adjudicator.Commit("42"))
	// Output:
	// 73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049
}

func ExampleNewRNG() {
	r := adjudicator.NewRNG("42")
	deck := []string{"a", "b", "c", "d", "e"}
	r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	fmt.Println(deck, r.IntN(6)+1)
	// Output:
	// [b c e a d] 6
}

func ExampleSubset() {
	// want comes from a scenario's expect: (YAML), got from the JSON view.
	var want, got any
	yaml.Unmarshal([]byte("{scores: {red: 3}, to_move: [blue]}"), &want)
	json.Unmarshal([]byte(`{"scores": {"red": 3, "blue": 2}, "to_move": ["blue"], "finished": false}`), &got)
	fmt.Printf("%q\n", adjudicator.Subset("", want, got))

	yaml.Unmarshal([]byte("{scores: {blue: 2}, to_move: [red, blue]}"), &want)
	fmt.Println(adjudicator.Subset("", want, got))
	// Output:
	// ""
	// to_move: expected ["red","blue"], got ["blue"]
}
