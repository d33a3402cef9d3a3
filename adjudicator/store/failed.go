package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store/internal/sqlform"
)

// NoteFailure notes that f.Ref failed with f.Reason at now and returns how
// many times in a row it has failed with that reason: one statement, an
// upsert (INSERT … ON CONFLICT … DO UPDATE … RETURNING, which PostgreSQL
// runs as it is).
func (s *Store) NoteFailure(ctx context.Context, f host.Failure, now time.Time) (int, error) {
	var n int
	err := s.withWriter(ctx, func(p *prepared) error {
		return p.QueryRowContext(ctx, `INSERT INTO failures (kind, ref, party, subject, reason, attempts, first, last)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (kind, ref) DO UPDATE SET
			attempts = CASE WHEN failures.reason = excluded.reason THEN failures.attempts + 1 ELSE 1 END,
			reason = excluded.reason, last = excluded.last
		RETURNING attempts`,
			f.Kind, f.Ref, f.Party, f.Subject, f.Reason, max(f.Attempts, 1), stamp(now), stamp(now)).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("store: noting a failure: %w", err)
	}
	s.writes.Add(1)
	return n, nil
}

// SetAside marks the failure of kind and ref as set aside at now.
func (s *Store) SetAside(ctx context.Context, kind, ref string, now time.Time) error {
	var res sql.Result
	err := s.withWriter(ctx, func(p *prepared) (err error) {
		res, err = p.ExecContext(ctx, `UPDATE failures SET set_aside = ? WHERE kind = ? AND ref = ?`, stamp(now), kind, ref)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: setting aside: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: setting aside %s %s: no failure noted", kind, ref)
	}
	s.writes.Add(1)
	return nil
}

// SetAsideList returns what was set aside, the oldest first.
func (s *Store) SetAsideList(ctx context.Context) ([]host.Failure, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+sqlform.FailureColumns+` FROM failures WHERE set_aside IS NOT NULL ORDER BY set_aside, id`)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	return sqlform.Failures(rows)
}
