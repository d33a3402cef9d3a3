package mail

import (
	"context"
	"errors"
	"fmt"
	"mime"
	netmail "net/mail"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/notation"
)

// playRig starts herald on the embedded servers with accounts for host,
// alice, bob, carol and dan @herald.local, on the games of reg
// (Raubritter's alone when nil) and a fake clock.
func playRig(t *testing.T, reg *adjudicator.Registry, replies int) *queued {
	t.Helper()
	return playRigWith(t, func(r *featureRig) { r.registry, r.replies = reg, replies })
}

// playRigWith is playRig with the rig set by set before it starts.
func playRigWith(t *testing.T, set func(*featureRig)) *queued {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	srv, err := embeddedLocal(t.TempDir(), "127.0.0.1:0", "127.0.0.1:0", LocalAccount{Address: "herald@herald.local", Password: "pw"}, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, a := range []string{"host", "alice", "bob", "carol", "dan"} {
		if err := srv.AddAccount(a+"@herald.local", "pw"); err != nil {
			t.Fatal(err)
		}
	}
	r := &featureRig{t: t, imap: srv.IMAPAddr(), smtp: srv.SMTPAddr(), herald: "herald@herald.local",
		password: func(string) string { return "pw" }, clock: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), seen: map[string]int{}}
	set(r)
	r.start(ctx, "pw")
	return &queued{featureRig: r, pending: map[string][]string{}}
}

// queued is a featureRig whose await keeps the mails it read past the
// one it returns, for the next await: mails that arrive together are
// each found.
type queued struct {
	*featureRig
	pending map[string][]string
}

// A pair is a two-player Raubritter game G1 of alice@herald.local and
// bob@herald.local, hosted by host@herald.local, as the welcomes gave it
// (the mails unwrapped): each player's key and first legal step, and the
// host's key (the host does not play).
type pair struct {
	aw, bw, hw       string // alice's and bob's welcomes, the host's confirmation
	akey, bkey, hkey string
	astep, bstep     string // a player's first legal step, as their welcome lists it
}

// startPair has the host start a pair with options (such as "deadline
// 3d") on the new line, waits for the welcomes and takes the keys.
func startPair(r *queued, options ...string) pair {
	r.t.Helper()
	line := strings.Join(append([]string{"new raubritter players alice@herald.local bob@herald.local"}, options...), " ")
	r.send("host@herald.local", "", "new", line)
	p := pair{aw: unwrap(r.await("alice@herald.local", "welcome")), bw: unwrap(r.await("bob@herald.local", "welcome")),
		hw: unwrap(r.await("host@herald.local", "game started"))}
	ak, bk, hk := featureKey.FindStringSubmatch(p.aw), featureKey.FindStringSubmatch(p.bw), hostKeyLine.FindStringSubmatch(p.hw)
	as, bs := featureLegal.FindStringSubmatch(p.aw), featureLegal.FindStringSubmatch(p.bw)
	if ak == nil || bk == nil || hk == nil || as == nil || bs == nil {
		r.t.Fatalf("no keys or legal steps in the welcomes:\n%s\n%s\n%s", p.aw, p.bw, p.hw)
	}
	p.akey, p.bkey, p.hkey, p.astep, p.bstep = ak[1], bk[1], hk[1], as[1], bs[1]
	return p
}

// await returns the first mail to addr not returned yet whose subject
// ends with topic, waiting for it.
func (q *queued) await(addr, topic string) string {
	q.t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		for i, raw := range q.pending[addr] {
			if strings.HasSuffix(subjectOf(raw), topic) {
				q.pending[addr] = append(q.pending[addr][:i:i], q.pending[addr][i+1:]...)
				return raw
			}
		}
		if time.Now().After(deadline) {
			q.t.Fatalf("%s got no mail about %q in 45 s", addr, topic)
		}
		q.pending[addr] = append(q.pending[addr], q.fetchNew(addr)...)
		time.Sleep(100 * time.Millisecond)
	}
}

// subjectOf is the subject of raw, decoded (a game's title may not be
// ASCII).
func subjectOf(raw string) string {
	m, err := netmail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		return ""
	}
	s, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(s)
}

// unwrap undoes quoted-printable (soft breaks and =XX bytes), so that a
// test reads the lines as written.
func unwrap(raw string) string {
	raw = strings.ReplaceAll(raw, "=\n", "")
	// A MIME boundary is no quoted-printable text: "boundary=07e6…" must
	// not read as a BEL (a random boundary made TestProseControlsShown
	// fail whenever a boundary began with 00 to 19, one run in thirteen).
	raw = strings.ReplaceAll(raw, "boundary=", "boundary\x00")
	raw = qpByte.ReplaceAllStringFunc(raw, func(m string) string {
		b, _ := strconv.ParseUint(m[1:], 16, 8)
		return string([]byte{byte(b)})
	})
	return strings.ReplaceAll(raw, "boundary\x00", "boundary=")
}

var qpByte = regexp.MustCompile(`=[0-9A-F]{2}`)

// TestMailCommandsBesideSteps: a mail with a command line that changes
// something (notify, set, vacation, ...) above the steps has each carried
// out, in order, and its answer says what became of each (issue 26, items
// 1 and 7): carol's `notify all` above her move once dropped the move in
// silence, and only the first of three `set` lines was applied.
func TestMailCommandsBesideSteps(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, bob, host = "alice@herald.local", "bob@herald.local", "host@herald.local"
	g := startPair(r, "deadline 3d")

	r.send(alice, "", "Re: [herald G1] welcome", "key "+g.akey+"\nnotify turn\n"+g.astep)
	got := unwrap(r.await(alice, "move applied"))
	for _, want := range []string{"[line 2: notify turn]", "only when you must act", "Your move 1 was applied:\n  " + g.astep} {
		if !strings.Contains(got, want) {
			t.Errorf("alice's answer lacks %q:\n%s", want, got)
		}
	}
	if n := unwrap(r.await(bob, "")); !strings.Contains(n, "alice played move 1:") {
		t.Errorf("bob was not told of alice's move:\n%s", n)
	}

	r.send(host, "", "Re: [herald G1]", "key "+g.hkey+"\nset grace 12h\nset policy forfeit\nset reminder 50%\nset colour blue")
	got = unwrap(r.await(host, "set refused"))
	for _, want := range []string{"[line 2: set grace 12h]", "[line 3: set policy forfeit]", "[line 4: set reminder 50%]",
		"[line 5: set colour blue]", "There is no setting \"colour\"", "grace 12h", "forfeit", "at 50%"} {
		if !strings.Contains(got, want) {
			t.Errorf("the host's answer lacks %q:\n%s", want, got)
		}
	}
}

// TestMailRateLimitSaysSo: past its answers an hour, herald tells the
// player once that it stops answering and until when, still plays and
// announces their moves, and answers again after the hour (issue 26, item
// 2); mails that carry no key, such as forged `observe G1` in a player's
// name, are counted apart and never silence the player's keyed mails
// (issue 25, item 13); the one-an-hour notice for a mail that failed
// authentication says that more such mails get no answer, and until when.
func TestMailRateLimitSaysSo(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 3)
	const alice, dan, host = "alice@herald.local", "dan@herald.local", "host@herald.local"
	r.send(host, "", "new", "new raubritter players "+alice+" "+dan)
	r.await(alice, "welcome")
	dw := unwrap(r.await(dan, "welcome"))
	key := featureKey.FindStringSubmatch(dw)
	step := featureLegal.FindStringSubmatch(dw)
	if key == nil || step == nil {
		t.Fatalf("no key or legal step in dan's welcome:\n%s", dw)
	}

	// Forged: four mails in dan's name with no key. Three answers, then
	// the notice that answers to such mails pause.
	for range 4 {
		r.send(dan, "", "watch", "observe G1")
	}
	for range 3 {
		r.await(dan, "observe refused")
	}
	if p := unwrap(r.await(dan, "answers paused")); !strings.Contains(p, "carry no key") || !strings.Contains(p, "answer them again from 2026-11-24 10:00 UTC") {
		t.Errorf("the pause notice for unkeyed mails:\n%s", p)
	}
	// dan's own keyed mails are answered all the same: three, then one
	// notice, then nothing; his move is played and he is told.
	for range 5 {
		r.send(dan, "", "Re: [herald G1]", "key "+key[1]+"\nshow")
	}
	for range 3 {
		r.await(dan, "show")
	}
	p := unwrap(r.await(dan, "answers paused"))
	for _, want := range []string{"herald has answered your mails 3 times in the last hour", "again from 2026-11-24 10:00 UTC", "Moves are still played"} {
		if !strings.Contains(p, want) {
			t.Errorf("the pause notice lacks %q:\n%s", want, p)
		}
	}
	r.send(dan, "", "Re: [herald G1]", "key "+key[1]+"\n"+step[1])
	if got := unwrap(r.await(dan, "")); !strings.Contains(got, "Your move 1 was applied") {
		t.Errorf("dan's move, past the limit, is not answered with its news (a second pause notice?):\n%s", got)
	}
	r.advance(61 * time.Minute)
	r.send(dan, "", "Re: [herald G1]", "key "+key[1]+"\nhistory")
	r.await(dan, "history")

	// A wrong key: one notice, which says until when no other comes.
	r.send(alice, "", "Re: [herald G1]", "key nope\nshow")
	if a := unwrap(r.await(alice, "mail not authenticated")); !strings.Contains(a, "until 2026-11-24 11:01 UTC,\nmails from your address that fail the same way get no answer") {
		t.Errorf("the authentication notice does not say the next ones go unanswered:\n%s", a)
	}
}

// TestMailQuotedInOtherLanguages: a reply that quotes herald's mail under
// the header of a German or Spanish Outlook, or under an "On ... wrote:"
// or "Le ... a écrit :" line with no '>' marks, is read for the lines
// above the quote alone; a first line "game on!" is prose, not a game
// line; and herald's own lines copied back ("Game G1, move 1: IT IS YOUR
// TURN") are never commands (issue 26, item 5; issue 32, item 3).
func TestMailQuotedInOtherLanguages(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice = "alice@herald.local"
	g := startPair(r)
	quoted := "Game G1, move 1: IT IS YOUR TURN, alice.\nScores: alice 0, bob 0\n\nYour legal steps (2), any one per line:\n  keep plain\n  keep forest\n"
	for name, body := range map[string]string{
		"german outlook":     "show\n\nVon: herald <herald@herald.local>\nGesendet: Dienstag, 24. November 2026 09:00\nAn: alice@herald.local\nBetreff: [herald G1] welcome\n\n" + quoted,
		"spanish outlook":    "show\n\nDe: herald <herald@herald.local>\nEnviado: martes, 24 de noviembre de 2026 9:00\nPara: alice@herald.local\nAsunto: [herald G1] welcome\n\n" + quoted,
		"english unprefixed": "show\n\nOn Tue, 24 Nov 2026 at 09:00, herald <herald@herald.local> wrote:\n\n" + quoted,
		"french unprefixed":  "show\n\nLe mar. 24 nov. 2026 à 09:00, herald <herald@herald.local> a écrit :\n\n" + quoted,
		"game on":            "game on!\nshow",
		"echo unquoted":      "show\n\n" + strings.SplitN(quoted, "\n", 2)[0],
	} {
		r.send(alice, "", "Re: [herald G1] "+name, "key "+g.akey+"\n"+body)
		got := unwrap(r.await(alice, "show"))
		// "game on!" is prose, and the answer lists it as ignored.
		if !strings.Contains(got, "In-Reply-To:") || strings.Contains(got, "not a game id") || strings.Contains(got, "ignored") != (name == "game on") {
			t.Errorf("%s: the answer to show:\n%s", name, got)
		}
	}
}

// playUntil plays game id without mail, the first legal step of the first
// player who must act at a time (or "refuse"), until stop says the game stands as the
// test wants; the clock and the record move as with mail.
func (q *queued) playUntil(id int64, stop func(st adjudicator.State) bool) {
	q.t.Helper()
	ctx := context.Background()
	for range 2000 {
		done := false
		err := q.svc.host.Do(ctx, host.Intake{MessageID: fmt.Sprintf("advance:%d", time.Now().UnixNano()), BodyHash: "advance", Sender: "test", Received: q.now()}, func(ses *host.Session) error {
			g, err := ses.Game(ctx, id)
			if err != nil {
				return err
			}
			rec, err := ses.Tx().Record(ctx, id)
			if err != nil {
				return err
			}
			m, err := adjudicator.Start(q.svc.cfg.Registry, rec)
			if err != nil {
				return err
			}
			if done = stop(m.State); done {
				return nil
			}
			for _, p := range waitedFor(m.State) {
				legal := m.State.Legal(p)
				if len(legal) == 0 {
					continue
				}
				// Refusing an offer leads to sealed bids (Löwenherz 1997).
				pick := legal[0]
				if i := slices.IndexFunc(legal, func(mv adjudicator.Move) bool { return mv.String() == "refuse" }); i >= 0 {
					pick = legal[i]
				}
				steps, errs := notation.Split(pick.String())
				if len(errs) > 0 {
					return errs
				}
				seat := slices.IndexFunc(g.Players, func(pl host.Player) bool { return pl.Name == p })
				rep, err := ses.Submit(ctx, g, seat, steps, "test")
				if err == nil && rep.Outcome != Applied {
					err = fmt.Errorf("%s's step %q: %s", p, pick, rep.Reason)
				}
				return err
			}
			return fmt.Errorf("no one can act: %v", m.State.ToMove())
		})
		if err != nil {
			q.t.Fatal(err)
		}
		if done {
			return
		}
	}
	q.t.Fatal("the game never stood as wanted")
}

// waitedFor is who must act in st: not a bidder whose sealed bid is in.
func waitedFor(st adjudicator.State) []string {
	var out []string
	for _, p := range st.ToMove() {
		if !adjudicator.SealedIn(st, p) {
			out = append(out, p)
		}
	}
	return out
}

// TestMailLateSealedBid: with a deadline and the forfeit policy, a
// Löwenherz 1997 bid that does not come is played by herald as a bid of
// nothing (RULINGS.md H-3). The late notice says so, not that the player
// forfeits; the move is marked as played by the host's policy in the
// mails to the late player, to the others and in the history; every
// welcome states the timing; and the `::` line lists as to-move only who
// must act, a bidder whose bid is in as may-replace (issue 26, items 3
// and 4; issue 32, item 2).
func TestMailLateSealedBid(t *testing.T) {
	t.Parallel()
	r := playRig(t, adjudicator.NewRegistry(lowenherz97.Game), 0)
	const alice, bob, host = "alice@herald.local", "bob@herald.local", "host@herald.local"
	r.send(host, "", "new", "new lowenherz97 players "+alice+" "+bob+" deadline 2d grace 12h policy forfeit")
	aw := unwrap(r.await(alice, "welcome"))
	bw := unwrap(r.await(bob, "welcome"))
	for _, w := range []string{aw, bw} {
		if !strings.Contains(w, "each move is due within 2d") || !strings.Contains(w, "then 12h of grace") || !strings.Contains(w, "a reminder at 75%") || !strings.Contains(w, "first player still late forfeits") {
			t.Errorf("a welcome does not state the timing:\n%s", w)
		}
	}
	ak := featureKey.FindStringSubmatch(aw)
	if ak == nil {
		t.Fatalf("no key in alice's welcome:\n%s", aw)
	}
	bidding := func(st adjudicator.State) bool {
		for _, p := range waitedFor(st) {
			for _, mv := range st.Legal(p) {
				if strings.HasPrefix(mv.String(), "bid ") {
					return true
				}
			}
		}
		return false
	}
	r.playUntil(1, bidding)
	r.send(alice, "", "Re: [herald G1]", "key "+ak[1]+"\nbid 0")
	got := unwrap(r.await(alice, ""))
	if !regexp.MustCompile(`(?m)^:: game G1 move \d+ to-move bob may-replace alice`).MatchString(got) {
		t.Errorf("the :: line after alice's bid lists her as to-move:\n%s", got)
	}
	r.await(bob, "")

	// The reminder, then the late notice, then the grace's end.
	for _, d := range []time.Duration{37 * time.Hour, 11 * time.Hour, 13 * time.Hour} {
		r.advance(d)
		if _, err := r.svc.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	late := unwrap(r.await(alice, "late: bob"))
	if !strings.Contains(late, "herald plays the\ngame's default step for them") || !strings.Contains(late, "  bob: bid 0") || strings.Contains(late, "forfeits") {
		t.Errorf("the late notice does not say what the policy will do:\n%s", late)
	}
	if b := unwrap(r.await(bob, "late: bob")); !strings.Contains(b, "bob: bid 0") {
		t.Errorf("bob's late notice:\n%s", b)
	}
	r.await(bob, "reminder: your turn")
	mine := unwrap(r.await(bob, ""))
	if !strings.Contains(mine, "Your step did not come in time: herald played move") || strings.Contains(mine, "Your move") {
		t.Errorf("bob's news of the bid played for him:\n%s", mine)
	}
	theirs := unwrap(r.await(alice, ""))
	if !strings.Contains(theirs, "bob's step did not come in time: herald played move") || strings.Contains(theirs, "bob played move") {
		t.Errorf("alice's news of the bid played for bob:\n%s", theirs)
	}
	r.send(alice, "", "Re: [herald G1]", "key "+ak[1]+"\nhistory")
	if h := unwrap(r.await(alice, "history")); !regexp.MustCompile(`bob +.*\(played for them by the host's policy\)`).MatchString(h) {
		t.Errorf("the history does not mark the bid played for bob:\n%s", h)
	}
}

// TestMailHostingTexts plays by mail what players and hosts meet around
// the moves (issue 26, items 6 and 8-12): spans in French words for the
// deadline and a vacation, help with every command and the game's
// notation in the mail's language, a take-back that lapses because a move
// was played and is announced, a dropped observer told so, an observer of
// a game ended early given the seed and the record, a resigned game said
// to be resigned, and the subjects and lines of the news.
func TestMailHostingTexts(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, bob, carol, host = "alice@herald.local", "bob@herald.local", "carol@herald.local", "host@herald.local"
	g := startPair(r, "deadline 2 jours grace 1 jour")
	for _, want := range []string{"each move is due within 2d", "then 1d of grace", "To play, reply to this mail with your steps, one per line. In a new\nmail, put your key line first (key YOUR-KEY).", "  notify all|turn|digest"} {
		if !strings.Contains(g.aw, want) {
			t.Errorf("alice's welcome lacks %q:\n%s", want, g.aw)
		}
	}
	ak, bk, hk := g.akey, g.bkey, g.hkey
	mail := func(from string, key string, body string) {
		r.send(from, "", "Re: [herald G1]", "key "+key+"\n"+body)
	}

	mail(alice, ak, "aide")
	if h := unwrap(r.await(alice, "aide")); !strings.Contains(h, "  reprendre ") || !strings.Contains(h, "avis tout|tour|quotidien") || !strings.Contains(h, "Étapes, une par ligne") {
		t.Errorf("the French help:\n%s", h)
	}
	mail(alice, ak, "help")
	if h := unwrap(r.await(alice, "help")); !strings.Contains(h, "  undo ") || !strings.Contains(h, "  preview STEPS") || !strings.Contains(h, "  observe G12") || !strings.Contains(h, "Steps, one per line") {
		t.Errorf("the help:\n%s", h)
	}
	mail(alice, ak, "vacances 2 jours")
	r.await(alice, "vacances") // a French mail: its answer's subject is French
	r.await(bob, "alice is away")

	// A take-back asked, then lapsed by bob's move: everyone is told, and
	// bob's late accept is not "undo refused".
	mail(alice, ak, g.astep)
	// Steps alone: the answer is in the language of her last mail that
	// said which (vacances).
	if a := unwrap(r.await(alice, "")); !strings.Contains(a, "Votre coup 1 a été appliqué :") {
		t.Errorf("alice's move, after her French vacances:\n%s", a)
	}
	if n := r.await(bob, ""); !strings.HasSuffix(subjectOf(n), "alice played move 1") && !strings.HasSuffix(subjectOf(n), "your turn") {
		t.Errorf("bob's news of alice's move has the subject %q", subjectOf(n))
	}
	mail(alice, ak, "undo")
	if u := unwrap(r.await(alice, "undo asked")); !strings.Contains(u, "You asked to take back move 1.") {
		t.Errorf("alice's undo:\n%s", u)
	}
	r.await(bob, "undo asked by alice")
	mail(bob, bk, g.bstep)
	r.await(bob, "")
	if n := unwrap(r.await(alice, "")); !strings.Contains(n, "alice's request to take moves back has lapsed: a move was played since.") {
		t.Errorf("the lapse of alice's undo is not announced:\n%s", n)
	}
	mail(bob, bk, "undo accept")
	r.await(bob, "no undo pending")

	// An observer dropped is told; another sees the early end with the
	// seed and the record.
	// The host invites carol, who observes once she writes the line back.
	invite := func() {
		t.Helper()
		mail(host, hk, "observe G1 "+carol)
		r.await(host, "observe asked")
		token := regexp.MustCompile(`(?m)^  observe G1 (\S+)\r?$`).FindStringSubmatch(r.await(carol, "confirm observe"))
		if token == nil {
			t.Fatal("carol's invitation gives no token")
		}
		r.send(carol, "", "Re: [herald G1] confirm observe", "observe G1 "+token[1])
		r.await(carol, "observe")
	}
	invite()
	mail(host, hk, "set observers off")
	if s := unwrap(r.await(host, "settings")); !strings.Contains(s, "those who observed it\n(1) no longer do, and are told so.") {
		t.Errorf("the host's answer:\n%s", s)
	}
	r.await(carol, "no longer observed")
	mail(host, hk, "set observers on")
	r.await(host, "settings")
	invite()
	mail(bob, bk, "resign")
	end := unwrap(r.await(carol, "game ended"))
	if !strings.Contains(end, "bob resigned") || !strings.Contains(end, "The seed was:\n  \"features\"") || !strings.Contains(end, "herald-g1-raubritter.yaml") {
		t.Errorf("the observer's news of the end:\n%s", end)
	}
	mail(alice, ak, "show")
	if over := unwrap(r.await(alice, "game over")); !strings.Contains(over, "Game G1 is over (bob resigned)") {
		t.Errorf("a mail after the resignation:\n%s", over)
	}
}

// TestMailOneRecipientInOrder: the mails to one recipient go in the order
// herald wrote them, even when one of them could not be sent at first
// (issue 32, item 4): alice's welcome fails once, bob moves meanwhile, and
// alice still reads her welcome before the news of bob's move. The mails
// of a game go in order too (issue 31, item 3): the news of bob's move,
// to bob as well, waits for alice's welcome.
func TestMailOneRecipientInOrder(t *testing.T) {
	t.Parallel()
	const alice, bob, host = "alice@herald.local", "bob@herald.local", "host@herald.local"
	var failed atomic.Bool
	r := playRigWith(t, func(fr *featureRig) {
		fr.ensure = func(addr string) error {
			if addr == alice && failed.CompareAndSwap(false, true) {
				return errors.New("451 try again later")
			}
			return nil
		}
	})
	r.send(host, "", "new", "new raubritter players "+alice+" "+bob)
	bw := unwrap(r.await(bob, "welcome"))
	step := featureLegal.FindStringSubmatch(bw)
	key := featureKey.FindStringSubmatch(bw)
	if step == nil || key == nil {
		t.Fatalf("no key or legal step in bob's welcome:\n%s", bw)
	}
	r.send(bob, "", "Re: [herald G1]", "key "+key[1]+"\n"+step[1])
	time.Sleep(2 * time.Second) // rounds of the outbox: nothing of the game may go before alice's welcome
	if got := r.fetchNew(bob); len(got) != 0 {
		t.Errorf("bob got %d mails of the game before alice's welcome went, want none", len(got))
	}
	r.advance(time.Minute) // alice's welcome is due again
	first := r.await(alice, "")
	if !strings.HasSuffix(subjectOf(first), "welcome") {
		t.Errorf("alice's first mail is %q, not her welcome", subjectOf(first))
	}
	r.await(bob, "move applied")
	r.await(alice, "")
}
