package postgres

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/adjudicator/store/postgres/pgtest"
	"github.com/heraldgames/herald/adjudicator/store/storetest"
	"github.com/jackc/pgx/v5"
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

// BenchmarkMoves runs the stores side by side (storetest.BenchMoves): 1
// worker on SQLite, and 1, 2 and 3 workers on one PostgreSQL database.
// With HERALD_POSTGRES_FSYNC=1 PostgreSQL syncs its commits to disk, as
// SQLite does; without, its figures are those of a server that does not.
func BenchmarkMoves(b *testing.B) {
	b.Run("sqlite-1", func(b *testing.B) {
		storetest.BenchMoves(b, sqliteDB(filepath.Join(b.TempDir(), "herald.db")), 1)
	})
	for _, n := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("postgres-%d", n), func(b *testing.B) {
			storetest.BenchMoves(b, pgDB(pgtest.URL(b)), n)
		})
	}
}

// sqliteDB is a SQLite database of the benchmark.
type sqliteDB string

func (p sqliteDB) Open(t testing.TB) host.Store {
	t.Helper()
	s, err := store.Open(context.Background(), string(p))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Ints runs query on the database, as storetest.Inspector.
func (u pgDB) Ints(t testing.TB, query string) []int64 {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, string(u))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}
