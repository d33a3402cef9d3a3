//go:build unix

package embedded

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive lock on path (created if needed) so that two
// servers never share a data directory. The lock goes away with the
// process, so a crash leaves nothing to clean up.
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("embedded: %s is locked: another server uses this data directory", path)
		}
		return nil, fmt.Errorf("embedded: locking %s: %w", path, err)
	}
	return f, nil
}

func unlockDir(f *os.File) error {
	return f.Close() // closing the last descriptor releases the flock
}
