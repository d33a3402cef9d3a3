package mail

import (
	"context"
	"strings"
	"testing"
)

// TestNoMessageIDTwice delivers one mail without a Message-ID twice through
// the real intake, the copies differing only in the trace fields the
// receiving servers prepend (Return-Path, Received, Delivered-To,
// X-Original-To): its move is applied once, and the second copy is a
// duplicate (issue 15, item 1).
func TestNoMessageIDTwice(t *testing.T) {
	f := newFixture(t)
	f.start()
	f.sent()
	cfg, c := memInbox(t)
	mv := f.moveMails(1, 1)[0]
	// The same mail as its author's client wrote it, without Message-ID.
	var kept []string
	for _, l := range strings.Split(string(mv), "\r\n") {
		if !strings.HasPrefix(l, "Message-ID:") {
			kept = append(kept, l)
		}
	}
	orig := strings.Join(kept, "\r\n")
	copies := []string{
		"Return-Path: <alice@herald.test>\r\nDelivered-To: herald@herald.test\r\nReceived: from mx1 ([10.0.0.1]) by herald.test with ESMTP id A1;\r\n\tMon, 23 Nov 2026 09:00:01 +0000\r\n" + orig,
		"Return-Path: <alice@herald.test>\r\nX-Original-To: herald@herald.test\r\nDelivered-To: herald@herald.test\r\nReceived: from mx2 ([10.0.0.2]) by herald.test with ESMTP id B7;\r\n\tMon, 23 Nov 2026 09:03:12 +0000\r\nX-Spam-Status: No, score=-0.1\r\n" + orig,
	}
	for _, raw := range copies {
		appendMail(t, c, []byte(raw))
		f.restart(t, cfg, c)
	}
	g, err := f.st.Game(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Record.Moves); n != 1 {
		t.Fatalf("the game has %d moves after two copies of one mail, want 1", n)
	}
	if got := f.sent(); len(got["alice@herald.test"]) != 1 || len(got["bob@herald.test"]) != 1 {
		t.Errorf("replies: %v, want one each to alice and bob", keysOf(got))
	}
	if n := count(t, c, "herald/processed"); n != 2 {
		t.Errorf("processed folder holds %d mails, want 2 (the move and its duplicate)", n)
	}
}
