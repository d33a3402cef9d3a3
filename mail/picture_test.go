package mail

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/raubritter"
)

// TestMailsCarryThePicture checks that the mails that show the board carry
// its picture inline (issue 20), with the HTML pointing at it by
// Content-ID, and that the others do not.
func TestMailsCarryThePicture(t *testing.T) {
	f := newFixture(t)
	f.handle(f.mail("host@herald.test", "new game", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	for _, raw := range []string{got["alice@herald.test"][0], got["bob@herald.test"][0]} {
		if !strings.Contains(raw, "Content-Type: image/png") || !strings.Contains(raw, "Content-Id: <board@herald>") && !strings.Contains(raw, "Content-ID: <board@herald>") ||
			!strings.Contains(raw, "cid:board@herald") {
			t.Fatalf("a welcome mail has no picture of the board:\n%.2000s", raw)
		}
	}
	key := keyLine.FindStringSubmatch(got["alice@herald.test"][0])[1]
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+key+"\nhelp"), Answered)
	if raw := f.sent()["alice@herald.test"][0]; strings.Contains(raw, "image/png") {
		t.Error("the answer to help carries a picture")
	}
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+key+"\nshow"), Answered)
	if raw := f.sent()["alice@herald.test"][0]; !strings.Contains(raw, "image/png") {
		t.Error("the answer to show has no picture")
	}
	msg, err := Extract(strings.NewReader(strings.SplitN(got["alice@herald.test"][0], "\n", 2)[1]), nil)
	if err != nil || !strings.Contains(msg.Body, "Welcome to game G1") || len(msg.Attachments) != 0 {
		t.Errorf("a mail with a picture does not read as its text: %v\n%s", err, msg.Body)
	}
}

// TestPictureEncodedOnce checks that a draft whose picture was encoded
// beforehand (once for every mail of a move) is, byte for byte, the draft
// that encodes the picture itself, and reads back with the picture.
func TestPictureEncodedOnce(t *testing.T) {
	m, err := adjudicator.Start(adjudicator.NewRegistry(raubritter.Game), mustRecord(t))
	if err != nil {
		t.Fatal(err)
	}
	pic, err := adjudicator.PictureOf(m, "G1 Raubritter")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(pic)
	if err != nil {
		t.Fatal(err)
	}
	om := outMail{To: "alice@herald.test", Subject: "[herald G1] move", MessageID: "x@herald.test", Body: "the board", RecordOf: 1, Picture: pic}
	want, err := om.draft()
	if err != nil {
		t.Fatal(err)
	}
	om.pictureJSON = data
	got, err := om.draft()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the draft with the picture encoded once:\n%s\nwant:\n%s", got, want)
	}
	d, err := readDraft(got)
	if err != nil || d.Picture == nil || !reflect.DeepEqual(d.Picture.Cells, pic.Cells) {
		t.Fatalf("the draft reads back as %+v, %v", d.Picture, err)
	}
}

func mustRecord(t *testing.T) *adjudicator.Record {
	t.Helper()
	rec, err := adjudicator.NewRecord(raubritter.Game, []string{"alice", "bob"}, nil, "fixture", nil)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestBurstDrawsNoPictureAhead checks that the mails of a batch of several
// mails (a burst) have no picture drawn ahead of the outbox, which would
// compete with the intake (and be drawn again, the cache emptied by then);
// a mail alone has its picture drawn at once; either way, every mail of a
// move carries its picture when the outbox renders it.
func TestBurstDrawsNoPictureAhead(t *testing.T) {
	f := newFixture(t)
	f.start()
	drawn := func() int {
		f.svc.drawing.Wait()
		f.svc.pictures.Lock()
		defer f.svc.pictures.Unlock()
		n := len(f.svc.pictures.m)
		clear(f.svc.pictures.m)
		return n
	}
	drawn() // the welcome mails'
	mails := f.moveMails(1, 4)
	outs, err := f.svc.HandleBatch(context.Background(), mails[:3])
	if err != nil || len(outs) != 3 {
		t.Fatalf("HandleBatch = %v, %v", outs, err)
	}
	if n := drawn(); n != 0 {
		t.Errorf("a batch of 3 moves drew %d pictures ahead, want none", n)
	}
	f.handle(mails[3], Applied)
	if n := drawn(); n != 1 {
		t.Errorf("a move alone drew %d pictures ahead, want 1", n)
	}
	got := f.sent()
	for _, who := range []string{"alice@herald.test", "bob@herald.test"} {
		if len(got[who]) != 4 {
			t.Fatalf("%s got %d mails, want the news of 4 moves", who, len(got[who]))
		}
		for i, raw := range got[who] {
			if !strings.Contains(raw, "Content-Type: image/png") {
				t.Errorf("%s's news of move %d has no picture", who, i+1)
			}
		}
	}
}
