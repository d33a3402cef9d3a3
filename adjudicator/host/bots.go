package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/notation"
)

// A seat the bot plays (RULINGS.md H-6) is a Player whose Address is the
// bot's source, "bot:2": no mail goes to it and none can come from it (no
// mail address has that form), its moves are played by package bot as soon
// as it is to move and recorded with that source, so that herald
// adjudicate plays the bot again at each.

// IsBot reports whether p's seat is played by the bot.
func (p Player) IsBot() bool {
	_, ok := adjudicator.BotLevel(p.Address)
	return ok
}

// botSeat reads a seat given as bot:LEVEL where an address could be (a
// new game's players, replace's newcomer): its address, the bot's source,
// and ok; ok is false for anything else, and err says what is wrong with
// a bot:LEVEL that has no such level.
func botSeat(s string) (address string, ok bool, err error) {
	level, ok, err := bot.ParseSeat(strings.TrimSpace(s))
	if err != nil || !ok {
		return "", false, err
	}
	return adjudicator.BotSource(level), true, nil
}

// seatNames returns the names of the seats of addrs (addresses, and bot
// sources for the bot's seats): the people's by PlayerNames, the bot's
// bot, or bot1, bot2... when there are several.
func seatNames(addrs []string) []string {
	var people []string
	bots := 0
	for _, a := range addrs {
		if _, ok := adjudicator.BotLevel(a); ok {
			bots++
		} else {
			people = append(people, a)
		}
	}
	pn := PlayerNames(people)
	names := make([]string, len(addrs))
	b := 0
	for i, a := range addrs {
		if _, ok := adjudicator.BotLevel(a); !ok {
			names[i], pn = pn[0], pn[1:]
			continue
		}
		b++
		names[i] = "bot"
		if bots > 1 {
			names[i] += fmt.Sprint(b)
		}
	}
	return names
}

// gameBots returns g's bots' seats by name, with their levels.
func gameBots(g *Game) map[string]int {
	var out map[string]int
	for _, p := range g.Players {
		if level, ok := adjudicator.BotLevel(p.Address); ok {
			if out == nil {
				out = map[string]int{}
			}
			out[p.Name] = level
		}
	}
	return out
}

// playBots plays g's bots' seats that are to move in m (bot.Play), at
// the session's time, and returns their submissions, each followed by the
// moves the game played itself after it.
func (s *Session) playBots(g *Game, m *adjudicator.Match) ([]*adjudicator.Submission, error) {
	subs, err := bot.Play(m, gameBots(g), s.now.Format(time.RFC3339))
	if err != nil {
		return nil, fmt.Errorf("host: game %s: the bot: %w", Tag(g.ID), err)
	}
	var out []*adjudicator.Submission
	for _, sub := range subs {
		out = append(out, sub)
		out = append(out, sub.Auto...)
	}
	return out, nil
}

// botLabel is how a notice in lang names who played a: "bot (bot:2)" for
// the bot's seat, "henri (played by the game)" for the game's own.
func botLabel(g *Game, a *adjudicator.Submission, lang notation.Lang) string {
	for _, p := range g.Players {
		if p.Name == a.Player && p.IsBot() {
			return fmt.Sprintf("%s (%s)", a.Player, p.Address)
		}
	}
	return automatonLabel(a.Player, lang)
}

// automatonLabel is the name of a seat the game plays itself (Henri, in
// Les Deux Héritiers' solo game), in lang, saying so.
func automatonLabel(name string, lang notation.Lang) string {
	return name + pick(lang == notation.French, " (played by the game)", " (joué par le jeu)")
}

// whyOf is "  (the reason)" of step j of a, in lang, or "".
func whyOf(a *adjudicator.Submission, j int, lang notation.Lang) string {
	if j < len(a.Rounds) && a.Rounds[j] != 0 {
		return "" // a sealed step's reason would tell what it is
	}
	if lang == notation.French && j < len(a.WhyFR) && a.WhyFR[j] != "" {
		return "  (" + a.WhyFR[j] + ")"
	}
	if j < len(a.Why) && a.Why[j] != "" {
		return "  (" + a.Why[j] + ")"
	}
	return ""
}

// botNews is what viewer is told, in lang, of the bots' moves subs,
// played at the start of a game or after the host handed a seat to the
// bot: "" when there are none.
func botNews(g *Game, m *adjudicator.Match, subs []*adjudicator.Submission, viewer string, lang notation.Lang) string {
	var b strings.Builder
	for _, a := range subs {
		fmt.Fprintf(&b, pick(lang == notation.French, "%s played move %d:\n", "%s a joué le coup %d :\n"), botLabel(g, a, lang), a.Number)
		for j := range a.Moves {
			fmt.Fprintf(&b, "  %s%s\n", m.StepText(a, j, viewer, lang), reasonOf(g, a, j, lang))
		}
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// botWhy is reasonOf for an observer: the reason of a bot's step (the
// search's figures, which anyone may see), and none for the game's own
// seats, whose reasons the observers were never told; in lang.
func botWhy(g *Game, a *adjudicator.Submission, j int, lang notation.Lang) string {
	if !isBot(g, a.Player) {
		return ""
	}
	return reasonOf(g, a, j, lang)
}

// isBot reports whether the bot plays name's seat in g.
func isBot(g *Game, name string) bool {
	for _, p := range g.Players {
		if p.Name == name && p.IsBot() {
			return true
		}
	}
	return false
}

// reasonOf is whyOf as a mail shows it after step j of a: on the step's
// line for the game's own seats (Henri's short rules), on a line of its
// own for a bot's (the search's figures, which would not fit in 72
// columns beside a long step).
func reasonOf(g *Game, a *adjudicator.Submission, j int, lang notation.Lang) string {
	w := whyOf(a, j, lang)
	if w == "" || !isBot(g, a.Player) {
		return w
	}
	return "\n     " + strings.TrimPrefix(w, " ")
}

// replaceBot ends replace when the seat goes to the bot, or comes back
// from it (RULINGS.md H-6): old played the seat, p plays it now. A person
// who comes in gets the welcome with a key; a person who leaves, the
// notice that their key no longer works; everyone else (never the bot)
// the news. When the bot is to move, it plays at once, and the news says
// its moves and shows the board.
func (s *Session) replaceBot(ctx context.Context, g *Game, m *adjudicator.Match, req Request, old, p Player) (Reply, error) {
	game, err := s.h.cfg.Registry.Lookup(g.Record.Game)
	if err != nil {
		return Reply{}, err
	}
	// Each is told in their language: the host who asked in their mail's,
	// a host who does not play as HostLang says, a player in theirs.
	langOf := func(o Player) notation.Lang {
		switch {
		case o.Address == req.From && req.Env != nil:
			return req.Env.Lang
		case o.Name == "":
			return HostLang(g)
		}
		return noticeLang(o)
	}
	var notices []Notice
	var news func(fr bool) string
	var subs []*adjudicator.Submission
	if p.IsBot() {
		if subs, err = s.playBots(g, m); err != nil {
			return Reply{}, err
		}
		if len(subs) > 0 {
			if err := s.saveMove(ctx, g, m); err != nil {
				return Reply{}, err
			}
		}
		news = func(fr bool) string {
			return fmt.Sprintf(pick(fr, "The host of game %s has handed the seat of %s to the bot (%s):\nit plays that seat from here on, and its moves are checked like\nanyone's (RULINGS.md H-6).\n",
				"L'hôte de la partie %s a confié la place de %s au bot (%s) :\nil joue cette place désormais, et ses coups sont vérifiés comme\nceux de chacun (RULINGS.md H-6).\n"), Tag(g.ID), p.Name, p.Address)
		}
		if !old.IsBot() {
			lang := langOf(old)
			n := s.notice(g, m, old.Address, "", EndedBy, "seat handed over",
				fmt.Sprintf(pick(lang == notation.French, "The host of game %s has handed your seat (%s) to the bot (%s).\nYour key no longer works for this game. Thank you for playing.\n",
					"L'hôte de la partie %s a confié votre place (%s) au bot (%s).\nVotre clé ne marche plus pour cette partie. Merci d'avoir joué.\n"), Tag(g.ID), old.Name, p.Address))
			n.Lang = lang
			notices = append(notices, n)
		}
	} else {
		intro := fmt.Sprintf("The host has handed you the seat of %s, played until now by the\nbot (%s). You play it from here on, as %s.\n\n", p.Name, old.Address, p.Name)
		notices = append(notices, s.welcome(g, m, game, p, intro))
		news = func(fr bool) string {
			return fmt.Sprintf(pick(fr, "The host of game %s has handed the seat of %s, played by the bot\n(%s) until now, to %s.\n",
				"L'hôte de la partie %s a confié la place de %s, jouée par le bot\n(%s) jusqu'ici, à %s.\n"), Tag(g.ID), p.Name, old.Address, p.Address)
		}
	}
	for _, o := range s.everyone(g) {
		if o.Address == p.Address {
			continue
		}
		lang := langOf(o)
		text := news(lang == notation.French)
		if len(subs) > 0 {
			text += "\n" + botNews(g, m, subs, o.Name, lang) + s.stateTextIn(g, m, o.Name, m.State.Text(o.Name), lang)
		}
		n := s.notice(g, m, o.Address, o.Name, News, "seat handed over", text)
		n.Answer, n.Lang = o.Address == req.From, lang
		notices = append(notices, n)
	}
	return Reply{Outcome: Answered, Game: g.ID, Reason: fmt.Sprintf("%s replaced by %s", old.Address, p.Address), Notices: notices}, nil
}

// hint answers player's hint command (RULINGS.md H-6): the bot's steps
// for player's seat, from player's view only, each with its reason, when
// this herald allows hints; else why there is none.
func (s *Session) hint(g *Game, m *adjudicator.Match, player string, lang notation.Lang) string {
	fr := lang == notation.French
	switch {
	case !s.h.cfg.Hints:
		return pick(fr, "Hints are off on this herald: whoever runs it may allow them\n(herald serve --hints on), and every player then may ask for one.\n",
			"Les conseils sont désactivés sur ce herald : qui le fait tourner peut\nles permettre (herald serve --hints on), et chaque joueur peut alors\nen demander un.\n")
	case player == "":
		return pick(fr, "You host this game but do not play in it: there is no seat to hint.\n",
			"Vous êtes l'hôte de cette partie sans y jouer : il n'y a pas de place\nà conseiller.\n")
	}
	text, why, whyFR, err := bot.Hint(m, player, bot.DefaultLevel)
	if err != nil {
		if re := adjudicator.CanAct(m.State, player); re != nil {
			return pick(fr, "No hint: ", "Pas de conseil : ") + adjudicator.Localize(re, lang) + ".\n"
		}
		return fmt.Sprintf(pick(fr, "No hint: %v.\n", "Pas de conseil : %v.\n"), err)
	}
	var b strings.Builder
	b.WriteString(pick(fr, "The bot suggests, from what you see alone (your steps, one per line):\n",
		"Le bot suggère, d'après ce que vous seul voyez (vos étapes, une par\nligne) :\n"))
	for i, step := range strings.Split(text, "\n") {
		reason := why[i]
		if fr && i < len(whyFR) && whyFR[i] != "" {
			reason = whyFR[i]
		}
		fmt.Fprintf(&b, "  %s\n      (%s)\n", m.Game.StepIn(step, lang), reason)
	}
	b.WriteString(pick(fr, "Nothing was played: send the steps you choose, as always.\n",
		"Rien n'a été joué : envoyez les étapes que vous choisissez, comme\ntoujours.\n"))
	return b.String()
}

// saveMove stores the moves m has taken since g was read: its record with
// the status it leaves the game in, what follows a move (afterMove), and
// the match staged for the next request, or the game unstaged once over.
func (s *Session) saveMove(ctx context.Context, g *Game, m *adjudicator.Match) error {
	status := Playing
	if m.State.Result().Finished {
		status = Finished
	}
	rev, err := s.tx.Save(ctx, g.ID, m.Record, status)
	if err != nil {
		return err
	}
	g.Record, g.Status = m.Record, status
	if err := s.afterMove(ctx, g, m); err != nil {
		return err
	}
	if status == Playing {
		s.games.stage(g.ID, rev, m)
	} else {
		s.games.unstage(g.ID)
	}
	return nil
}
