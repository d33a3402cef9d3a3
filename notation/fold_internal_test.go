package notation

import "testing"

// FuzzFoldsTo checks that foldsTo(s, f) is Fold(s) == f, which Lookup
// relies on, for any two strings, f folded or not.
func FuzzFoldsTo(f *testing.F) {
	words := []string{"", "forest", "Forêt", "FORÊT", "forêts", "château", "Château-fort", "chateau",
		"cœur", "Cœur", "coeur", "ß", "ss", "İ", "i", "aujourd’hui", "aujourd'hui", "\xff", "\ufffd", "é\xffe", "ÉÉ", "Ǆ"}
	for _, a := range words {
		for _, b := range words {
			f.Add(a, b)
		}
	}
	f.Fuzz(func(t *testing.T, s, word string) {
		for _, fw := range []string{word, Fold(word)} {
			if got, want := foldsTo(s, fw), Fold(s) == fw; got != want {
				t.Fatalf("foldsTo(%q, %q) = %v; Fold(%q) = %q", s, fw, got, s, Fold(s))
			}
		}
	})
}
