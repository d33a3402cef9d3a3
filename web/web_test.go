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

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
	"github.com/heraldgames/herald/web"
)

// rig is a host on a temporary store and the pages of its games.
type rig struct {
	t     *testing.T
	h     *host.Host
	st    *store.Store
	srv   *httptest.Server
	clock time.Time
	n     int
}

func newRig(t *testing.T) *rig {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &rig{t: t, st: st, clock: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	reg := adjudicator.NewRegistry(raubritter.Game, lowenherz97.Game)
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
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "G1: Raubritter") || !strings.Contains(body, who+": "+step) ||
		!strings.Contains(body, `<pre id="board">`) || !strings.Contains(body, "waiting for") {
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
		texts, err := m.History(r.h.Registry(), "", notation.English)
		if err != nil {
			t.Fatal(err)
		}
		for j, text := range texts {
			if !strings.Contains(body, fmt.Sprintf(`<li value="%d">%s: %s</li>`, j+1, full.Record.Moves[j].Player, text)) {
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
