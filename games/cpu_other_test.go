//go:build !linux

package games_test

import "time"

// cpuTime and threadCPU are measured on Linux only; elsewhere the CPU
// figures of the benchmarks and the strength campaign read 0.
func cpuTime() time.Duration { return 0 }

func threadCPU() time.Duration { return 0 }
