package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/adjudicator/store/postgres"
	"github.com/jackc/pgx/v5/pgconn"
)

// serveStore returns how herald serve opens its store, from --store: empty
// (the default), the SQLite database herald.db in the data directory;
// postgres://…, a PostgreSQL database that several serve workers share.
func serveStore(spec string) (func(ctx context.Context, dir string) (host.Store, error), error) {
	if spec == "" {
		return openSQLite, nil
	}
	if err := checkStoreURL(spec); err != nil {
		return nil, usagef("--store: %v", err)
	}
	return func(ctx context.Context, _ string) (host.Store, error) { return postgres.Open(ctx, spec) }, nil
}

// checkStoreURL checks a --store value: a PostgreSQL URL that parses.
func checkStoreURL(spec string) error {
	if !postgres.IsURL(spec) {
		return fmt.Errorf("%q is not a PostgreSQL URL; expected postgres://USER@HOST/DATABASE (or leave it out for SQLite in the data directory)", spec)
	}
	if _, err := pgconn.ParseConfig(spec); err != nil {
		return fmt.Errorf("%q: %v", spec, err)
	}
	return nil
}

// openSQLite opens the SQLite store of a data directory, creating it.
func openSQLite(ctx context.Context, dir string) (host.Store, error) {
	return store.Open(ctx, filepath.Join(dir, "herald.db"))
}

// workerName is the default name of this serve among the workers sharing
// a PostgreSQL store: the host's name and the data directory (absolute),
// the same across restarts of one serve, so that a restarted worker takes
// back at once what it had claimed (postgres.Store.Enlist), and different
// for two serves on one machine, which have data directories of their own.
func workerName(dataDir string) string {
	h, _ := os.Hostname()
	if h == "" {
		h = "herald"
	}
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	return h + ":" + dataDir
}

// errNameLost ends a serve whose worker name another process took.
var errNameLost = errors.New("another serve took this worker's name after this one stopped renewing it (it stalled longer than the name's lease): two workers must not share a name, so this one stops")

// enlisting returns open, which opens the store of serve, enlisting the
// store as worker when it is PostgreSQL's: a worker of that name alive
// elsewhere is refused; one killed is succeeded, its claims released.
// When another process takes the name later (this one stalled), lose is
// called with errNameLost.
func enlisting(open func(ctx context.Context, dir string) (host.Store, error), worker string, log *slog.Logger, lose context.CancelCauseFunc) func(ctx context.Context, dir string) (host.Store, error) {
	return func(ctx context.Context, dir string) (host.Store, error) {
		st, err := open(ctx, dir)
		if err != nil {
			return nil, err
		}
		pg, ok := st.(*postgres.Store)
		if !ok {
			return st, nil
		}
		n, err := pg.Enlist(ctx, worker)
		if err != nil {
			st.Close()
			return nil, err
		}
		log.Info("this worker's name", "worker", worker, "claims_released", n)
		go func() {
			select {
			case <-pg.Lost():
				lose(errNameLost)
			case <-ctx.Done():
			}
		}()
		return st, nil
	}
}
