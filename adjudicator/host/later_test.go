package host_test

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/heraldgames/herald/adjudicator/host"
)

// TestLater writes drafts apart: a write that panics fails with the panic
// (its batch then goes again without writing apart), and no more writes
// run at once than the processors less one, which keeps one for the
// requests.
func TestLater(t *testing.T) {
	h := newRig(t, false).h
	if _, _, err := h.Later(func() ([]byte, []byte, error) { panic("boom") }).Wait(); err == nil || !strings.Contains(err.Error(), "panic: boom") {
		t.Errorf("a write that panics: %v", err)
	}
	var running, most atomic.Int32
	var start sync.WaitGroup
	start.Add(1)
	var ps []*host.Pending
	for i := range 20 {
		ps = append(ps, h.Later(func() ([]byte, []byte, error) {
			n := running.Add(1)
			defer running.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			start.Wait()
			return []byte{byte(i)}, []byte{byte(i / 2)}, nil
		}))
	}
	start.Done()
	for i, p := range ps {
		if d, shared, err := p.Wait(); err != nil || len(d) != 1 || d[0] != byte(i) || len(shared) != 1 || shared[0] != byte(i/2) {
			t.Fatalf("write %d: %v, %v, %v", i, d, shared, err)
		}
	}
	if want := int32(max(1, runtime.GOMAXPROCS(0)-1)); most.Load() > want {
		t.Errorf("%d writes at once, want at most %d", most.Load(), want)
	}
}

// TestNoticeEdit edits a notice's text at once and one written apart: the
// same text either way.
func TestNoticeEdit(t *testing.T) {
	now := host.Notice{Text: "board\n"}
	apart := host.Notice{Write: func() string { return "board\n" }}
	for _, n := range []*host.Notice{&now, &apart} {
		n.Edit(func(s string) string { return "undo lapsed\n" + s })
		n.Edit(func(s string) string { return s + "prose ignored\n" })
	}
	if now.Body() != apart.Body() || now.Body() != "undo lapsed\nboard\nprose ignored\n" || apart.Text != "" {
		t.Errorf("at once %q, apart %q (Text %q)", now.Body(), apart.Body(), apart.Text)
	}
}
