package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/storetest"
)

// TestSuite runs the stores' common suite on SQLite.
func TestSuite(t *testing.T) {
	storetest.Run(t, func(t testing.TB) storetest.DB { return sqliteDB(filepath.Join(t.TempDir(), "herald.db")) })
}

// sqliteDB is a database file of the suite.
type sqliteDB string

func (p sqliteDB) Open(t testing.TB) host.Store {
	t.Helper()
	s, err := Open(context.Background(), string(p))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
