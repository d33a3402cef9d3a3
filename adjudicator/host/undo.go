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

// undoWindow is how long a request to take moves back waits for consent
// in a game without a deadline.
const undoWindow = 72 * time.Hour

// undo handles "undo" (ask to take back one's last move and every move
// since), "undo accept" and "undo refuse" (RULINGS.md H-5): nothing is
// taken back until every other player agrees before the request lapses
// (at the game's deadline, or after 72 hours); one refusal, or a move,
// ends the request. The moves taken back stay in the record as history.
func (s *Session) undo(ctx context.Context, g *Game, m *adjudicator.Match, req Request, args []string) (Reply, error) {
	fr := req.Env.Lang == notation.French
	usage := pick(fr, "Write, on a line of its own: undo (to ask to take back your last move and\nevery move since), undo accept, or undo refuse.\n",
		"Écrivez, seule sur sa ligne : reprendre (pour demander à reprendre votre\ndernier coup et tous ceux qui ont suivi), reprendre accepte ou reprendre\nrefuse.\n")
	if req.Seat < 0 {
		return s.answer(g, m, req, Refusal, "undo refused", pick(fr, "Only the players of a game may take moves back; you host it.\n",
			"Seuls les joueurs d'une partie peuvent reprendre des coups ; vous en\nêtes l'hôte.\n"), "undo by the host"), nil
	}
	player := g.Players[req.Seat].Name
	pending, err := s.tx.UndoRequest(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	if pending != nil && (pending.Moves != len(m.Record.Moves) || !s.now.Before(pending.Until)) {
		// A move was played since, or the request lapsed: it is over.
		if err := s.tx.SetUndoRequest(ctx, g.ID, nil); err != nil {
			return Reply{}, err
		}
		pending = nil
	}
	s.games.stage(g.ID, g.Rev, m)
	word := ""
	if len(args) > 0 {
		word = notation.Fold(args[0])
	}
	others := s.consenters(g, m, player)
	switch word {
	case "":
		if pending != nil {
			return s.answer(g, m, req, Refusal, "undo refused", fmt.Sprintf(pick(fr, "%s has asked to take moves back already: accept or refuse that first.\n",
				"%s a déjà demandé à reprendre des coups : acceptez ou refusez d'abord.\n"), pending.AskedBy), "undo pending"), nil
		}
		last := -1
		for i := len(m.Record.Moves) - 1; i >= 0; i-- {
			if m.Record.Moves[i].Player == player {
				last = i
				break
			}
		}
		if last < 0 {
			return s.answer(g, m, req, Refusal, "undo refused", pick(fr, "You have no move to take back.\n", "Vous n'avez aucun coup à reprendre.\n"), "nothing to undo"), nil
		}
		until := s.now.Add(undoWindow)
		if g.Clock != nil && g.Clock.DeadlineAt().After(s.now) {
			until = g.Clock.DeadlineAt()
		}
		u := &UndoRequest{AskedBy: player, Keep: last, Moves: len(m.Record.Moves), Until: until, Source: req.Source}
		if len(others) == 0 {
			return s.takeBack(ctx, g, m, req, u) // no one else to ask (a solo game)
		}
		if err := s.tx.SetUndoRequest(ctx, g.ID, u); err != nil {
			return Reply{}, err
		}
		agree := "each write"
		if len(others) == 1 {
			agree = "writes"
		}
		mine := adjudicator.Fill(fmt.Sprintf("You asked to take back %s. Nothing changes until %s %s undo accept by %s; one undo refuse, or a move, ends it.",
			moveSpan(last+1, len(m.Record.Moves), false), strings.Join(others, ", "), agree, formatTime(until)))
		if fr {
			agree = "écrivent chacun"
			if len(others) == 1 {
				agree = "écrive"
			}
			mine = adjudicator.Fill(fmt.Sprintf("Vous avez demandé à reprendre %s. Rien ne change avant que %s %s reprendre accepte, d'ici le %s ; un seul reprendre refuse, ou un coup, y met fin.",
				moveSpan(last+1, len(m.Record.Moves), true), strings.Join(others, ", "), agree, formatTime(until)))
		}
		rep := s.answer(g, m, req, Answer, "undo asked", mine, "undo asked")
		for _, p := range g.Players {
			if !slices.Contains(others, p.Name) {
				continue
			}
			lang := noticeLang(p)
			list, err := s.catchUp(m, p.Name, last, len(m.Record.Moves), lang)
			if err != nil {
				return Reply{}, err
			}
			text := fmt.Sprintf(pick(lang == notation.French, "%s asks to take back these moves of game %s:\n%s\nWrite undo accept to agree, or undo refuse, by %s.\nNothing is taken back unless every other player agrees.\n",
				"%s demande à reprendre ces coups de la partie %s :\n%s\nÉcrivez reprendre accepte pour accepter, ou reprendre refuse, avant le\n%s. Rien n'est repris sans l'accord de tous les autres joueurs.\n"),
				player, Tag(g.ID), list, formatTime(until))
			rep.Notices = append(rep.Notices, s.notice(g, m, p.Address, p.Name, News, "undo asked by "+player, text))
		}
		return rep, nil
	case "accept", "accepte", "accepter", "yes", "oui", "agree":
		switch {
		case pending == nil:
			return s.answer(g, m, req, Refusal, "no undo pending", noUndoPending(fr), "no undo pending"), nil
		case pending.AskedBy == player:
			// Not "undo refused": the request stands (hand play).
			return s.answer(g, m, req, Refusal, "undo still asked", fmt.Sprintf(pick(fr, "You asked to take moves back: the other players must agree, and your\nrequest stands until %s. undo refuse withdraws it.\n",
				"C'est vous qui avez demandé à reprendre des coups : les autres joueurs\ndoivent accepter, et votre demande tient jusqu'au %s.\nreprendre refuse la retire.\n"), formatTime(pending.Until)), "undo accepted by its asker"), nil
		}
		if !slices.Contains(pending.Accepted, player) {
			pending.Accepted = append(pending.Accepted, player)
		}
		var waiting []string
		for _, o := range s.consenters(g, m, pending.AskedBy) {
			if !slices.Contains(pending.Accepted, o) {
				waiting = append(waiting, o)
			}
		}
		if len(waiting) == 0 {
			return s.takeBack(ctx, g, m, req, pending)
		}
		if err := s.tx.SetUndoRequest(ctx, g.ID, pending); err != nil {
			return Reply{}, err
		}
		return s.answer(g, m, req, Answer, "undo accepted", fmt.Sprintf(pick(fr, "Noted. Still to agree: %s.\n", "C'est noté. Doivent encore accepter : %s.\n"), strings.Join(waiting, ", ")), "undo accepted"), nil
	case "refuse", "refuser", "no", "non", "decline":
		if pending == nil {
			return s.answer(g, m, req, Refusal, "no undo pending", noUndoPending(fr), "no undo pending"), nil
		}
		if err := s.tx.SetUndoRequest(ctx, g.ID, nil); err != nil {
			return Reply{}, err
		}
		var notices []Notice
		for _, p := range g.Players {
			text := adjudicator.Fill(fmt.Sprintf("%s refused %s's request to take moves back: nothing is taken back in game %s.", player, pending.AskedBy, Tag(g.ID)))
			lang := noticeLang(p)
			if p.Address == req.From {
				lang = req.Env.Lang
			}
			if lang == notation.French {
				text = adjudicator.Fill(fmt.Sprintf("%s a refusé la demande de reprise %s : rien n'est repris dans la partie %s.", player, adjudicator.OfName(pending.AskedBy).FR, Tag(g.ID)))
			}
			n := s.notice(g, m, p.Address, p.Name, News, "undo refused", text)
			n.Answer = p.Address == req.From
			if n.Answer {
				n.Lang = lang
			}
			notices = append(notices, n)
		}
		return Reply{Outcome: Answered, Game: g.ID, Reason: "undo refused", Notices: notices}, nil
	}
	return s.answer(g, m, req, Refusal, "undo refused", pick(fr, "herald did not understand your undo line.\n\n", "herald n'a pas compris votre ligne reprendre.\n\n")+usage, "bad undo"), nil
}

// noUndoPending is the answer to undo accept or refuse with no request
// waiting.
func noUndoPending(fr bool) string {
	return pick(fr, "No one has asked to take moves back, or the request has lapsed (a move\nwas played since, or its time ran out): there is nothing to answer.\n",
		"Personne n'a demandé à reprendre des coups, ou la demande a expiré (un\ncoup a été joué depuis, ou son délai est passé) : il n'y a rien à\nrépondre.\n")
}

// moveSpan names moves from to to: "move 8", "moves 8 to 10"; in French
// (fr) "le coup 8", "les coups 8 à 10".
func moveSpan(from, to int, fr bool) string {
	switch {
	case fr && from == to:
		return fmt.Sprintf("le coup %d", from)
	case fr:
		return fmt.Sprintf("les coups %d à %d", from, to)
	case from == to:
		return fmt.Sprintf("move %d", from)
	}
	return fmt.Sprintf("moves %d to %d", from, to)
}

// lapseUndo ends game g's request to take moves back when a move was
// played since it was made (RULINGS.md H-5), and returns who had asked,
// or "" (lapsedText says it to the players).
func (s *Session) lapseUndo(ctx context.Context, g *Game, moves int) (string, error) {
	pending, err := s.tx.UndoRequest(ctx, g.ID)
	if err != nil || pending == nil || pending.Moves == moves {
		return "", err
	}
	if err := s.tx.SetUndoRequest(ctx, g.ID, nil); err != nil {
		return "", err
	}
	return pending.AskedBy, nil
}

// lapsedText tells a player, in lang, that asker's request to take moves
// back lapsed.
func lapsedText(asker string, lang notation.Lang) string {
	if lang == notation.French {
		return adjudicator.Fill(fmt.Sprintf("La demande de reprise %s a expiré : un coup a été joué depuis. Rien n'a été repris.", adjudicator.OfName(asker).FR)) + "\n"
	}
	return adjudicator.Fill(fmt.Sprintf("%s's request to take moves back has lapsed: a move was played since. Nothing was taken back.", asker)) + "\n"
}

// consenters are the players of g but asker whose consent a take-back
// needs: every player but the seats the game plays itself and the bot's
// (RULINGS.md H-6), which play on from wherever the game stands.
func (s *Session) consenters(g *Game, m *adjudicator.Match, asker string) []string {
	var out []string
	for _, p := range g.Players {
		if p.Name != asker && !slices.Contains(adjudicator.Automata(m.State), p.Name) && !p.IsBot() {
			out = append(out, p.Name)
		}
	}
	return out
}

// takeBack takes u's moves back: the record keeps them as history, the
// game stands as after the moves kept, everyone (observers too) is told.
func (s *Session) takeBack(ctx context.Context, g *Game, m *adjudicator.Match, req Request, u *UndoRequest) (Reply, error) {
	back, err := m.TakeBack(s.h.cfg.Registry, u.Keep, u.AskedBy, s.now.Format(time.RFC3339), u.Source)
	if err != nil {
		return s.refuse(g, m, req, g.Players[req.Seat].Name, err, notation.English, nil), nil
	}
	rev, err := s.tx.TakeBack(ctx, g.ID, back.Record)
	if err != nil {
		return Reply{}, err
	}
	if err := s.tx.SetUndoRequest(ctx, g.ID, nil); err != nil {
		return Reply{}, err
	}
	g.Record, g.Rev, g.Moves = back.Record, rev, len(back.Record.Moves)
	// A bot to move in the game as it stands plays at once.
	botSubs, err := s.playBots(g, back)
	if err != nil {
		return Reply{}, err
	}
	if len(botSubs) > 0 {
		status := Playing
		if back.State.Result().Finished {
			status = Finished
		}
		if rev, err = s.tx.Save(ctx, g.ID, back.Record, status); err != nil {
			return Reply{}, err
		}
		g.Record, g.Rev, g.Moves, g.Status = back.Record, rev, len(back.Record.Moves), status
	}
	// A player told of moves taken back is told of the moves that replace
	// them (notify turn, digest).
	for i, p := range g.Players {
		if p.Notify != NotifyAll && p.Told > u.Keep {
			if err := s.tx.SetNotify(ctx, g.ID, i, p.Notify, u.Keep, p.DigestNext); err != nil {
				return Reply{}, err
			}
		}
	}
	if err := s.afterMove(ctx, g, back); err != nil {
		return Reply{}, err
	}
	s.games.stage(g.ID, rev, back)
	pics := s.pictures(g, back)
	var notices []Notice
	for _, p := range g.Players {
		if p.IsBot() {
			continue // a bot's seat gets no mail
		}
		lang := noticeLang(p)
		if p.Address == req.From {
			lang = req.Env.Lang
		}
		n := s.notice(g, back, p.Address, p.Name, News, "moves taken back", takenBackText(g, m, u, lang)+botNews(g, back, botSubs, p.Name, lang)+s.stateTextIn(g, back, p.Name, back.State.Text(p.Name), lang))
		n.Answer, n.Picture, n.Lang = p.Address == req.From, pics.in(lang), lang
		notices = append(notices, n)
	}
	obs, langs, err := s.observers(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	for _, a := range obs { // each in the language they observed in
		lang := storedLang(langs[a])
		n := s.notice(g, back, a, "", News, "moves taken back", takenBackText(g, m, u, lang)+s.stateTextIn(g, back, "", back.State.Text(""), lang))
		n.Lang = lang
		notices = append(notices, n)
	}
	return Reply{Outcome: Applied, Game: g.ID, Reason: fmt.Sprintf("moves %d-%d taken back", u.Keep+1, len(m.Record.Moves)), Notices: notices}, nil
}

// takenBackText tells, in lang, that u's moves of g (standing as m
// before) are taken back.
func takenBackText(g *Game, m *adjudicator.Match, u *UndoRequest, lang notation.Lang) string {
	taken := len(m.Record.Moves) - u.Keep
	if lang == notation.French {
		stands := fmt.Sprintf("La partie en est comme après le coup %d.", u.Keep)
		if u.Keep == 0 {
			stands = "La partie en est comme à son début."
		}
		what := fmt.Sprintf("les coups %d à %d de la partie %s sont repris", u.Keep+1, len(m.Record.Moves), Tag(g.ID))
		kept := "les garde"
		if taken == 1 {
			what, kept = fmt.Sprintf("le coup %d de la partie %s est repris", u.Keep+1, Tag(g.ID)), "le garde"
		}
		return adjudicator.Fill(fmt.Sprintf("Tous les joueurs ont accepté : %s, comme %s l'a demandé (l'enregistrement %s dans l'historique). %s", what, u.AskedBy, kept, stands)) + "\n"
	}
	stands := fmt.Sprintf("The game stands as after move %d.", u.Keep)
	if u.Keep == 0 {
		stands = "The game stands as at its start."
	}
	if taken == 1 {
		return adjudicator.Fill(fmt.Sprintf("Every player agreed: move %d of game %s is taken back, as %s asked (the record keeps it as history). %s",
			u.Keep+1, Tag(g.ID), u.AskedBy, stands)) + "\n"
	}
	return adjudicator.Fill(fmt.Sprintf("Every player agreed: moves %d to %d of game %s are taken back, as %s asked (the record keeps them as history). %s",
		u.Keep+1, len(m.Record.Moves), Tag(g.ID), u.AskedBy, stands)) + "\n"
}
