package web_test

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
	"github.com/heraldgames/herald/web"
)

// rig is a host on a temporary store and the pages of its games.
type rig struct {
	t     testing.TB
	h     *host.Host
	st    *store.Store
	srv   *httptest.Server
	clock time.Time
	n     int
}

func newRig(t testing.TB) *rig {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &rig{t: t, st: st, clock: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	reg := games.All
	r.h, err = host.New(host.Config{Registry: reg, Store: st, Now: func() time.Time { return r.clock }, NewSeed: func() string { return "web" }})
	if err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewServer(web.New(st, reg, nil))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *rig) do(fn func(s *host.Session) error) {
	r.t.Helper()
	r.n++
	r.clock = r.clock.Add(time.Minute)
	if err := r.h.Do(context.Background(), host.Intake{MessageID: fmt.Sprint("req-", r.n), Received: r.clock}, fn); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) create(game string, players ...string) *host.Game {
	var id int64
	r.do(func(s *host.Session) error {
		var err error
		id, _, err = s.Create(context.Background(), host.CreateRequest{Host: "h@x.org", Game: game, Players: players})
		return err
	})
	g, err := r.st.Game(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return g
}

// play submits the step i of the legal steps of the first player to move,
// and returns the step's text and who took it.
func (r *rig) play(id int64, i int) (string, string) {
	r.t.Helper()
	g, err := r.st.Game(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	m, err := adjudicator.Start(r.h.Registry(), g.Record)
	if err != nil {
		r.t.Fatal(err)
	}
	to := m.State.ToMove()
	who := to[i%len(to)]
	legal := m.State.Legal(who)
	step := legal[(i*7)%len(legal)].String()
	seat := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == who })
	r.do(func(s *host.Session) error {
		rep, err := s.Submit(context.Background(), g, seat, notation.ParseEnvelope(step).Steps, "test")
		if err == nil && rep.Outcome != host.Applied {
			err = fmt.Errorf("%s's step %q: %s", who, step, rep.Reason)
		}
		return err
	})
	return step, who
}

func (r *rig) get(path string, header ...string) (*http.Response, string) {
	r.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, r.srv.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// TestPage shows a game's page: the public board, the scores, whose turn,
// the moves; the security headers; a 304 when nothing changed; the record
// without the seed while the game runs; 404 for an unknown token or a page
// turned off; 405 for anything but GET and HEAD; the index lists public
// pages only.
func TestPage(t *testing.T) {
	r := newRig(t)
	g := r.create("raubritter", "alice@x.org", "bob@y.org")
	path := web.PagePath(g.PageToken)
	step, who := r.play(g.ID, 0)
	resp, body := r.get(path)
	// The first step is a keep of the setup, sealed until both have kept
	// (RULINGS.md RB-15): the page says only that it was taken.
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "G1: Raubritter") || !strings.Contains(body, `<span class="who">`+who+`</span>`) || !strings.Contains(body, ">keeps an A tile</a>") || strings.Contains(body, step) ||
		!strings.Contains(body, `<pre id="board" style="--cols:`) || !strings.Contains(body, "waiting for") {
		t.Fatalf("the page: %d\n%s", resp.StatusCode, body)
	}
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"} {
		if resp.Header.Get(h) == "" {
			t.Errorf("no %s header", h)
		}
	}
	if strings.Contains(body, "<script") || strings.Contains(body, "<form") {
		t.Error("the page has a script or a form")
	}
	full, _ := r.st.Game(context.Background(), g.ID)
	for _, p := range full.Players {
		for _, secret := range []string{p.Secret, p.Token, p.Address} {
			if strings.Contains(body, secret) {
				t.Errorf("the page holds %s's secret or address %q", p.Name, secret)
			}
		}
	}
	if strings.Contains(body, full.HostKey) || strings.Contains(body, "h@x.org") {
		t.Error("the page holds the host's key or address")
	}

	if resp, svg := r.get(path + "/board.svg"); resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(svg, "<svg") {
		t.Errorf("the picture: %d %s\n%.200s", resp.StatusCode, resp.Header.Get("Content-Type"), svg)
	}
	if !strings.Contains(body, `<img id="picture" src="`+path+`/board.svg"`) {
		t.Error("the page does not show the picture")
	}
	tag := resp.Header.Get("ETag")
	if resp, _ := r.get(path, "If-None-Match", tag); resp.StatusCode != http.StatusNotModified {
		t.Errorf("a reload with the ETag: %d, want 304", resp.StatusCode)
	}
	r.play(g.ID, 1)
	if resp, _ := r.get(path, "If-None-Match", tag); resp.StatusCode != http.StatusOK {
		t.Errorf("a reload after a move: %d, want 200", resp.StatusCode)
	}

	resp, rec := r.get(path + "/record.yaml")
	if resp.StatusCode != http.StatusOK || !strings.Contains(rec, "seed_sha256") || strings.Contains(rec, "seed: web") {
		t.Errorf("the record while the game runs: %d\n%s", resp.StatusCode, rec)
	}
	if resp, _ := r.get("/g/nosuchtoken"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown token: %d", resp.StatusCode)
	}
	if resp, err := http.Post(r.srv.URL+path, "text/plain", strings.NewReader("x")); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %v %v", resp.StatusCode, err)
	}
	if _, idx := r.get("/"); strings.Contains(idx, g.PageToken) {
		t.Error("the index lists a page that is not public")
	}
	set := func(mode string) {
		r.do(func(s *host.Session) error {
			gg, err := s.Game(context.Background(), g.ID)
			if err != nil {
				return err
			}
			_, err = s.Handle(context.Background(), host.Request{Game: gg, From: "h@x.org", Seat: -1, Env: notation.ParseEnvelope("set page " + mode)})
			return err
		})
	}
	set("public")
	if _, idx := r.get("/"); !strings.Contains(idx, path) {
		t.Errorf("the index does not list the public page:\n%s", idx)
	}
	set("off")
	if resp, _ := r.get(path); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a page turned off: %d", resp.StatusCode)
	}
}

// TestPagesShowNothingPrivate plays random Löwenherz 1997 games, whose
// bids are sealed and whose political cards are hidden, and checks after
// every move that the page shows exactly the public view (no player's
// board text, which holds their hand) and each move as the public may see
// it, and that the record is withheld while a sealed bid is in.
func TestPagesShowNothingPrivate(t *testing.T) {
	r := newRig(t)
	g := r.create("lowenherz97", "a@x.org", "b@x.org", "c@x.org", "d@x.org")
	path := web.PagePath(g.PageToken)
	withheld := 0
	for i := range 150 {
		r.play(g.ID, i)
		full, _ := r.st.Game(context.Background(), g.ID)
		m, err := adjudicator.Start(r.h.Registry(), full.Record)
		if err != nil {
			t.Fatal(err)
		}
		_, body := r.get(path)
		body = html.UnescapeString(body)
		public := m.State.Text("")
		for _, p := range full.Players {
			if private := m.State.Text(p.Name); private != public && strings.Contains(body, private) {
				t.Fatalf("move %d: the page shows %s's own view", i+1, p.Name)
			}
		}
		if !strings.Contains(body, public) {
			t.Fatalf("move %d: the page does not show the public board", i+1)
		}
		texts, err := m.TurnHistory(r.h.Registry(), "", notation.English)
		if err != nil {
			t.Fatal(err)
		}
		for j, text := range texts {
			if !strings.Contains(body, fmt.Sprintf(`<li value="%d"><a href="%s">%s</a></li>`, j+1, web.MovePath(g.PageToken, j+1), text)) {
				t.Fatalf("move %d: the page does not show move %d as the public sees it (%q)", i+1, j+1, text)
			}
		}
		_, svg := r.get(path + "/board.svg")
		var names []string
		for _, p := range full.Players {
			names = append(names, p.Name)
		}
		if err := gametest.PicturePrivacy(m.State, names, svg, ""); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		if resp, _ := r.get(path + "/record.yaml"); resp.StatusCode == http.StatusConflict {
			withheld++
		}
		if m.State.Result().Finished {
			break
		}
	}
	if withheld == 0 {
		t.Log("no sealed bid was in during these moves; the record was never withheld")
	}
}

// TestReplay replays a game move by move (issue 28, items 7, 10, 11): each
// /g/TOKEN/move/N shows the public board as it stood after move N, whom
// the game waited for then, the move marked in the history, which groups
// the moves by turn with their times, links to the first, previous, next
// and last moves, and the picture after move N with that move's squares
// marked. The page of a game in play reloads itself; a replay does not.
func TestReplay(t *testing.T) {
	r := newRig(t)
	g := r.create("raubritter", "alice@x.org", "bob@y.org")
	const moves = 12
	for i := range moves {
		r.play(g.ID, i)
	}
	full, _ := r.st.Game(context.Background(), g.ID)
	path := web.PagePath(g.PageToken)
	_, live := r.get(path)
	if !strings.Contains(live, `<meta http-equiv="refresh" content="5">`) || !strings.Contains(live, `<meta name="viewport"`) {
		t.Errorf("the page of a game in play does not reload itself or has no viewport:\n%s", live)
	}
	turns := strings.Count(live, `<li><span class="who">`)
	if turns < 1 || turns >= moves || strings.Count(live, "<li value=") != moves {
		t.Errorf("%d moves in %d turns", moves, turns)
	}
	if !strings.Contains(live, "<small>2026-11-24 09:") {
		t.Errorf("the history gives no times:\n%s", live)
	}
	for _, n := range []int{0, 1, 5, moves} {
		rec := *full.Record
		rec.Moves = rec.Moves[:n]
		m, err := adjudicator.Start(r.h.Registry(), &rec)
		if err != nil {
			t.Fatal(err)
		}
		resp, body := r.get(web.MovePath(g.PageToken, n))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("move %d: %d", n, resp.StatusCode)
		}
		body = html.UnescapeString(body)
		text := m.State.Text("")
		cols := 0
		for line := range strings.Lines(text) {
			cols = max(cols, utf8.RuneCountInString(strings.TrimRight(line, "\n")))
		}
		// The board's width, for its font on a narrow screen (issue 28).
		if !strings.Contains(body, fmt.Sprintf(`<pre id="board" style="--cols:%d">`, cols)+text+`</pre>`) {
			t.Errorf("move %d: the replay does not show the board after it, %d columns wide:\n%s", n, cols, body)
		}
		status := fmt.Sprintf("After move %d of %d: waiting for %s", n, moves, adjudicator.WaitingFor(m.State))
		if n == 0 {
			status = "The start: waiting for " + adjudicator.WaitingFor(m.State)
		}
		if !strings.Contains(body, status) {
			t.Errorf("move %d: no %q", n, status)
		}
		if strings.Contains(body, `http-equiv="refresh"`) {
			t.Errorf("move %d: a replay reloads itself", n)
		}
		now := fmt.Sprintf(`<li value="%d" class="now"><a href="%s" aria-current="step">`, n, web.MovePath(g.PageToken, n))
		if got := strings.Contains(body, now); got != (n > 0) {
			t.Errorf("move %d: marked in the history %v, want %v", n, got, n > 0)
		}
		link := func(text string, to int) string {
			switch {
			case to < 0 || to > moves:
				return "<span>" + text + "</span>"
			case text == "last":
				return fmt.Sprintf(`<a href="%s">last</a>`, path)
			}
			return fmt.Sprintf(`<a href="%s">%s</a>`, web.MovePath(g.PageToken, to), text)
		}
		first, last := 0, moves
		if n == 0 {
			first = -1
		}
		if n == moves {
			last = moves + 1
		}
		for _, l := range []string{link("first", first), link("previous", n-1), link("next", min(n+1, moves+1)), link("last", last)} {
			if !strings.Contains(body, l) {
				t.Errorf("move %d: no link %s", n, l)
			}
		}
		pic := web.MovePath(g.PageToken, n) + "/board.svg"
		if !strings.Contains(body, `<img id="picture" src="`+pic+`"`) {
			t.Errorf("move %d: the replay does not show its picture", n)
		}
		resp, svg := r.get(pic)
		want, err := adjudicator.PictureAt(m, n, fmt.Sprintf("%s %s", host.Tag(g.ID), m.Game.Title))
		if err != nil {
			t.Fatal(err)
		}
		// The picture after move n is that of the game cut at move n, but
		// for its status line: the squares move n changed marked.
		noStatus := func(svg string) string {
			var keep []string
			for l := range strings.SplitSeq(svg, "\n") {
				if !strings.HasPrefix(l, `<text x="8" y="36"`) {
					keep = append(keep, l)
				}
			}
			return strings.Join(keep, "\n")
		}
		if resp.StatusCode != http.StatusOK || noStatus(svg) != noStatus(string(want.SVG())) {
			t.Errorf("move %d: the picture (%d) is not the board after it:\n%s", n, resp.StatusCode, svg)
		}
		if n == moves && !strings.Contains(svg, "changed by the last move") {
			t.Errorf("move %d: the last move is not marked", n)
		}
	}
	for _, bad := range []string{"/move/13", "/move/-1", "/move/01", "/move/x", "/move/13/board.svg", "/move/", "/moves/1"} {
		if resp, _ := r.get(path + bad); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, resp.StatusCode)
		}
	}
}

// BenchmarkRefresh measures what a reload of the page of a game in play
// costs when nothing changed: the stored game read and a 304, without a
// replay (every viewer's page asks every 5 seconds). BenchmarkPage is a
// reload after a move, the whole page.
func BenchmarkRefresh(b *testing.B) { benchPage(b, true) }

// BenchmarkPage: see BenchmarkRefresh.
func BenchmarkPage(b *testing.B) { benchPage(b, false) }

func benchPage(b *testing.B, unchanged bool) {
	r := newRig(b)
	g := r.create("raubritter", "alice@x.org", "bob@y.org")
	for i := range 30 {
		r.play(g.ID, i)
	}
	srv := web.New(r.st, r.h.Registry(), nil)
	req := httptest.NewRequest(http.MethodGet, web.PagePath(g.PageToken), nil)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	if unchanged {
		req.Header.Set("If-None-Match", w.Header().Get("ETag"))
	}
	want := http.StatusOK
	if unchanged {
		want = http.StatusNotModified
	}
	for b.Loop() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != want {
			b.Fatalf("%d, want %d", w.Code, want)
		}
	}
}

// TestPageUndoneAndOver checks that moves taken back by consent are shown
// as such, whose and when but not what they were, and that the page of a
// game over does not reload itself (issue 28, items 10 and 11).
func TestPageUndoneAndOver(t *testing.T) {
	r := newRig(t)
	g := r.create("raubritter", "alice@x.org", "bob@y.org")
	for i := range 4 {
		r.play(g.ID, i)
	}
	full, _ := r.st.Game(context.Background(), g.ID)
	last := full.Record.Moves[len(full.Record.Moves)-1]
	handle := func(name, text string) {
		r.do(func(s *host.Session) error {
			gg, err := s.Game(context.Background(), g.ID)
			if err != nil {
				return err
			}
			seat := slices.IndexFunc(gg.Players, func(p host.Player) bool { return p.Name == name })
			_, err = s.Handle(context.Background(), host.Request{Game: gg, From: gg.Players[seat].Address, Seat: seat, Env: notation.ParseEnvelope(text)})
			return err
		})
	}
	other := "alice"
	if last.Player == "alice" {
		other = "bob"
	}
	handle(last.Player, "undo")
	handle(other, "undo accept")
	after, _ := r.st.Game(context.Background(), g.ID)
	if len(after.Record.Undone) != 1 {
		t.Fatalf("the undo was not taken: %+v", after.Record.Undone)
	}
	u := after.Record.Undone[0]
	_, body := r.get(web.PagePath(g.PageToken))
	want := fmt.Sprintf(`<span class="undone">move %d by %s</span>, taken back at the request of %s, 2026-11-24 09:`, u.After+1, last.Player, last.Player)
	if len(u.Moves) > 1 {
		want = fmt.Sprintf(`<span class="undone">moves %d-%d by `, u.After+1, u.After+len(u.Moves))
	}
	if !strings.Contains(body, want) {
		t.Errorf("the page does not show the moves taken back (%s):\n%s", want, body)
	}

	// A game over: resigned.
	handle(other, "resign")
	_, body = r.get(web.PagePath(g.PageToken))
	if !strings.Contains(body, "Over: ended early") || strings.Contains(body, `http-equiv="refresh"`) {
		t.Errorf("the page of a game over reloads itself or does not say it is over:\n%s", body)
	}
	// In French, who resigned in French words too.
	if _, fr := r.get(web.PagePath(g.PageToken) + "?lang=fr"); !strings.Contains(fr, "Finie : finie avant la fin : "+other+" a abandonné") {
		t.Errorf("the French page of a game resigned does not say so in French:\n%s", fr)
	}
	// Nor does it, or its picture, say whose turn it is (field test: an
	// abandoned game's board said "to move: alice", its picture too).
	_, svg := r.get(web.PagePath(g.PageToken) + "/board.svg")
	if strings.Contains(body, "to move:") || strings.Contains(svg, "to move") {
		t.Errorf("the page of a game ended early, or its picture, says who is to move:\n%s\n%s", body, svg)
	}
}

// TestHistory pins the history of a page of each game (golden files in
// testdata; -update rewrites them): the moves grouped by turn under the
// player's name, each move numbered once, by its replay's number, and
// never with the player's name again, not even a step still hidden
// ("keeps an A tile" under alice, not "alice: alice keeps an A tile").
func TestHistory(t *testing.T) {
	r := newRig(t)
	for _, c := range []struct {
		name, game string
		players    []string
		moves      int
	}{
		{"raubritter-sealed", "raubritter", []string{"alice@x.org", "bob@y.org", "carol@z.org"}, 2},
		{"raubritter", "raubritter", []string{"alice@x.org", "bob@y.org"}, 8},
		{"lowenherz", "lowenherz", []string{"alice@x.org", "bob@y.org"}, 6},
		{"lowenherz97", "lowenherz97", []string{"alice@x.org", "bob@y.org", "carol@z.org"}, 9},
		{"heritiers", "heritiers", []string{"alice@x.org", "bob@y.org"}, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := r.create(c.game, c.players...)
			for i := range c.moves {
				r.play(g.ID, i)
			}
			_, body := r.get(web.PagePath(g.PageToken))
			from, to := strings.Index(body, "<h2>History</h2>"), strings.Index(body, "</ul>")
			if from < 0 || to < from {
				t.Fatalf("no history:\n%s", body)
			}
			history := strings.ReplaceAll(body[from:to+len("</ul>")], g.PageToken, "TOKEN") + "\n"
			for _, p := range g.Players {
				for _, twice := range []string{">" + p.Name + ":", ">" + p.Name + " "} {
					if strings.Contains(history, twice) {
						t.Errorf("a move names its player %s again (%q):\n%s", p.Name, twice, history)
					}
				}
			}
			if strings.Count(history, "<li value=") != c.moves {
				t.Errorf("%d numbered entries for %d moves: the turns are numbered too:\n%s", strings.Count(history, "<li value="), c.moves, history)
			}
			gametest.Golden(t, filepath.Join("testdata", "history-"+c.name+".golden"), history)
		})
	}
}

// TestPageInFrench: a browser that asks for French first gets the page in
// French, its board and history the game's French ones, under an ETag of
// its own (Vary: Accept-Language); ?lang=fr, the address French mails
// give, does the same and keeps itself on the page's links; ?lang=en wins
// over the browser. The French page shows nothing private either.
func TestPageInFrench(t *testing.T) {
	r := newRig(t)
	g := r.create("lowenherz97", "a@x.org", "b@x.org", "c@x.org", "d@x.org")
	path := web.PagePath(g.PageToken)
	for i := range 12 {
		r.play(g.ID, i)
	}
	full, _ := r.st.Game(context.Background(), g.ID)
	m, err := adjudicator.Start(r.h.Registry(), full.Record)
	if err != nil {
		t.Fatal(err)
	}
	const browserFR = "fr-FR,fr;q=0.9,en;q=0.8"
	respEN, en := r.get(path)
	resp, body := r.get(path, "Accept-Language", browserFR)
	page := html.UnescapeString(body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, `<html lang="fr">`) || !strings.Contains(page, "<h2>Historique</h2>") || !strings.Contains(page, "Coup 13 : on attend") {
		t.Fatalf("the French page: %d\n%s", resp.StatusCode, page)
	}
	if board := m.BoardTextIn("", notation.French); board == m.BoardText("") || !strings.Contains(page, board) {
		t.Errorf("the French page does not show the French public board:\n%s", board)
	}
	for _, p := range full.Players {
		if private := adjudicator.TextIn(m.State, p.Name, notation.French); strings.Contains(page, private) {
			t.Errorf("the French page shows %s's own view", p.Name)
		}
	}
	texts, err := m.TurnHistory(r.h.Registry(), "", notation.French)
	if err != nil {
		t.Fatal(err)
	}
	for j, text := range texts {
		if !strings.Contains(page, fmt.Sprintf(`<li value="%d"><a href="%s">%s</a></li>`, j+1, web.MovePath(g.PageToken, j+1), text)) {
			t.Errorf("the French page does not show move %d as %q", j+1, text)
		}
	}
	if tag := resp.Header.Get("ETag"); tag == respEN.Header.Get("ETag") || resp.Header.Get("Vary") != "Accept-Language" {
		t.Errorf("the French page's ETag %s (English %s), Vary %q", tag, respEN.Header.Get("ETag"), resp.Header.Get("Vary"))
	}
	if resp, _ := r.get(path, "Accept-Language", browserFR, "If-None-Match", respEN.Header.Get("ETag")); resp.StatusCode != http.StatusOK {
		t.Errorf("the French page with the English page's ETag: %d, want 200", resp.StatusCode)
	}
	_, q := r.get(path + "?lang=fr")
	if !strings.Contains(q, `<html lang="fr">`) || !strings.Contains(q, `href="`+web.MovePath(g.PageToken, 1)+`?lang=fr"`) || !strings.Contains(q, `href="`+web.MovePath(g.PageToken, 11)+`?lang=fr">précédent</a>`) {
		t.Errorf("?lang=fr does not keep itself on the links:\n%s", q)
	}
	_, replay := r.get(web.MovePath(g.PageToken, 3) + "?lang=fr")
	if !strings.Contains(replay, "Après le coup 3 sur 12 : on attend") || !strings.Contains(replay, `href="`+path+`?lang=fr"`) {
		t.Errorf("the French replay of move 3:\n%s", replay)
	}
	if _, back := r.get(path+"?lang=en", "Accept-Language", browserFR); !strings.Contains(back, `<html lang="en">`) || !strings.Contains(back, "<h2>History</h2>") || !strings.Contains(en, "<h2>History</h2>") {
		t.Errorf("?lang=en with a French browser is not the English page:\n%s", back)
	}
}

// TestPictureInFrench: the French page shows the picture in French, at
// an address that keeps ?lang=fr, and a French browser gets it in French
// at the plain address too: the game's French title, its keys and status
// in French, with an ETag of its own (Vary: Accept-Language); the English
// page and browser get the English picture, the same as before.
func TestPictureInFrench(t *testing.T) {
	r := newRig(t)
	g := r.create("raubritter", "a@x.org", "b@x.org")
	for i := range 4 {
		r.play(g.ID, i)
	}
	path := web.PagePath(g.PageToken)
	if _, page := r.get(path + "?lang=fr"); !strings.Contains(page, `<img id="picture" src="`+path+`/board.svg?lang=fr"`) {
		t.Fatalf("the French page's picture is not the French one:\n%s", page)
	}
	if _, replay := r.get(web.MovePath(g.PageToken, 2) + "?lang=fr"); !strings.Contains(replay, `src="`+web.MovePath(g.PageToken, 2)+`/board.svg?lang=fr"`) {
		t.Errorf("the French replay's picture is not the French one:\n%s", replay)
	}
	respEN, en := r.get(path + "/board.svg")
	for _, get := range []func() (*http.Response, string){
		func() (*http.Response, string) { return r.get(path + "/board.svg?lang=fr") },
		func() (*http.Response, string) { return r.get(path+"/board.svg", "Accept-Language", "fr-FR,fr;q=0.9") },
	} {
		resp, svg := get()
		svg = html.UnescapeString(svg)
		if resp.StatusCode != http.StatusOK || !strings.Contains(svg, ">plaine<") || !strings.Contains(svg, ">G1 Raubritter<") || !strings.Contains(svg, "coup 5 : on attend ") || strings.Contains(svg, ">plain<") {
			t.Errorf("the French picture: %d\n%.3000s", resp.StatusCode, svg)
		}
		if resp.Header.Get("ETag") == respEN.Header.Get("ETag") || resp.Header.Get("Vary") != "Accept-Language" {
			t.Errorf("the French picture's ETag %s (English %s), Vary %q", resp.Header.Get("ETag"), respEN.Header.Get("ETag"), resp.Header.Get("Vary"))
		}
	}
	full, _ := r.st.Game(context.Background(), g.ID)
	m, err := adjudicator.Start(r.h.Registry(), full.Record)
	if err != nil {
		t.Fatal(err)
	}
	want, err := adjudicator.PictureAt(m, 4, "G1 "+m.Game.Title)
	if err != nil {
		t.Fatal(err)
	}
	if en != string(want.SVG()) {
		t.Errorf("the English picture is not PictureAt's:\n%.2000s", en)
	}
}

// TestIndexInFrench: the list of public games follows the reader as a
// game's page does: in French for a French browser or at ?lang=fr (its
// words, each game's French title and status, links that keep ?lang=fr),
// in English otherwise or at ?lang=en; an ETag for each (Vary:
// Accept-Language), 304 for the one the browser has, not for the other
// language's.
func TestIndexInFrench(t *testing.T) {
	r := newRig(t)
	g := r.create("heritiers", "a@x.org", "b@x.org")
	r.do(func(s *host.Session) error {
		gg, err := s.Game(context.Background(), g.ID)
		if err != nil {
			return err
		}
		_, err = s.Handle(context.Background(), host.Request{Game: gg, From: "h@x.org", Seat: -1, Env: notation.ParseEnvelope("set page public")})
		return err
	})
	path := web.PagePath(g.PageToken)
	const browserFR = "fr-FR,fr;q=0.9,en;q=0.8"
	respEN, en := r.get("/")
	resp, fr := r.get("/", "Accept-Language", browserFR)
	fr = html.UnescapeString(fr)
	if resp.StatusCode != http.StatusOK || !strings.Contains(fr, `<html lang="fr">`) || !strings.Contains(fr, "<h1>herald : parties publiques</h1>") ||
		!strings.Contains(fr, `<a href="`+path+`">G1 : Les Deux Héritiers</a> (en cours)`) {
		t.Errorf("the French index: %d\n%s", resp.StatusCode, fr)
	}
	if !strings.Contains(en, `<html lang="en">`) || !strings.Contains(en, "<h1>herald: public games</h1>") || !strings.Contains(en, `<a href="`+path+`">G1: `) || !strings.Contains(en, "(playing)") {
		t.Errorf("the English index:\n%s", en)
	}
	if tag := resp.Header.Get("ETag"); tag == "" || tag == respEN.Header.Get("ETag") || resp.Header.Get("Vary") != "Accept-Language" || respEN.Header.Get("Vary") != "Accept-Language" {
		t.Errorf("the French index's ETag %s (English %s), Vary %q", tag, respEN.Header.Get("ETag"), resp.Header.Get("Vary"))
	}
	if again, _ := r.get("/", "Accept-Language", browserFR, "If-None-Match", resp.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
		t.Errorf("the French index again with its ETag: %d, want 304", again.StatusCode)
	}
	if other, _ := r.get("/", "Accept-Language", browserFR, "If-None-Match", respEN.Header.Get("ETag")); other.StatusCode != http.StatusOK {
		t.Errorf("the French index with the English one's ETag: %d, want 200", other.StatusCode)
	}
	_, q := r.get("/?lang=fr")
	if !strings.Contains(q, `<html lang="fr">`) || !strings.Contains(q, `href="`+path+`?lang=fr"`) {
		t.Errorf("?lang=fr does not keep itself on the links:\n%s", q)
	}
	if _, back := r.get("/?lang=en", "Accept-Language", browserFR); back != strings.ReplaceAll(en, `href="`+path+`"`, `href="`+path+`?lang=en"`) {
		t.Errorf("?lang=en with a French browser is not the English index:\n%s", back)
	}
	if _, page := r.get(path + "?lang=fr"); !strings.Contains(page, `<a href="/?lang=fr">Toutes les parties publiques</a>`) {
		t.Errorf("the French page's link to the index does not keep ?lang=fr:\n%s", page)
	}
}
