//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockRecord locks the record file path for writing: an exclusive flock(2)
// on path.lock, created if needed, waiting up to wait (polling) while
// another process or goroutine holds it. The returned function removes the
// lock file and releases the lock.
//
// Removing the lock file is safe because a locker checks, once it holds the
// flock, that the file it locked is still the one at path.lock: a waiter
// that opened the file before its holder removed it gets the flock on a
// file nobody else will ever look at, sees that, and starts again on the
// file now at path.lock.
func lockRecord(path string, wait time.Duration) (unlock func() error, err error) {
	lock := path + lockSuffix
	start := time.Now()
	pause := time.Millisecond
	for {
		// Read-only is enough for flock, and lets any user who may
		// write the record's directory open a lock file another made.
		f, err := os.OpenFile(lock, os.O_RDONLY|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		err = flock(f)
		if err == nil {
			if mine, ok := isAt(f, lock); ok {
				return func() error {
					var err error
					if fi, serr := os.Stat(lock); serr == nil && os.SameFile(fi, mine) {
						err = os.Remove(lock)
					}
					if cerr := f.Close(); err == nil {
						err = cerr // closing the descriptor releases the flock
					}
					return err
				}, nil
			}
			f.Close() // removed by its last holder: lock the new one
		} else {
			f.Close()
			if !errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("cannot lock %s: flock %s: %w", path, lock, err)
			}
		}
		if time.Since(start) >= wait {
			return nil, &lockTimeoutError{record: path, lock: lock, waited: wait}
		}
		if err == nil {
			continue // no wait: the lock was just released
		}
		pause = sleepPause(pause, start, wait)
	}
}

// flock takes an exclusive flock on f without blocking.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			return err
		}
	}
}

// isAt reports whether the open file f is the file at path now, and
// returns f's FileInfo.
func isAt(f *os.File, path string) (os.FileInfo, bool) {
	mine, err := f.Stat()
	if err != nil {
		return nil, false
	}
	fi, err := os.Stat(path)
	return mine, err == nil && os.SameFile(fi, mine)
}
