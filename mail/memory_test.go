package mail

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/heraldgames/herald/mail/embedded"
)

// hugeMailSize is the size of the mail of TestHugeMailMemory: 400 times
// the size limit.
const hugeMailSize = 100 << 20

// appendHuge appends to the INBOX of c a mail from alice of size bytes,
// written as it goes, never held in memory.
func appendHuge(t testing.TB, c *imapclient.Client, size int64) {
	t.Helper()
	header := "From: alice@herald.test\r\nTo: herald@herald.test\r\nSubject: Re: [herald G1] holiday photos\r\nMessage-ID: <huge-" +
		fmt.Sprint(time.Now().UnixNano()) + "@test>\r\nDate: Mon, 23 Nov 2026 09:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
	cmd := c.Append("INBOX", size, nil)
	line := []byte(strings.Repeat("x", 78) + "\r\n")
	if _, err := cmd.Write([]byte(header)); err != nil {
		t.Fatal(err)
	}
	for left := size - int64(len(header)); left > 0; {
		n := min(left, int64(len(line)))
		if _, err := cmd.Write(line[len(line)-int(n):]); err != nil {
			t.Fatal(err)
		}
		left -= n
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// heapPeak samples the live heap objects every 200 µs until stop is called,
// which returns the highest value seen.
func heapPeak() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	go func() {
		defer close(finished)
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// settledHeap returns the live heap after a collection.
func settledHeap() uint64 {
	runtime.GC()
	debug.FreeOSMemory()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// TestHugeMailMemory appends a 100 MB mail to herald's INBOX on the
// embedded IMAP server (in this process, so its memory counts too) and
// checks that the heap stays flat while the intake answers and moves it
// away: the size is asked first (RFC822.SIZE) and only the header of a mail
// over the limit is fetched (issue 15, item 2).
func TestHugeMailMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("appends a 100 MB mail")
	}
	f := newFixture(t)
	f.start()
	f.sent()
	srv, err := embedded.Start(embedded.Config{Dir: t.TempDir(), MaxMessageBytes: 2 * hugeMailSize})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.AddAccount("herald@herald.test", "pw"); err != nil {
		t.Fatal(err)
	}
	c := imapSession(t, srv.IMAPAddr())
	appendHuge(t, c, hugeMailSize)
	checkFlatIntake(t, f, IntakeConfig{Server: Server{Addr: srv.IMAPAddr(), Security: Plain, Username: "herald@herald.test", Password: "pw"}}, c)
}

// maxHeapGrowth is how much the heap may grow while the intake handles a
// huge mail: a few batches' worth, nothing like the mail.
const maxHeapGrowth = 16 << 20

// checkFlatIntake runs an intake on cfg until the INBOX that c sees is
// empty, and checks that the heap never grew by more than maxHeapGrowth,
// that the huge mail went to the rejected folder and that alice was told it
// was too large.
func checkFlatIntake(t *testing.T, f *fixture, cfg IntakeConfig, c *imapclient.Client) {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(20)) // little garbage: the peak is what is live
	base := settledHeap()
	stop := heapPeak()
	f.restart(t, cfg, c)
	peak := stop()
	t.Logf("heap: %.1f MiB before, peak %.1f MiB while a %d MiB mail was handled", float64(base)/(1<<20), float64(peak)/(1<<20), hugeMailSize>>20)
	if peak > base+maxHeapGrowth {
		t.Errorf("the heap grew by %.1f MiB while the intake handled a %d MiB mail, want at most %d MiB",
			float64(peak-base)/(1<<20), hugeMailSize>>20, maxHeapGrowth>>20)
	}
	if n := count(t, c, "herald/rejected"); n != 1 {
		t.Errorf("rejected folder holds %d mails, want the huge one", n)
	}
	got := f.sent()["alice@herald.test"]
	if len(got) != 1 || !strings.Contains(got[0], "too large") || !strings.Contains(got[0], fmt.Sprint(hugeMailSize)) {
		t.Errorf("alice got %d mails, want one saying her mail of %d bytes is too large:\n%s", len(got), hugeMailSize, strings.Join(got, "\n"))
	}
}
