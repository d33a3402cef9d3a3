package postgres

import (
	"context"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/heraldgames/herald/adjudicator/store/storetest"
)

// TestSuite runs the stores' common suite on PostgreSQL.
func TestSuite(t *testing.T) {
	storetest.Run(t, func(t testing.TB) storetest.DB { return pgDB(pgtest.URL(t)) })
}

// pgDB is a database of the suite.
type pgDB string

func (u pgDB) Open(t testing.TB) host.Store { return open(t, string(u)) }

// open opens a store on url, closed when the test ends.
func open(t testing.TB, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
