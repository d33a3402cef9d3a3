package mail

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
)

var update = flag.Bool("update", false, "rewrite the golden mails in testdata/golden")

// TestGoldenMails renders every kind of mail herald sends, from fixed
// games (fixed keys, seed and clock), and compares what a player reads of
// each (its subject and text) with testdata/golden/KIND.txt. go test
// -run TestGoldenMails -update rewrites them; review the diff.
func TestGoldenMails(t *testing.T) {
	golden := map[string]string{}
	keep := func(kind, raw string) {
		t.Helper()
		subject, mime, _ := strings.Cut(raw, "\n")
		msg, err := Extract(strings.NewReader(mime), &ExtractOptions{MaxAttachment: 1 << 20})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		var b strings.Builder
		b.WriteString("Subject: " + subject + "\n")
		for _, a := range msg.Attachments {
			b.WriteString("Attachment: " + a.Name + "\n")
		}
		b.WriteString("\n" + msg.Body)
		golden[kind] = b.String()
	}
	last := func(ms []string) string { return ms[len(ms)-1] }

	// A game played to its end: the welcome, the host's confirmation, the
	// news, a turn, each command, a refusal, an unauthenticated mail and
	// the final mails.
	f := newFixture(t)
	f.handle(f.mail("host@herald.test", "new game", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	keep("welcome", got["alice@herald.test"][0])
	keep("host-confirmation", got["host@herald.test"][0])
	for _, who := range []string{"alice@herald.test", "bob@herald.test"} {
		f.keys[who] = keyLine.FindStringSubmatch(got[who][0])[1]
	}
	a, b := "key "+f.keys["alice@herald.test"]+"\n", "key "+f.keys["bob@herald.test"]+"\n"
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", a+"keep plain village"), Applied)
	got = f.sent()
	keep("applied", got["alice@herald.test"][0])
	keep("your-turn", got["bob@herald.test"][0])
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", "Hi herald,\n"+b+"garde forêt village\nThanks!"), Applied)
	got = f.sent()
	keep("applied-prose-ignored", got["bob@herald.test"][0])
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", a+"plain castle f5; knights east 2 2"), Rejected)
	keep("refused", f.sent()["alice@herald.test"][0])
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", b+"plain castle f5"), Rejected)
	keep("refused-not-your-turn", f.sent()["bob@herald.test"][0])
	for _, c := range []string{"show", "legal", "history", "help", "abandon"} {
		f.handle(f.mail("alice@herald.test", "Re: [herald G1]", a+c), Answered)
		keep("command-"+c, f.sent()["alice@herald.test"][0])
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key 0000\nshow"), Rejected)
	keep("not-authenticated", f.sent()["alice@herald.test"][0])
	f.handle(f.mail("carol@herald.test", "hello", "show"), Rejected)
	keep("which-game", f.sent()["carol@herald.test"][0])
	f.handle(f.mail("carol@herald.test", "watching", "observe G1"), Answered)
	confirm := f.sent()["carol@herald.test"][0]
	keep("observe-confirm", confirm)
	token := regexp.MustCompile(`(?m)^  observe G1 (\S+)\r?$`).FindStringSubmatch(confirm)
	if token == nil {
		t.Fatalf("no token in the confirmation:\n%s", confirm)
	}
	f.handle(f.mail("carol@herald.test", "Re: [herald G1] confirm observe", "observe G1 "+token[1]), Answered)
	keep("observe", f.sent()["carol@herald.test"][0])
	players := map[string]string{"alice": "alice@herald.test", "bob": "bob@herald.test"}
	f.playToEnd(adjudicator.NewRNG("golden"), players, func(i int) {
		if i == 0 {
			keep("observer-news", f.sent()["carol@herald.test"][0])
		}
	})
	got = f.sent()
	keep("game-over", last(got["alice@herald.test"]))
	keep("game-over-host", last(got["host@herald.test"]))

	// A second game, ended early: a resignation, then the host abandons a
	// third.
	f.handle(f.mail("host@herald.test", "new", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got = f.sent()
	kb := keyLine.FindStringSubmatch(got["bob@herald.test"][0])[1]
	f.handle(f.mail("bob@herald.test", "Re: [herald G2]", "key "+kb+"\nresign"), Ended)
	keep("resigned", f.sent()["alice@herald.test"][0])
	f.handle(f.mail("host@herald.test", "new", "new raubritter players alice@herald.test bob@herald.test"), Created)
	hk := hostKeyLine.FindStringSubmatch(f.sent()["host@herald.test"][0])[1]
	f.handle(f.mail("host@herald.test", "Re: [herald G3]", "key "+hk+"\nabandon"), Ended)
	keep("abandoned", f.sent()["host@herald.test"][0])
	f.handle(f.mail("host@herald.test", "new", "new chess players alice@herald.test bob@herald.test"), Rejected)
	keep("new-refused", f.sent()["host@herald.test"][0])

	// A fourth game with a deadline: the welcome gives it, the host changes
	// the grace, then the reminder, the late notice and the forfeit.
	f.handle(f.mail("host@herald.test", "new", "new raubritter players alice@herald.test bob@herald.test deadline 2d policy forfeit"), Created)
	got = f.sent()
	keep("welcome-deadline", got["alice@herald.test"][0])
	hk4 := hostKeyLine.FindStringSubmatch(got["host@herald.test"][0])[1]
	f.handle(f.mail("host@herald.test", "Re: [herald G4]", "key "+hk4+"\nset grace 12h"), Answered)
	keep("settings", f.sent()["bob@herald.test"][0])
	tick := func(after time.Duration) map[string][]string {
		t.Helper()
		f.clock = f.clock.Add(after)
		if _, err := f.svc.Tick(t.Context()); err != nil {
			t.Fatal(err)
		}
		return f.sent()
	}
	keep("reminder", tick(36 * time.Hour)["alice@herald.test"][0])
	keep("late", tick(12 * time.Hour)["host@herald.test"][0])
	keep("forfeit", tick(12 * time.Hour)["bob@herald.test"][0])

	// A fifth game: a preview, a vacation, a take-back asked and accepted,
	// notify turn, a replacement.
	f.handle(f.mail("host@herald.test", "new", "new raubritter players alice@herald.test bob@herald.test deadline 3d"), Created)
	got = f.sent()
	k5 := map[string]string{}
	for _, who := range []string{"alice@herald.test", "bob@herald.test"} {
		k5[who] = "key " + keyLine.FindStringSubmatch(got[who][0])[1] + "\n"
	}
	hk5 := hostKeyLine.FindStringSubmatch(got["host@herald.test"][0])[1]
	f.handle(f.mail("alice@herald.test", "Re: [herald G5]", k5["alice@herald.test"]+"preview keep plain village"), Answered)
	keep("preview", f.sent()["alice@herald.test"][0])
	f.handle(f.mail("alice@herald.test", "Re: [herald G5]", k5["alice@herald.test"]+"keep plain village"), Applied)
	f.sent()
	f.handle(f.mail("bob@herald.test", "Re: [herald G5]", k5["bob@herald.test"]+"vacation 2d"), Answered)
	got = f.sent()
	keep("vacation", got["bob@herald.test"][0])
	keep("vacation-news", got["alice@herald.test"][0])
	f.handle(f.mail("alice@herald.test", "Re: [herald G5]", k5["alice@herald.test"]+"undo"), Answered)
	got = f.sent()
	keep("undo-asked", got["bob@herald.test"][0])
	f.handle(f.mail("bob@herald.test", "Re: [herald G5]", k5["bob@herald.test"]+"undo accept"), Applied)
	keep("taken-back", f.sent()["alice@herald.test"][0])
	f.handle(f.mail("bob@herald.test", "Re: [herald G5]", k5["bob@herald.test"]+"notify turn"), Answered)
	keep("notify", f.sent()["bob@herald.test"][0])
	f.handle(f.mail("host@herald.test", "Re: [herald G5]", "key "+hk5+"\nreplace bob by carol@herald.test"), Answered)
	got = f.sent()
	keep("replaced-welcome", got["carol@herald.test"][0])
	keep("replaced-old", got["bob@herald.test"][0])

	for kind, text := range golden {
		path := filepath.Join("testdata", "golden", kind+".txt")
		checkGolden(t, path, text)
	}
}

// firstDiffLine returns the 1-based number of the first line where a and
// b differ.
func firstDiffLine(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}

// checkGolden compares text with the golden file at path, or with -update
// writes it there.
func checkGolden(t *testing.T, path, text string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run with -update to create it)", err)
		return
	}
	if !bytes.Equal(want, []byte(text)) {
		t.Errorf("%s differs at line %d; got:\n%s", path, firstDiffLine(string(want), text), text)
	}
}
