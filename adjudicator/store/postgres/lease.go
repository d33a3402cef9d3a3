package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/jackc/pgx/v5"
)

var _ host.IntakeLease = (*Store)(nil)

// HoldIntake takes or renews the intake for worker until lease from now,
// by the database's clock (the workers' clocks may differ), in one
// statement: the lease row goes to worker when it is free, lapsed or
// already worker's.
func (s *Store) HoldIntake(ctx context.Context, worker string, lease time.Duration) (bool, error) {
	var holder string
	err := s.pool.QueryRow(ctx, `INSERT INTO leases (name, holder, until) VALUES ('intake', $1, clock_timestamp() + $2 * interval '1 microsecond')
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
			WHERE leases.holder = excluded.holder OR leases.until <= clock_timestamp()
		RETURNING holder`, worker, lease.Microseconds()).Scan(&holder)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil // another worker holds it
	}
	if err != nil {
		return false, fmt.Errorf("store: intake lease: %w", err)
	}
	return holder == worker, nil
}

// ReleaseIntake gives up the intake if worker holds it.
func (s *Store) ReleaseIntake(ctx context.Context, worker string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM leases WHERE name = 'intake' AND holder = $1`, worker); err != nil {
		return fmt.Errorf("store: intake lease: %w", err)
	}
	return nil
}
