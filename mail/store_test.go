package mail

import (
	"context"
	"path/filepath"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
)

// openSQLite is RunConfig.OpenStore for the tests: SQLite in dir, as
// herald serve's default.
func openSQLite(ctx context.Context, dir string) (host.Store, error) {
	return store.Open(ctx, filepath.Join(dir, "herald.db"))
}
