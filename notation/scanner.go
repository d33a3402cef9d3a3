package notation

import (
	"fmt"
	"strconv"
	"strings"
)

// Scanner walks the tokens of one step for a game's parser. It records the
// language of the keywords it reads in the step, and builds errors that point
// at a token or at the end of the step.
type Scanner struct {
	step *Step
	i    int
	// fr and en count the keywords read that only French, or only
	// English, spells so; first is the language of the first of them.
	fr, en int
	first  Lang
}

// NewScanner returns a scanner at the first token of step.
func NewScanner(step *Step) *Scanner { return &Scanner{step: step} }

// Step returns the step being scanned.
func (s *Scanner) Step() *Step { return s.step }

// Done reports whether every token has been read.
func (s *Scanner) Done() bool { return s.i >= len(s.step.Tokens) }

// Peek returns the next token without reading it; ok is false at the end.
func (s *Scanner) Peek() (tok Token, ok bool) {
	if s.Done() {
		return Token{}, false
	}
	return s.step.Tokens[s.i], true
}

// Next reads the next token; ok is false at the end.
func (s *Scanner) Next() (tok Token, ok bool) {
	tok, ok = s.Peek()
	if ok {
		s.i++
	}
	return tok, ok
}

// EndPos returns the position just after the last token, where a missing
// word would go.
func (s *Scanner) EndPos() Pos {
	if len(s.step.Tokens) == 0 {
		return s.step.Pos
	}
	end := s.step.Tokens[len(s.step.Tokens)-1].End()
	end.Col++ // after the space a player would type
	return end
}

// Keyword reads the next token if it is a word of v, and returns the term's
// canonical name. It notes the word's language on the step. It does not
// consume anything when the next token is not in v.
func (s *Scanner) Keyword(v Vocabulary) (name string, ok bool) {
	tok, ok := s.Peek()
	if !ok || tok.Kind != Word {
		return "", false
	}
	name, lang, ok := v.Lookup(tok.Text)
	if !ok {
		return "", false
	}
	s.i++
	s.noteLang(v, tok.Text, lang)
	return name, true
}

// noteLang counts the language of word, a keyword of v read as lang, and
// sets the step's language: French when more of its keywords are French
// only than English only, or as many and the first of them was ("knights
// est 2 1", an English step with a French word in it, stays English; the
// answer to it came in French).
func (s *Scanner) noteLang(v Vocabulary, word string, lang Lang) {
	switch {
	case lang == French:
		if s.fr+s.en == 0 {
			s.first = French
		}
		s.fr++
	case v.frenchSpells(word):
		return // a word both languages spell so ("village")
	default:
		if s.fr+s.en == 0 {
			s.first = English
		}
		s.en++
	}
	if s.fr > s.en || s.fr == s.en && s.first == French {
		s.step.Lang = French
	} else {
		s.step.Lang = English
	}
}

// Noun names what a grammar expects at some point, for error messages, in
// English and in French (with its gender, for the agreement).
type Noun struct {
	EN       string // "building"
	FR       string // "bâtiment"
	Feminine bool   // French gender: "étape inconnue", "il manque une étape"
}

func (n Noun) unknownFR() string {
	if n.Feminine {
		return n.FR + " inconnue"
	}
	return n.FR + " inconnu"
}

func (n Noun) missingFR() string {
	if n.Feminine {
		return "il manque une " + n.FR
	}
	return "il manque un " + n.FR
}

// Expect reads a keyword of v, or returns an error naming what was
// expected, with suggestions from v for a misspelt word.
func (s *Scanner) Expect(v Vocabulary, what Noun) (string, *Error) {
	if name, ok := s.Keyword(v); ok {
		return name, nil
	}
	return "", s.Unexpected(v, what)
}

// Unexpected returns the error for a next token that is not one of v: an
// unknown word gets suggestions, the end of the step says what is missing.
func (s *Scanner) Unexpected(v Vocabulary, what Noun) *Error {
	tok, ok := s.Peek()
	lang := s.step.Lang
	if !ok {
		e := s.ErrorAt(s.EndPos(),
			fmt.Sprintf("missing %s", what.EN),
			what.missingFR())
		if len(v) <= 8 {
			e.Msg += fmt.Sprintf(" (expected %s)", quoteList(v.Spellings(English), English))
			e.MsgFR += fmt.Sprintf(" (attendu : %s)", quoteList(v.Spellings(French), French))
		}
		return e
	}
	e := s.ErrorAt(tok.Pos,
		fmt.Sprintf("unknown %s %q", what.EN, tok.Text),
		fmt.Sprintf("%s « %s »", what.unknownFR(), tok.Text))
	if tok.Kind == Word {
		e.Suggest = v.Suggest(tok.Text, lang)
	}
	if len(e.Suggest) == 0 && len(v) <= 8 {
		e.Msg += fmt.Sprintf(" (expected %s)", quoteList(v.Spellings(English), English))
		e.MsgFR += fmt.Sprintf(" (attendu : %s)", quoteList(v.Spellings(French), French))
	}
	return e
}

// Number reads the next token if it is a number.
func (s *Scanner) Number() (n int, tok Token, ok bool) {
	tok, ok = s.Peek()
	if !ok || tok.Kind != Number {
		return 0, tok, false
	}
	n, err := strconv.Atoi(tok.Text)
	if err != nil || n > 1_000_000 {
		return 0, tok, false
	}
	s.i++
	return n, tok, true
}

// Punct reads the next token if it is the punctuation p.
func (s *Scanner) Punct(p string) bool {
	tok, ok := s.Peek()
	if ok && tok.Kind == Punct && tok.Text == p {
		s.i++
		return true
	}
	return false
}

// ErrorAt returns an error at pos in the step's line.
func (s *Scanner) ErrorAt(pos Pos, msg, msgFR string) *Error {
	return &Error{Pos: pos, Msg: msg, MsgFR: msgFR, Source: s.step.Source}
}

// ErrorAtToken returns an error pointing at tok.
func (s *Scanner) ErrorAtToken(tok Token, msg, msgFR string) *Error {
	return s.ErrorAt(tok.Pos, msg, msgFR)
}

// ExpectEnd returns an error at the first token left over, if any.
func (s *Scanner) ExpectEnd() *Error {
	tok, ok := s.Peek()
	if !ok {
		return nil
	}
	rest := make([]string, 0, len(s.step.Tokens)-s.i)
	for _, t := range s.step.Tokens[s.i:] {
		rest = append(rest, t.Text)
	}
	if tok.Kind == Punct && tok.Text == "," && s.i+1 < len(s.step.Tokens) {
		// "plain castle f5, knights 0": two steps written as one.
		return s.ErrorAtToken(tok,
			fmt.Sprintf("unexpected %q at the end of the step; use ';' between steps (or one step per line), not ','", strings.Join(rest, " ")),
			fmt.Sprintf("« %s » en trop à la fin de l'étape ; séparez les étapes par « ; » (ou une par ligne), pas par « , »", strings.Join(rest, " ")))
	}
	return s.ErrorAtToken(tok,
		fmt.Sprintf("unexpected %q at the end of the step", strings.Join(rest, " ")),
		fmt.Sprintf("« %s » en trop à la fin de l'étape", strings.Join(rest, " ")))
}
