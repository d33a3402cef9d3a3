package mail

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	heraldbot "github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/games/raubritter"
)

// botReason is a bot's step in a mail, with the reason the others may be
// told (bot.Reason.PublicWhy): what it gains at once and its tries, never
// the search's estimates, which the bot's hidden hand informs.
var botReason = regexp.MustCompile(`\n  \S[^\n]*\n      \((\d+ points? at once, more than any other player gains by it; )?its search's pick of \d+ tries\)\n`)

// botEstimate is what a bot's reason must never tell the others: the share
// of its tries and their mean outcome (bot.Reason.Why, for a hint).
var botEstimate = regexp.MustCompile(`chosen in \d+%|mean outcome|only legal step`)

// playAgainstBot has alice, whose key is key and whose last mail was
// last, play her legal steps by mail until she has been told of at least
// n of the bot's moves, none with the search's estimates; it returns her
// last mail, and how many of those moves came with a reason (a sealed or
// forced step has none).
func playAgainstBot(t *testing.T, r *queued, alice, key, last, label string, n int) (string, int) {
	t.Helper()
	seen := strings.Count(last, label+" played move")
	reasoned := 0
	for i := 0; seen < n; i++ {
		if i > 30 {
			t.Fatalf("alice was told of %d of the bot's moves after %d of hers", seen, i)
		}
		step := featureLegal.FindStringSubmatch(last)
		if step == nil {
			t.Fatalf("alice's mail has no legal step:\n%s", last)
		}
		r.send(alice, "", "Re: [herald G1]", "key "+key+"\n"+step[1])
		last = unwrap(r.await(alice, ""))
		if c := strings.Count(last, label+" played move"); c > 0 {
			seen += c
			news := last[strings.Index(last, label+" played move"):]
			if botReason.MatchString(news) {
				reasoned++
			}
			if botEstimate.MatchString(news) {
				t.Errorf("the bot's move told with the search's estimates, which its hand informs:\n%s", last)
			}
		}
	}
	return last, reasoned
}

// checkBotRecord adjudicates game 1 of r: every move legal, and the bot's
// moves (at least one) played again by the bot.
func checkBotRecord(t *testing.T, r *queued, reg *adjudicator.Registry) *adjudicator.Record {
	t.Helper()
	g, err := r.svc.host.Store().Game(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := adjudicator.Adjudicate(reg, g.Record)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Illegal != nil {
		t.Fatalf("move %d of the mail game refused: %v", rep.Illegal.Number, rep.Illegal.Err)
	}
	bots := 0
	for _, v := range rep.Verdicts {
		if v.Bot != "" {
			bots++
		}
	}
	if bots == 0 {
		t.Fatalf("no bot move in the record: %+v", g.Record.Moves)
	}
	return g.Record
}

// TestMailBotSeat: "new raubritter players alice bot:1" starts a game in
// which the bot plays a seat: it gets no mail, alice hears of its moves
// with the search's reason, and the record's bot moves are the bot's.
func TestMailBotSeat(t *testing.T) {
	t.Parallel()
	reg := adjudicator.NewRegistry(raubritter.Game).WithRobot(heraldbot.Robot{})
	var mu sync.Mutex
	var to []string // every recipient of herald's mails
	r := playRigWith(t, func(r *featureRig) {
		r.registry = reg
		r.ensure = func(addr string) error {
			mu.Lock()
			defer mu.Unlock()
			to = append(to, addr)
			return nil
		}
	})
	const alice, host = "alice@herald.local", "host@herald.local"
	r.send(host, "", "new", "new raubritter players "+alice+" bot:9")
	if got := unwrap(r.await(host, "new game refused")); !strings.Contains(got, `"bot:9" is not a bot's seat: write bot:1 to bot:3`) {
		t.Errorf("a bot of no level:\n%s", got)
	}
	r.send(host, "", "new", "new raubritter players bot:1 bot:2")
	if got := unwrap(r.await(host, "new game refused")); !strings.Contains(got, "a game by mail needs at least one person among its players") {
		t.Errorf("a game of bots alone by mail:\n%s", got)
	}
	r.send(host, "", "new", "new raubritter players "+alice+" bot:1")
	aw := unwrap(r.await(alice, "welcome"))
	hw := unwrap(r.await(host, "game started"))
	if !strings.Contains(hw, "alice@herald.local, bot:1.") || !regexp.MustCompile(`Players, in turn order: (alice, bot|bot, alice)\n`).MatchString(aw) {
		t.Errorf("the game's start does not say the bot plays:\n%s\n%s", hw, aw)
	}
	key := featureKey.FindStringSubmatch(aw)
	if key == nil {
		t.Fatalf("no key:\n%s", aw)
	}
	// Of three moves of the bot, at least one is searched, and told with
	// its reason.
	if _, reasoned := playAgainstBot(t, r, alice, key[1], aw, "bot (bot:1)", 3); reasoned == 0 {
		t.Errorf("none of the bot's moves came with its reason")
	}
	// The bot is asked no consent: alice's undo takes her last move, and
	// the bot's since, back at once.
	before := checkBotRecord(t, r, reg)
	r.send(alice, "", "Re: [herald G1]", "key "+key[1]+"\nundo")
	if got := unwrap(r.await(alice, "moves taken back")); !strings.Contains(got, "Every player agreed: ") {
		t.Errorf("alice's undo against the bot:\n%s", got)
	}
	rec := checkBotRecord(t, r, reg)
	if len(rec.Undone) != 1 || len(rec.Moves) >= len(before.Moves) {
		t.Errorf("after the undo: %d moves (%d before), undone %+v", len(rec.Moves), len(before.Moves), rec.Undone)
	}
	if rec.Players[1] != "bot" {
		t.Errorf("players = %v, want the bot's seat named bot", rec.Players)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(to) < 4 {
		t.Errorf("herald's mails went to %v: the hook saw too few", to)
	}
	for _, a := range to {
		if a != alice && a != host {
			t.Errorf("a mail went to %s", a)
		}
	}
}

// TestMailReplaceByBot: the host hands the seat of bob, who has gone, to
// the bot, which plays it at once when it is to move; bob's key stops
// working; alice plays on against the bot; then the host hands the seat
// to carol, who gets a welcome with her key. The record holds bob's, the
// bot's and carol's moves, and adjudicates.
func TestMailReplaceByBot(t *testing.T) {
	t.Parallel()
	reg := adjudicator.NewRegistry(raubritter.Game).WithRobot(heraldbot.Robot{})
	r := playRig(t, reg, 0)
	const alice, bob, carol, host = "alice@herald.local", "bob@herald.local", "carol@herald.local", "host@herald.local"
	r.send(host, "", "new", "new raubritter players "+alice+" "+bob)
	aw := unwrap(r.await(alice, "welcome"))
	r.await(bob, "welcome")
	hk := hostKeyLine.FindStringSubmatch(r.await(host, "game started"))
	key := featureKey.FindStringSubmatch(aw)
	if hk == nil || key == nil {
		t.Fatalf("no host key or key:\n%s", aw)
	}
	r.send(host, "", "Re: [herald G1]", "key "+hk[1]+"\nreplace bob by bot:4")
	if got := unwrap(r.await(host, "replace refused")); !strings.Contains(got, `"bot:4" is not a bot's seat`) || !strings.Contains(got, "replace bob by bot:2") {
		t.Errorf("replace by a bot of no level:\n%s", got)
	}
	r.send(host, "", "Re: [herald G1]", "key "+hk[1]+"\nreplace bob by bot:1")
	if got := unwrap(r.await(bob, "seat handed over")); !strings.Contains(got, "handed your seat (bob) to the bot (bot:1).\nYour key no longer works") {
		t.Errorf("bob's notice:\n%s", got)
	}
	news := unwrap(r.await(alice, "seat handed over"))
	if !strings.Contains(news, "has handed the seat of bob to the bot (bot:1):") {
		t.Errorf("alice's news of the bot:\n%s", news)
	}
	last := aw
	if strings.Contains(news, "bob (bot:1) played move") {
		last = news
	}
	last, _ = playAgainstBot(t, r, alice, key[1], last, "bob (bot:1)", 2)

	// The seat may be named by its player's name or, as here, by the
	// bot that plays it.
	r.send(host, "", "Re: [herald G1]", "key "+hk[1]+"\nreplace bot:1 by "+carol)
	cw := unwrap(r.await(carol, "welcome"))
	if !strings.Contains(cw, "The host has handed you the seat of bob, played until now by the\nbot (bot:1).") || featureKey.FindStringSubmatch(cw) == nil {
		t.Errorf("carol's welcome:\n%s", cw)
	}
	if got := unwrap(r.await(alice, "seat handed over")); !strings.Contains(got, "handed the seat of bob, played by the bot\n(bot:1) until now, to carol@herald.local.") {
		t.Errorf("alice's news of carol:\n%s", got)
	}
	rec := checkBotRecord(t, r, reg)
	for i, mv := range rec.Moves {
		if mv.Player == "bob" && !strings.HasPrefix(mv.Source, "bot:") && !strings.HasPrefix(mv.Source, "mail:") {
			t.Errorf("move %d's source %q", i+1, mv.Source)
		}
	}
	_ = last
}

// TestMailHint: where this herald allows hints, a player's mail "hint"
// gets the bot's steps for their own seat, each with its reason, to them
// alone, and nothing is played; the same steps come again for the same
// position; where hints are off, the answer says so.
func TestMailHint(t *testing.T) {
	t.Parallel()
	for _, on := range []bool{true, false} {
		reg := adjudicator.NewRegistry(raubritter.Game).WithRobot(heraldbot.Robot{})
		r := playRigWith(t, func(r *featureRig) { r.registry, r.hints = reg, on })
		const alice, bob, host = "alice@herald.local", "bob@herald.local", "host@herald.local"
		r.send(host, "", "new", "new raubritter players "+alice+" "+bob)
		aw := unwrap(r.await(alice, "welcome"))
		bw := unwrap(r.await(bob, "welcome"))
		mover, w := alice, aw
		if featureLegal.FindStringSubmatch(aw) == nil {
			mover, w = bob, bw
		}
		key := featureKey.FindStringSubmatch(w)
		if key == nil {
			t.Fatalf("no key:\n%s", w)
		}
		r.send(mover, "", "Re: [herald G1]", "key "+key[1]+"\nhint")
		got := unwrap(r.await(mover, ""))
		if !on {
			if !strings.Contains(got, "Hints are off on this herald") {
				t.Errorf("hint where hints are off:\n%s", got)
			}
			continue
		}
		hint := regexp.MustCompile(`The bot suggests, from what you see alone \(your steps, one per line\):\n  (\S[^\n]*?)\n      \((chosen in \d+% of \d+ tries, mean outcome [01]\.\d\d of 1|the only legal step)\)\n`).FindStringSubmatch(got)
		if hint == nil {
			t.Fatalf("the answer to hint:\n%s", got)
		}
		if !strings.Contains(w, "\n  "+hint[1]+"\n") {
			t.Errorf("the hint %q is not one of the legal steps of the welcome:\n%s", hint[1], w)
		}
		r.send(mover, "", "Re: [herald G1]", "key "+key[1]+"\nhint")
		if again := unwrap(r.await(mover, "")); !strings.Contains(again, hint[0]) {
			t.Errorf("the hint changed with nothing played:\n%s\n---\n%s", got, again)
		}
		// In French: the same hint, its words and reason in French.
		r.send(mover, "", "Re: [herald G1]", "clé "+key[1]+"\nconseil")
		fr := unwrap(r.await(mover, ""))
		if !strings.Contains(fr, "Le bot suggère, d'après ce que vous seul voyez") || !strings.Contains(fr, "Rien n'a été joué") || strings.Contains(fr, "The bot suggests") || strings.Contains(fr, "chosen in") {
			t.Errorf("the hint in French:\n%s", fr)
		}
		g, err := r.svc.host.Store().Game(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Record.Moves) != 0 {
			t.Errorf("a hint played %v", g.Record.Moves)
		}
	}
}
