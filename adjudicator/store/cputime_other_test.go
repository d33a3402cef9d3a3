//go:build !unix

package store

import "time"

// cpuTime returns the CPU time the process has used so far; here it cannot
// be read (ok false).
func cpuTime() (d time.Duration, ok bool) { return 0, false }
