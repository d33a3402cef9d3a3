package mail

import (
	"context"
	"strings"
	"testing"
	"time"
)

// testRealmailRefusedRecipient: a real Postfix refuses a player's address
// for good (an unknown user at herald.test: 550 5.1.1 at RCPT). herald
// sets that mail aside at once with the server's own reason, tells the
// game's host in words, and the other player's mail of the same game
// still goes (issue 31, item 3: a draft refused with a 5xx is set aside,
// the host is told).
func testRealmailRefusedRecipient(t *testing.T) {
	needRealmail(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := &featureRig{t: t, imap: realIMAP, smtp: realSMTP, herald: "herald@herald.test",
		password: func(a string) string { name, _, _ := strings.Cut(a, "@"); return name + "-pw" },
		clock:    time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), seen: map[string]int{}}
	r.start(ctx, "herald-pw")
	r.send("dave@herald.test", "", "new", "new raubritter players nobody@herald.test alice@herald.test")
	r.await("alice@herald.test", "welcome")
	notice := r.await("dave@herald.test", "mail to nobody@herald.test refused")
	for _, want := range []string{"nobody@herald.test", "550", "herald failed"} {
		if !strings.Contains(notice, want) {
			t.Errorf("the host's notice lacks %q:\n%s", want, notice)
		}
	}
	list, err := r.svc.cfg.Store.SetAsideList(ctx)
	if err != nil || len(list) != 1 || list[0].Party != "nobody@herald.test" || !strings.Contains(list[0].Reason, "550") {
		t.Errorf("set aside: %+v, %v; want the welcome to nobody with Postfix's reason", list, err)
	}
}
