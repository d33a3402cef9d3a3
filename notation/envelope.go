package notation

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Envelope is what a mail body says besides the moves: which game, the
// player's key, and commands to herald. Envelope lines are recognised by
// their first word, in English or French; every other line is a step of
// the game.
//
//	game G12                  partie G12       which game (also "[herald G12]" in the subject)
//	key 7f3a-91c2             clé 7f3a-91c2    the player's secret key
//	show | legal | help       montre | coups | aide
//	history | resign          historique | abandonne
//	abandon                   annule           (host) end the game without a result
//	new GAME players A B...   nouvelle ...     (host) start a game
//
// The keyword of "game" and "key" may be followed by ':' or '=' ("Key:
// 7f3a", "clé : 7f3a", "KEY=7f3a") or by "is" ("key is 7f3a"), in any
// case.
type Envelope struct {
	Game     string // the game id as written ("G12"), or ""
	Key      string // the key as written, or ""
	KeyPos   Pos    // the position of the key line's keyword, when Key is set
	GamePos  Pos    // the position of the game line's keyword, when Game is set
	Commands []Command
	Steps    []*Step // the other lines, as steps, with their lines in the body
	Errors   ErrorList
	Lang     Lang // French if an envelope keyword was French, or the mail's prose (proseLang)
	// LangClear is set when the mail's words said its language: a French
	// keyword or French prose, or for English a command in English
	// ("show"; not "game" and "key", which every mail copies from herald's)
	// or English prose. It is not set when Lang is English for want of any
	// French: the steps of a game may still say (adjudicator.Submission.Lang).
	LangClear bool
	// Preview is set by a line that begins with "preview" (French
	// "essai"): the steps are to be tried, not played.
	Preview bool

	splitErrs int // Errors[:splitErrs] are about envelope lines
}

// Command is an envelope command with its arguments.
type Command struct {
	Name string // canonical English name: show, legal, help, history, resign, abandon, new, set, replace, observe, unobserve, notify, vacation, undo, hint, lang
	Args []string
	Pos  Pos
}

var envelopeWords = Vocabulary{
	{Name: "game", FR: []string{"partie", "jeu"}},
	{Name: "key", FR: []string{"clé", "cle", "clef"}},
	{Name: "show", EN: []string{"board", "status"}, FR: []string{"montre", "montrer", "plateau", "état"}},
	{Name: "legal", EN: []string{"moves"}, FR: []string{"coups", "légal", "legaux", "légaux"}},
	{Name: "help", FR: []string{"aide"}},
	{Name: "history", FR: []string{"historique"}},
	{Name: "resign", FR: []string{"abandonne", "abandonner"}},
	{Name: "abandon", EN: []string{"cancel"}, FR: []string{"annule", "annuler"}},
	{Name: "new", FR: []string{"nouvelle", "nouveau"}},
	{Name: "set", FR: []string{"régler", "regler", "réglage", "reglage"}},
	{Name: "replace", FR: []string{"remplace", "remplacer"}},
	{Name: "observe", EN: []string{"watch", "follow"}, FR: []string{"observer", "suivre"}},
	{Name: "unobserve", EN: []string{"unwatch", "unfollow"}, FR: []string{"quitter"}},
	{Name: "notify", FR: []string{"avis", "notifier", "courrier"}},
	{Name: "vacation", EN: []string{"away", "holiday"}, FR: []string{"vacances", "absent", "absente"}},
	{Name: "undo", EN: []string{"takeback"}, FR: []string{"reprendre", "reprends", "reprise"}},
	{Name: "hint", FR: []string{"conseil"}},
	{Name: "lang", FR: []string{"langue"}},
}

// previewWords is the word that makes a mail's steps a dry run.
var previewWords = Vocabulary{{Name: "preview", FR: []string{"essai", "essayer", "aperçu", "apercu"}}}

// EnvelopeCommands lists the canonical command names ParseEnvelope knows.
var EnvelopeCommands = []string{"show", "legal", "help", "history", "resign", "abandon", "new", "set", "replace", "observe", "unobserve", "notify", "vacation", "undo", "hint", "lang"}

// ParseEnvelope reads a mail body: envelope lines are taken out, the rest
// is split into steps whose positions are lines of body. A line that is
// only "game"/"key" with no value is an error. Envelope commands take the
// whole line, so "show" on a line of its own is a command and never a step.
// A line that begins with "::" is herald's status line (the first line of
// its mails), copied back: it is skipped.
func ParseEnvelope(body string) *Envelope {
	env := &Envelope{}
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	rest := make([]string, len(lines))
	restSteps := make([][]*Step, len(lines)) // Split of each line of rest, for proseLang
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "::") || heraldLine.MatchString(line) {
			continue // herald's own line, copied back in a reply
		}
		steps, _ := Split(line)
		if len(steps) == 0 {
			continue
		}
		first := steps[0].Tokens[0]
		if pname, plang, ok := previewWords.Lookup(first.Text); ok && pname == "preview" && first.Kind == Word {
			// "preview plain castle f5; knights 1": the steps after the
			// word are tried, not played; blanking the word keeps their
			// columns.
			env.Preview = true
			if plang == French {
				env.Lang = French
			}
			r := []rune(line)
			for c := first.Pos.Col - 1; c < first.End().Col-1 && c < len(r); c++ {
				r[c] = ' '
			}
			rest[i] = string(r)
			restSteps[i], _ = Split(rest[i])
			continue
		}
		name, lang, ok := envelopeWords.Lookup(first.Text)
		if !ok || first.Kind != Word || len(steps) > 1 {
			rest[i], restSteps[i] = line, steps
			continue
		}
		if lang == French {
			env.Lang = French
		}
		commandEN := lang == English && name != "game" && name != "key"
		// Values and arguments may hold punctuation ("7f3a-91c2",
		// "setup=random"): take the raw words after the keyword.
		value := strings.TrimSpace(sliceCols(line, first.End().Col, len([]rune(line))+1))
		if j := strings.IndexByte(value, '#'); j >= 0 {
			value = strings.TrimSpace(value[:j])
		}
		if name == "game" || name == "key" {
			// "Key: K", "clé : K", "KEY=K", "key is K".
			value = strings.TrimLeftFunc(value, func(r rune) bool { return r == ':' || r == '=' || unicode.IsSpace(r) })
			if f := strings.Fields(value); len(f) > 1 && (Fold(f[0]) == "is" || Fold(f[0]) == "est") {
				value = strings.TrimSpace(strings.TrimPrefix(value, f[0]))
			}
		}
		if name == "game" && value != "" && !gameValue.MatchString(value) {
			// "game on!", "Game G2, move 1": prose, never a game line.
			rest[i], restSteps[i] = line, steps
			continue
		}
		args := strings.Fields(value)
		pos := Pos{i + 1, first.Pos.Col}
		switch name {
		case "game", "key":
			if value == "" {
				env.Errors = append(env.Errors, &Error{Pos: pos, Source: line,
					Msg:   name + " needs a value, like \"" + name + " " + map[string]string{"game": "G12", "key": "7f3a-91c2"}[name] + "\"",
					MsgFR: map[string]string{"game": "partie", "key": "clé"}[name] + " doit être suivi d'une valeur"})
				continue
			}
			value = strings.Fields(value)[0]
			if name == "game" {
				env.Game, env.GamePos = strings.TrimRight(value, ".,;"), pos
			} else {
				if env.Key != "" && env.Key != value {
					// Two keys: two seats, perhaps of two games. Which
					// the steps are for is not clear.
					env.Errors = append(env.Errors, &Error{Pos: pos, Source: line,
						Msg:   fmt.Sprintf("a second key line, and another key than line %d's: herald reads one key a mail; send each seat's mail apart", env.KeyPos.Line),
						MsgFR: fmt.Sprintf("une seconde ligne de clé, et une autre clé que celle de la ligne %d : herald lit une clé par courrier ; envoyez le courrier de chaque place à part", env.KeyPos.Line)})
					continue
				}
				if env.Key == value {
					continue // the same key again: the first line names it
				}
				env.Key, env.KeyPos = value, pos
			}
		default:
			env.Commands = append(env.Commands, Command{Name: name, Args: args, Pos: pos})
			env.LangClear = env.LangClear || commandEN
		}
	}
	env.splitErrs = len(env.Errors)
	if env.Lang == French {
		env.LangClear = true
	} else {
		var clear bool
		env.Lang, clear = proseLang(restSteps)
		env.LangClear = env.LangClear || clear
	}
	steps, errs := Split(strings.Join(rest, "\n"))
	for _, st := range steps {
		st.Source = lines[st.Pos.Line-1]
	}
	env.Steps = steps
	env.Errors = append(env.Errors, errs...)
	return env
}

// heraldLine matches the lines herald writes that name a game, as a mail
// that copies herald's back without quoting them holds them: "Game G2,
// move 1: IT IS YOUR TURN, alice.", "Game G2 is over: ...", "Welcome to
// game G2 of ...", and in French "Partie G2, coup 1 : C'EST VOTRE TOUR",
// "La partie G2 est finie". They are never commands nor steps.
var heraldLine = regexp.MustCompile(`^\s*(?i:(game|partie) G\d+(, move \d+:|, coup \d+ :| is over| est finie| has ended| has started| of | en est au coup)|la partie G\d+ est finie|welcome to game G\d+ )`)

// gameValue is what may follow the keyword of a game line: a game id, as
// "G12" or "12", with a trailing stop or comma ("is", ":" or "=" before
// it and a # comment after it are already cut off).
var gameValue = regexp.MustCompile(`^[Gg]?[0-9]+[.,;]?$`)

var subjectTag = regexp.MustCompile(`\[herald\s+([A-Za-z]?[0-9]+)\]`)

// SubjectGame returns the game id in a subject like "Re: [herald G12] your
// turn", or "".
func SubjectGame(subject string) string {
	m := subjectTag.FindStringSubmatch(subject)
	if m == nil {
		return ""
	}
	return m[1]
}
