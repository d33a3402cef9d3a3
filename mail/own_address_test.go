package mail

import (
	"context"
	"strings"
	"testing"
)

// TestHeraldOwnAddress: a mail from one of herald's plus-addresses
// (herald+g1.TOKEN@, where herald's own mail is delivered) is herald's
// own and never answered, as one from its address is; before, it was a
// stranger's, and a "new" line from it started a game whose host was
// herald. A game naming herald's address, or a plus-address of it, as a
// player is refused: herald's welcome to itself came back as its own mail
// and the seat could never play (hostile campaign).
func TestHeraldOwnAddress(t *testing.T) {
	f := newFixture(t)
	f.sent()
	for _, from := range []string{"herald@herald.test", "HERALD@herald.test", "herald+g1.tok1@herald.test", "Herald+x@Herald.Test"} {
		out, err := f.svc.Handle(context.Background(), f.mail(from, "new", "new raubritter players x@herald.test y@herald.test"))
		if err != nil || out != Ignored {
			t.Errorf("a mail from %s: %s, %v; want ignored", from, out, err)
		}
		if got := f.sent(); len(got) != 0 {
			t.Errorf("a mail from %s was answered: %v", from, got)
		}
	}
	for _, player := range []string{"herald@herald.test", "herald+x@herald.test", "HERALD+G1.TOK@HERALD.TEST"} {
		f.handle(f.mail("host@herald.test", "new", "new raubritter players "+player+" bob@herald.test"), Rejected)
		got := f.sent()
		if len(got) != 1 || len(got["host@herald.test"]) != 1 ||
			!strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(got["host@herald.test"][0], "=\r\n", "")), " "), "is herald's own address: herald plays no seat") {
			t.Errorf("a game with %s: %v", player, got)
		}
	}
	// Addresses that only look like herald's are people's.
	for _, from := range []string{"heraldo@herald.test", "herald@herald.test.example", "x+herald@herald.test"} {
		f.handle(f.mail(from, "new", "new raubritter players "+from+" bob@herald.test"), Created)
	}
	if games, err := f.st.Games(context.Background()); err != nil || len(games) != 3 {
		t.Errorf("%d games (%v), want the 3 of people", len(games), err)
	}
}

// TestHeraldOwnAddressNoSeat: the host may not hand a seat to herald's
// address or a plus-address of it (replace bob by herald@…), nor a player
// or the host subscribe it as an observer (observe G1 herald@…): the
// answer says why and nothing changes. Before, the host layer took them:
// the seat went to herald, whose welcome to itself came back as its own
// mail, and the seat could never play again.
func TestHeraldOwnAddressNoSeat(t *testing.T) {
	f := newFixture(t)
	f.handle(f.mail("host@herald.test", "new game", "new raubritter players alice@herald.test bob@herald.test"), Created)
	got := f.sent()
	hk := hostKeyLine.FindStringSubmatch(got["host@herald.test"][0])[1]
	akey := keyLine.FindStringSubmatch(got["alice@herald.test"][0])[1]
	text := func(raw string) string { return unwrap(strings.ReplaceAll(raw, "\r\n", "\n")) }
	for _, addr := range []string{"herald@herald.test", "Herald+g1.tok1@herald.test"} {
		f.handle(f.mail("host@herald.test", "Re: [herald G1]", "key "+hk+"\nreplace bob by "+addr), Rejected)
		got := f.sent()
		if len(got) != 1 || !strings.Contains(text(got["host@herald.test"][0]), "is herald's own address:\nherald plays no seat") {
			t.Errorf("replace bob by %s: %v", addr, got)
		}
		f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+akey+"\nobserve G1 "+addr), Rejected)
		got = f.sent()
		if len(got) != 1 || !strings.Contains(text(got["alice@herald.test"][0]), "is herald's own address:\nherald observes no game") {
			t.Errorf("observe G1 %s: %v", addr, got)
		}
	}
	g, err := f.st.Game(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Players[1].Address != "bob@herald.test" {
		t.Errorf("bob's seat went to %s", g.Players[1].Address)
	}
}
