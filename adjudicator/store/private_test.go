package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
)

// TestFilesPrivate opens a store under umask 0, and an older store whose
// files are world-readable (issue 25, item 15): herald.db, -wal and -shm
// are 0600 either way.
func TestFilesPrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "herald.db")
	check := func(when string) {
		t.Helper()
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: %s has mode %v, want 0600", when, filepath.Base(p), fi.Mode().Perm())
			}
		}
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	newGame(t, s, "<p1@x>")
	check("a new store under umask 0")
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s2, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	check("a store whose files were 0644, opened again")
	s.Close()
}

// TestKeysHashed checks that the store keeps the hash of each key, host's
// and players', never the key (issue 25, item 15), and that the hash
// authenticates the key.
func TestKeysHashed(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<k1@x>")
	if err := s.Process(ctx, host.Intake{MessageID: "<k2@x>", BodyHash: "k2", Sender: "host@x", Received: t0}, func(tx host.Tx) error {
		return tx.ReplacePlayer(ctx, gid, 1, "carol@z", "k3", "tok")
	}); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	for seat, key := range []string{"hk", "k1", "k3"} {
		if !host.Authenticate(g, seat-1, key) || !host.Authenticate(g, seat-1, strings.ToUpper(key)) {
			t.Errorf("the key %q of seat %d does not authenticate", key, seat-1)
		}
	}
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT host_key FROM games UNION ALL SELECT secret FROM players`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		if !host.IsHashedKey(k) {
			t.Errorf("the store keeps the key %q in clear", k)
		}
	}
}

// TestClearKeysMigrated opens a store whose keys are in clear, as every
// store before migration 12 kept them: Open hashes them, and they still
// authenticate.
func TestClearKeysMigrated(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	gid := newGame(t, s, "<c1@x>")
	s.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE games SET host_key = 'hk'`,
		`UPDATE players SET secret = 'k' || (seat + 1)`,
		`DROP TABLE observe_requests`,
		`DROP TABLE failures`,                           // migration 13
		`ALTER TABLE players DROP COLUMN undeliverable`, // migration 14
		`ALTER TABLE players DROP COLUMN lang`,          // migration 15
		`UPDATE schema_version SET version = 11`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	g, err := s2.Game(ctx, gid)
	if err != nil {
		t.Fatal(err)
	}
	for seat, key := range []string{"hk", "k1", "k2"} {
		secret := g.HostKey
		if seat > 0 {
			secret = g.Players[seat-1].Secret
		}
		if !host.IsHashedKey(secret) {
			t.Errorf("seat %d: the store keeps %q, want its hash", seat-1, secret)
		}
		if !host.Authenticate(g, seat-1, key) {
			t.Errorf("seat %d: the key %q no longer authenticates", seat-1, key)
		}
	}
}
