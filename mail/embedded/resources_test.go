package embedded

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/smtp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// TestConnectionCap opens more SMTP and IMAP connections than
// Config.MaxConnections (issue 25, item 4): each server greets the cap and
// no more, and greets the next ones as the first close.
func TestConnectionCap(t *testing.T) {
	const limit, extra = 4, 6
	srv := startServer(t, Config{MaxConnections: limit})
	for _, tc := range []struct{ name, addr string }{{"smtp", srv.SMTPAddr()}, {"imap", srv.IMAPAddr()}} {
		t.Run(tc.name, func(t *testing.T) {
			var greeted atomic.Int32
			var conns []net.Conn
			defer func() {
				for _, c := range conns {
					c.Close()
				}
			}()
			for range limit + extra {
				c, err := net.Dial("tcp", tc.addr)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				go func() {
					if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
						greeted.Add(1)
					}
				}()
			}
			await := func(want int32) {
				t.Helper()
				for deadline := time.Now().Add(10 * time.Second); greeted.Load() < want; time.Sleep(5 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("%d connections greeted, want %d", greeted.Load(), want)
					}
				}
			}
			await(limit)
			time.Sleep(200 * time.Millisecond) // room for a greeting too many
			if n := greeted.Load(); n != limit {
				t.Fatalf("%d connections open: %d greeted, want the cap, %d", limit+extra, n, limit)
			}
			// Closing connections lets as many others in. (Which ones were
			// greeted does not matter: a waiting one closed frees nothing,
			// so close them all but the last extra-2.)
			for _, c := range conns[:limit+2] {
				c.Close()
			}
			conns = conns[limit+2:]
			await(limit + extra - 2)
		})
	}
}

// largeMail is a mail of size bytes from alice to bob, generated as it is
// read, never held in memory.
func largeMail(id string, size int64) io.Reader {
	header := "From: " + alice + "\r\nTo: " + bob + "\r\nSubject: large\r\nMessage-ID: <" + id + "@test.invalid>\r\n\r\n"
	line := strings.Repeat("x", 76) + "\r\n"
	body := io.LimitReader(&repeatReader{s: line}, size-int64(len(header)))
	return io.MultiReader(strings.NewReader(header), body)
}

type repeatReader struct {
	s   string
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], r.s[r.off:])
		n += k
		r.off = (r.off + k) % len(r.s)
	}
	return n, nil
}

// sendLarge sends a mail of size bytes over SMTP, streaming it.
func sendLarge(srv *Server, id string, size int64) error {
	c, err := smtp.Dial(srv.SMTPAddr())
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Mail(alice); err != nil {
		return err
	}
	if err := c.Rcpt(bob); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, largeMail(id, size)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// parallelLargeMails sends n mails of size bytes at once to srv and
// returns how much the live heap grew at its peak.
func parallelLargeMails(tb testing.TB, srv *Server, n int, size int64) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(20)) // little garbage: the peak is what is live
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak atomic.Uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = sendLarge(srv, fmt.Sprintf("large-%d-%d", i, time.Now().UnixNano()), size) })
	}
	wg.Wait()
	close(done)
	<-finished
	for _, err := range errs {
		if err != nil {
			tb.Fatal(err)
		}
	}
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// TestParallelLargeMailsMemory sends 16 mails of 4 MiB at once (issue 25,
// item 4): the server spools each to disk as it arrives, so the heap grows
// by a few buffers, not by the 64 MiB of the mails.
func TestParallelLargeMailsMemory(t *testing.T) {
	const n, size, maxGrowth = 16, 4 << 20, 16 << 20
	srv := startServer(t, Config{})
	grew := parallelLargeMails(t, srv, n, size)
	t.Logf("heap grew by %.1f MiB at its peak while %d mails of %d MiB arrived", float64(grew)/(1<<20), n, size>>20)
	if grew > maxGrowth {
		t.Errorf("the heap grew by %.1f MiB while %d mails of %d MiB arrived at once, want at most %d MiB",
			float64(grew)/(1<<20), n, size>>20, maxGrowth>>20)
	}
	c := dialIMAP(t, srv, bob, bobPW, nil)
	st, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true, Size: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if *st.NumMessages != n || *st.Size < n*size {
		t.Errorf("bob's INBOX holds %d mails, %d bytes; want %d mails of %d bytes", *st.NumMessages, *st.Size, n, size)
	}
}

// BenchmarkParallelLargeMails measures the peak heap growth while 30 mails
// of 10 MB arrive at once, the case of issue 25, item 4 (276 MB before the
// spool; reported as peak-MiB).
func BenchmarkParallelLargeMails(b *testing.B) {
	srv, err := Start(Config{Dir: b.TempDir(), MaxMessageBytes: 11 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	for _, a := range [][2]string{{alice, alicePW}, {bob, bobPW}} {
		if err := srv.AddAccount(a[0], a[1]); err != nil {
			b.Fatal(err)
		}
	}
	var worst uint64
	for b.Loop() {
		worst = max(worst, parallelLargeMails(b, srv, 30, 10_000_000))
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-MiB")
}
