package mail

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/picture"
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
	pic := startPicture(t)
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

// startPicture is the picture of a Raubritter game of alice and bob at
// its start (mustRecord's), titled "G1 Raubritter".
func startPicture(t *testing.T) *picture.Board {
	t.Helper()
	m, err := adjudicator.Start(adjudicator.NewRegistry(raubritter.Game), mustRecord(t))
	if err != nil {
		t.Fatal(err)
	}
	pic, err := adjudicator.PictureOf(m, "G1 Raubritter")
	if err != nil {
		t.Fatal(err)
	}
	return pic
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

// BenchmarkDraft measures the encoding of the two drafts of a move of a
// Raubritter game in the middle of its play and of its picture, encoded
// once and stored apart from them (PictureShared), as the intake queues
// them; bytes/move counts the picture once.
func BenchmarkDraft(b *testing.B) {
	reg := adjudicator.NewRegistry(raubritter.Game)
	played, err := adjudicator.SelfPlay(raubritter.Game, reg, 2, "fixture", nil, func() string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	rec := *played.Record
	rec.Moves = rec.Moves[:len(rec.Moves)/2]
	m, err := adjudicator.Start(reg, &rec)
	if err != nil {
		b.Fatal(err)
	}
	pic, err := adjudicator.PictureOf(m, "G1 Raubritter")
	if err != nil {
		b.Fatal(err)
	}
	var mails []outMail
	for _, p := range []string{"alice", "bob"} {
		body := "Game G1, move 12: waiting for bob.\n\n" + m.State.Text(p)
		mails = append(mails, outMail{To: p + "@herald.test", Subject: "[herald G1] Raubritter (Robber Knights): move applied",
			MessageID: "c5306819aecb8fbbf08a994c@herald.test", InReplyTo: "m2-1795794749218608861@test", ReplyTo: "herald+g1.tok1@herald.test",
			References: []string{"game-1@herald.test", "m2-1795794749218608861@test"}, Body: body, PictureShared: true})
	}
	size := 0
	for b.Loop() {
		data := pic.JSON()
		size = len(data)
		for _, om := range mails {
			om.pictureJSON = data
			d, err := om.draft()
			if err != nil {
				b.Fatal(err)
			}
			size += len(d)
		}
	}
	b.ReportMetric(float64(size), "bytes/move")
}

// TestDraftIsJSONMarshal holds the drafts, written by hand, to what
// json.Marshal writes for them, byte for byte: every field set or not,
// strings it escapes, a record attached, a picture encoded once or not.
func TestDraftIsJSONMarshal(t *testing.T) {
	pic := startPicture(t)
	full := outMail{To: "alice@herald.test", Subject: "[herald G1] Raubritter (Robber Knights): move applied", MessageID: "c53@herald.test",
		InReplyTo: "m2-17@test", ReplyTo: "herald+g1.tok1@herald.test", References: []string{"game-1@herald.test", "m2-17@test"},
		Body: ":: game G1 move 2\n\n\"Your\" move\\\twas applied:\r\n  keep forest village\n", RecordOf: 1,
		Attachment: &Attachment{Name: "G1-raubritter.yaml", Data: []byte("herald: 1\n<&>\x00")}, Picture: pic}
	odd := full
	odd.To, odd.Subject, odd.Body, odd.References = "ünï@herald.test", "<b> & </b> \u2028", "bad \xff utf-8\b\f\x00", []string{}
	cases := map[string]outMail{"empty": {}, "full": full, "odd": odd, "no picture": {To: "a@b.test", Body: "text\n"}}
	withJSON := full
	withJSON.pictureJSON = pic.JSON()
	cases["picture encoded once"] = withJSON
	shared := full
	shared.Picture, shared.PictureShared, shared.pictureJSON = nil, true, pic.JSON()
	cases["picture shared"] = shared
	// draft writes outMail's fields one by one: a field added to outMail
	// must be added to draft (and to full above).
	if n := reflect.TypeFor[outMail]().NumField(); n != 13 {
		t.Fatalf("outMail has %d fields; draft writes the 11 it had and leaves out pictureJSON and lang", n)
	}
	for name, om := range cases {
		want, err := json.Marshal(draftJSON{Version: draftVersion, outMail: om})
		if err != nil {
			t.Fatal(err)
		}
		got, err := om.draft()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: draft:\n%s\njson.Marshal:\n%s", name, got, want)
		}
	}
}

// FuzzDraftIsJSONMarshal holds the drafts to json.Marshal on arbitrary
// strings.
func FuzzDraftIsJSONMarshal(f *testing.F) {
	f.Add("alice@herald.test", "[herald G1] move", "Game G1\n  +-----+\n\"a\" \\ \t<&>\xff\u2028", "m1@test", int64(1), true)
	f.Fuzz(func(t *testing.T, to, subject, body, ref string, record int64, attach bool) {
		om := outMail{To: to, Subject: subject, MessageID: ref, InReplyTo: ref, ReplyTo: to, Body: body, RecordOf: record}
		if ref != "" {
			om.References = []string{ref, body}
		}
		if attach {
			om.Attachment = &Attachment{Name: subject, Data: []byte(body)}
		}
		want, err := json.Marshal(draftJSON{Version: draftVersion, outMail: om})
		if err != nil {
			t.Fatal(err)
		}
		got, err := om.draft()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("draft: %v\n%s\njson.Marshal:\n%s", err, got, want)
		}
	})
}
