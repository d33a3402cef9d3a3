package host

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/heraldgames/herald/adjudicator/picture"
)

// A Pending is a mail's draft being written apart from the request that
// queued it (Batch.WriteApart): the request, and the requests after it,
// go on while another processor writes the texts of a move's news and
// their drafts, and the store waits for the draft only where it inserts
// the mail (Mail.Pending). A Pending is written once and read by any
// number of goroutines.
type Pending struct {
	done   chan struct{}
	draft  []byte
	shared []byte
	err    error
}

// Wait returns the draft and what it shares with other mails
// (Mail.Shared) once they are written, or why they could not be.
func (p *Pending) Wait() (draft, shared []byte, err error) {
	<-p.done
	return p.draft, p.shared, p.err
}

// Later starts writing a draft, and what it shares with other mails
// (Mail.Shared, nil for nothing), with write, apart from the caller: on one
// of the host's writers, which are one fewer than the processors (at
// least one), so that the requests, which run one after another, keep a
// processor. Writes start in the order they were asked for. A write that
// panics fails with the panic's value: the request's batch then fails
// where it waits for the draft, and its requests are processed again one
// by one (without writing apart), where the failure is the failing
// request's own.
func (h *Host) Later(write func() (draft, shared []byte, err error)) *Pending {
	p := &Pending{done: make(chan struct{})}
	h.writers.do(func() {
		defer func() {
			if v := recover(); v != nil {
				p.draft, p.shared, p.err = nil, nil, fmt.Errorf("host: writing a draft: panic: %v", v)
			}
			close(p.done)
		}()
		p.draft, p.shared, p.err = write()
	})
	return p
}

// Written waits for m's draft written apart (Pending), if any, and puts
// it in Draft, and what it shares in Shared: what a store does before it
// inserts m.
func (m *Mail) Written() error {
	if m.Pending == nil {
		return nil
	}
	d, shared, err := m.Pending.Wait()
	if err != nil {
		return err
	}
	m.Draft, m.Pending = d, nil
	if shared != nil {
		m.Shared = shared
	}
	return nil
}

// A Drawing is the board of a move's news written apart (Notice.Drawing),
// drawn apart too, by the first writer that needs it, once for all the
// notices that show it, from the snapshot their texts read.
type Drawing struct {
	drawn, encoded sync.Once
	draw           func() *picture.Board
	board          *picture.Board
	json           []byte
}

// Board returns the board, drawn now if it is not yet; nil when the game
// draws none.
func (d *Drawing) Board() *picture.Board {
	d.drawn.Do(func() { d.board, d.draw = d.draw(), nil })
	return d.board
}

// JSON returns the board encoded (picture.Board.JSON), once for all the
// notices that show it; nil when the game draws none.
func (d *Drawing) JSON() []byte {
	d.encoded.Do(func() {
		if b := d.Board(); b != nil {
			d.json = b.JSON()
		}
	})
	return d.json
}

// writers run Host.Later's writes: at most most goroutines at once, each
// taking the writes in the order they were queued until none is left,
// then waiting writerLinger for more before it ends. A goroutine for each
// write would cost more: it would grow its stack anew for each of them
// (about a tenth of a write's time in BenchmarkIntake), where a writer
// that goes on keeps its grown stack for the next.
type writers struct {
	mu      sync.Mutex
	queue   []func()
	running int           // writers, busy or waiting for work
	idle    int           // writers waiting for work
	most    int           // the most writers at once
	wake    chan struct{} // wakes a waiting writer
}

// writerLinger is how long a writer with nothing to do waits for more
// before it ends.
const writerLinger = time.Second

// newWriters returns Host.Later's writers, one fewer than the processors
// (at least one).
func newWriters() *writers {
	most := max(1, runtime.GOMAXPROCS(0)-1)
	return &writers{most: most, wake: make(chan struct{}, most)}
}

// do queues task for a writer: a waiting one, or a new one while there are
// fewer than w.most.
func (w *writers) do(task func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.queue = append(w.queue, task)
	switch {
	case w.idle > 0:
		select {
		case w.wake <- struct{}{}:
		default: // the waiting writers have been woken already
		}
	case w.running < w.most:
		w.running++
		go w.work()
	}
}

// work is one writer: it runs the queued tasks one after another, and ends
// once none came for writerLinger.
func (w *writers) work() {
	linger := time.NewTimer(writerLinger)
	defer linger.Stop()
	for {
		w.mu.Lock()
		if len(w.queue) > 0 {
			task := w.queue[0]
			w.queue[0] = nil
			if w.queue = w.queue[1:]; len(w.queue) == 0 {
				w.queue = nil
			}
			w.mu.Unlock()
			task()
			continue
		}
		w.idle++
		w.mu.Unlock()
		linger.Reset(writerLinger)
		select {
		case <-w.wake:
			w.mu.Lock()
			w.idle--
			w.mu.Unlock()
		case <-linger.C:
			w.mu.Lock()
			w.idle--
			if len(w.queue) == 0 {
				w.running--
				w.mu.Unlock()
				return
			}
			w.mu.Unlock()
		}
	}
}

// Edit changes the notice's text by f: at once, or, for a text written
// apart (Write), once it is written.
func (n *Notice) Edit(f func(text string) string) {
	if w := n.Write; w != nil {
		n.Write = func() string { return f(w()) }
		return
	}
	n.Text = f(n.Text)
}

// Body returns the notice's text: Text, or for a text written apart
// (Write), that text, written now.
func (n *Notice) Body() string {
	if n.Write != nil {
		return n.Write()
	}
	return n.Text
}
