//go:build linux

package mail

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPUTime returns the CPU time the calling thread has used so far;
// the caller keeps its goroutine on the thread (runtime.LockOSThread)
// for the span it measures.
func threadCPUTime() (d time.Duration, ok bool) {
	const clockThreadCPUTimeID = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
