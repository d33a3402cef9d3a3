package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Two herald commands may rewrite the same record file at the same instant:
// two players running herald move, or a move and a turn file. Each reads
// the record, checks and applies its move, and writes the record back with
// an atomic rename; without a lock the second rename would drop the first
// move. So every command that rewrites a record holds the record's lock for
// the whole read, check, apply and write.
//
// The lock is a file beside the record, FILE.lock, never the record itself:
// the atomic rename puts a new file (a new inode) in place of the record,
// so a lock held on the old one would not be seen by the next writer, who
// opens the new one. On Unix the lock is flock(2) on FILE.lock
// (lock_unix.go): it goes away with its process, so a crash leaves no stale
// lock. Elsewhere FILE.lock is created with O_EXCL and removed after the
// write (lockRecordExcl); a crash there leaves it behind, and the error
// after the wait says so. Either way the lock file is removed when the
// writer is done, so a record's directory holds only the record.

// recordLockWait is how long a writer waits for another to finish with the
// same record before giving up.
const recordLockWait = 10 * time.Second

// lockSuffix names a record's lock file: FILE.lock.
const lockSuffix = ".lock"

// lockTimeoutError is a record whose lock was not released in time.
type lockTimeoutError struct {
	record string        // the record file
	lock   string        // its lock file
	waited time.Duration // how long we waited
	holder string        // for an O_EXCL lock file: what it says about its creator
}

var _ error = (*lockTimeoutError)(nil)

// Error says which lock file stands in the way and what to do.
func (e *lockTimeoutError) Error() string {
	if e.holder == "" {
		return fmt.Sprintf("%s is being rewritten by another herald: its lock %s was still held after %s; try again",
			e.record, e.lock, e.waited)
	}
	return fmt.Sprintf("%s is locked: %s (%s) is still there after %s; another herald is rewriting %s, "+
		"or one was stopped while doing so: if no herald is running, remove %s",
		e.record, e.lock, e.holder, e.waited, e.record, e.lock)
}

// updateRecord runs fn, which reads, changes and writes the record file
// path, while holding the record's lock, waiting up to recordLockWait for
// another writer to finish. A missing record is reported as such, without
// taking the lock. An error releasing the lock does not undo fn's write, so
// it is a warning on stderr.
func updateRecord(e *env, path string, fn func() error) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	return withRecordLock(e, path, fn)
}

// withRecordLock runs fn holding the lock of the record file path, which
// need not exist; see updateRecord.
func withRecordLock(e *env, path string, fn func() error) error {
	unlock, err := lockRecord(path, recordLockWait)
	if err != nil {
		return err
	}
	err = fn()
	if uerr := unlock(); uerr != nil {
		fmt.Fprintf(e.stderr, "herald: warning: releasing the lock of %s: %v\n", path, uerr)
	}
	return err
}

// lockRecordExcl locks the record file path by creating path.lock with
// O_EXCL, waiting up to wait (polling) while it exists. It is the lock of
// systems without flock(2); the returned function removes the lock file.
// The lock file says which process made it and when, for the error a
// waiter gives after wait when a stopped herald left it behind.
func lockRecordExcl(path string, wait time.Duration) (unlock func() error, err error) {
	lock := path + lockSuffix
	start := time.Now()
	pause := time.Millisecond
	for {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "herald process %d since %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(lock)
				return nil, fmt.Errorf("cannot lock %s: %w", path, werr)
			}
			return func() error { return os.Remove(lock) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		if time.Since(start) >= wait {
			holder := "made by a herald that did not say which"
			if b, err := os.ReadFile(lock); err == nil && len(b) > 0 {
				holder = strings.TrimSpace(string(b))
			}
			return nil, &lockTimeoutError{record: path, lock: lock, waited: wait, holder: holder}
		}
		pause = sleepPause(pause, start, wait)
	}
}

// sleepPause sleeps for pause, but not past start+wait, and returns the next
// pause: doubled, at most 50ms, so a waiter notices a release quickly
// without spinning.
func sleepPause(pause time.Duration, start time.Time, wait time.Duration) time.Duration {
	time.Sleep(max(min(pause, time.Until(start.Add(wait))), 0))
	return min(2*pause, 50*time.Millisecond)
}

// createNew writes data to the file path with permissions perm, and never
// replaces a file that exists: if path exists, or is created by someone else
// meanwhile, it fails with an error that errors.Is fs.ErrExist, and nothing
// changes. The data goes to a temporary file in the same directory, synced,
// which is then hard-linked to path (link(2) fails if path exists, and
// either makes the whole file appear or nothing), and removed.
func createNew(path string, data []byte, perm os.FileMode) error {
	return createNewWith(path, data, perm, os.Link)
}

// createNewWith is createNew with the hard-link function given, for tests.
// Where hard links fail for another reason than an existing target (some
// file systems have none), it reserves path with O_EXCL and renames the
// temporary file over its own empty reservation: still never replacing
// someone else's file, at the price of an empty file at path for an
// instant (and after a crash).
func createNewWith(path string, data []byte, perm os.FileMode, link func(oldname, newname string) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // path, if linked, keeps the data
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		r, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err != nil {
			return err
		}
		r.Close()
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(path) // our own empty reservation
			return err
		}
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
