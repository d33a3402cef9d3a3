package mail

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/raubritter"
)

// TestStrangerGamesLimited: where anyone may start games (no Hosts), one
// address starts at most 5 games an hour and all addresses together 30,
// since each game has herald welcome every address it names: one
// stranger mailed 60 "new" lines in a minute and herald sent 120 welcomes
// to addresses of their choosing (hostile campaign). A game refused names
// no one and mails no one but its sender; an hour later, the address may
// start games again. A host the keeper lists is not limited.
func TestStrangerGamesLimited(t *testing.T) {
	f := newFixture(t)
	def, err := NewService(Config{Address: "herald@herald.test", Registry: f.svc.cfg.Registry, Store: f.st})
	if err != nil {
		t.Fatal(err)
	}
	f.svc.cfg.StrangerGames = def.cfg.StrangerGames // the defaults, which the fixture lifts
	if def.cfg.StrangerGames != (GameLimits{PerAddress: 5, PerHour: 30, PerNamed: 3}) {
		t.Errorf("the default limits: %+v", def.cfg.StrangerGames)
	}
	f.sent()
	newGame := func(from string, i int) Outcome {
		t.Helper()
		out, err := f.svc.Handle(context.Background(), f.mail(from, "new", fmt.Sprintf("new raubritter players v%da@victim.test v%db@victim.test", i, i)))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	victims := func(got map[string][]string) int {
		n := 0
		for who, ms := range got {
			if strings.HasSuffix(who, "@victim.test") {
				n += len(ms)
			}
		}
		return n
	}
	for i := range 5 {
		if out := newGame("stranger@evil.test", i); out != Created {
			t.Fatalf("game %d: %s, want created", i+1, out)
		}
	}
	f.sent()
	if out := newGame("stranger@evil.test", 5); out != Rejected {
		t.Fatalf("a sixth game in the hour: %s, want rejected", out)
	}
	got := f.sent()
	if n := victims(got); n != 0 {
		t.Errorf("a refused game mailed %d welcomes", n)
	}
	if len(got["stranger@evil.test"]) != 1 || !strings.Contains(got["stranger@evil.test"][0], "your address has started 5 games in the last hour") {
		t.Errorf("the stranger's answer: %q", got["stranger@evil.test"])
	}

	// Other addresses, up to 30 games in all, then none.
	for i := range 25 {
		if out := newGame(fmt.Sprintf("s%d@evil.test", i), 100+i); out != Created {
			t.Fatalf("game %d of another address: %s, want created", i+6, out)
		}
	}
	f.sent()
	if out := newGame("fresh@evil.test", 200); out != Rejected {
		t.Fatalf("a 31st game in the hour: %s, want rejected", out)
	}
	got = f.sent()
	if n := victims(got); n != 0 {
		t.Errorf("a refused game mailed %d welcomes", n)
	}
	if len(got["fresh@evil.test"]) != 1 || !strings.Contains(got["fresh@evil.test"][0], "30 games were started on this herald in the last hour") {
		t.Errorf("the answer: %q", got["fresh@evil.test"])
	}

	f.clock = f.clock.Add(time.Hour)
	if out := newGame("stranger@evil.test", 300); out != Created {
		t.Fatalf("an hour later: %s, want created", out)
	}

	// A listed host starts as many as they like.
	f.svc.cfg.Hosts = []string{"club@herald.test"}
	for i := range 8 {
		if out := newGame("club@herald.test", 400+i); out != Created {
			t.Fatalf("the listed host's game %d: %s, want created", i+1, out)
		}
	}
}

// TestNamedAddressLimited: where anyone may start games, one address is
// welcomed into at most 3 games that others start in a day. Before, each
// forger stayed within its own 5 games an hour, and eight of them had
// herald welcome bob into 8 games in a minute (hostile campaign over
// Postfix + Dovecot). The refusal names the address and welcomes no
// one; bot seats and the starter's own seat are not counted, a listed
// host is not limited, and a day later the address may be named again.
func TestNamedAddressLimited(t *testing.T) {
	f := newFixture(t)
	f.svc.cfg.StrangerGames.PerNamed = 3
	f.sent()
	newGame := func(from, players string) Outcome {
		t.Helper()
		out, err := f.svc.Handle(context.Background(), f.mail(from, "new", "new raubritter players "+players))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for i := range 3 {
		if out := newGame(fmt.Sprintf("forger%d@evil.test", i), fmt.Sprintf("forger%d@evil.test bob@victim.test", i)); out != Created {
			t.Fatalf("game %d naming bob: %s, want created", i+1, out)
		}
	}
	if n := len(f.sent()["bob@victim.test"]); n != 3 {
		t.Fatalf("bob got %d welcomes, want 3", n)
	}
	if out := newGame("forger9@evil.test", "carol@victim.test bob@victim.test"); out != Rejected {
		t.Fatalf("a fourth game naming bob in the day: %s, want rejected", out)
	}
	got := f.sent()
	if len(got["bob@victim.test"]) != 0 || len(got["carol@victim.test"]) != 0 {
		t.Errorf("a refused game mailed welcomes: %v", got)
	}
	if a := got["forger9@evil.test"]; len(a) != 1 || !strings.Contains(a[0], "bob@victim.test has been named in 3 games others started") {
		t.Errorf("the answer: %q", a)
	}
	// Bob's own game, and a game with bot seats, are not held back by it.
	if out := newGame("bob@victim.test", "bob@victim.test bot:1"); out != Created {
		t.Errorf("bob's own game: %s, want created", out)
	}
	if out := newGame("dave@evil.test", "dave@evil.test bot:1"); out != Created {
		t.Errorf("a game with a bot seat: %s, want created", out)
	}
	// A listed host names whom they like.
	f.svc.cfg.Hosts = []string{"club@herald.test"}
	if out := newGame("club@herald.test", "club@herald.test bob@victim.test"); out != Created {
		t.Errorf("the listed host's game: %s, want created", out)
	}
	f.svc.cfg.Hosts = nil
	f.clock = f.clock.Add(24 * time.Hour)
	if out := newGame("forger9@evil.test", "forger9@evil.test bob@victim.test"); out != Created {
		t.Errorf("a day later: %s, want created", out)
	}
}

// TestNotAHostToldOnlyWhy sends new from an address not among --hosts:
// the answer says it may not start games, without the syntax of new and
// the games' list, which are no use to it (found by hand over a real
// Postfix + Dovecot).
func TestNotAHostToldOnlyWhy(t *testing.T) {
	f := newFixture(t)
	f.svc.cfg.Hosts = []string{"club@herald.test"}
	f.handle(f.mail("dave@herald.test", "game", "new raubritter players alice@herald.test bob@herald.test"), Rejected)
	got := f.sent()["dave@herald.test"]
	if len(got) != 1 || !strings.Contains(got[0], "your address may not start games on this herald") || strings.Contains(got[0], "Write, on a line of its own") {
		t.Errorf("the answer to a stranger's new: %q", got)
	}
	f.handle(f.mail("dave@herald.test", "partie", "nouvelle raubritter joueurs alice@herald.test bob@herald.test"), Rejected)
	got = f.sent()["dave@herald.test"]
	if len(got) != 1 || !strings.Contains(got[0], "herald n'a pas pu lancer la partie") || strings.Contains(got[0], "seule sur sa ligne") {
		t.Errorf("the French answer to a stranger's new: %q", got)
	}
}

// TestStrangerAnswersLimited: the answers to mails that do not prove their
// sender are capped for all addresses together, as well as for each: one
// forger who forges one From after another (hand play, as dave) could
// make herald write to any number of addresses, 30 mails an hour each,
// some with the forger's words quoted back. Past the cap herald answers
// none of those mails, with no notice (it would be one more mail to an
// address that never wrote), while a player's own mails are answered as
// ever; an hour later, strangers are answered again.
func TestStrangerAnswersLimited(t *testing.T) {
	f := newFixtureOf(t, adjudicator.NewRegistry(raubritter.Game), func(c *Config) { c.StrangerAnswersPerHour = 3 })
	def, err := NewService(Config{Address: "herald@herald.test", Registry: f.svc.cfg.Registry, Store: f.st})
	if err != nil {
		t.Fatal(err)
	}
	if def.cfg.StrangerAnswersPerHour != 100 {
		t.Errorf("the default cap: %d, want 100", def.cfg.StrangerAnswersPerHour)
	}
	f.start()
	answered := func(from string) bool {
		got := f.sent()
		return len(got[from]) > 0
	}
	// Keyless mails from five forged addresses, each about no game: a
	// notice of a failed authentication each (AuthNoticesPerHour), and an
	// unkeyed answer to a mail herald cannot read.
	for i, want := range []bool{true, true, true, false, false} {
		from := fmt.Sprintf("victim%d@victim.test", i)
		body := "show"
		if i == 2 {
			f.handle(f.mail(from, "hello", "", "Content-Type: application/octet-stream"), Rejected)
		} else {
			f.handle(f.mail(from, "hello", body), Rejected)
		}
		if got := answered(from); got != want {
			t.Errorf("forged mail %d: answered %v, want %v", i+1, got, want)
		}
	}
	// A player's own mail is answered, past the cap.
	f.handle(f.mail("alice@herald.test", "Re: [herald G1]", "key "+f.keys["alice@herald.test"]+"\nshow"), Answered)
	if !answered("alice@herald.test") {
		t.Error("alice's own mail got no answer once strangers' answers were at their cap")
	}
	f.clock = f.clock.Add(time.Hour)
	f.handle(f.mail("victim9@victim.test", "hello", "show"), Rejected)
	if !answered("victim9@victim.test") {
		t.Error("an hour later, a keyless mail got no answer")
	}
}

// TestNewRefusedInFrench: a new game refused to a mail in French says why
// in French (before, « herald n'a pas pu lancer la partie » was followed by
// the English reason), for the reasons of the mail's own checks, of the
// host's and of the games' registry alike.
func TestNewRefusedInFrench(t *testing.T) {
	f := newFixture(t)
	f.sent()
	for _, c := range []struct{ body, want string }{
		{"nouvelle", "nommez le jeu"},
		{"nouvelle raubriter joueurs alice@herald.test bob@herald.test", "jeu inconnu « raubriter » ; vouliez-vous dire « raubritter » ?"},
		{"nouvelle raubritter joueurs alice@herald.test alice@herald.test", "alice@herald.test est à la fois le joueur 1 et le joueur 2"},
		{"nouvelle raubritter joueurs alice@herald.test bob@herald.test délai 10m", "un délai de 10m est trop court"},
		{"nouvelle raubritter joueurs alice@herald.test herald@herald.test", "est l'adresse de herald lui-même"},
		{"nouvelle raubritter opt tiles", "option « tiles » : attendu nom=valeur"},
		{"nouvelle raubritter joueurs bot:1 bot:2", "une partie par courrier a besoin d'au moins une personne"},
	} {
		f.handle(f.mail("carol@herald.test", "nouvelle partie", c.body), Rejected)
		got := f.sent()["carol@herald.test"]
		if len(got) != 1 {
			t.Fatalf("%q: %d answers", c.body, len(got))
		}
		text := unwrap(strings.ReplaceAll(got[0], "\r\n", "\n"))
		if !strings.Contains(text, "herald n'a pas pu lancer la partie") || !strings.Contains(text, c.want) {
			t.Errorf("%q: the answer does not say %q:\n%s", c.body, c.want, text)
		}
	}
}
