// Package notation is herald's toolkit for reading the short text notation
// players write their moves in, in a mail body or a YAML turn file.
//
// It is game-agnostic. It splits a submission into steps (one per line or
// separated by ';', comments after '#'), cuts each step into tokens that know
// their line and column, matches keywords in English and French regardless of
// case and accents, suggests the nearest keyword for a misspelt word, and
// reports errors the way a player can act on them:
//
//	2:9: unknown terrain "fôret"; did you mean "forest"?
//	  plain fôret e5
//	        ^
//
// Each game builds its own grammar on top of it with a [Scanner] and one or
// more [Vocabulary] values; see games/raubritter for an example. The package
// also reads YAML turn files ([ParseTurnFile]).
package notation

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pos is a position in a player's input: 1-based line and column, where the
// column counts characters (runes), not bytes, because that is what a player
// counts in their mail client.
type Pos struct {
	Line, Col int
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "line:col", or "-" for an invalid position.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Kind is the kind of a token.
type Kind int

// The token kinds.
const (
	Word   Kind = iota // letters and digits, starting with a letter or mixing both: "forest", "e5", "château"
	Number             // digits only: "3"
	Punct              // one punctuation character: ",", ":", "/", "-", "(", ")"
)

func (k Kind) String() string {
	switch k {
	case Word:
		return "word"
	case Number:
		return "number"
	default:
		return "punctuation"
	}
}

// Token is one lexical unit of a step.
type Token struct {
	Kind Kind
	Text string // as written
	Pos  Pos    // of its first character
}

// End returns the position just after the token.
func (t Token) End() Pos {
	return Pos{t.Pos.Line, t.Pos.Col + utf8.RuneCountInString(t.Text)}
}

// Step is one atomic step of a submission, as the player wrote it.
type Step struct {
	Text   string  // the step's text, trimmed, without comment
	Pos    Pos     // of its first character
	Tokens []Token // never empty
	Source string  // the whole input line the step is on, for carets
	Lang   Lang    // the language of the keywords read so far; set by Scanner
}

// Split cuts src into steps: one per line, or several on a line separated by
// ';'. Text after '#' to the end of the line is a comment. Blank steps are
// dropped. Every line that holds a character the notation does not use gets
// an error; Split reports all of them and returns the steps it could read.
func Split(src string) ([]*Step, ErrorList) {
	var steps []*Step
	var errs ErrorList
	src = strings.TrimPrefix(src, "\ufeff")
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		lineNo := i + 1
		runes := []rune(line)
		// text is the runes of line from a up to b: a slice of line itself
		// when it is ASCII, a rune a byte (no copy: most mails are).
		ascii := isASCII(line)
		text := func(a, b int) string {
			if ascii {
				return line[a:b]
			}
			return string(runes[a:b])
		}
		var cur *Step
		flush := func() {
			if cur != nil {
				cur.Tokens = dropListMarks(cur.Tokens)
			}
			if cur != nil && len(cur.Tokens) > 0 {
				first, last := cur.Tokens[0], cur.Tokens[len(cur.Tokens)-1]
				cur.Pos = first.Pos
				cur.Text = text(first.Pos.Col-1, last.End().Col-1)
				steps = append(steps, cur)
			}
			cur = nil
		}
		lineErr := false
		for j := 0; j < len(runes); {
			r := runes[j]
			col := j + 1
			switch {
			case r == '#':
				j = len(runes)
				continue
			case r == ';':
				flush()
				j++
				continue
			case unicode.IsSpace(r):
				j++
				continue
			}
			if cur == nil {
				cur = &Step{Source: line}
			}
			switch {
			case isWordRune(r):
				k := j
				for k < len(runes) && (isWordRune(runes[k]) || isJoiner(runes, k)) {
					k++
				}
				word := text(j, k)
				kind := Word
				if isDigits(word) {
					kind = Number
				}
				cur.Tokens = append(cur.Tokens, Token{Kind: kind, Text: word, Pos: Pos{lineNo, col}})
				j = k
			case strings.ContainsRune(punctuation, r):
				cur.Tokens = append(cur.Tokens, Token{Kind: Punct, Text: text(j, j+1), Pos: Pos{lineNo, col}})
				j++
			default:
				if !lineErr {
					errs = append(errs, &Error{
						Pos:    Pos{lineNo, col},
						Msg:    fmt.Sprintf("unexpected character %q", r),
						MsgFR:  fmt.Sprintf("caractère inattendu %q", r),
						Source: line,
					})
					lineErr = true
				}
				j++
			}
		}
		flush()
	}
	return steps, errs
}

// dropListMarks returns the tokens of a step without the marks a player
// writes around steps as in a list, which no notation uses there: a
// bullet and a space ("- keep plain village", "* take 2"), a number
// ("1) keep ...", "2. take 2"), a colon after the first word ("Keep:
// plain village"). What is left is the step as the notation writes it;
// a mark alone is left for the game to refuse.
func dropListMarks(toks []Token) []Token {
	switch {
	case len(toks) > 1 && toks[0].Kind == Punct && (toks[0].Text == "-" || toks[0].Text == "*") && toks[1].Kind == Word &&
		toks[1].Pos.Col > toks[0].End().Col:
		toks = toks[1:]
	case len(toks) > 2 && toks[0].Kind == Number && toks[1].Kind == Punct && (toks[1].Text == ")" || toks[1].Text == ".") &&
		toks[2].Kind == Word && toks[1].Pos.Col == toks[0].End().Col:
		toks = toks[2:]
	}
	if len(toks) > 2 && toks[0].Kind == Word && toks[1].Kind == Punct && toks[1].Text == ":" && toks[1].Pos.Col == toks[0].End().Col {
		toks = append([]Token{toks[0]}, toks[2:]...)
	}
	return toks
}

// punctuation lists the punctuation characters a step may hold.
const punctuation = ",:/-()+*.='\"«»|"

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isJoiner reports whether runes[k] is a hyphen, apostrophe or dot joining two
// word characters, as in "chateau-fort", "aujourd'hui" or "alice@x.org".
func isJoiner(runes []rune, k int) bool {
	if k == 0 || k+1 >= len(runes) {
		return false
	}
	switch runes[k] {
	case '-', '\'', '’':
		// Only between letters, so that "1-2-1" stays three numbers.
		return unicode.IsLetter(runes[k-1]) && unicode.IsLetter(runes[k+1])
	case '.', '@', '_', '+':
		return isWordRune(runes[k-1]) && isWordRune(runes[k+1])
	}
	return false
}

// isASCII reports whether s holds ASCII alone: a byte a rune.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// sliceCols returns the runes of line from column from up to, not including,
// column to (both 1-based).
func sliceCols(line string, from, to int) string {
	runes := []rune(line)
	if from < 1 {
		from = 1
	}
	if to-1 > len(runes) {
		to = len(runes) + 1
	}
	if from > to {
		return ""
	}
	return string(runes[from-1 : to-1])
}
