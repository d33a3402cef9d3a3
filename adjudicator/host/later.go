package host

import (
	"fmt"
	"runtime"
)

// A Pending is a mail's draft being written apart from the request that
// queued it (Batch.WriteApart): the request, and the requests after it,
// go on while another processor writes the texts of a move's news and
// their drafts, and the store waits for the draft only where it inserts
// the mail (Mail.Pending). A Pending is written once and read by any
// number of goroutines.
type Pending struct {
	done  chan struct{}
	draft []byte
	err   error
}

// Wait returns the draft once it is written, or why it could not be.
func (p *Pending) Wait() ([]byte, error) {
	<-p.done
	return p.draft, p.err
}

// Later starts writing a draft with write, apart from the caller: on one
// of the host's writers, which are one fewer than the processors (at
// least one), so that the requests, which run one after another, keep a
// processor. A write that panics fails with the panic's value: the
// request's batch then fails where it waits for the draft, and its
// requests are processed again one by one (without writing apart), where
// the failure is the failing request's own.
func (h *Host) Later(write func() ([]byte, error)) *Pending {
	p := &Pending{done: make(chan struct{})}
	go func() {
		h.writers <- struct{}{}
		defer func() {
			if v := recover(); v != nil {
				p.draft, p.err = nil, fmt.Errorf("host: writing a draft: panic: %v", v)
			}
			<-h.writers
			close(p.done)
		}()
		p.draft, p.err = write()
	}()
	return p
}

// Written waits for m's draft written apart (Pending), if any, and puts
// it in Draft: what a store does before it inserts m.
func (m *Mail) Written() error {
	if m.Pending == nil {
		return nil
	}
	d, err := m.Pending.Wait()
	if err != nil {
		return err
	}
	m.Draft, m.Pending = d, nil
	return nil
}

// newWriters returns the semaphore of Host.Later's writers.
func newWriters() chan struct{} {
	return make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1))
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
