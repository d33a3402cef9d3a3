package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// How much mail a player wants.
const (
	NotifyAll    = "all"    // a mail for every move (the default)
	NotifyTurn   = "turn"   // a mail only when they must act, with every move since their last one
	NotifyDigest = "digest" // a mail a day with the day's moves; the end of the game at once
)

// digestEvery is how often a digest goes.
const digestEvery = 24 * time.Hour

// notifyModes maps what a player may write to a mode.
var notifyModes = map[string]string{
	"all": NotifyAll, "tout": NotifyAll, "tous": NotifyAll, "every": NotifyAll,
	"turn": NotifyTurn, "tour": NotifyTurn,
	"digest": NotifyDigest, "daily": NotifyDigest, "resume": NotifyDigest, "quotidien": NotifyDigest,
}

// notify sets how much mail the sender, a player, wants.
func (s *Session) notify(ctx context.Context, g *Game, m *adjudicator.Match, req Request, args []string) (Reply, error) {
	fr := req.Env.Lang == notation.French
	usage := pick(fr, "Write, on a line of its own, one of:\n\n  notify all      a mail for every move (the default)\n  notify turn     a mail only when you must act, with every move since\n                  your last mail\n  notify digest   one mail a day with the day's moves\n",
		"Écrivez, seule sur sa ligne, l'une de ces lignes :\n\n  avis tout        un courrier à chaque coup (par défaut)\n  avis tour        un courrier seulement quand vous devez jouer, avec\n                   chaque coup depuis votre dernier courrier\n  avis quotidien   un courrier par jour avec les coups du jour\n")
	if req.Seat < 0 {
		return s.answer(g, m, req, Refusal, "notify refused", pick(fr, "Only the players of a game choose how much mail they get; you host it.\n",
			"Seuls les joueurs d'une partie choisissent combien de courrier ils\nreçoivent ; vous en êtes l'hôte.\n"), "notify by the host"), nil
	}
	mode := ""
	if len(args) == 1 {
		mode = notifyModes[notation.Fold(args[0])]
	}
	if mode == "" {
		return s.answer(g, m, req, Refusal, "notify refused", pick(fr, "herald did not understand your notify line.\n\n", "herald n'a pas compris votre ligne avis.\n\n")+usage, "bad notify"), nil
	}
	var next time.Time
	if mode == NotifyDigest {
		next = s.now.Add(digestEvery)
	}
	if err := s.tx.SetNotify(ctx, g.ID, req.Seat, mode, len(m.Record.Moves), next); err != nil {
		return Reply{}, err
	}
	s.games.stage(g.ID, g.Rev, m)
	var text string
	switch {
	case fr && mode == NotifyAll:
		text = "herald vous enverra chaque coup de la partie %s.\n"
	case fr && mode == NotifyTurn:
		text = "herald ne vous écrira au sujet de la partie %s que lorsque vous devez\njouer, avec chaque coup depuis votre dernier courrier. Les rappels et la\nfin de la partie arrivent comme toujours.\n"
	case fr:
		text = "herald vous enverra un résumé de la partie %s une fois par jour, avec\nses coups. Les rappels et la fin de la partie arrivent aussitôt.\n"
	case mode == NotifyAll:
		text = "herald will mail you every move of game %s.\n"
	case mode == NotifyTurn:
		text = "herald will mail you about game %s only when you must act, with every\nmove since your last mail. Reminders and the game's end come as ever.\n"
	default:
		text = "herald will mail you a digest of game %s once a day, with its moves.\nReminders and the game's end come at once.\n"
	}
	text = fmt.Sprintf(text, Tag(g.ID))
	if mode == NotifyDigest && g.Clock != nil {
		// Hand play: a player on digest under a forfeit policy heard of
		// their turn first from the reminder.
		text += pick(fr, fmt.Sprintf("The game has deadlines: no mail says at once that it is your turn; the\nreminder, at %d%% of the deadline, is the first. notify turn mails you\nwhen you must act.\n", g.Clock.Remind),
			fmt.Sprintf("La partie a des délais : aucun courrier ne dit aussitôt que c'est à\nvous ; le rappel, à %d %% du délai, est le premier. avis tour vous\nécrit quand vous devez jouer.\n", g.Clock.Remind))
	}
	return s.answer(g, m, req, Answer, "notify "+mode, text, "notify "+mode), nil
}

// catchUp returns the moves numbered from+1 to to (1-based, inclusive) as
// viewer may see them, in lang, one per line, or "".
func (s *Session) catchUp(m *adjudicator.Match, viewer string, from, to int, lang notation.Lang) (string, error) {
	if from >= to {
		return "", nil
	}
	// TurnHistory: the player is in a column of their own, so a step
	// still hidden reads "keeps an A tile", not "alice keeps an A tile".
	texts, err := m.TurnHistory(s.h.cfg.Registry, viewer, lang)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i := from; i < to && i < len(texts); i++ {
		fmt.Fprintf(&b, "%3d  %-12s %s\n", i+1, m.Record.Moves[i].Player, texts[i])
	}
	return b.String(), nil
}

// digest sends the digest of d's seat: the moves since their last mail and
// the board, when there were any; the next digest is a day later.
func (s *Session) digest(ctx context.Context, d DueDigest) ([]Notice, string, error) {
	g, err := s.tx.GameInfo(ctx, d.Game)
	if err != nil {
		return nil, "", err
	}
	if g == nil || g.Status != Playing || d.Seat >= len(g.Players) {
		return nil, "stale", nil
	}
	p := g.Players[d.Seat]
	if p.Notify != NotifyDigest || !p.DigestNext.Equal(d.Next) {
		return nil, "stale", nil
	}
	m, err := s.match(ctx, g)
	if err != nil {
		return nil, "", err
	}
	s.games.stage(g.ID, g.Rev, m)
	next := d.Next.Add(digestEvery)
	for !next.After(s.now) {
		next = next.Add(digestEvery)
	}
	moves := len(m.Record.Moves)
	var notices []Notice
	if moves > p.Told {
		lang := noticeLang(p)
		missed, err := s.catchUp(m, p.Name, p.Told, moves, lang)
		if err != nil {
			return nil, "", err
		}
		text := fmt.Sprintf(pick(lang == notation.French, "Your daily digest of game %s: the moves since your last mail.\n\n%s\n%s",
			"Votre résumé du jour de la partie %s : les coups depuis votre dernier\ncourrier.\n\n%s\n%s"), Tag(g.ID), missed, s.stateTextIn(g, m, p.Name, m.State.Text(p.Name), lang))
		notices = append(notices, s.notice(g, m, p.Address, p.Name, News, "digest", text))
	}
	if err := s.tx.SetNotify(ctx, g.ID, d.Seat, NotifyDigest, moves, next); err != nil {
		return nil, "", err
	}
	return notices, "digest", nil
}
