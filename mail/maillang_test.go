package mail

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// TestMailFrenchMoveRemembered: alice, who never wrote "lang", sends one
// move in French, steps alone ("plaine château f5"); herald echoes them in
// her words, and the next mail she gets, the news of bob's move, is French
// too (subject, text and bob's steps); bob, who writes English, still
// reads English. carol, who observes in French, gets the moves in
// French; dan in English.
func TestMailFrenchMoveRemembered(t *testing.T) {
	f := newFixture(t)
	f.start()
	m, err := adjudicator.SelfPlay(raubritter.Game, f.svc.cfg.Registry, 2, "fixture", nil, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	who := map[string]string{"p1": "alice@herald.test", "p2": "bob@herald.test"}
	first, second := m.Record.Moves[0], m.Record.Moves[1]
	if who[first.Player] != "alice@herald.test" || who[second.Player] != "bob@herald.test" {
		t.Fatalf("the fixture's first moves are %s's and %s's", first.Player, second.Player)
	}
	fr := raubritter.Game.StepIn(first.Text, notation.French)
	if fr == first.Text {
		t.Fatalf("alice's first move %q has no French", first.Text)
	}
	// carol observes in French, dan in English.
	for _, o := range []struct{ addr, ask, confirm string }{{"carol@herald.test", "observer G1", "observer"}, {"dan@herald.test", "observe G1", "observe"}} {
		f.handle(f.mail(o.addr, "G1", o.ask), Answered)
		token := regexp.MustCompile(`(?m)^  ` + o.confirm + ` G1 (\S+)\r?$`).FindStringSubmatch(text(f.sent()[o.addr][0]))
		if token == nil {
			t.Fatalf("%s: no token in the confirmation", o.addr)
		}
		f.handle(f.mail(o.addr, "Re: [herald G1]", o.confirm+" G1 "+token[1]), Answered)
		f.sent()
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", fmt.Sprintf("key %s\n%s", f.keys["alice@herald.test"], fr)), Applied)
	got := f.sent()
	// The tile alice keeps is hidden: its public form, in each language.
	if c := text(got["carol@herald.test"][0]); !strings.Contains(c, "alice a joué le coup 1 :\n  alice garde une plaquette A\n") || !strings.Contains(c, "Partie G1, coup 2") {
		t.Errorf("carol, who observes in French, got:\n%s", c)
	}
	if d := text(got["dan@herald.test"][0]); !strings.Contains(d, "alice played move 1:\n  alice keeps an A tile\n") || !strings.Contains(d, "Game G1, move 2") {
		t.Errorf("dan, who observes in English, got:\n%s", d)
	}
	echo := text(got["alice@herald.test"][0])
	if !strings.Contains(echo, "Votre coup 1 a été appliqué :\n  "+strings.ReplaceAll(fr, "\n", "\n  ")+"\n") {
		t.Errorf("alice's echo is not in her words (%q):\n%s", fr, echo)
	}
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", fmt.Sprintf("key %s\n%s", f.keys["bob@herald.test"], second.Text)), Applied)
	got = f.sent()
	news := got["alice@herald.test"]
	if len(news) != 1 {
		t.Fatalf("alice got %d mails of bob's move, want one", len(news))
	}
	subject, _, _ := strings.Cut(news[0], "\n")
	body := text(news[0])
	stepsFR := raubritter.Game.StepIn(strings.Split(second.Text, "\n")[0], notation.French)
	if !strings.Contains(subject, "à vous de jouer") || !strings.Contains(body, "bob a joué le coup 2 :\n  "+stepsFR+"\n") || !strings.Contains(body, "C'EST VOTRE TOUR") {
		t.Errorf("alice's news of bob's move is not French (want %q):\n%s\n%s", stepsFR, subject, body)
	}
	if b := text(got["bob@herald.test"][0]); !strings.Contains(b, "Your move 2 was applied:\n  "+strings.Split(second.Text, "\n")[0]+"\n") {
		t.Errorf("bob's echo is not in English:\n%s", b)
	}
}

// text is the text of a mail as the fixture gives it (its subject on the
// first line, then the raw mail), unwrapped.
func text(sent string) string {
	_, raw, _ := strings.Cut(sent, "\n")
	msg, err := Extract(strings.NewReader(raw), nil)
	if err != nil {
		return err.Error()
	}
	return unwrap(msg.Body)
}

// TestFrenchMoveMailStatements: herald remembers a player's language in
// the store only when it changes (host.Player.MailLang): once alice and
// bob have written French, their French move mails cost no more
// statements than English ones (TestMoveMailStatements).
func TestFrenchMoveMailStatements(t *testing.T) {
	f := newFixture(t)
	f.start()
	m, err := adjudicator.SelfPlay(raubritter.Game, f.svc.cfg.Registry, 2, "fixture", nil, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	who := map[string]string{"p1": "alice@herald.test", "p2": "bob@herald.test"}
	var raws [][]byte
	for _, mv := range m.Record.Moves[:13] {
		raws = append(raws, f.mail(who[mv.Player], "Re: [herald G1]", fmt.Sprintf("game G1\nkey %s\n%s", f.keys[who[mv.Player]], raubritter.Game.StepIn(mv.Text, notation.French))))
	}
	const perBatch = 5 // as TestMoveMailStatements's
	count := func(raws [][]byte) int64 {
		t.Helper()
		before := f.st.Statements()
		outs, err := f.svc.HandleBatch(t.Context(), raws)
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range outs {
			if o != Applied {
				t.Fatalf("mail %d: %s, want applied", i+1, o)
			}
		}
		return f.st.Statements() - before
	}
	count(raws[:2]) // alice's and bob's first: French from now on
	for _, p := range mustGame(t, f).Players {
		if p.MailLang != "fr" {
			t.Fatalf("%s's language after a French move: %q", p.Name, p.MailLang)
		}
	}
	if got, want := count(raws[2:12]), int64(10*maxMoveMailStatements+perBatch); got > want {
		t.Errorf("a batch of 10 French move mails ran %d statements, want at most %d (%d a mail)", got, want, maxMoveMailStatements)
	}
	if got, want := count(raws[12:13]), int64(maxMoveMailStatements+perBatch); got > want {
		t.Errorf("a French move mail alone ran %d statements, want at most %d", got, want)
	}
}

// mustGame reads game G1 of f.
func mustGame(t *testing.T, f *fixture) *host.Game {
	t.Helper()
	g, err := f.st.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
