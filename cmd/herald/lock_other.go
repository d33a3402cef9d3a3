//go:build !unix

package main

import "time"

// lockRecord locks the record file path for writing. Without flock(2) the
// lock is path.lock created with O_EXCL (see lockRecordExcl); a herald
// stopped while holding it leaves it behind, and the next writer's error
// names it.
func lockRecord(path string, wait time.Duration) (unlock func() error, err error) {
	return lockRecordExcl(path, wait)
}
