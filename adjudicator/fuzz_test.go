package adjudicator_test

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// FuzzParseRecord checks that ParseRecord never panics, that a record it
// accepts holds no control character adjudicate would print to a
// terminal, and that it marshals to a record it accepts again, equal to
// the first.
func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(recordYAML))
	f.Add([]byte("herald: 1\ngame: counting\nplayers: [a, b]\nseed_sha256: " + sha42 + "\nmoves: []\n"))
	f.Add([]byte("herald: 1\ngame: x\nplayers: []\nseed_sha256: " + sha42 + "\nposition: &a {b: *a}\n"))
	f.Add([]byte("herald: 1\ngame: x\noptions: {}\nplayers: [\"\"]\nseed_sha256: " + sha42 + "\nseed: \"42\"\nposition: # c\n  - [1, 2.5, ~, !!binary aGk=]\nmoves:\n  - {player: p, text: \"a\\n  b \", time: 1}\n"))
	f.Add([]byte(recordV1YAML))
	f.Add([]byte("herald: 1\ngame: counting\nplayers: [a, b]\nseed_sha256: " + sha42 + "\nmoves:\n  - {player: a, text: \"add 1\\e]0;x\\a\\e[2J\", source: \"cli\\u202e\"}\n"))
	f.Add([]byte("herald: 2\ngame: counting\nplayers:\n  - a\n  - b\nseed_sha256: " + sha42 + "\nmoves: []\nended:\n  how: resigned\n  by: a\nseal: 3e732b6c0cc7600ee587673280271b682e64ac49312d494683fb9a9b4d7086da\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := adjudicator.ParseRecord("r.yaml", data)
		if err != nil {
			return
		}
		for _, v := range recordStrings(rec) {
			if r, _, bad := notation.Unprintable(v); bad {
				t.Fatalf("ParseRecord accepted %q, which holds %U", v, r)
			}
		}
		// Marshal, read back: the same record. Twice, then the bytes
		// are stable (the first time, a string yaml.v3 cannot write
		// in its original style may be double-quoted).
		var outs [][]byte
		for range 3 {
			out, err := rec.Marshal()
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			back, err := adjudicator.ParseRecord("r.yaml", out)
			if err != nil {
				t.Fatalf("ParseRecord(Marshal(r)): %v\n%s", err, out)
			}
			if !sameRecord(rec, back) {
				t.Fatalf("ParseRecord(Marshal(r)) != r:\n%+v\n%+v\n%s", rec, back, out)
			}
			outs = append(outs, out)
			rec = back
		}
		if !bytes.Equal(outs[1], outs[2]) {
			t.Fatalf("Marshal → ParseRecord → Marshal differs:\n%s\nthen\n%s", outs[1], outs[2])
		}
	})
}

// recordStrings returns every string of rec but its position.
func recordStrings(rec *adjudicator.Record) []string {
	out := append([]string{rec.Game, rec.Seed, rec.SeedSHA256}, rec.Players...)
	for k, v := range rec.Options {
		out = append(out, k, v)
	}
	moves := slices.Clone(rec.Moves)
	for _, u := range rec.Undone {
		out = append(out, u.By, u.Time, u.Source)
		moves = append(moves, u.Moves...)
	}
	for _, m := range moves {
		out = append(out, m.Player, m.Text, m.Time, m.Source)
	}
	if e := rec.Ended; e != nil {
		out = append(out, e.How, e.By, e.Time, e.Source)
	}
	return out
}

// sameRecord compares two records but for their format (a format 1
// record is written in the current format), an empty list or map being equal to
// none, and positions by their data (not their style or comments).
func sameRecord(a, b *adjudicator.Record) bool {
	sameEnding := a.Ended == nil && b.Ended == nil || a.Ended != nil && b.Ended != nil && *a.Ended == *b.Ended
	return sameEnding && adjudicator.SameUndone(a.Undone, b.Undone) && a.Game == b.Game && a.SeedSHA256 == b.SeedSHA256 && a.Seed == b.Seed &&
		maps.Equal(a.Options, b.Options) && slices.Equal(a.Players, b.Players) &&
		(len(a.Moves) == 0 && len(b.Moves) == 0 || reflect.DeepEqual(a.Moves, b.Moves)) &&
		sameData(a.Position, b.Position)
}

// sameData reports whether two YAML nodes hold the same data: kinds, tags,
// values, anchors.
func sameData(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || a.Value != b.Value || a.Anchor != b.Anchor || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameData(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// FuzzParseScenario checks that ParseScenario never panics, and that
// running what it accepts does not either.
func FuzzParseScenario(f *testing.F) {
	f.Add([]byte(scenarioYAML))
	f.Add([]byte("game: counting\nplayers: [alice, bob]\nposition: {total: 8, to_move: bob}\nmoves:\n  - player: bob\n    steps: add 2\nexpect:\n  result: {winners: [bob]}\n"))
	f.Add([]byte("game: counting\nplayers: [alice, bob]\nmoves:\n  - player: alice\n    steps: add 1\n    expect: illegal\n    error: x\n    rule: y\n"))
	f.Add([]byte("game: counting\nplayers: [alice, bob]\nexpect: {1: 2, board: [a, {b: c}]}\n"))
	f.Add([]byte("game: counting\nplayers: [alice, bob]\nmoves:\n  - player: alice\n    steps: add 1\n    expect:\n      board: !exact {total: 1, target: 10, history: !len 0}\n" +
		"      private:\n        bob:\n          note: !absent\nexpect:\n  private: {alice: {note: x}}\n  to_move: !len 1\n"))
	f.Add([]byte("game: counting\nplayers: [alice, bob]\nexpect:\n  players: !set [!prefix a, alice]\n  private: {alice: {hand: !set [!prefix x, !len 0]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := adjudicator.ParseScenario("s.yaml", data)
		if err != nil {
			return
		}
		if sc.Game == "" && sc.Players == nil {
			t.Fatalf("ParseScenario accepted a scenario without game and players: %+v", sc)
		}
		res := adjudicator.RunScenario(reg, sc, nil)
		if !res.Pass && res.Failure == "" {
			t.Fatalf("RunScenario = %+v: a failure without a reason", res)
		}
	})
}
