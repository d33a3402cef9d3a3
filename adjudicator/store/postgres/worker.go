package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
)

// How a worker holds its name (Enlist): it renews its row of workers every
// workerRenew for workerLease. A worker killed without a word leaves its
// name to its restart within workerLease; a live worker, renewing, keeps
// it from any other process.
const (
	workerLease = 5 * time.Second
	workerRenew = time.Second
	// workerGone is how long after its lease lapsed a name's row stays
	// (Prune deletes it): a day, for an operator to see which worker
	// stopped and where it ran.
	workerGone = 24 * time.Hour
)

// ErrWorkerRunning is matched (errors.Is) by the error of Enlist when
// another live process holds the name.
var ErrWorkerRunning = errors.New("store: a worker of that name is running")

// enlisted is the name a Store holds (Enlist), renewed until Close.
type enlisted struct {
	name, token string
	stop        chan struct{} // closed by Close: the renewal ends
	done        chan struct{} // closed when the renewal has ended
	lost        chan struct{} // closed when another process took the name
}

// Enlist takes the name worker for this process among the workers sharing
// the database, and holds it (renewing it every second) until Close. The
// name is what the outbox claims mails under and the intake lease is held
// by: two live processes must never share it, and a process restarted
// under it must get back at once what its predecessor held.
//
// A name held by a process that renews it is refused (ErrWorkerRunning,
// saying where that process runs); one whose holder stopped renewing it
// (killed, or stalled) is taken once its lease lapses, within 5 seconds.
// Once the name is held, the outbox mails still claimed under it and the
// intake lease, left by a predecessor killed under that name, are
// released: any worker sends them at once. Enlist returns how many mails
// it released.
func (s *Store) Enlist(ctx context.Context, worker string) (int, error) {
	if s.worker != nil {
		return 0, fmt.Errorf("store: already enlisted as %q", s.worker.name)
	}
	var b [16]byte
	rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	hostName, _ := os.Hostname()
	take := func() (bool, error) {
		tag, err := s.pool.Exec(ctx, `INSERT INTO workers (name, token, host, pid, started, until)
			VALUES ($1, $2, $3, $4, clock_timestamp(), clock_timestamp() + $5 * interval '1 microsecond')
			ON CONFLICT (name) DO UPDATE SET token = excluded.token, host = excluded.host, pid = excluded.pid,
				started = excluded.started, until = excluded.until
			WHERE workers.until <= clock_timestamp()`, worker, token, hostName, os.Getpid(), workerLease.Microseconds())
		if err != nil {
			return false, fmt.Errorf("store: worker %q: %w", worker, err)
		}
		return tag.RowsAffected() == 1, nil
	}
	type holder struct {
		token, host string
		pid         int
		started     time.Time
		left        time.Duration
	}
	held := func() (holder, error) {
		var h holder
		var left int64
		err := s.pool.QueryRow(ctx, `SELECT token, host, pid, started,
			GREATEST(0, EXTRACT(EPOCH FROM until - clock_timestamp()) * 1000000)::BIGINT FROM workers WHERE name = $1`, worker).
			Scan(&h.token, &h.host, &h.pid, &h.started, &left)
		h.left = time.Duration(left) * time.Microsecond
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return h, fmt.Errorf("store: worker %q: %w", worker, err)
		}
		return h, nil
	}
	ok, err := take()
	if err != nil {
		return 0, err
	}
	if !ok {
		// The name's holder renewed it less than a lease ago: it may be a
		// predecessor just killed, or a live worker. Wait for its lease to
		// lapse; a live one renews it meanwhile.
		h, err := held()
		if err != nil {
			return 0, err
		}
		select {
		case <-time.After(h.left + workerRenew/2):
		case <-ctx.Done():
			return 0, fmt.Errorf("store: worker %q: %w", worker, ctx.Err())
		}
		if ok, err = take(); err != nil {
			return 0, err
		}
		if !ok {
			if h, err = held(); err != nil {
				return 0, err
			}
			return 0, fmt.Errorf("%w: %q is the name of the worker on %s (process %d, running since %s), which is alive: "+
				"two workers must not share a name (they would send each other's claimed mails); give this one another (--worker NAME, or worker: in its config)",
				ErrWorkerRunning, worker, h.host, h.pid, h.started.UTC().Format(time.RFC3339))
		}
	}
	tag, err := s.pool.Exec(ctx, `UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1 AND sent IS NULL`, worker)
	if err != nil {
		return 0, fmt.Errorf("store: worker %q: releasing its claims: %w", worker, err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM leases WHERE holder = $1`, worker); err != nil {
		return 0, fmt.Errorf("store: worker %q: releasing its intake lease: %w", worker, err)
	}
	s.worker = &enlisted{name: worker, token: token, stop: make(chan struct{}), done: make(chan struct{}), lost: make(chan struct{})}
	go s.renew(s.worker)
	return int(tag.RowsAffected()), nil
}

// renew renews w's name until Close, or until another process took it
// (this one stalled past its lease): then it closes w.lost. A renewal that
// fails (the database is down) is tried again at the next.
func (s *Store) renew(w *enlisted) {
	defer close(w.done)
	tick := time.NewTicker(workerRenew)
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), workerLease)
		tag, err := s.pool.Exec(ctx, `UPDATE workers SET until = clock_timestamp() + $3 * interval '1 microsecond'
			WHERE name = $1 AND token = $2`, w.name, w.token, workerLease.Microseconds())
		cancel()
		if err == nil && tag.RowsAffected() == 0 {
			close(w.lost)
			return
		}
	}
}

// Lost is closed when another process took the name this one enlisted
// under, which it had stopped renewing (stalled longer than its lease):
// the process must stop, two workers never sharing a name. Nil before
// Enlist.
func (s *Store) Lost() <-chan struct{} {
	if s.worker == nil {
		return nil
	}
	return s.worker.lost
}

// discharge ends the renewal of the enlisted name, if any, and gives the
// name up with what was claimed under it: another worker sends those
// mails, and a restart under the name takes it at once.
func (s *Store) discharge() {
	w := s.worker
	if w == nil {
		return
	}
	close(w.stop)
	<-w.done
	select {
	case <-w.lost:
		return // the name is another's now, and so are its claims
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), workerLease)
	defer cancel()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return // the name lapses, and the claims with their leases
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, `DELETE FROM workers WHERE name = $1 AND token = $2`, w.name, w.token)
	if err != nil || tag.RowsAffected() == 0 {
		return
	}
	if _, err := tx.Exec(ctx, `UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1 AND sent IS NULL`, w.name); err != nil {
		return
	}
	tx.Commit(ctx)
}
