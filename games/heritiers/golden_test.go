package heritiers

import (
	"encoding/json"
	"fmt"
	"github.com/heraldgames/herald/adjudicator/gametest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
)

// goldenStates are the states whose boards are pinned: the setups, games
// in progress in both modes, finished games, and a landscape wide enough
// to be drawn in strips.
func goldenStates(t *testing.T) map[string]*State {
	t.Helper()
	out := map[string]*State{
		"setup-2p":   newState(t, []string{"alice", "bob"}, "golden-setup", nil),
		"setup-solo": newState(t, []string{"alice"}, "golden-setup", map[string]string{"level": "1"}),
	}
	for _, n := range []int{1, 2} {
		name := map[int]string{1: "solo", 2: "2p"}[n]
		for i := 0; ; i++ {
			st := randomState(t, n, fmt.Sprintf("golden-mid-%s-%d", name, i))
			if !st.over && len(st.hands[0]) > 0 && st.countOn() >= 8 {
				out["mid-"+name] = st
				break
			}
		}
		m := selfPlay(t, n, "golden-over-"+name, nil, func(*adjudicator.Match) {})
		out["over-"+name] = m.State.(*State)
	}
	wide := mustLoad(t, []string{"alice", "bob"}, `
turn: bob
sets: [voyage, agriculture, commerce]
reserve: [auberge-1, marché-1, campement-1, campement-2, ferme-1, scierie-1]
board:
  m13: étable-1 open / alice* bob*
  c13: auberge-2 alice / alice
  d13: marché-2 bob / bob
  e13: pèlerinage-1 alice
  f13: pèlerinage-2 bob
  g13: baronnie-1 alice
  h13: baronnie-2 bob
  i13: moulin-1 open
  j13: mine-1 open
  n12: chalet-1 alice
  o13: forge-1 bob
players:
  alice:
    hand: [auberge-3]
  bob:
    hand: [ferme-2, carrière-1]
`)
	out["wide-strips"] = wide
	return out
}

// countOn returns the tiles on the board.
func (s *State) countOn() int {
	n := 0
	for i := range s.cells {
		if s.cells[i].tile >= 0 {
			n++
		}
	}
	return n
}

// TestGoldenBoards pins each golden state's board as its first player sees
// it, and its JSON view; go test -update rewrites them.
func TestGoldenBoards(t *testing.T) {
	for name, st := range goldenStates(t) {
		t.Run(name, func(t *testing.T) {
			board, _ := json.MarshalIndent(st.Board(), "", "  ")
			priv, _ := json.MarshalIndent(st.Private(st.names[0]), "", "  ")
			got := st.Text(st.names[0]) + "\n--- board JSON\n" + string(board) + "\n--- private JSON\n" + string(priv) + "\n"
			for i, line := range strings.Split(st.Text(st.names[0]), "\n") {
				if n := utf8.RuneCountInString(line); n > textWidth {
					t.Errorf("line %d has %d columns, more than %d:\n%s", i+1, n, textWidth, line)
				}
			}
			file := filepath.Join("testdata", "golden", name+".txt")
			if *gametest.Update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range max(len(gl), len(wl)) {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("%s differs at line %d:\n got %q\nwant %q", file, i+1, g, w)
					}
				}
			}
		})
	}
}

// TestTextWidth checks every board of many games in progress, as each
// player sees it, fits in 72 columns, with the longest names allowed, and
// is the shared board followed by the player's lines (PrivateTexter).
func TestTextWidth(t *testing.T) {
	long := strings.Repeat("x", 64)
	for i := range 40 {
		n := 1 + i%2
		st := randomState(t, n, fmt.Sprintf("width-%d", i))
		st.names[0] = long
		if n == 2 {
			st.names[1] = strings.Repeat("y", 64)
		}
		for _, as := range []string{st.names[0], st.names[1]} {
			if got, want := st.Text(as), st.Text("")+st.PrivateText(as); got != want {
				t.Fatalf("width-%d: Text(%q) is not Text(\"\") + PrivateText", i, as)
			}
		}
		for _, as := range []string{"", st.names[0], st.names[1]} {
			for j, line := range strings.Split(st.Text(as), "\n") {
				if c := utf8.RuneCountInString(line); c > textWidth {
					t.Fatalf("width-%d as %q: line %d has %d columns:\n%s", i, as, j+1, c, line)
				}
			}
		}
	}
}
