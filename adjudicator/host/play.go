package host

import (
	"cmp"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
)

// RefusedError is a game that cannot be created (unknown game, bad player
// count, bad option), with the reason for the host.
type RefusedError struct {
	Reason   string // English
	ReasonFR string // French; "": Reason
}

func (r *RefusedError) Error() string { return r.Reason }

// Localize returns the reason in lang: French where there is one.
func (r *RefusedError) Localize(lang notation.Lang) string {
	if lang == notation.French && r.ReasonFR != "" {
		return r.ReasonFR
	}
	return r.Reason
}

// refusedBy is a RefusedError with err's words, in French too where err
// speaks it (adjudicator.Localizer: an unknown game, a player count).
func refusedBy(err error) *RefusedError {
	r := &RefusedError{Reason: err.Error()}
	var l adjudicator.Localizer
	if errors.As(err, &l) {
		r.ReasonFR = l.Localize(notation.French)
	}
	return r
}

// CreateRequest asks for a new game.
type CreateRequest struct {
	Host    string            // the address of whoever starts it; it may play
	Game    string            // the game's name in the registry
	Players []string          // the players' addresses, in turn order
	Options map[string]string // the game's options, by name
	Timing  Timing            // the deadline of each move; none by default
	// Lang is the language of the request (a "new" mail written in
	// French): of the host's confirmation and the players' welcomes.
	Lang notation.Lang
}

// Create creates a game and returns its id and its notices: the host's
// confirmation (with the host key when the host does not play) and every
// player's welcome with their key. A game that cannot be created is a
// *RefusedError.
func (s *Session) Create(ctx context.Context, req CreateRequest) (int64, []Notice, error) {
	g, err := s.h.cfg.Registry.Lookup(req.Game)
	if err != nil {
		return 0, nil, refusedBy(err)
	}
	// Every address is checked before anything is written: a game with
	// an address no mail server takes would never be answered.
	host, err := ParseAddress(strings.TrimSpace(req.Host))
	if err != nil {
		return 0, nil, &RefusedError{"the host: " + err.Error(), "l'hôte : " + err.Error()}
	}
	addrs := make([]string, len(req.Players))
	for i, a := range req.Players {
		// bot:LEVEL is a seat the bot plays (RULINGS.md H-6).
		if b, ok, err := botSeat(a); err != nil {
			return 0, nil, refusedBy(err)
		} else if ok {
			addrs[i] = b
			continue
		}
		if addrs[i], err = ParseAddress(strings.TrimSpace(a)); err != nil {
			return 0, nil, refusedBy(err)
		}
		// herald tells a player's mail by its address: a second seat of
		// one address could never be played by mail.
		if j := slices.IndexFunc(addrs[:i], func(b string) bool { return strings.EqualFold(b, addrs[i]) }); j >= 0 {
			return 0, nil, &RefusedError{fmt.Sprintf("%s is listed as player %d and as player %d: each player needs an address of their own, by which herald knows their mail (a bot seat, bot:2, may be listed more than once)", addrs[i], j+1, i+1),
				fmt.Sprintf("%s est à la fois le joueur %d et le joueur %d : chaque joueur a besoin de sa propre adresse, à laquelle herald reconnaît ses courriers (une place du bot, bot:2, peut être donnée plusieurs fois)", addrs[i], j+1, i+1)}
		}
	}
	if !slices.ContainsFunc(addrs, func(a string) bool { _, isBot := adjudicator.BotLevel(a); return !isBot }) {
		return 0, nil, &RefusedError{"a game by mail needs at least one person among its players; bots alone play with herald play --bots",
			"une partie par courrier a besoin d'au moins une personne parmi ses joueurs ; des bots seuls jouent avec herald play --bots"}
	}
	names := seatNames(addrs)
	timing := req.Timing
	if timing.Deadline > 0 {
		if err := timing.check(); err != nil {
			return 0, nil, err
		}
	}
	rec, err := adjudicator.NewRecord(g, names, req.Options, s.h.cfg.NewSeed(), nil)
	if err != nil {
		return 0, nil, refusedBy(err)
	}
	if _, err := adjudicator.Start(s.h.cfg.Registry, rec); err != nil {
		return 0, nil, refusedBy(err)
	}
	players := make([]Player, len(addrs))
	for i := range addrs {
		players[i] = Player{Name: names[i], Address: addrs[i], Secret: s.h.cfg.NewKey(), Token: s.h.newToken()}
	}
	hostKey := s.h.cfg.NewKey()
	id, err := s.tx.CreateGame(ctx, host, hostKey, rec, players)
	if err != nil {
		return 0, nil, err
	}
	if err := s.tx.SetPage(ctx, id, PageLink, s.h.newToken()); err != nil {
		return 0, nil, err
	}
	sg, err := s.tx.Game(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	m, err := adjudicator.Start(s.h.cfg.Registry, sg.Record)
	if err != nil {
		return 0, nil, err
	}
	// The bots that play first play now; everyone's welcome shows the
	// board after their moves.
	botSubs, err := s.playBots(sg, m)
	if err != nil {
		return 0, nil, err
	}
	if len(botSubs) > 0 {
		status := Playing
		if m.State.Result().Finished {
			status = Finished
		}
		if _, err := s.tx.Save(ctx, id, m.Record, status); err != nil {
			return 0, nil, err
		}
		sg.Record, sg.Status = m.Record, status
	}
	if timing.Deadline > 0 {
		c := Clock{Deadline: timing.Deadline, Grace: timing.Grace, Remind: timing.Remind, Policy: timing.Policy, Vacation: timing.Vacation,
			Since: s.now, ToMove: strings.Join(waiting(m.State), ",")}
		c.plan()
		if err := s.tx.SetClock(ctx, id, c); err != nil {
			return 0, nil, err
		}
		sg.Clock = &c
	}
	// The language of the mail that started the game is the host's: of
	// their seat when they play, else of the game's host. The other
	// players are welcomed in it too, and written to in it until a mail
	// of theirs says which language they write: before, a player
	// welcomed in French was told of the first move in English (hand
	// play over Postfix + Dovecot).
	fr := req.Lang == notation.French
	if fr {
		plays := false
		for seat, p := range sg.Players {
			if p.IsBot() {
				continue
			}
			plays = plays || p.Address == host
			if err := s.noteMailLang(ctx, sg, seat, req.Lang); err != nil {
				return 0, nil, err
			}
		}
		if !plays {
			if err := s.noteHostLang(ctx, sg, req.Lang); err != nil {
				return 0, nil, err
			}
		}
	}
	// The host's confirmation, which names a seat the game plays itself
	// (Henri) beside the players' addresses.
	between := slices.Clone(addrs)
	for _, a := range adjudicator.Automata(m.State) {
		between = append(between, automatonLabel(a, req.Lang))
	}
	hb := fmt.Sprintf("Game %s of %s has started between %s.\n\nSeed commitment (sha256 of the secret seed, revealed at the end):\n  %s\n",
		Tag(id), g.Title, strings.Join(between, ", "), rec.SeedSHA256)
	if fr {
		hb = fmt.Sprintf("La partie %s de %s a commencé entre %s.\n\nEngagement sur la graine (sha256 de la graine secrète, révélée à la\nfin) :\n  %s\n",
			Tag(id), cmp.Or(g.TitleFR, g.Title), strings.Join(between, ", "), rec.SeedSHA256)
	}
	if sg.Clock != nil {
		hb += "\n" + describeTimingIn(sg.Clock, req.Lang)
	}
	hb += s.h.pageNoteIn(sg, req.Lang)
	if !slices.Contains(addrs, host) {
		// Short lines: the key is long, and a line over 72 columns would be
		// wrapped in the middle of the sentence.
		hb += fmt.Sprintf(pick(fr, "\nYou host the game without playing. Your host key is:\n\n  %s\n\nTo end the game early, send herald a mail with these two lines:\n\n  key %s\n  abandon\n",
			"\nVous êtes l'hôte de la partie sans y jouer. Votre clé d'hôte est :\n\n  %s\n\nPour terminer la partie avant la fin, envoyez à herald un courrier\navec ces deux lignes :\n\n  clé %s\n  annule\n"), hostKey, hostKey)
	}
	started := s.notice(sg, m, host, seatOf(sg, host), Started, "game started", hb)
	started.Answer, started.Lang = true, req.Lang
	notices := []Notice{started}
	for _, p := range players {
		if !p.IsBot() {
			notices = append(notices, s.welcomeIn(sg, m, g, p, botNews(sg, m, botSubs, p.Name, req.Lang), req.Lang))
		}
	}
	return id, notices, nil
}

// welcome is the first notice of player p of game g (of the game game):
// their key, how to play and the board as they see it. intro, when not
// empty, comes before the list of players (a replacement's).
func (s *Session) welcome(g *Game, m *adjudicator.Match, game *adjudicator.Game, p Player, intro string) Notice {
	return s.welcomeIn(g, m, game, p, intro, notation.English)
}

// welcomeIn is welcome in lang: the language of the mail that started
// the game or handed the seat over.
func (s *Session) welcomeIn(g *Game, m *adjudicator.Match, game *adjudicator.Game, p Player, intro string, lang notation.Lang) Notice {
	lang = playerLang(p, lang)
	body := fmt.Sprintf("Welcome to game %s of %s.\n\n%sPlayers, in turn order: %s\nYou are %s.\n\nSeed commitment (sha256 of the secret seed, revealed at the end):\n  %s\n\nYour key is %s\nKeep it secret: herald sends it only in this mail. Put this line in\nevery mail you send to herald for this game:\n\n  key %s\n\nHow to play: reply to herald's mails with your steps, one per line,\nafter your key. %s%s\n%s\n\n%s",
		Tag(g.ID), game.Title, intro, strings.Join(turnOrder(m, notation.English), ", "), p.Name, m.Record.SeedSHA256, p.Secret, p.Secret, commandList(notation.English), s.h.pageNote(g), game.Help, s.stateText(g, m, p.Name, m.State.Text(p.Name)))
	keyAt := "\nYour key is "
	if lang == notation.French {
		body = fmt.Sprintf("Bienvenue dans la partie %s de %s.\n\n%sJoueurs, dans l'ordre du tour : %s\nVous êtes %s.\n\nEngagement sur la graine (sha256 de la graine secrète, révélée à la\nfin) :\n  %s\n\nVotre clé est %s\nGardez-la secrète : herald ne l'envoie que dans ce courrier. Mettez\ncette ligne dans chaque courrier que vous envoyez à herald pour cette\npartie :\n\n  clé %s\n\nComment jouer : répondez aux courriers de herald avec vos étapes, une\npar ligne, après votre clé. %s%s\n%s\n\n%s",
			Tag(g.ID), cmp.Or(game.TitleFR, game.Title), intro, strings.Join(turnOrder(m, lang), ", "), p.Name, m.Record.SeedSHA256, p.Secret, p.Secret, commandList(lang), s.h.pageNoteIn(g, lang), cmp.Or(game.HelpFR, game.Help), s.stateTextIn(g, m, p.Name, m.State.Text(p.Name), lang))
		keyAt = "\nVotre clé est "
	}
	if g.Clock != nil {
		// Every player knows the timing from the start: the deadline, the
		// grace, the reminder and the policy.
		body = strings.Replace(body, keyAt, "\n"+describeTimingIn(g.Clock, lang)+keyAt, 1)
	}
	n := s.notice(g, m, p.Address, p.Name, Welcome, "welcome", body)
	n.Picture, n.Lang = s.pictureIn(g, m, lang), lang
	return n
}

// turnOrder is the seats of m in the order they play, in lang: the order
// of the record, from the one who moves first when one does (a coin toss,
// as in Les Deux Héritiers, may have chosen them), a seat the game plays
// itself (Henri, in the solo game) named as such.
func turnOrder(m *adjudicator.Match, lang notation.Lang) []string {
	seats := slices.Clone(m.Seats())
	if to := m.State.ToMove(); len(to) == 1 {
		if i := slices.Index(seats, to[0]); i > 0 {
			seats = append(seats[i:], seats[:i]...)
		}
	}
	auto := adjudicator.Automata(m.State)
	for i, name := range seats {
		if slices.Contains(auto, name) {
			seats[i] = automatonLabel(name, lang)
		}
	}
	return seats
}

// PlayerNames returns the names the players of addrs, in seating order,
// play under (RULINGS.md H-2): the local parts of their addresses; when
// several share a local part, each of them gets it with "-" and their
// rank among them ("alice-1" for alice@herald.local, "alice-2" for
// alice@example.org), so that the page and every public answer tell them
// apart without their addresses. A name is never an address, and never
// another player's name.
func PlayerNames(addrs []string) []string {
	names := make([]string, len(addrs))
	count := map[string]int{}
	for i, a := range addrs {
		names[i], _, _ = strings.Cut(a, "@")
		count[names[i]]++
	}
	taken := map[string]bool{}
	for _, n := range names {
		if count[n] == 1 {
			taken[n] = true
		}
	}
	rank := map[string]int{}
	for i, n := range names {
		if count[n] == 1 {
			continue
		}
		for {
			rank[n]++
			if c := fmt.Sprintf("%s-%d", n, rank[n]); !taken[c] {
				names[i], taken[c] = c, true
				break
			}
		}
	}
	return names
}

// seatOf returns the player name of address in g, or "".
func seatOf(g *Game, address string) string {
	for _, p := range g.Players {
		if p.Address == address {
			return p.Name
		}
	}
	return ""
}

// Game reads game id without its record (Tx.GameInfo): nil when
// there is none.
func (s *Session) Game(ctx context.Context, id int64) (*Game, error) {
	return s.tx.GameInfo(ctx, id)
}

// PlayingGamesOf returns the ids of the running games address plays in or
// hosts, newest first.
func (s *Session) PlayingGamesOf(ctx context.Context, address string) ([]int64, error) {
	return s.tx.PlayingGamesOf(ctx, address)
}

// Authenticate reports whether key is the key of seat in g (the index of a
// player in g.Players), or of its host when seat is -1 (the host who does
// not play). Keys are compared without regard to case.
func Authenticate(g *Game, seat int, key string) bool {
	secret := g.HostKey
	if seat >= 0 {
		secret = g.Players[seat].Secret
	}
	if key == "" || secret == "" {
		return false
	}
	if IsHashedKey(secret) { // as the store keeps it
		return subtle.ConstantTimeCompare([]byte(HashKey(key)), []byte(secret)) == 1
	}
	return subtle.ConstantTimeCompare([]byte(strings.ToLower(key)), []byte(strings.ToLower(secret))) == 1
}

// keyHashPrefix begins a key as the store keeps it: hashed.
const keyHashPrefix = "sha256:"

// HashKey returns what a store keeps of a key, a player's or a host's,
// which herald only ever checks and never shows again after the mail that
// gives it (issue 25, item 15): "sha256:" and the hex SHA-256 of the key in
// lower case (keys are compared without regard to case). Keys are drawn at
// random, so a hash without salt or work factor gives nothing to guess
// from. An empty key stays empty.
func HashKey(key string) string {
	if key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.ToLower(key)))
	return keyHashPrefix + hex.EncodeToString(sum[:])
}

// IsHashedKey reports whether s is a key as HashKey returns it.
func IsHashedKey(s string) bool { return strings.HasPrefix(s, keyHashPrefix) }

// TokenOK reports whether token is the reply token of seat in g: a reply
// to the address that carries it, from the seat's address, is the seat's
// without a key line.
func TokenOK(g *Game, seat int, token string) bool {
	if seat < 0 || token == "" || g.Players[seat].Token == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.ToLower(token)), []byte(g.Players[seat].Token)) == 1
}

// A Request is what an authenticated player or host of a game asks: the
// steps and commands of their words, parsed (notation.ParseEnvelope), and
// any turn files that came with them.
type Request struct {
	Game *Game  // as Session.Game read it
	From string // the sender's address
	// Seat is the sender's index in Game.Players, or -1 for the host who
	// does not play.
	Seat      int
	Env       *notation.Envelope
	TurnFiles []TurnFile
	// Source says where the request came from, for the record: a move's
	// source is Source (and the turn file's name).
	Source string
}

// A TurnFile is a YAML turn file that came with a request.
type TurnFile struct {
	Name string
	Data []byte
}

// A Reply is what became of a request and who must be told what.
type Reply struct {
	Outcome Outcome
	Game    int64
	Reason  string // a few words for the log
	Notices []Notice
}

// Handle does what an authenticated request asks of its game: resign or
// abandon, a move (steps or a turn file), or commands. Prose around the
// steps (notation.Envelope.IgnoreProse) is set aside and the answer says
// so. An error is a failure of the store: nothing of the request stays.
//
// A request that holds commands that change something (set, replace,
// notify, vacation, undo, observe) beside other lines, or commands that
// answer (show, legal, history, help) beside a move, is carried out part
// by part, in the order of its lines: each command, then the move or the
// other commands; the sender's answer tells what became of each part.
func (s *Session) Handle(ctx context.Context, req Request) (Reply, error) {
	if req.Env != nil && req.Seat >= 0 && req.Seat < len(req.Game.Players) {
		// The player's chosen language, where they chose one, over the
		// mail's (lang fr); the mail's where it says which, remembered
		// for the mails to come; else their last mail's that did.
		env := *req.Env
		if env.LangClear {
			if err := s.noteMailLang(ctx, req.Game, req.Seat, env.Lang); err != nil {
				return Reply{}, err
			}
		} else {
			env.Lang = storedLang(req.Game.Players[req.Seat].MailLang)
		}
		env.Lang = playerLang(req.Game.Players[req.Seat], env.Lang)
		req.Env = &env
	} else if req.Env != nil && req.Seat < 0 && req.From == req.Game.Host {
		// The host who plays no seat: the same, but they choose no
		// language.
		env := *req.Env
		if env.LangClear {
			if err := s.noteHostLang(ctx, req.Game, env.Lang); err != nil {
				return Reply{}, err
			}
		} else {
			env.Lang = storedLang(req.Game.HostLang)
		}
		req.Env = &env
	}
	if req.Env != nil && len(req.Env.Commands) > MaxCommands {
		return s.tooManyCommands(ctx, req)
	}
	parts := splitRequest(req)
	if len(parts) < 2 {
		return s.handle(ctx, req)
	}
	parts, ignored, err := s.dropProse(ctx, req, parts)
	if err != nil {
		return Reply{}, err
	}
	var rep Reply
	if len(parts) > 1 {
		rep, err = s.handleParts(ctx, req, parts)
	} else {
		sub := req
		sub.Env = parts[0].env
		rep, err = s.handle(ctx, sub)
	}
	if err != nil || len(ignored) == 0 {
		return rep, err
	}
	for i, n := range rep.Notices {
		if n.To == req.From && n.Answer {
			note := IgnoredNote(ignored, req.Env.Lang)
			rep.Notices[i].Edit(func(text string) string { return strings.TrimRight(text, "\n") + "\n" + note })
			break
		}
	}
	return rep, nil
}

// dropProse takes out of parts the rest of a request that holds nothing
// but prose around its action commands ("Sorry, misclick." above an
// undo, a signature below): it is no part of its own, whose answer would
// be that the mail held no steps, with the help. It returns the prose's
// lines, for the answer to list as ignored.
func (s *Session) dropProse(ctx context.Context, req Request, parts []requestPart) ([]requestPart, []notation.IgnoredLine, error) {
	i := slices.IndexFunc(parts, func(p requestPart) bool { return p.rest })
	if i < 0 || len(req.TurnFiles) > 0 || req.Game.Status != Playing {
		return parts, nil, nil
	}
	m, err := s.gameFor(ctx, req.Game) // kept for the parts' handle, as it stands
	if err != nil {
		return nil, nil, err
	}
	game, err := s.h.cfg.Registry.Lookup(m.Record.Game)
	if err != nil {
		return parts, nil, nil
	}
	rest := *parts[i].env
	rest.Steps, rest.Errors = slices.Clone(rest.Steps), slices.Clone(rest.Errors)
	ignored := rest.IgnoreProse(game.Keywords)
	if len(rest.Steps) > 0 || len(rest.Errors) > 0 || len(rest.Commands) > 0 || rest.Preview {
		return parts, nil, nil
	}
	return slices.Delete(parts, i, i+1), ignored, nil
}

// stepsBeside reports whether req holds steps, or a turn file, beside its
// resign or abandon, once the prose around them is set aside (a greeting,
// a signature: notation.Envelope.IgnoreProse).
func (s *Session) stepsBeside(g *Game, req Request) bool {
	if len(req.TurnFiles) > 0 {
		return true
	}
	rest := *req.Env
	rest.Steps, rest.Errors = slices.Clone(rest.Steps), slices.Clone(rest.Errors)
	if game, err := s.h.cfg.Registry.Lookup(g.Record.Game); err == nil {
		rest.IgnoreProse(game.Keywords)
	}
	return len(rest.Steps) > 0
}

// endBesideSteps is the refusal of a resign (how "resign") or abandon
// beside steps: herald does neither. Ending a game cannot be taken back,
// and a mail that holds both does not say which the player meant, so
// herald asks rather than drop the steps or play them first.
func endBesideSteps(how string, lang notation.Lang) string {
	if lang == notation.French {
		word, verb := "abandonne", "abandonner"
		if how == "abandon" {
			word, verb = "annule", "annuler la partie"
		}
		return fmt.Sprintf("Votre courrier contient des étapes en plus de la ligne %s :\nherald n'a fait ni l'un ni l'autre, et rien n'a changé. Une partie\nfinie ne reprend pas : herald ne la termine que sur un courrier sans\nétapes. Pour %s, envoyez %s seul ;\npour jouer, envoyez vos étapes sans cette ligne.\n", word, verb, word)
	}
	verb := "resign"
	if how == "abandon" {
		verb = "abandon the game"
	}
	return fmt.Sprintf("Your mail holds steps beside its %s line: herald did neither, and\nnothing changed. A game ended cannot go on, so herald ends it only\nfrom a mail without steps. To %s, send %s alone; to play, send\nyour steps without that line.\n", how, verb, how)
}

// noteProse adds to the sender's mail of rep the lines of req's words
// taken for prose around its commands (notation.Envelope.IgnoreProse):
// a greeting and a signature around resign or abandon.
func (s *Session) noteProse(rep Reply, g *Game, req Request) Reply {
	game, err := s.h.cfg.Registry.Lookup(g.Record.Game)
	if err != nil {
		return rep
	}
	rest := *req.Env
	rest.Steps, rest.Errors = slices.Clone(rest.Steps), slices.Clone(rest.Errors)
	note := IgnoredNote(rest.IgnoreProse(game.Keywords), req.Env.Lang)
	if note == "" {
		return rep
	}
	for i, n := range rep.Notices {
		if n.To == req.From {
			rep.Notices[i].Edit(func(text string) string { return strings.TrimRight(text, "\n") + "\n" + note })
			break
		}
	}
	return rep
}

// actionCommands are the commands that each change something and answer on
// their own: a request that holds one beside other lines is split.
var actionCommands = map[string]bool{"set": true, "replace": true, "notify": true, "vacation": true, "undo": true, "observe": true, "unobserve": true, "lang": true}

// answerCommands are the commands that answer without changing anything:
// beside a move, each is a part of its own, answered in the order of the
// lines (a move's answer is its news, which says nothing of them).
var answerCommands = map[string]bool{"show": true, "legal": true, "history": true, "help": true, "hint": true}

// A requestPart is one part of a request split by splitRequest: an action
// command alone, or the rest (the move, the other commands).
type requestPart struct {
	env   *notation.Envelope
	label string // what the sender wrote, for their answer: "line 3: notify all"
	line  int    // the line the part starts at, to keep the order of the mail
	rest  bool   // the move and the other commands, with the turn files
}

// splitRequest splits req into its action commands and the rest, in the
// order of the mail's lines, or returns nil when it need not be split.
func splitRequest(req Request) []requestPart {
	env := req.Env
	fr := env.Lang == notation.French
	var parts []requestPart
	var others []notation.Command
	move := len(env.Steps) > 0 || len(req.TurnFiles) > 0
	for _, c := range env.Commands {
		if !actionCommands[c.Name] && !(move && answerCommands[c.Name]) {
			others = append(others, c)
			continue
		}
		one := &notation.Envelope{Game: env.Game, Key: env.Key, KeyPos: env.KeyPos, Lang: env.Lang, Commands: []notation.Command{c}}
		name := c.Name
		if fr && commandsFR[name] != "" {
			name = commandsFR[name]
		}
		label := strings.TrimSpace(name + " " + strings.Join(c.Args, " "))
		parts = append(parts, requestPart{env: one, label: fmt.Sprintf(pick(fr, "line %d: %s", "ligne %d : %s"), c.Pos.Line, label), line: c.Pos.Line})
	}
	if len(parts) == 0 {
		return nil
	}
	if len(others) > 0 || len(env.Steps) > 0 || len(env.Errors) > 0 || len(req.TurnFiles) > 0 {
		rest := *env
		rest.Commands = others
		line, label := 1<<30, pick(fr, "your steps", "vos étapes")
		if len(env.Steps) > 0 {
			line = env.Steps[0].Pos.Line
		} else if len(others) > 0 {
			line, label = others[0].Pos.Line, pick(fr, "your commands", "vos commandes")
		}
		for _, c := range others {
			line = min(line, c.Pos.Line)
		}
		if len(env.Errors) > 0 {
			line = min(line, env.Errors[0].Pos.Line)
		}
		if len(env.Steps) > 0 && len(others) > 0 {
			label = pick(fr, "your steps and commands", "vos étapes et commandes")
		}
		if env.Preview {
			label = pick(fr, "your preview", "votre essai")
		}
		parts = append(parts, requestPart{env: &rest, label: label, line: line, rest: true})
	}
	if len(parts) < 2 {
		return nil
	}
	slices.SortStableFunc(parts, func(a, b requestPart) int { return a.line - b.line })
	return parts
}

// MaxCommands is the most command lines (show, legal, notify, …) herald
// carries out from one mail. Each answers on its own, and show, legal and
// history each with the whole board: a mail of a few kilobytes that
// repeated show ten thousand times had herald build an answer of some 50
// MB, hundreds of megabytes of memory, for one address to send again and
// again. Ten is more than any turn needs.
const MaxCommands = 10

// tooManyCommands refuses a mail that holds more than MaxCommands command
// lines, all of it: nothing is carried out, not even its steps, and the
// answer says which line went over.
func (s *Session) tooManyCommands(ctx context.Context, req Request) (Reply, error) {
	g, env := req.Game, req.Env
	m, err := s.gameFor(ctx, g)
	if err != nil {
		return Reply{}, err
	}
	over := env.Commands[MaxCommands].Pos.Line
	body := fmt.Sprintf("Your mail holds %d commands; herald carries out at most %d from one\nmail, so it did nothing with this one, steps and all (line %d is the\n%dth). Send each command once, in fewer lines.\n",
		len(env.Commands), MaxCommands, over, MaxCommands+1)
	if env.Lang == notation.French {
		body = fmt.Sprintf("Votre courrier contient %d commandes ; herald en exécute au plus %d\npar courrier, et n'a donc rien fait de celui-ci, étapes comprises (la\nligne %d est la %de). Envoyez chaque commande une fois, en moins de\nlignes.\n",
			len(env.Commands), MaxCommands, over, MaxCommands+1)
	}
	return s.answer(g, m, req, Refusal, "too many commands", body, fmt.Sprintf("%d commands", len(env.Commands))), nil
}

// handleParts carries out the parts of req one after the other, each on
// the game as the parts before it left it, and merges their replies: the
// sender gets one mail that tells what became of each part (their move's
// news when a move was played, else one answer).
func (s *Session) handleParts(ctx context.Context, req Request, parts []requestPart) (Reply, error) {
	var reps []Reply
	lang := req.Env.Lang
	for i, p := range parts {
		sub := req
		env := *p.env
		env.Lang = lang
		sub.Env = &env
		if !p.rest {
			sub.TurnFiles = nil
		}
		if i > 0 {
			// The parts before may have changed the game (its clock, its
			// players, its record): read it again.
			g, err := s.tx.GameInfo(ctx, req.Game.ID)
			if err != nil {
				return Reply{}, err
			}
			if g == nil {
				return Reply{}, NoGame(req.Game.ID)
			}
			sub.Game = g
		}
		rep, err := s.handle(ctx, sub)
		if err != nil {
			return Reply{}, err
		}
		reps = append(reps, rep)
		// A lang line chooses the language of the parts after it, and of
		// the answer that gathers them all (the lang part's own answer is
		// in it already: setLang); steps in French, where the player chose
		// none, say the mail is French (noteMailLang) as its other words
		// may not have.
		if req.Seat >= 0 && req.Seat < len(sub.Game.Players) {
			lang = noticeLang(sub.Game.Players[req.Seat])
		}
	}
	if lang != req.Env.Lang {
		// The labels of the parts, in the language chosen.
		again := req
		env := *req.Env
		env.Lang = lang
		again.Env = &env
		labels := map[int]string{}
		for _, p := range splitRequest(again) {
			labels[p.line] = p.label
		}
		for i := range parts {
			if l, ok := labels[parts[i].line]; ok {
				parts[i].label = l
			}
		}
	}
	return mergeReplies(req.From, lang, parts, reps), nil
}

// mergeReplies makes one reply of the replies to the parts of a request:
// the answers to the sender become one, each part under its label, at the
// top of the sender's news of their move when there is one.
func mergeReplies(from string, lang notation.Lang, parts []requestPart, reps []Reply) Reply {
	fr := lang == notation.French
	out := Reply{Outcome: Rejected, Game: reps[0].Game}
	rank := map[Outcome]int{Rejected: 0, Answered: 1, Ended: 2, Applied: 3}
	var reasons, topics []string
	var answer *Notice
	var text strings.Builder
	fmt.Fprintf(&text, pick(fr, "Your mail asked for %d things; herald did them in the order of\nyour lines:\n",
		"Votre courrier demandait %d choses ; herald les a faites dans l'ordre\nde vos lignes :\n"), len(parts))
	for i, rep := range reps {
		if rank[rep.Outcome] > rank[out.Outcome] {
			out.Outcome = rep.Outcome
		}
		reasons = append(reasons, rep.Reason)
		said := false
		for _, n := range rep.Notices {
			if n.To != from || !n.Answer {
				out.Notices = append(out.Notices, n)
				continue
			}
			body := n.Body() // an answer's text is never written apart, but the merge reads it now
			fmt.Fprintf(&text, "\n[%s]\n%s", parts[i].label, strings.TrimLeft(body, "\n"))
			if !strings.HasSuffix(body, "\n") {
				text.WriteString("\n")
			}
			said = true
			topics = append(topics, n.Topic)
			if answer == nil {
				keep := n
				answer = &keep
			}
			if n.Kind == Refusal {
				answer.Kind = Refusal
			}
			answer.Status = n.Status // where the game stands after the last part
			answer.Picture = cmp.Or(n.Picture, answer.Picture)
		}
		if !said {
			what := pick(fr, "Done", "Fait")
			if rep.Outcome == Applied {
				what = pick(fr, "Played; the news of your move is below", "Joué ; les nouvelles de votre coup suivent")
			}
			if fr {
				// rep.Reason is a log's words, in English.
				fmt.Fprintf(&text, "\n[%s]\n%s.\n", parts[i].label, what)
			} else {
				fmt.Fprintf(&text, "\n[%s]\n%s (%s).\n", parts[i].label, what, rep.Reason)
			}
		}
	}
	out.Reason = strings.Join(reasons, "; ")
	out.Notices = lastTiming(out.Notices)
	// The sender's news of their own move carries the answers; otherwise
	// they go as one answer.
	for i, n := range out.Notices {
		if n.To == from && n.InReplyTo {
			prefix := text.String() + pick(fr, "\n[your move]\n", "\n[votre coup]\n")
			out.Notices[i].Edit(func(text string) string { return prefix + text })
			return out
		}
	}
	if answer == nil {
		return out
	}
	answer.Text = text.String()
	answer.Topic = strings.Join(slices.Compact(topics), ", ")
	out.Notices = append([]Notice{*answer}, out.Notices...)
	return out
}

// lastTiming drops, of the others' notices of a host's timing changed
// (topic "settings": each gives the whole timing as it then stands),
// all but the last to each address: one mail with five set lines sent
// each player up to five mails, each saying a part of what the last says
// whole (hand play).
func lastTiming(ns []Notice) []Notice {
	last := map[string]int{}
	for i, n := range ns {
		if n.Topic == "settings" && !n.Answer {
			last[n.To] = i
		}
	}
	out := ns[:0]
	for i, n := range ns {
		if n.Topic == "settings" && !n.Answer && last[n.To] != i {
			continue
		}
		out = append(out, n)
	}
	return out
}

// gameFor reads what a request about g needs: the match of a game in
// play, or, for a game over, its record (in g) and no match. Unless the
// game changes, the match is still the game as stored once the request
// commits: it is kept for the next (no outcome changes a match without
// saving the game, and an error drops it).
func (s *Session) gameFor(ctx context.Context, g *Game) (*adjudicator.Match, error) {
	if g.Status != Playing {
		var err error
		g.Record, err = s.tx.Record(ctx, g.ID)
		return nil, err
	}
	m, err := s.match(ctx, g)
	if err != nil {
		return nil, err
	}
	s.games.stage(g.ID, g.Rev, m)
	return m, nil
}

// handle is Handle for a request that is not split.
func (s *Session) handle(ctx context.Context, req Request) (Reply, error) {
	g, env := req.Game, req.Env
	player := ""
	if req.Seat >= 0 {
		player = g.Players[req.Seat].Name
	}
	isHost := g.Host == req.From
	m, err := s.gameFor(ctx, g)
	if err != nil {
		return Reply{}, err
	}
	if g.Status != Playing {
		body := fmt.Sprintf("Game %s is over (%s); nothing was done with your mail.\n", Tag(g.ID), overText(g))
		if env.Lang == notation.French {
			body = fmt.Sprintf("La partie %s est finie (%s) ;\nrien n'a été fait de votre courrier.\n", Tag(g.ID), overTextFR(g))
		}
		return s.answer(g, nil, req, Refusal, "game over", body, "game over"), nil
	}
	for _, c := range env.Commands {
		switch c.Name {
		case "abandon", "resign":
			if c.Name == "abandon" && !isHost {
				break
			}
			if s.stepsBeside(g, req) {
				return s.answer(g, m, req, Refusal, c.Name+" refused", endBesideSteps(c.Name, env.Lang), c.Name+" beside steps"), nil
			}
			s.games.unstage(g.ID)
			rep, err := s.end(ctx, g, m, req, player, c.Name)
			if err != nil {
				return rep, err
			}
			return s.noteProse(rep, g, req), nil
		case "set":
			return s.set(ctx, g, m, req, c.Args)
		case "replace":
			return s.replace(ctx, g, m, req, c.Args)
		case "notify":
			return s.notify(ctx, g, m, req, c.Args)
		case "vacation":
			return s.vacation(ctx, g, m, req, c.Args)
		case "undo":
			return s.undo(ctx, g, m, req, c.Args)
		case "lang":
			return s.setLang(ctx, g, m, req, c.Args)
		case "observe", "unobserve":
			return s.observeFor(ctx, g, req, c.Name == "observe", c.Args)
		}
	}
	var ignored []notation.IgnoredLine
	if game, err := s.h.cfg.Registry.Lookup(g.Record.Game); err == nil {
		ignored = env.IgnoreProse(game.Keywords)
	}
	hasMove := len(env.Steps) > 0 || len(req.TurnFiles) > 0
	if !hasMove || len(env.Errors) > 0 {
		if len(env.Errors) > 0 {
			return s.refuse(g, m, req, player, env.Errors, env.Lang, ignored), nil
		}
		return s.commands(g, m, req, player, ignored)
	}
	if player == "" {
		body := pick(env.Lang == notation.French, "You host this game but do not play in it: you may send show, history,\nhelp or abandon, but no moves.",
			"Vous êtes l'hôte de cette partie sans y jouer : vous pouvez envoyer\nmontre, historique, aide ou annule, mais aucun coup.")
		return s.answer(g, m, req, Refusal, "not a player", body, "host sent a move"), nil
	}
	if env.Preview {
		return s.preview(g, m, req, player, ignored)
	}
	steps := env.Steps
	source := req.Source
	if len(req.TurnFiles) > 0 {
		file := req.TurnFiles[0]
		tf, err := notation.ParseTurnFile(file.Name, file.Data)
		if err != nil {
			return s.refuse(g, m, req, player, err, env.Lang, ignored), nil
		}
		who, lang, err := m.CheckTurnFile(tf)
		if env.Lang == notation.French {
			lang = notation.French
		}
		if err == nil && who != player {
			err = adjudicator.Rulef(adjudicator.CodeNotAPlayer, "", "the turn file is for player %q, but you are %q",
				"le fichier de tour est pour le joueur « %s », mais vous êtes « %s »", tf.Player, player)
		}
		if err != nil {
			return s.refuse(g, m, req, player, err, lang, ignored), nil
		}
		steps = append(steps, tf.Steps...)
		source = req.Source + " turn:" + file.Name
	}
	// A game with sealed steps: what is sealed before the move, to tell
	// what the move reveals.
	var before []adjudicator.SealCommit
	_, sealing := m.State.(adjudicator.Sealer)
	if sealing {
		if before, err = m.SealedSteps(s.h.cfg.Registry); err != nil {
			return Reply{}, err
		}
	}
	sub, err := m.SubmitSteps(player, steps, s.now.Format(time.RFC3339), source)
	if err != nil {
		lang := adjudicator.SubmissionLang(err)
		if lang == notation.French {
			// Steps in French say the mail's language, whatever the
			// envelope left unsaid.
			if err := s.noteMailLang(ctx, g, req.Seat, lang); err != nil {
				return Reply{}, err
			}
		}
		if env.Lang == notation.French {
			lang = notation.French
		}
		if len(req.TurnFiles) == 0 {
			if n, mv, ok := s.resent(m, player, steps); ok {
				return s.alreadyApplied(g, m, req, player, n, mv, lang, ignored), nil
			}
		}
		return s.refuse(g, m, req, player, err, lang, ignored), nil
	}
	if sub.Lang == notation.French {
		if err := s.noteMailLang(ctx, g, req.Seat, sub.Lang); err != nil {
			return Reply{}, err
		}
	}
	if env.Lang == notation.French || req.Seat >= 0 && g.Players[req.Seat].Lang != "" {
		sub.Lang = env.Lang // the mail's, the player's choice or their last mail's (Handle)
	}
	// The bots to move play at once, and everyone hears of their moves
	// with this one's (RULINGS.md H-6).
	botSubs, err := s.playBots(g, m)
	if err != nil {
		return Reply{}, err
	}
	sub.Auto = append(sub.Auto, botSubs...)
	if err := s.saveMove(ctx, g, m); err != nil {
		return Reply{}, err
	}
	seal := sealNews{game: m.Game}
	if sealing {
		seal.commits = m.Commitments(sub)
		after, err := m.SealedSteps(s.h.cfg.Registry)
		if err != nil {
			return Reply{}, err
		}
		sealed := append(before, seal.commits...)
		for _, a := range botSubs {
			sealed = append(sealed, m.Commitments(a)...)
		}
		seal.revealed = adjudicator.Revealed(sealed, after)
	}
	notices, err := s.news(ctx, g, m, req, sub, ignored, seal)
	if err != nil {
		return Reply{}, err
	}
	lapsed, err := s.lapseUndo(ctx, g, len(m.Record.Moves))
	if err != nil {
		return Reply{}, err
	}
	for i := range notices {
		if lapsed != "" && notices[i].Seat != "" {
			prefix := lapsedText(lapsed, notices[i].Lang)
			notices[i].Edit(func(text string) string { return prefix + text })
		}
	}
	obs, err := s.observerNews(ctx, g, m, sub, seal)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Outcome: Applied, Game: g.ID, Reason: fmt.Sprintf("move %d", sub.Number), Notices: append(notices, obs...)}, nil
}

// Submit submits steps as one move of seat (an index in g.Players) in game
// g, read by Session.Game: the move is applied whole or not at all, and
// the reply holds everyone's news, or the refusal for the player alone.
// source says where the move came from, for the record.
func (s *Session) Submit(ctx context.Context, g *Game, seat int, steps []*notation.Step, source string) (Reply, error) {
	if seat < 0 || seat >= len(g.Players) {
		return Reply{}, fmt.Errorf("host: game %s has no seat %d", Tag(g.ID), seat)
	}
	if len(steps) == 0 {
		return Reply{}, fmt.Errorf("host: a move of game %s with no steps", Tag(g.ID))
	}
	return s.Handle(ctx, Request{Game: g, From: g.Players[seat].Address, Seat: seat, Env: &notation.Envelope{Steps: steps}, Source: source})
}

// Command answers commands (show, legal, history, help; resign, and
// abandon from the host) of seat in game g, or of its host who does not
// play when seat is -1.
func (s *Session) Command(ctx context.Context, g *Game, seat int, names ...string) (Reply, error) {
	from := g.Host
	if seat >= 0 {
		from = g.Players[seat].Address
	}
	env := &notation.Envelope{}
	for _, n := range names {
		env.Commands = append(env.Commands, notation.Command{Name: n})
	}
	return s.Handle(ctx, Request{Game: g, From: from, Seat: seat, Env: env, Source: "command"})
}

// picture is the board of game g standing as m, drawn, or nil when the
// game draws none.
func (s *Session) picture(g *Game, m *adjudicator.Match) *picture.Board {
	return s.pictureIn(g, m, notation.English)
}

// pictureIn is picture with its words in lang (adjudicator.PictureAtIn),
// titled with the game's French title in French; in English, title and
// all, for a game that draws in English alone.
func (s *Session) pictureIn(g *Game, m *adjudicator.Match, lang notation.Lang) *picture.Board {
	if _, ok := m.State.(adjudicator.LangPicturer); !ok {
		lang = notation.English
	}
	title := m.Game.Title
	if lang == notation.French {
		title = cmp.Or(m.Game.TitleFR, title)
	}
	b, err := adjudicator.PictureAtIn(m, len(m.Record.Moves), fmt.Sprintf("%s %s", Tag(g.ID), title), lang)
	if err != nil {
		return nil
	}
	return b
}

// pictures is the board of game g standing as m for the notices of one
// move, which share it: drawn in a language when a notice first asks for
// it (in), so that a move whose readers all read English draws it once,
// and the French one only when one reads French.
type pictures struct {
	s     *Session
	g     *Game
	m     *adjudicator.Match
	by    [2]*picture.Board // in English, in French
	drawn [2]bool
	// apart draws the boards on the writers of the news (drawing), from a
	// snapshot (newsSnapshot): lazy holds them, and mu keeps two of them
	// from reading the snapshot at once.
	apart bool
	lazy  [2]*Drawing
	mu    sync.Mutex
}

// pictures returns the board of g standing as m, for the notices of a
// move; m must stand so until the last of them has asked for it.
func (s *Session) pictures(g *Game, m *adjudicator.Match) *pictures {
	return &pictures{s: s, g: g, m: m}
}

// picturesApart is pictures drawn apart (drawing), from g and m as
// newsSnapshot copied them.
func (s *Session) picturesApart(g *Game, m *adjudicator.Match) *pictures {
	return &pictures{s: s, g: g, m: m, apart: true}
}

// index is where the board in lang is kept: the English one for a game
// that draws in English alone (no adjudicator.LangPicturer).
func (p *pictures) index(lang notation.Lang) int {
	if _, ok := p.m.State.(adjudicator.LangPicturer); ok && lang == notation.French {
		return 1
	}
	return 0
}

// in returns the board in lang: the English one for a game that draws in
// English alone (no adjudicator.LangPicturer); nil when it draws none.
func (p *pictures) in(lang notation.Lang) *picture.Board {
	if p.apart {
		return p.drawing(lang).Board()
	}
	i := p.index(lang)
	if !p.drawn[i] {
		p.by[i], p.drawn[i] = p.s.pictureIn(p.g, p.m, lang), true
	}
	return p.by[i]
}

// drawing returns the board in lang as in does, drawn when first asked
// for, on whichever goroutine asks: for the news written apart
// (Notice.Drawing). It must be called where in is, but its Board
// anywhere.
func (p *pictures) drawing(lang notation.Lang) *Drawing {
	i := p.index(lang)
	if p.lazy[i] == nil {
		p.lazy[i] = &Drawing{draw: func() *picture.Board {
			p.mu.Lock()
			defer p.mu.Unlock()
			return p.s.pictureIn(p.g, p.m, lang)
		}}
	}
	return p.lazy[i]
}

// notice is a notice about game g, standing as m, with its status.
func (s *Session) notice(g *Game, m *adjudicator.Match, to, seat string, kind Kind, topic, text string) Notice {
	st := &Status{Move: m.MoveNumber(), Over: g.Status != Playing || m.Record.Ended != nil || m.State.Result().Finished}
	if !st.Over {
		// Only who must act: a bidder whose sealed bid is in may replace
		// it, and need not.
		for _, p := range m.State.ToMove() {
			if adjudicator.SealedIn(m.State, p) {
				st.MayReplace = append(st.MayReplace, p)
			} else {
				st.ToMove = append(st.ToMove, p)
			}
		}
		if g.Clock != nil {
			st.Deadline = g.Clock.DeadlineAt()
		}
	}
	n := Notice{To: to, Seat: seat, Game: g.ID, GameName: g.Record.Game, Kind: kind, Topic: topic, Text: text, Status: st}
	if s.h.cfg.PageURL != nil && g.PageToken != "" && g.Page != PageOff {
		n.Page = s.h.cfg.PageURL(g.PageToken)
	}
	for _, p := range g.Players {
		if p.Address == to && p.Name == seat {
			n.ReplyToken = p.Token
			n.Lang = noticeLang(p)
		}
	}
	return n
}

// preview answers a dry run: the board as it would be after the steps,
// to the sender alone; nothing changes.
func (s *Session) preview(g *Game, m *adjudicator.Match, req Request, player string, ignored []notation.IgnoredLine) (Reply, error) {
	env := req.Env
	head, tail, lang, err := m.PreviewText(player, env.Steps)
	if env.Lang == notation.French {
		lang = notation.French
	}
	if err != nil {
		var b strings.Builder
		if lang == notation.French {
			b.WriteString("Essai seulement : rien n'a changé. Comme coup, ces étapes seraient refusées :\n\n")
		} else {
			b.WriteString("A preview only: nothing changed. As a move, these steps would be refused:\n\n")
		}
		b.WriteString(adjudicator.Pretty(err, lang))
		b.WriteString("\n")
		b.WriteString(IgnoredNote(ignored, lang)) // as a refused move's answer lists them
		s.writeStateText(&b, g, m, player, m.State.Text(player), lang)
		return s.answer(g, m, req, Answer, "preview refused", b.String(), "preview: "+err.Error()), nil
	}
	return s.answer(g, m, req, Answer, "preview", head+IgnoredNote(ignored, lang)+tail, "preview"), nil
}

// answer is a reply of one notice to the sender alone, about game g
// standing as m (nil for a game that is over).
func (s *Session) answer(g *Game, m *adjudicator.Match, req Request, kind Kind, topic, text, reason string) Reply {
	outcome := Rejected
	if kind == Answer {
		outcome = Answered
	}
	var n Notice
	if m != nil {
		n = s.notice(g, m, req.From, seatOf(g, req.From), kind, topic, text)
	} else {
		n = Notice{To: req.From, Seat: seatOf(g, req.From), Game: g.ID, GameName: g.Record.Game, Kind: kind, Topic: topic, Text: text,
			Status: &Status{Move: len(g.Record.Moves) + 1, Over: true}}
	}
	if req.Env != nil {
		n.Lang = req.Env.Lang // the mail's, or the sender's choice (Handle)
	}
	n.Answer = true
	return Reply{Outcome: outcome, Game: g.ID, Reason: reason, Notices: []Notice{n}}
}

// match returns the match of a playing game, sets g.Record to its record,
// and takes it out of the cache: the caller may change it, and stages it
// again (batchGames.stage) for as long as it is the stored game. It comes
// from the cache when the cached copy has the game's stored revision and
// number of moves; otherwise the stored record is replayed.
func (s *Session) match(ctx context.Context, g *Game) (*adjudicator.Match, error) {
	if c, ok := s.games.take(g.ID); ok && g.Moves >= 0 && c.rev == g.Rev && len(c.m.Record.Moves) == g.Moves {
		g.Record = c.m.Record
		return c.m, nil
	}
	rec, err := s.tx.Record(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	g.Record = rec
	m, err := adjudicator.Start(s.h.cfg.Registry, rec)
	if err != nil {
		return nil, fmt.Errorf("game %d does not replay: %w", g.ID, err)
	}
	return m, nil
}

// View returns what viewer (a player's name, or "" for the public) sees of
// game id now: whose turn, the scores, the board with their own hand, and
// their legal steps when it is their turn.
func (s *Session) View(ctx context.Context, id int64, viewer string) (string, error) {
	g, err := s.tx.GameInfo(ctx, id)
	if err != nil {
		return "", err
	}
	if g == nil {
		return "", NoGame(id)
	}
	var m *adjudicator.Match
	if g.Status == Playing {
		if m, err = s.match(ctx, g); err != nil {
			return "", err
		}
		s.games.stage(g.ID, g.Rev, m)
	} else {
		if g.Record, err = s.tx.Record(ctx, id); err != nil {
			return "", err
		}
		if m, err = adjudicator.Start(s.h.cfg.Registry, g.Record); err != nil {
			return "", fmt.Errorf("game %d does not replay: %w", g.ID, err)
		}
	}
	return s.stateText(g, m, viewer, m.State.Text(viewer)), nil
}

// maxListedSteps is how many legal steps a notice that asks for a move
// lists: a Löwenherz border step can have hundreds.
const maxListedSteps = 40

// stateText is what player sees of the game now, with the board as they
// see it, board, already rendered (adjudicator.Texts renders everyone's at
// once): whose turn, the scores, the board with their own hand, and their
// legal steps when it is their turn.
func (s *Session) stateText(g *Game, m *adjudicator.Match, player, board string) string {
	return s.stateTextIn(g, m, player, board, notation.English)
}

// stateTextIn is stateText with its frame in lang, and the words around
// the board too where the game has them in lang (adjudicator.LangTexter).
func (s *Session) stateTextIn(g *Game, m *adjudicator.Match, player, board string, lang notation.Lang) string {
	var b strings.Builder
	b.Grow(len(board) + 1024)
	s.writeStateText(&b, g, m, player, board, lang)
	return b.String()
}

// writeStateText writes stateTextIn to b: a mail that holds the state
// text (the news of a move) writes it into its own text, not into a
// string of its own copied there.
func (s *Session) writeStateText(b *strings.Builder, g *Game, m *adjudicator.Match, player, board string, lang notation.Lang) {
	fr := lang == notation.French
	if _, ok := m.State.(adjudicator.LangTexter); ok && fr {
		// board is player's Text, in English: the game writes the words
		// around its board in French too.
		board = adjudicator.TextIn(m.State, player, lang)
	}
	st := m.State
	to := st.ToMove()
	res := st.Result()
	switch {
	case fr && res.Finished:
		fmt.Fprintf(b, "La partie %s est finie : %s.\n", Tag(g.ID), res.SummaryIn(notation.French))
	case fr && slices.Contains(to, player) && adjudicator.SealedIn(st, player):
		fmt.Fprintf(b, "Partie %s, coup %d : votre étape scellée est prise (vous pouvez la\nremplacer) ; on attend %s.\n", Tag(g.ID), m.MoveNumber(), adjudicator.WaitingForIn(st, notation.French))
	case fr && slices.Contains(to, player):
		fmt.Fprintf(b, "Partie %s, coup %d : C'EST VOTRE TOUR, %s.\n", Tag(g.ID), m.MoveNumber(), player)
	case fr:
		fmt.Fprintf(b, "Partie %s, coup %d : on attend %s.\n", Tag(g.ID), m.MoveNumber(), adjudicator.WaitingForIn(st, notation.French))
	case res.Finished:
		fmt.Fprintf(b, "Game %s is over: %s.\n", Tag(g.ID), res.Summary)
	case slices.Contains(to, player) && adjudicator.SealedIn(st, player):
		// A bidder whose sealed bid is in need not act again.
		fmt.Fprintf(b, "Game %s, move %d: your sealed step is in (you may replace it); waiting for %s.\n", Tag(g.ID), m.MoveNumber(), adjudicator.WaitingFor(st))
	case slices.Contains(to, player):
		fmt.Fprintf(b, "Game %s, move %d: IT IS YOUR TURN, %s.\n", Tag(g.ID), m.MoveNumber(), player)
	default:
		fmt.Fprintf(b, "Game %s, move %d: waiting for %s.\n", Tag(g.ID), m.MoveNumber(), adjudicator.WaitingFor(st))
	}
	if g.Clock != nil && !res.Finished {
		fmt.Fprintf(b, pick(fr, "This move is due by %s.\n", "Ce coup est attendu avant le %s.\n"), formatTime(g.Clock.DeadlineAt()))
	}
	fmt.Fprintf(b, pick(fr, "Scores: %s\n\n", "Scores : %s\n\n"), adjudicator.FormatScores(m.Seats(), st.Scores()))
	b.WriteString(board)
	if !res.Finished && slices.Contains(to, player) {
		legal := st.Legal(player)
		fmt.Fprintf(b, pick(fr, "\nYour legal steps (%d), any one per line:\n", "\nVos étapes possibles (%d), une au choix par ligne :\n"), len(legal))
		for _, mv := range legal[:min(len(legal), maxListedSteps)] {
			b.WriteString("  ")
			b.WriteString(m.Game.StepIn(mv.String(), lang)) // in the reader's words, to copy
			b.WriteByte('\n')
		}
		if more := len(legal) - maxListedSteps; more > 0 {
			fmt.Fprintf(b, pick(fr, "\n(and %d more: a mail with the line legal lists them all)\n", "\n(et %d de plus : un courrier avec la ligne coups les liste toutes)\n"), more)
		}
		// How to answer, never with the key itself: a reply reaches
		// herald at the seat's reply-token address, which needs no key.
		if s.h.cfg.ReplyTokens {
			b.WriteString(pick(fr, "\nTo play, reply to this mail with your steps, one per line. In a new\nmail, put your key line first (key YOUR-KEY).\n",
				"\nPour jouer, répondez à ce courrier avec vos étapes, une par ligne.\nDans un nouveau courrier, ajoutez votre ligne de clé (clé VOTRE-CLÉ).\n"))
		} else {
			b.WriteString(pick(fr, "\nTo play, reply with your key line (key YOUR-KEY) and your steps,\none per line.\n",
				"\nPour jouer, répondez avec votre ligne de clé (clé VOTRE-CLÉ) et vos\nétapes, une par ligne.\n"))
		}
	}
}

// news tells everyone about an applied move: the mover gets the list of
// what was applied, everyone their own view; at the end everyone gets the
// revealed seed and the record. In a batch that writes texts apart
// (Batch.WriteApart), the players' texts are left to Notice.Write, which
// reads a snapshot of the game and the match as the move left them.
func (s *Session) news(ctx context.Context, g *Game, m *adjudicator.Match, req Request, sub *adjudicator.Submission, ignored []notation.IgnoredLine, seal sealNews) ([]Notice, error) {
	finished := m.State.Result().Finished
	names := make([]string, len(g.Players))
	for i, p := range g.Players {
		names[i] = p.Name
	}
	pics := s.pictures(g, m) // the same for everyone: the public view, once in each language
	// What the texts read: g and m, or a snapshot of them when the texts
	// are written apart, while the next requests play on; and the boards,
	// drawn apart from it too.
	tg, tm := g, m
	if s.apart {
		tg, tm = newsSnapshot(g, m)
		pics = s.picturesApart(tg, tm)
	}
	var boards []string // everyone's board, rendered at once by the first text
	var boardsOnce sync.Once
	board := func(i int) string {
		boardsOnce.Do(func() { boards = adjudicator.Texts(tm.State, names) })
		return boards[i]
	}
	byPolicy := strings.HasPrefix(req.Source, PolicySource)
	policy := strings.TrimSpace(strings.TrimPrefix(req.Source, PolicySource))
	var notices []Notice
	for i, p := range g.Players {
		if p.IsBot() {
			continue // a bot's seat gets no mail
		}
		lang := noticeLang(p) // their choice, else their last mail's; the mover's mail's for the mover
		if p.Name == sub.Player {
			lang = sub.Lang
		}
		fr := lang == notation.French
		mustAct := slices.Contains(m.State.ToMove(), p.Name) && !adjudicator.SealedIn(m.State, p.Name)
		// A player who asked for less mail (notify turn, digest) hears of
		// others' moves when they must act (turn), or in their digest; of
		// their own move and of the end, at once.
		if p.Name != sub.Player && !finished && (p.Notify == NotifyDigest || p.Notify == NotifyTurn && !mustAct) {
			continue
		}
		missed := ""
		if p.Notify == NotifyTurn || p.Notify == NotifyDigest {
			var err error
			if missed, err = s.catchUp(m, p.Name, p.Told, sub.Number-1, lang); err != nil {
				return nil, err
			}
			if err := s.tx.SetNotify(ctx, g.ID, i, p.Notify, len(m.Record.Moves), p.DigestNext); err != nil {
				return nil, err
			}
		}
		write := func() string {
			var b strings.Builder
			// The news, the state text and the board: one allocation.
			b.Grow(len(board(i)) + 2048)
			if missed != "" {
				fmt.Fprintf(&b, pick(fr, "The moves since your last mail:\n%s\n", "Les coups depuis votre dernier courrier :\n%s\n"), missed)
			}
			switch {
			case p.Name == sub.Player && byPolicy:
				fmt.Fprintf(&b, pick(fr, "Your step did not come in time: herald played move %d for you, by\nthe host's policy (%s):\n",
					"Votre étape n'est pas arrivée à temps : herald a joué le coup %d pour\nvous, selon le choix de l'hôte (%s) :\n"), sub.Number, policy)
				for _, mv := range sub.Moves {
					fmt.Fprintf(&b, "  %s\n", tm.Game.StepIn(mv.String(), lang))
				}
				b.WriteString(seal.confirmation(lang))
			case byPolicy:
				fmt.Fprintf(&b, pick(fr, "%s's step did not come in time: herald played move %d for them,\nby the host's policy:\n",
					"L'étape de %s n'est pas arrivée à temps : herald a joué le coup %d\npour ce joueur, selon le choix de l'hôte :\n"), sub.Player, sub.Number)
				for j := range sub.Moves {
					fmt.Fprintf(&b, "  %s\n", tm.StepText(sub, j, p.Name, lang))
				}
			case p.Name == sub.Player:
				fmt.Fprintf(&b, pick(fr, "Your move %d was applied:\n", "Votre coup %d a été appliqué :\n"), sub.Number)
				for _, mv := range sub.Moves { // in the reader's words: "plaine château f5"
					fmt.Fprintf(&b, "  %s\n", tm.Game.StepIn(mv.String(), lang))
				}
				for _, st := range sub.Dropped { // an end after the turn ended by itself, as herald read it
					if sub.Lang == notation.French {
						fmt.Fprintf(&b, "  (ignoré : %s ; le tour était déjà fini de lui-même)\n", st.Text)
					} else {
						fmt.Fprintf(&b, "  (ignored: %s; the turn had already ended by itself)\n", st.Text)
					}
				}
				b.WriteString(IgnoredNote(ignored, sub.Lang))
				b.WriteString(seal.confirmation(lang))
			default:
				fmt.Fprintf(&b, pick(fr, "%s played move %d:\n", "%s a joué le coup %d :\n"), sub.Player, sub.Number)
				for j := range sub.Moves {
					// A sealed bid reads "alice has bid" to the others.
					fmt.Fprintf(&b, "  %s\n", tm.StepText(sub, j, p.Name, lang))
				}
			}
			b.WriteString(seal.reveal(lang))
			// The moves the game played itself right after (Henri's turn), each
			// step with the rule of the automaton that chose it.
			// The bots' moves after it too (RULINGS.md H-6), each step with
			// the search's reason.
			for _, a := range sub.Auto {
				fmt.Fprintf(&b, pick(fr, "\n%s played move %d:\n", "\n%s a joué le coup %d :\n"), botLabel(tg, a, lang), a.Number)
				for j := range a.Moves {
					fmt.Fprintf(&b, "  %s%s\n", tm.StepText(a, j, p.Name, lang), reasonOf(tg, a, j, lang))
				}
			}
			b.WriteString("\n")
			s.writeStateText(&b, tg, tm, p.Name, board(i), lang)
			if finished {
				fmt.Fprintf(&b, pick(fr, "\nThe seed was:\n  %q\nIts sha256, announced at the start:\n  %s\nThe full record is attached; check every move with:\n  herald adjudicate %s\n",
					"\nLa graine était :\n  %q\nSon sha256, annoncé au début :\n  %s\nL'enregistrement complet est joint ; vérifiez chaque coup avec :\n  herald adjudicate %s\n"),
					tg.Record.Seed, tg.Record.SeedSHA256, RecordName(tg.ID, tg.Record.Game))
			}
			return b.String()
		}
		what := "move applied"
		if p.Name != sub.Player {
			what = fmt.Sprintf("%s played move %d", sub.Player, sub.Number)
		}
		if mustAct {
			what = "your turn" // the mover's too, while their turn goes on
		}
		if finished {
			what = "game over"
		}
		n := s.notice(g, m, p.Address, p.Name, News, what, "")
		if s.apart {
			n.Write, n.Drawing = write, pics.drawing(lang)
		} else {
			n.Text, n.Picture = write(), pics.in(lang)
		}
		n.InReplyTo, n.Record, n.Lang = p.Address == req.From, finished, lang
		notices = append(notices, n)
	}
	// The host who does not play gets the end too: the public board, the
	// revealed seed and the record.
	if finished && g.Host != "" && seatOf(g, g.Host) == "" {
		lang := HostLang(g) // the language of the mail that started the game, or of their last
		body := fmt.Sprintf(pick(lang == notation.French, "Game %s, which you host, is over: %s.\nScores: %s\n\n%s\nThe seed was:\n  %q\nIts sha256, announced at the start:\n  %s\nThe full record is attached; check every move with:\n  herald adjudicate %s\n",
			"La partie %s, dont vous êtes l'hôte, est finie : %s.\nScores : %s\n\n%s\nLa graine était :\n  %q\nSon sha256, annoncé au début :\n  %s\nL'enregistrement complet est joint ; vérifiez chaque coup avec :\n  herald adjudicate %s\n"),
			Tag(g.ID), m.State.Result().SummaryIn(lang), adjudicator.FormatScores(m.Seats(), m.State.Scores()), adjudicator.TextIn(m.State, "", lang),
			g.Record.Seed, g.Record.SeedSHA256, RecordName(g.ID, g.Record.Game))
		n := s.notice(g, m, g.Host, "", GameOver, "game over", body)
		n.Record, n.Picture, n.Lang = true, pics.in(lang), lang
		notices = append(notices, n)
	}
	return notices, nil
}

// newsSnapshot returns copies of g and m for the texts of a move's news
// written apart (Notice.Write): the requests after it may play on m, and
// change what g points to, while they are written.
func newsSnapshot(g *Game, m *adjudicator.Match) (*Game, *adjudicator.Match) {
	sm := m.Snapshot()
	gs := *g
	gs.Players = slices.Clone(g.Players)
	if g.Clock != nil {
		c := *g.Clock
		gs.Clock = &c
	}
	gs.Record = sm.Record
	return &gs, sm
}

// overText says how game g, over, ended: "kate resigned", "the host
// abandoned it", or its status. g.Record must be read.
func overText(g *Game) string {
	e := g.Record.Ended
	switch {
	case e == nil:
		return g.Status
	case e.How == adjudicator.EndAbandoned:
		return "the host abandoned it"
	case strings.HasPrefix(e.Source, forfeitSource):
		return e.By + " forfeited"
	}
	return e.By + " resigned"
}

// overTextFR is overText in French.
func overTextFR(g *Game) string {
	e := g.Record.Ended
	switch {
	case e == nil && g.Status == Finished:
		return "finie selon les règles"
	case e == nil:
		return g.Status
	case e.How == adjudicator.EndAbandoned:
		return "l'hôte l'a annulée"
	case strings.HasPrefix(e.Source, forfeitSource):
		return e.By + " a perdu par forfait"
	}
	return e.By + " a abandonné"
}

// policyMark is what the history adds to a move the host's policy played
// for its player.
func policyMark(mv adjudicator.RecordMove) string {
	if ByPolicy(mv) {
		return "  (played for them by the host's policy)"
	}
	return ""
}

// sealNews is what a move says of sealed steps: the commitments of the
// mover's (for the mover alone) and the steps it revealed (for everyone).
type sealNews struct {
	commits, revealed []adjudicator.SealCommit
	game              *adjudicator.Game // for the steps in the reader's words
}

// confirmation tells the mover, in lang, what herald holds of their
// sealed steps that stay sealed; a step the same move reveals (the last
// bid in) is in the reveal, with its nonce.
func (sn sealNews) confirmation(lang notation.Lang) string {
	var b strings.Builder
	for _, c := range sn.commits {
		if slices.Contains(sn.revealed, c) {
			continue
		}
		if b.Len() == 0 {
			b.WriteString(pick(lang == notation.French, "\nSealed, hidden from the others until the rules reveal it; herald's\ncommitment to each step (the reveal gives the nonce that checks it):\n",
				"\nScellée, cachée aux autres jusqu'à ce que les règles la révèlent ;\nl'engagement de herald sur chaque étape (la révélation donne le nonce\nqui le vérifie) :\n"))
		}
		// A hash alone on its line fits 72 columns. The commitment is to
		// the step as the notation writes it, in English: a step read in
		// French words says which text it commits to.
		if words := sn.game.StepIn(c.Text, lang); words != c.Text {
			fmt.Fprintf(&b, "  %s, engagement sur « %s », sha256 :\n    %s\n", words, c.Text, c.Hash)
		} else {
			fmt.Fprintf(&b, pick(lang == notation.French, "  %s, sha256:\n    %s\n", "  %s, sha256 :\n    %s\n"), c.Text, c.Hash)
		}
	}
	return b.String()
}

// reveal gives, in lang, every sealed step a move revealed, with its
// nonce and commitment.
func (sn sealNews) reveal(lang notation.Lang) string {
	if len(sn.revealed) == 0 {
		return ""
	}
	fr := lang == notation.French
	var b strings.Builder
	b.WriteString(pick(fr, "\nThe sealed steps are revealed; each with its nonce and commitment:\n", "\nLes étapes scellées sont révélées, chacune avec son nonce et son\nengagement :\n"))
	for _, c := range sn.revealed {
		fmt.Fprintf(&b, pick(fr, "  move %d, %s: %s\n    nonce %s, sha256:\n    %s\n", "  coup %d, %s : %s\n    nonce %s, sha256 :\n    %s\n"), c.Move, c.Player, c.Text, c.Nonce, c.Hash)
	}
	b.WriteString(pick(fr, "Check one: printf '%s\\n%s' 'STEP' NONCE | sha256sum\n", "Pour en vérifier une : printf '%s\\n%s' 'ÉTAPE' NONCE | sha256sum\n"))
	return b.String()
}

// resent reports whether steps, refused, are player's last move in m
// sent again (a mail program that sends a mail twice, each with its own
// Message-ID), and returns its number and record: each step read in the
// game as it stood before that move gives the step recorded.
func (s *Session) resent(m *adjudicator.Match, player string, steps []*notation.Step) (int, adjudicator.RecordMove, bool) {
	i := len(m.Record.Moves) - 1
	for i >= 0 && m.Record.Moves[i].Player != player {
		i--
	}
	if i < 0 || len(steps) == 0 {
		return 0, adjudicator.RecordMove{}, false
	}
	mv := m.Record.Moves[i]
	recorded := strings.Split(strings.TrimRight(mv.Text, "\n"), "\n")
	if len(recorded) != len(steps) {
		return 0, adjudicator.RecordMove{}, false
	}
	rec := *m.Record
	rec.Moves, rec.Undone, rec.Ended = rec.Moves[:i:i], nil, nil
	before, err := adjudicator.Start(s.h.cfg.Registry, &rec)
	if err != nil {
		return 0, adjudicator.RecordMove{}, false
	}
	for j, st := range steps {
		p, err := before.State.Parse(player, st)
		if err != nil || p.String() != recorded[j] {
			return 0, adjudicator.RecordMove{}, false
		}
	}
	return i + 1, mv, true
}

// alreadyApplied answers a move sent again (resent): it was applied
// once, as move n, and nothing changed.
func (s *Session) alreadyApplied(g *Game, m *adjudicator.Match, req Request, player string, n int, mv adjudicator.RecordMove, lang notation.Lang, ignored []notation.IgnoredLine) Reply {
	when := ""
	if t, err := time.Parse(time.RFC3339, mv.Time); err == nil {
		when = t.UTC().Format("15:04 UTC")
		if t.UTC().Format(time.DateOnly) != s.now.UTC().Format(time.DateOnly) {
			when = t.UTC().Format("2006-01-02 15:04 UTC")
		}
	}
	var b strings.Builder
	if lang == notation.French {
		if when != "" {
			when = "à " + when + ", "
		}
		fmt.Fprintf(&b, "Ce coup a déjà été appliqué (%scoup %d) ; rien n'a changé.\nVotre courrier en est une seconde copie, que votre logiciel de\ncourrier a sans doute envoyée deux fois.\n", when, n)
	} else {
		if when != "" {
			when = "at " + when + ", "
		}
		fmt.Fprintf(&b, "This move was already applied (%smove %d); nothing changed.\nYour mail is a second copy of it, which your mail program likely\nsent twice.\n", when, n)
	}
	if note := IgnoredNote(ignored, lang); note != "" {
		b.WriteString(note)
	}
	b.WriteString("\n")
	s.writeStateText(&b, g, m, player, m.State.Text(player), lang)
	return s.answer(g, m, req, Answer, "move already applied", b.String(), fmt.Sprintf("move %d sent again", n))
}

// refuse answers the sender alone: what was wrong, where, the rule, and
// the board as it still stands.
func (s *Session) refuse(g *Game, m *adjudicator.Match, req Request, player string, err error, lang notation.Lang, ignored []notation.IgnoredLine) Reply {
	var b strings.Builder
	if lang == notation.French {
		b.WriteString("Votre coup n'a pas été appliqué ; rien n'a changé.\n\n")
	} else {
		b.WriteString("Your move was not applied; nothing changed.\n\n")
	}
	b.WriteString(adjudicator.Pretty(err, lang))
	b.WriteString("\n")
	if note := IgnoredNote(ignored, lang); note != "" {
		b.WriteString(note[1:] + "\n")
	}
	s.writeStateText(&b, g, m, player, m.State.Text(player), lang)
	rep := s.answer(g, m, req, Refusal, "move refused", b.String(), err.Error())
	// Its frame (the subject, the transport's words) in the language of
	// its text: French steps refused in a mail of no other French words
	// had an English subject.
	rep.Notices[0].Lang = lang
	return rep
}

// commands answers show, legal, help and history, to the sender alone.
func (s *Session) commands(g *Game, m *adjudicator.Match, req Request, player string, ignored []notation.IgnoredLine) (Reply, error) {
	env := req.Env
	fr := env.Lang == notation.French
	var b strings.Builder
	var names []string
	for _, c := range env.Commands {
		names = append(names, c.Name)
		switch c.Name {
		case "show":
			s.writeStateText(&b, g, m, player, m.State.Text(player), env.Lang)
		case "legal":
			legal := m.State.Legal(player)
			if len(legal) == 0 {
				fmt.Fprintf(&b, pick(fr, "You have no step to take now: waiting for %s.\n", "Vous n'avez aucune étape à jouer : on attend %s.\n"), strings.Join(m.State.ToMove(), ", "))
			}
			for _, mv := range legal {
				fmt.Fprintf(&b, "%s\n", mv)
			}
		case "history":
			// Through TurnHistory, so that a bid still sealed reads "has
			// bid" to everyone but alice, beside her name in its column
			// (not "alice  alice has bid").
			texts, err := m.TurnHistory(s.h.cfg.Registry, player, env.Lang)
			if err != nil {
				return Reply{}, err
			}
			for i, mv := range m.Record.Moves {
				fmt.Fprintf(&b, "%3d  %-12s %s%s\n", i+1, mv.Player, texts[i], policyMark(mv))
			}
			if len(m.Record.Moves) == 0 {
				b.WriteString(pick(fr, "No move yet.\n", "Aucun coup encore.\n"))
			}
		case "abandon":
			b.WriteString(pick(fr, "Only the host may abandon a game; a player may resign.\n", "Seul l'hôte peut annuler une partie ; un joueur peut abandonner.\n"))
		case "hint":
			b.WriteString(s.hint(g, m, player, env.Lang))
		default:
			b.WriteString(Help(env.Lang))
			// And the game's own notation, in the mail's language.
			notes := m.Game.Help
			if env.Lang == notation.French && m.Game.HelpFR != "" {
				notes = m.Game.HelpFR
			}
			b.WriteString("\n" + strings.TrimRight(notes, "\n") + "\n")
		}
		if len(c.Args) > 0 {
			// "show zzz", "help me please": the command was read, its
			// words after it were not; say so.
			name := c.Name
			if fr {
				name = commandsFR[name]
			}
			fmt.Fprintf(&b, pick(fr, "(Line %d: %s takes nothing after it; ignored: %s)\n", "(Ligne %d : %s ne prend rien après lui ; ignoré : %s)\n"),
				c.Pos.Line, name, VisibleText(strings.Join(c.Args, " "), 60))
		}
		b.WriteString("\n")
	}
	if len(names) == 0 {
		b.WriteString(pick(fr, "Your mail held no steps and no command.\n\n", "Votre courrier ne contenait ni étape ni commande.\n\n") + Help(env.Lang))
		names = []string{"help"}
	}
	b.WriteString(IgnoredNote(ignored, env.Lang))
	rep := s.answer(g, m, req, Answer, strings.Join(names, ", "), b.String(), strings.Join(names, ","))
	if slices.Contains(names, "show") {
		rep.Notices[0].Picture = s.pictureIn(g, m, rep.Notices[0].Lang)
	}
	return rep, nil
}

// end ends a game by resignation or by the host abandoning it: no result
// by the rules; everyone gets the board, the revealed seed and the record.
func (s *Session) end(ctx context.Context, g *Game, m *adjudicator.Match, req Request, player, how string) (Reply, error) {
	if how == "resign" && player == "" {
		body := pick(req.Env != nil && req.Env.Lang == notation.French, "You host this game but do not play in it, so you cannot resign;\nwrite abandon to end the game.\n",
			"Vous êtes l'hôte de cette partie sans y jouer : vous ne pouvez donc\npas abandonner ; écrivez annule pour terminer la partie.\n")
		return s.answer(g, m, req, Refusal, "not a player", body, "host resigned"), nil
	}
	// The record holds the ending (who, when, by which request), so that
	// adjudicate reports it. A copy: the cached match must not see it
	// unless the transaction commits.
	ended := *m
	rec := *m.Record
	ended.Record = &rec
	var err error
	if how == "abandon" {
		err = ended.Abandon(req.From, s.now.Format(time.RFC3339), req.Source)
	} else { // resign, or forfeit by the host's policy
		err = ended.Resign(player, s.now.Format(time.RFC3339), req.Source)
	}
	if err != nil {
		return s.refuse(g, m, req, player, err, notation.English, nil), nil
	}
	status := map[string]string{"abandon": Abandoned, "resign": Resigned, "forfeit": Forfeited}[how]
	if err := s.tx.SaveGame(ctx, g.ID, ended.Record, status); err != nil {
		return Reply{}, err
	}
	g.Record = ended.Record
	why, more := fmt.Sprintf("%s resigned", player), ""
	switch how {
	case "abandon":
		why = "the host abandoned it"
	case "forfeit":
		why = fmt.Sprintf("%s forfeited", player)
		more = fmt.Sprintf("No move came from %s by the deadline and its grace.\n", player)
	}
	whyFR, moreFR := player+" a abandonné", ""
	switch how {
	case "abandon":
		whyFR = "l'hôte l'a annulée"
	case "forfeit":
		whyFR = player + " a perdu par forfait"
		moreFR = fmt.Sprintf("Aucun coup de %s n'est arrivé avant l'échéance et sa grâce.\n", player)
	}
	g.Status = status
	pics := s.pictures(g, &ended)
	var notices []Notice
	for _, p := range s.everyone(g) {
		lang := noticeLang(p)
		if p.Address == req.From && req.Env != nil {
			lang = req.Env.Lang
		}
		body := fmt.Sprintf("Game %s has ended: %s. It has no result by the rules.\n%sScores as the board stands: %s\n\n%s\nThe seed was:\n  %q\nIts sha256, announced at the start:\n  %s\nThe record is attached.\n",
			Tag(g.ID), why, more, adjudicator.FormatScores(m.Seats(), m.State.Scores()), ended.BoardText(p.Name), g.Record.Seed, g.Record.SeedSHA256)
		if lang == notation.French {
			body = fmt.Sprintf("La partie %s est terminée : %s.\nElle n'a pas de résultat selon les règles.\n%sScores selon le plateau : %s\n\n%s\nLa graine était :\n  %q\nSon sha256, annoncé au début :\n  %s\nL'enregistrement est joint.\n",
				Tag(g.ID), whyFR, moreFR, adjudicator.FormatScores(m.Seats(), m.State.Scores()), ended.BoardTextIn(p.Name, lang), g.Record.Seed, g.Record.SeedSHA256)
		}
		n := s.notice(g, &ended, p.Address, p.Name, EndedBy, "game ended", body)
		n.Record, n.Picture, n.Lang = true, pics.in(lang), lang
		notices = append(notices, n)
	}
	obs, langs, err := s.observers(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	for _, a := range obs { // each in the language they observed in
		lang := storedLang(langs[a])
		body := fmt.Sprintf("Game %s, which you observe, has ended: %s. It has no result by the rules.\nScores as the board stands: %s\n\n%s\nThe seed was:\n  %q\nIts sha256, announced at the start:\n  %s\nThe record is attached.\n",
			Tag(g.ID), why, adjudicator.FormatScores(m.Seats(), m.State.Scores()), ended.BoardText(""), g.Record.Seed, g.Record.SeedSHA256)
		if lang == notation.French {
			body = fmt.Sprintf("La partie %s, que vous observez, est terminée : %s.\nElle n'a pas de résultat selon les règles.\nScores selon le plateau : %s\n\n%s\nLa graine était :\n  %q\nSon sha256, annoncé au début :\n  %s\nL'enregistrement est joint.\n",
				Tag(g.ID), whyFR, adjudicator.FormatScores(m.Seats(), m.State.Scores()), ended.BoardTextIn("", lang), g.Record.Seed, g.Record.SeedSHA256)
		}
		n := s.notice(g, &ended, a, "", EndedBy, "game ended", body)
		n.Record, n.Picture, n.Lang = true, pics.in(lang), lang
		notices = append(notices, n)
	}
	return Reply{Outcome: Ended, Game: g.ID, Reason: why, Notices: notices}, nil
}

// LangFrench is Player.Lang for a player who chose French ("lang fr"),
// LangEnglish for one who chose English; "" is no choice: each answer is
// in the language of the mail it answers (notation.Envelope.Lang), the
// other mails in the language of their last mail that said which
// (Player.MailLang), else English.
const (
	LangFrench  = "fr"
	LangEnglish = "en"
)

// playerLang is the language of herald's mails to p: the one they chose,
// else detected (the language of the mail answered, or English).
func playerLang(p Player, detected notation.Lang) notation.Lang {
	switch p.Lang {
	case LangFrench:
		return notation.French
	case LangEnglish:
		return notation.English
	}
	return detected
}

// noticeLang is the language of herald's mails to p that answer no mail
// of theirs (the news of others' moves, reminders): the one they chose,
// else the one their last mail that said which was written in
// (Player.MailLang), else English.
func noticeLang(p Player) notation.Lang {
	return playerLang(p, storedLang(p.MailLang))
}

// storedLang is a language as the store keeps it: LangFrench, or "" (and
// anything else) for English.
func storedLang(v string) notation.Lang {
	if v == LangFrench {
		return notation.French
	}
	return notation.English
}

// langValue is lang as the store keeps it: LangFrench, or "" for English.
func langValue(lang notation.Lang) string {
	if lang == notation.French {
		return LangFrench
	}
	return ""
}

// HostLang is the language of herald's mails to the host of g: their
// seat's (noticeLang) when they play, else the one their mails were
// written in (Game.HostLang: the mail that started the game, then their
// last mail that said which).
func HostLang(g *Game) notation.Lang {
	for _, p := range g.Players {
		if p.Address == g.Host {
			return noticeLang(p)
		}
	}
	return storedLang(g.HostLang)
}

// noteMailLang remembers lang as the language of the last mail of seat in
// g that said which (Player.MailLang), for the mails to come: the store
// is written only when it changes, never for each mail.
func (s *Session) noteMailLang(ctx context.Context, g *Game, seat int, lang notation.Lang) error {
	if seat < 0 || seat >= len(g.Players) || g.Players[seat].MailLang == langValue(lang) {
		return nil
	}
	if err := s.tx.SetMailLang(ctx, g.ID, seat, langValue(lang)); err != nil {
		return err
	}
	g.Players = slices.Clone(g.Players)
	g.Players[seat].MailLang = langValue(lang)
	return nil
}

// noteHostLang is noteMailLang for the host of g who plays no seat
// (Game.HostLang).
func (s *Session) noteHostLang(ctx context.Context, g *Game, lang notation.Lang) error {
	if g.HostLang == langValue(lang) {
		return nil
	}
	if err := s.tx.SetHostLang(ctx, g.ID, langValue(lang)); err != nil {
		return err
	}
	g.HostLang = langValue(lang)
	return nil
}

// pick is en, or frText when fr is set: a text of the mail frame in the
// reader's language.
func pick(fr bool, en, frText string) string {
	if fr {
		return frText
	}
	return en
}

// setLang is "lang fr" (French "langue fr"): the language of herald's
// mails to the sender in this game, "fr" or "en" ("auto" for the
// language of each mail). The answer is in the language chosen, text and
// frame (Notice.Lang: the subject, the transport's words around it).
func (s *Session) setLang(ctx context.Context, g *Game, m *adjudicator.Match, req Request, args []string) (Reply, error) {
	if req.Seat < 0 {
		body := pick(req.Env != nil && req.Env.Lang == notation.French,
			"You host this game without playing, and lang is a player's choice:\nherald writes to you in the language of your last mail that said which.\n",
			"Vous êtes l'hôte de cette partie sans y jouer, et langue est un choix\nde joueur : herald vous écrit dans la langue de votre dernier courrier\nqui disait laquelle.\n")
		return s.answer(g, m, req, Refusal, "lang refused", body, "lang by the host"), nil
	}
	choice := ""
	if len(args) == 1 {
		switch lang, ok := notation.LangNamed(args[0]); {
		case ok && lang == notation.French:
			choice = LangFrench
		case ok:
			choice = LangEnglish
		case notation.Fold(args[0]) == "auto":
			choice = "auto"
		}
	}
	if choice == "" {
		body := "herald did not understand your lang line. Write, on a line of its own,\nlang fr (French), lang en (English) or lang auto (the language of\neach mail you send).\n\nherald n'a pas compris votre ligne langue. Écrivez, seule sur sa\nligne, langue fr (français), langue en (anglais) ou langue auto (la\nlangue de chaque courrier que vous envoyez).\n"
		return s.answer(g, m, req, Refusal, "lang refused", body, "bad lang"), nil
	}
	if choice == "auto" {
		choice = ""
	}
	if err := s.tx.SetLang(ctx, g.ID, req.Seat, choice); err != nil {
		return Reply{}, err
	}
	g.Players[req.Seat].Lang = choice
	if req.Env != nil {
		// This answer is the first in the language chosen (auto: the
		// mail's, or the last that said which), its frame as its text.
		env := *req.Env
		env.Lang = noticeLang(g.Players[req.Seat])
		req.Env = &env
	}
	var body string
	switch choice {
	case LangFrench:
		body = fmt.Sprintf("herald vous écrira désormais en français dans la partie %s (les\nplateaux et les étapes restent dans la notation du jeu). Pour revenir\nà l'anglais : langue en.\n", Tag(g.ID))
	case LangEnglish:
		body = fmt.Sprintf("herald will now write to you in English in game %s. For French:\nlang fr.\n", Tag(g.ID))
	case "":
		if req.Env != nil && req.Env.Lang == notation.French {
			body = fmt.Sprintf("herald répondra désormais à chacun de vos courriers de la partie %s\ndans sa langue (en français s'il contient des mots français), et\nécrira ses autres courriers dans la langue du dernier qui disait\nlaquelle.\n", Tag(g.ID))
		} else {
			body = fmt.Sprintf("herald will now answer each of your mails in game %s in its language\n(French when it holds French words), and write its other mails in\nthe language of your last mail that said which.\n", Tag(g.ID))
		}
	}
	return s.answer(g, m, req, Answer, "lang", body, "lang "+cmp.Or(choice, "auto")), nil
}

// Help is the short help on what to write.
func Help(lang notation.Lang) string {
	if lang == notation.French {
		return "Écrivez vos étapes, une par ligne, après votre clé (clé VOTRE-CLÉ).\n" + commandList(lang) +
			"Un fichier de tour YAML (game, player, move, steps) peut être joint.\n"
	}
	return "Write your steps, one per line, after your key (key YOUR-KEY).\n" + commandList(lang) +
		"A YAML turn file (game, player, move, steps) may be attached instead.\n"
}

// commandList lists every command a player may write, each with what it
// does, in lang.
func commandList(lang notation.Lang) string {
	if lang == notation.French {
		return `Commandes, une par ligne :
  montre                  le plateau et vos étapes possibles
  coups                   toutes vos étapes possibles
  historique              les coups joués
  aide                    cette aide
  abandonne               abandonner la partie
  reprendre               demander à reprendre votre dernier coup
                          (reprendre accepte, reprendre refuse)
  avis tout|tour|quotidien  combien de courrier vous voulez
  vacances 5j             suspendre votre délai (vacances fin)
  essai ÉTAPES            essayer des étapes sans les jouer
  observer G12            suivre une autre partie
  langue fr|en            la langue des courriers de herald
`
	}
	return `Commands, one per line:
  show                    the board and your legal steps
  legal                   all your legal steps
  history                 the moves played
  help                    this help
  resign                  give up the game
  undo                    ask to take back your last move
                          (undo accept, undo refuse)
  notify all|turn|digest  how much mail you want
  vacation 5d             pause your deadline (vacation off)
  preview STEPS           try steps without playing them
  observe G12             follow another game
  lang en|fr              the language of herald's mails to you
`
}
