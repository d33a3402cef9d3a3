package picture_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
)

// TestAppendJSON holds AppendJSON to json.Marshal, byte for byte, on the
// pictures of every game all along a played game, and on boards with the
// strings and lists json.Marshal escapes or writes apart (null, [], {}).
func TestAppendJSON(t *testing.T) {
	check := func(name string, b *picture.Board) {
		t.Helper()
		want, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("%s: AppendJSON:\n%s\njson.Marshal:\n%s", name, got, want)
		}
		if got := b.JSON(); !bytes.Equal(got, want) {
			t.Fatalf("%s: JSON:\n%s\njson.Marshal:\n%s", name, got, want)
		}
		if got := b.AppendJSON([]byte("x")); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Fatalf("%s: AppendJSON does not append", name)
		}
	}
	boards := 0
	for _, g := range games.All.Games() {
		m, err := adjudicator.SelfPlay(g, games.All, g.MinPlayers, "appendjson", nil, func() string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		moves := len(m.Record.Moves)
		for _, n := range []int{0, 1, 2, moves / 3, moves / 2, moves - 1, moves} {
			b, err := adjudicator.PictureAt(m, n, "G1 "+g.Title)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("%s move %d", g.Name, n), b)
			fr, err := adjudicator.PictureAtIn(m, n, "G1 "+g.Title, notation.French)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("%s move %d in French", g.Name, n), fr)
			boards++
		}
	}
	if boards == 0 {
		t.Fatal("no game has a picture")
	}
	odd := []string{"", "a \"quoted\" <b>&amp;</b>", "back\\slash", "tab\tnew\nline\r\b\f\x00\x1f\x7f", "ünïcödé ♞", "\u2028\u2029", "bad \xff utf-8"}
	for _, s := range odd {
		check("string "+s, &picture.Board{Title: s, Status: s, Unit: s, ColNames: []string{s}, RowNames: []string{},
			Cells:   []picture.Cell{{}, {Fill: s, Label: s, Roads: s, Owner: -1, Pieces: []picture.Piece{{Owner: 0, Letter: s}}, Stack: true, Zone: true, Mark: true, Await: true, Changed: true}, {Pieces: []picture.Piece{}}},
			Walls:   []picture.Wall{{}, {Row: 1, Col: -2, South: true, Owner: 3, Road: true, Changed: true}},
			Players: []picture.Player{{}, {Name: s, Letter: s, Score: -4, ToMove: true, Note: s}},
			Keys:    []picture.Key{{Swatch: s, Text: s}}, Legend: []string{s, s}, Info: []string{}})
	}
	check("empty", &picture.Board{})
	// Every field set, found by reflection: a field added to Board or to
	// a type in it and not to AppendJSON fails here.
	var full picture.Board
	fill(reflect.ValueOf(&full).Elem())
	check("every field", &full)
	var none *picture.Board
	if got := none.AppendJSON(nil); string(got) != "null" {
		t.Fatalf("a nil board: %s", got)
	}
}

// FuzzAppendJSON holds AppendJSON to json.Marshal on boards of arbitrary
// strings and numbers.
func FuzzAppendJSON(f *testing.F) {
	f.Add("G1 Raubritter", "plain", 3, -1, true)
	f.Add("<&>\u2028\xff\"\\", "\x00\n", 0, 0, false)
	f.Fuzz(func(t *testing.T, s, u string, n, owner int, flag bool) {
		b := &picture.Board{Title: s, Status: u, Cols: n, Rows: owner, ColNames: []string{u, s},
			Cells:   []picture.Cell{{Fill: u, Label: s, Owner: owner, Stack: flag, Roads: u, Mark: !flag}, {Owner: n, Pieces: []picture.Piece{{Owner: owner, Letter: u}}}},
			Walls:   []picture.Wall{{Row: n, Col: owner, South: flag, Owner: owner, Road: !flag, Changed: flag}},
			Players: []picture.Player{{Name: s, Letter: u, Score: n, ToMove: flag, Note: s + u}},
			Unit:    u, Keys: []picture.Key{{Swatch: u, Text: s}}, Legend: []string{s}, Info: []string{u}}
		want, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON:\n%s\njson.Marshal:\n%s", got, want)
		}
	})
}

// fill sets every field of v, a struct, to a value that is not zero: a
// string "x", a number 7, true, and lists of one such element.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	default:
		panic("fill: a field of kind " + v.Kind().String())
	}
}
