package games_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
)

// A contestant chooses seat's next step in st, from the step's own seed.
type contestant struct {
	name string
	step func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error)
}

// botAt is the bot at level (0: the default), with HERALD_BOT_ITERS and
// HERALD_BOT_DEPTH, when set, overriding the default level's budget.
func botAt(level int) contestant {
	o := bot.Options{Level: level}
	name := "bot"
	if level != 0 {
		name = fmt.Sprint("bot:", level)
	} else {
		o.Iterations, o.Depth = envInt("HERALD_BOT_ITERS", 0), envInt("HERALD_BOT_DEPTH", 0)
		if o.Iterations != 0 {
			name = fmt.Sprint("bot(", o.Iterations, " iterations)")
		}
	}
	return contestant{name, func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error) {
		oi := o
		oi.Seed = seed
		return bot.Step(st, seats, seat, oi)
	}}
}

var (
	randomPlayer = contestant{"random", func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error) {
		return bot.RandomStep(st, seat, adjudicator.NewRNG(seed))
	}}
	greedyPlayer = contestant{"greedy", func(st adjudicator.State, seats []string, seat, seed string) (adjudicator.Move, error) {
		return bot.GreedyStep(st, seats, seat, adjudicator.NewRNG(seed))
	}}
)

// outcome is one game's end for the contestant measured.
type outcome struct {
	win    float64 // 1 won, 0 lost, a share of a shared victory
	score  int     // its score
	others float64 // the mean score of the others (Henri in the solo game)
	best   int     // the best score of the others
}

// duel plays one game of tb from seed: hero at seat at, rival at every
// other player's seat, the game's own seats (Henri) playing themselves.
// When several may act at once, the one who does is drawn from seed.
func duel(t testing.TB, tb table, seed string, hero, rival contestant, at int) outcome {
	t.Helper()
	m := startMatch(t, tb, seed)
	seats := m.Seats()
	me := seats[at]
	st := m.State
	order := adjudicator.NewRNG("strength-order\x00" + seed)
	for n := 0; len(st.ToMove()) > 0; n++ {
		to := st.ToMove()
		if auto := adjudicator.Automata(st); len(auto) > 0 && slices.Contains(auto, to[0]) {
			randomSteps(t, st, 1, order) // plays the automaton's steps
			continue
		}
		to = slices.DeleteFunc(slices.Clone(to), func(p string) bool { return adjudicator.SealedIn(st, p) })
		p := to[order.IntN(len(to))]
		c := rival
		if p == me {
			c = hero
		}
		mv, err := c.step(st, seats, p, fmt.Sprint(seed, "/", n))
		if err != nil {
			t.Fatalf("%s, %s at %s, step %d: %v", tb, c.name, p, n, err)
		}
		if err := st.Apply(p, mv); err != nil {
			t.Fatalf("%s, %s at %s, step %d: its step %q was refused: %v", tb, c.name, p, n, mv, err)
		}
		if n > 100_000 {
			t.Fatalf("%s: no end after %d steps", tb, n)
		}
	}
	res := st.Result()
	var o outcome
	winners := append(slices.Clone(res.Winners), res.Shared...)
	if slices.Contains(winners, me) {
		o.win = 1 / float64(len(winners))
	}
	sc := st.Scores()
	o.score = sc[at]
	first := true
	for i, v := range sc {
		if i == at {
			continue
		}
		o.others += float64(v) / float64(len(sc)-1)
		if first || v > o.best {
			o.best, first = v, false
		}
	}
	return o
}

// TestBotStrength is the bot's strength campaign (issue 30). For every
// game and player count it plays the default bot against uniform random
// players (target: 95% of 2-player games won), against greedy one-step
// players (70%), and bot:3 against bot:1 (60%), the measured seat going
// round the table over games of the same seed, so that each deal is
// played from every seat; for Les Deux Héritiers' solo game it plays
// each level against Henri and gives the mean scores. A shared victory
// counts its share.
//
// The campaign is resumable: each finished game appends a line to the
// results file (HERALD_BOT_RESULTS, default testdata/strength/results.tsv,
// committed), and a run plays only the games not in it. The file begins
// with the fingerprint of each table's bot and yardsticks
// (strengthFingerprints): a run refuses a table whose fingerprint differs
// from the file's, so that games of two different bots are never counted
// together, and names the tables; with HERALD_BOT_AFRESH set to those
// tables ("lowenherz/2p,lowenherz/3p") it moves their games aside to a
// results file of their own (staleResultsPath) and begins them afresh.
// The other tables' games stay counted. The next game is always
// of the cell that has used the least CPU time so far, the cells never
// begun first, cheap tables first (campaignOrder): a run cut short leaves
// figures for every cell, and the cheap cells complete. The CPU time of a
// game is its worker's thread's (Linux). TestBotStrengthSummary prints the
// table of the file.
//
// It runs only with HERALD_BOT_STRENGTH=1: it costs many hours of CPU (see
// README's Bots). HERALD_BOT_GAMES sets the games a cell (default 200),
// HERALD_BOT_TABLES the tables ("lowenherz/2p,heritiers/1p"; default all),
// HERALD_BOT_CELLS the cells ("random,greedy,levels,henri"; default all),
// HERALD_BOT_WORKERS the games played at once (default GOMAXPROCS), and
// HERALD_BOT_ITERS and HERALD_BOT_DEPTH the default bot's budget, for
// quick checks (with a results file of their own: the fingerprint differs).
func TestBotStrength(t *testing.T) {
	if os.Getenv("HERALD_BOT_STRENGTH") == "" {
		t.Skip("set HERALD_BOT_STRENGTH=1 to run the strength campaign (hours of CPU)")
	}
	games := envInt("HERALD_BOT_GAMES", 200)
	only := func(env, name string) bool {
		v := os.Getenv(env)
		return v == "" || slices.Contains(strings.Split(v, ","), name)
	}
	path := resultsPath()
	var run []table
	for _, tb := range tables {
		if only("HERALD_BOT_TABLES", tb.String()) {
			run = append(run, tb)
		}
	}
	fps := strengthFingerprints(t, run)
	if err := dropUnfinishedLine(path); err != nil {
		t.Fatal(err)
	}
	res, err := readResults(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		res = &results{fingerprints: fps}
		if err := res.write(path); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: a new results file, for the bots of fingerprints %s", path, res.fingerprintText())
	case err != nil:
		t.Fatal(err)
	default:
		var afresh []string
		if v := os.Getenv("HERALD_BOT_AFRESH"); v != "" {
			afresh = strings.Split(v, ",")
		}
		moved, err := res.begin(path, fps, afresh)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moved {
			t.Log(m)
		}
		t.Logf("%s: %d games already played by these bots (fingerprints %s)", path, len(res.games), res.fingerprintText())
	}
	var cells []*campaignCell
	for _, c := range campaignCells() {
		if !only("HERALD_BOT_TABLES", c.tb.String()) || !only("HERALD_BOT_CELLS", c.kind) {
			continue
		}
		c.done = map[int]bool{}
		for _, g := range res.games {
			if g.table == c.tb.String() && g.cell == c.name {
				c.done[g.game] = true
				c.cpu += g.cpu
			}
		}
		cells = append(cells, c)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sched := &scheduler{cells: cells, games: games}
	t.Run("workers", func(t *testing.T) {
		for w := range envInt("HERALD_BOT_WORKERS", runtime.GOMAXPROCS(0)) {
			t.Run(fmt.Sprint(w+1), func(t *testing.T) {
				t.Parallel()
				runtime.LockOSThread() // so that threadCPU is this game's
				defer runtime.UnlockOSThread()
				for {
					c, g := sched.next()
					if c == nil {
						return
					}
					seed := fmt.Sprint("strength-", g/c.tb.players)
					start, cpu := time.Now(), threadCPU()
					o := duel(t, c.tb, seed, c.hero, c.rival, g%c.tb.players)
					r := gameResult{table: c.tb.String(), cell: c.name, game: g, seat: g%c.tb.players + 1, outcome: o, cpu: (threadCPU() - cpu).Seconds()}
					sched.finish(t, f, c, r)
					t.Logf("%s %s game %d (seed %s, seat %d): won %.2f, score %d to the others' best %d; %.1fs, %.1fs of CPU",
						r.table, c.name, g+1, seed, r.seat, o.win, o.score, o.best, time.Since(start).Seconds(), r.cpu)
				}
			})
		}
	})
	res, err = readResults(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("STRENGTH, %s:\n%s", path, res.summary(games))
}

// TestBotStrengthSummary checks the committed results file of the
// strength campaign, line by line, and prints its table (with -v): the
// games of each cell, those won, the mean scores, the CPU time spent and
// what the rest of the campaign would cost at the speed measured.
func TestBotStrengthSummary(t *testing.T) {
	res, err := readResults(resultsPath())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s, bots of fingerprints %s:\n%s", resultsPath(), res.fingerprintText(), res.summary(envInt("HERALD_BOT_GAMES", 200)))
}

// TestBotStrengthFingerprint, with HERALD_BOT_STRENGTH=1, checks that
// each table of the results file was begun by this bot: that a change
// meant to leave the bot's play alone (a faster engine, a faster search)
// did. It logs every table's fingerprint, and names the tables whose
// fingerprint differs from the file's.
func TestBotStrengthFingerprint(t *testing.T) {
	if os.Getenv("HERALD_BOT_STRENGTH") == "" {
		t.Skip("set HERALD_BOT_STRENGTH=1 to check the bot's fingerprints against the results file (a minute of CPU)")
	}
	res, err := readResults(resultsPath())
	if err != nil {
		t.Fatal(err)
	}
	fps := strengthFingerprints(t, tables)
	var changed []string
	for _, tb := range tables {
		k := tb.String()
		t.Logf("%s: fingerprint %s, the file's %s", k, fps[k], res.fingerprintOf(k))
		if was := res.fingerprints[k]; was != "" && was != fps[k] {
			changed = append(changed, fmt.Sprintf("%s (%s, the file's %s)", k, fps[k], was))
		}
	}
	if len(changed) > 0 {
		t.Fatalf("the bot's play has changed on %s: %s holds the games of another bot there", strings.Join(changed, ", "), resultsPath())
	}
}

func resultsPath() string {
	if p := os.Getenv("HERALD_BOT_RESULTS"); p != "" {
		return p
	}
	return filepath.Join("testdata", "strength", "results.tsv")
}

// A campaignCell is one contest of the campaign on one table.
type campaignCell struct {
	tb          table
	kind        string // random, greedy, levels or henri
	name        string // kind, and for henri the level: henri:2
	hero, rival contestant
	target      float64 // the share of 2-player games to win
	done        map[int]bool
	cpu         float64 // the CPU seconds of the games done
	next        int     // the next game to hand out
	running     int     // games handed out and not finished
}

// campaignOrder lists the tables cheapest first, by the CPU time of a
// game of the default bot measured in the first runs: the order in which
// the cells are begun.
var campaignOrder = []table{
	{"heritiers", 1}, {"heritiers", 2}, {"raubritter", 2}, {"lowenherz97", 4},
	{"raubritter", 4}, {"lowenherz97", 2}, {"lowenherz", 3}, {"lowenherz", 2},
}

// campaignCells returns every cell of the campaign, in the order they are
// begun: the cheap contests (against random, greedy players, Henri), each
// over the tables cheapest first, then bot:3 against bot:1.
func campaignCells() []*campaignCell {
	var out []*campaignCell
	for _, kind := range []string{"random", "greedy", "henri", "levels"} {
		for _, tb := range campaignOrder {
			switch {
			case tb.players == 1 && kind == "henri":
				for level := 1; level <= bot.MaxLevel; level++ {
					out = append(out, &campaignCell{tb: tb, kind: kind, name: fmt.Sprint("henri:", level), hero: botAt(level)})
				}
			case tb.players == 1 || kind == "henri":
			case kind == "random":
				out = append(out, &campaignCell{tb: tb, kind: kind, name: kind, hero: botAt(0), rival: randomPlayer, target: 0.95})
			case kind == "greedy":
				out = append(out, &campaignCell{tb: tb, kind: kind, name: kind, hero: botAt(0), rival: greedyPlayer, target: 0.70})
			case kind == "levels":
				out = append(out, &campaignCell{tb: tb, kind: kind, name: kind, hero: botAt(3), rival: botAt(1), target: 0.60})
			}
		}
	}
	return out
}

// scheduler hands out the campaign's games to its workers.
type scheduler struct {
	mu    sync.Mutex
	cells []*campaignCell
	games int // a cell's games
}

// next returns the next game to play, nil when none is left: of the
// cells with games left, one never begun (the first of them), else the
// one whose CPU time, its running games counted at its mean, is least.
func (s *scheduler) next() (*campaignCell, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var best *campaignCell
	bestCost := math.Inf(1)
	for _, c := range s.cells {
		for c.next < s.games && c.done[c.next] {
			c.next++
		}
		if c.next >= s.games {
			continue
		}
		cost := c.cpu
		switch {
		case len(c.done) > 0:
			cost += float64(c.running) * c.cpu / float64(len(c.done))
		case c.running > 0:
			cost = math.Inf(1) // begun, its cost not known yet
		}
		if best == nil || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	if best == nil {
		return nil, 0
	}
	g := best.next
	best.next++
	best.running++
	return best, g
}

// finish appends r to the results file f and counts it in c.
func (s *scheduler) finish(t *testing.T, f *os.File, c *campaignCell, r gameResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := f.WriteString(r.line()); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	c.running--
	c.done[r.game] = true
	c.cpu += r.cpu
}

// A gameResult is one line of the results file.
type gameResult struct {
	table, cell string
	game, seat  int // the game's number in its cell from 0; the seat measured from 1
	outcome
	cpu float64 // seconds
}

const resultsColumns = "table\tcell\tgame\tseat\twon\tscore\tothers\tbest\tcpu"

// resultsHeader returns the head of a results file whose tables' bots
// have the fingerprints fps (a table's name to its fingerprint): a line
// "fingerprint TABLE FP" a table, in the order of tables. (A file begun
// before the fingerprints were a table's has one line "fingerprint FP",
// for every table: see legacyFingerprints.)
func resultsHeader(fps map[string]string) string {
	var b strings.Builder
	b.WriteString("# The bot's strength campaign (issue 30, TestBotStrength in package games): one line a finished game.\n" +
		"# cell: random, greedy (the default bot against them), levels (bot:3 against bot:1), henri:N (bot:N alone against Henri).\n" +
		"# game: from 0 (seed strength-game/players, the bot at seat game%players+1); won: the bot's share of the victory;\n" +
		"# score, others, best: the bot's score, the others' mean and best; cpu: the game's CPU seconds.\n" +
		"# fingerprint: of each table's bot and yardsticks; a table's games are all of the bot of its fingerprint.\n")
	for _, tb := range tables {
		if fp := fps[tb.String()]; fp != "" {
			fmt.Fprintf(&b, "fingerprint\t%s\t%s\n", tb, fp)
		}
	}
	b.WriteString(resultsColumns + "\n")
	return b.String()
}

func (r gameResult) line() string {
	ff := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return fmt.Sprintf("%s\t%s\t%d\t%d\t%s\t%d\t%s\t%d\t%.2f\n", r.table, r.cell, r.game, r.seat, ff(r.win), r.score, ff(r.others), r.best, r.cpu)
}

// results is a results file read.
type results struct {
	// fingerprints maps a table's name to the fingerprint of the bot
	// that played its games. A table without one has no games.
	fingerprints map[string]string
	// legacy is the one fingerprint of a file begun before fingerprints
	// were a table's, "" for a file with a fingerprint a table.
	legacy string
	games  []gameResult
}

// legacyFingerprints are, for the fingerprint of a results file begun
// before the fingerprints were a table's, the tables' fingerprints of the
// bot that had it (strengthFingerprints, of the same bot): the games of
// such a file are read as those of these. The fingerprint of a file not
// here stands for every table, and matches no table's bot.
var legacyFingerprints = map[string]map[string]string{
	"a6d97bd123f17df6": {
		"raubritter/2p": "fc6a9ffa396983ae", "raubritter/4p": "cfcdf9960507e682",
		"lowenherz/2p": "d64526267ce4e64f", "lowenherz/3p": "1d41258c701367aa",
		"lowenherz97/2p": "ccc4439e16d5f60d", "lowenherz97/4p": "51a0f585a4d0ba20",
		"heritiers/2p": "19057a42306b2eb1", "heritiers/1p": "d9d91a9a3361cbe3",
	},
}

// fingerprintOf returns the fingerprint of table's bot in the file, "—"
// when it has none.
func (res *results) fingerprintOf(table string) string {
	if fp := res.fingerprints[table]; fp != "" {
		return fp
	}
	return "—"
}

// fingerprintText lists the tables' fingerprints, in the order of tables.
func (res *results) fingerprintText() string {
	var parts []string
	for _, tb := range tables {
		if fp := res.fingerprints[tb.String()]; fp != "" {
			parts = append(parts, tb.String()+" "+fp)
		}
	}
	if res.legacy != "" {
		return fmt.Sprintf("%s (the file's one fingerprint %s)", strings.Join(parts, ", "), res.legacy)
	}
	return strings.Join(parts, ", ")
}

// write writes res to path whole, header and games, through a file
// renamed over it.
func (res *results) write(path string) error {
	var b strings.Builder
	b.WriteString(resultsHeader(res.fingerprints))
	for _, g := range res.games {
		b.WriteString(g.line())
	}
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// staleResultsPath is where the games of table, played by the bot of
// fingerprint fp, go when the table begins afresh: a results file of
// their own beside path's, which TestBotStrengthSummary reads with
// HERALD_BOT_RESULTS.
func staleResultsPath(path, table, fp string) string {
	return filepath.Join(filepath.Dir(path), "stale-"+strings.ReplaceAll(table, "/", "-")+"-"+fp+".tsv")
}

// begin readies res, the file at path, for a run whose tables' bots have
// the fingerprints fps. A table whose bot's fingerprint differs from the
// file's is an error naming every such table, unless afresh names it:
// then its games move to staleResultsPath, and the table begins again
// with no games. Naming a table whose fingerprint has not changed is an
// error (its games would be lost for nothing). When a table of fps had
// no fingerprint in the file, or games moved, the file is written anew,
// with a fingerprint a table. begin returns what it moved.
func (res *results) begin(path string, fps map[string]string, afresh []string) ([]string, error) {
	for _, a := range afresh {
		if fps[a] == "" {
			return nil, fmt.Errorf("HERALD_BOT_AFRESH names %q, not a table of this run (the tables: %s)", a, strings.Join(slices.Sorted(maps.Keys(fps)), ", "))
		}
		if was := res.fingerprints[a]; was == "" || was == fps[a] {
			return nil, fmt.Errorf("HERALD_BOT_AFRESH names %s, whose bot has not changed (fingerprint %s): its games are this bot's; name only the tables whose fingerprint changed", a, fps[a])
		}
	}
	var stale, names []string
	count := map[string]int{}
	for _, g := range res.games {
		count[g.table]++
	}
	rewrite := false
	for _, tb := range tables {
		k := tb.String()
		switch was := res.fingerprints[k]; {
		case fps[k] == "" || was == fps[k]:
		case was == "":
			rewrite = true
		case !slices.Contains(afresh, k):
			stale = append(stale, fmt.Sprintf("%s (%d games of the bot of fingerprint %s; this bot's is %s)", k, count[k], was, fps[k]))
			names = append(names, k)
		}
	}
	if len(stale) > 0 {
		return nil, fmt.Errorf("%s: the bot's play has changed on %s, and their games would be counted with another bot's: %s. Begin them afresh with HERALD_BOT_AFRESH=%s (their games move aside, %s's to %s), or leave them out with HERALD_BOT_TABLES",
			path, strings.Join(names, ", "), strings.Join(stale, "; "), strings.Join(names, ","), names[0], staleResultsPath(path, names[0], res.fingerprints[names[0]]))
	}
	var moved []string
	for _, k := range afresh {
		was := res.fingerprints[k]
		var gone, kept []gameResult
		for _, g := range res.games {
			if g.table == k {
				gone = append(gone, g)
			} else {
				kept = append(kept, g)
			}
		}
		sp := staleResultsPath(path, k, was)
		if _, err := os.Stat(sp); err == nil {
			return nil, fmt.Errorf("%s: the games of %s by the bot of fingerprint %s would move there, and it exists already; move it aside first", sp, k, was)
		}
		if err := (&results{fingerprints: map[string]string{k: was}, games: gone}).write(sp); err != nil {
			return nil, err
		}
		res.games = kept
		moved = append(moved, fmt.Sprintf("%s: %d games of the bot of fingerprint %s moved to %s; the table begins afresh for the bot of fingerprint %s", k, len(gone), was, sp, fps[k]))
		rewrite = true
	}
	if !rewrite {
		return moved, nil
	}
	merged := maps.Clone(res.fingerprints)
	maps.Copy(merged, fps)
	res.fingerprints, res.legacy = merged, ""
	return moved, res.write(path)
}

// readResults reads the results file at path, each line checked.
func readResults(path string) (*results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("%s ends in an unfinished line (a run stopped as it wrote it?): TestBotStrength drops it and plays that game again", path)
	}
	res := &results{fingerprints: map[string]string{}}
	seen := map[string]bool{}
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s (the line: %q)", path, n+1, fmt.Sprintf(format, args...), line)
		}
		if strings.HasPrefix(line, "#") || line == resultsColumns {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "fingerprint\t"); ok {
			f := strings.Split(rest, "\t")
			switch {
			case res.legacy != "":
				return nil, bad("a second fingerprint, after the one for every table")
			case len(f) == 1 && len(res.fingerprints) > 0:
				return nil, bad("a fingerprint for every table, after a table's")
			case len(f) == 1 && f[0] != "":
				res.legacy = f[0]
				for _, tb := range tables {
					res.fingerprints[tb.String()] = f[0]
				}
				maps.Copy(res.fingerprints, legacyFingerprints[f[0]])
			case len(f) != 2 || f[0] == "" || f[1] == "":
				return nil, bad("a fingerprint line is \"fingerprint\", a table and its fingerprint, tab-separated")
			case !slices.ContainsFunc(tables, func(tb table) bool { return tb.String() == f[0] }):
				return nil, bad("no table %s in the campaign", f[0])
			case res.fingerprints[f[0]] != "":
				return nil, bad("a second fingerprint for %s", f[0])
			default:
				res.fingerprints[f[0]] = f[1]
			}
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 9 {
			return nil, bad("%d fields, want 9 (%s)", len(f), strings.ReplaceAll(resultsColumns, "\t", ", "))
		}
		var r gameResult
		r.table, r.cell = f[0], f[1]
		var errs []error
		num := func(s string) int { v, err := strconv.Atoi(s); errs = append(errs, err); return v }
		flt := func(s string) float64 { v, err := strconv.ParseFloat(s, 64); errs = append(errs, err); return v }
		r.game, r.seat, r.win, r.score, r.others, r.best, r.cpu = num(f[2]), num(f[3]), flt(f[4]), num(f[5]), flt(f[6]), num(f[7]), flt(f[8])
		if err := errors.Join(errs...); err != nil {
			return nil, bad("%v", err)
		}
		c := findCell(r.table, r.cell)
		switch {
		case c != nil && res.fingerprints[r.table] == "":
			return nil, bad("a game of %s before its table's fingerprint line", r.table)
		case c == nil:
			return nil, bad("no cell %s on table %s in the campaign", r.cell, r.table)
		case r.game < 0 || r.seat != r.game%c.tb.players+1:
			return nil, bad("game %d is played from seat %d, not %d", r.game, r.game%c.tb.players+1, r.seat)
		case r.win < 0 || r.win > 1:
			return nil, bad("won %v is not a share of a victory", r.win)
		}
		key := r.table + "\t" + r.cell + "\t" + f[2]
		if seen[key] {
			return nil, bad("game %d of %s on %s a second time", r.game, r.cell, r.table)
		}
		seen[key] = true
		res.games = append(res.games, r)
	}
	if len(res.fingerprints) == 0 {
		return nil, fmt.Errorf("%s: no fingerprint line", path)
	}
	return res, nil
}

// dropUnfinishedLine cuts the results file at path after its last whole
// line, so that a game whose line a stopped run left half written is
// played again rather than read wrong.
func dropUnfinishedLine(path string) error {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 || data[len(data)-1] == '\n' {
		return nil // a missing file is made by the caller
	}
	return os.WriteFile(path, data[:bytes.LastIndexByte(data, '\n')+1], 0o644)
}

func findCell(tb, name string) *campaignCell {
	for _, c := range campaignCells() {
		if c.tb.String() == tb && c.name == name {
			return c
		}
	}
	return nil
}

// gameNames are the games' names in the summary's table.
var gameNames = map[string]string{"raubritter": "Raubritter", "lowenherz": "Löwenherz", "lowenherz97": "Löwenherz 1997", "heritiers": "Les Deux Héritiers"}

// summary returns the table of res: a row a table (cells: won of played,
// the bot's mean score to the best other's), the solo game's levels
// against Henri, and the CPU time spent and left for games a cell.
func (res *results) summary(games int) string {
	type sum struct {
		n                        int
		won, score, best, others float64
		cpu                      float64
	}
	sums := map[string]*sum{}
	for _, g := range res.games {
		k := g.table + " " + g.cell
		if sums[k] == nil {
			sums[k] = &sum{}
		}
		s := sums[k]
		s.n++
		s.won += g.win
		s.score += float64(g.score)
		s.best += float64(g.best)
		s.others += g.others
		s.cpu += g.cpu
	}
	cellText := func(tb table, name string) string {
		s := sums[tb.String()+" "+name]
		if s == nil {
			return "—"
		}
		n := float64(s.n)
		return fmt.Sprintf("%s of %d (%.0f%%), %.1f to %.1f", strconv.FormatFloat(math.Round(10*s.won)/10, 'f', -1, 64), s.n, 100*s.won/n, s.score/n, s.best/n)
	}
	var b strings.Builder
	b.WriteString("| game | players | against random | against greedy | `bot:3` against `bot:1` |\n|---|---|---|---|---|\n")
	for _, tb := range tables {
		if tb.players == 1 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", gameNames[tb.game], tb.players, cellText(tb, "random"), cellText(tb, "greedy"), cellText(tb, "levels"))
	}
	b.WriteString("\nAlone against Henri (won of played, the bot's mean score to Henri's):")
	for level := 1; level <= bot.MaxLevel; level++ {
		fmt.Fprintf(&b, " `bot:%d` %s;", level, cellText(table{"heritiers", 1}, fmt.Sprint("henri:", level)))
	}
	var spent, left float64
	var played, unknown int
	for _, c := range campaignCells() {
		s := sums[c.tb.String()+" "+c.name]
		if s == nil {
			unknown++
			continue
		}
		played += s.n
		spent += s.cpu
		left += float64(max(0, games-s.n)) * s.cpu / float64(s.n)
	}
	fmt.Fprintf(&b, "\n\n%d games played, %.1f hours of CPU; %d games a cell would take %.1f hours more at the CPU time a game measured in each cell", played, spent/3600, games, left/3600)
	if unknown > 0 {
		fmt.Fprintf(&b, ", and %d cells not begun", unknown)
	}
	b.WriteString(".\n")
	return b.String()
}

// strengthFingerprints returns the fingerprint of the contestants of
// the campaign on each of tbls (a table's name to it): a hash of the
// steps each chooses (the bot at every level and at the default with its
// ranking's visits, the random and greedy players) on a few fixed
// positions of the table. Two bots with the same fingerprint on a table
// play the same games there, short of a change that only shows
// elsewhere; a change to one game's play leaves the other tables'
// fingerprints alone.
func strengthFingerprints(t testing.TB, tbls []table) map[string]string {
	out := map[string]string{}
	for _, tb := range tbls {
		sum := sha256.Sum256(fingerprintText(t, tb))
		out[tb.String()] = hex.EncodeToString(sum[:])[:16]
	}
	return out
}

// allTablesFingerprint returns the one fingerprint of every table that
// results files had before the fingerprints were a table's: the hash of
// the tables' fingerprint texts one after the other. legacyFingerprints
// holds the tables' fingerprints of the bot that had such a one.
func allTablesFingerprint(t testing.TB) string {
	h := sha256.New()
	for _, tb := range tables {
		h.Write(fingerprintText(t, tb))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// fingerprintText returns what the fingerprint of tb hashes: the steps
// the contestants choose on two fixed positions of tb.
func fingerprintText(t testing.TB, tb table) []byte {
	var h bytes.Buffer
	contestants := []contestant{botAt(0), botAt(2), randomPlayer, greedyPlayer} // and the ranks of levels 1 and 3 below
	m := startMatch(t, tb, "fingerprint")
	rng := adjudicator.NewRNG("fingerprint")
	for _, walk := range []int{5, 35} {
		randomSteps(t, m.State, walk, rng)
		for len(m.State.ToMove()) > 0 && (botSeat(m.State) == "" || len(m.State.Legal(botSeat(m.State))) < 2) {
			randomSteps(t, m.State, 1, rng)
		}
		seat := botSeat(m.State)
		if seat == "" {
			break
		}
		fmt.Fprintf(&h, "%s %s %s\n", tb, seat, m.State.Legal(seat))
		for _, c := range contestants {
			mv, err := c.step(m.State, m.Seats(), seat, "fingerprint")
			if err != nil {
				t.Fatalf("%s, %s: %v", tb, c.name, err)
			}
			fmt.Fprintf(&h, "%s: %s\n", c.name, mv)
		}
		for _, level := range []int{1, 3} {
			ch, err := bot.Rank(m.State, m.Seats(), seat, bot.Options{Level: level, Seed: "fingerprint"})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range ch {
				fmt.Fprintf(&h, "%s %d %.9f\n", c.Move, c.Visits, c.Reward)
			}
		}
	}
	return h.Bytes()
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// TestResultsFileRefusesBadLines: the results file is read line by line,
// and a line that is not a game of the campaign is an error naming it; a
// file with a fingerprint a table is read as such, and a file begun with
// one fingerprint for every table as that fingerprint on every table (or
// as the tables' fingerprints of legacyFingerprints).
func TestResultsFileRefusesBadLines(t *testing.T) {
	fps := map[string]string{"raubritter/4p": "f00d", "lowenherz/2p": "beef"}
	head := resultsHeader(fps)
	legacy := strings.Replace(resultsHeader(nil), resultsColumns, "fingerprint\tf00d\n"+resultsColumns, 1)
	good := gameResult{table: "raubritter/4p", cell: "greedy", game: 5, seat: 2, outcome: outcome{win: 0.5, score: 20, others: 12.5, best: 20}, cpu: 3.25}
	every := map[string]string{}
	for _, tb := range tables {
		every[tb.String()] = "f00d"
	}
	known := maps.Clone(legacyFingerprints["a6d97bd123f17df6"])
	for _, tc := range []struct {
		name, text, want string
		fps              map[string]string // the fingerprints read, when no error
	}{
		{"good", head + good.line(), "", fps},
		{"one for every table", legacy + good.line(), "", every},
		{"one for every table, known", strings.Replace(legacy, "f00d", "a6d97bd123f17df6", 1) + good.line(), "", known},
		{"no fingerprint", resultsColumns + "\n" + good.line(), "a game of raubritter/4p before its table's fingerprint line", nil},
		{"not this table's", resultsHeader(map[string]string{"lowenherz/2p": "beef"}) + good.line(), "a game of raubritter/4p before its table's fingerprint line", nil},
		{"two for a table", head + "fingerprint\traubritter/4p\tbeef\n", "a second fingerprint for raubritter/4p", nil},
		{"two for every table", legacy + "fingerprint\tbeef\n", "a second fingerprint, after the one for every table", nil},
		{"every table after one", head + "fingerprint\tbeef\n", "a fingerprint for every table, after a table's", nil},
		{"table's after every", legacy + "fingerprint\tlowenherz/2p\tbeef\n", "a second fingerprint, after the one for every table", nil},
		{"no such table", head + "fingerprint\tlowenherz/9p\tbeef\n", "no table lowenherz/9p in the campaign", nil},
		{"fingerprint fields", head + "fingerprint\tlowenherz/3p\tbeef\tmore\n", "a fingerprint line is", nil},
		{"fields", head + "raubritter/4p\tgreedy\t5\t2\n", "4 fields, want 9", nil},
		{"number", head + strings.Replace(good.line(), "\t20\t", "\tmany\t", 1), "invalid syntax", nil},
		{"cell", head + strings.Replace(good.line(), "greedy", "henri:1", 1), "no cell henri:1 on table raubritter/4p", nil},
		{"seat", head + strings.Replace(good.line(), "\t5\t2\t", "\t5\t3\t", 1), "game 5 is played from seat 2, not 3", nil},
		{"share", head + strings.Replace(good.line(), "\t0.5\t", "\t2\t", 1), "not a share", nil},
		{"twice", head + good.line() + good.line(), "game 5 of greedy on raubritter/4p a second time", nil},
		{"unfinished", head + strings.TrimSuffix(good.line(), "\n"), "unfinished line", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results.tsv")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := readResults(path)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && (!maps.Equal(res.fingerprints, tc.fps) || len(res.games) != 1 || res.games[0] != good):
				t.Fatalf("read %+v, want fingerprints %v and %+v", res, tc.fps, good)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestResultsBegin: a run refuses the tables whose bot's fingerprint
// changed, naming them and the variable that begins them afresh; with it,
// their games move to a results file of their own, the others stay, and
// the file is written anew with a fingerprint a table; naming a table
// whose bot has not changed is refused. A file begun with one fingerprint
// for every table is read, and written anew with a fingerprint a table
// only when a table gains one.
func TestResultsBegin(t *testing.T) {
	rb := gameResult{table: "raubritter/2p", cell: "random", game: 0, seat: 1, outcome: outcome{win: 1, score: 23, others: 5, best: 5}, cpu: 1.5}
	lh := gameResult{table: "lowenherz/2p", cell: "greedy", game: 3, seat: 2, outcome: outcome{win: 1, score: 5, others: 3, best: 3}, cpu: 90}
	lh3 := gameResult{table: "lowenherz/3p", cell: "greedy", game: 0, seat: 1, outcome: outcome{win: 0, score: 3, others: 4, best: 5}, cpu: 80}
	legacy := strings.Replace(resultsHeader(nil), resultsColumns, "fingerprint\tf00d\n"+resultsColumns, 1) + rb.line() + lh.line() + lh3.line()
	setup := func(t *testing.T) (string, *results) {
		path := filepath.Join(t.TempDir(), "results.tsv")
		if err := os.WriteFile(path, []byte(legacy), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := readResults(path)
		if err != nil {
			t.Fatal(err)
		}
		return path, res
	}
	read := func(t *testing.T, path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	now := map[string]string{"raubritter/2p": "f00d", "lowenherz/2p": "cafe", "lowenherz/3p": "d00d"}

	t.Run("unchanged", func(t *testing.T) {
		path, res := setup(t)
		if _, err := res.begin(path, map[string]string{"raubritter/2p": "f00d", "lowenherz/2p": "f00d"}, nil); err != nil {
			t.Fatal(err)
		}
		if got := read(t, path); got != legacy {
			t.Fatalf("the file was written anew:\n%s", got)
		}
	})
	t.Run("refused", func(t *testing.T) {
		path, res := setup(t)
		_, err := res.begin(path, now, nil)
		for _, want := range []string{
			"lowenherz/2p (1 games of the bot of fingerprint f00d; this bot's is cafe)",
			"lowenherz/3p (1 games of the bot of fingerprint f00d; this bot's is d00d)",
			"HERALD_BOT_AFRESH=lowenherz/2p,lowenherz/3p",
		} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v, want one saying %q", err, want)
			}
		}
		if err != nil && strings.Contains(err.Error(), "raubritter") {
			t.Fatalf("err = %v names raubritter/2p, whose bot has not changed", err)
		}
		if got := read(t, path); got != legacy {
			t.Fatalf("the file changed:\n%s", got)
		}
	})
	t.Run("not changed, named", func(t *testing.T) {
		path, res := setup(t)
		_, err := res.begin(path, now, []string{"lowenherz/2p", "lowenherz/3p", "raubritter/2p"})
		if want := "names raubritter/2p, whose bot has not changed"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want one saying %q", err, want)
		}
		_, err = res.begin(path, now, []string{"heritiers/1p"})
		if want := "names \"heritiers/1p\", not a table of this run"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want one saying %q", err, want)
		}
	})
	t.Run("afresh", func(t *testing.T) {
		path, res := setup(t)
		moved, err := res.begin(path, now, []string{"lowenherz/2p", "lowenherz/3p"})
		if err != nil {
			t.Fatal(err)
		}
		if len(moved) != 2 || !strings.Contains(moved[0], "lowenherz/2p: 1 games of the bot of fingerprint f00d moved to") {
			t.Fatalf("moved %q", moved)
		}
		again, err := readResults(path)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, tb := range tables {
			want[tb.String()] = "f00d"
		}
		maps.Copy(want, now)
		if !maps.Equal(again.fingerprints, want) || !slices.Equal(again.games, []gameResult{rb}) || again.legacy != "" {
			t.Fatalf("read again %+v, want fingerprints %v and the game %+v", again, want, rb)
		}
		for _, g := range []gameResult{lh, lh3} {
			stale, err := readResults(staleResultsPath(path, g.table, "f00d"))
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(stale.fingerprints, map[string]string{g.table: "f00d"}) || !slices.Equal(stale.games, []gameResult{g}) {
				t.Fatalf("the stale file of %s holds %+v", g.table, stale)
			}
		}
		if err := os.WriteFile(staleResultsPath(path, "lowenherz/2p", "cafe"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := res.begin(path, map[string]string{"lowenherz/2p": "0000"}, []string{"lowenherz/2p"}); err == nil || !strings.Contains(err.Error(), "exists already") {
			t.Fatalf("err = %v, want one saying the stale file exists already", err)
		}
	})
}

// TestCampaignOrder: the scheduler begins every cell, in campaignCells'
// order, before it plays any cell's second game; then the cell that has
// used the least CPU plays, its running games counted at its mean; and it
// skips the games the results file holds.
func TestCampaignOrder(t *testing.T) {
	cells := campaignCells()[:3]
	for _, c := range cells {
		c.done = map[int]bool{}
	}
	cells[1].done[0] = true // played in an earlier run
	cells[1].cpu = 10
	s := &scheduler{cells: cells, games: 3}
	var got []string
	take := func() *campaignCell {
		c, g := s.next()
		got = append(got, fmt.Sprint(c.name, "@", c.tb, "#", g))
		return c
	}
	a := take() // cells[0], never begun
	take()      // cells[2], never begun; cells[1] has begun
	s.finish(t, discard(t), a, gameResult{game: 0, cpu: 1})
	take() // cells[0]: 1s spent, cells[1] 10s, cells[2] running its first
	take() // cells[0] again: 1s + 1 running at 1s < 10s
	take() // cells[1]: cells[0] has no games left
	want := []string{
		fmt.Sprint(cells[0].name, "@", cells[0].tb, "#0"),
		fmt.Sprint(cells[2].name, "@", cells[2].tb, "#0"),
		fmt.Sprint(cells[0].name, "@", cells[0].tb, "#1"),
		fmt.Sprint(cells[0].name, "@", cells[0].tb, "#2"),
		fmt.Sprint(cells[1].name, "@", cells[1].tb, "#1"),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("games handed out %v, want %v", got, want)
	}
}

func discard(t *testing.T) *os.File {
	f, err := os.Create(filepath.Join(t.TempDir(), "results.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
