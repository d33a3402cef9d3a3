package mail

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/notation"
)

// newGame starts a game from a mail: "new GAME players A B [C D] [seed S]
// [opt k=v]...". Every player gets a welcome mail with their key; the host
// gets a confirmation with the host key.
func (s *Service) newGame(ctx context.Context, tx store.Tx, msg *Message, env *notation.Envelope, c notation.Command, now time.Time) (Outcome, int64, string, error) {
	fail := func(why string) (Outcome, int64, string, error) {
		body := "herald could not start the game:\n\n  " + why + "\n\nWrite, on a line of its own:\n\n  new GAME players ADDRESS ADDRESS [ADDRESS ADDRESS] [opt NAME=VALUE]\n\nfor example: new raubritter players alice@example.org bob@example.org\n\nGames:\n" + s.gamesList()
		return Rejected, 0, why, s.reply(ctx, tx, msg.From, msg.MessageID, "[herald] new game refused", body, 0, now, nil)
	}
	if len(s.cfg.Hosts) > 0 && !slices.Contains(s.cfg.Hosts, msg.From) {
		return fail("your address may not start games on this herald")
	}
	if len(c.Args) == 0 {
		return fail("name the game")
	}
	g, err := s.cfg.Registry.Lookup(c.Args[0])
	if err != nil {
		return fail(err.Error())
	}
	var addrs []string
	opts := map[string]string{}
	mode := ""
	for _, a := range c.Args[1:] {
		switch f := notation.Fold(a); {
		case f == "players" || f == "joueurs":
			mode = "players"
		case f == "opt" || f == "option":
			mode = "opt"
		case mode == "players":
			addr := strings.ToLower(a)
			if !strings.Contains(addr, "@") {
				return fail(fmt.Sprintf("%q is not a mail address", a))
			}
			addrs = append(addrs, addr)
		case mode == "opt":
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				return fail(fmt.Sprintf("option %q: expected name=value", a))
			}
			opts[k] = v
		default:
			return fail(fmt.Sprintf("unexpected %q: write players before the addresses", a))
		}
	}
	id, err := s.createGame(ctx, tx, msg.From, msg.MessageID, g, addrs, opts, now)
	var refused *RefusedError
	if errors.As(err, &refused) {
		return fail(refused.Reason)
	}
	if err != nil {
		return "", 0, "", err
	}
	return Created, id, "new " + g.Name, nil
}

func hasDup(xs []string) bool {
	seen := map[string]bool{}
	for _, x := range xs {
		if seen[x] {
			return true
		}
		seen[x] = true
	}
	return false
}

func (s *Service) gamesList() string {
	var b strings.Builder
	for _, g := range s.cfg.Registry.Games() {
		fmt.Fprintf(&b, "  %-12s %d-%d players  %s\n", g.Name, g.MinPlayers, g.MaxPlayers, g.Title)
	}
	return b.String()
}

// maxListedSteps is how many legal steps a mail that asks for a move
// lists: a Löwenherz border step can have hundreds.
const maxListedSteps = 40

// stateText is what a player sees of the game now: whose turn, the board
// with their own hand, and their legal steps when it is their turn.
func (s *Service) stateText(g *store.Game, m *adjudicator.Match, player string) string {
	return s.stateTextWith(g, m, player, m.State.Text(player))
}

// stateTextWith is stateText with the board as player sees it, board,
// already rendered (adjudicator.Texts renders everyone's at once).
func (s *Service) stateTextWith(g *store.Game, m *adjudicator.Match, player, board string) string {
	var b strings.Builder
	b.Grow(len(board) + 1024)
	st := m.State
	to := st.ToMove()
	res := st.Result()
	switch {
	case res.Finished:
		fmt.Fprintf(&b, "Game %s is over: %s.\n", gameTag(g.ID), res.Summary)
	case slices.Contains(to, player):
		fmt.Fprintf(&b, "Game %s, move %d: IT IS YOUR TURN, %s.\n", gameTag(g.ID), m.MoveNumber(), player)
	default:
		fmt.Fprintf(&b, "Game %s, move %d: waiting for %s.\n", gameTag(g.ID), m.MoveNumber(), strings.Join(to, ", "))
	}
	fmt.Fprintf(&b, "Scores: %s\n\n", adjudicator.FormatScores(m.Seats(), st.Scores()))
	b.WriteString(board)
	if !res.Finished && slices.Contains(to, player) {
		legal := st.Legal(player)
		fmt.Fprintf(&b, "\nYour legal steps (%d), any one per line:\n", len(legal))
		for _, mv := range legal[:min(len(legal), maxListedSteps)] {
			b.WriteString("  ")
			b.WriteString(mv.String())
			b.WriteByte('\n')
		}
		if more := len(legal) - maxListedSteps; more > 0 {
			fmt.Fprintf(&b, "\n(and %d more: a mail with the line legal lists them all)\n", more)
		}
		// How to answer, in one line, never with the key itself.
		b.WriteString("\nTo play, reply with your key line (key YOUR-KEY) and your steps, one per line.\n")
	}
	return b.String()
}

// broadcast tells everyone about an applied move: the mover gets the list
// of what was applied, everyone their own view; at the end everyone gets
// the revealed seed and the record.
func (s *Service) broadcast(ctx context.Context, tx store.Tx, g *store.Game, m *adjudicator.Match, msg *Message, sub *adjudicator.Submission, now time.Time) error {
	finished := m.State.Result().Finished
	var att *Attachment // the final record, attached when the mail is sent
	var recordOf int64
	if finished {
		att, recordOf = &Attachment{Name: recordName(g)}, g.ID
	}
	names := make([]string, len(g.Players))
	for i, p := range g.Players {
		names[i] = p.Name
	}
	boards := adjudicator.Texts(m.State, names)
	for i, p := range g.Players {
		var b strings.Builder
		what := "move applied"
		if p.Name == sub.Player {
			fmt.Fprintf(&b, "Your move %d was applied:\n", sub.Number)
			for _, mv := range sub.Moves {
				fmt.Fprintf(&b, "  %s\n", mv)
			}
			b.WriteString(ignoredNote(msg.ignored, sub.Lang))
		} else {
			fmt.Fprintf(&b, "%s played move %d:\n", sub.Player, sub.Number)
			for _, mv := range sub.Moves {
				// A sealed bid reads "alice has bid" to the others.
				fmt.Fprintf(&b, "  %s\n", adjudicator.StepText(m.State, sub.Player, mv, p.Name, notation.English))
			}
		}
		// The moves the game played itself right after (Henri's turn), each
		// step with the rule of the automaton that chose it.
		for _, a := range sub.Auto {
			fmt.Fprintf(&b, "\n%s (played by the game) played move %d:\n", a.Player, a.Number)
			for j, mv := range a.Moves {
				why := ""
				if sub.Lang == notation.French && j < len(a.WhyFR) && a.WhyFR[j] != "" {
					why = "  (" + a.WhyFR[j] + ")"
				} else if j < len(a.Why) && a.Why[j] != "" {
					why = "  (" + a.Why[j] + ")"
				}
				fmt.Fprintf(&b, "  %s%s\n", adjudicator.StepText(m.State, a.Player, mv, p.Name, notation.English), why)
			}
		}
		if slices.Contains(m.State.ToMove(), p.Name) && !adjudicator.SealedIn(m.State, p.Name) {
			what = "your turn" // the mover's too, while their turn goes on
		}
		b.WriteString("\n")
		b.WriteString(s.stateTextWith(g, m, p.Name, boards[i]))
		if finished {
			what = "game over"
			fmt.Fprintf(&b, "\nThe seed was:\n  %q\nIts sha256, announced at the start:\n  %s\nThe full record is attached; check every move with:\n  herald adjudicate %s\n",
				g.Record.Seed, g.Record.SeedSHA256, att.Name)
		}
		out := outMail{To: p.Address, Subject: s.subject(g, what), References: refs("", g.ID, s.domain), Body: b.String(), Attachment: att, RecordOf: recordOf}
		if p.Address == msg.From {
			out.InReplyTo = msg.MessageID
			out.References = refs(msg.MessageID, g.ID, s.domain)
		}
		if err := s.queue(ctx, tx, out, g.ID); err != nil {
			return err
		}
	}
	// The host who does not play gets the end too: the public board, the
	// revealed seed and the record.
	if finished && g.Host != "" && !slices.ContainsFunc(g.Players, func(p store.Player) bool { return p.Address == g.Host }) {
		body := fmt.Sprintf("Game %s, which you host, is over: %s.\nScores: %s\n\n%s\nThe seed was:\n  %q\nIts sha256, announced at the start:\n  %s\nThe full record is attached; check every move with:\n  herald adjudicate %s\n",
			gameTag(g.ID), m.State.Result().Summary, adjudicator.FormatScores(m.Seats(), m.State.Scores()), m.State.Text(""),
			g.Record.Seed, g.Record.SeedSHA256, att.Name)
		out := outMail{To: g.Host, Subject: s.subject(g, "game over"), References: refs("", g.ID, s.domain), Body: body, Attachment: att, RecordOf: recordOf}
		if err := s.queue(ctx, tx, out, g.ID); err != nil {
			return err
		}
	}
	return nil
}

// rejectMove answers the sender alone: what was wrong, where, the rule,
// and the board as it still stands.
func (s *Service) rejectMove(ctx context.Context, tx store.Tx, g *store.Game, m *adjudicator.Match, msg *Message, player string, err error, lang notation.Lang, now time.Time) (Outcome, int64, string, error) {
	var b strings.Builder
	if lang == notation.French {
		b.WriteString("Votre coup n'a pas été appliqué ; rien n'a changé.\n\n")
	} else {
		b.WriteString("Your move was not applied; nothing changed.\n\n")
	}
	b.WriteString(adjudicator.Pretty(err, lang))
	b.WriteString("\n")
	if note := ignoredNote(msg.ignored, lang); note != "" {
		b.WriteString(note[1:] + "\n")
	}
	b.WriteString(s.stateText(g, m, player))
	return Rejected, g.ID, err.Error(), s.reply(ctx, tx, msg.From, msg.MessageID, s.subject(g, "move refused"), b.String(), g.ID, now, nil)
}

// commands answers show, legal, help and history, to the sender alone.
func (s *Service) commands(ctx context.Context, tx store.Tx, g *store.Game, m *adjudicator.Match, msg *Message, player string, env *notation.Envelope, now time.Time) (Outcome, int64, string, error) {
	var b strings.Builder
	var names []string
	for _, c := range env.Commands {
		names = append(names, c.Name)
		switch c.Name {
		case "show":
			b.WriteString(s.stateText(g, m, player))
		case "legal":
			legal := m.State.Legal(player)
			if len(legal) == 0 {
				fmt.Fprintf(&b, "You have no step to take now: waiting for %s.\n", strings.Join(m.State.ToMove(), ", "))
			}
			for _, mv := range legal {
				fmt.Fprintf(&b, "%s\n", mv)
			}
		case "history":
			// Through History, so that a bid still sealed reads "alice
			// has bid" to everyone but alice.
			texts, err := m.History(s.cfg.Registry, player, env.Lang)
			if err != nil {
				return "", 0, "", err
			}
			for i, mv := range m.Record.Moves {
				fmt.Fprintf(&b, "%3d  %-12s %s\n", i+1, mv.Player, texts[i])
			}
			if len(m.Record.Moves) == 0 {
				b.WriteString("No move yet.\n")
			}
		case "abandon":
			b.WriteString("Only the host may abandon a game; a player may resign.\n")
		default:
			b.WriteString(s.helpText(env.Lang))
		}
		b.WriteString("\n")
	}
	if len(names) == 0 {
		b.WriteString("Your mail held no steps and no command.\n\n" + s.helpText(env.Lang))
		names = []string{"help"}
	}
	b.WriteString(ignoredNote(msg.ignored, env.Lang))
	return Answered, g.ID, strings.Join(names, ","), s.reply(ctx, tx, msg.From, msg.MessageID, s.subject(g, strings.Join(names, ", ")), b.String(), g.ID, now, nil)
}

// end ends a game by resignation or by the host abandoning it: no result
// by the rules; everyone gets the board, the revealed seed and the record.
func (s *Service) end(ctx context.Context, tx store.Tx, g *store.Game, m *adjudicator.Match, msg *Message, player, how string, now time.Time) (Outcome, int64, string, error) {
	if how == "resign" && player == "" {
		body := "You host this game but do not play in it, so you cannot resign;\nwrite abandon to end the game.\n"
		return Rejected, g.ID, "host resigned", s.reply(ctx, tx, msg.From, msg.MessageID, s.subject(g, "not a player"), body, g.ID, now, nil)
	}
	// The record holds the ending (who, when, by which mail), so that
	// adjudicate reports it. A copy: the cached match must not see it
	// unless the transaction commits.
	ended := *m
	rec := *m.Record
	ended.Record = &rec
	var err error
	if how == "abandon" {
		err = ended.Abandon(msg.From, now.Format(time.RFC3339), "mail:"+msg.MessageID)
	} else {
		err = ended.Resign(player, now.Format(time.RFC3339), "mail:"+msg.MessageID)
	}
	if err != nil {
		return s.rejectMove(ctx, tx, g, m, msg, player, err, notation.English, now)
	}
	if err := tx.SaveGame(ctx, g.ID, ended.Record, store.Abandoned); err != nil {
		return "", 0, "", err
	}
	g.Record = ended.Record
	why := fmt.Sprintf("%s resigned", player)
	if how == "abandon" {
		why = "the host abandoned it"
	}
	att := &Attachment{Name: recordName(g)}
	recipients := g.Players
	if !slices.ContainsFunc(recipients, func(p store.Player) bool { return p.Address == g.Host }) {
		recipients = append(slices.Clone(recipients), store.Player{Address: g.Host})
	}
	for _, p := range recipients {
		body := fmt.Sprintf("Game %s has ended: %s. It has no result by the rules.\nScores as the board stands: %s\n\n%s\nThe seed was:\n  %q\nIts sha256, announced at the start:\n  %s\nThe record is attached.\n",
			gameTag(g.ID), why, adjudicator.FormatScores(m.Seats(), m.State.Scores()), m.State.Text(p.Name), g.Record.Seed, g.Record.SeedSHA256)
		out := outMail{To: p.Address, Subject: s.subject(g, "game ended"), References: refs("", g.ID, s.domain), Body: body, Attachment: att, RecordOf: g.ID}
		if err := s.queue(ctx, tx, out, g.ID); err != nil {
			return "", 0, "", err
		}
	}
	return Ended, g.ID, why, nil
}

// recordName is the file name of a game's record attached to mail.
func recordName(g *store.Game) string {
	return fmt.Sprintf("herald-%s-%s.yaml", strings.ToLower(gameTag(g.ID)), g.Record.Game)
}

func (s *Service) helpText(lang notation.Lang) string {
	if lang == notation.French {
		return "Écrivez vos étapes, une par ligne, après votre clé (clé VOTRE-CLÉ).\nCommandes, une par ligne : montre, coups, historique, aide, abandonne.\n"
	}
	return "Write your steps, one per line, after your key (key YOUR-KEY).\nCommands, one per line: show, legal, history, help, resign.\nA YAML turn file (game, player, move, steps) may be attached instead.\n"
}

// RefusedError is a game that cannot be created (unknown game, bad player
// count, bad option), with the reason for the host.
type RefusedError struct{ Reason string }

func (r *RefusedError) Error() string { return r.Reason }

// createGame creates a game of g between addrs, hosted by host, and queues
// the host's confirmation and every player's welcome mail with their key.
func (s *Service) createGame(ctx context.Context, tx store.Tx, host, inReplyTo string, g *adjudicator.Game, addrs []string, opts map[string]string, now time.Time) (int64, error) {
	// Player names in the record are the local parts of the addresses when
	// they differ, else the whole addresses.
	names := make([]string, len(addrs))
	for i, a := range addrs {
		names[i], _, _ = strings.Cut(a, "@")
	}
	if hasDup(names) {
		copy(names, addrs)
	}
	seed := s.cfg.NewSeed()
	rec, err := adjudicator.NewRecord(g, names, opts, seed, nil)
	if err != nil {
		return 0, &RefusedError{err.Error()}
	}
	if _, err := adjudicator.Start(s.cfg.Registry, rec); err != nil {
		return 0, &RefusedError{err.Error()}
	}
	players := make([]store.Player, len(addrs))
	for i := range addrs {
		players[i] = store.Player{Name: names[i], Address: addrs[i], Secret: s.cfg.NewKey()}
		if s.cfg.OnNewPlayer != nil {
			if err := s.cfg.OnNewPlayer(addrs[i]); err != nil {
				return 0, err
			}
		}
	}
	if s.cfg.OnNewPlayer != nil && host != s.cfg.Address && !slices.Contains(addrs, host) {
		// The host gets mail too (the confirmation, the end of the game).
		if err := s.cfg.OnNewPlayer(host); err != nil {
			return 0, err
		}
	}
	hostKey := s.cfg.NewKey()
	id, err := tx.CreateGame(ctx, host, hostKey, rec, players)
	if err != nil {
		return 0, err
	}
	sg, err := tx.Game(ctx, id)
	if err != nil {
		return 0, err
	}
	m, err := adjudicator.Start(s.cfg.Registry, sg.Record)
	if err != nil {
		return 0, err
	}
	// The host's confirmation.
	hb := fmt.Sprintf("Game %s of %s has started between %s.\n\nSeed commitment (sha256 of the secret seed, revealed at the end):\n  %s\n",
		gameTag(id), g.Title, strings.Join(addrs, ", "), rec.SeedSHA256)
	if !slices.Contains(addrs, host) {
		// Short lines: the key is long, and a line over 72 columns would be
		// wrapped in the middle of the sentence.
		hb += fmt.Sprintf("\nYou host the game without playing. Your host key is:\n\n  %s\n\nTo end the game early, send herald a mail with these two lines:\n\n  key %s\n  abandon\n", hostKey, hostKey)
	}
	// Never dropped by the rate limit, though it answers the host's mail: it
	// is the only mail with the host's key. (Starting a game is itself
	// limited: Config.Hosts says who may.)
	confirm := outMail{To: host, Subject: s.subject(sg, "game started"), InReplyTo: inReplyTo, References: refs(inReplyTo, id, s.domain), Body: hb}
	if err := s.enqueue(ctx, tx, confirm, id, true); err != nil {
		return 0, err
	}
	for i, p := range players {
		body := fmt.Sprintf("Welcome to game %s of %s.\n\nPlayers, in turn order: %s\nYou are %s.\n\nSeed commitment (sha256 of the secret seed, revealed at the end):\n  %s\n\nYour key is %s\nKeep it secret: herald sends it only in this mail. Put this line in\nevery mail you send to herald for this game:\n\n  key %s\n\nHow to play: reply to herald's mails with your steps, one per line,\nafter your key. Commands, one per line: show, legal, history, help,\nresign.\n\n%s\n\n%s",
			gameTag(id), g.Title, strings.Join(names, ", "), names[i], rec.SeedSHA256, p.Secret, p.Secret, g.Help, s.stateText(sg, m, p.Name))
		if err := s.queue(ctx, tx, outMail{To: p.Address, Subject: s.subject(sg, "welcome"), References: refs("", id, s.domain), Body: body}, id); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// CreateGame starts a game from the command line (herald new --mail), as
// if host had mailed "new": it is stored and the welcome mails are queued
// for the next `herald serve`.
func (s *Service) CreateGame(ctx context.Context, host, game string, addrs []string, opts map[string]string) (int64, error) {
	g, err := s.cfg.Registry.Lookup(game)
	if err != nil {
		return 0, &RefusedError{err.Error()}
	}
	for i := range addrs {
		addrs[i] = strings.ToLower(strings.TrimSpace(addrs[i]))
		if !strings.Contains(addrs[i], "@") {
			return 0, &RefusedError{fmt.Sprintf("%q is not a mail address", addrs[i])}
		}
	}
	now := s.cfg.Now().UTC()
	var id int64
	in := store.Intake{MessageID: "cli:" + newMessageID(s.domain), BodyHash: "cli", Sender: strings.ToLower(host), Received: now}
	err = s.cfg.Store.Process(ctx, in, func(tx store.Tx) error {
		var err error
		id, err = s.createGame(ctx, tx, strings.ToLower(host), "", g, addrs, opts, now)
		tx.SetOutcome(string(Created), id)
		return err
	})
	return id, err
}
