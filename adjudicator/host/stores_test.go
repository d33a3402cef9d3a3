package host_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/adjudicator/store/postgres"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
)

// onPostgres is set for the second run of the tests: the rigs' stores are
// PostgreSQL databases.
var onPostgres bool

// TestMain runs the host's tests on each store herald has: on SQLite,
// then again on PostgreSQL (a private cluster of pgtest, a database per
// rig). Where PostgreSQL is not installed the second run is left out,
// unless HERALD_POSTGRES=1 says it must run; benchmarks run once, on
// SQLite.
func TestMain(m *testing.M) {
	code := m.Run()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		os.Exit(code)
	}
	if err := pgtest.Installed(); err != nil && os.Getenv(pgtest.Env) == "" {
		fmt.Printf("the host's tests on PostgreSQL left out: %v\n", err)
		os.Exit(code)
	}
	fmt.Println("the host's tests again, on PostgreSQL:")
	onPostgres = true
	if c := m.Run(); c != 0 {
		code = c
	}
	os.Exit(code)
}

// openStore opens a store for a test on an empty database: SQLite, or
// PostgreSQL in the second run. It is closed when the test ends.
func openStore(t *testing.T) host.Store {
	t.Helper()
	var st host.Store
	var err error
	if onPostgres {
		t.Log("store: PostgreSQL")
		st, err = postgres.Open(context.Background(), pgtest.URL(t))
	} else {
		st, err = store.Open(context.Background(), filepath.Join(t.TempDir(), "herald.db"))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
