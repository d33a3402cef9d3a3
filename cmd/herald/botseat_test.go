package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games"
)

// TestBotSeat drives the real binary through a game with a bot's seat:
// new with bot:1 plays the bot's first move at once, a person's move is
// followed by the bot's, with the search's reason, the bot's seat takes no
// one's move, hint suggests steps that move accepts, adjudicate accepts
// the record and refuses it once a bot's move is edited.
func TestBotSeat(t *testing.T) {
	dir := t.TempDir()
	step := func(code int, args ...string) result {
		t.Helper()
		return execStep(t, dir, code, "", args...)
	}
	// Raubritter's first player is drawn: with seed 7 it is the bot. Its keep is
	// shown with its reason, or as a sealed step when the keep is sealed.
	r := step(0, "new", "raubritter", "--players", "alice,bot:1", "--seed", "7", "-o", "g.yaml")
	if !regexp.MustCompile(`^g\.yaml: new raubritter game for alice, bot\nseed commitment \(publish it\): sha256 7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451\nmove 1 by bot \(played by bot:1\):\n  (keep \w+(  \((\d+ points? at once, more than any other player gains by it; )?its search's pick of 100 tries\))?|\(a sealed step\))\n$`).MatchString(r.stdout) {
		t.Errorf("new with the bot first:\n%v", r)
	}
	rec, err := adjudicator.LoadRecord(filepath.Join(dir, "g.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Bots["bot"] != 1 || len(rec.Moves) != 1 || rec.Moves[0].Source != "bot:1" || rec.Moves[0].Time != fixedTime {
		t.Fatalf("record after new: bots %v, moves %+v", rec.Bots, rec.Moves)
	}
	wantOutput(t, step(1, "move", "g.yaml", "--as", "bot", "end"), "", "bot is played by bot:1: its moves follow the players' by themselves (RULINGS.md H-6)")
	wantOutput(t, step(1, "hint", "g.yaml", "--as", "bot"), "", "bot is played by bot:1")
	h := step(0, "hint", "g.yaml", "--as", "alice", "--level", "1")
	legal := step(0, "legal", "g.yaml", "--as", "alice").stdout
	if hs := strings.TrimSuffix(h.stdout, "\n"); strings.Contains(hs, "\n") || !strings.Contains("\n"+legal, "\n"+hs+"\n") ||
		!strings.HasPrefix(h.stderr, "herald hint: "+hs+": chosen in ") {
		t.Fatalf("hint: want one of alice's legal steps (%q), with its reason:\n%v", legal, h)
	}
	if again := step(0, "hint", "g.yaml", "--as", "alice", "--level", "1"); again.stdout != h.stdout || again.stderr != h.stderr {
		t.Errorf("hint is not the same twice:\n%v\n%v", h, again)
	}
	// Alice takes the hints until the bot has moved twice more.
	for range 20 {
		if showJSON(t, filepath.Join(dir, "g.yaml"), "").Finished {
			break
		}
		rec, _ = adjudicator.LoadRecord(filepath.Join(dir, "g.yaml"))
		if n := strings.Count(strings.Join(sources(rec), " "), "bot:1"); n >= 3 {
			break
		}
		h := step(0, "hint", "g.yaml", "--as", "alice", "--level", "1")
		r := step(0, "move", "g.yaml", "--as", "alice", strings.TrimSpace(h.stdout))
		if strings.Contains(r.stdout, "by bot (played by bot:1):\n") {
			// Its reason is what alice may be told: never the search's
			// estimates, which the bot's hand informs (Reason.PublicWhy).
			if !strings.Contains(r.stdout, "(its search's pick of 100 tries)") || strings.Contains(r.stdout, "chosen in ") || strings.Contains(r.stdout, "mean outcome") {
				t.Errorf("the bot's move without its reason, or with the search's estimates:\n%v", r)
			}
			// The board comes after the bot's move, as alice sees it.
			if strings.Index(r.stdout, "(played by bot:1)") > strings.Index(r.stdout, "+-----+") {
				t.Errorf("the board is printed before the bot's move:\n%v", r)
			}
		}
	}
	rec, _ = adjudicator.LoadRecord(filepath.Join(dir, "g.yaml"))
	if n := strings.Count(strings.Join(sources(rec), " "), "bot:1"); n < 3 {
		t.Fatalf("the bot made %d moves: %v", n, sources(rec))
	}
	if a := step(0, "adjudicate", "g.yaml"); !regexp.MustCompile(`\n   1  bot    legal    keep [\w ]+  \(bot:1: the bot's move, played again\)\n`).MatchString(a.stdout) {
		t.Errorf("adjudicate does not say it played the bot again:\n%v", a)
	}

	// A bot's move changed for another legal one, digests made again.
	k := -1
	for i, mv := range rec.Moves {
		if mv.Source == "bot:1" && i > 0 {
			k = i
			break
		}
	}
	before := *rec
	before.Moves = rec.Moves[:k]
	m, err := adjudicator.Start(games.All, &before)
	if err != nil {
		t.Fatal(err)
	}
	other := ""
	for _, mv := range m.State.Legal("bot") {
		if !strings.HasPrefix(rec.Moves[k].Text, mv.String()+"\n") && rec.Moves[k].Text != mv.String() {
			other = mv.String()
			break
		}
	}
	edited := *rec
	edited.Moves = append(rec.Moves[:k:k], rec.Moves[k])
	edited.Moves[k].Text = other
	data, err := edited.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "edited.yaml"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	r = step(1, "adjudicate", "edited.yaml")
	wantOutput(t, r, "bot:1 does not play "+other+" here: in this position bot:1, playing bot's seat, plays ", "edited.yaml: move "+strconv.Itoa(k+1)+" is illegal")

	// Usage errors and refusals.
	wantOutput(t, step(2, "new", "raubritter", "--players", "alice,bot:9", "-o", "x.yaml"), "", "herald new: --players: bot: \"bot:9\" is not a bot's seat: write bot:1 to bot:3 (bot:2 is the default level)")
	wantOutput(t, step(2, "new", "raubritter", "--players", "bot,bot:2", "-o", "x.yaml"), "", `player "bot" is listed twice`)
	wantOutput(t, step(2, "hint", "g.yaml", "--as", "alice", "--level", "5"), "", "herald hint: --level is 1 to 3, not 5")
	wantOutput(t, step(2, "hint", "g.yaml"), "", "herald hint: --as PLAYER is required")
}

// TestBotSeatsNamed: several bots' seats are named bot1, bot2..., and a
// game of bots alone plays to its end at new.
func TestBotSeatsNamed(t *testing.T) {
	dir := t.TempDir()
	r := heraldExec(t, dir, "", "new", "heritiers", "--players", "bot:1", "--seed", "5", "-o", "solo.yaml")
	if r.code != 0 {
		t.Fatalf("new heritiers with a bot alone against Henri:\n%v", r)
	}
	if !strings.Contains(r.stdout, "new heritiers game for bot\n") || !strings.Contains(r.stdout, "(played by the game):\n") {
		t.Errorf("the solo game of the bot against Henri:\n%v", r)
	}
	a := heraldExec(t, dir, "", "adjudicate", "solo.yaml")
	if a.code != 0 || !strings.Contains(a.stdout, "\nresult: ") || strings.Contains(a.stdout, "not finished") {
		t.Errorf("adjudicate of the bot's solo game:\n%v", a)
	}
	r = herald(t, "", "new", "lowenherz", "--players", "bot:1,alice,bot:2", "--seed", "5", "-o", filepath.Join(dir, "l.yaml"))
	if r.code != 0 || !strings.Contains(r.stdout, "new lowenherz game for bot1, alice, bot2\n") {
		t.Fatalf("new with two bots:\n%v", r)
	}
	rec, err := adjudicator.LoadRecord(filepath.Join(dir, "l.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Bots["bot1"] != 1 || rec.Bots["bot2"] != 2 || len(rec.Bots) != 2 {
		t.Errorf("bots = %v, want bot1 at 1 and bot2 at 2", rec.Bots)
	}
}

// sources returns the source of each of rec's moves.
func sources(rec *adjudicator.Record) []string {
	out := make([]string, len(rec.Moves))
	for i, mv := range rec.Moves {
		out[i] = mv.Source
	}
	return out
}
