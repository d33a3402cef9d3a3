package mail

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games/raubritter"
)

// TestProseAroundSteps plays moves sent as real mail clients write them,
// with greetings, thanks and signatures around the steps and the quoted
// mail below (issue 15, item 10): each move is applied and the mover's
// confirmation lists the lines ignored. A misspelt keyword or a bad line
// between the steps is still refused.
func TestProseAroundSteps(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.sent()
	m, err := adjudicator.SelfPlay(raubritter.Game, f.svc.cfg.Registry, 2, "fixture", nil, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	who := map[string]string{"p1": "alice@herald.test", "p2": "bob@herald.test"}
	for i, tt := range []struct {
		client  string
		headers []string
		body    string // KEY and STEPS are replaced
		ignored []string
	}{
		{"gmail", []string{"MIME-Version: 1.0"},
			"Hi herald,\n\nkey KEY\nSTEPS\n\nThanks!\n\nOn Mon, 23 Nov 2026 at 09:00, herald <herald@herald.test> wrote:\n\n> Game G1, move 1: IT IS YOUR TURN, alice.\n> plain castle f5\n",
			[]string{"1: Hi herald,", "Thanks!"}},
		{"outlook", nil,
			"key KEY\nSTEPS\n\nBest regards,\nBob Martin\nTel: +33 6 12 34 56 78\n\n________________________________\nFrom: herald <herald@herald.test>\nSent: Monday, November 23, 2026 9:00 AM\nTo: Bob Martin <bob@herald.test>\nSubject: [herald G1] Raubritter: your turn\n\nGame G1, move 2\n",
			[]string{"Best regards,", "Bob Martin", "Tel: +33 6 12 34 56 78"}},
		{"apple mail", nil,
			"key KEY\nSTEPS\n\nSent from my iPhone\n\n> On 23 Nov 2026, at 09:00, herald <herald@herald.test> wrote:\n>\n> Game G1, move 3\n",
			[]string{"Sent from my iPhone"}},
		{"thunderbird, french", nil,
			"Bonjour,\n\nclé : KEY\nSTEPS\nMerci — ok\n\nLe 23/11/2026 à 09:00, herald a écrit :\n> Partie G1, coup 4\n",
			[]string{"1: Bonjour,", "8: Merci"}},
	} {
		mv := m.Record.Moves[i]
		from := who[mv.Player]
		body := strings.NewReplacer("KEY", f.keys[from], "STEPS", mv.Text).Replace(tt.body)
		f.handle(f.mail(from, "Re: [herald G1] Raubritter: your turn", body, tt.headers...), Applied)
		got := f.sent()[from]
		if len(got) != 1 {
			t.Fatalf("%s: %s got %d mails, want the confirmation", tt.client, from, len(got))
		}
		for _, l := range tt.ignored {
			if !strings.Contains(got[0], l) {
				t.Errorf("%s: the confirmation does not list %q as ignored:\n%s", tt.client, l, got[0])
			}
		}
		if strings.Contains(got[0], "(a step?") || strings.Contains(got[0], "(une étape ?") {
			t.Errorf("%s: a greeting or a signature is taken for a misspelt step:\n%s", tt.client, got[0])
		}
		if !strings.Contains(got[0], "Lines ignored") && !strings.Contains(got[0], "Lignes ignor") {
			t.Errorf("%s: the confirmation lists no ignored line:\n%s", tt.client, got[0])
		}
	}

	// Still refused: a misspelt keyword (with its did-you-mean) and a bad
	// line between the steps.
	a := f.keys["alice@herald.test"]
	for _, tt := range []struct{ body, says string }{
		{"Hi herald,\nkey " + a + "\nplian castle e5\nThanks!", "did you mean"},
		{"key " + a + "\nplain castle e5\nthanks!\nend", "3:7: unexpected character"},
	} {
		f.handle(f.mail("alice@herald.test", "Re: [herald G1]", tt.body), Rejected)
		got := f.sent()["alice@herald.test"]
		if len(got) != 1 || !strings.Contains(got[0], tt.says) {
			t.Errorf("%q: the refusal lacks %q:\n%s", tt.body, tt.says, strings.Join(got, "\n"))
		}
	}
}

// TestProseControlsShown: a prose line carrying a terminal escape or a
// bidi override is listed as ignored with those characters written out
// (\x1b, U+202E), never sent back raw to the player's screen.
func TestProseControlsShown(t *testing.T) {
	got := aliceApplied(t, "Hi \x1b]0;owned\x07herald\x1b[2J,\nkey KEY\nkeep plain village\nThanks \u202Eereh\n")
	for _, want := range []string{`1: Hi \x1b]0;owned\x07herald\x1b[2J,`, `4: Thanks U+202Eereh`} {
		if !strings.Contains(got, want) {
			t.Errorf("the answer lacks %q:\n%s", want, got)
		}
	}
	if strings.ContainsAny(got, "\x1b\x07\u202E") {
		t.Errorf("the answer sends back a raw control character:\n%q", got)
	}
}

// TestResignBesideSteps: a resign beside real steps is refused, the steps
// not played and the game going on, with an answer that says why, in the
// mail's language; before, the game ended and the steps were dropped
// without a word. A resign among prose alone still ends the game.
func TestResignBesideSteps(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.sent()
	text := func(raw string) string { return unwrap(strings.ReplaceAll(raw, "\r\n", "\n")) }
	for _, tt := range []struct{ body, want string }{
		{"Hi,\nkey " + f.keys["alice@herald.test"] + "\nkeep plain village\nresign\nAlice", "Your mail holds steps beside its resign line: herald did neither"},
		{"clé " + f.keys["alice@herald.test"] + "\nabandonne\ngarde plaine village", "Votre courrier contient des étapes en plus de la ligne abandonne"},
	} {
		f.handle(f.mail("alice@herald.test", "Re: [herald G1]", tt.body), Rejected)
		got := f.sent()
		if len(got) != 1 || !strings.Contains(text(got["alice@herald.test"][0]), tt.want) {
			t.Errorf("%q: %v", tt.body, got)
		}
	}
	g, err := f.st.Game(t.Context(), 1)
	if err != nil || g.Status != host.Playing || len(g.Record.Moves) != 0 {
		t.Fatalf("game G1 after the refusals: %+v, %v", g, err)
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "Sorry,\nkey "+f.keys["alice@herald.test"]+"\nresign\nAlice"), Ended)
}

// TestShortTypoHinted: a short keyword misspelt alone on a line after the
// steps ("kepe", found by hand as "drwa" and "tkae 1") stays ignored, a
// short word alone being too often a greeting or a name, but the answer
// asks whether it was a step, with the keyword it looks like; "Bye" and
// "Thanks" get no such question.
func TestShortTypoHinted(t *testing.T) {
	got := aliceApplied(t, "key KEY\nkeep plain village\nkepe\nBye\nThanks")
	if !strings.Contains(got, "  3: kepe\n     (a step? did you mean \"keep\"?)\n  4: Bye\n  5: Thanks\n") {
		t.Errorf("the answer does not ask whether kepe was a step, or asks it of Bye or Thanks:\n%s", got)
	}
}

// TestSwappedKeywordHinted: a keyword of three letters with two letters
// swapped, alone on a line ("edn", found by hand over real mail), is
// hinted at like a longer one; a name or a word one letter from it
// ("Ben", "and") is not.
func TestSwappedKeywordHinted(t *testing.T) {
	got := aliceApplied(t, "key KEY\nkeep plain village\nedn\nBen\nand")
	if !strings.Contains(got, "  3: edn\n     (a step? did you mean \"end\"?)\n  4: Ben\n  5: and\n") {
		t.Errorf("the answer does not ask whether edn was a step, or asks it of Ben or and:\n%s", got)
	}
}

// TestListMarksAroundSteps: a step written as an item of a list, with a
// bullet, a number or a colon after its first word, is the step (found
// by hand over real mail: "- keep plain village" was "unknown step").
func TestListMarksAroundSteps(t *testing.T) {
	for _, line := range []string{"- keep plain village", "1) KEEP PLAIN VILLAGE", "Keep: plain village"} {
		if got := aliceApplied(t, "key KEY\n"+line); !strings.Contains(got, "Your move 1 was applied") {
			t.Errorf("%q: %s", line, got)
		}
	}
}

// aliceApplied sends body, with KEY replaced by alice's key, as alice's
// reply in a new game G1, whose first step it must apply, and returns
// the answer to her, its lines ended by \n and its quoted-printable
// undone.
func aliceApplied(t *testing.T, body string) string {
	t.Helper()
	f := newFixture(t)
	f.start()
	f.sent()
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", strings.ReplaceAll(body, "KEY", f.keys["alice@herald.test"])), Applied)
	return unwrap(strings.ReplaceAll(f.sent()["alice@herald.test"][0], "\r\n", "\n"))
}
