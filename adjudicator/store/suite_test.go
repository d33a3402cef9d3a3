package store

import (
	"context"
	"database/sql"
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

// Ints runs query on the database, as storetest.Inspector.
func (p sqliteDB) Ints(t testing.TB, query string) []int64 {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+string(p)+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
