package notation

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fold returns s in the form keywords are compared in: lower case, accents
// removed, ligatures spelt out, typographic apostrophes made plain. So
// "Forêt", "FORET" and "forét" all fold to "foret", and "Cœur" to "coeur".
func Fold(s string) string {
	// Most words are plain ASCII: lower-case them without the tables, and
	// without allocating when they already are.
	ascii, lower := true, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			lower = false
		}
	}
	if ascii {
		if lower {
			return s
		}
		b := []byte(s)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if rep, ok := foldTable[r]; ok {
			b.WriteString(rep)
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

var foldTable = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a",
	'ç': "c",
	'è': "e", 'é': "e", 'ê': "e", 'ë': "e",
	'ì': "i", 'í': "i", 'î': "i", 'ï': "i",
	'ñ': "n",
	'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u",
	'ý': "y", 'ÿ': "y",
	'œ': "oe", 'æ': "ae", 'ß': "ss",
	'’': "'", 'ʼ': "'",
}

// Term is one keyword of a grammar: a canonical name, which is what herald
// prints, and the spellings accepted for it in each language.
type Term struct {
	Name string   // canonical English spelling, printed by herald
	EN   []string // other English spellings
	FR   []string // French spellings (with accents; accents are optional when reading)
}

// Vocabulary is the set of keywords that fit at one point of a grammar, for
// example the terrains, or the step verbs.
type Vocabulary []Term

// Lookup finds word among the terms, ignoring case and accents. It returns
// the term's canonical name and the language the word belongs to: French
// when it is only a French spelling, English otherwise (a word both
// languages share, like "village", reads as English and does not change the
// language of the step).
func (v Vocabulary) Lookup(word string) (name string, lang Lang, ok bool) {
	f := Fold(word)
	for _, t := range v {
		if foldsTo(t.Name, f) {
			return t.Name, English, true
		}
		for _, s := range t.EN {
			if foldsTo(s, f) {
				return t.Name, English, true
			}
		}
	}
	for _, t := range v {
		for _, s := range t.FR {
			if foldsTo(s, f) {
				return t.Name, French, true
			}
		}
	}
	return "", English, false
}

// frenchSpells reports whether a French spelling of a term of v is word.
func (v Vocabulary) frenchSpells(word string) bool {
	f := Fold(word)
	for _, t := range v {
		for _, s := range t.FR {
			if foldsTo(s, f) {
				return true
			}
		}
	}
	return false
}

// MaybeMisspelt reports whether word may be one of the terms misspelt: a
// word of letters alone, four or more of them (a shorter one is too
// often something else), and no spelling of a term itself. Whether it is
// near one is for Suggest to say.
func (v Vocabulary) MaybeMisspelt(word string) bool {
	if utf8.RuneCountInString(word) < 4 || strings.ContainsFunc(word, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return false
	}
	_, _, ok := v.Lookup(word)
	return !ok
}

// foldsTo reports whether Fold(s) == f, without building Fold(s): Lookup
// compares every spelling of a vocabulary on each word read.
func foldsTo(s, f string) bool {
	for _, r := range s {
		r = unicode.ToLower(r)
		if rep, ok := foldTable[r]; ok {
			if !strings.HasPrefix(f, rep) {
				return false
			}
			f = f[len(rep):]
			continue
		}
		g, n := utf8.DecodeRuneInString(f)
		if n == 0 || g != r || g == utf8.RuneError && n == 1 { // Fold never writes a bad byte
			return false
		}
		f = f[n:]
	}
	return f == ""
}

// Without returns a copy of v without the spellings given (other
// spellings of the same terms stay): for a game's Keywords, the words of
// its notation that prose begins lines with too ("yes", "no", "go").
func (v Vocabulary) Without(spellings ...string) Vocabulary {
	drop := func(w string) bool { return slices.Contains(spellings, w) }
	out := make(Vocabulary, 0, len(v))
	for _, t := range v {
		t.EN = slices.DeleteFunc(slices.Clone(t.EN), drop)
		t.FR = slices.DeleteFunc(slices.Clone(t.FR), drop)
		out = append(out, t)
	}
	return out
}

// Names returns the canonical names of the terms, in order.
func (v Vocabulary) Names() []string {
	names := make([]string, len(v))
	for i, t := range v {
		names[i] = t.Name
	}
	return names
}

// Spellings returns the spellings of the terms in lang: the canonical name
// and English spellings for English, the French spellings (the canonical name
// if a term has none) for French.
func (v Vocabulary) Spellings(lang Lang) []string {
	var out []string
	for _, t := range v {
		if lang == French && len(t.FR) > 0 {
			out = append(out, t.FR[0])
			continue
		}
		out = append(out, t.Name)
	}
	return out
}

// Suggest returns the spellings closest to word by edit distance (after
// folding), best first, at most three, in the language given when a
// spelling in that language is as close as any other. A word too far from
// every spelling (more than a third of its length, at least 1, at most 3
// edits) gets no suggestion.
func (v Vocabulary) Suggest(word string, lang Lang) []string {
	f := Fold(word)
	limit := len([]rune(f)) / 3
	if limit < 1 {
		limit = 1
	}
	if limit > 3 {
		limit = 3
	}
	type cand struct {
		text string
		dist int
		pref int // 0 in the player's language, 1 otherwise
		ord  int
	}
	var cands []cand
	seen := map[string]bool{}
	add := func(text string, l Lang, ord int) {
		d := Distance(f, Fold(text))
		if d > limit || seen[text] {
			return
		}
		seen[text] = true
		p := 1
		if l == lang {
			p = 0
		}
		cands = append(cands, cand{text, d, p, ord})
	}
	ord := 0
	for _, t := range v {
		add(t.Name, English, ord)
		ord++
		for _, s := range t.EN {
			add(s, English, ord)
			ord++
		}
		for _, s := range t.FR {
			add(s, French, ord)
			ord++
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		if cands[i].pref != cands[j].pref {
			return cands[i].pref < cands[j].pref
		}
		return cands[i].ord < cands[j].ord
	})
	var out []string
	for _, c := range cands {
		if len(out) == 3 {
			break
		}
		out = append(out, c.text)
	}
	return out
}

// Distance returns the Levenshtein edit distance between a and b, counting
// runes, where swapping two adjacent runes counts as one edit.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// StepIn returns text, a step as a game prints it (each keyword its
// term's canonical name, Term.Name), with its keywords in lang: in French
// each word that is the name of a term of v becomes the term's first
// French spelling, as Spellings gives it ("plain castle f5" is "plaine
// château f5"). Every other word, a term without a French spelling
// ("village"), squares, numbers, spaces and punctuation are kept as they
// are. In English text is returned as it is.
func (v Vocabulary) StepIn(text string, lang Lang) string {
	if lang != French {
		return text
	}
	runes := []rune(text)
	var b strings.Builder
	b.Grow(len(text) + 8)
	for j := 0; j < len(runes); {
		if !isWordRune(runes[j]) {
			b.WriteRune(runes[j])
			j++
			continue
		}
		k := j
		for k < len(runes) && (isWordRune(runes[k]) || isJoiner(runes, k)) {
			k++
		}
		word := string(runes[j:k])
		j = k
		fr := ""
		for _, t := range v {
			if t.Name == word && len(t.FR) > 0 {
				fr = t.FR[0]
				break
			}
		}
		if fr == "" {
			fr = word
		}
		b.WriteString(fr)
	}
	return b.String()
}
