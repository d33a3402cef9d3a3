package embedded

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
)

// checkLoopback accepts host:port only if host is a loopback address or
// "localhost": the servers speak plain text and take passwords in clear.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		if host == "" {
			host = "all interfaces"
		}
		return fmt.Errorf("%q listens on %s, which is not a loopback address: the embedded mail server has no TLS and takes passwords in clear, so it only listens on 127.0.0.1, ::1 or localhost", addr, host)
	}
	return nil
}

// listenLoopback listens on addr and checks that what was bound is loopback
// (in case "localhost" resolves to something else). It holds at most
// maxConns connections open at once: past that, Accept waits for one to
// close, and new clients wait in the kernel's backlog.
func listenLoopback(addr string, maxConns int) (*trackedListener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		ln.Close()
		return nil, fmt.Errorf("%q bound %v, which is not a loopback address", addr, ln.Addr())
	}
	return &trackedListener{Listener: ln, conns: make(map[*trackedConn]struct{}),
		slots: make(chan struct{}, maxConns), done: make(chan struct{})}, nil
}

// trackedListener remembers the connections it accepted that are still
// open, so that closeAll can close the listener and all of them at once
// (go-smtp's Shutdown waits for connections but does not close them).
type trackedListener struct {
	net.Listener

	// slots holds a token per open connection; done is closed by
	// closeAll.
	slots chan struct{}
	done  chan struct{}

	mu     sync.Mutex
	closed bool
	conns  map[*trackedConn]struct{}
}

func (l *trackedListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		c.Close()
		<-l.slots
		return nil, net.ErrClosed
	}
	tc := &trackedConn{Conn: c, l: l}
	l.conns[tc] = struct{}{}
	return tc, nil
}

// closeAll closes the listener and every connection it accepted.
func (l *trackedListener) closeAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	close(l.done)
	l.Listener.Close()
	for c := range l.conns {
		c.Conn.Close()
	}
}

type trackedConn struct {
	net.Conn
	l    *trackedListener
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
		<-c.l.slots
	})
	err := c.Conn.Close()
	if errors.Is(err, net.ErrClosed) {
		return nil // closed by closeAll
	}
	return err
}

// logAdapter gives the Printf/Println loggers of imapserver and go-smtp an
// slog destination.
type logAdapter struct{ log *slog.Logger }

func (l logAdapter) Printf(format string, args ...interface{}) {
	l.log.Warn(strings.TrimSuffix(fmt.Sprintf(format, args...), "\n"))
}

func (l logAdapter) Println(args ...interface{}) {
	l.log.Warn(strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
}
