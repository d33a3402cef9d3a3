package adjudicator

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/heraldgames/herald/notation"
)

// RuleError is a move that is understood but not allowed. It cites the rule
// it breaks and says why in English and in French.
type RuleError struct {
	Code  string       // short stable identifier for tests and tools: "lake", "not-your-turn"
	Rule  string       // the rulebook file and line ("raubritter-fr-scan.txt:163") or a ruling ("RULINGS.md RB-4")
	Msg   string       // English, lower case, no position
	MsgFR string       // French
	Pos   notation.Pos // optional: where in the step the fault is

	// Hidden marks a reason that depends on what the player may not have
	// seen before their move: their hand after a draw, a pile they look
	// at in the same move. After a step that turned up something hidden
	// ([Revealer]), such a refusal says nothing of it ([StepError.Reveal]).
	Hidden bool
}

var _ error = (*RuleError)(nil)

// OnHidden returns a copy of e marked Hidden.
func (e *RuleError) OnHidden() *RuleError {
	c := *e
	c.Hidden = true
	return &c
}

// Rulef returns a RuleError. The English and French formats take the same
// arguments in the same order. An argument of type [Words] is given to the
// English format as its EN and to the French format as its FR, so that a
// game's words (a tile, a hand, a direction) are named in the language of
// the message:
//
//	Rulef("occupied", rule, "%s already holds a %s tile", "%s porte déjà une plaquette %s",
//		"e5", Words{EN: "plain castle", FR: "plaine château"})
//
// gives "e5 already holds a plain castle tile" and "e5 porte déjà une
// plaquette plaine château". Every other argument is given as is to both.
func Rulef(code, rule, en, fr string, args ...any) *RuleError {
	return &RuleError{
		Code:  code,
		Rule:  rule,
		Msg:   fmt.Sprintf(en, wordsIn(args, notation.English)...),
		MsgFR: fmt.Sprintf(fr, wordsIn(args, notation.French)...),
	}
}

// Words is a word or phrase of a game in English and in French, as an
// argument of [Rulef]: "plain castle" and "plaine château". Write FR as the
// game's French notation writes it, so that a player can copy it into their
// next move. An empty FR means the French is the English.
type Words struct {
	EN, FR string
}

// In returns the words in lang.
func (w Words) In(lang notation.Lang) string {
	if lang == notation.French && w.FR != "" {
		return w.FR
	}
	return w.EN
}

// String returns the English, for a Words formatted outside Rulef.
func (w Words) String() string { return w.EN }

// JoinWords joins list with sep in each language: a hand of tiles, a list
// of choices.
func JoinWords(list []Words, sep string) Words {
	en := make([]string, len(list))
	fr := make([]string, len(list))
	for i, w := range list {
		en[i], fr[i] = w.EN, w.In(notation.French)
	}
	return Words{EN: strings.Join(en, sep), FR: strings.Join(fr, sep)}
}

// OfName returns a player's name as an argument of [Rulef] after "of": in
// French "de blue", elided before a vowel or an h, "d'orange", "d'henri";
// in English the name alone, for a format that writes "%s's".
func OfName(name string) Words {
	fr := "de " + name
	if r, _ := utf8.DecodeRuneInString(name); strings.ContainsRune("aeiouyhàâéèêëîïôûAEIOUYHÀÂÉÈÊÎÔÛ", r) {
		fr = "d'" + name
	}
	return Words{EN: name, FR: fr}
}

// wordsIn returns args with every Words replaced by its text in lang.
func wordsIn(args []any, lang notation.Lang) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if w, ok := a.(Words); ok {
			out[i] = w.In(lang)
		} else {
			out[i] = a
		}
	}
	return out
}

// At returns a copy of e pointing at pos.
func (e *RuleError) At(pos notation.Pos) *RuleError {
	c := *e
	c.Pos = pos
	return &c
}

// Error returns the English sentence with the rule cited.
func (e *RuleError) Error() string { return e.Localize(notation.English) }

// Localize returns the sentence in lang with the rule cited.
func (e *RuleError) Localize(lang notation.Lang) string {
	msg := e.Msg
	if lang == notation.French && e.MsgFR != "" {
		msg = e.MsgFR
	}
	if e.Rule == "" {
		return msg
	}
	if lang == notation.French {
		return fmt.Sprintf("%s [règle : %s]", msg, e.Rule)
	}
	return fmt.Sprintf("%s [rule: %s]", msg, e.Rule)
}

// Localizer is an error that can speak the player's language.
type Localizer interface {
	error
	Localize(lang notation.Lang) string
}

// Localize returns err's message in lang when it can speak it.
func Localize(err error, lang notation.Lang) string {
	var l Localizer
	if errors.As(err, &l) {
		return l.Localize(lang)
	}
	return err.Error()
}

// StepError is the failure of one step of a submission. Nothing of the
// submission was applied.
type StepError struct {
	Index int            // 1-based number of the step in the submission
	Step  *notation.Step // the step as written
	Err   error          // *notation.Error (not understood) or *RuleError (not allowed)
	Lang  notation.Lang  // the language the submission was written in, up to this step

	// Reveal, when not 0, is the 1-based number of an earlier step of the
	// same submission that turned up something hidden ([Revealer]): a
	// pile looked at, a tile drawn; and the reason Err gives depends on
	// it (a *RuleError marked Hidden, or one that names what the player
	// could not see before the move, [Secretive]). The submission,
	// refused, never showed its player what the step turned up; so Error,
	// Localize and Pretty say only that (RULINGS.md H-4), and Err, for
	// the referee, holds the reason.
	Reveal int

	// Also are the words of the submission, after the fault, that look
	// like misspelt keywords (Match.alsoMisspelt), each with the keywords
	// nearest it: Pretty tells them under the error, so that a turn with
	// two typos costs one answer, not two.
	Also []*notation.Error
}

var _ error = (*StepError)(nil)

func (e *StepError) Unwrap() error { return e.Err }

// Error returns the one-line English form.
func (e *StepError) Error() string { return e.Localize(notation.English) }

// Localize returns the one-line form in lang:
// `step 2 "knights e 1 2 2": 5:3: ...` in English, and with French
// quotes and spacing `étape 2 « chevaliers e 1 2 2 » : 5:3: ...` in French.
// The line:column stays as it is in both, as a locator.
func (e *StepError) Localize(lang notation.Lang) string {
	msg := Localize(e.Err, lang)
	if e.Reveal > 0 {
		msg = e.hiddenReason(lang)
	}
	var re *RuleError
	if errors.As(e.Err, &re) {
		pos := re.Pos
		if !pos.IsValid() {
			pos = e.Step.Pos
		}
		msg = pos.String() + ": " + msg
	}
	if lang == notation.French {
		return fmt.Sprintf("étape %d « %s » : %s", e.Index, e.Step.Text, msg)
	}
	return fmt.Sprintf("step %d %q: %s", e.Index, e.Step.Text, msg)
}

// Pretty returns the form for people: the message, the line quoted with a
// caret under the fault, and the rule.
func (e *StepError) Pretty(lang notation.Lang) string {
	var b strings.Builder
	word := "step %d: "
	if lang == notation.French {
		word = "étape %d : " // French typography: a space before the colon
	}
	var ne *notation.Error
	var re *RuleError
	switch {
	case e.Reveal > 0:
		n := &notation.Error{Pos: e.Step.Pos, Msg: e.hiddenReason(notation.English), MsgFR: e.hiddenReason(notation.French), Source: e.Step.Source}
		fmt.Fprintf(&b, word+"%s", e.Index, n.Pretty(lang))
	case errors.As(e.Err, &ne):
		fmt.Fprintf(&b, word+"%s", e.Index, ne.Pretty(lang))
	case errors.As(e.Err, &re):
		pos := re.Pos
		if !pos.IsValid() {
			pos = e.Step.Pos
		}
		n := &notation.Error{Pos: pos, Msg: re.Localize(notation.English), MsgFR: re.Localize(notation.French), Source: e.Step.Source}
		fmt.Fprintf(&b, word+"%s", e.Index, n.Pretty(lang))
	default:
		b.WriteString(e.Localize(lang))
		b.WriteByte('\n')
	}
	also := "also: "
	if lang == notation.French {
		also = "et aussi : "
	}
	for _, a := range e.Also {
		b.WriteString(also + a.Pretty(lang))
	}
	return b.String()
}

// hiddenReason is what a step refused after step e.Reveal turned up
// something hidden is told, in lang.
func (e *StepError) hiddenReason(lang notation.Lang) string {
	if lang == notation.French {
		return fmt.Sprintf("refusée, mais l'étape %d a révélé ce qui était caché (une pile regardée, une tuile tirée) et un coup refusé n'en montre rien, pas même pourquoi cette étape ne va pas : envoyez d'abord les étapes jusqu'à la %d, puis les autres [règle : RULINGS.md H-4]", e.Reveal, e.Reveal)
	}
	return fmt.Sprintf("refused, but step %d turned up what was hidden (a pile looked at, a tile drawn) and a refused move shows nothing of it, not even why this step is wrong: send the steps up to step %d first, then the rest [rule: RULINGS.md H-4]", e.Reveal, e.Reveal)
}

// Pretty renders any error of a submission for people in lang: notation
// errors and step errors with their caret, others as one line.
func Pretty(err error, lang notation.Lang) string {
	var se *StepError
	var nl notation.ErrorList
	var ne *notation.Error
	switch {
	case errors.As(err, &se):
		return se.Pretty(lang)
	case errors.As(err, &nl):
		return nl.Pretty(lang)
	case errors.As(err, &ne):
		return ne.Pretty(lang)
	}
	return Localize(err, lang) + "\n"
}

// Codes of the rule errors the adjudicator itself raises.
const (
	CodeNotYourTurn = "not-your-turn"
	CodeGameOver    = "game-over"
	CodeGameEnded   = "game-ended" // resigned or abandoned (RULINGS.md H-1)
	CodeNotAPlayer  = "not-a-player"
	CodeNoSteps     = "no-steps"

	// Codes of a game that cannot start as asked: an unknown game or
	// option, a bad option value, a wrong number of players, a bad or
	// repeated player name.
	CodeUnknownGame   = "unknown-game"
	CodeUnknownOption = "unknown-option"
	CodeBadOption     = "bad-option"
	CodePlayerCount   = "player-count"
	CodePlayerTwice   = "player-twice"
	CodePlayerName    = "player-name"

	// Codes of a turn file that does not fit the game it is applied to
	// ([Match.CheckTurnFile]).
	CodeWrongGame = "wrong-game"
	CodeStaleMove = "stale-move"
	CodeEarlyMove = "early-move"

	// CodeAutomatonSeat: a submission for a seat the game plays itself.
	CodeAutomatonSeat = "automaton-seat"
	// CodeNotTheAutomaton: a recorded move of an automaton seat that is
	// not the move the automaton makes there.
	CodeNotTheAutomaton = "not-the-automaton"
	// CodeNotTheBot: a recorded move of a bot that is not the move the
	// bot makes there, or a move of a bot's seat not made by the bot.
	CodeNotTheBot = "not-the-bot"
)
