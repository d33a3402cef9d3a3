package mail

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/heritiers"
	"github.com/heraldgames/herald/games/lowenherz"
	"github.com/heraldgames/herald/games/lowenherz97"
	"github.com/heraldgames/herald/games/raubritter"
)

// TestGoldenMailsFRGames renders, for each game but Raubritter (which
// TestGoldenMailsFR follows), the answer to a French player's first move
// mail, written in French, and compares its subject and text with
// testdata/golden/fr/move-GAME.txt (-update rewrites them): the board's
// words are the game's French ones (adjudicator.LangTexter).
func TestGoldenMailsFRGames(t *testing.T) {
	f := newFixtureOf(t, adjudicator.NewRegistry(raubritter.Game, lowenherz.Game, lowenherz97.Game, heritiers.Game))
	text := func(raw string) string { return unwrap(strings.ReplaceAll(raw, "\r\n", "\n")) }
	for i, tt := range []struct{ game, player, steps string }{
		{"lowenherz", "alice@herald.test", "château a1 chevalier b1"},
		{"lowenherz97", "alice@herald.test", "château a1 chevalier a2"},
		{"heritiers", "bob@herald.test", "prendre 1"},
	} {
		f.handle(f.mail("host@herald.test", "nouvelle partie", "nouvelle "+tt.game+" joueurs alice@herald.test bob@herald.test"), Created)
		key := keyLineFR.FindStringSubmatch(text(f.sent()[tt.player][0]))[1]
		f.handle(f.mail(tt.player, fmt.Sprintf("Re: [herald G%d]", i+1), "clé "+key+"\n"+tt.steps), Applied)
		mails := f.sent()[tt.player]
		if len(mails) == 0 {
			t.Fatalf("%s: no answer", tt.game)
		}
		subject, mime, _ := strings.Cut(mails[len(mails)-1], "\n")
		msg, err := Extract(strings.NewReader(mime), &ExtractOptions{MaxAttachment: 1 << 20})
		if err != nil {
			t.Fatalf("%s: %v", tt.game, err)
		}
		checkGolden(t, filepath.Join("testdata", "golden", "fr", "move-"+tt.game+".txt"), "Subject: "+subject+"\n\n"+msg.Body)
	}
}

// TestGoldenGameOverHostFR plays a game of Raubritter to its end, started
// by a host who does not play and wrote "nouvelle": the host's mail of
// the end is in French, the board's words too, and is compared with
// testdata/golden/fr/game-over-host.txt (-update rewrites it).
func TestGoldenGameOverHostFR(t *testing.T) {
	f := newFixture(t)
	text := func(raw string) string { return unwrap(strings.ReplaceAll(raw, "\r\n", "\n")) }
	f.handle(f.mail("host@herald.test", "nouvelle partie", "nouvelle raubritter joueurs alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	players := map[string]string{"alice": "alice@herald.test", "bob": "bob@herald.test"}
	for _, addr := range players {
		f.keys[addr] = keyLineFR.FindStringSubmatch(text(got[addr][0]))[1]
	}
	f.playToEnd(adjudicator.NewRNG("game-over-host-fr"), players, nil)
	mails := f.sent()["host@herald.test"]
	if len(mails) == 0 {
		t.Fatal("the host was not told of the end")
	}
	subject, mime, _ := strings.Cut(mails[len(mails)-1], "\n")
	msg, err := Extract(strings.NewReader(mime), &ExtractOptions{MaxAttachment: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("Subject: " + subject + "\n")
	for _, a := range msg.Attachments {
		b.WriteString("Attachment: " + a.Name + "\n")
	}
	b.WriteString("\n" + msg.Body)
	checkGolden(t, filepath.Join("testdata", "golden", "fr", "game-over-host.txt"), b.String())
}
