package host

import (
	"context"
	"time"
)

// IntakeLease is offered by a store that several workers (herald serve
// processes) share, so that one of them at a time reads the mailbox: two
// intakes on one mailbox would fetch and move the same mails. The outbox
// and the deadlines need no lease: their claims and the requests'
// identities keep every worker's work apart. A store without it (SQLite,
// one process) lets its one worker read the mailbox.
type IntakeLease interface {
	// HoldIntake takes the intake for worker, or renews it, until lease
	// from now by the database's clock, and reports whether worker holds
	// it: it does unless another worker holds it and has renewed it within
	// lease. A worker that dies stops renewing, and another takes over
	// once its lease runs out.
	HoldIntake(ctx context.Context, worker string, lease time.Duration) (bool, error)

	// ReleaseIntake gives up the intake if worker holds it, so that
	// another worker takes over at once.
	ReleaseIntake(ctx context.Context, worker string) error
}
