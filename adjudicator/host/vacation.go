package host

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// vacation pauses the sender's deadlines until they are back, within the
// game's allowance: "vacation until 2026-12-24", "vacation 5d", "vacation
// off" to come back early (French "vacances jusqu'au …", "vacances fin").
// The time not used is given back. The others are told.
func (s *Session) vacation(ctx context.Context, g *Game, m *adjudicator.Match, req Request, args []string) (Reply, error) {
	fr := req.Env.Lang == notation.French
	usage := pick(fr, "Write, on a line of its own, one of:\n\n  vacation until 2026-12-24   (back on that day, 00:00 UTC)\n  vacation 5d\n  vacation off                (back now)\n",
		"Écrivez, seule sur sa ligne, l'une de ces lignes :\n\n  vacances jusqu'au 2026-12-24   (de retour ce jour-là, 00:00 UTC)\n  vacances 5j\n  vacances fin                   (de retour maintenant)\n")
	if req.Seat < 0 {
		return s.answer(g, m, req, Refusal, "vacation refused", pick(fr, "You host this game but do not play in it: there is no deadline of\nyours to pause.\n",
			"Vous êtes l'hôte de cette partie sans y jouer : vous n'avez aucun délai\nà suspendre.\n"), "vacation by the host"), nil
	}
	if g.Clock == nil {
		return s.answer(g, m, req, Refusal, "vacation refused", fmt.Sprintf(pick(fr, "Game %s has no deadline: there is nothing to pause. Come back\nwhen you like.\n",
			"La partie %s n'a pas de délai : il n'y a rien à suspendre. Revenez\nquand vous voulez.\n"), Tag(g.ID)), "vacation without deadline"), nil
	}
	p := g.Players[req.Seat]
	var words []string
	for _, a := range args {
		if f := notation.Fold(a); f != "until" && f != "till" && f != "jusqu'au" && f != "jusqu" && f != "au" && f != "jusque" {
			words = append(words, a)
		}
	}
	if joined := strings.Join(words, " "); len(words) > 1 {
		if _, err := ParseSpan(joined); err == nil {
			words = []string{joined} // "vacances 2 jours", "vacation 1 week"
		}
	}
	back := len(words) == 1 && slices.Contains([]string{"off", "back", "end", "fin", "retour", "none"}, notation.Fold(words[0]))
	var until time.Time
	if !back {
		if len(words) != 1 {
			return s.answer(g, m, req, Refusal, "vacation refused", pick(fr, "herald did not understand your vacation line.\n\n", "herald n'a pas compris votre ligne vacances.\n\n")+usage, "bad vacation"), nil
		}
		if d, err := time.Parse("2006-01-02", words[0]); err == nil {
			until = d.UTC()
		} else if span, err := ParseSpan(words[0]); err == nil {
			until = s.now.Add(span)
		} else {
			return s.answer(g, m, req, Refusal, "vacation refused", fmt.Sprintf(pick(fr, "%q is neither a date like 2026-12-24 nor a span like 5d.\n\n%s",
				"« %s » n'est ni une date comme 2026-12-24 ni une durée comme 5j.\n\n%s"), words[0], usage), "bad vacation"), nil
		}
		if !until.After(s.now) {
			return s.answer(g, m, req, Refusal, "vacation refused", fmt.Sprintf(pick(fr, "%s is already past.\n\n%s", "Le %s est déjà passé.\n\n%s"), formatTime(until), usage), "bad vacation"), nil
		}
	}
	c := *g.Clock
	// An absence under way is given back first; then the new one is taken.
	used, given := p.AwayUsed, time.Duration(0)
	if p.AwayUntil.After(s.now) {
		given = p.AwayUntil.Sub(s.now)
		used -= given
	}
	taken := time.Duration(0)
	if !back {
		taken = until.Sub(s.now)
		if used+taken > c.Vacation {
			left := max(c.Vacation-used, 0)
			return s.answer(g, m, req, Refusal, "vacation refused", fmt.Sprintf(pick(fr, "You have %s of vacation left in game %s (each player has %s in all):\nyou may be away until %s at the latest.\n",
				"Il vous reste %s de vacances dans la partie %s (chaque joueur en a %s\nen tout) : vous pouvez vous absenter jusqu'au %s au plus tard.\n"),
				formatSpanIn(left, fr), Tag(g.ID), formatSpanIn(c.Vacation, fr), formatTime(s.now.Add(left))), "vacation over the allowance"), nil
		}
	}
	if err := s.tx.SetAway(ctx, g.ID, req.Seat, until, used+taken); err != nil {
		return Reply{}, err
	}
	// The deadline of a move the player is asked for moves by the change.
	// A move already late stays late by as much, its grace paused: its
	// late notice goes again when the player is back, so that they find
	// where they stand, not a forfeit without a word (hand play: the
	// deadline moved to 8 minutes before her return, and she forfeited
	// 50 minutes after it, told nothing).
	if slices.Contains(strings.Split(c.ToMove, ","), p.Name) {
		c.Since = c.Since.Add(taken - given)
		if !back && c.Stage == 2 {
			c.Stage = 1
		}
		c.plan()
		if !back && c.Stage == 1 && c.Next.Before(until) {
			c.Next = until
		}
		if err := s.tx.SetClock(ctx, g.ID, c); err != nil {
			return Reply{}, err
		}
		g.Clock = &c
	}
	g.Players = slices.Clone(g.Players)
	g.Players[req.Seat].AwayUntil, g.Players[req.Seat].AwayUsed = until, used+taken
	s.games.stage(g.ID, g.Rev, m)
	var mine string
	switch {
	case back && fr:
		mine = fmt.Sprintf("Bon retour : vos délais dans la partie %s courent de nouveau. Il vous\nreste %s de vacances dans cette partie.\n", Tag(g.ID), formatSpanIn(c.Vacation-used, fr))
	case back:
		mine = fmt.Sprintf("Welcome back: your deadlines in game %s run again. You have %s of\nvacation left in it.\n", Tag(g.ID), FormatSpan(c.Vacation-used))
	case fr:
		mine = fmt.Sprintf("Vos délais dans la partie %s attendent jusqu'au %s.\nIl vous reste %s de vacances dans cette partie ; écrivez vacances fin\npour revenir plus tôt.\n", Tag(g.ID), formatTime(until), formatSpanIn(c.Vacation-used-taken, fr))
	default:
		mine = fmt.Sprintf("Your deadlines in game %s wait until %s.\nYou have %s of vacation left in it; write vacation off to come back\nearlier.\n", Tag(g.ID), formatTime(until), FormatSpan(c.Vacation-used-taken))
	}
	switch {
	case !slices.Contains(strings.Split(c.ToMove, ","), p.Name):
	case !back && c.DeadlineAt().Before(until) && c.Policy != PolicyWait:
		mine += fmt.Sprintf(pick(fr, "The move you are asked for is late: it was due by %s, and its\ngrace runs until %s. When you are back, herald says so to everyone\nagain.\n",
			"Le coup que vous devez jouer est en retard : il était attendu avant le\n%s, et son délai de grâce court jusqu'au %s. À votre\nretour, herald le redit à tous.\n"), formatTime(c.DeadlineAt()), formatTime(c.DeadlineAt().Add(c.Grace)))
	case !back && c.DeadlineAt().Before(until):
		mine += fmt.Sprintf(pick(fr, "The move you are asked for is late: it was due by %s. The game\nwaits for it; when you are back, herald says so to everyone again.\n",
			"Le coup que vous devez jouer est en retard : il était attendu avant le\n%s. La partie l'attend ; à votre retour, herald le redit à tous.\n"), formatTime(c.DeadlineAt()))
	default:
		mine += fmt.Sprintf(pick(fr, "The move you are asked for is due by %s.\n", "Le coup que vous devez jouer est attendu avant le %s.\n"), formatTime(c.DeadlineAt()))
	}
	rep := s.answer(g, m, req, Answer, "vacation", mine, "vacation")
	for _, o := range s.everyone(g) {
		if o.Address == req.From {
			continue
		}
		var news string
		switch ofr := noticeLang(o) == notation.French; {
		case back && ofr:
			news = fmt.Sprintf("%s est de retour dans la partie %s : ses délais courent de nouveau.\n", p.Name, Tag(g.ID))
		case back:
			news = fmt.Sprintf("%s is back in game %s: their deadlines run again.\n", p.Name, Tag(g.ID))
		case ofr:
			news = fmt.Sprintf("%s s'absente jusqu'au %s :\nses délais dans la partie %s l'attendent.\n", p.Name, formatTime(until), Tag(g.ID))
		default:
			news = fmt.Sprintf("%s is away until %s: their deadlines in game %s\nwait for them.\n", p.Name, formatTime(until), Tag(g.ID))
		}
		rep.Notices = append(rep.Notices, s.notice(g, m, o.Address, o.Name, News, map[bool]string{true: p.Name + " is back", false: p.Name + " is away"}[back], news))
	}
	return rep, nil
}
