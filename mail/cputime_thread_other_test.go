//go:build !linux

package mail

import "time"

// threadCPUTime returns the CPU time the calling thread has used so far;
// here it cannot be read (ok false).
func threadCPUTime() (d time.Duration, ok bool) { return 0, false }
