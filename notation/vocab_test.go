package notation_test

import (
	"reflect"
	"testing"

	"github.com/heraldgames/herald/notation"
)

// terrains and buildings are vocabularies like a game's.
var (
	terrains = notation.Vocabulary{
		{Name: "plain", EN: []string{"plains", "p"}, FR: []string{"plaine", "plaines"}},
		{Name: "forest", EN: []string{"forests", "f"}, FR: []string{"forêt", "forêts"}},
		{Name: "mountains", EN: []string{"mountain", "m"}, FR: []string{"montagnes", "montagne"}},
		{Name: "lake", EN: []string{"l"}, FR: []string{"lac"}},
	}
	buildings = notation.Vocabulary{
		{Name: "castle", EN: []string{"c"}, FR: []string{"château", "château-fort", "fort"}},
		{Name: "village", FR: []string{"village"}},
		{Name: "town", EN: []string{"city", "t"}, FR: []string{"ville"}},
	}
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"forest", "forest"},
		{"Forêt", "foret"},
		{"FORET", "foret"},
		{"forét", "foret"},
		{"FORÊT", "foret"},
		{"Château-Fort", "chateau-fort"},
		{"Cœur", "coeur"},
		{"CŒUR", "coeur"},
		{"Lætitia", "laetitia"},
		{"ÆSIR", "aesir"},
		{"Straße", "strasse"},
		{"l’est", "l'est"},
		{"lʼest", "l'est"},
		{"Noël à Ÿvoir, ÇA", "noel a yvoir, ca"},
		{"ñandú øre", "nandu ore"},
		{"E5", "e5"},
	}
	for _, tt := range tests {
		if got := notation.Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"forest", "forest", 0},
		{"forest", "forst", 1},   // deletion
		{"forest", "foreest", 1}, // insertion
		{"forest", "forist", 1},  // substitution
		{"forest", "froest", 1},  // transposition
		{"forest", "ofrest", 1},  // transposition at the start
		{"forest", "forets", 1},  // transposition at the end
		{"abcd", "badc", 2},      // two transpositions
		{"ca", "abc", 3},         // optimal string alignment: no edit of a transposed pair
		{"kitten", "sitting", 3},
		{"forêt", "foret", 1}, // runes, not bytes
		{"château", "chateau", 1},
		{"œ", "oe", 2},
	}
	for _, tt := range tests {
		if got := notation.Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := notation.Distance(tt.b, tt.a); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestLookup(t *testing.T) {
	// "place" is both the English name and a French spelling of one term;
	// "fin" is French for end but an English word of another term.
	verbs := notation.Vocabulary{
		{Name: "place", EN: []string{"play"}, FR: []string{"pose", "place"}},
		{Name: "end", FR: []string{"fin", "termine"}},
		{Name: "finish", EN: []string{"fin"}},
	}
	tests := []struct {
		v    notation.Vocabulary
		word string
		name string
		lang notation.Lang
		ok   bool
	}{
		{terrains, "forest", "forest", notation.English, true},
		{terrains, "Forests", "forest", notation.English, true},
		{terrains, "F", "forest", notation.English, true},
		{terrains, "forêt", "forest", notation.French, true},
		{terrains, "FORET", "forest", notation.French, true}, // accents optional
		{terrains, "Forêts", "forest", notation.French, true},
		{terrains, "lac", "lake", notation.French, true},
		{terrains, "montagne", "mountains", notation.French, true},
		{terrains, "forrest", "", notation.English, false},
		{terrains, "", "", notation.English, false},
		{buildings, "village", "village", notation.English, true}, // shared: English
		{buildings, "VILLAGE", "village", notation.English, true},
		{buildings, "chateau-fort", "castle", notation.French, true},
		{buildings, "Château", "castle", notation.French, true},
		{buildings, "city", "town", notation.English, true},
		{buildings, "ville", "town", notation.French, true},
		{verbs, "place", "place", notation.English, true}, // a name that is also French
		{verbs, "pose", "place", notation.French, true},
		{verbs, "fin", "finish", notation.English, true}, // an English spelling wins over a French one
		{verbs, "termine", "end", notation.French, true},
		{verbs, "terminé", "end", notation.French, true},
	}
	for _, tt := range tests {
		name, lang, ok := tt.v.Lookup(tt.word)
		if name != tt.name || lang != tt.lang || ok != tt.ok {
			t.Errorf("Lookup(%q) = %q, %v, %v; want %q, %v, %v", tt.word, name, lang, ok, tt.name, tt.lang, tt.ok)
		}
	}
}

func TestNamesSpellings(t *testing.T) {
	if got, want := terrains.Names(), []string{"plain", "forest", "mountains", "lake"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	if got, want := terrains.Spellings(notation.English), []string{"plain", "forest", "mountains", "lake"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Spellings(en) = %q, want %q", got, want)
	}
	if got, want := terrains.Spellings(notation.French), []string{"plaine", "forêt", "montagnes", "lac"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Spellings(fr) = %q, want %q", got, want)
	}
	// A term without French spellings is spelt by its name in French.
	v := notation.Vocabulary{{Name: "village"}, {Name: "town", FR: []string{"ville"}}}
	if got, want := v.Spellings(notation.French), []string{"village", "ville"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Spellings(fr) = %q, want %q", got, want)
	}
	if got := (notation.Vocabulary{}).Names(); len(got) != 0 {
		t.Errorf("empty Names() = %q", got)
	}
}

func TestSuggest(t *testing.T) {
	lake := notation.Vocabulary{{Name: "lake", FR: []string{"lac"}}}
	animals := notation.Vocabulary{{Name: "bat"}, {Name: "hat"}, {Name: "mat"}, {Name: "rat"}, {Name: "sat"}}
	long := notation.Vocabulary{{Name: "abcdefghijkl"}}
	tests := []struct {
		name string
		v    notation.Vocabulary
		word string
		lang notation.Lang
		want []string
	}{
		{"misspelt", terrains, "forrest", notation.English, []string{"forest", "forests", "forêt"}},
		{"transposed", terrains, "froest", notation.English, []string{"forest", "forests", "forêt"}},
		{"accents folded", terrains, "fôrets", notation.English, []string{"forêts", "forest", "forests"}},
		{"french first at the same distance", terrains, "froest", notation.French, []string{"forest", "forêt", "forêts"}},
		{"english first on a tie", lake, "lak", notation.English, []string{"lake", "lac"}},
		{"french first on a tie", lake, "lak", notation.French, []string{"lac", "lake"}},
		{"closer beats language", lake, "laké", notation.French, []string{"lake"}},
		{"at most three, in order", animals, "cat", notation.English, []string{"bat", "hat", "mat"}},
		{"too far", terrains, "xyz", notation.English, nil},
		{"short words: one edit", animals, "at", notation.English, []string{"bat", "hat", "mat"}},
		{"short words: not two", animals, "c", notation.English, nil},
		{"six runes: two edits", notation.Vocabulary{{Name: "abcdef"}}, "abxyef", notation.English, []string{"abcdef"}},
		{"six runes: not three", notation.Vocabulary{{Name: "abcdef"}}, "axyzef", notation.English, nil},
		{"at most three edits", long, "abcdefghixyz", notation.English, []string{"abcdefghijkl"}},
		{"not four even when long", long, "abcdefghwxyz", notation.English, nil},
		{"one spelling listed once", notation.Vocabulary{{Name: "place", FR: []string{"place"}}}, "plase", notation.French, []string{"place"}},
		{"empty vocabulary", nil, "forest", notation.English, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.v.Suggest(tt.word, tt.lang)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Suggest(%q, %v) = %q, want %q", tt.word, tt.lang, got, tt.want)
			}
		})
	}
}

// TestStepIn: a step printed with canonical names is written with each
// term's first French spelling; squares, numbers, punctuation, a word
// that is no term's name (an English spelling among others, a player's
// name) and a name no term spells in French stay; English is the text
// as it is.
func TestStepIn(t *testing.T) {
	v := append(append(notation.Vocabulary{{Name: "keep", FR: []string{"garde", "garder"}}, {Name: "town"}, {Name: "alice"}}, terrains...), buildings...)
	for _, tt := range []struct{ in, want string }{
		{"plain castle f5", "plaine château f5"},
		{"keep forest village", "garde forêt village"},
		{"keep plain town", "garde plaine ville"}, // the first term of the name with a French spelling
		{"lake h9", "lac h9"},
		{"keep alice", "garde alice"},
		{"p c f5", "p c f5"},
		{"keep  plain|castle, 3 (lake)", "garde  plaine|château, 3 (lac)"},
		{"plains-castle castle-f5", "plains-castle castle-f5"}, // one word each, no term's name
		{"Plain castle", "Plain château"},                      // names as printed, in lower case
		{"", ""},
	} {
		if got := v.StepIn(tt.in, notation.French); got != tt.want {
			t.Errorf("StepIn(%q, French) = %q, want %q", tt.in, got, tt.want)
		}
		if got := v.StepIn(tt.in, notation.English); got != tt.in {
			t.Errorf("StepIn(%q, English) = %q, want it unchanged", tt.in, got)
		}
	}
}
