package mail

import (
	"context"
	"log/slog"
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// How the workers sharing a store share the mailbox (host.IntakeLease):
// the intake's holder renews its lease every intakeRenew for intakeLease;
// the others try to take it as often. A worker that dies is replaced
// within intakeLease + intakeRenew.
const (
	intakeLease = 5 * time.Second
	intakeRenew = time.Second
)

// leased returns run held by the store's intake lease when st has one: it
// waits until worker holds the intake, runs run while it renews the lease,
// and stops run (cancelling its context) as soon as a renewal fails or
// finds another holder, then waits for the lease again. When ctx ends it
// gives the lease up, so that another worker takes over at once. A store
// without IntakeLease has one worker: run runs as it is.
func leased(st host.Store, worker string, log *slog.Logger, run func(context.Context) error) func(context.Context) error {
	lease, ok := st.(host.IntakeLease)
	if !ok {
		return run
	}
	return func(ctx context.Context) error {
		defer lease.ReleaseIntake(context.WithoutCancel(ctx), worker)
		tick := time.NewTicker(intakeRenew)
		defer tick.Stop()
		held := false
		stop := context.CancelFunc(func() {})
		done := make(chan error, 1)
		for {
			ok, err := lease.HoldIntake(ctx, worker, intakeLease)
			if err != nil && ctx.Err() == nil {
				log.Warn("intake lease", "err", err)
			}
			switch {
			case ok && !held:
				log.Info("this worker reads the mailbox", "worker", worker)
				held = true
				runCtx, cancel := context.WithCancel(ctx)
				stop = cancel
				go func() { done <- run(runCtx) }()
			case !ok && held:
				log.Warn("the intake lease is lost; another worker reads the mailbox", "worker", worker)
				stop()
				<-done
				held = false
			}
			select {
			case <-ctx.Done():
				if held {
					stop()
					return <-done
				}
				return nil
			case err := <-done:
				stop()
				return err
			case <-tick.C:
			}
		}
	}
}
