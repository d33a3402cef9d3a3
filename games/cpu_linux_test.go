package games_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used so far, user and system:
// on a machine whose cores are shared, a fairer clock for "one core"
// than the wall's.
func cpuTime() time.Duration { return rusage(syscall.RUSAGE_SELF) }

// threadCPU is the CPU time the calling thread has used so far (Linux's
// RUSAGE_THREAD): with the goroutine locked to its thread, the cost of
// one cell of a campaign whose cells run side by side, but for the
// garbage collector's work done on other threads.
func threadCPU() time.Duration { return rusage(1) }

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
