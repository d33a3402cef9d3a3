package host_test

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// TestUndo takes moves back by consent (issue 19; RULINGS.md H-5): a
// request that one player refuses changes nothing; one that every other
// player accepts takes the asker's last move and every move since back,
// keeps them in the record as history, and the game goes on; a move ends a
// pending request; a request lapses.
func TestUndo(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"alice@x.org", "bob@y.org", "carol@z.org"}})
	g := r.game(id)
	key := map[string]string{}
	for _, p := range g.Players {
		key[p.Name] = "key " + p.Secret + "\n"
	}
	addr := func(name string) string {
		for _, p := range g.Players {
			if p.Name == name {
				return p.Address
			}
		}
		return ""
	}
	for range 5 {
		r.playTurn(id)
	}
	moves := r.game(id).Record.Moves
	asker := moves[len(moves)-2].Player // someone whose move is not the last
	others := []string{}
	for _, p := range g.Players {
		if p.Name != asker {
			others = append(others, p.Name)
		}
	}
	// Refused: nothing changes.
	rep := r.send(id, addr(asker), key[asker]+"undo")
	if rep.Outcome != host.Answered || len(rep.Notices) != 3 || !strings.Contains(rep.Notices[1].Text, "asks to take back these moves") {
		t.Fatalf("undo: %+v", rep)
	}
	if rep := r.send(id, addr(others[0]), key[others[0]]+"undo refuse"); rep.Outcome != host.Answered || !strings.Contains(rep.Notices[0].Text, "refused") {
		t.Fatalf("undo refuse: %+v", rep)
	}
	if n := len(r.game(id).Record.Moves); n != len(moves) {
		t.Fatalf("a refused undo changed the moves: %d, want %d", n, len(moves))
	}
	if rep := r.send(id, addr(others[1]), key[others[1]]+"undo accept"); rep.Outcome != host.Rejected {
		t.Errorf("accepting a refused request: %+v", rep)
	}
	// Accepted by both others: the asker's last move and the one after
	// are taken back.
	r.send(id, addr(asker), key[asker]+"undo")
	if rep := r.send(id, addr(asker), key[asker]+"undo accept"); rep.Outcome != host.Rejected || rep.Notices[0].Topic != "undo still asked" ||
		!strings.Contains(rep.Notices[0].Text, "your\nrequest stands until") {
		// The request stands: not "undo refused" (hand play).
		t.Errorf("the asker accepts their own request: %+v", rep)
	}
	if rep := r.send(id, addr(others[0]), key[others[0]]+"undo accept"); !strings.Contains(rep.Notices[0].Text, "Still to agree: "+others[1]) {
		t.Errorf("the first consent: %+v", rep)
	}
	rep = r.send(id, addr(others[1]), key[others[1]]+"reprendre oui")
	if rep.Outcome != host.Applied || len(rep.Notices) != 3 || !strings.Contains(rep.Notices[0].Text, "are taken back") {
		t.Fatalf("the last consent: %+v", rep)
	}
	after := r.game(id)
	if len(after.Record.Moves) != len(moves)-2 || len(after.Record.Undone) != 1 || after.Record.Undone[0].By != asker || len(after.Record.Undone[0].Moves) != 2 {
		t.Fatalf("after the take-back: %d moves, undone %+v", len(after.Record.Moves), after.Record.Undone)
	}
	m, err := adjudicator.Start(r.h.Registry(), after.Record)
	if err != nil {
		t.Fatal(err)
	}
	if to := m.State.ToMove(); len(to) != 1 || to[0] != asker {
		t.Errorf("after the take-back %v is to move, want %s", to, asker)
	}
	r.playTurn(id) // the game goes on
	if rep, err := adjudicator.Adjudicate(r.h.Registry(), r.game(id).Record); err != nil || rep.Illegal != nil {
		t.Fatalf("the record after a take-back does not adjudicate: %v %+v", err, rep)
	}
	// A move ends a pending request; a request lapses after 72 hours.
	last := r.game(id).Record.Moves
	asker = last[len(last)-1].Player
	r.send(id, addr(asker), key[asker]+"undo")
	r.playTurn(id)
	mover := r.game(id).Record.Moves[len(last)].Player
	for _, o := range g.Players {
		if o.Name != asker && o.Name != mover {
			if rep := r.send(id, o.Address, key[o.Name]+"undo accept"); rep.Outcome != host.Rejected {
				t.Errorf("accepting a request a move has overtaken: %+v", rep)
			}
		}
	}
	asker = mover
	r.send(id, addr(asker), key[asker]+"undo")
	r.clock = r.clock.Add(73 * time.Hour)
	for _, o := range g.Players {
		if o.Name != asker {
			if rep := r.send(id, o.Address, key[o.Name]+"undo accept"); rep.Outcome != host.Rejected {
				t.Errorf("accepting a lapsed request: %+v", rep)
			}
			break
		}
	}
}

// TestUndoSolo takes back a solo player's move at once: there is no one
// else to ask, and Henri's answer goes with it.
func TestUndoSolo(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "s@x.org", Game: "heritiers", Players: []string{"s@x.org"}})
	g := r.game(id)
	m, err := adjudicator.Start(r.h.Registry(), g.Record)
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for {
		st := m.State.Legal("s")[0].String()
		sub, err := m.Submit("s", st, "", "")
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, st)
		if len(sub.Auto) > 0 {
			break
		}
	}
	key := "key " + g.Players[0].Secret + "\n"
	r.send(id, "s@x.org", key+strings.Join(steps, "\n"))
	if n := len(r.game(id).Record.Moves); n != 2 {
		t.Fatalf("%d moves after the solo turn and Henri's, want 2", n)
	}
	if rep := r.send(id, "s@x.org", key+"undo"); rep.Outcome != host.Applied {
		t.Fatalf("undo in a solo game: %+v", rep)
	}
	if got := r.game(id).Record; len(got.Moves) != 0 || len(got.Undone) != 1 || len(got.Undone[0].Moves) != 2 {
		t.Errorf("after the solo undo: %d moves, undone %+v", len(got.Moves), got.Undone)
	}
}

// TestUndoTextsFitMail: what a request to take moves back tells each
// player fits the 72 columns of a mail whatever the players' names (field
// test: "carol refused alice's request to take moves back: nothing is
// taken back in" ran past them, and the mail's wrap left "in" alone on an
// indented line; "Nothing changes until bob, carol agree (each writes
// undo accept) by ...; one undo refuse, or a move, ends it." likewise).
func TestUndoTextsFitMail(t *testing.T) {
	r := newRig(t, false)
	id, _ := r.create(host.CreateRequest{Host: "h@x.org", Game: "raubritter", Players: []string{"maximiliana@x.org", "bartholomew@y.org", "carolina-jo@z.org"}})
	g := r.game(id)
	for range 5 {
		r.playTurn(id)
	}
	moves := r.game(id).Record.Moves
	asker := moves[len(moves)-2].Player
	var texts []string
	say := func(name, line string) {
		for _, p := range g.Players {
			if p.Name == name {
				for _, n := range r.send(id, p.Address, "key "+p.Secret+"\n"+line).Notices {
					texts = append(texts, n.Text)
				}
			}
		}
	}
	var others []string
	for _, p := range g.Players {
		if p.Name != asker {
			others = append(others, p.Name)
		}
	}
	say(asker, "undo")
	say(others[0], "undo refuse")
	say(asker, "undo")
	say(others[0], "undo accept")
	say(others[1], "undo accept")
	r.playTurn(id)
	last := r.game(id).Record.Moves
	say(last[len(last)-1].Player, "undo")
	r.playTurn(id)
	r.playTurn(id) // the request lapses: everyone is told
	if len(texts) < 10 {
		t.Fatalf("%d texts", len(texts))
	}
	for _, text := range texts {
		for _, l := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(l); n > 72 && !strings.HasPrefix(l, " ") { // not a list of moves, nor a board
				t.Errorf("a line of %d columns: %q in\n%s", n, l, text)
			}
		}
	}
	for _, want := range []string{"Nothing changes until " + others[0] + ", " + others[1] + " each write undo accept by", "refused " + asker + "'s request"} {
		if !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(strings.ReplaceAll(s, "\n", " "), want) }) {
			t.Errorf("no text says %q:\n%s", want, strings.Join(texts, "\n----\n"))
		}
	}
}
