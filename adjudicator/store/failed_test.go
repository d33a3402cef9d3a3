package store

import (
	"context"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// TestNoteFailure counts the failures of one mail in a row with one
// reason: another reason starts again at 1, another mail counts apart,
// and only what is set aside is listed, with its last reason.
func TestNoteFailure(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	note := func(ref, reason string, want int) {
		t.Helper()
		n, err := s.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: ref, Party: "a@x.org", Reason: reason}, t0)
		if err != nil || n != want {
			t.Fatalf("NoteFailure(%s, %s) = %d, %v; want %d", ref, reason, n, err, want)
		}
	}
	note("m1", "disk", 1)
	note("m1", "disk", 2)
	note("m1", "panic", 1)
	note("m2", "panic", 1)
	note("m1", "panic", 2)
	note("m1", "panic", 3)
	if err := s.SetAside(ctx, host.FailedDraft, "m1", t0); err == nil {
		t.Error("SetAside of a draft never noted: no error")
	}
	if err := s.SetAside(ctx, host.FailedMail, "m1", t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	list, err := s.SetAsideList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Ref != "m1" || list[0].Reason != "panic" || list[0].Attempts != 3 || !list[0].SetAside.Equal(t0.Add(time.Second)) || !list[0].First.Equal(t0) {
		t.Errorf("set aside: %+v", list)
	}
}
