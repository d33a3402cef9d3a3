package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestWalk plays whole games the way a bot on the command line would, using
// only `show --format json` (whose turn, finished?), `legal --as P` (pick a
// line at random) and `move --as P LINE`, until the game is over; then
// adjudicate must accept the record. It proves that every line legal prints
// is accepted verbatim by move.
func TestWalk(t *testing.T) {
	for _, w := range []struct {
		name    string
		players string
		seed    uint64
	}{
		{"2 players", "alice,bob", 1},
		{"2 players again", "alice,bob", 2},
		{"3 players", "red,green,blue", 3},
	} {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			g := filepath.Join(dir, "walk.yaml")
			rng := rand.New(rand.NewPCG(w.seed, 0))
			mustHerald(t, "new", "raubritter", "--players", w.players, "--seed", "walk"+strconv.Itoa(int(w.seed)), "--opt", "setup=random", "-o", g)
			players := strings.Split(w.players, ",")
			moves := 0
			for {
				v := showJSON(t, g, "")
				if v.Finished {
					if len(v.ToMove) != 0 || v.Result == nil {
						t.Errorf("finished, but to_move %v, result %v", v.ToMove, v.Result)
					}
					break
				}
				if v.MoveNumber != moves+1 {
					t.Fatalf("move_number %d after %d moves", v.MoveNumber, moves)
				}
				if len(v.ToMove) == 0 {
					t.Fatalf("not finished but nobody to move: %+v", v)
				}
				if moves > 1000 {
					t.Fatalf("no end after %d moves", moves)
				}
				p := v.ToMove[rng.IntN(len(v.ToMove))]
				legal := lines(mustHerald(t, "legal", g, "--as", p).stdout)
				if len(legal) == 0 {
					t.Fatalf("move %d: %s is to move but legal lists nothing", v.MoveNumber, p)
				}
				// Someone else may not act now, and legal says so.
				for _, o := range players {
					if o != p && !slices.Contains(v.ToMove, o) {
						if r := mustHerald(t, "legal", g, "--as", o); r.stdout != "" {
							t.Fatalf("move %d: %s is not to move but legal lists:\n%v", v.MoveNumber, o, r)
						}
						break
					}
				}
				line := legal[rng.IntN(len(legal))]
				if r := herald(t, "", "move", g, "--as", p, line); r.code != 0 {
					t.Fatalf("legal listed %q for %s, but move refused it:\n%v", line, p, r)
				}
				moves++
			}
			a := mustHerald(t, "adjudicate", g)
			if n := len(verdictLines(a.stdout)); n != moves || strings.Contains(a.stdout, "ILLEGAL") {
				t.Errorf("adjudicate judged %d moves of %d:\n%v", n, moves, a)
			}
			if !strings.Contains(a.stdout, "\nresult: ") || strings.Contains(a.stdout, "not finished") {
				t.Errorf("adjudicate of a finished walk:\n%v", a)
			}
			checkNoTemp(t, dir)
		})
	}
}

// TestWalkTurnFiles plays the first moves of a game (its setup phase, where
// both players choose at once, and then play) with one YAML turn file per
// move, numbered from show's move_number; sending a turn file again is
// rejected as stale and changes nothing.
func TestWalkTurnFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := filepath.Join(dir, "game.yaml")
	mustHerald(t, "new", "raubritter", "--players", "alice,bob", "--seed", "turns", "-o", g)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range 12 {
		v := showJSON(t, g, "")
		if v.Finished {
			t.Fatal("finished after a few turns")
		}
		p := v.ToMove[rng.IntN(len(v.ToMove))]
		legal := lines(mustHerald(t, "legal", g, "--as", p).stdout)
		if len(legal) == 0 {
			t.Fatalf("%s to move, nothing legal", p)
		}
		turn := struct {
			Game   string   `yaml:"game"`
			Player string   `yaml:"player"`
			Move   int      `yaml:"move"`
			Steps  []string `yaml:"steps"`
		}{"raubritter", p, v.MoveNumber, []string{legal[rng.IntN(len(legal))]}}
		data, err := yaml.Marshal(turn)
		if err != nil {
			t.Fatal(err)
		}
		tf := filepath.Join(dir, "turn"+strconv.Itoa(i)+".yaml")
		if err := os.WriteFile(tf, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if r := herald(t, "", "turn", tf, "--game", g); r.code != 0 {
			t.Fatalf("turn file from legal refused:\n%s\n%v", data, r)
		}
		if i%4 == 0 {
			before := snapshot(t, dir)
			r := herald(t, "", "turn", tf, "--game", g)
			if r.code != 1 || !strings.Contains(r.stderr, "is stale") {
				t.Errorf("a turn file sent twice:\n%v", r)
			}
			checkUnchanged(t, dir, before, r)
		}
	}
	if v := showJSON(t, g, ""); v.MoveNumber != 13 {
		t.Errorf("move_number %d after 12 turn files", v.MoveNumber)
	}
	rec := loadRecord(t, g)
	for i, m := range rec.Moves {
		if want := "turn:" + filepath.Join(dir, "turn"+strconv.Itoa(i)+".yaml"); m.Source != want {
			t.Errorf("move %d source %q, want %q", i+1, m.Source, want)
		}
	}
	a := mustHerald(t, "adjudicate", g)
	if n := len(verdictLines(a.stdout)); n != 12 {
		t.Errorf("adjudicate judged %d moves:\n%v", n, a)
	}
}
