package mail

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"testing"
	"time"

	"github.com/emersion/go-message"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// TestMailPictureInReadersLanguage: in one game, the news of a move to
// alice, who writes French, and to carol, who observes in French, carry
// the picture drawn in French (its keys, legend and status in French),
// and those to bob and dan, who read English, the English one: the
// picture each mail carries is its board's, stored once for the mails of
// the move in each language, whatever their order.
func TestMailPictureInReadersLanguage(t *testing.T) {
	f := newFixture(t)
	f.start()
	m, err := adjudicator.SelfPlay(raubritter.Game, f.svc.cfg.Registry, 2, "fixture", nil, func() string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	first, second := m.Record.Moves[0], m.Record.Moves[1]
	for _, o := range []struct{ addr, ask, confirm string }{{"carol@herald.test", "observer G1", "observer"}, {"dan@herald.test", "observe G1", "observe"}} {
		f.handle(f.mail(o.addr, "G1", o.ask), Answered)
		token := regexp.MustCompile(`(?m)^  ` + o.confirm + ` G1 (\S+)\r?$`).FindStringSubmatch(text(f.sent()[o.addr][0]))
		if token == nil {
			t.Fatalf("%s: no token in the confirmation", o.addr)
		}
		f.handle(f.mail(o.addr, "Re: [herald G1]", o.confirm+" G1 "+token[1]), Answered)
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", fmt.Sprintf("key %s\n%s", f.keys["alice@herald.test"], raubritter.Game.StepIn(first.Text, notation.French))), Applied)
	f.sent()
	ctx := context.Background()
	seen, err := f.st.Due(ctx, f.clock.Add(time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	f.handle(f.mail("bob@herald.test", "Re: [herald G1]", fmt.Sprintf("key %s\n%s", f.keys["bob@herald.test"], second.Text)), Applied)
	due, err := f.st.Due(ctx, f.clock.Add(time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	news := due[len(seen):]
	want := map[string]notation.Lang{"alice@herald.test": notation.French, "bob@herald.test": notation.English,
		"carol@herald.test": notation.French, "dan@herald.test": notation.English}
	if len(news) != len(want) {
		t.Fatalf("%d mails of bob's move, want %d", len(news), len(want))
	}
	shared := map[notation.Lang][]byte{}
	pngs := map[notation.Lang][]byte{}
	for _, o := range news {
		lang, ok := want[o.Recipient]
		if !ok {
			t.Fatalf("a mail of bob's move to %s", o.Recipient)
		}
		var b picture.Board
		if err := json.Unmarshal(o.Shared, &b); err != nil {
			t.Fatalf("the board of the mail to %s: %v", o.Recipient, err)
		}
		if b.Lang != lang {
			t.Errorf("the mail to %s carries the board in %v, want %v", o.Recipient, b.Lang, lang)
		}
		if s, ok := shared[lang]; ok && !bytes.Equal(s, o.Shared) {
			t.Errorf("the mails in %v carry two boards", lang)
		}
		shared[lang] = o.Shared
		got := mailPNG(t, f.render(o))
		drawn, err := b.PNG()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, drawn) {
			t.Errorf("the mail to %s carries a picture that is not its board's", o.Recipient)
		}
		pngs[lang] = got
	}
	fr, en := &picture.Board{}, &picture.Board{}
	if err := json.Unmarshal(shared[notation.French], fr); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(shared[notation.English], en); err != nil {
		t.Fatal(err)
	}
	if fr.Keys[0].Text != "plaine" || fr.Status != "coup 3 : on attend alice" || en.Keys[0].Text != "plain" || en.Status != "move 3: waiting for alice" {
		t.Errorf("the French board's key %q and status %q; the English one's %q and %q", fr.Keys[0].Text, fr.Status, en.Keys[0].Text, en.Status)
	}
	if bytes.Equal(pngs[notation.French], pngs[notation.English]) {
		t.Error("the French and English pictures are the same")
	}
}

// mailPNG returns the PNG a mail herald composed carries.
func mailPNG(t *testing.T, raw []byte) []byte {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("a mail that does not read: %v", err)
	}
	var data []byte
	err = e.Walk(func(_ []int, part *message.Entity, err error) error {
		if err != nil {
			return err
		}
		if ct, _, _ := part.Header.ContentType(); ct == "image/png" && data == nil {
			data, err = io.ReadAll(part.Body)
		}
		return err
	})
	if err != nil || data == nil {
		t.Fatalf("no picture (%v) in\n%.2000s", err, raw)
	}
	return data
}
