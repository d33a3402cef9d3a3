package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/notation"
)

// botSeat returns the rejection of a move submitted for a seat a bot
// plays, or nil.
func botSeat(m *adjudicator.Match, player string) error {
	if level, ok := m.Record.Bots[player]; ok {
		return &rejected{fmt.Sprintf("%s is played by %s: its moves follow the players' by themselves (RULINGS.md H-6)", player, adjudicator.BotSource(level))}
	}
	return nil
}

// playBots plays the bots' seats of m that are to move (bot.Play), as
// after a person's move or at the start of a game.
func playBots(m *adjudicator.Match) ([]*adjudicator.Submission, error) {
	subs, err := bot.Play(m, m.Record.Bots, now())
	if err != nil {
		return nil, fmt.Errorf("the bot: %w", err)
	}
	return subs, nil
}

// reportBots prints the bots' moves, each step with the search's reason,
// for viewer (who sees a bot's sealed step only as sealed).
func reportBots(e *env, m *adjudicator.Match, subs []*adjudicator.Submission) {
	for _, s := range subs {
		fmt.Fprintf(e.stdout, "move %d by %s (played by %s):\n", s.Number, s.Player, adjudicator.BotSource(m.Record.Bots[s.Player]))
		for i, mv := range s.Moves {
			step := mv.String()
			if i < len(s.Rounds) && s.Rounds[i] != 0 {
				step = "(a sealed step)"
			}
			if i < len(s.Why) && s.Why[i] != "" && step == mv.String() {
				fmt.Fprintf(e.stdout, "  %s  (%s)\n", step, s.Why[i])
			} else {
				fmt.Fprintf(e.stdout, "  %s\n", step)
			}
		}
		reportAuto(e, s.Auto)
	}
}

var cmdHint = &command{
	name:  "hint",
	args:  "FILE --as PLAYER [--level L]",
	short: "The bot's suggestion for PLAYER's turn, from PLAYER's own view only: the steps, one per line,\neach with the search's reason. It stops after a step that draws or turns up something hidden.\nNothing is written: play the steps with herald move if you like them.",
	flags: func(fs *flag.FlagSet) {
		fs.String("as", "", "the `player` asking")
		fs.Int("level", bot.DefaultLevel, "the bot's `level`, 1 to 3 (its search's iterations a step)")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		level, _ := strconv.Atoi(e.str("level"))
		if _, err := bot.Iterations(level); err != nil {
			return usagef("--level is 1 to %d, not %d", bot.MaxLevel, level)
		}
		m, as, err := loadAs(e, "hint", args)
		if err != nil {
			return err
		}
		if err := botSeat(m, as); err != nil {
			return err
		}
		if err := adjudicator.CanAct(m.State, as); err != nil {
			return &rejected{"no hint: " + adjudicator.Localize(err, notation.English)}
		}
		text, why, _, err := bot.Hint(m, as, level)
		if err != nil {
			return &rejected{fmt.Sprintf("no hint: %v", err)}
		}
		// The steps alone on standard output, so that they can be given to
		// herald move as they are; the reasons on standard error.
		fmt.Fprintln(e.stdout, text)
		for i, step := range strings.Split(text, "\n") {
			fmt.Fprintf(e.stderr, "herald hint: %s: %s\n", step, why[i])
		}
		return nil
	},
}
