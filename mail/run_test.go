package mail

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/games/raubritter"
)

// syncBuffer is a bytes.Buffer safe for the log's concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPlayerPasswordsFile checks that the passwords of the player accounts
// the embedded setup opens are written to a file that only its owner may
// read, whose path is logged, and never to the log (issue 15, item 18).
func TestPlayerPasswordsFile(t *testing.T) {
	dir := t.TempDir()
	var logBuf syncBuffer
	pw := map[string]string{"alice@herald.local": "secret-alice-1", "bob@herald.local": "secret-bob-2"}
	r, err := Start(context.Background(), RunConfig{
		Dir: dir, Registry: adjudicator.NewRegistry(raubritter.Game), Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
		PlayerPassword: func(a string) string { return pw[a] },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Service.CreateGame(context.Background(), "alice@herald.local", "raubritter", []string{"alice@herald.local", "bob@herald.local"}, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, PlayerPasswordsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "alice@herald.local secret-alice-1\nbob@herald.local secret-bob-2\n"; string(data) != want {
		t.Errorf("%s holds %q, want %q", path, data, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v (%v), want 0600", path, fi.Mode().Perm(), err)
	}
	log := logBuf.String()
	for _, p := range pw {
		if strings.Contains(log, p) {
			t.Errorf("the log holds a password:\n%s", log)
		}
	}
	if !strings.Contains(log, path) {
		t.Errorf("the log does not say where the passwords are:\n%s", log)
	}
}
