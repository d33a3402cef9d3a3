package host

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestWriters runs Host.Later's writers: one writer takes the writes in
// the order they were queued, goes on with those queued while it works,
// waits for more when none is left, and ends once none came for
// writerLinger; a write queued after that starts a writer again.
func TestWriters(t *testing.T) {
	w := &writers{most: 1, wake: make(chan struct{}, 1)}
	var mu sync.Mutex
	var order []int
	gate := make(chan struct{})
	var done sync.WaitGroup
	queue := func(i int, wait bool) {
		done.Add(1)
		w.do(func() {
			defer done.Done()
			if wait {
				<-gate
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		})
	}
	queue(0, true)
	for i := 1; i < 50; i++ {
		queue(i, false)
	}
	close(gate)
	done.Wait()
	want := make([]int, 50)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(order, want) {
		t.Fatalf("writes ran in the order %v", order)
	}
	// The writer waits for more: a write queued now wakes it, and no
	// second writer starts.
	state := func() (running, idle int) {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.running, w.idle
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if running, idle := state(); running == 1 && idle == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the writer does not wait for more writes")
		}
		time.Sleep(time.Millisecond)
	}
	queue(50, false)
	done.Wait()
	if running, _ := state(); running != 1 || order[len(order)-1] != 50 {
		t.Fatalf("%d writers after a write to a waiting one (order %v)", running, order)
	}
	// It ends once nothing came for writerLinger, and a later write
	// starts one again.
	for deadline := time.Now().Add(writerLinger + 10*time.Second); ; {
		if running, idle := state(); running == 0 && idle == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the writer does not end")
		}
		time.Sleep(10 * time.Millisecond)
	}
	queue(51, false)
	done.Wait()
	if order[len(order)-1] != 51 {
		t.Fatalf("a write after the writer ended: order %v", order)
	}
}
