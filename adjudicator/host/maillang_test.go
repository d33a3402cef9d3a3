package host_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// turnIn is the whole turn of the player to move in game id, their first
// legal steps, written in lang as herald shows them (Game.StepIn), and
// that player.
func (r *rig) turnIn(id int64, lang notation.Lang) (string, host.Player) {
	r.t.Helper()
	g := r.game(id)
	m, err := adjudicator.Start(r.h.Registry(), g.Record)
	if err != nil {
		r.t.Fatal(err)
	}
	who := m.State.ToMove()[0]
	var steps []string
	for slices.Contains(m.State.ToMove(), who) {
		st := m.State.Legal(who)[0].String()
		if _, err := m.Submit(who, st, "", ""); err != nil {
			r.t.Fatal(err)
		}
		steps = append(steps, m.Game.StepIn(st, lang))
	}
	return strings.Join(steps, "\n"), g.Players[slices.IndexFunc(g.Players, func(p host.Player) bool { return p.Name == who })]
}

// TestMailLangRemembered: a player who chose no language (lang) and wrote
// a move in French with nothing else French in the mail gets every later
// mail in French, the other's moves and the reminders too, until a mail of
// theirs says English; a mail that says nothing (English steps alone)
// changes nothing; a language chosen with lang wins over the mails'. The
// move's echo is in the mover's words ("plaine château f5").
func TestMailLangRemembered(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"},
		Timing: host.Timing{Deadline: 48 * time.Hour}})
	steps, a := r.turnIn(id, notation.French)
	if !strings.Contains(steps, "plaine") && !strings.Contains(steps, "forêt") && !strings.Contains(steps, "montagnes") && !strings.Contains(steps, "lac") {
		t.Fatalf("the first turn in French: %q", steps)
	}
	rep := r.send(id, a.Address, "key "+a.Secret+"\n"+steps)
	if g := r.game(id); rep.Outcome != host.Applied || g.Players[0].MailLang != host.LangFrench || g.Players[0].Lang != "" || g.Players[1].MailLang != "" {
		t.Fatalf("alice's move in French: %s, mail langs %q %q", rep.Outcome, g.Players[0].MailLang, g.Players[1].MailLang)
	}
	echo := to(rep.Notices, a.Address)[0]
	if echo.Lang != notation.French || !strings.Contains(echo.Text, "Votre coup 1 a été appliqué :\n  "+strings.ReplaceAll(steps, "\n", "\n  ")+"\n") {
		t.Errorf("alice's echo, not in her words:\n%s", echo.Text)
	}
	// bob's move: alice hears of it in French.
	rep = r.playTurn(id)
	if n := to(rep.Notices, a.Address); len(n) != 1 || n[0].Lang != notation.French || !strings.Contains(n[0].Text, "bob a joué le coup 2 :\n  ") {
		t.Fatalf("alice's news of bob's move: %+v", n)
	} else if bobs := r.game(id).Record.Moves[1].Text; !strings.Contains(n[0].Text, raubritter.Game.StepIn(strings.Split(bobs, "\n")[0], notation.French)) {
		t.Errorf("bob's steps not in French for alice:\n%s", n[0].Text)
	}
	// Her reminder too.
	r.clock = r.clock.Add(37 * time.Hour)
	if got := r.tick(); len(got) != 1 || got[0].To != a.Address || got[0].Lang != notation.French || !strings.Contains(got[0].Text, "Partie G1") {
		t.Errorf("alice's reminder: %v", got)
	}
	// English steps alone say nothing: still French.
	steps, _ = r.turnIn(id, notation.English)
	rep = r.send(id, a.Address, "key "+a.Secret+"\n"+steps)
	if echo := to(rep.Notices, a.Address); rep.Outcome != host.Applied || echo[0].Lang != notation.French || r.game(id).Players[0].MailLang != host.LangFrench {
		t.Errorf("alice's move in English steps alone: %s, %+v", rep.Outcome, echo)
	}
	rep = r.playTurn(id)
	if n := to(rep.Notices, a.Address); len(n) != 1 || n[0].Lang != notation.French {
		t.Errorf("alice's news of bob's second move: %+v", n)
	}
	// An English mail: English from now on.
	rep = r.send(id, a.Address, "Hi herald, thanks for the game\nkey "+a.Secret+"\nshow")
	if g := r.game(id); rep.Outcome != host.Answered || rep.Notices[0].Lang != notation.English || g.Players[0].MailLang != "" {
		t.Errorf("alice's English mail: %s, lang %v, mail lang %q", rep.Outcome, rep.Notices[0].Lang, g.Players[0].MailLang)
	}
	steps, _ = r.turnIn(id, notation.English)
	r.send(id, a.Address, "key "+a.Secret+"\n"+steps)
	rep = r.playTurn(id)
	if n := to(rep.Notices, a.Address); len(n) != 1 || n[0].Lang != notation.English || !strings.Contains(n[0].Text, "bob played move") {
		t.Errorf("alice's news after her English mail: %+v", n)
	}
	// A language chosen wins over the mails'.
	r.send(id, a.Address, "key "+a.Secret+"\nlang en")
	steps, _ = r.turnIn(id, notation.French)
	rep = r.send(id, a.Address, "Bonjour, voici mon coup\nclé "+a.Secret+"\n"+steps)
	if g := r.game(id); rep.Outcome != host.Applied || to(rep.Notices, a.Address)[0].Lang != notation.English || g.Players[0].MailLang != host.LangFrench || g.Players[0].Lang != host.LangEnglish {
		t.Errorf("alice's French mail after lang en: %s, lang %q, mail lang %q", rep.Outcome, g.Players[0].Lang, g.Players[0].MailLang)
	}
	rep = r.playTurn(id)
	if n := to(rep.Notices, a.Address); len(n) != 1 || n[0].Lang != notation.English {
		t.Errorf("alice's news after lang en: %+v", n)
	}
}

// TestObserverLang: an observer gets the moves in the language they
// observed in (the host who plays no seat, in French), one that a player
// subscribed in English; observing again in English makes it English.
func TestObserverLang(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	g := r.game(id)
	a := g.Players[0]
	if rep := r.send(id, "h@x.org", "clé "+g.HostKey+"\nobserver"); rep.Outcome != host.Answered || rep.Notices[0].Lang != notation.French {
		t.Fatalf("the host's observer: %+v", rep)
	}
	if rep := invited(r, id, a.Address, "key "+a.Secret+"\nobserve dave@z.org", "dave@z.org"); rep.Outcome != host.Answered {
		t.Fatalf("alice's observe dave: %+v", rep)
	}
	rep := r.playTurn(id)
	if n := to(rep.Notices, "h@x.org"); len(n) != 1 || n[0].Lang != notation.French || !strings.Contains(n[0].Text, "a joué le coup 1 :") {
		t.Errorf("the host's news, in French: %+v", n)
	}
	if n := to(rep.Notices, "dave@z.org"); len(n) != 1 || n[0].Lang != notation.English || !strings.Contains(n[0].Text, "played move 1:") {
		t.Errorf("dave's news, in English: %+v", n)
	}
	if rep := r.send(id, "h@x.org", "key "+g.HostKey+"\nobserve"); rep.Outcome != host.Answered || rep.Notices[0].Lang != notation.English {
		t.Fatalf("the host observes again in English: %+v", rep)
	}
	rep = r.playTurn(id)
	if n := to(rep.Notices, "h@x.org"); len(n) != 1 || n[0].Lang != notation.English || !strings.Contains(n[0].Text, "played move 2:") {
		t.Errorf("the host's news, in English now: %+v", n)
	}
	// The host observes in French again, then allows no observers (in
	// English): each observer is told in the language they observed in.
	if rep := r.send(id, "h@x.org", "clé "+g.HostKey+"\nobserver"); rep.Outcome != host.Answered {
		t.Fatalf("the host's observer: %+v", rep)
	}
	rep = r.send(id, "h@x.org", "key "+g.HostKey+"\nset observers off")
	dropped := func(addr string) *host.Notice {
		for i, n := range rep.Notices {
			if n.To == addr && n.Topic == "no longer observed" {
				return &rep.Notices[i]
			}
		}
		t.Fatalf("%s is not told they no longer observe: %+v", addr, rep)
		return nil
	}
	if n := dropped("h@x.org"); n.Lang != notation.French || !strings.Contains(n.Text, "n'accepte plus d'observateurs") {
		t.Errorf("the host, who observed in French: %+v", n)
	}
	if n := dropped("dave@z.org"); n.Lang != notation.English || !strings.Contains(n.Text, "now allows no observers") {
		t.Errorf("dave, who observes in English: %+v", n)
	}
}

// TestReplaceByBotLang: the host hands bob's seat to the bot, in French:
// the host's answer and alice's news (she chose French) say so in French,
// with the bot's moves and the board in her words; bob, who chose nothing
// and wrote nothing, is told in French too, the language he was welcomed
// in.
func TestReplaceByBotLang(t *testing.T) {
	r := newRigOf(t, false, adjudicator.NewRegistry(raubritter.Game).WithRobot(bot.Robot{}))
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}, Lang: notation.French})
	g := r.game(id)
	a := g.Players[0]
	if rep := r.send(id, a.Address, "key "+a.Secret+"\nlang fr"); rep.Outcome != host.Answered {
		t.Fatalf("lang fr: %+v", rep)
	}
	rep := r.send(id, "h@x.org", "clé "+g.HostKey+"\nremplace bob par bot:1")
	if rep.Outcome != host.Answered {
		t.Fatalf("replace: %+v", rep)
	}
	if n := to(rep.Notices, "h@x.org"); len(n) != 1 || n[0].Lang != notation.French || !strings.Contains(n[0].Text, "a confié la place de bob au bot (bot:1)") {
		t.Errorf("the host's answer, in French: %+v", n)
	}
	if n := to(rep.Notices, "alice@x.org"); len(n) != 1 || n[0].Lang != notation.French || !strings.Contains(n[0].Text, "a confié la place de bob au bot (bot:1)") {
		t.Errorf("alice's news, in French: %+v", n)
	} else if strings.Contains(n[0].Text, "played move") {
		t.Errorf("alice's news has English in it:\n%s", n[0].Text)
	}
	if n := to(rep.Notices, "bob@y.org"); len(n) != 1 || n[0].Lang != notation.French || !strings.Contains(n[0].Text, "a confié votre place (bob) au bot (bot:1)") {
		t.Errorf("bob's notice, in French: %+v", n)
	}
}

// TestInviteesWrittenToInTheGamesLanguage: a game started by a mail in
// French welcomes every player in French, and goes on writing to each in
// French until a mail of theirs is in English: before, bob, welcomed in
// French, was told of alice's first move in English (hand play over
// Postfix + Dovecot). A game started in English writes English.
func TestInviteesWrittenToInTheGamesLanguage(t *testing.T) {
	r := newRig(t, false)
	id, notices := r.create(host.CreateRequest{Host: "alice@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}, Lang: notation.French})
	if n := to(notices, "bob@y.org"); len(n) != 1 || n[0].Lang != notation.French {
		t.Fatalf("bob's welcome: %+v", n)
	}
	g := r.game(id)
	a, b := g.Players[0], g.Players[1]
	news := func(rep host.Reply, who string) host.Notice {
		t.Helper()
		n := to(rep.Notices, who)
		if len(n) == 0 {
			t.Fatalf("no news for %s: %+v", who, rep)
		}
		return n[0]
	}
	rep := r.send(id, a.Address, "key "+a.Secret+"\nkeep plain")
	if n := news(rep, "bob@y.org"); n.Lang != notation.French {
		t.Errorf("bob's news of alice's step, after a French welcome: %s", n.Lang)
	}
	rep = r.send(id, b.Address, "key "+b.Secret+"\nkeep plain village")
	if rep.Outcome != host.Applied {
		t.Fatalf("bob's step: %+v", rep)
	}
	rep = r.send(id, a.Address, "key "+a.Secret+"\nshow")
	if n := news(rep, "alice@x.org"); n.Lang != notation.English {
		t.Errorf("alice's answer to a mail in English: %s", n.Lang)
	}

	id2, notices := r.create(host.CreateRequest{Host: "carol@x.org", Game: "raubritter", Players: []string{"carol@x.org", "dave@y.org"}})
	if n := to(notices, "dave@y.org"); len(n) != 1 || n[0].Lang != notation.English || r.game(id2).Players[1].MailLang != "" {
		t.Errorf("dave, in a game started in English: %+v", n)
	}
}

// TestSealedWaitingInFrench: a French player whose sealed step is in is
// told whom the game waits for in French, the others' sealed steps too
// (« les étapes scellées de … sont prises »), not in English.
func TestSealedWaitingInFrench(t *testing.T) {
	r := newRig(t, false)
	addrs := []string{"a@x.org", "b@x.org", "c@x.org", "d@x.org"}
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "lowenherz97", Players: addrs})
	g := r.game(id)
	for _, p := range g.Players {
		if rep := r.send(id, p.Address, "key "+p.Secret+"\nlang fr"); rep.Outcome != host.Answered {
			t.Fatalf("lang fr: %+v", rep)
		}
	}
	seen := false
	r.stepAround(id, func(who string, mv adjudicator.Move, rep host.Reply) bool {
		for _, n := range rep.Notices {
			if n.Seat != who || !strings.Contains(n.Text, "votre étape scellée est prise") {
				continue
			}
			_, line, _ := strings.Cut(n.Text, "on attend ")
			line, _, _ = strings.Cut(line, "\n")
			if strings.Contains(line, "sealed") || strings.Contains(line, "nobody") || !strings.Contains(line, "scellées de "+who) {
				t.Errorf("%s, whose sealed step is in, reads « on attend %s »", who, line)
			}
			seen = true
		}
		return !seen
	})
	if !seen {
		t.Fatal("no sealed step was taken in 400 steps")
	}
}

// TestLangAnswerInLangChosen: the answer to lang is in the language
// chosen, its frame (Notice.Lang: the subject, the transport's words) as
// its text, not in the language of the mail that chose: "lang fr" in an
// English mail is answered in French, "lang en" in a French one in
// English, and "lang auto" in the mail's own language.
func TestLangAnswerInLangChosen(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	a := r.game(id).Players[0]
	for _, tt := range []struct {
		body string
		want notation.Lang
		text string
	}{
		{"Hello,\nkey " + a.Secret + "\nlang fr\nThanks", notation.French, "herald vous écrira désormais en français"},
		{"Bonjour,\nclé " + a.Secret + "\nlangue en\nMerci", notation.English, "herald will now write to you in English"},
		{"Bonjour,\nclé " + a.Secret + "\nlangue auto\nMerci", notation.French, "herald répondra désormais à chacun de vos courriers"},
		{"Hello,\nkey " + a.Secret + "\nlang auto\nThanks", notation.English, "herald will now answer each of your mails"},
	} {
		rep := r.send(id, a.Address, tt.body)
		if n := to(rep.Notices, a.Address); rep.Outcome != host.Answered || len(n) != 1 || n[0].Lang != tt.want || !strings.Contains(n[0].Text, tt.text) {
			t.Errorf("%q: %s, %+v; want an answer in %s holding %q", tt.body, rep.Outcome, n, tt.want, tt.text)
		}
	}
}

// TestLangByTheHost: the host who plays no seat may not choose a language
// (lang is a player's choice), and is told so in the language herald
// writes to them in, the language of their mails: not "English" to a host
// who writes French.
func TestLangByTheHost(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}, Lang: notation.French})
	g := r.game(id)
	rep := r.send(id, "h@x.org", "Bonjour,\nclé "+g.HostKey+"\nlangue en")
	if n := to(rep.Notices, "h@x.org"); rep.Outcome != host.Rejected || len(n) != 1 || n[0].Lang != notation.French || !strings.Contains(n[0].Text, "langue est un choix\nde joueur") {
		t.Errorf("the host's lang, in French: %s, %+v", rep.Outcome, n)
	}
	rep = r.send(id, "h@x.org", "Hello,\nkey "+g.HostKey+"\nlang fr")
	if n := to(rep.Notices, "h@x.org"); rep.Outcome != host.Rejected || len(n) != 1 || n[0].Lang != notation.English || !strings.Contains(n[0].Text, "lang is a player's choice") {
		t.Errorf("the host's lang, in English: %s, %+v", rep.Outcome, n)
	}
}

// TestLangBesideOtherLines: a lang line beside other lines (show, a move)
// makes the whole answer the language chosen, the wrapper, the labels of
// the parts and the parts after it, not only its own part (found by hand
// over real mail: "lang fr" and "show" in an English mail came back half
// French).
func TestLangBesideOtherLines(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	a := r.game(id).Players[0]
	rep := r.send(id, a.Address, "Hello,\nkey "+a.Secret+"\nlang fr\nshow\nThanks")
	n := to(rep.Notices, a.Address)
	if len(n) != 1 || n[0].Lang != notation.French {
		t.Fatalf("lang fr and show: %+v", n)
	}
	for _, want := range []string{"Votre courrier demandait 2 choses", "[ligne 3 : langue fr]", "[ligne 4 : montre]"} {
		if !strings.Contains(n[0].Text, want) {
			t.Errorf("lang fr and show: the answer lacks %q:\n%s", want, n[0].Text)
		}
	}
	if strings.Contains(n[0].Text, "Your mail asked") || strings.Contains(n[0].Text, "[line ") {
		t.Errorf("lang fr and show: English in the answer:\n%s", n[0].Text)
	}
	rep = r.send(id, a.Address, "Bonjour,\nclé "+a.Secret+"\nlangue en\nmontre\nMerci")
	if n := to(rep.Notices, a.Address); len(n) != 1 || n[0].Lang != notation.English || !strings.Contains(n[0].Text, "Your mail asked for 2 things") || !strings.Contains(n[0].Text, "[line 4: show]") {
		t.Errorf("langue en and montre: %+v", n)
	}
	// bob chose nothing: French steps beside an English command make the
	// answer French, as French steps alone would.
	r.send(id, a.Address, "key "+a.Secret+"\nlang auto")
	steps, p := r.turnIn(id, notation.French)
	rep = r.send(id, p.Address, "key "+p.Secret+"\n"+steps+"\nnotify turn")
	if n := to(rep.Notices, p.Address); len(n) == 0 || n[0].Lang != notation.French || !strings.Contains(n[0].Text, "Votre courrier demandait 2 choses") ||
		!strings.Contains(n[0].Text, "Joué ; les nouvelles de votre coup suivent.\n") {
		t.Errorf("French steps and notify: %+v", n)
	}
}

// TestRefusalFrameInItsLanguage: French steps refused, in a mail with no
// other French word, get a refusal whose frame (Notice.Lang: the subject)
// is French like its text (found by hand over real mail: "move refused"
// over a French body).
func TestRefusalFrameInItsLanguage(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	_, p := r.turnIn(id, notation.English)
	rep := r.send(id, p.Address, "key "+p.Secret+"\ngarde plaine z99")
	if n := to(rep.Notices, p.Address); rep.Outcome != host.Rejected || len(n) != 1 || n[0].Lang != notation.French || !strings.Contains(n[0].Text, "Votre coup n'a pas été appliqué") {
		t.Errorf("French steps refused: %s, %+v", rep.Outcome, n)
	}
}

// TestCommandWordsIgnored: words after a command that takes none ("show
// zzz", found by a stranger) are named as ignored in the answer, in the
// player's language; the command itself is answered.
func TestCommandWordsIgnored(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	a := r.game(id).Players[0]
	for _, c := range []struct{ body, want string }{
		{"key " + a.Secret + "\nshow zzzzzz", "(Line 2: show takes nothing after it; ignored: zzzzzz)"},
		{"clé " + a.Secret + "\nmontre le plateau", "(Ligne 2 : montre ne prend rien après lui ; ignoré : le plateau)"},
		{"key " + a.Secret + "\nhistory", ""},
	} {
		rep := r.send(id, a.Address, c.body)
		n := to(rep.Notices, a.Address)
		if rep.Outcome != host.Answered || len(n) != 1 {
			t.Fatalf("%q: %+v", c.body, rep)
		}
		if c.want == "" {
			if strings.Contains(n[0].Text, "ignor") {
				t.Errorf("%q: the answer names something ignored:\n%s", c.body, n[0].Text)
			}
		} else if !strings.Contains(n[0].Text, c.want) {
			t.Errorf("%q: the answer does not say %q:\n%s", c.body, c.want, n[0].Text)
		}
	}
}
