package adjudicator_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
)

// drawnCount is the counting game's state with a picture, a square
// labelled with the total, and a count of the pictures drawn.
type drawnCount struct {
	*countState
	drawings *int
}

func (d drawnCount) Clone() adjudicator.State {
	return drawnCount{d.countState.Clone().(*countState), d.drawings}
}

func (d drawnCount) Picture() *picture.Board {
	*d.drawings++
	return &picture.Board{Cols: 1, Rows: 1, ColNames: []string{"a"}, RowNames: []string{"1"},
		Cells: []picture.Cell{{Fill: "plain", Label: fmt.Sprint(d.total), Owner: -1}}}
}

// TestPictureOfDrawsOnce plays moves as the host does, drawing the
// picture after each (PictureOf): the first move draws the board twice
// (after it, and before it to mark what it changed); every later move
// once, the board before it being the one drawn after the move before.
// The pictures are those of a fresh match, and a match whose picture was
// not drawn after the move before draws both again.
func TestPictureOfDrawsOnce(t *testing.T) {
	drawings := 0
	m, reg := drawnMatch(t, func(c *countState) adjudicator.State { return drawnCount{c, &drawings} })
	for move := 1; move <= 6; move++ {
		if move == 4 {
			// No picture after move 4: move 5 draws both boards.
			if _, err := m.Submit(m.State.ToMove()[0], "add 2\nend", "", ""); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := m.Submit(m.State.ToMove()[0], "add 1\nend", "", ""); err != nil {
			t.Fatal(err)
		}
		before := drawings
		pic, err := adjudicator.PictureOf(m, "t")
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if move == 1 || move == 5 {
			want = 2
		}
		if got := drawings - before; got != want {
			t.Errorf("move %d: %d boards drawn, want %d", move, got, want)
		}
		checkReplayPicture(t, reg, m, move, pic) // the same picture as a match that replays the record draws
	}
}

// drawnMatch starts a counting game whose states are state's: a
// drawnCount, whose pictures count themselves.
func drawnMatch(t *testing.T, state func(*countState) adjudicator.State) (*adjudicator.Match, *adjudicator.Registry) {
	t.Helper()
	g := *counting
	g.New = func(s adjudicator.Setup) (adjudicator.State, error) {
		st, err := counting.New(s)
		if err != nil {
			return nil, err
		}
		return state(st.(*countState)), nil
	}
	reg := adjudicator.NewRegistry(&g)
	rec, err := adjudicator.NewRecord(&g, []string{"alice", "bob"}, map[string]string{"target": "50"}, "7", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	return m, reg
}

// checkReplayPicture checks pic, drawn after move of m, against the
// picture a match that replays m's record draws, and that it marks the
// square the move changed.
func checkReplayPicture(t *testing.T, reg *adjudicator.Registry, m *adjudicator.Match, move int, pic *picture.Board) {
	t.Helper()
	r := *m.Record
	r.Moves = slices.Clone(m.Record.Moves)
	fresh, err := adjudicator.Start(reg, &r)
	if err != nil {
		t.Fatal(err)
	}
	want, err := adjudicator.PictureAt(fresh, len(fresh.Record.Moves), "t")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pic, want) {
		t.Errorf("move %d: picture %+v, want %+v", move, pic, want)
	}
	if !pic.Cells[0].Changed {
		t.Errorf("move %d: the square the move changed is not marked", move)
	}
}

// TestSnapshotPictureDrawsOnce draws the pictures as a host does for the
// news of a burst of moves, written apart: each from a snapshot of the
// match taken after the move (Match.Snapshot), while the match plays on.
// As with PictureOf, a move draws its board once, the board before it
// being the one the snapshot before drew, and the first move twice; so
// does a move whose snapshot before was drawn only after it (move 3), or
// not at all (move 5), which must not wait for it. The pictures are
// those of a fresh match.
func TestSnapshotPictureDrawsOnce(t *testing.T) {
	drawings := 0
	m, reg := drawnMatch(t, func(c *countState) adjudicator.State { return drawnCount{c, &drawings} })
	var late *adjudicator.Match // move 2's snapshot, drawn after move 3's
	for move := 1; move <= 7; move++ {
		if _, err := m.Submit(m.State.ToMove()[0], "add 1\nend", "", ""); err != nil {
			t.Fatal(err)
		}
		snap := m.Snapshot()
		if move == 2 || move == 4 {
			late = snap
			continue
		}
		before := drawings
		pic, err := adjudicator.PictureOf(snap, "t")
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if move == 1 || move == 3 || move == 5 {
			want = 2
		}
		if got := drawings - before; got != want {
			t.Errorf("move %d: %d boards drawn, want %d", move, got, want)
		}
		checkReplayPicture(t, reg, m, move, pic)
		if move == 3 {
			if _, err := adjudicator.PictureOf(late, "t"); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// langCount is drawnCount drawing in French too (adjudicator.LangPicturer).
type langCount struct{ drawnCount }

func (d langCount) Clone() adjudicator.State {
	return langCount{d.drawnCount.Clone().(drawnCount)}
}

func (d langCount) PictureIn(lang notation.Lang) *picture.Board {
	b := d.Picture()
	b.Keys = []picture.Key{{Swatch: "plain", Text: "pré"}}
	return b
}

// TestPictureAtInFrench checks the French picture of a match: Lang
// French, its status and the package's words in French (whose turn, a
// move before the last, a game ended early, the key of the last move's
// changes: TestSVGInFrench has the others), the same squares marked as in English, and drawn once more
// after the English one, whose board before the move it reuses; a game
// that draws in English alone gives its English picture.
func TestPictureAtInFrench(t *testing.T) {
	drawings := 0
	m, _ := drawnMatch(t, func(c *countState) adjudicator.State { return langCount{drawnCount{c, &drawings}} })
	for range 3 {
		if _, err := m.Submit(m.State.ToMove()[0], "add 1\nend", "", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := adjudicator.PictureOf(m, "t"); err != nil {
			t.Fatal(err)
		}
	}
	before := drawings
	fr, err := adjudicator.PictureAtIn(m, 3, "t", notation.French)
	if err != nil {
		t.Fatal(err)
	}
	if got := drawings - before; got != 1 {
		t.Errorf("the French picture after the English one drew %d boards, want 1", got)
	}
	en, err := adjudicator.PictureOf(m, "t")
	if err != nil {
		t.Fatal(err)
	}
	if fr.Lang != notation.French || en.Lang != notation.English {
		t.Errorf("Lang %v in French, %v in English", fr.Lang, en.Lang)
	}
	if want := "coup 4 : on attend bob"; fr.Status != want {
		t.Errorf("status %q, want %q", fr.Status, want)
	}
	if !reflect.DeepEqual(fr.Cells, en.Cells) {
		t.Errorf("the French picture marks %+v, the English one %+v", fr.Cells, en.Cells)
	}
	if !slices.Contains(fr.Keys, picture.Key{Swatch: "changed", Text: "changé par le dernier coup"}) || !slices.Contains(fr.Keys, picture.Key{Swatch: "plain", Text: "pré"}) {
		t.Errorf("French keys %+v", fr.Keys)
	}
	old, err := adjudicator.PictureAtIn(m, 2, "t", notation.French)
	if err != nil {
		t.Fatal(err)
	}
	if want := "après le coup 2 sur 3 : on attendait alice"; old.Status != want {
		t.Errorf("status %q, want %q", old.Status, want)
	}
	if err := m.Resign("alice", "", ""); err != nil {
		t.Fatal(err)
	}
	ended, err := adjudicator.PictureAtIn(m, 3, "t", notation.French)
	if err != nil {
		t.Fatal(err)
	}
	if want := "terminée avant la fin : abandon"; ended.Status != want {
		t.Errorf("status %q, want %q", ended.Status, want)
	}

	// A game that draws in English alone.
	m, _ = drawnMatch(t, func(c *countState) adjudicator.State { return drawnCount{c, &drawings} })
	plain, err := adjudicator.PictureAtIn(m, 0, "t", notation.French)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := adjudicator.PictureAt(m, 0, "t"); !reflect.DeepEqual(plain, want) {
		t.Errorf("a game without French pictures draws %+v in French, %+v in English", plain, want)
	}
}
