package adjudicator

import (
	"cmp"
	"slices"
	"testing"
)

type lettered struct {
	Letter byte
	Name   string
}

// TestShuffleWithinLetters: each letter keeps its places, each place's
// value stays of its letter, and the result depends on the values as a
// set, not on how they lay (the honesty Determinizer asks for).
func TestShuffleWithinLetters(t *testing.T) {
	deal := func(in []lettered) []lettered {
		out := slices.Clone(in)
		places := make([]*lettered, len(out))
		for i := range out {
			places[i] = &out[i]
		}
		ShuffleWithinLetters(NewRNG("deal"), places, func(v lettered) byte { return v.Letter },
			func(a, b lettered) int { return cmp.Compare(a.Name, b.Name) })
		return out
	}
	a := []lettered{{'A', "x"}, {'B', "p"}, {'A', "y"}, {'A', "z"}, {'B', "q"}}
	b := []lettered{{'A', "z"}, {'B', "q"}, {'A', "x"}, {'A', "y"}, {'B', "p"}} // same letters, other order within them
	da, db := deal(a), deal(b)
	if !slices.Equal(da, db) {
		t.Errorf("deal depends on the hidden order: %v and %v", da, db)
	}
	for i := range a {
		if da[i].Letter != a[i].Letter {
			t.Errorf("place %d: letter %c, want %c", i, da[i].Letter, a[i].Letter)
		}
	}
	sorted := func(v []lettered) []lettered {
		v = slices.Clone(v)
		slices.SortFunc(v, func(x, y lettered) int { return cmp.Or(cmp.Compare(x.Letter, y.Letter), cmp.Compare(x.Name, y.Name)) })
		return v
	}
	if !slices.Equal(sorted(da), sorted(a)) {
		t.Errorf("deal %v lost or made values of %v", da, a)
	}
}
