package host

import (
	"context"
	"time"
)

// Failure is a mail or an outgoing mail herald failed to handle, noted so
// that one that fails the same way again and again is set aside, for the
// operator to look at, rather than retried forever in front of every
// other (issue 25: one mail must never stop herald).
type Failure struct {
	Kind     string    // FailedMail (incoming) or FailedDraft (the outbox's)
	Ref      string    // a mail's Message-ID (sha256:… without one); a draft's "outbox:ID"
	Party    string    // a mail's sender; a draft's recipient; "" when unknown
	Subject  string    // the mail's subject, for the operator
	Reason   string    // the last failure
	Attempts int       // how many times in a row it failed with Reason
	First    time.Time // the first failure
	Last     time.Time // the last failure
	SetAside time.Time // when it was set aside; zero while it is retried
}

// The kinds of Failure.
const (
	FailedMail  = "mail"
	FailedDraft = "draft"
)

// Failures is where the failures are noted.
type Failures interface {
	// NoteFailure notes that f.Ref failed with f.Reason at now, and
	// returns how many times in a row it has failed with that reason
	// (a different reason starts again at 1). The first note counts
	// f.Attempts failures when that is over 1 (the outbox counts the
	// attempts of a mail itself). It needs no Sync.
	NoteFailure(ctx context.Context, f Failure, now time.Time) (int, error)

	// SetAside marks the failure of kind and ref as set aside at now:
	// herald tries it no more.
	SetAside(ctx context.Context, kind, ref string, now time.Time) error

	// SetAsideList returns what was set aside, the oldest first.
	SetAsideList(ctx context.Context) ([]Failure, error)
}
