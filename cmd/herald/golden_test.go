package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGolden pins outputs people read and files other tools parse: the board
// of a fixed-seed game after a few moves (public, private, JSON), the record
// the CLI writes for it, and adjudicate's report on a finished and on a
// tampered record. Rewrite them with -update after a deliberate change.
func TestGolden(t *testing.T) {
	t.Run("game", func(t *testing.T) {
		dir := t.TempDir()
		g := filepath.Join(dir, "game.yaml")
		mustHerald(t, "new", "raubritter", "--players", "alice,bob", "--seed", "42", "-o", g)
		mustHerald(t, "move", g, "--as", "alice", "keep plain village")
		mustHerald(t, "move", g, "--as", "bob", "garde plaine")
		mustHerald(t, "move", g, "--as", "alice", "plain castle f5; knights south 2 1")
		mustHerald(t, "move", g, "--as", "alice", "end")
		mustHerald(t, "move", g, "--as", "bob", "plain castle g5\nknights 2\nplain e6")
		golden(t, "show-seed42-move6.txt", mustHerald(t, "show", g).stdout)
		golden(t, "show-seed42-move6-bob.txt", mustHerald(t, "show", g, "--as", "bob").stdout)
		golden(t, "show-seed42-move6-bob.json", mustHerald(t, "show", g, "--as", "bob", "--format", "json").stdout)
		golden(t, "legal-seed42-move6-bob.txt", mustHerald(t, "legal", g, "--as", "bob").stdout)
		rec, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "record-seed42-move6.yaml", string(rec))
	})
	t.Run("adjudicate", func(t *testing.T) {
		// Read in place: adjudicate writes nothing, and the relative path
		// keeps the output the same on every machine.
		golden(t, "adjudicate-finished-2p.txt", herald(t, "", "adjudicate", filepath.Join(cliData, "finished-2p.yaml")).String())
		golden(t, "adjudicate-tampered.txt", herald(t, "", "adjudicate", filepath.Join(cliData, "tampered.yaml")).String())
	})
}
