package adjudicator

import (
	"fmt"
	"github.com/heraldgames/herald/notation"
	"slices"
	"strings"

	"github.com/heraldgames/herald/adjudicator/picture"
)

// PictureAt returns the picture of m's board as everyone saw it after its
// first n moves (0 for the start), titled with title, with the squares
// and walls the n-th move changed marked (picture.Board.MarkChanges). Its
// status is the state of the game: for the last move, whose turn it is or
// the result; for an earlier one, whom the game waited for then. The
// moves are replayed from the record, which must hold the seed (the
// host's copy). It is an error when n is not a move of m or the game
// draws no picture. The picture after the last move of a match that
// applied it (Match.SubmitSteps, or the replay of Start) needs no replay,
// and when the match drew the board after the move before (as a host
// does after every move), the board before it is not drawn again.
func PictureAt(m *Match, n int, title string) (*picture.Board, error) {
	return PictureAtIn(m, n, title, notation.English)
}

// PictureAtIn is PictureAt with the picture's words in lang (PictureIn),
// its status too: "coup 5 : on attend bob"; a game that draws in English
// alone (no LangPicturer) gives its English picture. The squares it marks
// are the same in every language, so the picture before the move may be
// the one drawn in another.
func PictureAtIn(m *Match, n int, title string, lang notation.Lang) (*picture.Board, error) {
	if _, ok := m.State.(Picturer); !ok {
		return nil, fmt.Errorf("%s has no picture of its board", m.Game.Title)
	}
	if n < 0 || n > len(m.Record.Moves) {
		return nil, fmt.Errorf("there is no move %d: the game has %d", n, len(m.Record.Moves))
	}
	var before, at State
	kept := false // before is m.before
	if n == len(m.Record.Moves) {
		at = m.State
		if n > 0 && m.before != nil && m.beforeMoves == n {
			before, kept = m.before, true // the match applied its last move: no replay
		}
	}
	if before == nil && (n > 0 || at == nil) {
		r, err := startEmpty(NewRegistry(m.Game), m.Record)
		if err != nil {
			return nil, err
		}
		for i, rm := range m.Record.Moves[:max(n-1, 0)] {
			if _, err := r.apply(rm.Player, rm.Text); err != nil {
				return nil, fmt.Errorf("move %d (%s): %w", i+1, rm.Player, err)
			}
		}
		if n > 0 {
			before = r.State.Clone()
			if at == nil {
				rm := m.Record.Moves[n-1]
				if _, err := r.apply(rm.Player, rm.Text); err != nil {
					return nil, fmt.Errorf("move %d (%s): %w", n, rm.Player, err)
				}
			}
		}
		if at == nil {
			at = r.State
		}
	}
	b := PictureIn(at, lang)
	var c *picture.Board
	if n == len(m.Record.Moves) {
		// Kept as the picture before the next move, which only reads it.
		// A copy of the board's own fields, which its drawing may set
		// (Board.PNG) while the next move reads them; its squares and
		// walls are b's: MarkChanges compares what they hold, never their
		// marks, so those b gets below do not count, and nothing changes
		// them once b is drawn.
		copied := *b
		c = &copied
		m.drawn, m.drawnMoves = c, n
	}
	if before != nil {
		was := m.beforePicture
		if kept && was == nil && m.beforePublished != nil {
			was = m.beforePublished.Load() // the snapshot before's, if drawn by now
		}
		if !kept || was == nil {
			was = before.(Picturer).Picture() // marked by its squares alone: English will do
		}
		b.MarkChanges(was)
	}
	if c != nil && m.published != nil {
		// A snapshot's, for the next one (Match.published), once b is
		// marked: nothing writes its squares after.
		m.published.Store(c)
	}
	b.Title = title
	fr := b.Lang == notation.French // a game that draws no French draws its status in English too
	tr := func(en, frText string) string {
		if fr {
			return frText
		}
		return en
	}
	switch res := at.Result(); {
	case n < len(m.Record.Moves) && !res.Finished:
		b.Status = fmt.Sprintf(tr("after move %d of %d: waiting for %s", "après le coup %d sur %d : on attendait %s"), n, len(m.Record.Moves), WaitingForIn(at, lang))
	case n < len(m.Record.Moves):
		b.Status = fmt.Sprintf(tr("after move %d of %d: over: %s", "après le coup %d sur %d : finie : %s"), n, len(m.Record.Moves), tr(res.Summary, res.SummaryIn(notation.French)))
	case m.Record.Ended != nil:
		b.Status = tr("ended early: ", "terminée avant la fin : ") + endedHow(m.Record.Ended.How, fr)
		for i := range b.Players { // no one is to move in a game that ended early
			b.Players[i].ToMove = false
		}
		b.Info = slices.DeleteFunc(slices.Clone(b.Info), isToMove)
	case res.Finished:
		b.Status = tr("over: ", "finie : ") + tr(res.Summary, res.SummaryIn(notation.French))
	default:
		b.Status = fmt.Sprintf(tr("move %d: waiting for %s", "coup %d : on attend %s"), m.MoveNumber(), WaitingForIn(at, lang))
	}
	return b, nil
}

// endedHow is how a game ended early (Ending.How), in French when fr is
// set: "abandon" for a player's, "annulée" for the host's.
func endedHow(how string, fr bool) string {
	switch {
	case !fr:
		return how
	case how == EndResigned:
		return "abandon"
	case how == EndAbandoned:
		return "annulée"
	}
	return how
}

// BoardText is the board of m as viewer sees it (State.Text), less its
// line of whose turn it is once the game has ended early, resigned,
// forfeited or abandoned: the rules did not end it, and would still name
// who is to move.
func (m *Match) BoardText(viewer string) string {
	return m.BoardTextIn(viewer, notation.English)
}

// BoardTextIn is BoardText with the board's words in lang (TextIn).
func (m *Match) BoardTextIn(viewer string, lang notation.Lang) string {
	text := TextIn(m.State, viewer, lang)
	if m.Record.Ended == nil {
		return text
	}
	return strings.Join(slices.DeleteFunc(strings.Split(text, "\n"), isToMove), "\n")
}

// isToMove reports whether a line of a board's text says whose turn it
// is: every game's begins "to move:" ("à jouer :" in French).
func isToMove(line string) bool {
	return strings.HasPrefix(line, "to move:") || strings.HasPrefix(line, "à jouer :")
}
