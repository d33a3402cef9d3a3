package mail

import (
	"regexp"
	"strings"
	"testing"
)

// TestMailUndoWithProse: a player's mail that asks to take moves back
// between a greeting and a signature, as people write, is answered about
// the undo alone, the greeting and the signature listed as ignored (field
// test: "Sorry folks, misclick." above undo and "Alice" below it were
// answered, besides the undo, "Your mail held no steps and no command."
// with the whole help, under the subject "help, undo asked").
func TestMailUndoWithProse(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, bob = "alice@herald.local", "bob@herald.local"
	g := startPair(r)
	r.send(alice, "", "Re: [herald G1] welcome", "key "+g.akey+"\n"+g.astep)
	r.await(alice, "move applied")
	r.send(bob, "", "Re: [herald G1] welcome", "key "+g.bkey+"\n"+g.bstep)
	r.await(bob, "move applied")

	r.send(alice, "", "Re: [herald G1] your turn", "key "+g.akey+"\nSorry folks, misclick.\nundo\n\nAlice\n-- \nAlice Liddell")
	got := unwrap(r.await(alice, "undo asked"))
	if s := subjectOf(got); strings.Contains(s, "help") {
		t.Errorf("alice's answer is about help too: %q", s)
	}
	for _, bad := range []string{"held no steps", "Commands, one per line", "[your steps]"} {
		if strings.Contains(got, bad) {
			t.Errorf("alice's answer holds %q:\n%s", bad, got)
		}
	}
	for _, want := range []string{"You asked to take back moves 1 to 2", "Lines ignored (text, not steps):\n  2: Sorry folks, misclick.\n  5: Alice\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("alice's answer lacks %q:\n%s", want, got)
		}
	}
	if n := unwrap(r.await(bob, "undo asked by alice")); !strings.Contains(n, "undo accept") {
		t.Errorf("bob was not asked:\n%s", n)
	}
}

// TestMailObserveWithGreeting: a request to observe written as people
// write it, between a greeting and a signature, gets its confirmation
// alone (field test: "Hi, I'd like to watch." and "Alice" around
// "observe G4" were answered that "the other lines of your mail were not
// carried out: herald plays moves and commands only from a mail with the
// player's key line"); a step beside the request still gets that note.
func TestMailObserveWithGreeting(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const carol, dan = "carol@herald.local", "dan@herald.local"
	startPair(r)

	r.send(dan, "", "watching", "Hi, I'd like to watch.\n\nobserve G1\n\nThanks,\nDan\n-- \nDan Dare, Mekon Street")
	got := unwrap(r.await(dan, "confirm observe"))
	if !strings.Contains(got, "observe G1 ") || strings.Contains(got, "not carried out") {
		t.Errorf("dan's confirmation:\n%s", got)
	}
	r.send(carol, "", "watching", "Hello,\nobserve G1\nplain castle e5\nCarol")
	if got := unwrap(r.await(carol, "confirm observe")); !strings.Contains(got, "The other lines of your mail were not carried out") {
		t.Errorf("carol's step beside her request is not said to be left aside:\n%s", got)
	}
}

// TestMailCommandsBesideMove: show, legal, history or help written in a
// mail beside a move are answered, in the order of the lines, as the
// README says of commands and steps together (field test: "preview",
// two steps and "history" got the preview alone; a move with "history"
// below it got the move's news, the history dropped without a word).
func TestMailCommandsBesideMove(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice = "alice@herald.local"
	g := startPair(r)
	r.send(alice, "", "Re: [herald G1] welcome", "key "+g.akey+"\n"+g.astep+"\nhistory")
	got := unwrap(r.await(alice, "move applied"))
	for _, want := range []string{"[line 3: history]", "Your move 1 was applied:\n  " + g.astep} {
		if !strings.Contains(got, want) {
			t.Errorf("alice's answer lacks %q:\n%s", want, got)
		}
	}
	r.send(alice, "", "Re: [herald G1] welcome", "key "+g.akey+"\npreview\n"+g.astep+"\nhelp")
	got = unwrap(r.await(alice, "help"))
	for _, want := range []string{"[your preview]", "[line 4: help]", "Commands, one per line"} {
		if !strings.Contains(got, want) {
			t.Errorf("alice's answer to a preview and help lacks %q:\n%s", want, got)
		}
	}
}

// TestMailEndWithProse: a resignation or an abandon written between a
// greeting and a signature lists the lines it ignored, as the answers to
// undo and observe do (field test: "Sorry all, I must stop." above resign
// and "Bob" below it were dropped without a word).
func TestMailEndWithProse(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, bob, host = "alice@herald.local", "bob@herald.local", "host@herald.local"
	g1 := startPair(r)
	r.send(bob, "", "Re: [herald G1]", "key "+g1.bkey+"\nSorry all, I must stop.\nresign\n\nBob\n-- \nBob Morane")
	if got := unwrap(r.await(bob, "game ended")); !strings.Contains(got, "Lines ignored (text, not steps):\n  2: Sorry all, I must stop.\n  5: Bob\n") {
		t.Errorf("bob's resignation does not list the lines it ignored:\n%s", got)
	}
	if got := unwrap(r.await(alice, "game ended")); strings.Contains(got, "Lines ignored") {
		t.Errorf("alice is told of the lines of bob's mail:\n%s", got)
	}
	r.await(host, "game ended") // of G1
	g2 := startPair(r)
	r.send(host, "", "Re: [herald G2]", "key "+g2.hkey+"\nHello,\nabandon\nThe host")
	if got := unwrap(r.await(host, "game ended")); !strings.Contains(got, "Lines ignored (text, not steps):\n  2: Hello,\n  4: The host\n") {
		t.Errorf("the host's abandon does not list the lines it ignored:\n%s", got)
	}
}

// TestMailMoveSentTwice: a move that comes again in a mail of its own
// Message-ID (a mail program that sends twice) is answered that it was
// already applied, when and as which move, in the mail's language, and
// nothing changes (field test: the second copy got "not your turn").
func TestMailMoveSentTwice(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, bob = "alice@herald.local", "bob@herald.local"
	g := startPair(r)
	r.send(alice, "", "Re: [herald G1] welcome", "key "+g.akey+"\n"+g.astep)
	r.await(alice, "move applied")
	r.await(bob, "")
	for _, c := range []struct{ key, subject, want string }{
		{"key", "move already applied", "This move was already applied (at 09:00 UTC, move 1); nothing changed."},
		{"clé", "", "Ce coup a déjà été appliqué (à 09:00 UTC, coup 1) ; rien n'a changé."}, // its subject French, "coup déjà appliqué", encoded
	} {
		r.send(alice, "", "Re: [herald G1] welcome", c.key+" "+g.akey+"\n"+g.astep)
		got := unwrap(r.await(alice, c.subject))
		if !strings.Contains(got, c.want) || strings.Contains(got, "not your turn") || strings.Contains(got, "pas votre tour") {
			t.Errorf("the answer to the move sent again lacks %q:\n%s", c.want, got)
		}
	}
	r.send(bob, "", "Re: [herald G1] welcome", "key "+g.bkey+"\n"+g.bstep)
	if got := unwrap(r.await(bob, "")); !strings.Contains(got, "Your move 2 was applied") {
		t.Errorf("bob's move after the copies is not move 2:\n%s", got)
	}
}

// TestMailForgedUnobserve: an unobserve whose sender is not authenticated
// (a forged From is no different) ends no subscription: herald mails the
// observer's address a confirmation, the observer still gets the moves,
// and only the line it gives, written back, ends it (field test: a
// forged "unobserve G1" in an observer's name unsubscribed them).
func TestMailForgedUnobserve(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, dan = "alice@herald.local", "dan@herald.local"
	g := startPair(r)
	r.send(dan, "", "watching", "observe G1")
	ok := regexp.MustCompile(`(?m)^  observe G1 (\S+)$`).FindStringSubmatch(unwrap(r.await(dan, "confirm observe")))
	if ok == nil {
		t.Fatal("no token in dan's confirmation")
	}
	r.send(dan, "", "watching", "observe G1 "+ok[1])
	r.await(dan, "observe")

	r.send(dan, "", "stop", "unobserve G1") // anyone could have sent it
	confirm := unwrap(r.await(dan, "confirm unobserve"))
	tok := regexp.MustCompile(`(?m)^  unobserve G1 (\S+)$`).FindStringSubmatch(confirm)
	if tok == nil || !strings.Contains(confirm, "you still observe the game") {
		t.Fatalf("dan's confirmation to stop observing:\n%s", confirm)
	}
	r.send(alice, "", "Re: [herald G1]", "key "+g.akey+"\n"+g.astep)
	if news := unwrap(r.await(dan, "")); !strings.Contains(news, "alice played move 1") {
		t.Errorf("dan, still an observer, is not told of alice's move:\n%s", news)
	}
	r.send(dan, "", "stop", "unobserve G1 wrong-token")
	if got := unwrap(r.await(dan, "unobserve refused")); !strings.Contains(got, "you still observe it") {
		t.Errorf("a wrong token:\n%s", got)
	}
	r.send(dan, "", "stop", "unobserve G1 "+tok[1])
	if got := unwrap(r.await(dan, "unobserve")); !strings.Contains(got, "You no longer observe game G1.") {
		t.Errorf("dan's confirmed unobserve:\n%s", got)
	}
}

// TestMailFrenchPlayer: a player who writes "langue fr" gets the whole
// frame of herald's mails in French in that game, their own moves' news
// and the news of the others' moves, while the other player of the same
// game still gets English; a player who chose nothing gets the answer to
// a French mail (clé, montre) in French (field test: a French player's
// mails had their errors alone in French, the rest in English).
func TestMailFrenchPlayer(t *testing.T) {
	t.Parallel()
	r := playRig(t, nil, 0)
	const alice, bob = "alice@herald.local", "bob@herald.local"
	g := startPair(r)
	check := func(who, got string, want, bad []string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s's mail lacks %q:\n%s", who, w, got)
			}
		}
		for _, w := range bad {
			if strings.Contains(got, w) {
				t.Errorf("%s's mail holds %q:\n%s", who, w, got)
			}
		}
	}
	r.send(alice, "", "Re: [herald G1]", "key "+g.akey+"\nlangue fr")
	check("alice", unwrap(r.await(alice, "langue")), []string{"herald vous écrira désormais en français dans la partie G1"}, nil)

	// Her move, written with English words: answered in French.
	r.send(alice, "", "Re: [herald G1]", "key "+g.akey+"\n"+g.astep)
	check("alice", unwrap(r.await(alice, "")), []string{"Votre coup 1 a été appliqué :", "Partie G1, coup 2 : ", "Scores : "}, []string{"Your move", "Scores: "})
	bw := unwrap(r.await(bob, ""))
	check("bob", bw, []string{"alice played move 1:", "Game G1, move 2: IT IS YOUR TURN, bob.", "Your legal steps"}, []string{"a joué"})
	r.send(bob, "", "Re: [herald G1]", "key "+g.bkey+"\n"+featureLegal.FindStringSubmatch(bw)[1])
	r.await(bob, "")
	check("alice", unwrap(r.await(alice, "")), []string{"bob a joué le coup 2 :", "Partie G1, coup 3 : C'EST VOTRE TOUR, alice.", "Vos étapes possibles (",
		"Pour jouer, répondez à ce courrier avec vos étapes"}, []string{"played move", "IT IS YOUR TURN", "Your legal steps", "To play, reply"})
	r.send(alice, "", "Re: [herald G1]", "key "+g.akey+"\nhistory\nshow")
	check("alice", unwrap(r.await(alice, "")), []string{"Partie G1, coup 3 : C'EST VOTRE TOUR, alice."}, []string{"IT IS YOUR TURN"})

	// bob chose nothing: a French mail is answered in French, an English
	// one in English.
	r.send(bob, "", "Re: [herald G1]", "clé "+g.bkey+"\nmontre")
	check("bob", unwrap(r.await(bob, "montre")), []string{"Partie G1, coup 3 : on attend alice"}, []string{"waiting for"})
	r.send(bob, "", "Re: [herald G1]", "key "+g.bkey+"\nshow")
	check("bob", unwrap(r.await(bob, "show")), []string{"Game G1, move 3: waiting for alice"}, nil)
}
