package adjudicator

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/notation"
)

// OptionType is the type of a game option's value.
type OptionType int

// The option types.
const (
	OptInt  OptionType = iota // a whole number between Min and Max
	OptBool                   // true or false (also yes/no, on/off, oui/non)
	OptEnum                   // one of Values
	OptText                   // free text up to MaxOptionText bytes, checked by the game (a data file)
)

// MaxOptionText is the longest value of an OptText option.
const MaxOptionText = 64 << 10

func (t OptionType) String() string {
	switch t {
	case OptInt:
		return "int"
	case OptBool:
		return "bool"
	case OptText:
		return "text"
	default:
		return "enum"
	}
}

// Option is one named option of a game.
type Option struct {
	Name    string
	Doc     string // one line for `herald games`
	Type    OptionType
	Default string   // in canonical form
	Values  []string // for OptEnum
	Min     int      // for OptInt
	Max     int      // for OptInt
	// Before, when set, is the value (canonical) a record means when it
	// predates the option: an existing record, or a stored game, whose
	// options lack the name is read with Before rather than Default, so
	// that it replays as it was played ([Game.RecordOptions]). Every new
	// record writes the option with its value, so Before never reaches a
	// new game. Empty: a record without the name means Default.
	Before string
}

// Describe returns "name=default (type): doc" for listings.
func (o Option) Describe() string {
	typ := o.Type.String()
	switch o.Type {
	case OptEnum:
		typ = strings.Join(o.Values, "|")
	case OptInt:
		typ = fmt.Sprintf("%d..%d", o.Min, o.Max)
	case OptText:
		return fmt.Sprintf("%s=TEXT (%s): %s", o.Name, typ, o.Doc)
	}
	d := fmt.Sprintf("%s=%s (%s): %s", o.Name, o.Default, typ, o.Doc)
	if o.Before != "" {
		d += fmt.Sprintf("; records from before this option: %s=%s", o.Name, o.Before)
	}
	return d
}

// Options are a game's option values, validated and canonical, with every
// default filled in. Read them with the typed accessors.
type Options map[string]string

// Int returns the value of an int option.
func (o Options) Int(name string) int {
	n, _ := strconv.Atoi(o[name])
	return n
}

// Bool returns the value of a bool option.
func (o Options) Bool(name string) bool { return o[name] == "true" }

// String returns the value of an enum or text option.
func (o Options) String(name string) string { return o[name] }

// ResolveOptions checks the options given against the game's and returns
// them canonical with defaults filled in. An unknown name, a bad value or a
// value out of range is an error that says what would be valid.
func (g *Game) ResolveOptions(given map[string]string) (Options, error) {
	out := Options{}
	for _, o := range g.Options {
		out[o.Name] = o.Default
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := given[k]
		i := slices.IndexFunc(g.Options, func(o Option) bool { return o.Name == k })
		if i < 0 {
			return nil, g.unknownOption(k)
		}
		o := g.Options[i]
		canon, err := o.parse(v)
		if err != nil {
			return nil, Rulef(CodeBadOption, "", "option %s: %s", "option %s : %s", k, Words{EN: err.Msg, FR: err.MsgFR})
		}
		out[k] = canon
	}
	return out, nil
}

// RecordOptions is ResolveOptions for the options of an existing record
// (or a stored game's): an option with a Before that the record does not
// name takes that value, the one the game was played under before the
// option existed, rather than its default. New games use ResolveOptions.
func (g *Game) RecordOptions(recorded map[string]string) (Options, error) {
	given := maps.Clone(recorded)
	for _, o := range g.Options {
		if _, ok := given[o.Name]; !ok && o.Before != "" {
			if given == nil {
				given = map[string]string{}
			}
			given[o.Name] = o.Before
		}
	}
	return g.ResolveOptions(given)
}

func (g *Game) unknownOption(name string) error {
	if len(g.Options) == 0 {
		return Rulef(CodeUnknownOption, "", "unknown option %q: %s has no options", "option inconnue « %s » : %s n'a pas d'options", name, g.Name)
	}
	var v notation.Vocabulary
	for _, o := range g.Options {
		v = append(v, notation.Term{Name: o.Name})
	}
	if s := v.Suggest(name, notation.English); len(s) > 0 {
		return Rulef(CodeUnknownOption, "", "unknown option %q for %s; did you mean %q?", "option inconnue « %s » pour %s ; vouliez-vous dire « %s » ?", name, g.Name, s[0])
	}
	return Rulef(CodeUnknownOption, "", "unknown option %q for %s (options: %s)", "option inconnue « %s » pour %s (options : %s)", name, g.Name, strings.Join(v.Names(), ", "))
}

// parse returns v in canonical form, or a *RuleError without a code or
// rule saying what is wrong with it.
func (o Option) parse(v string) (string, *RuleError) {
	switch o.Type {
	case OptInt:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return "", Rulef("", "", "%q is not a whole number (expected %d to %d)", "« %s » n'est pas un nombre entier (attendu : de %d à %d)", v, o.Min, o.Max)
		}
		if n < o.Min || n > o.Max {
			return "", Rulef("", "", "%d is out of range (expected %d to %d)", "%d est hors limites (attendu : de %d à %d)", n, o.Min, o.Max)
		}
		return strconv.Itoa(n), nil
	case OptText:
		if len(v) > MaxOptionText {
			return "", Rulef("", "", "the text is %d bytes; the most is %d", "le texte fait %d octets ; le maximum est %d", len(v), MaxOptionText)
		}
		return v, nil
	case OptBool:
		switch notation.Fold(strings.TrimSpace(v)) {
		case "true", "yes", "on", "1", "oui", "vrai":
			return "true", nil
		case "false", "no", "off", "0", "non", "faux":
			return "false", nil
		}
		return "", Rulef("", "", "%q is not true or false", "« %s » n'est ni true ni false (ni oui ni non)", v)
	default:
		f := notation.Fold(strings.TrimSpace(v))
		for _, val := range o.Values {
			if notation.Fold(val) == f {
				return val, nil
			}
		}
		return "", Rulef("", "", "%q is not one of %s", "« %s » n'est pas l'une des valeurs %s", v, strings.Join(o.Values, ", "))
	}
}

// Registry is the list of games herald knows, in the order they are listed.
type Registry struct {
	games []*Game
	robot Robot // checks the moves bots made ([Registry.WithRobot]), or nil
}

// NewRegistry returns a registry of the given games. It panics on a
// duplicate name, or an option's Before that is not a value of it in
// canonical form: programming errors in games/games.go or a game.
func NewRegistry(games ...*Game) *Registry {
	seen := map[string]bool{}
	for _, g := range games {
		if seen[g.Name] {
			panic("adjudicator: game " + g.Name + " registered twice")
		}
		seen[g.Name] = true
		for _, o := range g.Options {
			if c, err := o.parse(o.Before); o.Before != "" && (err != nil || c != o.Before) {
				panic("adjudicator: option " + o.Name + " of " + g.Name + ": Before " + strconv.Quote(o.Before) + " is not one of its values in canonical form")
			}
		}
	}
	return &Registry{games: games}
}

// Games returns the games in listing order.
func (r *Registry) Games() []*Game { return slices.Clone(r.games) }

// Lookup returns the game called name (case and accents ignored), or an
// error that lists the games and suggests the nearest name.
func (r *Registry) Lookup(name string) (*Game, error) {
	var v notation.Vocabulary
	for _, g := range r.games {
		if notation.Fold(g.Name) == notation.Fold(name) {
			return g, nil
		}
		v = append(v, notation.Term{Name: g.Name})
	}
	if s := v.Suggest(name, notation.English); len(s) > 0 {
		return nil, Rulef(CodeUnknownGame, "", "unknown game %q; did you mean %q?", "jeu inconnu « %s » ; vouliez-vous dire « %s » ?", name, s[0])
	}
	return nil, Rulef(CodeUnknownGame, "", "unknown game %q (games: %s)", "jeu inconnu « %s » (jeux : %s)", name, strings.Join(v.Names(), ", "))
}

// CheckPlayers validates a list of player names for g: the count within the
// game's range, each name non-empty, made of letters, digits and . _ @ + -,
// and no name twice (case ignored).
func (g *Game) CheckPlayers(players []string) error {
	if n := len(players); n < g.MinPlayers || n > g.MaxPlayers {
		return Rulef(CodePlayerCount, "", "%s is for %d to %d players, not %d", "%s se joue de %d à %d joueurs, pas %d", g.Name, g.MinPlayers, g.MaxPlayers, n)
	}
	seen := map[string]bool{}
	for _, p := range players {
		if err := CheckPlayerName(p); err != nil {
			return err
		}
		k := strings.ToLower(p)
		if seen[k] {
			return Rulef(CodePlayerTwice, "", "player %q is listed twice", "le joueur « %s » est nommé deux fois", p)
		}
		seen[k] = true
	}
	return nil
}

// CheckPlayerName checks one player name.
func CheckPlayerName(p string) error {
	if p == "" {
		return Rulef(CodePlayerName, "", "a player name is empty", "un nom de joueur est vide")
	}
	if len(p) > 64 {
		return Rulef(CodePlayerName, "", "player name %q is longer than 64 characters", "le nom de joueur « %s » dépasse 64 caractères", p)
	}
	for _, r := range p {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._@+-", r)
		if !ok {
			return Rulef(CodePlayerName, "", "player name %q has %q; use letters, digits and . _ @ + -", "le nom de joueur « %s » contient %q ; utilisez des lettres, des chiffres et . _ @ + -", p, r)
		}
	}
	return nil
}
