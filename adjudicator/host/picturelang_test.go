package host_test

import (
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/games/raubritter"
	"github.com/heraldgames/herald/notation"
)

// drawings counts the pictures a game draws, in English and in French.
type drawings struct{ en, fr int }

// countedState is a Raubritter state that counts its pictures: every
// other part of the engine contract is Raubritter's own.
type countedState struct {
	*raubritter.State
	n *drawings
}

func (c countedState) Clone() adjudicator.State {
	return countedState{c.State.Clone().(*raubritter.State), c.n}
}

func (c countedState) Picture() *picture.Board {
	c.n.en++
	return c.State.Picture()
}

func (c countedState) PictureIn(lang notation.Lang) *picture.Board {
	c.n.fr++
	return c.State.PictureIn(lang)
}

// TestPicturePerLanguage: the news of a move carry one board in each
// language of their readers, drawn once in it and shared by their
// notices: a game whose players read English draws its board once a move
// and never in French; once alice reads French, her news carry the
// French board (its words and status in French) and bob's the English
// one, each drawn once a move.
func TestPicturePerLanguage(t *testing.T) {
	var n drawings
	g := *raubritter.Game
	g.New = func(s adjudicator.Setup) (adjudicator.State, error) {
		st, err := raubritter.Game.New(s)
		if err != nil {
			return nil, err
		}
		return countedState{st.(*raubritter.State), &n}, nil
	}
	r := newRigOf(t, false, adjudicator.NewRegistry(&g))
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org"}})
	boards := func(rep host.Reply) map[notation.Lang]*picture.Board {
		t.Helper()
		out := map[notation.Lang]*picture.Board{}
		for _, no := range rep.Notices {
			if no.Picture == nil {
				t.Fatalf("the news to %s carry no board", no.To)
			}
			if b, ok := out[no.Lang]; ok && b != no.Picture {
				t.Errorf("the news in %v carry two boards", no.Lang)
			}
			if no.Picture.Lang != no.Lang {
				t.Errorf("the news to %s, in %v, carry the board in %v", no.To, no.Lang, no.Picture.Lang)
			}
			out[no.Lang] = no.Picture
		}
		return out
	}
	r.playTurn(id)
	for move := 2; move <= 3; move++ {
		before := n
		rep := r.playTurn(id)
		if got := boards(rep); len(got) != 1 || got[notation.English] == nil {
			t.Errorf("move %d, all in English: boards %v", move, got)
		}
		if d := (drawings{n.en - before.en, n.fr - before.fr}); d != (drawings{1, 0}) {
			t.Errorf("move %d, all in English: %d boards drawn in English and %d in French, want 1 and 0", move, d.en, d.fr)
		}
	}
	alice := r.game(id).Players[0]
	if rep := r.send(id, alice.Address, "key "+alice.Secret+"\nlang fr"); rep.Outcome != host.Answered {
		t.Fatalf("lang fr: %s", rep.Outcome)
	}
	for move := 4; move <= 5; move++ {
		before := n
		rep := r.playTurn(id)
		got := boards(rep)
		if len(got) != 2 || got[notation.English] == nil || got[notation.French] == nil {
			t.Fatalf("move %d, alice in French: boards %v", move, got)
		}
		if d := (drawings{n.en - before.en, n.fr - before.fr}); d != (drawings{1, 1}) {
			t.Errorf("move %d, alice in French: %d boards drawn in English and %d in French, want 1 and 1", move, d.en, d.fr)
		}
		fr, en := got[notation.French], got[notation.English]
		if fr.Keys[0].Text != "plaine" || fr.Status[:5] != "coup " || en.Keys[0].Text != "plain" || en.Status[:5] != "move " {
			t.Errorf("move %d: the French board's key %q and status %q, the English one's %q and %q", move, fr.Keys[0].Text, fr.Status, en.Keys[0].Text, en.Status)
		}
	}
}
