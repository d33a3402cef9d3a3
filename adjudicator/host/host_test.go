package host_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/heritiers"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// rig is a host on a temporary store (SQLite, or PostgreSQL: TestMain) with a fake clock and fixed
// keys and seed: no mail anywhere.
type rig struct {
	t     *testing.T
	h     *host.Host
	st    host.Store
	clock time.Time
	n     int               // requests so far, for their identities
	keys  map[string]string // host.HashKey of each key drawn -> the key
}

func newRig(t *testing.T, noCache bool) *rig {
	t.Helper()
	return newRigOf(t, noCache, adjudicator.NewRegistry(raubritter.Game, lowenherz97.Game, heritiers.Game))
}

// newRigOf is newRig with the games of reg.
func newRigOf(t *testing.T, noCache bool, reg *adjudicator.Registry) *rig {
	t.Helper()
	st := openStore(t)
	r := &rig{t: t, st: st, clock: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), keys: map[string]string{}}
	keys := 0
	var err error
	r.h, err = host.New(host.Config{
		Registry: reg,
		Store:    st,
		Now:      func() time.Time { return r.clock },
		NewKey: func() string {
			keys++
			k := fmt.Sprintf("key%02d", keys)
			r.keys[host.HashKey(k)] = k
			return k
		},
		NewSeed: func() string { return "host-test" },
		NoCache: noCache,
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// do runs fn as one request, a minute after the previous one.
func (r *rig) do(from string, fn func(s *host.Session) error) error {
	r.n++
	r.clock = r.clock.Add(time.Minute)
	in := host.Intake{MessageID: fmt.Sprintf("req-%d", r.n), BodyHash: "h", Sender: from, Received: r.clock}
	return r.h.Do(context.Background(), in, fn)
}

func (r *rig) create(req host.CreateRequest) (int64, []host.Notice) {
	r.t.Helper()
	var id int64
	var notices []host.Notice
	err := r.do(req.Host, func(s *host.Session) error {
		var err error
		id, notices, err = s.Create(context.Background(), req)
		return err
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return id, notices
}

// clear returns the key whose hash secret is: the store keeps keys hashed
// (host.HashKey), and the tests read them from the stored game.
func (r *rig) clear(secret string) string {
	if k, ok := r.keys[secret]; ok {
		return k
	}
	return secret
}

// send submits text (a key line, steps, commands) from address to game
// id, as an authenticated player or host. A key's hash in text, as the
// tests read it from the store, is sent as the key itself.
func (r *rig) send(id int64, from, text string) host.Reply {
	r.t.Helper()
	for h, k := range r.keys {
		text = strings.ReplaceAll(text, h, k)
	}
	var rep host.Reply
	err := r.do(from, func(s *host.Session) error {
		g, err := s.Game(context.Background(), id)
		if err != nil {
			return err
		}
		seat := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Address == from })
		env := notation.ParseEnvelope(text)
		if !host.Authenticate(g, seat, env.Key) {
			return errors.New("not authenticated")
		}
		rep, err = s.Handle(context.Background(), host.Request{Game: g, From: from, Seat: seat, Env: env, Source: "test:" + from})
		return err
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return rep
}

func (r *rig) game(id int64) *host.Game {
	r.t.Helper()
	g, err := r.st.Game(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return g
}

func to(notices []host.Notice, addr string) []host.Notice {
	var out []host.Notice
	for _, n := range notices {
		if n.To == addr {
			out = append(out, n)
		}
	}
	return out
}

// TestCreate checks the notices of a new game: the host who does not play
// gets the host key, each player a welcome with their own key and no
// other's.
func TestCreate(t *testing.T) {
	r := newRig(t, false)
	id, notices := r.create(host.CreateRequest{Host: "Hostess@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	if len(notices) != 3 {
		t.Fatalf("%d notices, want the host's and two welcomes: %+v", len(notices), notices)
	}
	g := r.game(id)
	hn := to(notices, "hostess@x.org")
	if len(hn) != 1 || hn[0].Kind != host.Started || !hn[0].Answer || !strings.Contains(hn[0].Text, "key "+r.clear(g.HostKey)) {
		t.Errorf("the host's notice: %+v", hn)
	}
	for _, p := range g.Players {
		n := to(notices, p.Address)
		if len(n) != 1 || n[0].Kind != host.Welcome || n[0].Seat != p.Name || !strings.Contains(n[0].Text, "key "+r.clear(p.Secret)) {
			t.Fatalf("%s's notices: %+v", p.Name, n)
		}
		for _, q := range g.Players {
			if q != p && strings.Contains(n[0].Text, r.clear(q.Secret)) {
				t.Errorf("%s's welcome holds %s's key", p.Name, q.Name)
			}
		}
		if strings.Contains(n[0].Text, g.HostKey) {
			t.Errorf("%s's welcome holds the host key", p.Name)
		}
	}
	if !strings.Contains(to(notices, "alice@x.org")[0].Text, "IT IS YOUR TURN, alice") {
		t.Errorf("alice's welcome does not say it is her turn:\n%s", to(notices, "alice@x.org")[0].Text)
	}

	for _, bad := range []struct {
		req  host.CreateRequest
		want string
	}{
		{host.CreateRequest{Host: "h@x", Game: "chess", Players: []string{"a@x", "b@x"}}, "chess"},
		{host.CreateRequest{Host: "h@x", Game: "raubritter", Players: []string{"a@x"}}, ""},
		{host.CreateRequest{Host: "h@x", Game: "raubritter", Players: []string{"a@x", "bob"}}, "bob"},
		// One address, two seats: the second could never be played by
		// mail (found by hand over a real Postfix + Dovecot).
		{host.CreateRequest{Host: "h@x", Game: "raubritter", Players: []string{"a@x", "b@x", "A@x"}}, "a@x is listed as player 1 and as player 3"},
	} {
		err := r.do("h@x", func(s *host.Session) error {
			_, _, err := s.Create(context.Background(), bad.req)
			return err
		})
		var refused *host.RefusedError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Create(%+v) = %v, want a RefusedError that says %q", bad.req, err, bad.want)
		}
	}
	// Bot seats may repeat.
	err := r.do("h@x", func(s *host.Session) error {
		_, _, err := s.Create(context.Background(), host.CreateRequest{Host: "h@x", Game: "raubritter", Players: []string{"a@x", "bot:1", "bot:1"}})
		return err
	})
	if err != nil {
		t.Errorf("two seats of bot:1: %v", err)
	}
}

// TestPlay plays moves, a refused one, commands and a resignation through
// the host alone, with the fake clock stamping the moves.
func TestPlay(t *testing.T) {
	for _, noCache := range []bool{false, true} {
		t.Run(fmt.Sprintf("noCache=%v", noCache), func(t *testing.T) {
			r := newRig(t, noCache)
			id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
			g := r.game(id)
			alice, bob := g.Players[0], g.Players[1]

			// A step against the rules: refused to bob alone, with the
			// rule, nothing stored.
			rep := r.send(id, bob.Address, "key "+bob.Secret+"\nend")
			if rep.Outcome != host.Rejected || len(rep.Notices) != 1 || rep.Notices[0].To != bob.Address || rep.Notices[0].Kind != host.Refusal ||
				!strings.Contains(rep.Notices[0].Text, "[rule: raubritter-fr-scan.txt:") {
				t.Fatalf("bob out of turn: %+v", rep)
			}
			if n := len(r.game(id).Record.Moves); n != 0 {
				t.Fatalf("a refused move left %d moves", n)
			}

			// Alice plays her whole turn; everyone hears of it.
			m, err := adjudicator.Start(r.h.Registry(), r.game(id).Record)
			if err != nil {
				t.Fatal(err)
			}
			var steps []string
			for slices.Contains(m.State.ToMove(), "alice") {
				st := m.State.Legal("alice")[0].String()
				if _, err := m.Submit("alice", st, "", ""); err != nil {
					t.Fatal(err)
				}
				steps = append(steps, st)
			}
			rep = r.send(id, alice.Address, "Hello!\nkey "+alice.Secret+"\n"+strings.Join(steps, "\n"))
			if rep.Outcome != host.Applied || len(rep.Notices) != 2 {
				t.Fatalf("alice's move: %+v", rep)
			}
			an, bn := to(rep.Notices, alice.Address)[0], to(rep.Notices, bob.Address)[0]
			if !an.InReplyTo || bn.InReplyTo || an.Kind != host.News || an.Topic != "move applied" || bn.Topic != "your turn" {
				t.Errorf("news: alice %+v, bob %+v", an, bn)
			}
			if !strings.Contains(an.Text, "Lines ignored (text, not steps):\n  1: Hello!") {
				t.Errorf("alice's news does not list the prose it ignored:\n%s", an.Text)
			}
			rec := r.game(id).Record
			if len(rec.Moves) != 1 || rec.Moves[0].Time != r.clock.Format(time.RFC3339) || rec.Moves[0].Source != "test:"+alice.Address {
				t.Errorf("the stored move: %+v (clock %s)", rec.Moves, r.clock)
			}

			// Commands answer the sender alone and change nothing.
			if err := r.do(bob.Address, func(s *host.Session) error {
				g, err := s.Game(context.Background(), id)
				if err == nil {
					rep, err = s.Command(context.Background(), g, 1, "history", "show")
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			// Alice's keep is sealed until bob has kept too (RULINGS.md RB-15).
			if rep.Outcome != host.Answered || len(rep.Notices) != 1 || !rep.Notices[0].Answer || rep.Notices[0].Topic != "history, show" ||
				!strings.Contains(rep.Notices[0].Text, "  1  alice        keeps an A tile\n") || strings.Contains(rep.Notices[0].Text, "alice        "+steps[0]) {
				t.Errorf("history, show: %+v", rep)
			}

			// A view without a mail.
			var view string
			if err := r.do("", func(s *host.Session) error {
				view, err = s.View(context.Background(), id, "")
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(view, "waiting for bob") || strings.Contains(view, "Your legal steps") {
				t.Errorf("the public view:\n%s", view)
			}

			// Bob resigns: everyone and the host hear it, with the record.
			rep = r.send(id, bob.Address, "key "+bob.Secret+"\nresign")
			if rep.Outcome != host.Ended || len(rep.Notices) != 3 {
				t.Fatalf("resign: %+v", rep)
			}
			for _, n := range rep.Notices {
				if n.Kind != host.EndedBy || !n.Record || !strings.Contains(n.Text, "bob resigned") {
					t.Errorf("resign notice %+v", n)
				}
			}
			g = r.game(id)
			if g.Status != host.Resigned || g.Record.Ended == nil {
				t.Errorf("after the resignation: status %s, ended %+v", g.Status, g.Record.Ended)
			}
			rep = r.send(id, alice.Address, "key "+alice.Secret+"\nshow")
			if rep.Outcome != host.Rejected || rep.Notices[0].Topic != "game over" {
				t.Errorf("a request after the end: %+v", rep)
			}
		})
	}
}

// TestBatchRollbackLeavesCache runs a move in a batch that is rolled back:
// the next request sees the stored game, not the cached move that never
// committed.
func TestBatchRollbackLeavesCache(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	alice := g.Players[0]
	m, err := adjudicator.Start(r.h.Registry(), g.Record)
	if err != nil {
		t.Fatal(err)
	}
	step := m.State.Legal("alice")[0].String()
	ctx := context.Background()
	b, err := r.h.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Do(ctx, host.Intake{MessageID: "rolled-back", Sender: alice.Address, Received: r.clock}, func(s *host.Session) error {
		g, err := s.Game(ctx, id)
		if err != nil {
			return err
		}
		rep, err := s.Submit(ctx, g, 0, notation.ParseEnvelope(step).Steps, "test")
		if rep.Outcome != host.Applied {
			t.Errorf("the move in the batch: %+v", rep)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b.Rollback()
	rep := r.send(id, alice.Address, "key "+alice.Secret+"\nhistory")
	if !strings.Contains(rep.Notices[0].Text, "No move yet.") {
		t.Errorf("after a rolled-back batch the game has moves:\n%s", rep.Notices[0].Text)
	}
}

// TestAutomatonPlaysThroughHost plays a solo Deux Héritiers game: the
// welcome names Henri among the players, and his moves come with the
// player's, in the same request, with his rules.
func TestAutomatonPlaysThroughHost(t *testing.T) {
	r := newRig(t, false)
	id, notices := r.create(host.CreateRequest{Host: "solo@x.org", Game: "heritiers", Players: []string{"solo@x.org"}})
	for _, n := range notices {
		switch {
		case n.Kind == host.Welcome && !regexp.MustCompile(`\nPlayers, in turn order: (solo, henri \(played by the game\)|henri \(played by the game\), solo)\n`).MatchString(n.Text):
			t.Errorf("the welcome of a solo game does not name henri among the players:\n%s", n.Text)
		case n.Kind == host.Started && !strings.Contains(n.Text, "has started between solo@x.org, henri (played by the game).\n"):
			t.Errorf("the host's confirmation of a solo game does not name henri:\n%s", n.Text)
		}
	}
	g := r.game(id)
	p := g.Players[0]
	for i := range 4 {
		played := "henri (played by the game) played move"
		if i == 3 { // the same in French, for a player who chose it
			if rep := r.send(id, p.Address, "key "+p.Secret+"\nlang fr"); rep.Outcome != host.Answered {
				t.Fatalf("lang fr: %+v", rep)
			}
			played = "henri (joué par le jeu) a joué le coup"
		}
		m, err := adjudicator.Start(r.h.Registry(), r.game(id).Record)
		if err != nil {
			t.Fatal(err)
		}
		var steps []string
		for slices.Contains(m.State.ToMove(), p.Name) && !m.State.Result().Finished {
			st := m.State.Legal(p.Name)[0].String()
			sub, err := m.Submit(p.Name, st, "", "")
			if err != nil {
				t.Fatal(err)
			}
			steps = append(steps, st)
			if len(sub.Auto) > 0 {
				break // Henri played: the turn is over
			}
		}
		rep := r.send(id, p.Address, "key "+p.Secret+"\n"+strings.Join(steps, "\n"))
		if rep.Outcome != host.Applied || len(rep.Notices) != 1 {
			t.Fatalf("the solo move: %+v", rep)
		}
		if text := rep.Notices[0].Text; !strings.Contains(text, played) || !strings.Contains(text, "(rule ") && !strings.Contains(text, "(règle ") {
			t.Errorf("the news does not say what Henri played and why (%q):\n%s", played, text)
		}
	}
}

// TestSealedBidsStaySealed plays Löwenherz 1997 between four players, each
// taking a legal step in turn, until bids have been sealed: no news to
// another player shows a sealed step, only its public form.
func TestSealedBidsStaySealed(t *testing.T) {
	r := newRig(t, false)
	addrs := []string{"a@x.org", "b@x.org", "c@x.org", "d@x.org"}
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "lowenherz97", Players: addrs})
	sealed, revealed := 0, 0
	revealedSeen := map[int]bool{}
	r.stepAround(id, func(who string, mv adjudicator.Move, rep host.Reply) bool {
		after, err := adjudicator.Start(r.h.Registry(), r.game(id).Record)
		if err != nil {
			t.Fatal(err)
		}
		// The bidder's confirmation carries the commitment of each sealed
		// step; a move that reveals steps gives everyone their nonces.
		n := len(after.Record.Moves)
		ever, err := after.EverSealed(r.h.Registry())
		if err != nil {
			t.Fatal(err)
		}
		still, err := after.SealedSteps(r.h.Registry())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range ever {
			if c.Move != n {
				continue
			}
			for _, n := range rep.Notices {
				if n.Seat == who && !strings.Contains(n.Text, "sha256:\n    "+c.Hash) {
					t.Errorf("%s's confirmation lacks the commitment of %q:\n%s", who, c.Text, n.Text)
				}
			}
		}
		for _, c := range adjudicator.Revealed(ever, still) {
			if revealedSeen[c.Move*100+c.Step] {
				continue
			}
			for _, n := range rep.Notices {
				if strings.Contains(n.Text, "nonce "+c.Nonce+", sha256:\n    "+c.Hash) {
					revealedSeen[c.Move*100+c.Step] = true
				}
			}
			if !revealedSeen[c.Move*100+c.Step] {
				t.Errorf("move %d revealed %s's %q, but no news gives its nonce", n, c.Player, c.Text)
				revealedSeen[c.Move*100+c.Step] = true
			}
			revealed++
		}
		// A bidder whose bid is in is not told it is their turn.
		for _, no := range rep.Notices {
			if adjudicator.SealedIn(after.State, no.Seat) && (strings.Contains(no.Text, "IT IS YOUR TURN") || !strings.Contains(no.Text, "your sealed step is in")) {
				t.Errorf("%s, whose bid is in, is told:\n%s", no.Seat, no.Text)
			}
		}
		hidden := slices.ContainsFunc(still, func(c adjudicator.SealCommit) bool { return c.Move == n })
		for _, n := range rep.Notices {
			if n.Seat == who || !hidden {
				continue
			}
			public := after.State.(adjudicator.Sealer).PublicStep(who, mv, notation.English)
			sealed++
			head := fmt.Sprintf("%s played move %d:\n", who, len(after.Record.Moves))
			_, rest, ok := strings.Cut(n.Text, head)
			if !ok || !strings.HasPrefix(rest, "  "+public+"\n") {
				t.Errorf("%s's news of %s's sealed step %q does not give its public form %q:\n%s", n.Seat, who, mv, public, n.Text)
			}
		}
		return sealed < 3 || revealed < 2
	})
	if sealed == 0 {
		t.Fatal("no sealed step was played: the test checked nothing")
	}
	if revealed == 0 {
		t.Fatal("no sealed step was revealed: the test checked no reveal")
	}
}

// stepAround plays game id, each player to move in turn taking a legal
// step (a different one each time, always the same from run to run), and
// calls fn with each step applied and its reply, until fn returns false,
// the game ends, or 400 turns have gone.
func (r *rig) stepAround(id int64, fn func(who string, mv adjudicator.Move, rep host.Reply) bool) {
	r.t.Helper()
	g := r.game(id)
	for i := 0; i < 400; i++ {
		m, err := adjudicator.Start(r.h.Registry(), r.game(id).Record)
		if err != nil {
			r.t.Fatal(err)
		}
		if m.State.Result().Finished {
			return
		}
		to := m.State.ToMove()
		who := to[i%len(to)]
		seat := slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == who })
		legal := m.State.Legal(who)
		if len(legal) == 0 {
			continue
		}
		mv := legal[(i*7)%len(legal)]
		rep := r.send(id, g.Players[seat].Address, "key "+g.Players[seat].Secret+"\n"+mv.String())
		if rep.Outcome != host.Applied {
			r.t.Fatalf("step %q by %s: %+v", mv, who, rep)
		}
		if !fn(who, mv, rep) {
			return
		}
	}
}

// TestPreview tries steps without playing them (issue 19; RULINGS.md
// H-4): the answer goes to the sender alone, the game does not change, a
// bad step is refused as a move would be, and what an automaton would
// answer is not shown.
func TestPreview(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	alice := g.Players[0]
	m, err := adjudicator.Start(r.h.Registry(), g.Record)
	if err != nil {
		t.Fatal(err)
	}
	step := m.State.Legal("alice")[0].String()
	rep := r.send(id, alice.Address, "key "+alice.Secret+"\npreview "+step)
	if rep.Outcome != host.Answered || len(rep.Notices) != 1 || rep.Notices[0].Topic != "preview" ||
		!strings.Contains(rep.Notices[0].Text, "A preview only: nothing changed. After these steps:\n  "+step+"\n") ||
		strings.Contains(rep.Notices[0].Text, "alice's hand") {
		t.Fatalf("preview: %+v", rep)
	}
	// In French, the steps in French words too, as written.
	stepFR := m.Game.StepIn(step, notation.French)
	rep = r.send(id, alice.Address, "clé "+alice.Secret+"\nessai "+stepFR)
	if rep.Outcome != host.Answered || !strings.Contains(rep.Notices[0].Text, "Essai seulement : rien n'a changé. Après ces étapes :\n  "+stepFR+"\n") {
		t.Fatalf("a preview in French: %+v", rep)
	}
	rep = r.send(id, alice.Address, "key "+alice.Secret+"\nBonjour Bob,\nessai\nend")
	if rep.Outcome != host.Answered || rep.Notices[0].Topic != "preview refused" || !strings.Contains(rep.Notices[0].Text, "Essai seulement : rien n'a changé.") {
		t.Fatalf("a refused preview: %+v", rep)
	}
	// A refused preview lists the lines it ignored, as an applied one does.
	if text := rep.Notices[0].Text; !strings.Contains(text, "\n  2: Bonjour Bob,\n") {
		t.Errorf("a refused preview does not list the prose it ignored:\n%s", text)
	}
	rep = r.send(id, alice.Address, "key "+alice.Secret+"\nHi Bob,\npreview "+step)
	if text := rep.Notices[0].Text; !strings.Contains(text, "\n  2: Hi Bob,\n") {
		t.Errorf("a preview does not list the prose it ignored:\n%s", text)
	}
	if n := len(r.game(id).Record.Moves); n != 0 {
		t.Fatalf("previews left %d moves", n)
	}

	solo, _ := r.create(host.CreateRequest{Host: "s@x.org", Game: "heritiers", Players: []string{"s@x.org"}})
	sg := r.game(solo)
	sm, err := adjudicator.Start(r.h.Registry(), sg.Record)
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for {
		st := sm.State.Legal("s")[0].String()
		sub, err := sm.Submit("s", st, "", "")
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, st)
		if len(sub.Auto) > 0 {
			break
		}
	}
	rep = r.send(solo, "s@x.org", "key "+sg.Players[0].Secret+"\npreview\n"+strings.Join(steps, "\n"))
	// The preview stops at the first draw (take 1), or says that henri
	// would then play: never his answer.
	if text := rep.Notices[0].Text; !strings.Contains(text, "henri would then play; a preview does not show how") && !strings.Contains(text, "The preview stops before it") || strings.Contains(text, "(rule ") {
		t.Errorf("a solo preview shows Henri's answer:\n%s", text)
	}
}

// TestDroppedEndIsSaid: an end written after a Raubritter turn ended by
// itself, at its third tile, is dropped as harmless, and the mover's
// answer says so (field test: "ville plaine e3 ; fin" after two tiles was
// answered "Your move 40 was applied: plain town e3", the fin gone
// without a word; herald move says "(ignored: end; ...)").
func TestDroppedEndIsSaid(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	for turn := 0; turn < 20; turn++ {
		g := r.game(id)
		m, err := adjudicator.Start(r.h.Registry(), g.Record)
		if err != nil {
			t.Fatal(err)
		}
		who := m.State.ToMove()[0]
		var steps []string
		for slices.Contains(m.State.ToMove(), who) {
			legal := m.State.Legal(who)
			st := legal[0].String()
			for _, l := range legal {
				if l.String() != "end" { // lay tiles until the turn ends by itself
					st = l.String()
					break
				}
			}
			if _, err := m.Submit(who, st, "", ""); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, st)
		}
		p := g.Players[slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == who })]
		if len(steps) < 3 || steps[len(steps)-1] == "end" {
			r.send(id, p.Address, "key "+p.Secret+"\n"+strings.Join(steps, "\n"))
			continue
		}
		rep := r.send(id, p.Address, "key "+p.Secret+"\n"+strings.Join(steps, "\n")+"\nend")
		if rep.Outcome != host.Applied {
			t.Fatalf("%s's turn with an end after it: %+v", who, rep)
		}
		for _, n := range rep.Notices {
			if n.To == p.Address && !strings.Contains(n.Text, "  (ignored: end; the turn had already ended by itself)\n") {
				t.Errorf("%s's answer does not say the end was ignored:\n%s", who, n.Text)
			}
		}
		return
	}
	t.Fatal("no turn ended by itself in 20 turns")
}

// twoTurnsIn starts a Raubritter game of alice@x.org and bob@y.org,
// hosted by h@x.org, plays its first two turns, and returns the rig, the
// game's id and the game as it stands.
func twoTurnsIn(t *testing.T) (*rig, int64, *host.Game) {
	t.Helper()
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	r.playTurn(id)
	r.playTurn(id)
	return r, id, r.game(id)
}

// TestPreviewStopFitsMail: the preview's word on a step that turns up
// what is hidden is filled to the 72 columns of a mail whatever the step
// (field test: "Step 1 (plain castle d3) is legal, but it turns up what
// is hidden (a tile or" ran past them, and the mail's wrap left "tile or"
// alone on an indented line), in English and in French.
func TestPreviewStopFitsMail(t *testing.T) {
	r, id, g := twoTurnsIn(t)
	m, err := adjudicator.Start(r.h.Registry(), g.Record)
	if err != nil {
		t.Fatal(err)
	}
	who := m.State.ToMove()[0]
	p := g.Players[slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == who })]
	var lay string
	for _, l := range m.State.Legal(who) {
		if strings.Contains(l.String(), "castle") && len(l.String()) >= len(lay) {
			lay = l.String() // the longest: a tile laid draws the next
		}
	}
	for _, c := range []struct{ text, want string }{
		{"preview\n" + lay + "\nknights 1", "The preview stops before it; 1 step after it not checked. The board would stand so before it"},
		{"essai\n" + strings.NewReplacer("plain", "plaine", "forest", "forêt", "mountains", "montagnes", "lake", "lac", "castle", "château").Replace(lay) + "\nchevaliers 1", "L'essai s'arrête avant elle ; 1 étape après elle non vérifiée. Le plateau serait ainsi avant elle"},
	} {
		text := r.send(id, p.Address, "key "+p.Secret+"\n"+c.text).Notices[0].Text
		if !strings.Contains(strings.ReplaceAll(text, "\n", " "), c.want) {
			t.Errorf("the preview of %q does not say %q:\n%s", c.text, c.want, text)
		}
		// The board is shown before the stopping step (the first here),
		// so no step is listed as done before it (field test: "After
		// these steps:" listed the step the preview stopped before).
		if strings.Contains(text, "After these steps") || strings.Contains(text, "Après ces étapes") {
			t.Errorf("the preview of %q lists the step it stopped before as done:\n%s", c.text, text)
		}
		for _, l := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(l); n > 72 && !strings.HasPrefix(l, " ") {
				t.Errorf("a line of %d columns: %q in\n%s", n, l, text)
			}
		}
	}
}

// TestEndedEarlyNamesNoMover: the mails that tell a game ended early
// (abandoned, resigned) show the board without its line of whose turn it
// is, and their picture marks no one to move (field test: the abandoned
// game's mail and picture said "ended early: abandoned" above "to move:
// alice: draw or take a card from the market").
func TestEndedEarlyNamesNoMover(t *testing.T) {
	r, id, g := twoTurnsIn(t)
	rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nabandon")
	if rep.Outcome != host.Ended || len(rep.Notices) < 3 {
		t.Fatalf("abandon: %+v", rep)
	}
	for _, n := range rep.Notices {
		if strings.Contains(n.Text, "to move:") || n.Picture == nil {
			t.Errorf("%s's mail, picture %v:\n%s", n.To, n.Picture != nil, n.Text)
			continue
		}
		for _, p := range n.Picture.Players {
			if p.ToMove {
				t.Errorf("%s's picture marks %s to move", n.To, p.Name)
			}
		}
		if slices.ContainsFunc(n.Picture.Info, func(l string) bool { return strings.HasPrefix(l, "to move") }) {
			t.Errorf("%s's picture says who is to move: %q", n.To, n.Picture.Info)
		}
	}
}

// TestMailAnswer holds the outbox's answer kind of a queued mail: an
// authentication notice before a reply, a reply before its Kind.
func TestMailAnswer(t *testing.T) {
	for _, c := range []struct {
		m    host.Mail
		want host.AnswerKind
	}{
		{host.Mail{}, host.NoAnswer},
		{host.Mail{Kind: host.UnkeyedAnswer}, host.UnkeyedAnswer},
		{host.Mail{Reply: true}, host.KeyedAnswer},
		{host.Mail{Reply: true, Kind: host.UnkeyedAnswer}, host.KeyedAnswer},
		{host.Mail{AuthNotice: true}, host.AuthAnswer},
		{host.Mail{AuthNotice: true, Reply: true, Kind: host.UnkeyedAnswer}, host.AuthAnswer},
	} {
		if got := c.m.Answer(); got != c.want {
			t.Errorf("%+v.Answer() = %d, want %d", c.m, got, c.want)
		}
	}
}

// TestTooManyCommands: a mail with more than MaxCommands command lines is
// refused whole, its steps unplayed, with an answer that says which line
// went over, in the mail's language; one with MaxCommands is carried out.
// A mail that repeated show thousands of times had herald build an
// answer of tens of megabytes (found by hand over real mail).
func TestTooManyCommands(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	moves := len(r.game(id).Record.Moves)
	steps, a := r.turnIn(id, notation.English)
	rep := r.send(id, a.Address, "key "+a.Secret+"\n"+strings.Repeat("show\n", host.MaxCommands+1)+steps)
	if n := to(rep.Notices, a.Address); rep.Outcome != host.Rejected || len(rep.Notices) != 1 || len(n) != 1 || n[0].Topic != "too many commands" ||
		!strings.Contains(n[0].Text, fmt.Sprintf("holds %d commands", host.MaxCommands+1)) || !strings.Contains(n[0].Text, fmt.Sprintf("line %d is the\n%dth", host.MaxCommands+2, host.MaxCommands+1)) {
		t.Errorf("%d shows and a turn: %s, %+v", host.MaxCommands+1, rep.Outcome, rep.Notices)
	}
	if got := len(r.game(id).Record.Moves); got != moves {
		t.Errorf("the turn beside too many commands was played: %d moves, want %d", got, moves)
	}
	if strings.Count(rep.Notices[0].Body(), "+-----+") > 1 {
		t.Errorf("the refusal shows the board more than once:\n%s", rep.Notices[0].Body())
	}
	rep = r.send(id, a.Address, "clé "+a.Secret+"\n"+strings.Repeat("montre\n", 4)+strings.Repeat("coups\n", 20))
	if n := to(rep.Notices, a.Address); rep.Outcome != host.Rejected || len(n) != 1 || !strings.Contains(n[0].Text, "contient 24 commandes") || n[0].Lang != notation.French {
		t.Errorf("24 French commands: %s, %+v", rep.Outcome, n)
	}
	rep = r.send(id, a.Address, "key "+a.Secret+"\n"+strings.Repeat("show\n", host.MaxCommands))
	if rep.Outcome != host.Answered {
		t.Errorf("%d shows: %s, want them answered", host.MaxCommands, rep.Outcome)
	}
	if got := len(r.game(id).Record.Moves); got != moves {
		t.Errorf("the game has %d moves after commands alone, want %d", got, moves)
	}
}
