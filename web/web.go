// Package web serves a read-only page for each game: the board as everyone
// may see it, the scores, whose turn it is and until when, the moves, and
// the record to download. It is a transport of the host layer, like mail:
// it reads games through the store interface (adjudicator/host) and shows
// only the public view, never a hand, a key, a token or a sealed bid.
//
// Each game's page lives at /g/TOKEN, where TOKEN is unguessable and given
// in the welcome mails; the host may make it public (listed at /) or turn
// it off. /g/TOKEN/move/N replays the game: the board as everyone saw it
// after move N (0: the start), the squares that move changed marked, with
// links to the first, previous, next and last moves. The history groups
// the moves by turn, each with its time, every move a link to its replay,
// and says which moves were taken back. A page is in French for a
// browser that asks for French first, or at ?lang=fr (the address French
// mails give), its board, picture and history in the game's French words;
// so is the list of public games at /.
//
// The pages are plain server-rendered HTML (html/template), with no
// script and no form, and fit a phone's width. A game in play reloads
// itself every few seconds (a meta refresh); a reload costs a 304 when
// nothing changed (ETag, Last-Modified), answered from the stored game
// alone, without replaying it. A game over and a move replayed do not
// reload. A server-sent event stream would show a move sooner, but it
// needs a script (EventSource), which the pages' policy forbids, and
// holds a connection per viewer open; BenchmarkRefresh measures what a
// reload costs instead.
//
// Departure from DESIGN.md's top-level layout: web/ is a new top-level
// package beside mail/, because the page is a second transport of host
// and belongs to neither mail nor cmd.
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/notation"
)

// Reader is what the pages need of the store: reads only.
type Reader interface {
	GameByPage(ctx context.Context, token string) (*host.Game, error)
	PublicPages(ctx context.Context) ([]host.PageSummary, error)
}

// Server serves the pages.
type Server struct {
	store Reader
	reg   *adjudicator.Registry
	log   *slog.Logger
}

// New returns a server of the games of store.
func New(store Reader, reg *adjudicator.Registry, log *slog.Logger) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{store: store, reg: reg, log: log}
}

// PagePath is the path of the page of a game whose page token is token.
func PagePath(token string) string { return "/g/" + token }

// MovePath is the path of the replay of move n (0: the start) of the game
// whose page token is token.
func MovePath(token string, n int) string { return PagePath(token) + "/move/" + strconv.Itoa(n) }

// ServeHTTP serves / (the public pages), /g/TOKEN, /g/TOKEN/board.svg,
// /g/TOKEN/move/N, /g/TOKEN/move/N/board.svg and /g/TOKEN/record.yaml;
// GET and HEAD only.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// No script, no frame, no referrer: the address holds the token.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "herald's pages are read-only", http.StatusMethodNotAllowed)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/g/")
	token, sub, _ := strings.Cut(rest, "/")
	switch {
	case r.URL.Path == "/":
		s.index(w, r)
	case !ok || token == "":
		http.NotFound(w, r)
	case sub == "":
		s.page(w, r, token, -1)
	case sub == "record.yaml":
		s.record(w, r, token)
	case sub == "board.svg":
		s.picture(w, r, token, -1)
	case strings.HasPrefix(sub, "move/"):
		num, svg := strings.CutSuffix(strings.TrimPrefix(sub, "move/"), "/board.svg")
		n, err := strconv.Atoi(num)
		if err != nil || n < 0 || strconv.Itoa(n) != num {
			http.NotFound(w, r)
			return
		}
		if svg {
			s.picture(w, r, token, n)
		} else {
			s.page(w, r, token, n)
		}
	default:
		http.NotFound(w, r)
	}
}

// BoardCols is the width of the board's text, its longest line in
// characters: the page sizes the board's font to it on a narrow screen,
// so that the board fits the screen's width rather than scroll sideways.
func (v *view) BoardCols() int {
	most := 0
	for line := range strings.Lines(v.Board) {
		most = max(most, utf8.RuneCountInString(strings.TrimRight(line, "\n")))
	}
	return max(most, 1)
}

// view is what a game's page shows.
type view struct {
	W                  words // the page's own words, in its language
	Tag, Title, Status string
	Move               int
	ToMove             string
	Deadline           string
	Over               bool
	Result             string
	Scores             []score
	Board              string
	Turns              []turn   // the history, by turn
	Undone             []undone // the moves taken back
	Picture            string   // the board's picture, when the game draws one
	Record             bool     // the record can be downloaded now
	RecordNote         string   // why not, when it cannot
	RecordHref         string
	Updated            string
	Refresh            int    // seconds between reloads; 0: none
	Replay             bool   // a move replayed, not the game as it stands
	At, Of             int    // the move shown, and the moves played
	Nav                []link // first, previous, next, last
	Live               string // the game as it stands
	StatusLine         string // where the game stands (or stood, in a replay)
}

// words are a page's own words, in English or in French: the page of a
// game is in French for a browser that asks for French first
// (Accept-Language) or for ?lang=fr, the address herald's French mails
// give; its board and history are the game's French ones
// (adjudicator.LangTexter, Game.StepIn).
type words struct {
	Lang, AllGames, AsItStands, Player, Points, BoardOf, AfterMove, History, NoMove, TakenBack string
	MoveN, MovesN, By, AtRequestOf, Record, WithSeed, WithoutSeed, CheckIt, Updated, Reloads   string
	PublicGames, NoPublicGame                                                                  string // the list of public games'
	Query                                                                                      string // "?lang=fr" on the links of a page asked for so, else ""
}

var english = words{Lang: "en", AllGames: "All public games", AsItStands: "as it stands", Player: "Player", Points: "Points",
	BoardOf: "the board of", AfterMove: "after move", History: "History", NoMove: "No move yet.", TakenBack: "Taken back",
	MoveN: "move", MovesN: "moves", By: "by", AtRequestOf: "taken back at the request of", Record: "The record",
	WithSeed: "with the seed, revealed", WithoutSeed: "without the seed, secret until the end", CheckIt: "check it with",
	Updated: "Updated", Reloads: "This page reloads itself every %d seconds while the game is in play.",
	PublicGames: "herald: public games", NoPublicGame: "No game is public here."}

var french = words{Lang: "fr", AllGames: "Toutes les parties publiques", AsItStands: "telle qu'elle est", Player: "Joueur", Points: "Points",
	BoardOf: "le plateau de", AfterMove: "après le coup", History: "Historique", NoMove: "Aucun coup encore.", TakenBack: "Repris",
	MoveN: "coup", MovesN: "coups", By: "de", AtRequestOf: "repris à la demande de", Record: "L'enregistrement",
	WithSeed: "avec la graine, révélée", WithoutSeed: "sans la graine, secrète jusqu'à la fin", CheckIt: "vérifiez-le avec",
	Updated: "Mis à jour le", Reloads: "Cette page se recharge toutes les %d secondes tant que la partie se joue.",
	PublicGames: "herald : parties publiques", NoPublicGame: "Aucune partie n'est publique ici."}

// wordsIn returns a page's words in lang; query, when the page's language
// came from its address (?lang=), keeps it on the page's links.
func wordsIn(lang notation.Lang, query bool) words {
	w := english
	if lang == notation.French {
		w = french
	}
	if query {
		w.Query = "?lang=" + w.Lang
	}
	return w
}

// statusFR is a game's status (host.Game.Status) in French.
var statusFR = map[string]string{host.Playing: "en cours", host.Finished: "finie", host.Abandoned: "annulée",
	host.Resigned: "abandonnée", host.Forfeited: "perdue par forfait"}

// pageLang is the language a request asks a page in: ?lang=fr or ?lang=en,
// else French when the browser names French before English
// (Accept-Language), else English. query says it came from the address,
// whose links then keep it.
func pageLang(r *http.Request) (lang notation.Lang, query bool) {
	switch r.URL.Query().Get("lang") {
	case "fr":
		return notation.French, true
	case "en":
		return notation.English, true
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(q) == "q=0" {
			continue
		}
		switch tag = strings.ToLower(strings.TrimSpace(tag)); {
		case tag == "fr" || strings.HasPrefix(tag, "fr-"):
			return notation.French, false
		case tag == "en" || strings.HasPrefix(tag, "en-"):
			return notation.English, false
		}
	}
	return notation.English, false
}

type score struct {
	Name   string
	Points int
}

// turn is a player's consecutive moves. The page names the player once,
// above them, and numbers the moves alone: the number of a move is that
// of its replay (/move/N), and a number of turns beside it would add
// nothing ("1. 1.").
type turn struct {
	Player string
	Time   string // when its last move came, or ""
	Moves  []move
}

// move is one move of a turn: its steps as the public sees them, a step
// still hidden without its subject ("keeps an A tile", not "alice keeps
// an A tile" under alice's name).
type move struct {
	N    int
	Text string
	Href string
	Now  bool // the move shown
}

// undone is moves taken back by consent: whose they were and when, not
// what they were (a step taken back may have been sealed).
type undone struct {
	From, To int
	Players  string
	By, Time string
}

// link is one of the links between replayed moves; Href "" when it leads
// nowhere (the previous of the start).
type link struct{ Text, Href string }

// refresh is how often the page of a game in play reloads, in seconds.
const refresh = 5

// game reads the game of token, or nil when there is no such page.
func (s *Server) game(ctx context.Context, token string) (*host.Game, error) {
	g, err := s.store.GameByPage(ctx, token)
	if errors.Is(err, host.ErrNoGame) {
		return nil, nil
	}
	return g, err
}

// match replays g.
func (s *Server) match(g *host.Game) (*adjudicator.Match, error) {
	m, err := adjudicator.Start(s.reg, g.Record)
	if err != nil {
		return nil, fmt.Errorf("game %d does not replay: %w", g.ID, err)
	}
	return m, nil
}

// load reads the game of token and replays it, or nil when there is no
// such page.
func (s *Server) load(ctx context.Context, token string) (*host.Game, *adjudicator.Match, error) {
	g, err := s.game(ctx, token)
	if g == nil || err != nil {
		return nil, nil, err
	}
	m, err := s.match(g)
	if err != nil {
		return nil, nil, err
	}
	return g, m, nil
}

// etag names the game as it stands: its stored revision, its moves, its
// status and its clock.
func etag(g *host.Game) string {
	clock := ""
	if g.Clock != nil {
		clock = fmt.Sprintf("-%d-%d", g.Clock.Since.Unix(), g.Clock.Deadline/time.Second)
	}
	return fmt.Sprintf(`"%d-%d-%s%s"`, g.Rev, g.Moves, g.Status, clock)
}

// fresh answers 304 when the client's copy is current. A game's page at
// a secret address (not public) is for no search engine and no shared
// cache.
func fresh(w http.ResponseWriter, r *http.Request, g *host.Game) bool {
	tag, updated := etag(g), g.Updated
	if lang, _ := pageLang(r); lang == notation.French {
		tag = strings.TrimSuffix(tag, `"`) + `-fr"` // the same game, other words
	}
	w.Header().Set("Vary", "Accept-Language")
	w.Header().Set("ETag", tag)
	w.Header().Set("Last-Modified", updated.UTC().Format(http.TimeFormat))
	w.Header().Set("Cache-Control", "no-cache")
	if g.Page != host.PagePublic {
		w.Header().Set("Cache-Control", "private, no-cache")
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		return notModified(w, inm, tag)
	}
	if ims, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil && !updated.Truncate(time.Second).After(ims) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

// notModified answers 304 when inm, the request's If-None-Match, names
// tag, the ETag of the page as it stands.
func notModified(w http.ResponseWriter, inm, tag string) bool {
	if slices.Contains(strings.Split(strings.ReplaceAll(inm, " ", ""), ","), tag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

// replayed reads the game of token and replays it, for a page or a
// picture of it as it stands (at < 0) or after move at. Where it answers
// the request itself, it returns a nil match: 404 when there is no such
// game or move, 304 when the game is unchanged since the client's copy
// (checked before the game is replayed), 500 when it fails.
func (s *Server) replayed(w http.ResponseWriter, r *http.Request, token string, at int) (*host.Game, *adjudicator.Match) {
	g, err := s.game(r.Context(), token)
	if err != nil {
		s.fail(w, err)
		return nil, nil
	}
	if g == nil || at > g.Moves {
		http.NotFound(w, r)
		return nil, nil
	}
	if fresh(w, r, g) {
		return nil, nil
	}
	m, err := s.match(g)
	if err != nil {
		s.fail(w, err)
		return nil, nil
	}
	if at > len(m.Record.Moves) {
		http.NotFound(w, r)
		return nil, nil
	}
	return g, m
}

// page serves the page of the game of token: as it stands (at < 0), or
// replayed after move at. A reload of an unchanged game is answered 304
// before the game is replayed.
func (s *Server) page(w http.ResponseWriter, r *http.Request, token string, at int) {
	g, m := s.replayed(w, r, token, at)
	if m == nil {
		return
	}
	lang, query := pageLang(r)
	v, err := s.view(g, m, token, lang, query)
	if err == nil && at >= 0 {
		err = s.replay(v, m, token, at)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, v); err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

// view builds what the page of g shows, in lang: the public view alone.
// query keeps ?lang= on the page's links.
func (s *Server) view(g *host.Game, m *adjudicator.Match, token string, lang notation.Lang, query bool) (*view, error) {
	fr := lang == notation.French
	w := wordsIn(lang, query)
	st := m.State
	res := st.Result()
	n := len(m.Record.Moves)
	v := &view{W: w, Tag: host.Tag(g.ID), Title: m.Game.Title, Status: g.Status, Move: m.MoveNumber(), Board: m.BoardTextIn("", lang), Picture: picturePath(m, token, -1, w.Query),
		Over: res.Finished || g.Status != host.Playing, RecordHref: PagePath(token) + "/record.yaml", Updated: g.Updated.UTC().Format("2006-01-02 15:04 UTC"),
		At: n, Of: n, Live: PagePath(token) + w.Query}
	if fr && m.Game.TitleFR != "" {
		v.Title = m.Game.TitleFR
	}
	switch {
	case m.Record.Ended != nil && m.Record.Ended.How == adjudicator.EndAbandoned:
		v.Result = pick(fr, "ended early: abandoned by the host", "finie avant la fin : annulée par l'hôte") // never the host's address
	case m.Record.Ended != nil:
		v.Result = pick(fr, "ended early: ", "finie avant la fin : ") + m.Record.Ended.By + pick(fr, " "+m.Record.Ended.How, " a abandonné") // resigned: the one way left
	case res.Finished:
		v.Result = res.SummaryIn(lang)
	default:
		v.ToMove = adjudicator.WaitingForIn(st, lang)
		if g.Clock != nil {
			v.Deadline = pick(fr, "Due by ", "Attendu avant le ") + g.Clock.DeadlineAt().UTC().Format("2006-01-02 15:04 UTC")
		}
	}
	switch {
	case v.Over:
		v.StatusLine = pick(fr, "Over: ", "Finie : ") + v.Result
	default:
		v.StatusLine = fmt.Sprintf(pick(fr, "Move %d: waiting for %s", "Coup %d : on attend %s"), v.Move, v.ToMove)
	}
	if !v.Over {
		v.Refresh = refresh
	}
	v.Scores = scores(m, st)
	public, err := m.TurnHistory(s.reg, "", lang)
	if err != nil {
		return nil, err
	}
	for i, rm := range m.Record.Moves {
		text := public[i]
		if host.ByPolicy(rm) {
			text += pick(fr, " (played for them by the host's policy)", " (joué pour ce joueur selon le choix de l'hôte)")
		}
		mv := move{N: i + 1, Text: text, Href: MovePath(token, i+1) + w.Query}
		if k := len(v.Turns) - 1; k >= 0 && v.Turns[k].Player == rm.Player {
			v.Turns[k].Moves = append(v.Turns[k].Moves, mv)
			v.Turns[k].Time = cmpOr(stamp(rm.Time), v.Turns[k].Time)
			continue
		}
		v.Turns = append(v.Turns, turn{Player: rm.Player, Time: stamp(rm.Time), Moves: []move{mv}})
	}
	for _, u := range m.Record.Undone {
		var who []string
		for _, um := range u.Moves {
			if !slices.Contains(who, um.Player) {
				who = append(who, um.Player)
			}
		}
		by := u.By
		if !slices.Contains(m.Record.Players, by) {
			by = pick(fr, "the host", "l'hôte") // never an address
		}
		v.Undone = append(v.Undone, undone{From: u.After + 1, To: u.After + len(u.Moves), Players: strings.Join(who, ", "), By: by, Time: stamp(u.Time)})
	}
	v.Nav = nav(token, n, n, w)
	// A step the public may not see yet (a sealed bid, a political card,
	// a sealed step taken back) is in the record as written: the record
	// waits for what the step waits for.
	v.Record = true
	var sealed *adjudicator.SealedRecordError
	if _, err := m.PublicRecord(s.reg); errors.As(err, &sealed) {
		v.Record, v.RecordNote = false, pick(fr, "The record can be downloaded once "+sealed.Until+": a step of it is sealed until then.",
			"L'enregistrement pourra être téléchargé une fois ceci fait : "+sealed.Until+" ; une étape en est scellée jusque-là.")
	} else if err != nil {
		return nil, err
	}
	return v, nil
}

// pick is en, or frText when fr is set.
func pick(fr bool, en, frText string) string {
	if fr {
		return frText
	}
	return en
}

// replay makes v, the page of the game as it stands, the replay of move
// at: the board and scores as everyone saw them after it, and whom the
// game waited for then.
func (s *Server) replay(v *view, m *adjudicator.Match, token string, at int) error {
	rec := *m.Record
	rec.Moves, rec.Ended = rec.Moves[:at], nil
	old, err := adjudicator.Start(s.reg, &rec)
	if err != nil {
		return fmt.Errorf("move %d does not replay: %w", at, err)
	}
	st := old.State
	fr := v.W.Lang == "fr"
	lang := notation.English
	if fr {
		lang = notation.French
	}
	v.Replay, v.At, v.Refresh = true, at, 0
	v.Board, v.Scores, v.Picture = adjudicator.TextIn(st, "", lang), scores(old, st), picturePath(m, token, at, v.W.Query)
	v.ToMove, v.Result, v.Deadline = "", "", ""
	where := fmt.Sprintf(pick(fr, "After move %d of %d", "Après le coup %d sur %d"), at, v.Of)
	if at == 0 {
		where = pick(fr, "The start", "Le début")
	}
	if res := st.Result(); res.Finished {
		v.Result = res.SummaryIn(lang)
		v.StatusLine = where + pick(fr, ": over: ", " : finie : ") + v.Result
	} else {
		v.ToMove = adjudicator.WaitingForIn(st, lang)
		v.StatusLine = where + pick(fr, ": waiting for ", " : on attend ") + v.ToMove
	}
	for i := range v.Turns {
		for j := range v.Turns[i].Moves {
			v.Turns[i].Moves[j].Now = v.Turns[i].Moves[j].N == at
		}
	}
	v.Nav = nav(token, at, v.Of, v.W)
	return nil
}

// nav is the links from move at of a game of n moves: to the start, the
// previous move, the next and the game as it stands.
func nav(token string, at, n int, w words) []link {
	l := []link{{Text: "first"}, {Text: "previous"}, {Text: "next"}, {Text: "last"}}
	if w.Lang == "fr" {
		l = []link{{Text: "début"}, {Text: "précédent"}, {Text: "suivant"}, {Text: "dernier"}}
	}
	if at > 0 {
		l[0].Href, l[1].Href = MovePath(token, 0)+w.Query, MovePath(token, at-1)+w.Query
	}
	if at < n {
		l[2].Href, l[3].Href = MovePath(token, at+1)+w.Query, PagePath(token)+w.Query
	}
	return l
}

func scores(m *adjudicator.Match, st adjudicator.State) []score {
	var out []score
	seats, points := m.Seats(), st.Scores()
	for i, name := range seats {
		if i < len(points) {
			out = append(out, score{name, points[i]})
		}
	}
	return out
}

// stamp writes a record's RFC 3339 time for people, or "" when it has none.
func stamp(t string) string {
	at, err := time.Parse(time.RFC3339, t)
	if err != nil {
		return ""
	}
	return at.UTC().Format("2006-01-02 15:04 UTC")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// picturePath is the address of the picture of the game of token, as it
// stands (at < 0) or after move at, with query (a page's ?lang=), or ""
// when the game draws none.
func picturePath(m *adjudicator.Match, token string, at int, query string) string {
	if _, ok := m.State.(adjudicator.Picturer); !ok {
		return ""
	}
	if at >= 0 {
		return MovePath(token, at) + "/board.svg" + query
	}
	return PagePath(token) + "/board.svg" + query
}

// picture serves the board's picture, the public view, as it stands (at <
// 0) or after move at, with the squares the last move changed marked; in
// the language of the page (pageLang), as the mails of that language
// show it (adjudicator.PictureAtIn).
func (s *Server) picture(w http.ResponseWriter, r *http.Request, token string, at int) {
	g, m := s.replayed(w, r, token, at)
	if m == nil {
		return
	}
	if at < 0 {
		at = len(m.Record.Moves)
	}
	lang, _ := pageLang(r)
	title := m.Game.Title
	if _, ok := m.State.(adjudicator.LangPicturer); ok && lang == notation.French {
		title = cmpOr(m.Game.TitleFR, title)
	}
	pic, err := adjudicator.PictureAtIn(m, at, fmt.Sprintf("%s %s", host.Tag(g.ID), title), lang)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Write(pic.SVG())
}

func (s *Server) record(w http.ResponseWriter, r *http.Request, token string) {
	g, m, err := s.load(r.Context(), token)
	if err != nil {
		s.fail(w, err)
		return
	}
	if g == nil {
		http.NotFound(w, r)
		return
	}
	if fresh(w, r, g) {
		return
	}
	lang, query := pageLang(r)
	v, err := s.view(g, m, token, lang, query)
	if err != nil {
		s.fail(w, err)
		return
	}
	if !v.Record {
		http.Error(w, v.RecordNote, http.StatusConflict)
		return
	}
	// Without the seed until the end (its sha256 is in the record), nor
	// a Message-ID, nor the host's address.
	rec, err := m.PublicRecord(s.reg)
	if err != nil {
		s.fail(w, err)
		return
	}
	data, err := rec.Marshal()
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", host.RecordName(g.ID, g.Record.Game)))
	w.Write(data)
}

// index lists the public games in the reader's language, as a game's
// page is (pageLang): in French, each game's French title and status, and
// links that keep ?lang=. Its ETag is the list's as shown, so that an
// unchanged list costs a 304, and differs by language (Vary:
// Accept-Language).
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	pages, err := s.store.PublicPages(r.Context())
	if err != nil {
		s.fail(w, err)
		return
	}
	lang, query := pageLang(r)
	fr := lang == notation.French
	wd := wordsIn(lang, query)
	type entry struct{ Tag, Title, Status, Href string }
	list := struct {
		W     words
		Games []entry
	}{W: wd}
	for _, p := range pages {
		title, status := p.Game, p.Status
		if g, err := s.reg.Lookup(p.Game); err == nil {
			title = g.Title
			if fr {
				title = cmpOr(g.TitleFR, title)
			}
		}
		if fr {
			status = cmpOr(statusFR[status], status)
		}
		list.Games = append(list.Games, entry{host.Tag(p.ID), title, status, PagePath(p.Token) + wd.Query})
	}
	var buf bytes.Buffer
	if err := indexTemplate.Execute(&buf, list); err != nil {
		s.fail(w, err)
		return
	}
	sum := sha256.Sum256(buf.Bytes())
	tag := fmt.Sprintf(`"%x"`, sum[:8])
	w.Header().Set("Vary", "Accept-Language")
	w.Header().Set("ETag", tag)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	if inm := r.Header.Get("If-None-Match"); inm != "" && notModified(w, inm, tag) {
		return
	}
	w.Write(buf.Bytes())
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	s.log.Error("web", "err", err)
	http.Error(w, "herald could not show this page now; try again later", http.StatusInternalServerError)
}

const style = `body{font-family:system-ui,sans-serif;margin:0 auto;padding:.8em;max-width:60em;color:#111;background:#fff;overflow-wrap:anywhere}
h1{font-size:1.4em;margin:.3em 0}h2{font-size:1.15em}
pre{font-family:ui-monospace,monospace;font-size:13px;line-height:1.2;background:#f6f6f6;padding:.6em;overflow-x:auto;max-width:100%;box-sizing:border-box}
img{max-width:100%;height:auto;display:block}
table{border-collapse:collapse}td,th{padding:.2em .8em;text-align:left}.turn{font-size:1.15em;font-weight:bold}
nav{margin:.5em 0}nav a,nav span{display:inline-block;padding:.3em .6em;margin:.1em;border:1px solid #999;border-radius:.3em;text-decoration:none}
nav span{color:#999;border-color:#ddd}
ul.turns{list-style:none;padding-left:0}ul.turns ol{margin:.1em 0 .4em;padding-left:2.6em;font-family:ui-monospace,monospace;font-size:.95em}.who{font-weight:bold}
.now{background:#ffe28a;font-weight:bold}.undone{text-decoration:line-through;color:#666}
@media (max-width:30em){body{padding:.5em}pre{font-size:11px}td,th{padding:.2em .4em}
#board{font-size:clamp(8px,calc((100vw - 2.2em) / (var(--cols) * .61)),11px)}}`

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="{{.W.Lang}}"><head><meta charset="utf-8">
{{if .Refresh}}<meta http-equiv="refresh" content="{{.Refresh}}">
{{end}}<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>herald {{.Tag}}: {{.Title}}{{if .Replay}}, {{.W.MoveN}} {{.At}}{{end}}</title>
<style>` + style + `</style></head>
<body>
<p><a href="/{{.W.Query}}">{{.W.AllGames}}</a>{{if .Replay}} · <a href="{{.Live}}">{{.Tag}} {{.W.AsItStands}}</a>{{end}}</p>
<h1>{{.Tag}}: {{.Title}}</h1>
<p class="turn" id="status">{{.StatusLine}}</p>
{{if and (not .Replay) (not .Over) .Deadline}}<p id="deadline">{{.Deadline}}</p>
{{end}}<nav id="replay" aria-label="replay">{{range .Nav}}{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}<span>{{.Text}}</span>{{end}} {{end}}</nav>
<table id="scores"><tr><th>{{.W.Player}}</th><th>{{.W.Points}}</th></tr>
{{range .Scores}}<tr><td>{{.Name}}</td><td>{{.Points}}</td></tr>
{{end}}</table>
{{if .Picture}}<p><img id="picture" src="{{.Picture}}" alt="{{.W.BoardOf}} {{.Tag}}{{if .Replay}} {{.W.AfterMove}} {{.At}}{{end}}"></p>{{end}}
<pre id="board" style="--cols:{{.BoardCols}}">{{.Board}}</pre>
<h2>{{.W.History}}</h2>
{{if .Turns}}<ul class="turns" id="moves">{{range .Turns}}<li><span class="who">{{.Player}}</span>{{if .Time}} <small>{{.Time}}</small>{{end}}
<ol>{{range .Moves}}<li value="{{.N}}"{{if .Now}} class="now"{{end}}><a href="{{.Href}}"{{if .Now}} aria-current="step"{{end}}>{{.Text}}</a></li>
{{end}}</ol></li>
{{end}}</ul>{{else}}<p id="moves">{{.W.NoMove}}</p>{{end}}
{{if .Undone}}<h3>{{.W.TakenBack}}</h3>
<ul id="undone">{{range .Undone}}<li><span class="undone">{{if eq .From .To}}{{$.W.MoveN}} {{.From}}{{else}}{{$.W.MovesN}} {{.From}}-{{.To}}{{end}} {{$.W.By}} {{.Players}}</span>, {{$.W.AtRequestOf}} {{.By}}{{if .Time}}, {{.Time}}{{end}}</li>
{{end}}</ul>{{end}}
<p>{{if .Record}}<a href="{{.RecordHref}}" download>{{.W.Record}}</a> ({{if .Over}}{{.W.WithSeed}}{{else}}{{.W.WithoutSeed}}{{end}}): {{.W.CheckIt}} <code>herald adjudicate</code>.{{else}}{{.RecordNote}}{{end}}</p>
<p><small>{{.W.Updated}} {{.Updated}}.{{if .Refresh}} {{printf .W.Reloads .Refresh}}{{end}}</small></p>
</body></html>
`))

var indexTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="{{.W.Lang}}"><head><meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.W.PublicGames}}</title>
<style>` + style + `</style></head>
<body><h1>{{.W.PublicGames}}</h1>
{{if .Games}}<ul>{{range .Games}}<li><a href="{{.Href}}">{{.Tag}}{{if eq $.W.Lang "fr"}} {{end}}: {{.Title}}</a> ({{.Status}})</li>
{{end}}</ul>{{else}}<p>{{.W.NoPublicGame}}</p>{{end}}
</body></html>
`))
