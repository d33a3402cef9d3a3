package adjudicator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Robot plays a seat for someone who is not at the table: herald's bot
// (package adjudicator/bot), which this package does not import. A
// registry holds one ([Registry.WithRobot]) so that [Adjudicate] can check
// the moves a record says the robot made.
//
// A robot's move is recorded like anyone's, with source [BotSource] of its
// level ("bot:2"), and must be a function of the match as it stands (the
// state as the seat sees it, the seat, the level, the record's seed and
// the move number): Adjudicate plays the robot again at each such move and
// refuses a record whose move differs, as it does for an [Automaton].
type Robot interface {
	// Turn returns the steps seat plays now at level, in canonical
	// notation one a line, as move m.MoveNumber() of m. It does not change
	// m.
	Turn(m *Match, seat string, level int) (string, error)
}

// BotSourcePrefix begins the source of a move a robot made: "bot:2".
const BotSourcePrefix = "bot:"

// BotSource returns the source recorded with a move a robot of level made.
func BotSource(level int) string { return BotSourcePrefix + strconv.Itoa(level) }

// BotLevel returns the level of a robot's source ("bot:2" gives 2), and
// false for any other source.
func BotLevel(source string) (int, bool) {
	rest, ok := strings.CutPrefix(source, BotSourcePrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || strconv.Itoa(n) != rest {
		return 0, false
	}
	return n, true
}

// WithRobot returns a copy of r whose records' robot moves [Adjudicate]
// checks with rb.
func (r *Registry) WithRobot(rb Robot) *Registry {
	c := *r
	c.robot = rb
	return &c
}

// Robot returns r's robot, or nil.
func (r *Registry) Robot() Robot { return r.robot }

// robotMove returns the steps the record's move mv, number
// m.MoveNumber() of m, must hold because a bot made it, one a line
// (check set), or an error when mv cannot be a bot's: a move of a seat
// the record's bots list must come from that bot, and a source that
// begins with bot: must name a level. Moves of people give check false.
func robotMove(reg *Registry, m *Match, rec *Record, mv RecordMove) (want string, check bool, err error) {
	level, isBot := BotLevel(mv.Source)
	if lv, listed := rec.Bots[mv.Player]; listed && (!isBot || level != lv) {
		return "", false, Rulef(CodeNotTheBot, "RULINGS.md H-6",
			"%s is played by %s (the record's bots), but this move's source is %q: a bot's seat takes only the bot's moves",
			"%s est joué par %s (les robots de la partie), mais la source de ce coup est « %s » : la place d'un robot ne prend que les coups du robot",
			mv.Player, BotSource(lv), mv.Source)
	}
	if strings.HasPrefix(mv.Source, BotSourcePrefix) && !isBot {
		return "", false, Rulef(CodeNotTheBot, "RULINGS.md H-6", "the source %q is not a bot's (a bot's source is bot:LEVEL, e.g. bot:2)",
			"la source « %s » n'est pas celle d'un robot (celle d'un robot est bot:NIVEAU, par exemple bot:2)", mv.Source)
	}
	if !isBot || !slices.Contains(m.Record.Players, mv.Player) {
		return "", false, nil // a person's move, or one the replay refuses
	}
	if reg.robot == nil {
		return "", false, fmt.Errorf("the record says a bot played this move (source %s), and this registry has no bot to check it", mv.Source)
	}
	want, err = reg.robot.Turn(m, mv.Player, level)
	if err != nil {
		return "", false, Rulef(CodeNotTheBot, "RULINGS.md H-6", "the record says %s played this move, but %s cannot play %s's seat here: %v",
			"la partie dit que %s a joué ce coup, mais %s ne peut pas jouer ici à la place de %s : %v", mv.Source, mv.Source, mv.Player, err)
	}
	return want, true, nil
}

// notTheBot is the error for a recorded bot move, got, that is not the
// move the bot makes there, want.
func notTheBot(mv RecordMove, got, want string) error {
	return Rulef(CodeNotTheBot, "RULINGS.md H-6",
		"%s does not play %s here: in this position %s, playing %s's seat, plays %s",
		"%s ne joue pas %s ici : dans cette position, %s, à la place de %s, joue %s",
		mv.Source, strings.ReplaceAll(got, "\n", "; "), mv.Source, mv.Player, strings.ReplaceAll(want, "\n", "; "))
}
