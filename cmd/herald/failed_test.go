package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
)

// TestFailedLists: herald failed lists what serve set aside, and why
// (issue 25, item 3); a mail that failed and was not set aside is not
// listed.
func TestFailedLists(t *testing.T) {
	dir := t.TempDir()
	if res := herald(t, "", "failed", "--data", dir); res.code != 2 || !strings.Contains(res.stderr, "no herald database") {
		t.Errorf("failed without a database:\n%v", res)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	if res := mustHerald(t, "failed", "--data", dir); res.stdout != "nothing was set aside\n" {
		t.Errorf("failed on an empty store:\n%v", res)
	}
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	mail := host.Failure{Kind: host.FailedMail, Ref: "m1@x.org", Party: "host@x.org", Subject: "new game", Reason: "opening the mailbox: refused"}
	for range 3 {
		if _, err := st.NoteFailure(ctx, mail, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetAside(ctx, host.FailedMail, mail.Ref, now); err != nil {
		t.Fatal(err)
	}
	draft := host.Failure{Kind: host.FailedDraft, Ref: "outbox:7", Party: "x@y@z", Subject: "[herald G1] seat handed over", Reason: `"x@y@z" is not a mail address`}
	if _, err := st.NoteFailure(ctx, draft, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := st.SetAside(ctx, host.FailedDraft, draft.Ref, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.NoteFailure(ctx, host.Failure{Kind: host.FailedMail, Ref: "m2@x.org", Reason: "once"}, now); err != nil {
		t.Fatal(err)
	}
	st.Close()
	want := `2026-11-27 08:00:00Z  incoming mail m1@x.org from host@x.org (in herald/failed), subject "new game"
  failed 3 times: opening the mailbox: refused
2026-11-27 08:01:00Z  outgoing mail 7 to x@y@z, subject "[herald G1] seat handed over"
  failed once: "x@y@z" is not a mail address
`
	if res := mustHerald(t, "failed", "--data", dir); res.stdout != want {
		t.Errorf("herald failed:\n%s\nwant:\n%s", res.stdout, want)
	}
	if res := mustHerald(t, "--help"); !strings.Contains(res.stdout, "herald failed") {
		t.Errorf("herald --help does not list failed:\n%s", res.stdout)
	}
}
