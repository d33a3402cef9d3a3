package adjudicator

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Match is a record together with the state it replays to. It is what the
// CLI and the mail service work with: Submit checks and applies a
// submission, and appends it to the record only when every step is legal.
type Match struct {
	Game   *Game
	Record *Record
	State  State

	// before is the state before the record's last move, kept when this
	// match applied that move itself (SubmitSteps, or Start's replay), and
	// beforeMoves the number of moves the record had after it: PictureAt
	// marks what the last move changed without replaying the record, as
	// long as the record still has beforeMoves moves.
	before      State
	beforeMoves int

	// drawn is the picture PictureAt last drew of State (never changed
	// after, but for its marks, which MarkChanges ignores) when
	// the record had drawnMoves moves; the next SubmitSteps keeps it as
	// beforePicture, the picture of before, when no automaton moved after
	// the player: PictureAt need not draw the board before the move again
	// (a move mail would draw it twice).
	drawn, beforePicture *picture.Board
	drawnMoves           int

	// A snapshot's picture (Snapshot) is drawn apart, on another
	// goroutine than the match's: published is where it puts it, for the
	// next snapshot, whose picture before the move it is; that one finds
	// it in beforePublished, if drawn by then, and else draws the board
	// before the move itself. The match keeps its last snapshot's
	// (snapshot, when it had snapshotMoves moves) for the next move
	// (beforeSnapshot), as it keeps drawn as beforePicture.
	published, beforePublished *atomic.Pointer[picture.Board]
	snapshot, beforeSnapshot   *atomic.Pointer[picture.Board]
	snapshotMoves              int

	// subs holds, in a game with sealed steps, the submission of each
	// record move this match applied itself (Start's replay, SubmitSteps
	// and the automata's moves after it): SealedSteps reads them instead
	// of replaying the record, as long as there is one per record move.
	subs []*Submission
}

// NewRecord returns the record of a new game of g, before any move. With a
// nil position the game starts from its setup; otherwise from the position
// (the game's position document). seed "" draws a fresh secret seed.
func NewRecord(g *Game, players []string, options map[string]string, seed string, position *yaml.Node) (*Record, error) {
	if err := g.CheckPlayers(players); err != nil {
		return nil, err
	}
	opts, err := g.ResolveOptions(options)
	if err != nil {
		return nil, err
	}
	if seed == "" {
		seed = NewSeed()
	}
	rec := &Record{
		Format:     FormatVersion,
		Game:       g.Name,
		Options:    opts,
		Players:    slices.Clone(players),
		SeedSHA256: Commit(seed),
		Seed:       seed,
	}
	for _, o := range g.Options {
		// An empty text option (no data file given) is the default; leaving
		// it out keeps records short. ResolveOptions fills it in again.
		if o.Type == OptText && o.Before == "" && rec.Options[o.Name] == "" {
			delete(rec.Options, o.Name)
		}
	}
	if len(rec.Options) == 0 {
		rec.Options = nil
	}
	rec.Position = position
	return rec, nil
}

// Start builds the match of a record: the game looked up in reg, the players
// and options checked, the state set up from the seed or the position, and
// every recorded move replayed. It fails at the first move that is not
// legal; Adjudicate says more.
func Start(reg *Registry, rec *Record) (*Match, error) {
	m, err := startEmpty(reg, rec)
	if err != nil {
		return nil, err
	}
	for i, mv := range rec.Moves {
		if _, err := m.apply(mv.Player, mv.Text); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, mv.Player, err)
		}
	}
	m.Record = rec
	return m, nil
}

// startEmpty returns the match of rec before its first move. Its Record
// holds no moves yet.
func startEmpty(reg *Registry, rec *Record) (*Match, error) {
	g, err := reg.Lookup(rec.Game)
	if err != nil {
		return nil, err
	}
	if err := g.CheckPlayers(rec.Players); err != nil {
		return nil, err
	}
	for _, p := range slices.Sorted(maps.Keys(rec.Bots)) {
		if !slices.Contains(rec.Players, p) {
			return nil, fmt.Errorf("bots: %q is not a player of this game (players: %s)", p, strings.Join(rec.Players, ", "))
		}
	}
	opts, err := g.RecordOptions(rec.Options) // a record older than an option means its Before
	if err != nil {
		return nil, err
	}
	if rec.Seed == "" {
		return nil, fmt.Errorf("the record has no seed: it is revealed when the game ends; until then only the host's copy can be replayed")
	}
	if Commit(rec.Seed) != rec.SeedSHA256 {
		return nil, fmt.Errorf("the seed does not match its commitment %s", rec.SeedSHA256)
	}
	setup := Setup{Players: slices.Clone(rec.Players), Options: opts, RNG: NewRNG(rec.Seed)}
	var st State
	if rec.Position != nil {
		st, err = g.LoadPosition(setup, rec.Position)
		if err != nil {
			return nil, fmt.Errorf("position: %w", err)
		}
	} else {
		st, err = g.New(setup)
		if err != nil {
			return nil, err
		}
	}
	empty := *rec
	empty.Moves = nil
	return &Match{Game: g, Record: &empty, State: st}, nil
}

// MoveNumber is the number the next submission will have: 1 for the first.
// A turn file names it, so that a stale file is rejected.
func (m *Match) MoveNumber() int { return len(m.Record.Moves) + 1 }

// CheckTurnFile checks that tf is for this match's game and its next move,
// from one of its players, and returns that player as the record spells it
// (case ignored) and the language tf is written in (French when a step
// uses a French keyword). An error is a *RuleError in both languages, with
// code CodeWrongGame, CodeStaleMove (tf answers a move already played),
// CodeEarlyMove (a move that has not come yet) or CodeNotAPlayer. The steps
// are not checked against the rules: SubmitSteps does that.
func (m *Match) CheckTurnFile(tf *notation.TurnFile) (player string, lang notation.Lang, err error) {
	lang = m.StepsLang(tf.Steps)
	if notation.Fold(tf.Game) != notation.Fold(m.Game.Name) {
		return "", lang, Rulef(CodeWrongGame, "", "the turn file is for %q, but this is a game of %s",
			"le fichier de tour est pour « %s », mais cette partie est une partie de %s", tf.Game, m.Game.Name)
	}
	switch next := m.MoveNumber(); {
	case tf.Move < next:
		return "", lang, Rulef(CodeStaleMove, "", "the turn file answers move %d, but the game is at move %d; it is stale (move %d was played already): look at the board again with show",
			"le fichier de tour répond au coup %d, mais la partie en est au coup %d ; il est périmé (le coup %d a déjà été joué) : regardez de nouveau le plateau (show)", tf.Move, next, tf.Move)
	case tf.Move > next:
		return "", lang, Rulef(CodeEarlyMove, "", "the turn file answers move %d, which has not come yet: the game is at move %d; look at the board again with show",
			"le fichier de tour répond au coup %d, qui n'est pas encore venu : la partie en est au coup %d ; regardez de nouveau le plateau (show)", tf.Move, next)
	}
	for _, p := range m.Record.Players {
		if p == tf.Player {
			return p, lang, nil
		}
	}
	for _, p := range m.Record.Players {
		if strings.EqualFold(p, tf.Player) {
			return p, lang, nil
		}
	}
	return "", lang, Rulef(CodeNotAPlayer, "", "%q is not a player of this game (players: %s)",
		"« %s » n'est pas un joueur de cette partie (joueurs : %s)", tf.Player, strings.Join(m.Record.Players, ", "))
}

// StepsLang returns the language steps are written in: French when any of
// them uses a French keyword of the game, as read now, else English. It
// reads the steps without applying them, so it can say in which language
// to refuse a submission before its steps are checked.
func (m *Match) StepsLang(steps []*notation.Step) notation.Lang {
	reader := ""
	if to := m.State.ToMove(); len(to) > 0 {
		reader = to[0]
	} else if len(m.Record.Players) > 0 {
		reader = m.Record.Players[0]
	}
	for _, step := range steps {
		c := *step // Parse notes the language in the step it reads
		m.State.Parse(reader, &c)
		if c.Lang == notation.French {
			return notation.French
		}
	}
	return notation.English
}

// Submission is a submission that was applied.
type Submission struct {
	Number int    // its move number
	Player string // who played it
	Moves  []Move // the steps, parsed
	Lang   notation.Lang

	// Rounds holds, for each step of Moves, the sealed round it was taken
	// in ([Sealer.SealOf]), or 0 for a step nobody hides; it is nil in a
	// game without sealed steps.
	Rounds []int

	// Why and WhyFR hold, for an automaton's move, the reason for each
	// step (see [Automaton]); they are empty for a player's move.
	Why, WhyFR []string

	// Dropped holds the steps, as written, that came after the player's
	// turn ended by itself and only stated what had happened (see
	// [TurnEnder]): they were not applied and are not recorded.
	Dropped []*notation.Step

	// Stop is set by [Match.Preview] alone: the 1-based number of the
	// step, the last of Moves, that turns up something hidden, and after
	// which nothing was checked; 0 when none does.
	Stop int

	// Auto holds the automaton moves that followed this submission at
	// once (Henri's turn after the player's), in order. They are recorded
	// after it, each with source AutomatonSource.
	Auto []*Submission
}

// Text returns the steps in canonical notation, one per line.
func (s *Submission) Text() string {
	lines := make([]string, len(s.Moves))
	for i, mv := range s.Moves {
		lines[i] = mv.String()
	}
	return strings.Join(lines, "\n")
}

// Snapshot returns a copy of m as it stands now, to read while m goes
// on: a record of its own with the moves so far, a clone of its state,
// and of the state before its last move where m kept it, so that the
// copy draws its picture (PictureAt) without replaying the record. The
// moves m plays later, or its ending, do not change the copy.
// (A match never changes a state in place once it holds it, but a game's
// state may fill a cache of its own as it is read: two goroutines that
// read a match, one of them playing on, each read a state of their own.)
func (m *Match) Snapshot() *Match {
	rec := *m.Record
	rec.Moves = slices.Clip(rec.Moves)
	if m.Record.Ended != nil {
		e := *m.Record.Ended
		rec.Ended = &e
	}
	c := &Match{Game: m.Game, Record: &rec, State: m.State.Clone(), subs: slices.Clip(m.subs)}
	if m.before != nil && m.beforeMoves == len(m.Record.Moves) {
		c.before, c.beforeMoves, c.beforePicture = m.before.Clone(), m.beforeMoves, m.beforePicture
		c.beforePublished = m.beforeSnapshot
	}
	c.published = new(atomic.Pointer[picture.Board])
	m.snapshot, m.snapshotMoves = c.published, len(m.Record.Moves)
	return c
}

// Submit applies player's steps written in text, all or nothing, and
// appends them to the record with time and source. On error nothing changes:
// a notation.ErrorList for text with unreadable characters, a *StepError
// naming the step that failed, or a *RuleError when the player may not act.
func (m *Match) Submit(player, text, time, source string) (*Submission, error) {
	steps, errs := notation.Split(text)
	if len(errs) > 0 {
		return nil, errs
	}
	return m.SubmitSteps(player, steps, time, source)
}

// SubmitSteps is Submit for steps already split, as from a turn file.
//
// When the game plays some seats itself ([Automaton]) and one of them is to
// move after the submission, its moves follow at once, in the same all or
// nothing: they are recorded after the submission with the same time and
// source AutomatonSource, and returned in Submission.Auto.
func (m *Match) SubmitSteps(player string, steps []*notation.Step, time, source string) (*Submission, error) {
	if err := m.endedError(); err != nil {
		return nil, err
	}
	if slices.Contains(Automata(m.State), player) {
		return nil, Rulef(CodeAutomatonSeat, "", "%s is played by the game itself: its moves follow the players' by themselves",
			"%s est joué par le jeu lui-même : ses coups suivent d'eux-mêmes ceux des joueurs", player)
	}
	sub, st, err := m.try(player, steps)
	if err != nil {
		return nil, err
	}
	prev := m.State // try played on a clone: the state before the move
	var prevPicture *picture.Board
	if m.drawn != nil && m.drawnMoves == len(m.Record.Moves) {
		prevPicture = m.drawn
	}
	var prevSnapshot *atomic.Pointer[picture.Board]
	if m.snapshot != nil && m.snapshotMoves == len(m.Record.Moves) {
		prevSnapshot = m.snapshot
	}
	auto, last, st, err := m.playAutomata(st, sub.Number+1)
	if err != nil {
		return nil, err
	}
	if last != nil {
		prev, prevPicture, prevSnapshot = last, nil, nil
	}
	m.State = st
	m.Record.Moves = append(m.Record.Moves, RecordMove{Player: player, Text: sub.Text(), Time: time, Source: source})
	for _, a := range auto {
		m.Record.Moves = append(m.Record.Moves, RecordMove{Player: a.Player, Text: a.Text(), Time: time, Source: AutomatonSource})
	}
	sub.Auto = auto
	m.before, m.beforeMoves = prev, len(m.Record.Moves)
	m.beforePicture, m.drawn = prevPicture, nil
	m.beforeSnapshot, m.snapshot = prevSnapshot, nil
	if _, ok := st.(Sealer); ok {
		m.subs = append(append(m.subs, sub), auto...)
	}
	return sub, nil
}

// apply is SubmitSteps without recording, for replay. A move of a seat the
// game plays itself must be the move its automaton makes there.
func (m *Match) apply(player, text string) (*Submission, error) {
	steps, errs := notation.Split(text)
	if len(errs) > 0 {
		return nil, errs
	}
	sub, st, err := m.try(player, steps)
	if err != nil {
		return nil, err
	}
	if slices.Contains(Automata(m.State), player) {
		if err := checkAutomatonMove(m.State, player, sub); err != nil {
			return nil, err
		}
	}
	m.before, m.State = m.State, st
	m.Record.Moves = append(m.Record.Moves, RecordMove{Player: player, Text: text})
	m.beforeMoves = len(m.Record.Moves)
	m.beforePicture, m.drawn = nil, nil
	m.beforeSnapshot, m.snapshot = nil, nil
	if _, ok := st.(Sealer); ok {
		m.subs = append(m.subs, sub)
	}
	return sub, nil
}

// try plays steps on a clone of the state and returns the clone.
func (m *Match) try(player string, steps []*notation.Step) (*Submission, State, error) {
	return m.tryOn(m.State, player, steps, m.MoveNumber())
}

// tryOn plays steps as move number on a clone of st and returns the clone.
func (m *Match) tryOn(st State, player string, steps []*notation.Step, number int) (*Submission, State, error) {
	return m.tryUntil(st, player, steps, number, false)
}

// tryUntil is tryOn; with preview set it stops at the first step that
// turns up something hidden ([Revealer]): that step is checked, and the
// state returned is the one before it, with Submission.Stop set.
//
// A step that fails after a step of the same submission turned up
// something hidden gets a *StepError with Reveal set, which says nothing
// of the failure (see StepError.Reveal).
func (m *Match) tryUntil(st State, player string, steps []*notation.Step, number int, preview bool) (*Submission, State, error) {
	if !slices.Contains(m.Record.Players, player) && !slices.Contains(Automata(st), player) {
		return nil, nil, Rulef(CodeNotAPlayer, "", "%q is not a player of this game (players: %s)",
			"« %s » n'est pas un joueur de cette partie (joueurs : %s)", player, strings.Join(m.Record.Players, ", "))
	}
	if len(steps) == 0 {
		return nil, nil, Rulef(CodeNoSteps, "", "the submission has no steps", "la soumission ne contient aucune étape")
	}
	lang := notation.English
	orig := st
	st = st.Clone()
	sub := &Submission{Number: number, Player: player}
	acted := false // the player acted in this submission
	for i, step := range steps {
		// Parse first, so that even "not your turn" is said in the
		// language the step was written in.
		mv, err := st.Parse(player, step)
		if ne, ok := err.(*notation.Error); ok {
			m.Game.suggestKeyword(ne, step)
		}
		if step.Lang == notation.French {
			lang = notation.French
		}
		if actErr := CanAct(st, player); actErr != nil {
			// A step after the player's turn ended by itself in this
			// submission: the game says whether it is a no-op.
			if te, ok := st.(TurnEnder); ok && acted && err == nil {
				if actErr = te.AfterTurnEnd(player, mv); actErr == nil {
					sub.Dropped = append(sub.Dropped, step)
					continue
				}
			}
			actErr = m.Game.citeTurn(actErr)
			return nil, nil, &StepError{Index: i + 1, Step: step, Err: actErr, Lang: lang, Also: m.alsoMisspelt(steps, i, actErr, false)}
		}
		round := 0
		if s, ok := st.(Sealer); ok && err == nil {
			round = s.SealOf(player, mv)
		}
		// A preview stops at the first step that turns up something
		// hidden; a move asks only once a later step fails (firstReveal).
		reveals := false
		if rv, ok := st.(Revealer); ok && err == nil && preview {
			reveals = rv.Reveals(player, mv)
		}
		var before State
		if reveals {
			before = st.Clone()
		}
		if err == nil {
			err = st.Apply(player, mv)
		}
		if err != nil {
			err = m.Game.citeTurn(err)
			se := &StepError{Index: i + 1, Step: step, Err: err, Lang: lang}
			if onHidden(orig, player, err) {
				se.Reveal = firstReveal(orig, player, sub.Moves)
			}
			se.Also = m.alsoMisspelt(steps, i, err, se.Reveal > 0)
			return nil, nil, se
		}
		sub.Moves = append(sub.Moves, mv)
		if _, ok := st.(Sealer); ok {
			sub.Rounds = append(sub.Rounds, round)
		}
		acted = true
		if reveals {
			sub.Lang, sub.Stop = lang, i+1
			return sub, before, nil
		}
	}
	sub.Lang = lang
	return sub, st, nil
}

// suggestKeyword gives e, a step's notation error without suggestions,
// the game's keywords nearest the word it points at, when that word looks
// like a misspelt keyword: letters alone, four or more of them, and no
// keyword itself. A game's parser knows what it expects at a place (a
// square, say) but not that "knigt" is "knight" misspelt, which the
// game's vocabulary tells: '"knigt" is not a square…; did you mean
// "knight"?'.
func (g *Game) suggestKeyword(e *notation.Error, step *notation.Step) {
	if g == nil || g.Keywords == nil || len(e.Suggest) > 0 {
		return
	}
	for _, t := range step.Tokens {
		if t.Pos != e.Pos {
			continue
		}
		if g.looksMisspelt(t) { // not a keyword out of its place, whose error says what fits
			e.Suggest = g.Keywords.Suggest(t.Text, step.Lang)
		}
		return
	}
}

// alsoMisspelt returns, for a submission refused at steps[failed] with
// err, the words after the fault that look like misspelt keywords (as
// suggestKeyword sees them), each as a notation error with the keywords
// nearest it, in the order written: in the refused step, those after a
// notation error's position (the words before it were understood; a step
// refused by the rules was understood whole), unless hidden is set (the
// reason is not told, RULINGS.md H-4, so neither is where the step went
// wrong); and every one in the steps after it, which were not read. A
// player's name is no misspelling. So a turn with two typos costs its
// player one answer, not two.
func (m *Match) alsoMisspelt(steps []*notation.Step, failed int, err error, hidden bool) []*notation.Error {
	var from notation.Pos // in steps[failed]: the words after it
	var ne *notation.Error
	inFailed := !hidden && errors.As(err, &ne) && ne.Pos.IsValid()
	if inFailed {
		from = ne.Pos
	}
	var also []*notation.Error
	for i := failed; i < len(steps); i++ {
		if i == failed && !inFailed {
			continue
		}
		step := steps[i]
		for _, t := range step.Tokens {
			if i == failed && (t.Pos.Line < from.Line || t.Pos.Line == from.Line && t.Pos.Col <= from.Col) {
				continue
			}
			if !m.Game.looksMisspelt(t) || slices.ContainsFunc(m.Record.Players, func(p string) bool { return notation.Fold(p) == notation.Fold(t.Text) }) {
				continue
			}
			sug := m.Game.Keywords.Suggest(t.Text, step.Lang)
			if len(sug) == 0 {
				continue
			}
			also = append(also, &notation.Error{
				Pos: t.Pos, Source: step.Source, Suggest: sug,
				Msg:   fmt.Sprintf("%q is not a word of this game", t.Text),
				MsgFR: fmt.Sprintf("« %s » n'est pas un mot de ce jeu", t.Text),
			})
		}
	}
	return also
}

// looksMisspelt reports whether t may be one of the game's keywords
// misspelt: a word of letters alone, four or more of them, and no keyword
// itself.
func (g *Game) looksMisspelt(t notation.Token) bool {
	return g != nil && g.Keywords != nil && t.Kind == notation.Word && g.Keywords.MaybeMisspelt(t.Text)
}

// onHidden reports whether the reason err gives may depend on what
// player could not see in st: a *RuleError marked Hidden, or an error
// that names one of player's secrets in st ([Secretive]).
func onHidden(st State, player string, err error) bool {
	var re *RuleError
	if errors.As(err, &re) && re.Hidden {
		return true
	}
	secrets := Secrets(st, player)
	if len(secrets) == 0 {
		return false
	}
	text := strings.ToLower(Localize(err, notation.English) + "\n" + Localize(err, notation.French))
	for _, s := range secrets {
		if strings.Contains(text, strings.ToLower(s)) {
			return true
		}
	}
	return false
}

// firstReveal returns the 1-based number of the first of player's moves,
// played in order from st, that turns up something hidden ([Revealer]),
// or 0 when none does.
func firstReveal(st State, player string, moves []Move) int {
	if _, ok := st.(Revealer); !ok || len(moves) == 0 {
		return 0
	}
	st = st.Clone()
	for i, mv := range moves {
		if st.(Revealer).Reveals(player, mv) {
			return i + 1
		}
		if st.Apply(player, mv) != nil {
			return 0
		}
	}
	return 0
}

// Resign ends the game because player resigned: it records the ending
// (Record.Ended) with time and source, and no move is accepted after it.
// The game has no result by the rules (RULINGS.md H-1). A game already
// over, or ended, cannot be resigned; nor can a seat the game plays
// itself, or someone who does not play. The error is a *RuleError.
func (m *Match) Resign(player, time, source string) error {
	if err := m.canEnd(); err != nil {
		return err
	}
	if !slices.Contains(m.Record.Players, player) || slices.Contains(Automata(m.State), player) {
		return Rulef(CodeNotAPlayer, "RULINGS.md H-1", "%q cannot resign: only a player of this game can (players: %s)",
			"« %s » ne peut pas abandonner : seul un joueur de cette partie le peut (joueurs : %s)", player, strings.Join(m.Record.Players, ", "))
	}
	m.Record.Ended = &Ending{How: EndResigned, By: player, Time: time, Source: source}
	return nil
}

// TakeBack returns the match as it stands with its moves from keep on
// taken back (RULINGS.md H-5): its record keeps the first keep moves and
// holds the others, as they were, in a new undone entry, asked by by at
// time from source; the state is replayed. m itself does not change. A
// game over or ended, or nothing to take back, is a *RuleError.
func (m *Match) TakeBack(reg *Registry, keep int, by, time, source string) (*Match, error) {
	if err := m.canEnd(); err != nil {
		return nil, err
	}
	if keep < 0 || keep >= len(m.Record.Moves) {
		return nil, Rulef(CodeNoSteps, "RULINGS.md H-5", "there is no move to take back after move %d", "il n'y a pas de coup à reprendre après le coup %d", keep)
	}
	rec := *m.Record
	rec.Moves = slices.Clone(m.Record.Moves[:keep])
	rec.Undone = append(slices.Clone(m.Record.Undone), Undo{After: keep, By: by, Time: time, Source: source, Moves: slices.Clone(m.Record.Moves[keep:])})
	return Start(reg, &rec)
}

// Abandon ends the game because whoever hosts it gave it up: by names them
// for the record (the host's address, or "host"). Like Resign, it records
// the ending with time and source, and the game has no result by the rules
// (RULINGS.md H-1). Who may abandon a game is the host layer's business;
// Match only refuses a game already over or ended, with a *RuleError.
func (m *Match) Abandon(by, time, source string) error {
	if err := m.canEnd(); err != nil {
		return err
	}
	if by == "" {
		return fmt.Errorf("adjudicator: Abandon needs who abandons the game")
	}
	m.Record.Ended = &Ending{How: EndAbandoned, By: by, Time: time, Source: source}
	return nil
}

// canEnd returns why the game cannot be resigned or abandoned now, or nil.
func (m *Match) canEnd() error {
	if err := m.endedError(); err != nil {
		return err
	}
	if m.State.Result().Finished {
		return Rulef(CodeGameOver, "", "the game is over", "la partie est terminée")
	}
	return nil
}

// endedError returns the *RuleError for a submission after the game ended
// early, or nil.
func (m *Match) endedError() error {
	e := m.Record.Ended
	if e == nil {
		return nil
	}
	if e.How == EndAbandoned {
		return Rulef(CodeGameEnded, "RULINGS.md H-1", "the game is over: it was abandoned by %s", "la partie est terminée : %s l'a abandonnée", e.By)
	}
	return Rulef(CodeGameEnded, "RULINGS.md H-1", "the game is over: %s resigned", "la partie est terminée : %s a abandonné", e.By)
}

// A Waiter is a State that can say better than "it is not alice's turn"
// why a player must wait: in Raubritter's setup, a player who has kept
// their A tile is told so, what they kept, and what happens next. It is an
// optional part of the engine contract, asked by [CanAct].
type Waiter interface {
	// Waiting returns the *RuleError saying why player, who is not to
	// move now, must wait, or nil for the generic "it is not alice's
	// turn".
	Waiting(player string) error
}

// CanAct returns nil if player may submit a step to st now, or the
// *RuleError saying why not: the game is over, or it is someone else's turn
// (in the game's words when st is a [Waiter]).
func CanAct(st State, player string) error {
	if st.Result().Finished {
		return Rulef(CodeGameOver, "", "the game is over", "la partie est terminée")
	}
	to := st.ToMove()
	if !slices.Contains(to, player) {
		if w, ok := st.(Waiter); ok {
			if err := w.Waiting(player); err != nil {
				return err
			}
		}
		return Rulef(CodeNotYourTurn, "", "it is not %s's turn: waiting for %s",
			"ce n'est pas à %s de jouer : on attend %s", player, strings.Join(to, ", "))
	}
	return nil
}

// CanActCiting is CanAct, its "it is not alice's turn" citing rule (the
// game's Game.TurnRule): what a game's Apply refuses with.
func CanActCiting(st State, player, rule string) error {
	return citeTurn(CanAct(st, player), rule)
}

// citeTurn returns err, and when it is "it is not alice's turn" citing no
// rule, the same citing g's TurnRule.
func (g *Game) citeTurn(err error) error {
	if g == nil {
		return err
	}
	return citeTurn(err, g.TurnRule)
}

// citeTurn returns err, and when it is "it is not alice's turn" citing no
// rule, the same citing rule ("" cites none).
func citeTurn(err error, rule string) error {
	re, ok := err.(*RuleError)
	if !ok || rule == "" || re.Code != CodeNotYourTurn || re.Rule != "" {
		return err
	}
	c := *re
	c.Rule = rule
	return &c
}

// SubmissionLang returns the language a failed or successful submission was
// written in, for the reply: French if any step read so far used a French
// keyword.
func SubmissionLang(err error) notation.Lang {
	var se *StepError
	if errors.As(err, &se) {
		return se.Lang
	}
	return notation.English
}
