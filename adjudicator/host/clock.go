package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// The policies: what happens to a seat that has not moved once the
// deadline and its grace have passed.
const (
	PolicyWait    = "wait"    // the game waits; the late notice was the last word
	PolicyForfeit = "forfeit" // the late player forfeits: the game ends as if they resigned
)

// Policies lists the policies a host may choose.
var Policies = []string{PolicyWait, PolicyForfeit}

// The defaults of a game's timing when the host names only a deadline.
const (
	DefaultGrace  = 24 * time.Hour
	DefaultRemind = 75 // percent of the deadline
	DefaultPolicy = PolicyWait
	// DefaultVacation is how long each player may be away in a game, in
	// all, unless the host sets otherwise.
	DefaultVacation = 14 * 24 * time.Hour
)

// Timing is how long the players of a game have for each move, set by its
// host at creation or later with "set".
type Timing struct {
	Deadline time.Duration // 0: no deadline
	Grace    time.Duration // 0: DefaultGrace
	Remind   int           // percent of the deadline; 0: DefaultRemind
	Policy   string        // "": DefaultPolicy
	Vacation time.Duration // each player's vacation allowance; 0: DefaultVacation
}

// check fills in the defaults and refuses what cannot be.
func (t *Timing) check() error {
	if t.Deadline < 0 || t.Grace < 0 {
		return &RefusedError{"a deadline or a grace period cannot be negative", "un délai ou une grâce ne peut pas être négatif"}
	}
	if t.Deadline > 0 && t.Deadline < time.Hour {
		return &RefusedError{fmt.Sprintf("a deadline of %s is too short for a game by mail: give at least 1h", FormatSpan(t.Deadline)),
			fmt.Sprintf("un délai de %s est trop court pour une partie par courrier : donnez au moins 1h", FormatSpan(t.Deadline))}
	}
	if t.Grace == 0 {
		t.Grace = DefaultGrace
	}
	if t.Remind == 0 {
		t.Remind = DefaultRemind
	}
	if t.Remind < 1 || t.Remind > 99 {
		return &RefusedError{fmt.Sprintf("the reminder goes at a percent of the deadline between 1 and 99, not %d", t.Remind),
			fmt.Sprintf("le rappel part à un pourcentage du délai entre 1 et 99, pas %d", t.Remind)}
	}
	if t.Policy == "" {
		t.Policy = DefaultPolicy
	}
	if t.Vacation == 0 {
		t.Vacation = DefaultVacation
	}
	if !slices.Contains(Policies, t.Policy) {
		return &RefusedError{fmt.Sprintf("no policy %q: the policies are %s", t.Policy, strings.Join(Policies, ", ")),
			fmt.Sprintf("pas de politique « %s » : les politiques sont %s", t.Policy, strings.Join(Policies, ", "))}
	}
	return nil
}

// waiting returns the players st waits for: those to move, but for a
// bidder whose sealed bid is in (they may replace it, and need not).
func waiting(st adjudicator.State) []string {
	var out []string
	for _, p := range st.ToMove() {
		if !adjudicator.SealedIn(st, p) && !slices.Contains(adjudicator.Automata(st), p) {
			out = append(out, p)
		}
	}
	return out
}

// plan sets c.Next from its stage: the reminder, the deadline, the end of
// the grace (unless the policy is to wait), then nothing.
func (c *Clock) plan() {
	c.Next = time.Time{}
	switch c.Stage {
	case 0:
		c.Next = c.Since.Add(c.Deadline * time.Duration(c.Remind) / 100)
	case 1:
		c.Next = c.Since.Add(c.Deadline)
	case 2:
		if c.Policy != PolicyWait {
			c.Next = c.Since.Add(c.Deadline + c.Grace)
		}
	}
}

// DeadlineAt is when the current turn is due.
func (c *Clock) DeadlineAt() time.Time { return c.Since.Add(c.Deadline) }

// newTurn starts the clock of the turn of st at now when a player st waits
// for was not waited for before (a player who has moved and waits for
// others does not restart anyone's clock); it reports whether the clock
// changed.
func (c *Clock) newTurn(g *Game, st adjudicator.State, now time.Time) bool {
	w := waiting(st)
	old := strings.Split(c.ToMove, ",")
	joined := strings.Join(w, ",")
	if joined == c.ToMove {
		return false
	}
	c.ToMove = joined
	newcomer := false
	start := now
	for _, name := range w {
		if slices.Contains(old, name) {
			continue
		}
		newcomer = true
		// A player away on vacation: their clock starts when they are back.
		for _, p := range g.Players {
			if p.Name == name && p.AwayUntil.After(start) {
				start = p.AwayUntil
			}
		}
	}
	if newcomer {
		c.Since, c.Stage = start, 0
		c.plan()
		return true
	}
	if len(w) == 0 {
		c.Next = time.Time{}
	}
	return true
}

// afterMove keeps g's clock after a move: a new turn starts it again, the
// end of the game stops it.
func (s *Session) afterMove(ctx context.Context, g *Game, m *adjudicator.Match) error {
	if g.Clock == nil {
		return nil
	}
	c := *g.Clock
	changed := c.newTurn(g, m.State, s.now)
	if m.State.Result().Finished && !c.Next.IsZero() {
		c.Next, changed = time.Time{}, true
	}
	if !changed {
		return nil
	}
	g.Clock = &c
	return s.tx.SetClock(ctx, g.ID, c)
}

// Tick does the time-driven work due at now: for each game whose clock
// says so, in a request of its own, the reminder to the players it waits
// for, the late notice to everyone once the deadline has passed, and the
// policy once the grace has too; and the daily digest of every player who
// chose one. deliver queues each request's notices in
// its transaction, so that a notice is sent exactly once whatever crashes:
// each request's identity names the game, the stage and the turn, and a
// request already processed is skipped. It returns how many requests did
// work.
func (h *Host) Tick(ctx context.Context, now time.Time, deliver func(s *Session, notices []Notice) error) (int, error) {
	done := 0
	for {
		due, err := h.cfg.Store.DueClocks(ctx, now, 100)
		if err != nil {
			return done, err
		}
		digests, err := h.cfg.Store.DueDigests(ctx, now, 100)
		if err != nil {
			return done, err
		}
		if len(due)+len(digests) == 0 {
			return done, nil
		}
		// One batch for the round: one commit, each piece of work in a
		// savepoint of its own.
		b, err := h.Begin(ctx)
		if err != nil {
			return done, err
		}
		ran, failed := 0, error(nil)
		do := func(id string, game int64, work func(s *Session) ([]Notice, string, error)) bool {
			err := b.Do(ctx, Intake{MessageID: id, BodyHash: "tick", Sender: "herald", Received: now}, func(s *Session) error {
				notices, outcome, err := work(s)
				if err != nil {
					return err
				}
				s.tx.SetOutcome(outcome, game)
				return deliver(s, notices)
			})
			switch {
			case errors.Is(err, ErrDuplicate): // done before, perhaps before a crash
			case err != nil:
				failed = err
				return false
			default:
				ran++
			}
			return ctx.Err() == nil
		}
		for _, d := range due {
			if !do(fmt.Sprintf("tick:G%d:%d:%s", d.Game, d.Stage, d.Since.UTC().Format(time.RFC3339Nano)), d.Game,
				func(s *Session) ([]Notice, string, error) { return s.tick(ctx, d) }) {
				break
			}
		}
		for _, d := range digests {
			if failed != nil || ctx.Err() != nil {
				break
			}
			if !do(fmt.Sprintf("digest:G%d:%d:%s", d.Game, d.Seat, d.Next.UTC().Format(time.RFC3339Nano)), d.Game,
				func(s *Session) ([]Notice, string, error) { return s.digest(ctx, d) }) {
				break
			}
		}
		if err := b.Commit(ctx); err != nil {
			b.Rollback()
			return done, err
		}
		done += ran
		if failed != nil {
			return done, failed
		}
		if err := ctx.Err(); err != nil {
			return done, err
		}
		if ran == 0 {
			return done, nil
		}
	}
}

// tick does the work of d: the stage of game d.Game's clock that is due.
func (s *Session) tick(ctx context.Context, d DueClock) ([]Notice, string, error) {
	g, err := s.tx.GameInfo(ctx, d.Game)
	if err != nil {
		return nil, "", err
	}
	if g == nil || g.Clock == nil || g.Status != Playing || g.Clock.Stage != d.Stage || !g.Clock.Since.Equal(d.Since) {
		return nil, "stale", nil // a move or the host changed the clock meanwhile
	}
	m, err := s.match(ctx, g)
	if err != nil {
		return nil, "", err
	}
	s.games.stage(g.ID, g.Rev, m)
	c := *g.Clock
	late := waiting(m.State)
	var notices []Notice
	outcome := ""
	switch c.Stage {
	case 0:
		outcome = "reminder"
		for _, p := range g.Players {
			if !slices.Contains(late, p.Name) {
				continue
			}
			lang := noticeLang(p)
			text := fmt.Sprintf("A reminder: game %s waits for your move.\nIt is due by %s, in %s.\n\n",
				Tag(g.ID), formatTime(c.DeadlineAt()), FormatSpan(c.DeadlineAt().Sub(s.now)))
			if lang == notation.French {
				text = fmt.Sprintf("Un rappel : la partie %s attend votre coup.\nIl est attendu avant le %s, dans %s.\n\n",
					Tag(g.ID), formatTime(c.DeadlineAt()), formatSpanIn(c.DeadlineAt().Sub(s.now), true))
			}
			text += s.stateTextIn(g, m, p.Name, m.State.Text(p.Name), lang)
			n := s.notice(g, m, p.Address, p.Name, Reminder, "reminder: your turn", text)
			n.Picture = s.pictureIn(g, m, lang)
			notices = append(notices, n)
		}
		c.Stage = 1
	case 1:
		outcome = "late"
		then, thenFR := "The game waits for them: that is the host's policy.\n", "La partie les attend : c'est le choix de l'hôte.\n"
		if c.Policy == PolicyForfeit {
			// A late step that has a default (a sealed bid) is played for
			// its player: say so, rather than a forfeit that will not come.
			var defaults, forfeit []string
			d, _ := m.State.(adjudicator.Defaulter)
			for _, name := range late {
				if mv, ok := defaultOf(d, name); ok {
					defaults = append(defaults, fmt.Sprintf("  %s: %s\n", name, mv))
				} else {
					forfeit = append(forfeit, name)
				}
			}
			by := formatTime(c.DeadlineAt().Add(c.Grace))
			then, thenFR = "", ""
			if len(defaults) > 0 {
				then = fmt.Sprintf("If their step has not come by %s, herald plays the\ngame's default step for them, marked as played by the host's policy\n(RULINGS.md H-3):\n%s", by, strings.Join(defaults, ""))
				thenFR = fmt.Sprintf("Si leur étape n'est pas arrivée le %s, herald joue pour eux\nl'étape par défaut du jeu, marquée comme jouée selon le choix de\nl'hôte (RULINGS.md H-3) :\n%s", by, strings.Join(defaults, ""))
			}
			if len(forfeit) > 0 {
				then += fmt.Sprintf("If a move has not come by %s, the first player\nstill late forfeits and the game ends: that is the host's policy.\n", by)
				thenFR += fmt.Sprintf("Si aucun coup n'est arrivé le %s, le premier\njoueur encore en retard perd par forfait et la partie s'arrête : c'est\nle choix de l'hôte.\n", by)
			}
		}
		for _, to := range s.everyone(g) {
			text := fmt.Sprintf("Game %s: the deadline, %s, has passed.\nStill waited for: %s.\n%s",
				Tag(g.ID), formatTime(c.DeadlineAt()), strings.Join(late, ", "), then)
			if noticeLang(to) == notation.French {
				text = fmt.Sprintf("Partie %s : l'échéance, le %s, est passée.\nOn attend encore : %s.\n%s",
					Tag(g.ID), formatTime(c.DeadlineAt()), strings.Join(late, ", "), thenFR)
			}
			notices = append(notices, s.notice(g, m, to.Address, to.Name, Late, "late: "+strings.Join(late, ", "), text))
		}
		c.Stage = 2
	case 2:
		// A late step that has a default (a sealed bid that never came is
		// a bid of nothing, RULINGS.md H-3) is played for its player
		// before the policy looks at who is late.
		if d, ok := m.State.(adjudicator.Defaulter); ok && c.Policy != PolicyWait {
			var played []Notice
			for _, name := range late {
				mv, ok := d.Default(name)
				if !ok {
					continue
				}
				seat := slices.IndexFunc(g.Players, func(p Player) bool { return p.Name == name })
				steps, errs := notation.Split(mv.String())
				if seat < 0 || len(errs) > 0 {
					return nil, "", fmt.Errorf("host: game %d: the default step %q of %s does not read back: %v", g.ID, mv, name, errs)
				}
				rep, err := s.Submit(ctx, g, seat, steps, fmt.Sprintf("%s no step by %s and %s of grace", PolicySource, formatTime(c.DeadlineAt()), FormatSpan(c.Grace)))
				if err != nil {
					return nil, "", err
				}
				if rep.Outcome != Applied {
					return nil, "", fmt.Errorf("host: game %d: the default step %q of %s was refused: %s", g.ID, mv, name, rep.Reason)
				}
				played = append(played, rep.Notices...)
				if m, err = s.match(ctx, g); err != nil {
					return nil, "", err
				}
				s.games.stage(g.ID, g.Rev, m)
				d, _ = m.State.(adjudicator.Defaulter)
			}
			if len(played) > 0 {
				if g.Clock == nil || g.Clock.Since.Equal(c.Since) && g.Clock.ToMove == c.ToMove {
					// The same turn goes on: its policy has run.
					c.Stage = 3
					c.plan()
					if err := s.tx.SetClock(ctx, g.ID, c); err != nil {
						return nil, "", err
					}
				}
				return played, "default", nil
			}
		}
		if c.Policy != PolicyForfeit || len(late) == 0 {
			c.Stage = 3
			break
		}
		outcome = "forfeit"
		seat := slices.IndexFunc(g.Players, func(p Player) bool { return p.Name == late[0] })
		source := fmt.Sprintf("%s no move by %s and %s of grace", forfeitSource, formatTime(c.DeadlineAt()), FormatSpan(c.Grace))
		s.games.unstage(g.ID)
		rep, err := s.end(ctx, g, m, Request{Game: g, From: g.Players[seat].Address, Seat: seat, Source: source}, late[0], "forfeit")
		if err != nil {
			return nil, "", err
		}
		notices = rep.Notices
		c.Stage = 3
	default:
		return nil, "stale", nil
	}
	c.plan()
	if err := s.tx.SetClock(ctx, g.ID, c); err != nil {
		return nil, "", err
	}
	g.Clock = &c
	return notices, outcome, nil
}

// PolicySource begins the source of a move the host's policy played for
// a late player (a sealed bid's default, RULINGS.md H-3): mails, the
// history and the page mark such a move as not the player's own.
const PolicySource = "host default:"

// forfeitSource begins the source of the ending of a game a late player
// forfeited by the host's policy.
const forfeitSource = "host policy forfeit:"

// ByPolicy reports whether a move of the record was played by the host's
// policy for a late player, not by the player.
func ByPolicy(mv adjudicator.RecordMove) bool { return strings.HasPrefix(mv.Source, PolicySource) }

// defaultOf is d's default step for player, if d is a Defaulter and has one.
func defaultOf(d adjudicator.Defaulter, player string) (adjudicator.Move, bool) {
	if d == nil {
		return nil, false
	}
	return d.Default(player)
}

// everyone is who hears of a game's public events: its players, and its
// host when they do not play.
func (s *Session) everyone(g *Game) []Player {
	out := slices.DeleteFunc(slices.Clone(g.Players), Player.IsBot) // a bot's seat gets no mail
	if seatOf(g, g.Host) == "" && g.Host != "" {
		out = append(out, Player{Address: g.Host})
	}
	return out
}

// set changes a game's timing: only its host may. The players hear of it.
func (s *Session) set(ctx context.Context, g *Game, m *adjudicator.Match, req Request, args []string) (Reply, error) {
	fr := req.Env.Lang == notation.French
	if req.From != g.Host {
		return s.answer(g, m, req, Refusal, "set refused", pick(fr, "Only the host of the game may change its settings.\n", "Seul l'hôte de la partie peut en changer les réglages.\n"), "set by a player"), nil
	}
	usage := pick(fr, "Write, on a line of its own, one of:\n\n  set deadline 72h   (or 3d; off for none)\n  set grace 24h\n  set reminder 75%\n  set policy wait    (or forfeit)\n  set vacation 14d   (each player's allowance)\n  set observers off  (or on)\n  set page public    (or link, the default, or off)\n  set page new       (a new address; the old one stops working)\n",
		"Écrivez, seule sur sa ligne, l'une de ces lignes :\n\n  réglage délai 72h          (ou 3j ; aucun pour aucun délai)\n  réglage grâce 24h\n  réglage rappel 75%\n  réglage politique wait     (ou forfeit)\n  réglage vacances 14j       (le crédit de chaque joueur)\n  réglage observateurs non   (ou oui)\n  réglage page public        (ou link, par défaut, ou off)\n  réglage page nouvelle      (une nouvelle adresse ; l'ancienne ne\n                             marche plus)\n")
	if len(args) < 2 {
		return s.answer(g, m, req, Refusal, "set refused", pick(fr, "herald did not understand your set line.\n\n", "herald n'a pas compris votre ligne réglage.\n\n")+usage, "bad set"), nil
	}
	args = []string{args[0], strings.Join(args[1:], " ")}
	t := Timing{}
	if g.Clock != nil {
		t = Timing{Deadline: g.Clock.Deadline, Grace: g.Clock.Grace, Remind: g.Clock.Remind, Policy: g.Clock.Policy, Vacation: g.Clock.Vacation}
	}
	var err error
	what := notation.Fold(args[0])
	switch what {
	case "deadline", "delai":
		if f := notation.Fold(args[1]); f == "off" || f == "none" || f == "aucun" {
			t.Deadline = 0
		} else {
			t.Deadline, err = ParseSpan(args[1])
		}
	case "grace":
		t.Grace, err = ParseSpan(args[1])
	case "vacation", "vacances":
		t.Vacation, err = ParseSpan(args[1])
	case "reminder", "rappel":
		t.Remind, err = strconv.Atoi(strings.TrimSuffix(args[1], "%"))
		if err != nil {
			err = fmt.Errorf("%q is not a percent, like 75%%", args[1])
		}
	case "policy", "politique":
		t.Policy = notation.Fold(args[1])
	case "page":
		mode := notation.Fold(args[1])
		token := g.PageToken
		renew := mode == "new" || mode == "nouvelle" || mode == "nouveau"
		if renew {
			// A new address: the old one stops working (issue 25, item
			// 12). A page that was off is served again, by its address.
			mode, token = g.Page, ""
			if mode != PagePublic {
				mode = PageLink
			}
		}
		if mode != PagePublic && mode != PageLink && mode != PageOff {
			return s.answer(g, m, req, Refusal, "set refused", fmt.Sprintf(pick(fr, "A game's page is public, link or off (or new, for a new address), not %q.\n\n%s",
				"La page d'une partie est public, link ou off (ou nouvelle, pour une\nnouvelle adresse), pas « %s ».\n\n%s"), args[1], usage), "bad set"), nil
		}
		if token == "" {
			token = s.h.newToken()
		}
		if err := s.tx.SetPage(ctx, g.ID, mode, token); err != nil {
			return Reply{}, err
		}
		g.Page, g.PageToken = mode, token
		s.games.stage(g.ID, g.Rev, m)
		text := map[string]string{
			PagePublic: "The page of game %s is now public: listed on herald's index of games.\n",
			PageLink:   "The page of game %s is now reachable by its address only.\n",
			PageOff:    "The page of game %s is now off: herald does not serve it.\n",
		}[mode]
		if fr {
			text = map[string]string{
				PagePublic: "La page de la partie %s est désormais publique : elle figure dans\nl'index des parties de herald.\n",
				PageLink:   "La page de la partie %s n'est désormais accessible que par son adresse.\n",
				PageOff:    "La page de la partie %s est désormais fermée : herald ne la sert pas.\n",
			}[mode]
		}
		if renew {
			text = pick(fr, "The page of game %s has a new address; the old one no longer works.\n",
				"La page de la partie %s a une nouvelle adresse ; l'ancienne ne marche\nplus.\n")
		}
		return s.answer(g, m, req, Answer, "settings", fmt.Sprintf(text, Tag(g.ID))+s.h.pageNoteIn(g, req.Env.Lang), "set page"), nil
	case "observers", "observateurs":
		var off bool
		switch notation.Fold(args[1]) {
		case "off", "no", "non":
			off = true
		case "on", "yes", "oui":
		default:
			return s.answer(g, m, req, Refusal, "set refused", fmt.Sprintf(pick(fr, "Observers are on or off, not %q.\n\n%s", "Les observateurs sont oui ou non, pas « %s ».\n\n%s"), args[1], usage), "bad set"), nil
		}
		var dropped []string
		var langs map[string]string // the languages they observed in
		if off {
			var err error
			if dropped, langs, err = s.observers(ctx, g.ID); err != nil {
				return Reply{}, err
			}
		}
		if err := s.tx.SetObserversOff(ctx, g.ID, off); err != nil {
			return Reply{}, err
		}
		g.ObserversOff = off
		s.games.stage(g.ID, g.Rev, m)
		text := fmt.Sprintf(pick(fr, "The host of game %s now allows observers.\n", "L'hôte de la partie %s accepte désormais des observateurs.\n"), Tag(g.ID))
		if off {
			text = fmt.Sprintf(pick(fr, "The host of game %s now allows no observers; those who observed it\n(%d) no longer do, and are told so.\n",
				"L'hôte de la partie %s n'accepte désormais plus d'observateurs ; ceux\nqui l'observaient (%d) ne l'observent plus, et en sont avertis.\n"), Tag(g.ID), len(dropped))
			if len(dropped) > 0 && s.h.cfg.PageURL != nil && g.PageToken != "" && g.Page != PageOff {
				// Their mails gave them the page's address, which still
				// shows every move: say so, and how to close it to them.
				text += pick(fr, "They were given the address of the game's page, which still shows\nevery move to whoever has it: \"set page new\" gives the page a new\naddress (\"set page off\" closes it).\n",
					"Ils ont reçu l'adresse de la page de la partie, qui montre toujours\nchaque coup à qui l'a : « réglage page nouvelle » donne à la page une\nnouvelle adresse (« réglage page off » la ferme).\n")
			}
		}
		rep := s.answer(g, m, req, Answer, "settings", text, "set observers")
		for _, a := range dropped {
			lang := storedLang(langs[a])
			n := s.notice(g, m, a, "", News, "no longer observed",
				fmt.Sprintf(pick(lang == notation.French, "The host of game %s now allows no observers: herald no longer mails you\nits moves.\n",
					"L'hôte de la partie %s n'accepte plus d'observateurs : herald ne vous\nenvoie plus ses coups.\n"), Tag(g.ID)))
			n.Lang = lang
			rep.Notices = append(rep.Notices, n)
		}
		return rep, nil
	default:
		return s.answer(g, m, req, Refusal, "set refused", fmt.Sprintf(pick(fr, "There is no setting %q.\n\n%s", "Il n'y a pas de réglage « %s ».\n\n%s"), args[0], usage), "bad set"), nil
	}
	if err == nil {
		err = t.check()
	}
	if err != nil {
		return s.answer(g, m, req, Refusal, "set refused", pick(fr, "Nothing changed: ", "Rien n'a changé : ")+err.Error()+".\n\n"+usage, "bad set"), nil
	}
	var c Clock
	if t.Deadline > 0 {
		c = Clock{Deadline: t.Deadline, Grace: t.Grace, Remind: t.Remind, Policy: t.Policy, Vacation: t.Vacation}
		if g.Clock != nil && g.Clock.Deadline > 0 {
			c.Since, c.ToMove, c.Stage = g.Clock.Since, g.Clock.ToMove, g.Clock.Stage
		} else {
			c.Since, c.ToMove = s.now, strings.Join(waiting(m.State), ",")
		}
		c.plan()
	}
	if err := s.tx.SetClock(ctx, g.ID, c); err != nil {
		return Reply{}, err
	}
	if t.Deadline > 0 {
		g.Clock = &c
	} else {
		g.Clock = nil
	}
	var notices []Notice
	for _, p := range s.everyone(g) {
		lang := noticeLang(p)
		if p.Address == req.From {
			lang = req.Env.Lang
		}
		text := fmt.Sprintf("The host of game %s changed its timing.\n\n%s", Tag(g.ID), describeTiming(g.Clock))
		if g.Clock != nil {
			text += fmt.Sprintf("The move under way is due by %s.\n", formatTime(g.Clock.DeadlineAt()))
		}
		if lang == notation.French {
			text = fmt.Sprintf("L'hôte de la partie %s en a changé les délais.\n\n%s", Tag(g.ID), describeTimingIn(g.Clock, lang))
			if g.Clock != nil {
				text += fmt.Sprintf("Le coup en cours est attendu avant le %s.\n", formatTime(g.Clock.DeadlineAt()))
			}
		}
		n := s.notice(g, m, p.Address, p.Name, Answer, "settings", text)
		n.Answer, n.Lang = p.Address == req.From, lang
		notices = append(notices, n)
	}
	return Reply{Outcome: Answered, Game: g.ID, Reason: "set " + what, Notices: notices}, nil
}

// describeTiming says a game's timing, in lines of its own that a mail
// does not wrap.
func describeTiming(c *Clock) string { return describeTimingIn(c, notation.English) }

// describeTimingIn is describeTiming in lang.
func describeTimingIn(c *Clock, lang notation.Lang) string {
	if lang == notation.French {
		if c == nil || c.Deadline == 0 {
			return "Délais : aucun.\n"
		}
		then := "la partie l'attend"
		if c.Policy == PolicyForfeit {
			then = "le premier retardataire perd par forfait"
		}
		return fmt.Sprintf("Délais :\n  chaque coup est attendu dans les %s\n  un rappel à %d %% de ce temps, un avis de retard à l'échéance\n  puis %s de grâce ; ensuite %s\n  chaque joueur peut s'absenter %s en tout (vacances jusqu'au DATE)\n",
			formatSpanIn(c.Deadline, true), c.Remind, formatSpanIn(c.Grace, true), then, formatSpanIn(c.Vacation, true))
	}
	if c == nil || c.Deadline == 0 {
		return "Timing: no deadline.\n"
	}
	then := "the game waits for them"
	if c.Policy == PolicyForfeit {
		then = "the first player still late forfeits"
	}
	return fmt.Sprintf("Timing:\n  each move is due within %s\n  a reminder at %d%% of that time, a late notice at the deadline\n  then %s of grace; after it, %s\n  each player may be away %s in all (vacation until DATE)\n",
		FormatSpan(c.Deadline), c.Remind, FormatSpan(c.Grace), then, FormatSpan(c.Vacation))
}

// formatTime writes a time for players: to the minute, in UTC.
func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// ParseSpan reads a span of time as a host writes it: 72h, 3d, 2 days,
// 90m, 1d12h, 36 heures. Hours and days only go so far: the result is at
// most a year, and at least a minute: a zero span (0h) is an error, not a
// setting (a zero grace or allowance read as unset was silently the
// default: hand play, "set grace 0h" answered "1d of grace").
func ParseSpan(text string) (time.Duration, error) {
	s := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(text), " ", ""))
	bad := fmt.Errorf("%q is not a span of time: write it like 72h, 3d or 90m", text)
	if s == "" {
		return 0, bad
	}
	var total time.Duration
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
		if i <= 0 {
			return 0, bad
		}
		n, err := strconv.Atoi(s[:i])
		if err != nil || n > 366*24*60 {
			return 0, bad
		}
		s = s[i:]
		j := strings.IndexFunc(s, unicode.IsDigit)
		if j < 0 {
			j = len(s)
		}
		unit := s[:j]
		s = s[j:]
		switch unit {
		case "d", "day", "days", "j", "jour", "jours":
			total += time.Duration(n) * 24 * time.Hour
		case "h", "hour", "hours", "heure", "heures":
			total += time.Duration(n) * time.Hour
		case "m", "min", "mins", "minute", "minutes":
			total += time.Duration(n) * time.Minute
		default:
			return 0, bad
		}
	}
	if total > 366*24*time.Hour {
		return 0, fmt.Errorf("%q is more than a year", text)
	}
	if total == 0 {
		return 0, fmt.Errorf("%q is no time at all: a span is at least 1m, like 72h, 3d or 90m (a deadline may be off)", text)
	}
	return total, nil
}

// formatSpanIn is FormatSpan, in French (fr) with j for the days: 3j,
// 1j12h.
func formatSpanIn(d time.Duration, fr bool) string {
	t := FormatSpan(d)
	if fr {
		t = strings.Replace(t, "d", "j", 1)
	}
	return t
}

// FormatSpan writes a span of time as days, hours and minutes: 3d, 1d12h,
// 45m.
func FormatSpan(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Round(time.Minute)
	days, d := d/(24*time.Hour), d%(24*time.Hour)
	hours, mins := d/time.Hour, (d%time.Hour)/time.Minute
	var b strings.Builder
	if days > 0 {
		fmt.Fprintf(&b, "%dd", days)
	}
	if hours > 0 {
		fmt.Fprintf(&b, "%dh", hours)
	}
	if mins > 0 || b.Len() == 0 {
		fmt.Fprintf(&b, "%dm", mins)
	}
	return b.String()
}
