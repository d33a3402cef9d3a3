package web_test

import (
	"context"
	"fmt"
	"html"
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
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
	"github.com/heraldgames/herald/web"
)

// TestPagePrivacy is the second half of the privacy property (issue 25;
// the first is adjudicator/gametest's Kit.Privacy): for every game, over
// random games played through the host, with two players whose addresses
// share a local part and moves taken back by consent, at every move the
// page, its picture and its record hold no address, no Message-ID and no
// token of what an observer may not see (the game's own list,
// adjudicator.Secretive, and the steps still sealed); the record of a
// game with a sealed step is refused, saying what it waits for; the page
// at its secret address is for no search engine and no shared cache.
func TestPagePrivacy(t *testing.T) {
	runs := gametest.PrivacyRuns(4)
	for _, g := range games.All.Games() {
		t.Run(g.Name, func(t *testing.T) {
			for i := range runs {
				pagePrivacy(t, g, fmt.Sprintf("page-%d", i), 30)
			}
		})
	}
}

func pagePrivacy(t *testing.T, game *adjudicator.Game, seed string, moves int) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &rig{t: t, st: st, clock: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	r.h, err = host.New(host.Config{Registry: games.All, Store: st, Now: func() time.Time { return r.clock }, NewSeed: func() string { return seed }})
	if err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewServer(web.New(st, games.All, nil))
	defer r.srv.Close()
	addrs := []string{"alice@herald.local", "alice@example.org", "bob@herald.local", "carol@example.org"}[:max(game.MinPlayers, min(game.MaxPlayers, 2+len(seed)%3))]
	g := r.create(game.Name, addrs...)
	if game.MaxPlayers >= 2 && !slices.Contains(g.Record.Players, "alice-2") {
		t.Fatalf("two alices play as %v, want alice-1 and alice-2", g.Record.Players)
	}
	rng := adjudicator.NewRNG("page\x00" + seed)
	path := web.PagePath(g.PageToken)
	for n := range moves {
		g, err = st.Game(context.Background(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		m, err := adjudicator.Start(games.All, g.Record)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkPage(r, m, path); err != nil {
			t.Fatalf("%s, move %d: %v", seed, m.MoveNumber(), err)
		}
		var to []string
		for _, p := range m.State.ToMove() {
			if !slices.Contains(adjudicator.Automata(m.State), p) && !adjudicator.SealedIn(m.State, p) {
				to = append(to, p)
			}
		}
		if len(to) == 0 {
			return
		}
		who := to[rng.IntN(len(to))]
		seat := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == who })
		if n > 2 && rng.IntN(6) == 0 && len(g.Players) > 1 {
			// The last mover asks to take their move back; everyone agrees.
			last := m.Record.Moves[len(m.Record.Moves)-1].Player
			if ls := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == last }); ls >= 0 {
				r.command(g, ls, "undo")
				for s := range g.Players {
					if s != ls {
						r.command(g, s, "undo", "accept")
					}
				}
				continue
			}
		}
		legal := m.State.Legal(who)
		step := legal[rng.IntN(len(legal))].String()
		r.n++
		r.clock = r.clock.Add(time.Minute)
		// The mail service writes a Message-ID bare after "mail:"; a
		// record may hold it in brackets too.
		source := fmt.Sprintf("mail:%d.%s@mx.sender.example", r.n, seed)
		if r.n%2 == 0 {
			source = fmt.Sprintf("mail:<%d.%s@mx.sender.example>", r.n, seed)
		}
		if err := r.h.Do(context.Background(), host.Intake{MessageID: source, Received: r.clock}, func(s *host.Session) error {
			rep, err := s.Submit(context.Background(), g, seat, notation.ParseEnvelope(step).Steps, source)
			if err == nil && rep.Outcome != host.Applied {
				err = fmt.Errorf("%s's step %q: %s", who, step, rep.Reason)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// command has seat send a command line.
func (r *rig) command(g *host.Game, seat int, name string, args ...string) {
	r.t.Helper()
	g, err := r.st.Game(context.Background(), g.ID)
	if err != nil {
		r.t.Fatal(err)
	}
	r.do(func(s *host.Session) error {
		env := &notation.Envelope{Commands: []notation.Command{{Name: name, Args: args}}}
		_, err := s.Handle(context.Background(), host.Request{Game: g, From: g.Players[seat].Address, Seat: seat, Env: env, Source: "mail:<undo@mx.sender.example>"})
		return err
	})
}

// checkPage returns what is wrong with the page of m at path, its
// picture and its record, as an observer gets them.
func checkPage(r *rig, m *adjudicator.Match, path string) error {
	public, err := m.History(games.All, "", notation.English)
	if err != nil {
		return err
	}
	var secrets []gametest.Secret
	card := false // a political card taken is sealed
	for _, tok := range adjudicator.Secrets(m.State, "") {
		secrets = append(secrets, gametest.Secret{Token: tok, Why: "hidden by the game"})
	}
	for _, p := range m.Record.Players {
		mine, err := m.History(games.All, p, notation.English)
		if err != nil {
			return err
		}
		for i := range mine {
			if mine[i] != public[i] {
				for _, step := range strings.Split(mine[i], "; ") {
					secrets = append(secrets, gametest.Secret{Token: step, Why: p + "'s sealed step"})
					card = card || strings.HasPrefix(step, "take ")
				}
			}
		}
	}
	// What everyone has seen: the public moves, those taken back (but
	// sealed ones, which keep the record back), the help.
	known := strings.Join(public, "\n") + "\n" + m.Game.Help
	for _, u := range m.Record.Undone {
		for _, mv := range u.Moves {
			known += "\n" + strings.ReplaceAll(mv.Text, "\n", "; ")
		}
	}
	leaks := gametest.NewLeaks("", secrets, known)
	resp, page := r.get(path)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the page: %d", resp.StatusCode)
	}
	if resp.Header.Get("X-Robots-Tag") == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "private") {
		return fmt.Errorf("the page at a secret address has X-Robots-Tag %q and Cache-Control %q", resp.Header.Get("X-Robots-Tag"), resp.Header.Get("Cache-Control"))
	}
	answers := [][2]string{{"page", html.UnescapeString(page)}}
	if resp, svg := r.get(path + "/board.svg"); resp.StatusCode == http.StatusOK {
		answers = append(answers, [2]string{"picture", html.UnescapeString(svg)})
	}
	resp, rec := r.get(path + "/record.yaml")
	switch resp.StatusCode {
	case http.StatusOK:
		answers = append(answers, [2]string{"record", rec})
	case http.StatusConflict:
		if !strings.Contains(rec, "once ") || card && !strings.Contains(rec, "once the game is over") {
			return fmt.Errorf("the record's refusal does not say what it waits for: %s", rec)
		}
	default:
		return fmt.Errorf("the record: %d %s", resp.StatusCode, rec)
	}
	for _, a := range answers {
		for _, bad := range []string{"@herald.local", "@example.org", "mx.sender.example", "mail:<"} {
			if strings.Contains(a[1], bad) {
				return fmt.Errorf("the %s shows %q:\n%s", a[0], bad, a[1])
			}
		}
		if err := leaks.Check(a[0], "", false, a[1]); err != nil {
			return err
		}
	}
	return nil
}

// TestPageNew revokes a page's address (issue 25, item 12): after set
// page off and set page link the page is back at its address; set page
// new gives it another, and the old one is gone for good.
func TestPageNew(t *testing.T) {
	r := newRig(t)
	g := r.create("raubritter", "alice@x.org", "bob@y.org")
	old := web.PagePath(g.PageToken)
	set := func(mode string) *host.Game {
		r.do(func(s *host.Session) error {
			g, err := r.st.Game(context.Background(), g.ID)
			if err != nil {
				return err
			}
			env := &notation.Envelope{Commands: []notation.Command{{Name: "set", Args: []string{"page", mode}}}}
			rep, err := s.Handle(context.Background(), host.Request{Game: g, From: g.Host, Seat: -1, Env: env, Source: "test"})
			if err == nil && rep.Outcome != host.Answered {
				err = fmt.Errorf("set page %s: %s", mode, rep.Reason)
			}
			return err
		})
		g, err := r.st.Game(context.Background(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	set("off")
	if resp, _ := r.get(old); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a page turned off: %d", resp.StatusCode)
	}
	set("link")
	if resp, _ := r.get(old); resp.StatusCode != http.StatusOK {
		t.Fatalf("a page turned on again: %d", resp.StatusCode)
	}
	g2 := set("new")
	if g2.PageToken == g.PageToken || g2.Page != host.PageLink {
		t.Fatalf("set page new: token %q (was %q), page %s", g2.PageToken, g.PageToken, g2.Page)
	}
	if resp, _ := r.get(old); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the old address still works: %d", resp.StatusCode)
	}
	resp, _ := r.get(web.PagePath(g2.PageToken))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Robots-Tag") == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "private") {
		t.Errorf("the new address: %d, X-Robots-Tag %q, Cache-Control %q", resp.StatusCode, resp.Header.Get("X-Robots-Tag"), resp.Header.Get("Cache-Control"))
	}
	set("off")
	if g4 := set("new"); g4.Page != host.PageLink || g4.PageToken == g2.PageToken {
		t.Errorf("set page new on a page turned off: page %s, token %q", g4.Page, g4.PageToken)
	}
}
