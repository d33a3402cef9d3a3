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
	usage := "Write, on a line of its own: undo (to ask to take back your last move and\nevery move since), undo accept, or undo refuse.\n"
	if req.Seat < 0 {
		return s.answer(g, m, req, Refusal, "undo refused", "Only the players of a game may take moves back; you host it.\n", "undo by the host"), nil
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
			return s.answer(g, m, req, Refusal, "undo refused", fmt.Sprintf("%s has asked to take moves back already: accept or refuse that first.\n", pending.AskedBy), "undo pending"), nil
		}
		last := -1
		for i := len(m.Record.Moves) - 1; i >= 0; i-- {
			if m.Record.Moves[i].Player == player {
				last = i
				break
			}
		}
		if last < 0 {
			return s.answer(g, m, req, Refusal, "undo refused", "You have no move to take back.\n", "nothing to undo"), nil
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
			moveSpan(last+1, len(m.Record.Moves)), strings.Join(others, ", "), agree, formatTime(until)))
		rep := s.answer(g, m, req, Answer, "undo asked", mine, "undo asked")
		for _, p := range g.Players {
			if !slices.Contains(others, p.Name) {
				continue
			}
			list, err := s.catchUp(m, p.Name, last, len(m.Record.Moves))
			if err != nil {
				return Reply{}, err
			}
			text := fmt.Sprintf("%s asks to take back these moves of game %s:\n%s\nWrite undo accept to agree, or undo refuse, by %s.\nNothing is taken back unless every other player agrees.\n",
				player, Tag(g.ID), list, formatTime(until))
			rep.Notices = append(rep.Notices, s.notice(g, m, p.Address, p.Name, News, "undo asked by "+player, text))
		}
		return rep, nil
	case "accept", "accepte", "accepter", "yes", "oui", "agree":
		switch {
		case pending == nil:
			return s.answer(g, m, req, Refusal, "no undo pending", "No one has asked to take moves back, or the request has lapsed (a move\nwas played since, or its time ran out): there is nothing to answer.\n", "no undo pending"), nil
		case pending.AskedBy == player:
			return s.answer(g, m, req, Refusal, "undo refused", "You asked: the other players must agree.\n", "undo accepted by its asker"), nil
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
		return s.answer(g, m, req, Answer, "undo accepted", fmt.Sprintf("Noted. Still to agree: %s.\n", strings.Join(waiting, ", ")), "undo accepted"), nil
	case "refuse", "refuser", "no", "non", "decline":
		if pending == nil {
			return s.answer(g, m, req, Refusal, "no undo pending", "No one has asked to take moves back, or the request has lapsed (a move\nwas played since, or its time ran out): there is nothing to answer.\n", "no undo pending"), nil
		}
		if err := s.tx.SetUndoRequest(ctx, g.ID, nil); err != nil {
			return Reply{}, err
		}
		text := adjudicator.Fill(fmt.Sprintf("%s refused %s's request to take moves back: nothing is taken back in game %s.", player, pending.AskedBy, Tag(g.ID)))
		var notices []Notice
		for _, p := range g.Players {
			n := s.notice(g, m, p.Address, p.Name, News, "undo refused", text)
			n.Answer = p.Address == req.From
			notices = append(notices, n)
		}
		return Reply{Outcome: Answered, Game: g.ID, Reason: "undo refused", Notices: notices}, nil
	}
	return s.answer(g, m, req, Refusal, "undo refused", "herald did not understand your undo line.\n\n"+usage, "bad undo"), nil
}

// moveSpan names moves from to to: "move 8", "moves 8 to 10".
func moveSpan(from, to int) string {
	if from == to {
		return fmt.Sprintf("move %d", from)
	}
	return fmt.Sprintf("moves %d to %d", from, to)
}

// lapseUndo ends game g's request to take moves back when a move was
// played since it was made (RULINGS.md H-5), and returns what the players
// are told of it, or "".
func (s *Session) lapseUndo(ctx context.Context, g *Game, moves int) (string, error) {
	pending, err := s.tx.UndoRequest(ctx, g.ID)
	if err != nil || pending == nil || pending.Moves == moves {
		return "", err
	}
	if err := s.tx.SetUndoRequest(ctx, g.ID, nil); err != nil {
		return "", err
	}
	return adjudicator.Fill(fmt.Sprintf("%s's request to take moves back has lapsed: a move was played since. Nothing was taken back.", pending.AskedBy)) + "\n", nil
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
	taken := len(m.Record.Moves) - u.Keep
	stands := fmt.Sprintf("The game stands as after move %d.", u.Keep)
	if u.Keep == 0 {
		stands = "The game stands as at its start."
	}
	head := adjudicator.Fill(fmt.Sprintf("Every player agreed: moves %d to %d of game %s are taken back, as %s asked (the record keeps them as history). %s",
		u.Keep+1, len(m.Record.Moves), Tag(g.ID), u.AskedBy, stands)) + "\n"
	if taken == 1 {
		head = adjudicator.Fill(fmt.Sprintf("Every player agreed: move %d of game %s is taken back, as %s asked (the record keeps it as history). %s",
			u.Keep+1, Tag(g.ID), u.AskedBy, stands)) + "\n"
	}
	pic := s.picture(g, back)
	var notices []Notice
	for _, p := range g.Players {
		if p.IsBot() {
			continue // a bot's seat gets no mail
		}
		n := s.notice(g, back, p.Address, p.Name, News, "moves taken back", head+botNews(g, back, botSubs, p.Name)+stateText(g, back, p.Name, back.State.Text(p.Name)))
		n.Answer, n.Picture = p.Address == req.From, pic
		notices = append(notices, n)
	}
	obs, err := s.tx.Observers(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	for _, a := range obs {
		notices = append(notices, s.notice(g, back, a, "", News, "moves taken back", head+stateText(g, back, "", back.State.Text(""))))
	}
	return Reply{Outcome: Applied, Game: g.ID, Reason: fmt.Sprintf("moves %d-%d taken back", u.Keep+1, len(m.Record.Moves)), Notices: notices}, nil
}
