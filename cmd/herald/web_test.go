package main

import (
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/heraldgames/herald/games"
)

// TestWebConnectionCap opens more idle connections to the web pages than
// the cap lets in (issue 25, item 3): the server accepts the cap and no
// more, and takes the next ones as the first close.
func TestWebConnectionCap(t *testing.T) {
	const limit, extra = 8, 12
	pages, err := listenWebLimit("127.0.0.1:0", "", limit)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	accepted := 0
	pages.connState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			mu.Lock()
			accepted++
			mu.Unlock()
		}
	}
	pages.serve(nil, games.All, slog.New(slog.DiscardHandler))
	defer pages.close()
	count := func() int { mu.Lock(); defer mu.Unlock(); return accepted }
	await := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); count() < want; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the server accepted %d connections, want %d", count(), want)
			}
		}
	}
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range limit + extra {
		c, err := net.Dial("tcp", pages.ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	await(limit)
	time.Sleep(200 * time.Millisecond) // room for an accept too many
	if n := count(); n != limit {
		t.Fatalf("%d idle connections open: the server accepted %d, want the cap, %d", limit+extra, n, limit)
	}
	for _, c := range conns[:5] {
		c.Close()
	}
	await(limit + 5)
	if n := count(); n != limit+5 {
		t.Fatalf("after 5 of %d connections closed the server accepted %d in all, want %d", limit, n, limit+5)
	}
}
