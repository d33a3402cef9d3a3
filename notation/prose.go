package notation

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Prose around the steps. Players write "Hi herald," before their steps
// and "Thanks!" or "Sent from my iPhone" after them. A line before the first
// step line or after the last one that holds no word of the notation is
// prose: it is dropped and reported as ignored, never an error. A line
// between two step lines is kept, so that a bad line amid the steps is an
// error as before.
//
// A line holds a word of the notation (and so is a step line) when:
//
//   - one of its words names a square: one or two letters and a number
//     ("e5", "aa12");
//   - a step on it starts with a keyword of the game (any spelling, any
//     case, with or without accents), or with a word of five letters or more
//     one edit away from one ("plian", "castel"), which then gets its "did
//     you mean";
//   - or one of its words is a keyword of five letters or more ("castle",
//     "knights", "village").
//
// So "Take care" (it starts with "take", a spelling of "keep") and "Please
// lay the plain castle" are steps, and wrong ones; "Bonne fin de journée"
// and "All done!" are prose: short keywords such as "fin", "done", "est" or
// "up" count only at the start of a step, where prose seldom puts them. A
// misspelt keyword of four letters or fewer alone on a line with no square
// is taken for prose: the reply lists it as ignored. A line with no square
// that is a sentence around the game's words, "je garde le village :" or
// "Hello! I'll keep the forest village, thanks" above the step itself, is
// prose too (see sentence).

// IgnoredLine is a line of a mail body taken for prose and ignored.
type IgnoredLine struct {
	Line int    // in the body, as the positions of the steps
	Text string // the whole line
	// Suggest, for a line that may be a short keyword misspelt ("drwa",
	// "tkae 1"), are the keywords it is one edit from (misspeltHint):
	// the answer asks "did you mean", as the line stays ignored.
	Suggest []string
}

// IgnoreProse drops from env the prose before the first step line and
// after the last one (see above), steps and errors alike, and returns the
// lines it dropped, in order. keywords are the game's keywords that mark a
// step; without any, nothing is dropped. Errors about envelope lines ("key"
// with no value) are never dropped.
func (env *Envelope) IgnoreProse(keywords Vocabulary) []IgnoredLine {
	if len(keywords) == 0 {
		return nil
	}
	source := map[int]string{}
	for _, st := range env.Steps {
		source[st.Pos.Line] = st.Source
	}
	for _, e := range env.Errors[env.splitErrs:] {
		if e.Pos.Line > 0 {
			source[e.Pos.Line] = e.Source
		}
	}
	lines := make([]int, 0, len(source))
	for l := range source {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	first, last := 0, -1
	for i, l := range lines {
		if stepLine(source[l], keywords) {
			if last < 0 {
				first = i
			}
			last = i
		}
	}
	prose := map[int]bool{}
	var ignored []IgnoredLine
	for i, l := range lines {
		if i < first || i > last {
			prose[l] = true
			ignored = append(ignored, IgnoredLine{Line: l, Text: source[l], Suggest: misspeltHint(source[l], keywords)})
		}
	}
	if len(ignored) == 0 {
		return nil
	}
	env.Steps = slices.DeleteFunc(env.Steps, func(st *Step) bool { return prose[st.Pos.Line] })
	kept := env.Errors[:env.splitErrs:env.splitErrs]
	for _, e := range env.Errors[env.splitErrs:] {
		if !prose[e.Pos.Line] {
			kept = append(kept, e)
		}
	}
	env.Errors = kept
	return ignored
}

// misspeltHint returns the keywords of kw that line, taken for prose,
// may have meant: when it is one word of four letters or more, alone or
// before numbers ("drwa", "tkae 1"), one edit from a spelling of a
// keyword (nearKeyword), and no everyday word. Such a line stays prose (a
// short word alone is too often a greeting or a name), but a player who
// meant a step is told what it looked like; nil otherwise.
func misspeltHint(line string, kw Vocabulary) []string {
	steps, errs := Split(line)
	if len(steps) != 1 || len(errs) > 0 {
		return nil
	}
	toks := steps[0].Tokens
	if len(toks) == 0 || toks[0].Kind != Word {
		return nil
	}
	for _, t := range toks[1:] {
		if t.Kind != Number {
			return nil
		}
	}
	w := toks[0].Text
	if s := swappedKeyword(w, kw); s != "" {
		return []string{s}
	}
	if !kw.MaybeMisspelt(w) || proseWord(w) || !nearKeyword(w, kw) {
		return nil
	}
	return kw.Suggest(w, steps[0].Lang)
}

// swappedKeyword returns the spelling of a keyword of kw of three letters
// that w is, two letters next to each other swapped ("edn" for "end",
// "fni" for "fin"), or "". A word of three letters one edit from a keyword
// is too often a name or a greeting ("Ben", "and") to be hinted at; the
// keyword's own letters swapped are not.
func swappedKeyword(w string, kw Vocabulary) string {
	f := Fold(w)
	if len(f) != 3 || proseWord(w) {
		return ""
	}
	if _, _, ok := kw.Lookup(w); ok {
		return ""
	}
	for _, t := range kw {
		for _, s := range append(append([]string{t.Name}, t.EN...), t.FR...) {
			k := Fold(s)
			if len(k) == 3 && (f == string([]byte{k[1], k[0], k[2]}) || f == string([]byte{k[0], k[2], k[1]})) {
				return s
			}
		}
	}
	return ""
}

// stepLine reports whether line holds a word of the notation whose
// keywords are kw, and is not a sentence around them (see sentence).
func stepLine(line string, kw Vocabulary) bool {
	steps, _ := Split(line)
	notation, everyday := false, 0
	for _, st := range steps {
		for i, tok := range st.Tokens {
			if tok.Kind != Word {
				continue
			}
			if isSquare(tok.Text) {
				return true
			}
			_, _, known := kw.Lookup(tok.Text)
			long := utf8.RuneCountInString(tok.Text) >= 5
			if known && (i == 0 || long) || i == 0 && long && nearKeyword(tok.Text, kw) {
				notation = true
			}
			if !known && proseWord(tok.Text) {
				everyday++
			}
		}
	}
	return notation && !sentence(line, everyday)
}

// sentence reports whether a line with no square, everyday of whose words
// are words of everyday French or English that are no keyword of the game
// (proseFR, proseEN: "je", "le", "hello", "the", "thanks"), is a sentence
// that names the game's words rather than a step: three such words
// ("Hello! I'll keep the forest village, thanks"), or two with a
// sentence's punctuation ("je garde le village :", "Please lay the plain
// castle."). "Please lay the plain castle" and "Take care" stay steps, and
// wrong ones: a misspelt step is an error, where a sentence is ignored and
// listed in the answer, and the line between them is drawn where a person
// would hesitate too. A game's step never holds such words unless they
// are its keywords (Héritiers' "the", "on"), which do not count.
func sentence(line string, everyday int) bool {
	if everyday >= 3 {
		return true
	}
	t := strings.TrimSpace(line)
	return everyday == 2 && (strings.ContainsAny(t, "!?,") || strings.HasSuffix(t, ":") || strings.HasSuffix(t, "."))
}

// isSquare reports whether w names a square: one or two letters, then one
// to three digits.
func isSquare(w string) bool {
	i := 0
	for i < len(w) && i < 2 && ('a' <= w[i]|0x20 && w[i]|0x20 <= 'z') {
		i++
	}
	if i == 0 || len(w)-i < 1 || len(w)-i > 3 {
		return false
	}
	return isDigits(w[i:])
}

// nearKeyword reports whether w is one edit away from a spelling of kw.
func nearKeyword(w string, kw Vocabulary) bool {
	f := Fold(w)
	for _, t := range kw {
		for _, s := range append(append([]string{t.Name}, t.EN...), t.FR...) {
			if Distance(f, Fold(s)) <= 1 {
				return true
			}
		}
	}
	return false
}
