package mail

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/heritiers"
)

// checkHenri checks that a solo game's record holds Henri's moves, played
// by the game, and none in a 2-player game. (TestEmbeddedGames plays both
// modes on the embedded servers.)
func checkHenri(t *testing.T, res *DemoResult, players int) {
	t.Helper()
	henri := 0
	for _, mv := range res.Record.Moves {
		if mv.Player == heritiers.Henri {
			henri++
			if mv.Source != adjudicator.AutomatonSource {
				t.Errorf("Henri's move %q has source %q, want %q", mv.Text, mv.Source, adjudicator.AutomatonSource)
			}
		}
	}
	if (henri > 0) != (players == 1) {
		t.Errorf("%d moves of Henri's in a %d-player game", henri, players)
	}
	if players != 1 {
		return
	}
	// The player's mails say what Henri did and which of his rules chose
	// each step (issue 17).
	told := 0
	for _, ms := range res.Mails {
		for _, m := range ms {
			if strings.Contains(m, "henri (played by the game) played move") && strings.Contains(m, "  (rule ") {
				told++
			}
		}
	}
	if told == 0 {
		t.Errorf("no mail says what Henri played and why")
	}
}

// wonBack is the number of treasures the solo board text of st says the
// player won back, and the text after it: the tokens by name.
func wonBack(st adjudicator.State) (int, string) {
	m := wonBackLine.FindStringSubmatch(strings.Join(strings.Fields(st.Text("")), " "))
	if m == nil {
		return -1, ""
	}
	n, _ := strconv.Atoi(m[1])
	return n, m[2]
}

// joinWrapped joins each line wrapped at 72 columns (its rest indented
// by two spaces) back into one.
func joinWrapped(text string) string {
	return strings.ReplaceAll(text, "\n  ", " ")
}

var wonBackLine = regexp.MustCompile(`(\d+) won back by alice(.*?) (?:treasure on|to move|game over)`)

// TestMailTreasureNamed: in the solo game, the answer to a move that
// takes a treasure back names the token and its condition, not only the
// count that changed (field test: "3 won back by alice" after a building
// said nothing of which token came off).
func TestMailTreasureNamed(t *testing.T) {
	t.Parallel()
	r := playRig(t, adjudicator.NewRegistry(heritiers.Game), 0)
	const alice = "alice@herald.local"
	r.send("host@herald.local", "", "new", "new heritiers players "+alice)
	key := featureKey.FindStringSubmatch(unwrap(r.await(alice, "welcome")))
	if key == nil {
		t.Fatal("no key in alice's welcome")
	}
	// Play until one of alice's legal steps takes a treasure back.
	var step, gone string
	r.playUntil(1, func(st adjudicator.State) bool {
		if to := st.ToMove(); len(to) != 1 || to[0] != "alice" {
			return false
		}
		n, _ := wonBack(st)
		for _, mv := range st.Legal("alice") {
			c := st.Clone()
			if c.Apply("alice", mv) != nil {
				continue
			}
			if m, _ := wonBack(c); m > n {
				step = mv.String()
				// The condition of the token that came off: a "treasure
				// on" line of the board before, gone after.
				after := joinWrapped(c.Text(""))
				for _, l := range strings.Split(joinWrapped(st.Text("")), "\n") {
					if strings.HasPrefix(l, "treasure on ") && !strings.Contains(after, l) {
						_, gone, _ = strings.Cut(l, "comes off with ")
					}
				}
				return true
			}
		}
		return false
	})
	if gone == "" {
		t.Fatalf("no treasure line went with %q", step)
	}
	r.send(alice, "", "Re: [herald G1]", "key "+key[1]+"\n"+step)
	got := unwrap(r.await(alice, ""))
	flat := strings.Join(strings.Fields(got), " ")
	if !regexp.MustCompile(`won back by alice: (?:.*, then )?[vhd]-[a-z-]+ \(` + regexp.QuoteMeta(gone) + `\)`).MatchString(flat) {
		t.Errorf("the answer to %q does not name the token that came off (%s):\n%s", step, gone, got)
	}
}
