package adjudicator_test

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

func TestBotLevel(t *testing.T) {
	for _, tc := range []struct {
		source string
		level  int
		ok     bool
	}{
		{"bot:1", 1, true}, {"bot:12", 12, true}, {adjudicator.BotSource(3), 3, true},
		{"bot:0", 0, false}, {"bot:02", 0, false}, {"bot:", 0, false}, {"bot:x", 0, false},
		{"bot", 0, false}, {"cli", 0, false}, {"Bot:2", 0, false}, {"bot:-1", 0, false},
	} {
		if level, ok := adjudicator.BotLevel(tc.source); level != tc.level || ok != tc.ok {
			t.Errorf("BotLevel(%q) = %d, %v, want %d, %v", tc.source, level, ok, tc.level, tc.ok)
		}
	}
}

// TestRecordBots: a record's bots entry is written in flow style, read
// back the same, hashed into the digests, and checked when read and when
// started.
func TestRecordBots(t *testing.T) {
	m := newMatch(t, "add 1")
	rec := *m.Record
	rec.Bots = map[string]int{"bob": 2}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nbots: {bob: 2}\n") {
		t.Fatalf("record without a bots line:\n%s", data)
	}
	back, err := adjudicator.ParseRecord("r.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Bots["bob"] != 2 || len(back.Bots) != 1 {
		t.Fatalf("bots read back = %v", back.Bots)
	}
	// The digests hash the bots: a record whose bots entry was taken out
	// is refused at its first move.
	cut := strings.Replace(string(data), "bots: {bob: 2}\n", "", 1)
	if _, err := adjudicator.ParseRecord("r.yaml", []byte(cut)); err == nil || !strings.Contains(err.Error(), "move 1: its digest does not match") {
		t.Errorf("record without its bots entry: err = %v, want the digest refused", err)
	}
	plain, _ := m.Record.Marshal()
	if strings.Contains(string(plain), "bots") {
		t.Errorf("a record with no bot has a bots entry:\n%s", plain)
	}
	for _, tc := range []struct{ bots, want string }{
		{"bots: {bob: two}", `r.yaml:10:13: bots: the level of bob is "two"; a level is a number from 1`},
		{"bots: {bob: 0}", `bots: the level of bob is "0"`},
		{"bots: [bob]", "r.yaml:10:7: bots: expected a mapping of player names to bot levels, e.g. {bob: 2}"},
	} {
		bad := strings.Replace(string(data), "bots: {bob: 2}", tc.bots, 1)
		if _, err := adjudicator.ParseRecord("r.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.bots, err, tc.want)
		}
	}
	rec.Bots = map[string]int{"carol": 2}
	if _, err := adjudicator.Start(reg, &rec); err == nil || !strings.Contains(err.Error(), `bots: "carol" is not a player of this game (players: alice, bob)`) {
		t.Errorf("Start with a bot that does not play: err = %v", err)
	}
}
