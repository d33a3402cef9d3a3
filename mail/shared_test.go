package mail

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/picture"
)

// TestSharedPictureSameMail plays two moves and checks their mails: each
// draft leaves the board out (picture_shared), the store gives it back
// beside the draft, the same bytes for a move's two mails; and each mail
// the outbox renders is, byte for byte, the mail rendered from the draft
// as it was queued before the boards were stored apart (the board in it,
// no shared part): a row written before the migration sends the same mail.
func TestSharedPictureSameMail(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.sent() // the welcomes
	ctx := context.Background()
	for _, raw := range f.moveMails(1, 2) {
		f.handle(raw, Applied)
	}
	due, err := f.st.Due(ctx, f.clock.Add(time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	news := due[f.seen:]
	if len(news) != 4 {
		t.Fatalf("%d mails queued for 2 moves, want 4", len(news))
	}
	for i, o := range news {
		d, err := readDraft(o.Draft)
		if err != nil {
			t.Fatal(err)
		}
		if !d.PictureShared || d.Picture != nil || bytes.Contains(o.Draft, []byte(`"picture":`)) || len(o.Shared) == 0 {
			t.Fatalf("mail %d: the draft holds its board, or the board is not stored apart:\n%s\nshared: %q", i, o.Draft, o.Shared)
		}
		if i%2 == 1 && !bytes.Equal(o.Shared, news[i-1].Shared) {
			t.Errorf("mail %d: the two mails of a move have different boards", i)
		}
		var b picture.Board
		if err := json.Unmarshal(o.Shared, &b); err != nil {
			t.Fatal(err)
		}
		before := d.outMail
		before.PictureShared, before.Picture = false, &b
		old, err := before.draft()
		if err != nil {
			t.Fatal(err)
		}
		if len(old) < len(o.Draft)+len(o.Shared)-len(`,"picture_shared":true`)+len(`,"picture":`)-1 {
			t.Fatalf("mail %d: the draft with its board is %d bytes, want the draft's and the board's", i, len(old))
		}
		oldRow := host.Outgoing{ID: o.ID, GameID: o.GameID, Recipient: o.Recipient, Draft: old, Created: o.Created, Attempts: o.Attempts}
		got, want := sameBoundaries(f.render(o)), sameBoundaries(f.render(oldRow))
		if !bytes.Equal(got, want) {
			t.Errorf("mail %d to %s: rendered from the draft and its shared board:\n%.3000s\nfrom the draft holding its board:\n%.3000s", i, o.Recipient, got, want)
		}
		if !strings.Contains(string(got), "Content-Type: image/png") {
			t.Errorf("mail %d to %s has no picture", i, o.Recipient)
		}
	}
	// A draft whose shared board is missing cannot be rendered, ever.
	lost := news[0]
	lost.Shared = nil
	if _, err := f.svc.Render(ctx, lost); err == nil {
		t.Error("Render of a draft whose shared board is missing = nil error")
	} else if bad := (*badDraftError)(nil); !errors.As(err, &bad) {
		t.Errorf("Render of a draft whose shared board is missing = %v, want a bad draft (never rendered)", err)
	}
}

// sameBoundaries names the MIME boundaries of raw, drawn at random as it
// was composed, b0, b1, ... in their order, so that two renderings of one
// mail compare byte for byte.
func sameBoundaries(raw []byte) []byte {
	for i, m := range boundaryParam.FindAllSubmatch(raw, -1) {
		raw = bytes.ReplaceAll(raw, m[1], []byte(fmt.Sprintf("b%d", i)))
	}
	return raw
}

var boundaryParam = regexp.MustCompile(`boundary=([0-9a-f]{20,})`)

// BenchmarkRender renders the two mails of a move as the outbox sends
// them, the board's picture drawn already (the outbox's cache): from
// drafts that hold the board (as queued before the boards were stored
// apart; each is decoded, and encoded again to find its picture) and from
// drafts that share it (picture_shared: the board is neither decoded nor
// encoded once its picture is drawn). cpu-us/move is the CPU time the
// process spent a move, which swings less than the wall clock.
func BenchmarkRender(b *testing.B) {
	f := newFixture(b)
	f.start()
	f.sent()
	for _, raw := range f.moveMails(1, 6) {
		f.handle(raw, Applied)
	}
	due, err := f.st.Due(context.Background(), f.clock.Add(time.Hour), 1000)
	if err != nil {
		b.Fatal(err)
	}
	shared := due[len(due)-2:]
	var inline []host.Outgoing
	for _, o := range shared {
		d, err := readDraft(o.Draft)
		if err != nil {
			b.Fatal(err)
		}
		var pic picture.Board
		if err := json.Unmarshal(o.Shared, &pic); err != nil {
			b.Fatal(err)
		}
		d.PictureShared, d.Picture = false, &pic
		o.Draft, err = d.draft()
		if err != nil {
			b.Fatal(err)
		}
		o.Shared = nil
		inline = append(inline, o)
	}
	for _, c := range []struct {
		name  string
		mails []host.Outgoing
	}{{"inline", inline}, {"shared", shared}} {
		b.Run(c.name, func(b *testing.B) {
			for _, o := range c.mails {
				f.render(o) // the picture drawn
			}
			cpu0, ok0 := cpuTime()
			n := 0
			for b.Loop() {
				for _, o := range c.mails {
					f.render(o)
				}
				n++
			}
			if cpu1, ok1 := cpuTime(); ok0 && ok1 {
				b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(n), "cpu-us/move")
			}
		})
	}
}
