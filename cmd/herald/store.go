package main

import (
	"context"
	"fmt"
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

// workerName is the name of this serve among the workers sharing a
// PostgreSQL store: the host's name and the process id, so that two
// workers on one machine never take each other's outbox claims or intake
// lease for their own.
func workerName() string {
	h, _ := os.Hostname()
	if h == "" {
		h = "herald"
	}
	return fmt.Sprintf("%s/%d", h, os.Getpid())
}
