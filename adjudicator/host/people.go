package host

import (
	"cmp"
	"context"
	"crypto/subtle"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// replace hands a seat to a new address, with a new key: only the host
// may, and a host who plays hands another player's seat only to the bot.
// The newcomer gets a welcome with the seat's private view, the old
// address a notice that its key no longer works, everyone else the news.
// args are "SEAT by ADDRESS" (French "par"); SEAT is a player's name or
// address.
func (s *Session) replace(ctx context.Context, g *Game, m *adjudicator.Match, req Request, args []string) (Reply, error) {
	fr := req.Env.Lang == notation.French
	usage := pick(fr, "Write, on a line of its own: replace PLAYER by NEW-ADDRESS\nfor example: replace bob by dave@example.org\nor, for the bot to play the seat: replace bob by bot:2\n",
		"Écrivez, seule sur sa ligne : remplace JOUEUR par NOUVELLE-ADRESSE\npar exemple : remplace bob par dave@example.org\nou, pour que le bot joue cette place : remplace bob par bot:2\n")
	if req.From != g.Host {
		return s.answer(g, m, req, Refusal, "replace refused", pick(fr, "Only the host of the game may hand a seat to someone else.\n",
			"Seul l'hôte de la partie peut céder une place à quelqu'un d'autre.\n"), "replace by a player"), nil
	}
	var words []string
	for _, a := range args {
		if f := notation.Fold(a); f != "by" && f != "par" && f != "with" && f != "avec" {
			words = append(words, a)
		}
	}
	if len(words) != 2 {
		return s.answer(g, m, req, Refusal, "replace refused", pick(fr, "herald did not understand your replace line.\n\n", "herald n'a pas compris votre ligne remplace.\n\n")+usage, "bad replace"), nil
	}
	who := words[0]
	addr, toBot, aerr := botSeat(words[1]) // bot:LEVEL: the bot plays the seat (RULINGS.md H-6)
	if !toBot && aerr == nil {
		addr, aerr = ParseAddress(words[1])
	}
	seat := slices.IndexFunc(g.Players, func(p Player) bool {
		return notation.Fold(p.Name) == notation.Fold(who) || p.Address == strings.ToLower(who)
	})
	switch {
	case seat < 0:
		names := make([]string, len(g.Players))
		for i, p := range g.Players {
			names[i] = p.Name
		}
		return s.answer(g, m, req, Refusal, "replace refused", fmt.Sprintf(pick(fr, "%q plays no seat of game %s (players: %s).\n\n%s", "« %s » n'a pas de place dans la partie %s (joueurs : %s).\n\n%s"), who, Tag(g.ID), strings.Join(names, ", "), usage), "bad replace"), nil
	case aerr != nil:
		return s.answer(g, m, req, Refusal, "replace refused", aerr.Error()+".\n\n"+usage, "bad replace"), nil
	case !toBot && s.h.own(addr):
		return s.answer(g, m, req, Refusal, "replace refused", fmt.Sprintf(pick(fr, "%s is herald's own address:\nherald plays no seat (bot:2 is a seat the bot plays).\n\n%s",
			"%s est l'adresse de herald lui-même :\nherald ne joue aucune place (bot:2 est une place que joue le bot).\n\n%s"), addr, usage), "replace by herald"), nil
	case !toBot && slices.ContainsFunc(g.Players, func(p Player) bool { return p.Address == addr && p.Name != g.Players[seat].Name }):
		return s.answer(g, m, req, Refusal, "replace refused", fmt.Sprintf(pick(fr, "%s plays in game %s already.\n", "%s joue déjà dans la partie %s.\n"), addr, Tag(g.ID)), "bad replace"), nil
	case !toBot && seatOf(g, req.From) != "" && g.Players[seat].Address != req.From:
		// The welcome shows the seat's hand: a host who plays could hand
		// an opponent's seat to an address of their own and read it.
		return s.answer(g, m, req, Refusal, "replace refused", fmt.Sprintf(pick(fr,
			"You play in game %s, so you may hand your own seat to someone else, but\nanother player's seat only to the bot (replace %s by bot:2): the\nnewcomer's welcome shows that seat's hand, which you must not see.\n",
			"Vous jouez dans la partie %s : vous pouvez céder votre propre place,\nmais celle d'un autre joueur seulement au bot (remplace %s par bot:2) :\nle message d'accueil du nouveau venu montre la main de cette place, que\nvous ne devez pas voir.\n"), Tag(g.ID), g.Players[seat].Name), "replace by a host who plays"), nil
	case toBot && g.Players[seat].Address == addr:
		return s.answer(g, m, req, Refusal, "replace refused", fmt.Sprintf(pick(fr, "%s already plays the seat of %s in game %s.\n", "%s joue déjà la place de %s dans la partie %s.\n"), addr, g.Players[seat].Name, Tag(g.ID)), "bad replace"), nil
	}
	game, err := s.h.cfg.Registry.Lookup(g.Record.Game)
	if err != nil {
		return Reply{}, err
	}
	old := g.Players[seat]
	p := Player{Name: old.Name, Address: addr, Secret: s.h.cfg.NewKey(), Token: s.h.newToken()}
	if err := s.tx.ReplacePlayer(ctx, g.ID, seat, p.Address, p.Secret, p.Token); err != nil {
		return Reply{}, err
	}
	g.Players = slices.Clone(g.Players)
	g.Players[seat] = p
	// The newcomer gets a whole deadline for a move they are asked for.
	if g.Clock != nil && slices.Contains(strings.Split(g.Clock.ToMove, ","), p.Name) {
		c := *g.Clock
		c.Since, c.Stage = s.now, 0
		c.plan()
		if err := s.tx.SetClock(ctx, g.ID, c); err != nil {
			return Reply{}, err
		}
		g.Clock = &c
	}
	s.games.stage(g.ID, g.Rev, m)
	if p.IsBot() || old.IsBot() {
		return s.replaceBot(ctx, g, m, req, old, p)
	}
	intro := fmt.Sprintf("The host has handed you the seat of %s, played until now from\nanother address. You play it from here on, as %s.\n\n", p.Name, p.Name)
	if old.Address == p.Address {
		intro = "The host has given your seat a new key: the old one, and the reply\naddress of herald's earlier mails, no longer work.\n\n"
	}
	// The newcomer's welcome is in the language of the player before them
	// when the seat keeps its address (a new key), else of the host's mail.
	// Someone new chose no language yet.
	// Nor does herald know the language of their mails (Player.MailLang).
	lang := req.Env.Lang
	if old.Address == p.Address {
		if old.MailLang != "" {
			lang = storedLang(old.MailLang)
		}
		lang, p.Lang, p.MailLang = playerLang(old, lang), old.Lang, old.MailLang
	}
	if err := s.tx.SetLang(ctx, g.ID, seat, p.Lang); err != nil {
		return Reply{}, err
	}
	if p.MailLang != old.MailLang {
		if err := s.tx.SetMailLang(ctx, g.ID, seat, p.MailLang); err != nil {
			return Reply{}, err
		}
	}
	g.Players[seat].Lang, g.Players[seat].MailLang = p.Lang, p.MailLang
	if lang == notation.French {
		intro = fmt.Sprintf("L'hôte vous a cédé la place de %s, jouée jusqu'ici depuis une autre\nadresse. C'est vous qui la jouez désormais, sous le nom %s.\n\n", p.Name, p.Name)
		if old.Address == p.Address {
			intro = "L'hôte a donné une nouvelle clé à votre place : l'ancienne, et l'adresse\nde réponse des courriers précédents de herald, ne marchent plus.\n\n"
		}
	}
	notices := []Notice{s.welcomeIn(g, m, game, p, intro, lang)}
	if old.Address != p.Address {
		text := fmt.Sprintf("The host of game %s has handed your seat (%s) to another player.\nYour key no longer works for this game. Thank you for playing.\n", Tag(g.ID), old.Name)
		oldLang := noticeLang(old)
		if oldLang == notation.French {
			text = fmt.Sprintf("L'hôte de la partie %s a cédé votre place (%s) à un autre joueur.\nVotre clé ne marche plus pour cette partie. Merci d'avoir joué.\n", Tag(g.ID), old.Name)
		}
		n := s.notice(g, m, old.Address, "", EndedBy, "seat handed over", text)
		n.Lang = oldLang
		notices = append(notices, n)
	}
	for _, o := range s.everyone(g) {
		if o.Address == p.Address {
			continue
		}
		olang := noticeLang(o)
		if o.Address == req.From {
			olang = req.Env.Lang
		}
		var news string
		switch {
		case olang == notation.French && old.Address == p.Address:
			news = fmt.Sprintf("L'hôte de la partie %s a donné une nouvelle clé à %s.\n", Tag(g.ID), p.Name)
		case olang == notation.French:
			news = fmt.Sprintf("L'hôte de la partie %s a cédé la place de %s à %s.\n", Tag(g.ID), p.Name, p.Address)
		case old.Address == p.Address:
			news = fmt.Sprintf("The host of game %s has given %s a new key.\n", Tag(g.ID), p.Name)
		default:
			news = fmt.Sprintf("The host of game %s has handed the seat of %s to %s.\n", Tag(g.ID), p.Name, p.Address)
		}
		n := s.notice(g, m, o.Address, o.Name, News, "seat handed over", news)
		n.Answer, n.Lang = o.Address == req.From, olang
		notices = append(notices, n)
	}
	return Reply{Outcome: Answered, Game: g.ID, Reason: fmt.Sprintf("%s replaced by %s", old.Address, p.Address), Notices: notices}, nil
}

// How long a confirmation of observing stays good, and how often herald
// mails one to an address for a game: a forged request mails its victim
// once a day at most.
const (
	observeConfirmValid = 7 * 24 * time.Hour
	observeConfirmEvery = 24 * time.Hour
)

// Observe subscribes address to the public view of game id (on), or ends
// its subscription: no key is needed, since an observer sees only what
// everyone may. But herald mails no one who did not agree (issue 25, item
// 14): a request to observe is answered with a confirmation mail carrying
// a token, and the address is subscribed only once it writes back
// "observe G12 TOKEN" (ConfirmObserve); a player or the host may invite
// someone the same way (Handle, "observe ADDRESS": invite). The host may
// forbid observers (set observers off). A player of the game cannot
// observe it.
func (s *Session) Observe(ctx context.Context, id int64, address string, on bool) (Reply, error) {
	return s.observe(ctx, id, address, on, "", "", false, s.lang)
}

// ConfirmUnobserve ends the subscription of address to game id when the
// request is proven to be the address's: proven (its sender was
// authenticated: DMARC, DKIM), or token the one the confirmation mail of
// an earlier request gave. Otherwise a forged From could end anyone's
// subscription: an observer asks, and herald mails the address a
// confirmation to write back, "unobserve G12 TOKEN" (one a day at most,
// as for observe), and it still observes meanwhile.
func (s *Session) ConfirmUnobserve(ctx context.Context, id int64, address, token string, proven bool) (Reply, error) {
	if proven {
		return s.Observe(ctx, id, address, false)
	}
	return s.observe(ctx, id, address, false, token, "", true, s.lang)
}

// ConfirmObserve subscribes address to game id if token is the one the
// confirmation mail of its request gave.
func (s *Session) ConfirmObserve(ctx context.Context, id int64, address, token string) (Reply, error) {
	if token == "" {
		return s.Observe(ctx, id, address, true)
	}
	return s.observe(ctx, id, address, true, token, "", false, s.lang)
}

// observe is Observe, ConfirmObserve and ConfirmUnobserve (confirm: an
// unobserve not proven, to be confirmed by token), and "observe ADDRESS"
// by a player or the host of the game (by, authenticated), which invites
// the address (invite) and ends an observation at once. The asker is
// answered in lang, the language of their mail; an observer is mailed the
// moves in the language of the mail that confirmed.
func (s *Session) observe(ctx context.Context, id int64, address string, on bool, token, by string, confirm bool, lang notation.Lang) (Reply, error) {
	fr := lang == notation.French
	address, err := ParseAddress(address)
	if err != nil { // no mail can reach it: nothing to answer
		return Reply{Outcome: Rejected, Reason: err.Error()}, nil
	}
	g, err := s.tx.GameInfo(ctx, id)
	if err != nil {
		return Reply{}, err
	}
	asker := address
	if by != "" {
		asker = by
	}
	req := Request{From: asker, Env: &notation.Envelope{Lang: lang}}
	if g == nil {
		return Reply{Outcome: Rejected, Reason: "no such game", Notices: []Notice{{To: asker, Kind: Refusal, Topic: "no such game", Answer: true, Lang: lang,
			Text: fmt.Sprintf(pick(fr, "There is no game %s to observe.\n", "Il n'y a pas de partie %s à observer.\n"), Tag(id))}}}, nil
	}
	if g.Status != Playing {
		if g.Record, err = s.tx.Record(ctx, id); err != nil {
			return Reply{}, err
		}
		if fr {
			return s.answer(g, nil, req, Refusal, "game over", fmt.Sprintf("La partie %s est finie (%s) : il n'y a plus rien à observer.\n", Tag(id), overTextFR(g)), "game over"), nil
		}
		return s.answer(g, nil, req, Refusal, "game over", fmt.Sprintf("Game %s is over (%s): there is nothing left to observe.\n", Tag(id), g.Status), "game over"), nil
	}
	m, err := s.match(ctx, g)
	if err != nil {
		return Reply{}, err
	}
	s.games.stage(g.ID, g.Rev, m)
	you := "You"
	if by != "" && by != address {
		you = address
	}
	switch {
	case s.h.own(address) && you == "You": // herald's own mail is never answered: nothing to say
		return Reply{Outcome: Rejected, Game: id, Reason: "herald's own address"}, nil
	case s.h.own(address):
		// herald observes nothing: its mails to itself would come back as
		// its own, never read (as it plays no seat).
		return s.answer(g, m, req, Refusal, "observe refused", fmt.Sprintf(pick(fr, "%s is herald's own address:\nherald observes no game, and its mail to itself would never be read.\n",
			"%s est l'adresse de herald lui-même :\nherald n'observe aucune partie, et ses courriers à lui-même ne seraient\njamais lus.\n"), address), "observe by herald"), nil
	case seatOf(g, address) != "" && you == "You":
		return s.answer(g, m, req, Refusal, "observe refused", fmt.Sprintf(pick(fr, "You play in game %s: herald mails you every move already.\n",
			"Vous jouez dans la partie %s : herald vous envoie déjà chaque coup.\n"), Tag(id)), "a player observes"), nil
	case seatOf(g, address) != "":
		return s.answer(g, m, req, Refusal, "observe refused", fmt.Sprintf(pick(fr, "%s plays in game %s: herald mails them every move already.\n",
			"%s joue dans la partie %s : herald lui envoie déjà chaque coup.\n"), address, Tag(id)), "a player observes"), nil
	case on && g.ObserversOff:
		return s.answer(g, m, req, Refusal, "observe refused", fmt.Sprintf(pick(fr, "The host of game %s allows no observers.\n",
			"L'hôte de la partie %s n'accepte pas d'observateurs.\n"), Tag(id)), "observers off"), nil
	}
	observers, err := s.tx.Observers(ctx, id)
	if err != nil {
		return Reply{}, err
	}
	// A stranger's request to observe, and one to stop observing whose
	// sender is not proven (confirm), wait for the confirmation mailed to
	// the address.
	if by == "" && (on && !slices.Contains(observers, address) || confirm && !on && slices.Contains(observers, address)) {
		if rep, err := s.confirmed(ctx, g, m, req, address, token, on); rep != nil || err != nil {
			if err != nil {
				return Reply{}, err
			}
			return *rep, nil
		}
	}
	// Someone else's address is invited, never subscribed at once: a
	// player, or the starter of a game, could otherwise have herald mail
	// every move to anyone.
	if by != "" && by != address && on && !slices.Contains(observers, address) {
		return s.invite(ctx, g, m, req, address)
	}
	changed, err := s.tx.Observe(ctx, id, address, on)
	if err != nil {
		return Reply{}, err
	}
	if on && you == "You" {
		// Their language, for the moves herald mails them: stored when it
		// changes.
		was := ""
		if !changed {
			langs, err := s.tx.ObserverLangs(ctx, id)
			if err != nil {
				return Reply{}, err
			}
			was = langs[address]
		}
		if was != langValue(lang) {
			if err := s.tx.SetObserverLang(ctx, id, address, langValue(lang)); err != nil {
				return Reply{}, err
			}
		}
	}
	var text string
	switch {
	case fr && on && changed:
		text = fmt.Sprintf("Vous observez désormais la partie %s : herald vous enverra chaque coup\ntel que tous le voient, jamais la main d'un joueur. Pour arrêter,\nécrivez : quitter %s\n\n%s", Tag(id), Tag(id), s.stateTextIn(g, m, "", m.State.Text(""), lang))
	case fr && on && you == "You":
		text = fmt.Sprintf("Vous observez déjà la partie %s. Pour arrêter, écrivez : quitter %s\n", Tag(id), Tag(id))
	case fr && on:
		text = fmt.Sprintf("%s observe déjà la partie %s. Pour arrêter, écrivez : quitter %s\n", you, Tag(id), Tag(id))
	case fr && changed && you == "You":
		text = fmt.Sprintf("Vous n'observez plus la partie %s.\n", Tag(id))
	case fr && changed:
		text = fmt.Sprintf("%s n'observe plus la partie %s.\n", you, Tag(id))
	case fr && you == "You":
		text = fmt.Sprintf("Vous n'observiez pas la partie %s.\n", Tag(id))
	case fr:
		text = fmt.Sprintf("%s n'observait pas la partie %s.\n", you, Tag(id))
	case on && changed:
		text = fmt.Sprintf("You now observe game %s: herald will mail you every move as everyone\nsees it, never a player's hand. To stop, write: unobserve %s\n\n%s", Tag(id), Tag(id), s.stateText(g, m, "", m.State.Text("")))
	case on:
		text = fmt.Sprintf("%s observe%s game %s already. To stop, write: unobserve %s\n", you, map[bool]string{true: "", false: "s"}[you == "You"], Tag(id), Tag(id))
	case changed:
		text = fmt.Sprintf("%s no longer observe%s game %s.\n", you, map[bool]string{true: "", false: "s"}[you == "You"], Tag(id))
	default:
		text = fmt.Sprintf("%s did not observe game %s.\n", you, Tag(id))
	}
	rep := s.answer(g, m, req, Answer, map[bool]string{true: "observe", false: "unobserve"}[on], text, "observe")
	if on && changed && you == "You" {
		rep.Notices[0].Picture = s.pictureIn(g, m, rep.Notices[0].Lang) // the board shown, drawn as in every mail with it
	}
	return rep, nil
}

// confirmed takes the confirmation that address must give back to
// observe game g (on) or to stop observing it: both are kept in the one
// slot of its observe request, which an observer has no more use for.
// Without a token it asks for one (askToConfirm); a wrong token, or one
// more than observeConfirmValid old, is refused; the right one is spent
// and confirmed returns no reply: the request goes on.
func (s *Session) confirmed(ctx context.Context, g *Game, m *adjudicator.Match, req Request, address, token string, on bool) (*Reply, error) {
	hash, asked, err := s.tx.ObserveRequest(ctx, g.ID, address)
	if err != nil {
		return nil, err
	}
	if token == "" {
		rep, err := s.askToConfirm(ctx, g, m, req, hash, asked, on)
		return &rep, err
	}
	if hash == "" || s.now.Sub(asked) > observeConfirmValid || subtle.ConstantTimeCompare([]byte(HashKey(token)), []byte(hash)) != 1 {
		days := int(observeConfirmValid.Hours() / 24)
		var rep Reply
		fr := req.Env.Lang == notation.French
		switch {
		case on && fr:
			rep = s.answer(g, m, req, Refusal, "observe refused", fmt.Sprintf("Ce n'est pas la confirmation que herald vous a envoyée pour observer la\npartie %s, ou elle a plus de %d jours. Pour redemander, écrivez :\nobserver %s\n", Tag(g.ID), days, Tag(g.ID)), "bad observe confirmation")
		case on:
			rep = s.answer(g, m, req, Refusal, "observe refused", fmt.Sprintf("This is not the confirmation herald sent you to observe game %s, or it\nis more than %d days old. To ask again, write: observe %s\n", Tag(g.ID), days, Tag(g.ID)), "bad observe confirmation")
		case fr:
			rep = s.answer(g, m, req, Refusal, "unobserve refused", fmt.Sprintf("Ce n'est pas la confirmation que herald vous a envoyée pour ne plus\nobserver la partie %s, ou elle a plus de %d jours : vous l'observez\ntoujours. Pour redemander, écrivez : quitter %s\n", Tag(g.ID), days, Tag(g.ID)), "bad unobserve confirmation")
		default:
			rep = s.answer(g, m, req, Refusal, "unobserve refused", fmt.Sprintf("This is not the confirmation herald sent you to stop observing game %s,\nor it is more than %d days old: you still observe it. To ask again,\nwrite: unobserve %s\n", Tag(g.ID), days, Tag(g.ID)), "bad unobserve confirmation")
		}
		return &rep, nil
	}
	return nil, s.tx.SetObserveRequest(ctx, g.ID, address, "", time.Time{})
}

// askToConfirm answers a request to observe game g (on) from req.From,
// or to stop observing it from a sender not proven, with a confirmation
// mail carrying a new token, unless one went less than
// observeConfirmEvery ago (hash and asked are the request waiting, if
// any): then it sends nothing.
func (s *Session) askToConfirm(ctx context.Context, g *Game, m *adjudicator.Match, req Request, hash string, asked time.Time, on bool) (Reply, error) {
	verb := "observe"
	if !on {
		verb = "unobserve"
	}
	if hash != "" && s.now.Sub(asked) < observeConfirmEvery {
		return Reply{Outcome: Ignored, Game: g.ID, Reason: verb + ": a confirmation went less than a day ago"}, nil
	}
	token := s.h.newToken()
	if err := s.tx.SetObserveRequest(ctx, g.ID, req.From, HashKey(token), s.now); err != nil {
		return Reply{}, err
	}
	text := fmt.Sprintf("Someone, perhaps you, asked herald to mail this address every move of\ngame %s as everyone sees it. herald mails no one who did not agree:\nto observe the game, write back, on a line of its own:\n\n  observe %s %s\n\nIf you did not ask, ignore this mail: herald will not write to you\nabout it again.\n", Tag(g.ID), Tag(g.ID), token)
	if !on {
		text = fmt.Sprintf("Someone, perhaps you, asked herald to stop mailing this address the\nmoves of game %s. herald cannot tell that the mail came from you (its\nsender is not authenticated): to stop observing the game, write back,\non a line of its own:\n\n  unobserve %s %s\n\nIf you did not ask, ignore this mail: you still observe the game.\n", Tag(g.ID), Tag(g.ID), token)
	}
	if req.Env.Lang == notation.French {
		text = fmt.Sprintf("Quelqu'un, peut-être vous, a demandé à herald d'envoyer à cette adresse\nchaque coup de la partie %s tel que tous le voient. herald n'écrit à\npersonne qui n'a pas accepté : pour observer la partie, répondez, seule\nsur sa ligne :\n\n  observer %s %s\n\nSi vous n'avez rien demandé, ignorez ce courrier : herald ne vous en\nécrira plus.\n", Tag(g.ID), Tag(g.ID), token)
		if !on {
			text = fmt.Sprintf("Quelqu'un, peut-être vous, a demandé à herald de ne plus envoyer à\ncette adresse les coups de la partie %s. herald ne peut pas savoir si\nle courrier vient de vous (son expéditeur n'est pas authentifié) : pour\nne plus observer la partie, répondez, seule sur sa ligne :\n\n  quitter %s %s\n\nSi vous n'avez rien demandé, ignorez ce courrier : vous observez\ntoujours la partie.\n", Tag(g.ID), Tag(g.ID), token)
		}
	}
	return s.answer(g, m, req, Answer, "confirm "+verb, text, verb+": confirmation sent"), nil
}

// invitesPerDay is how many addresses may be waiting to confirm that they
// observe a game, asked in the last day (observeConfirmEvery): what a
// player can have herald mail to addresses that never wrote to it.
const invitesPerDay = 10

// invite asks address to observe game g for req.From, a player or the
// host of g: herald mails the address a confirmation saying who asked, as
// for its own request, and it observes once it writes the line back.
// One confirmation a day goes to an address, and invitesPerDay to all
// addresses for a game.
func (s *Session) invite(ctx context.Context, g *Game, m *adjudicator.Match, req Request, address string) (Reply, error) {
	fr := req.Env.Lang == notation.French
	hash, asked, err := s.tx.ObserveRequest(ctx, g.ID, address)
	if err != nil {
		return Reply{}, err
	}
	if hash != "" && s.now.Sub(asked) < observeConfirmEvery {
		return s.answer(g, m, req, Answer, "observe asked", fmt.Sprintf(pick(fr,
			"herald asked less than a day ago, and asks no more today, that\n%s\nconfirm: it observes game %s once it writes back the line it gave.\n",
			"herald a déjà demandé il y a moins d'un jour, et ne redemande pas, que\n%s\nconfirme : elle observe la partie %s dès qu'elle renvoie la ligne donnée.\n"), address, Tag(g.ID)), "observe: invitation already sent"), nil
	}
	n, err := s.tx.ObserveRequestsSince(ctx, g.ID, s.now.Add(-observeConfirmEvery))
	if err != nil {
		return Reply{}, err
	}
	if n >= invitesPerDay {
		return s.answer(g, m, req, Refusal, "observe refused", fmt.Sprintf(pick(fr,
			"%d addresses were asked in the last day to observe game %s and have not\nanswered yet: herald asks no more until they do, or until a day has\npassed. Anyone may still ask to observe from their own address:\nobserve %s\n",
			"%d adresses ont été invitées ce dernier jour à observer la partie %s\nsans avoir encore répondu : herald n'en invite pas d'autre avant leur\nréponse, ou avant un jour. Chacun peut encore le demander depuis sa\npropre adresse : observer %s\n"), n, Tag(g.ID), Tag(g.ID)), "observe: too many invitations"), nil
	}
	token := s.h.newToken()
	if err := s.tx.SetObserveRequest(ctx, g.ID, address, HashKey(token), s.now); err != nil {
		return Reply{}, err
	}
	who := pick(fr, "a player", "un joueur")
	if req.From == g.Host && seatOf(g, req.From) == "" {
		who = pick(fr, "the host", "l'hôte")
	}
	rep := s.answer(g, m, req, Answer, "observe asked", fmt.Sprintf(pick(fr,
		"herald mailed a confirmation to\n%s\nIt observes game %s once it writes back the line it gives, and hears\nnothing more if it does not.\n",
		"herald a envoyé une confirmation à\n%s\nElle observe la partie %s dès qu'elle renvoie la ligne donnée, et ne\nreçoit plus rien sinon.\n"), address, Tag(g.ID)), "observe: invitation sent")
	text := fmt.Sprintf(pick(fr,
		"%s,\n%s of game %s, asked herald to mail this address every move of\nthe game as everyone sees it. The game: %s.\nherald mails no one who did not agree: to observe the game, write\nback, on a line of its own:\n\n  observe %s %s\n\nIf you do not want to, ignore this mail: herald will not write to you\nabout it again.\n",
		"%s,\n%s de la partie %s, a demandé à herald d'envoyer à cette adresse\nchaque coup de la partie tel que tous le voient. La partie : %s.\nherald n'écrit à personne qui n'a pas accepté : pour observer la\npartie, répondez, seule sur sa ligne :\n\n  observer %s %s\n\nSi vous ne le souhaitez pas, ignorez ce courrier : herald ne vous en\nécrira plus.\n"),
		req.From, who, Tag(g.ID), pick(fr, m.Game.Title, cmp.Or(m.Game.TitleFR, m.Game.Title)), Tag(g.ID), token)
	n2 := s.notice(g, m, address, "", Answer, "confirm observe", text)
	n2.Lang = req.Env.Lang
	rep.Notices = append(rep.Notices, n2)
	return rep, nil
}

// observeFor is "observe" and "unobserve" in an authenticated mail of a
// player or the host of g: with an address among args, that address is
// invited (mailed a confirmation, invite) or unsubscribed at once, since
// someone of the game asked; without, the sender is subscribed.
func (s *Session) observeFor(ctx context.Context, g *Game, req Request, on bool, args []string) (Reply, error) {
	address := req.From
	for _, a := range args {
		if strings.Contains(a, "@") {
			parsed, err := ParseAddress(a)
			if err != nil {
				m, merr := s.match(ctx, g)
				if merr != nil {
					return Reply{}, merr
				}
				return s.answer(g, m, req, Refusal, "observe refused", fmt.Sprintf("%v. Write, on a line of its own:\n\n  observe %s ADDRESS\n", err, Tag(g.ID)), "bad observe address"), nil
			}
			address = parsed
		}
	}
	return s.observe(ctx, g.ID, address, on, "", req.From, false, req.Env.Lang)
}

// observers returns the observers of game id, and the language each
// observed in where it is not English (Tx.ObserverLangs: "fr").
func (s *Session) observers(ctx context.Context, id int64) ([]string, map[string]string, error) {
	obs, err := s.tx.Observers(ctx, id)
	if err != nil || len(obs) == 0 {
		return nil, nil, err
	}
	langs, err := s.tx.ObserverLangs(ctx, id)
	return obs, langs, err
}

// observerNews is the news of a move for the observers of g: the public
// form of every step and the public board, in each observer's language
// (the one they observed in).
func (s *Session) observerNews(ctx context.Context, g *Game, m *adjudicator.Match, sub *adjudicator.Submission, seal sealNews) ([]Notice, error) {
	obs, langs, err := s.observers(ctx, g.ID)
	if err != nil || len(obs) == 0 {
		return nil, err
	}
	finished := m.State.Result().Finished
	var texts [2]string // by language: English, French; each written once
	text := func(lang notation.Lang) string {
		fr, i := lang == notation.French, 0
		if fr {
			i = 1
		}
		if texts[i] != "" {
			return texts[i]
		}
		var b strings.Builder
		played := pick(fr, "%s played move %d:\n", "%s a joué le coup %d :\n")
		if n := sub.Number - 1; n >= 0 && n < len(m.Record.Moves) && ByPolicy(m.Record.Moves[n]) {
			played = pick(fr, "%s's step did not come in time: herald played move %d for them,\nby the host's policy:\n",
				"L'étape de %s n'est pas arrivée à temps : herald a joué le coup %d\npour ce joueur, selon le choix de l'hôte :\n")
		}
		fmt.Fprintf(&b, played, sub.Player, sub.Number)
		for j := range sub.Moves {
			fmt.Fprintf(&b, "  %s\n", m.StepText(sub, j, "", lang))
		}
		for _, a := range sub.Auto {
			fmt.Fprintf(&b, pick(fr, "\n%s played move %d:\n", "\n%s a joué le coup %d :\n"), botLabel(g, a, lang), a.Number)
			for j := range a.Moves {
				fmt.Fprintf(&b, "  %s%s\n", m.StepText(a, j, "", lang), botWhy(g, a, j, lang))
			}
		}
		b.WriteString(seal.reveal(lang))
		b.WriteString("\n")
		b.WriteString(s.stateTextIn(g, m, "", m.State.Text(""), lang))
		if finished {
			fmt.Fprintf(&b, pick(fr, "\nThe seed was:\n  %q\nIts sha256, announced at the start:\n  %s\nThe full record is attached; check every move with:\n  herald adjudicate %s\n",
				"\nLa graine était :\n  %q\nSon sha256, annoncé au début :\n  %s\nL'enregistrement complet est joint ; vérifiez chaque coup avec :\n  herald adjudicate %s\n"),
				g.Record.Seed, g.Record.SeedSHA256, RecordName(g.ID, g.Record.Game))
		}
		texts[i] = b.String()
		return texts[i]
	}
	pics := s.pictures(g, m)
	topic := "move " + fmt.Sprint(sub.Number)
	if finished {
		topic = "game over"
	}
	var out []Notice
	for _, a := range obs {
		lang := storedLang(langs[a])
		n := s.notice(g, m, a, "", News, topic, text(lang))
		n.Record, n.Picture, n.Lang = finished, pics.in(lang), lang
		out = append(out, n)
	}
	return out, nil
}

// pageNote is the lines of a mail that give game g's web page, or "" when
// there is none.
func (h *Host) pageNote(g *Game) string { return h.pageNoteIn(g, notation.English) }

// pageNoteIn is pageNote in lang.
func (h *Host) pageNoteIn(g *Game, lang notation.Lang) string {
	if h.cfg.PageURL == nil || g.PageToken == "" || g.Page == PageOff {
		return ""
	}
	if lang == notation.French {
		return fmt.Sprintf("\nLa page de la partie, le plateau public pour qui a le lien :\n  %s\n", h.cfg.PageURL(g.PageToken)+"?lang=fr")
	}
	return fmt.Sprintf("\nThe game's page, the public board for anyone with the link:\n  %s\n", h.cfg.PageURL(g.PageToken))
}
