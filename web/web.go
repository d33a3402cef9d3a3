// Package web serves a read-only page for each game: the board as everyone
// may see it, the scores, whose turn it is and until when, the moves, and
// the record to download. It is a transport of the host layer, like mail:
// it reads games through the store interface (adjudicator/host) and shows
// only the public view, never a hand, a key, a token or a sealed bid.
//
// Each game's page lives at /g/TOKEN, where TOKEN is unguessable and given
// in the welcome mails; the host may make it public (listed at /) or turn
// it off. The pages are plain server-rendered HTML (html/template), with
// no script and no form: a page reloads itself every minute, and the
// reload costs a 304 when nothing changed (ETag, Last-Modified).
//
// Departure from DESIGN.md's top-level layout: web/ is a new top-level
// package beside mail/, because the page is a second transport of host
// and belongs to neither mail nor cmd.
package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

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

// ServeHTTP serves / (the public pages), /g/TOKEN and
// /g/TOKEN/record.yaml; GET and HEAD only.
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
	switch rest, ok := strings.CutPrefix(r.URL.Path, "/g/"); {
	case r.URL.Path == "/":
		s.index(w, r)
	case ok && strings.HasSuffix(rest, "/record.yaml"):
		s.record(w, r, strings.TrimSuffix(rest, "/record.yaml"))
	case ok && strings.HasSuffix(rest, "/board.svg"):
		s.picture(w, r, strings.TrimSuffix(rest, "/board.svg"))
	case ok && !strings.Contains(rest, "/"):
		s.page(w, r, rest)
	default:
		http.NotFound(w, r)
	}
}

// view is what a game's page shows.
type view struct {
	Tag, Title, Status string
	Move               int
	ToMove             string
	Deadline           string
	Over               bool
	Result             string
	Scores             []score
	Board              string
	Moves              []move
	Picture            string // the board's picture, when the game draws one
	Record             bool   // the record can be downloaded now
	RecordNote         string // why not, when it cannot
	RecordHref         string
	Updated            string
}

type score struct {
	Name   string
	Points int
}

type move struct {
	N            int
	Player, Text string
}

// load reads the game of token and what its page shows, or nil when
// there is no such page.
func (s *Server) load(ctx context.Context, token string) (*host.Game, *adjudicator.Match, error) {
	g, err := s.store.GameByPage(ctx, token)
	if errors.Is(err, host.ErrNoGame) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	m, err := adjudicator.Start(s.reg, g.Record)
	if err != nil {
		return nil, nil, fmt.Errorf("game %d does not replay: %w", g.ID, err)
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

// fresh answers 304 when the client's copy is current.
func fresh(w http.ResponseWriter, r *http.Request, tag string, updated time.Time) bool {
	w.Header().Set("ETag", tag)
	w.Header().Set("Last-Modified", updated.UTC().Format(http.TimeFormat))
	w.Header().Set("Cache-Control", "no-cache")
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if slices.Contains(strings.Split(strings.ReplaceAll(inm, " ", ""), ","), tag) {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
		return false
	}
	if ims, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil && !updated.Truncate(time.Second).After(ims) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

func (s *Server) page(w http.ResponseWriter, r *http.Request, token string) {
	g, m, err := s.load(r.Context(), token)
	if err != nil {
		s.fail(w, err)
		return
	}
	if g == nil {
		http.NotFound(w, r)
		return
	}
	if fresh(w, r, etag(g), g.Updated) {
		return
	}
	v, err := s.view(g, m, token)
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

// view builds what the page of g shows: the public view alone.
func (s *Server) view(g *host.Game, m *adjudicator.Match, token string) (*view, error) {
	st := m.State
	res := st.Result()
	v := &view{Tag: host.Tag(g.ID), Title: m.Game.Title, Status: g.Status, Move: m.MoveNumber(), Board: st.Text(""), Picture: picturePath(m, token),
		Over: res.Finished || g.Status != host.Playing, RecordHref: PagePath(token) + "/record.yaml", Updated: g.Updated.UTC().Format("2006-01-02 15:04 UTC")}
	switch {
	case m.Record.Ended != nil && m.Record.Ended.How == adjudicator.EndAbandoned:
		v.Result = "ended early: abandoned by the host" // never the host's address
	case m.Record.Ended != nil:
		v.Result = "ended early: " + m.Record.Ended.By + " " + m.Record.Ended.How
	case res.Finished:
		v.Result = res.Summary
	default:
		v.ToMove = strings.Join(st.ToMove(), ", ")
		if g.Clock != nil {
			v.Deadline = g.Clock.DeadlineAt().UTC().Format("2006-01-02 15:04 UTC")
		}
	}
	seats, scores := m.Seats(), st.Scores()
	for i, name := range seats {
		if i < len(scores) {
			v.Scores = append(v.Scores, score{name, scores[i]})
		}
	}
	public, err := m.History(s.reg, "", notation.English)
	if err != nil {
		return nil, err
	}
	sealed := false
	for i, rm := range m.Record.Moves {
		text := public[i]
		if host.ByPolicy(rm) {
			text += " (played for them by the host's policy)"
		}
		v.Moves = append(v.Moves, move{N: i + 1, Player: rm.Player, Text: text})
	}
	if !v.Over {
		// A step the public may not see yet (a sealed bid) is in the
		// record as written: the record waits for its reveal.
		for _, p := range m.Record.Players {
			mine, err := m.History(s.reg, p, notation.English)
			if err != nil {
				return nil, err
			}
			for i := range mine {
				if mine[i] != public[i] {
					sealed = true
				}
			}
		}
	}
	v.Record = !sealed
	if sealed {
		v.RecordNote = "The record can be downloaded again once the sealed bids are revealed."
	}
	return v, nil
}

// picturePath is the address of the picture of the game of token, or ""
// when the game draws none.
func picturePath(m *adjudicator.Match, token string) string {
	if _, ok := m.State.(adjudicator.Picturer); !ok {
		return ""
	}
	return PagePath(token) + "/board.svg"
}

// picture serves the board's picture, the public view.
func (s *Server) picture(w http.ResponseWriter, r *http.Request, token string) {
	g, m, err := s.load(r.Context(), token)
	if err != nil {
		s.fail(w, err)
		return
	}
	if g == nil {
		http.NotFound(w, r)
		return
	}
	if fresh(w, r, etag(g), g.Updated) {
		return
	}
	pic, err := adjudicator.PictureOf(m, fmt.Sprintf("%s %s", host.Tag(g.ID), m.Game.Title))
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
	if fresh(w, r, etag(g), g.Updated) {
		return
	}
	v, err := s.view(g, m, token)
	if err != nil {
		s.fail(w, err)
		return
	}
	if !v.Record {
		http.Error(w, v.RecordNote, http.StatusConflict)
		return
	}
	rec := *g.Record
	if !v.Over {
		rec.Seed = "" // secret until the end; its sha256 is in the record
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

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	pages, err := s.store.PublicPages(r.Context())
	if err != nil {
		s.fail(w, err)
		return
	}
	type entry struct{ Tag, Title, Status, Href string }
	var list []entry
	for _, p := range pages {
		title := p.Game
		if g, err := s.reg.Lookup(p.Game); err == nil {
			title = g.Title
		}
		list = append(list, entry{host.Tag(p.ID), title, p.Status, PagePath(p.Token)})
	}
	var buf bytes.Buffer
	if err := indexTemplate.Execute(&buf, list); err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(buf.Bytes())
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	s.log.Error("web", "err", err)
	http.Error(w, "herald could not show this page now; try again later", http.StatusInternalServerError)
}

const style = `body{font-family:system-ui,sans-serif;margin:1.5em;max-width:60em;color:#111;background:#fff}
pre{font-family:ui-monospace,monospace;font-size:14px;line-height:1.2;background:#f6f6f6;padding:1em;overflow-x:auto}
table{border-collapse:collapse}td,th{padding:.2em .8em;text-align:left}.turn{font-size:1.2em;font-weight:bold}
ol{font-family:ui-monospace,monospace}`

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="60">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>herald {{.Tag}}: {{.Title}}</title>
<style>` + style + `</style></head>
<body>
<h1>{{.Tag}}: {{.Title}}</h1>
{{if .Over}}<p class="turn" id="status">Over: {{.Result}}</p>
{{else}}<p class="turn" id="status">Move {{.Move}}: waiting for {{.ToMove}}</p>
{{if .Deadline}}<p id="deadline">Due by {{.Deadline}}</p>{{end}}{{end}}
<table id="scores"><tr><th>Player</th><th>Points</th></tr>
{{range .Scores}}<tr><td>{{.Name}}</td><td>{{.Points}}</td></tr>
{{end}}</table>
{{if .Picture}}<p><img id="picture" src="{{.Picture}}" alt="the board of {{.Tag}}"></p>{{end}}
<pre id="board">{{.Board}}</pre>
<h2>Moves</h2>
{{if .Moves}}<ol id="moves">{{range .Moves}}<li value="{{.N}}">{{.Player}}: {{.Text}}</li>
{{end}}</ol>{{else}}<p id="moves">No move yet.</p>{{end}}
<p>{{if .Record}}<a href="{{.RecordHref}}" download>The record</a> ({{if .Over}}with the seed, revealed{{else}}without the seed, secret until the end{{end}}): check it with <code>herald adjudicate</code>.{{else}}{{.RecordNote}}{{end}}</p>
<p><small>Updated {{.Updated}}. This page reloads itself every minute.</small></p>
</body></html>
`))

var indexTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>herald: public games</title>
<style>` + style + `</style></head>
<body><h1>herald: public games</h1>
{{if .}}<ul>{{range .}}<li><a href="{{.Href}}">{{.Tag}}: {{.Title}}</a> ({{.Status}})</li>
{{end}}</ul>{{else}}<p>No game is public here.</p>{{end}}
</body></html>
`))
