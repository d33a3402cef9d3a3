package mail

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
)

// newGame starts a game from a mail: "new GAME players A B [C D] [seed S]
// [opt k=v]...". Every player gets a welcome mail with their key; the host
// gets a confirmation with the host key.
// notAllowed is why a new game is refused to an address not among the
// service's hosts.
const notAllowed = "your address may not start games on this herald"

// notAllowedFR is notAllowed in French.
const notAllowedFR = "votre adresse ne peut pas lancer de parties sur ce herald"

func (s *Service) newGame(ctx context.Context, ses *host.Session, msg *Message, env *notation.Envelope, c notation.Command, now time.Time) (Outcome, int64, string, error) {
	// fail refuses the game for why, in French whyFR where there is one.
	fail := func(why string, whyFR ...string) (Outcome, int64, string, error) {
		reason := why
		if env.Lang == notation.French && len(whyFR) > 0 && whyFR[0] != "" {
			reason = whyFR[0]
		}
		body := "herald could not start the game:\n\n  " + why + "\n\nWrite, on a line of its own:\n\n  new GAME players ADDRESS ADDRESS [ADDRESS ADDRESS] [opt NAME=VALUE]\n      (bot:2 in place of an address: a seat the bot plays)\n      [deadline 72h] [grace 24h] [policy wait|forfeit]\n\nfor example: new raubritter players alice@example.org bob@example.org\n\nGames:\n" + s.gamesList()
		subject := "[herald] new game refused"
		if env.Lang == notation.French {
			body = "herald n'a pas pu lancer la partie :\n\n  " + reason + "\n\nÉcrivez, seule sur sa ligne :\n\n  nouvelle JEU joueurs ADRESSE ADRESSE [ADRESSE ADRESSE]\n      [opt NOM=VALEUR]\n      (bot:2 à la place d'une adresse : une place que joue le bot)\n      [délai 72h] [grace 24h] [politique wait|forfeit]\n\npar exemple :\n  nouvelle raubritter joueurs alice@example.org bob@example.org\n\nJeux :\n" + s.gamesListIn(notation.French)
			subject = "[herald] nouvelle partie refusée"
		}
		if why == notAllowed {
			// How to write a new line is no use to an address that may
			// not start games.
			body = "herald could not start the game:\n\n  " + why + "\n"
			if env.Lang == notation.French {
				body = "herald n'a pas pu lancer la partie :\n\n  " + reason + "\n"
			}
		}
		return Rejected, 0, why, s.reply(ctx, ses.Tx(), outMail{To: msg.From, Subject: subject, InReplyTo: msg.MessageID, References: refs(msg.MessageID, 0, s.domain), Body: body, lang: env.Lang}, 0, now, host.UnkeyedAnswer)
	}
	if len(s.cfg.Hosts) > 0 && !slices.Contains(s.cfg.Hosts, msg.From) {
		return fail(notAllowed, notAllowedFR)
	}
	// One game a mail: which of two new lines would be meant, and what of
	// the other if the first were refused, is not clear.
	var lines []string
	for _, o := range env.Commands {
		if o.Name == "new" {
			lines = append(lines, strconv.Itoa(o.Pos.Line))
		}
	}
	if len(lines) > 1 {
		return fail(fmt.Sprintf("this mail starts %d games (new on lines %s); herald starts one game a mail: send one mail for each, and none was started", len(lines), strings.Join(lines, ", ")),
			fmt.Sprintf("ce courrier lance %d parties (nouvelle aux lignes %s) ; herald lance une partie par courrier : envoyez un courrier pour chacune ; aucune n'a été lancée", len(lines), strings.Join(lines, ", ")))
	}
	if len(s.cfg.Hosts) == 0 {
		if why, whyFR, err := s.strangerLimit(ctx, ses.Tx(), msg.From, now); err != nil || why != "" {
			if err != nil {
				return "", 0, "", err
			}
			return fail(why, whyFR)
		}
	}
	if len(c.Args) == 0 {
		return fail("name the game", "nommez le jeu")
	}
	g, err := s.cfg.Registry.Lookup(c.Args[0])
	if err != nil {
		return fail(err.Error(), localized(err, notation.French))
	}
	var addrs []string
	opts := map[string]string{}
	var timing host.Timing
	mode := ""
	args := c.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (mode == "deadline" || mode == "delai" || mode == "grace") && i+1 < len(args) {
			// A span in two words: "deadline 2 jours", "grace 36 hours".
			if _, err := host.ParseSpan(a); err != nil {
				if _, err := host.ParseSpan(a + " " + args[i+1]); err == nil {
					a, i = a+" "+args[i+1], i+1
				}
			}
		}
		switch f := notation.Fold(a); {
		case f == "players" || f == "joueurs":
			mode = "players"
		case f == "opt" || f == "option":
			mode = "opt"
		case f == "deadline" || f == "delai" || f == "grace" || f == "policy" || f == "politique":
			mode = f
		case mode == "deadline" || mode == "delai" || mode == "grace":
			d, err := host.ParseSpan(a)
			if err != nil {
				return fail(err.Error())
			}
			if mode == "grace" {
				timing.Grace = d
			} else {
				timing.Deadline = d
			}
			mode = ""
		case mode == "policy" || mode == "politique":
			timing.Policy, mode = f, ""
		case mode == "players" && strings.HasPrefix(f, "bot:"):
			addrs = append(addrs, f) // a seat the bot plays: host.Create reads its level
		case mode == "players":
			addr, err := host.ParseAddress(a)
			if err != nil {
				return fail(err.Error())
			}
			if s.own(addr) {
				return fail(fmt.Sprintf("%s is herald's own address: herald plays no seat (bot:2 is a seat the bot plays)", addr),
					fmt.Sprintf("%s est l'adresse de herald lui-même : herald ne joue aucune place (bot:2 est une place que joue le bot)", addr))
			}
			addrs = append(addrs, addr)
		case mode == "opt":
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				return fail(fmt.Sprintf("option %q: expected name=value", a), fmt.Sprintf("option « %s » : attendu nom=valeur", a))
			}
			opts[k] = v
		default:
			return fail(fmt.Sprintf("unexpected %q: write players before the addresses, deadline before a span of time like 72h", a),
				fmt.Sprintf("« %s » inattendu : écrivez joueurs avant les adresses, délai avant une durée comme 72h", a))
		}
	}
	if len(s.cfg.Hosts) == 0 {
		if why, whyFR, err := s.namedLimit(ctx, ses.Tx(), msg.From, addrs, now); err != nil || why != "" {
			if err != nil {
				return "", 0, "", err
			}
			return fail(why, whyFR)
		}
	}
	id, err := s.createGame(ctx, ses, msg.From, msg.MessageID, host.CreateRequest{Host: msg.From, Game: g.Name, Players: addrs, Options: opts, Timing: timing, Lang: env.Lang})
	var refused *RefusedError
	if errors.As(err, &refused) {
		return fail(refused.Reason, refused.Localize(notation.French))
	}
	if err != nil {
		return "", 0, "", err
	}
	return Created, id, "new " + g.Name, nil
}

// GameLimits are the limits on starting games by mail of
// Config.StrangerGames.
type GameLimits struct {
	PerAddress int // games one address may start in an hour
	PerHour    int // games all addresses together may start in an hour
	// PerNamed is how many games started by others may name one address
	// in a day: each welcomes it, and forgers who each stay within
	// PerAddress could otherwise have herald mail one address again and
	// again. Its own games are not counted.
	PerNamed int
}

// namedLimit says why a game from `from` naming addrs may not start now,
// on a herald where anyone may start games: one of the addresses it
// names has had its welcomes of the day from games others started
// (GameLimits.PerNamed), in English and French. "" when it may.
func (s *Service) namedLimit(ctx context.Context, tx host.Tx, from string, addrs []string, now time.Time) (why, whyFR string, err error) {
	for _, a := range addrs {
		if strings.HasPrefix(a, "bot:") || strings.EqualFold(a, from) {
			continue
		}
		n, err := tx.GamesNamingSince(ctx, a, now.Add(-24*time.Hour))
		if err != nil {
			return "", "", err
		}
		if n >= s.cfg.StrangerGames.PerNamed {
			s.log.Warn("an address named in games others started at its limit for the day; refusing a new game", "from", from, "named", a, "limit", s.cfg.StrangerGames.PerNamed)
			return fmt.Sprintf("%s has been named in %d games others started in the last day, the most this herald allows when anyone may start games: it gets no more welcomes today. It may start a game itself, naming you.", a, n),
				fmt.Sprintf("%s a été nommée dans %d parties lancées par d'autres depuis un jour, le plus que ce herald permet quand tout le monde peut lancer des parties : elle ne reçoit plus de bienvenue aujourd'hui. Elle peut lancer une partie elle-même, en vous nommant.", a, n), nil
		}
	}
	return "", "", nil
}

// strangerLimit says why from may not start a game now, on a herald where
// anyone may start games: it has started its games of the hour, or all
// addresses together have (a From is easily forged, and each game has
// herald welcome the addresses it names), in English and French. ""
// when it may.
func (s *Service) strangerLimit(ctx context.Context, tx host.Tx, from string, now time.Time) (why, whyFR string, err error) {
	since := now.Add(-time.Hour)
	mine, err := tx.GamesStartedSince(ctx, from, since)
	if err != nil {
		return "", "", err
	}
	if mine >= s.cfg.StrangerGames.PerAddress {
		return fmt.Sprintf("your address has started %d games in the last hour, the most\n  this herald allows an address that it does not list as a host;\n  write again in an hour", mine),
			fmt.Sprintf("votre adresse a lancé %d parties depuis une heure, le plus que\n  ce herald permet à une adresse qu'il ne compte pas parmi ses hôtes ;\n  écrivez à nouveau dans une heure", mine), nil
	}
	all, err := tx.GamesStartedSince(ctx, "", since)
	if err != nil {
		return "", "", err
	}
	if all >= s.cfg.StrangerGames.PerHour {
		s.log.Warn("games started by mail in the last hour at the limit; refusing a new one", "from", from, "limit", s.cfg.StrangerGames.PerHour)
		return fmt.Sprintf("%d games were started on this herald in the last hour, the most it\n  allows when anyone may start games; write again in an hour, or ask\n  herald's keeper to list you as a host (serve --hosts)", all),
			fmt.Sprintf("%d parties ont été lancées sur ce herald depuis une heure, le plus\n  qu'il permet quand tout le monde peut lancer des parties ; écrivez à\n  nouveau dans une heure, ou demandez à qui tient ce herald de vous\n  compter parmi ses hôtes (serve --hosts)", all), nil
	}
	return "", "", nil
}

func (s *Service) gamesList() string { return s.gamesListIn(notation.English) }

// gamesListIn lists the games herald hosts, in lang.
func (s *Service) gamesListIn(lang notation.Lang) string {
	var b strings.Builder
	for _, g := range s.cfg.Registry.Games() {
		if lang == notation.French {
			fmt.Fprintf(&b, "  %-12s %d-%d joueurs  %s\n", g.Name, g.MinPlayers, g.MaxPlayers, cmp.Or(g.TitleFR, g.Title))
			continue
		}
		fmt.Fprintf(&b, "  %-12s %d-%d players  %s\n", g.Name, g.MinPlayers, g.MaxPlayers, g.Title)
	}
	return b.String()
}

// RefusedError is a game that cannot be created (unknown game, bad player
// count, bad option), with the reason for the host.
type RefusedError = host.RefusedError

// createGame creates a game through the host and queues its notices (the
// host's confirmation, every player's welcome with their key), after
// opening a mailbox for each recipient when the setup has a hook for it
// (the embedded servers).
func (s *Service) createGame(ctx context.Context, ses *host.Session, from, inReplyTo string, req host.CreateRequest) (int64, error) {
	id, notices, err := ses.Create(ctx, req)
	if err != nil {
		return 0, err
	}
	if s.cfg.OnNewPlayer != nil {
		seen := map[string]bool{s.cfg.Address: true}
		for _, n := range notices {
			if !seen[n.To] {
				seen[n.To] = true
				if err := s.cfg.OnNewPlayer(n.To); err != nil {
					return 0, err
				}
			}
		}
	}
	return id, s.deliver(ctx, ses.Tx(), from, inReplyTo, notices, ses.Now())
}

// CreateGame starts a game from the command line (herald new --mail), as
// if host had mailed "new": it is stored and the welcome mails are queued
// for the next `herald serve`.
func (s *Service) CreateGame(ctx context.Context, hostAddr, game string, addrs []string, opts map[string]string, timing host.Timing) (int64, error) {
	now := s.cfg.Now().UTC()
	hostAddr = strings.ToLower(hostAddr)
	var id int64
	in := host.Intake{MessageID: "cli:" + newMessageID(s.domain), BodyHash: "cli", Sender: hostAddr, Received: now}
	err := s.host.Do(ctx, in, func(ses *host.Session) error {
		var err error
		id, err = s.createGame(ctx, ses, hostAddr, "", host.CreateRequest{Host: hostAddr, Game: game, Players: addrs, Options: opts, Timing: timing})
		ses.Tx().SetOutcome(string(Created), id)
		return err
	})
	return id, err
}

// deliver renders notices as mails and queues them: each is threaded
// under the game's root, and under the mail it answers (inReplyTo, from
// sender) when it is an answer or the sender's own news; answers count
// against the sender's replies an hour, except the host's confirmation of
// a new game (the only mail with the host key; starting games is itself
// limited by Config.Hosts).
func (s *Service) deliver(ctx context.Context, tx host.Tx, sender, inReplyTo string, notices []host.Notice, now time.Time) error {
	return s.deliverAs(ctx, tx, sender, inReplyTo, notices, now, host.KeyedAnswer)
}

// deliverAs is deliver with the answers counted as kind: UnkeyedAnswer
// for the answers to a mail that carried no key or token.
func (s *Service) deliverAs(ctx context.Context, tx host.Tx, sender, inReplyTo string, notices []host.Notice, now time.Time, kind host.AnswerKind) error {
	var pic, pic2 *picture.Board // the last two pictures encoded, as picJSON and pic2JSON
	var picJSON, pic2JSON []byte
	for _, n := range notices {
		m := outMail{To: n.To, Subject: s.subject(n.Game, n.GameName, host.TopicText(n.Topic, n.Lang), n.Lang), ReplyTo: s.replyTo(n.Game, n.ReplyToken),
			lang: n.Lang}
		status := statusLine(n)
		// body is the mail's text around the notice's, written at once
		// or apart (Notice.Write) with the draft; page says whether it
		// shows a board.
		body := func(text string, page bool) string {
			b := status + text
			if page && n.Page != "" && !strings.Contains(text, n.Page) {
				// Every mail with the board gives the game's page (issue 28).
				if n.Lang == notation.French {
					b += "\nLa page de la partie, avec sa relecture : " + n.Page + "?lang=fr\n"
				} else {
					b += "\nThe game's page, with its replay: " + n.Page + "\n"
				}
			}
			return b
		}
		thread := ""
		if n.Answer || n.InReplyTo && n.To == sender {
			thread = inReplyTo
		}
		m.InReplyTo, m.References = thread, refs(thread, n.Game, s.domain)
		if n.Record {
			m.Attachment, m.RecordOf = &Attachment{Name: host.RecordName(n.Game, n.GameName)}, n.Game
		}
		apart := n.Write != nil && !n.Answer
		if n.Drawing != nil && !apart {
			n.Picture, n.Drawing = n.Drawing.Board(), nil // not written apart after all: drawn now
		}
		pictures := !s.cfg.NoPictures && !s.cfg.PlainOnly
		if pictures && n.Picture != nil {
			switch n.Picture {
			case pic: // the notices of a move share one board in each language
			case pic2:
				pic, pic2, picJSON, pic2JSON = pic2, pic, pic2JSON, picJSON
			default:
				pic2, pic2JSON = pic, picJSON
				pic, picJSON = n.Picture, n.Picture.JSON()
				if !inBurst(ctx) {
					s.prewarm(pic, picJSON)
				}
			}
			// Stored once for the move's mails, not in each draft.
			m.PictureShared, m.pictureJSON = true, picJSON
		}
		shows := n.Picture != nil
		var err error
		switch {
		case apart:
			// The news of a move written apart: its text, its board and
			// its draft are written on another processor while the next
			// mails go on.
			err = s.enqueueApart(ctx, tx, m, n.Game, func(m *outMail) {
				shown := shows
				if d := n.Drawing; d != nil && d.Board() != nil {
					shown = true
					if pictures {
						// Stored once for the move's mails, as above.
						m.PictureShared, m.pictureJSON = true, d.JSON()
					}
				}
				m.Body = body(n.Write(), shown)
			})
		case n.Answer && n.Kind == host.Started:
			m.Body = body(n.Body(), shows)
			err = s.enqueue(ctx, tx, m, n.Game, true)
		case n.Answer:
			m.Body = body(n.Body(), shows)
			err = s.reply(ctx, tx, m, n.Game, now, kind)
		default:
			m.Body = body(n.Body(), shows)
			err = s.queue(ctx, tx, m, n.Game)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// statusLine is the first line of every mail about a game, for programs:
//
//	:: game G12 move 14 to-move alice,bob deadline 2026-12-01T18:00Z
//	:: game G12 move 31 over
//
// Fields are space-separated words after "::": game and its tag, move and
// the number of the next move, then to-move with the players who must act
// (comma-separated), may-replace with those whose sealed step is in (they
// may replace it) and deadline with when the move is due (RFC 3339, UTC,
// to the minute) when there is one, or the word over once the game is.
func statusLine(n host.Notice) string {
	if n.Status == nil || n.Game == 0 {
		return ""
	}
	st := n.Status
	line := fmt.Sprintf(":: game %s move %d", gameTag(n.Game), st.Move)
	switch {
	case st.Over:
		line += " over"
	default:
		if len(st.ToMove) > 0 {
			line += " to-move " + strings.Join(st.ToMove, ",")
		}
		if len(st.MayReplace) > 0 {
			line += " may-replace " + strings.Join(st.MayReplace, ",")
		}
		if !st.Deadline.IsZero() {
			line += " deadline " + st.Deadline.UTC().Format("2006-01-02T15:04Z")
		}
	}
	return line + "\n\n"
}

// Tick runs the host's time-driven work due now (reminders, late notices,
// the policy after the grace) and queues its notices, each with the
// request that caused it. It returns how many requests did work.
func (s *Service) Tick(ctx context.Context) (int, error) {
	return s.host.Tick(ctx, s.cfg.Now().UTC(), func(ses *host.Session, notices []host.Notice) error {
		return s.deliver(ctx, ses.Tx(), "", "", notices, ses.Now())
	})
}

// localized is err in lang where it speaks it (adjudicator.Localizer),
// else "".
func localized(err error, lang notation.Lang) string {
	var l adjudicator.Localizer
	if errors.As(err, &l) {
		return l.Localize(lang)
	}
	return ""
}
