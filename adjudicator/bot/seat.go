package bot

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
)

// Reason is what the search found of a step it chose, for the one-line
// reason people are given with a bot's move.
type Reason struct {
	Move adjudicator.Move
	// Only is set when the step was the only legal one: nothing was
	// searched.
	Only bool
	// Visits is the number of iterations, of Iterations, that went
	// through the step at the root: the search chose the step it tried
	// most.
	Visits, Iterations int
	// Mean is the mean outcome of those iterations for the seat, from 0
	// (lost, far behind the best other) to 1 (won, far ahead).
	Mean float64
	// Gain is what the step gains the seat at once over the best of the
	// others, in a game with priors (Choice.Gain); 0 otherwise.
	Gain int
}

// Why returns the reason of c in English and in French: "chosen in 61% of
// 400 tries, mean outcome 0.58 of 1", or "the only legal step"; a step
// that gains points at once says so first: "7 points at once, more than
// any other player gains by it; chosen in …".
func (c Reason) Why() (en, fr string) {
	if c.Only || c.Iterations == 0 {
		return "the only legal step", "la seule étape légale"
	}
	pct := int(math.Round(100 * float64(c.Visits) / float64(c.Iterations)))
	mean := strconv.FormatFloat(c.Mean, 'f', 2, 64)
	en = fmt.Sprintf("chosen in %d%% of %d tries, mean outcome %s of 1", pct, c.Iterations, mean)
	fr = fmt.Sprintf("choisie dans %d %% de %d essais, résultat moyen %s sur 1", pct, c.Iterations, strings.Replace(mean, ".", ",", 1))
	if c.Gain > 0 {
		en = fmt.Sprintf("%s at once, more than any other player gains by it; %s", points(c.Gain), en)
		fr = fmt.Sprintf("%s sur-le-champ, plus que n'en gagne aucun autre joueur ; %s", points(c.Gain), fr)
	}
	return en, fr
}

// PublicWhy returns the reason of c that the other players of the game
// may be told with the bot's move, in English and in French: what the
// step gains at once, which they see as it is played, and the number of
// tries of the bot's level, which is no secret; "" when there is
// neither. Not the share of the tries that went through the step, nor
// their mean outcome: those are the search's own estimates, drawn from
// what the bot's seat sees, its hand among it, and a player who knew how
// sure the bot is of its hand would know something of that hand. Nor
// that it was the only legal step, which in a game of hidden hands tells
// what the hand lacks. Why, with all of it, is for the seat's own player
// (Hint).
func (c Reason) PublicWhy() (en, fr string) {
	if c.Only || c.Iterations == 0 {
		return "", ""
	}
	en = fmt.Sprintf("its search's pick of %d tries", c.Iterations)
	fr = fmt.Sprintf("le choix de sa recherche sur %d essais", c.Iterations)
	if c.Gain > 0 {
		en = fmt.Sprintf("%s at once, more than any other player gains by it; %s", points(c.Gain), en)
		fr = fmt.Sprintf("%s sur-le-champ, plus que n'en gagne aucun autre joueur ; %s", points(c.Gain), fr)
	}
	return en, fr
}

// points writes n points, in English and in French alike.
func points(n int) string {
	if n == 1 {
		return "1 point"
	}
	return strconv.Itoa(n) + " points"
}

func (o Options) explain(c Reason) {
	if o.Explain != nil {
		o.Explain(c)
	}
}

// ParseSeat reads a seat given as "bot:LEVEL" (bot:1 to bot:MaxLevel) and
// returns the level; ok is false for anything else (a person's name or
// address). A seat that begins with bot: but has no level is an error.
func ParseSeat(s string) (level int, ok bool, err error) {
	if !strings.HasPrefix(strings.ToLower(s), adjudicator.BotSourcePrefix) {
		return 0, false, nil
	}
	level, ok = adjudicator.BotLevel(strings.ToLower(s))
	if !ok || level > MaxLevel {
		return 0, false, fmt.Errorf("bot: %q is not a bot's seat: write bot:1 to bot:%d (bot:%d is the default level)", s, MaxLevel, DefaultLevel)
	}
	return level, true, nil
}

// SeatNames returns the players of a game whose seats are given as
// specs, people's names and bot:LEVEL alike, in order: a bot's seat is
// named bot, or bot1, bot2… when there are several. bots maps the bots'
// names to their levels (nil when there is none).
func SeatNames(specs []string) (names []string, bots map[string]int, err error) {
	var levels []int
	var at []int
	names = slices.Clone(specs)
	for i, s := range specs {
		level, ok, err := ParseSeat(s)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			levels, at = append(levels, level), append(at, i)
		}
	}
	if len(at) == 0 {
		return names, nil, nil
	}
	bots = map[string]int{}
	for k, i := range at {
		name := "bot"
		if len(at) > 1 {
			name += strconv.Itoa(k + 1)
		}
		names[i] = name
		bots[name] = levels[k]
	}
	return names, bots, nil
}

// seatSeed is the seed of the bot's search for move number of a record
// whose seed is seed: nobody chooses it, and it is known to all once the
// game's seed is revealed, so that anyone can play the bot again.
func seatSeed(seed string, number int) string {
	return "herald/bot/seat\x00" + seed + "\x00" + strconv.Itoa(number)
}

// SeatTurn returns the steps the bot of level plays for seat as the next
// move of m (the move m.MoveNumber()), one a line, with each step's
// reason in English and French as the other players may be told it
// (Reason.PublicWhy; "" for none). It is a function of the state as seat
// sees it, seat, level, the record's seed and the move number; m is not
// changed.
func SeatTurn(m *adjudicator.Match, seat string, level int) (text string, why, whyFR []string, err error) {
	if _, err := Iterations(level); err != nil {
		return "", nil, nil, err
	}
	if m.Record.Seed == "" {
		return "", nil, nil, fmt.Errorf("bot: the record has no seed, and a bot's move is drawn from it")
	}
	o := Options{Level: level, Seed: seatSeed(m.Record.Seed, m.MoveNumber()), Explain: func(c Reason) {
		en, fr := c.PublicWhy()
		why, whyFR = append(why, en), append(whyFR, fr)
	}}
	moves, err := Turn(m.State, m.Seats(), seat, o)
	if err != nil {
		return "", nil, nil, err
	}
	lines := make([]string, len(moves))
	for i, mv := range moves {
		lines[i] = mv.String()
	}
	return strings.Join(lines, "\n"), why, whyFR, nil
}

// Robot is the bot as an [adjudicator.Robot]: registered with
// Registry.WithRobot, it lets adjudicator.Adjudicate check the moves bots
// made, each against SeatTurn.
type Robot struct{}

// Turn returns the steps SeatTurn gives.
func (Robot) Turn(m *adjudicator.Match, seat string, level int) (string, error) {
	text, _, _, err := SeatTurn(m, seat, level)
	return text, err
}

var _ adjudicator.Robot = Robot{}

// maxBotTurns bounds the turns Play plays in a row, so that a game that
// never ends is an error, not a hang.
const maxBotTurns = 100_000

// Play plays, in m, every seat of bots (players' names to levels) that is
// to move, a whole turn at a time, until none is: a person must act, or
// the game is over. Each turn is submitted as the seat's with the source
// adjudicator.BotSource(level) and time, and the reasons of its steps in
// Submission.Why and WhyFR; the seats the game plays itself follow as
// after any submission. Where several bots may act at once, the first in
// seating order acts first; a bot whose sealed step is in waits.
func Play(m *adjudicator.Match, bots map[string]int, time string) ([]*adjudicator.Submission, error) {
	var out []*adjudicator.Submission
	for range maxBotTurns {
		seat := nextBot(m, bots)
		if seat == "" {
			return out, nil
		}
		level := bots[seat]
		text, why, whyFR, err := SeatTurn(m, seat, level)
		if err != nil {
			return out, fmt.Errorf("move %d, %s (%s): %w", m.MoveNumber(), seat, adjudicator.BotSource(level), err)
		}
		sub, err := m.Submit(seat, text, time, adjudicator.BotSource(level))
		if err != nil {
			return out, fmt.Errorf("move %d, %s (%s): its steps %q were refused: %w", m.MoveNumber(), seat, adjudicator.BotSource(level), text, err)
		}
		sub.Why, sub.WhyFR = why, whyFR
		out = append(out, sub)
	}
	return out, fmt.Errorf("bot: the bots played %d turns in a row and the game goes on", maxBotTurns)
}

// nextBot returns the first seat of bots, in seating order, that may act
// in m now, or "".
func nextBot(m *adjudicator.Match, bots map[string]int) string {
	if len(bots) == 0 || m.Record.Ended != nil || m.State.Result().Finished {
		return ""
	}
	to := m.State.ToMove()
	for _, p := range m.Record.Players {
		if _, ok := bots[p]; ok && slices.Contains(to, p) && !adjudicator.SealedIn(m.State, p) {
			return p
		}
	}
	return ""
}

// hintSeed is the seed of a hint for seat at move number: public, so that
// a hint is a function of what seat sees and nothing else.
func hintSeed(seat string, number int) string {
	return "herald/bot/hint\x00" + seat + "\x00" + strconv.Itoa(number)
}

// Hint returns the steps the bot of level suggests to seat for the rest
// of its turn in m, one a line, with each step's reason in English and
// French. It sees only what seat sees: the search redraws everything
// else, its seed is drawn from seat and the move number alone, and the
// hint stops after a step that turns up something hidden
// ([adjudicator.Revealer], a draw), since the steps after it would be
// chosen knowing what it turned up. So two states seat cannot tell apart
// give the same hint. m is not changed.
func Hint(m *adjudicator.Match, seat string, level int) (text string, why, whyFR []string, err error) {
	if _, err := Iterations(level); err != nil {
		return "", nil, nil, err
	}
	if !slices.Contains(m.Record.Players, seat) {
		return "", nil, nil, fmt.Errorf("bot: %q is not a player of this game (players: %s)", seat, strings.Join(m.Record.Players, ", "))
	}
	if err := adjudicator.CanAct(m.State, seat); err != nil {
		return "", nil, nil, err
	}
	if adjudicator.SealedIn(m.State, seat) {
		return "", nil, nil, fmt.Errorf("bot: %s's sealed step is in: there is nothing to hint until the round is revealed", seat)
	}
	scratch := m.State.Clone()
	var lines []string
	for i := 0; slices.Contains(scratch.ToMove(), seat) && (i == 0 || !adjudicator.SealedIn(scratch, seat)); i++ {
		o := Options{Level: level, Seed: hintSeed(seat, m.MoveNumber()) + "/" + strconv.Itoa(i), Explain: func(c Reason) {
			en, fr := c.Why()
			why, whyFR = append(why, en), append(whyFR, fr)
		}}
		mv, err := Step(scratch, m.Seats(), seat, o)
		if err != nil {
			return "", nil, nil, err
		}
		lines = append(lines, mv.String())
		if rv, ok := scratch.(adjudicator.Revealer); ok && rv.Reveals(seat, mv) {
			break
		}
		if err := scratch.Apply(seat, mv); err != nil {
			return "", nil, nil, fmt.Errorf("bot: %s's step %q, chosen from the legal steps, was refused: %w", seat, mv, err)
		}
		if i >= maxTurnSteps {
			return "", nil, nil, fmt.Errorf("bot: %s's turn does not end after %d steps", seat, maxTurnSteps)
		}
	}
	return strings.Join(lines, "\n"), why, whyFR, nil
}
