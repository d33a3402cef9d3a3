//go:build !unix

package embedded

import (
	"fmt"
	"os"
)

// lockDir opens path but does not lock it: on this platform nothing stops
// two servers from sharing a data directory.
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}
	return f, nil
}

func unlockDir(f *os.File) error {
	return f.Close()
}
