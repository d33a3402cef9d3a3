package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/web"
	"golang.org/x/net/netutil"
)

// maxWebConns caps the connections the web pages hold open at once (issue
// 25, item 3): past it, a new connection waits in the kernel's backlog
// until one closes, so idle clients cost neither memory nor the process's
// file descriptors, which the embedded mail servers share. Every
// connection is bounded in time by the server's timeouts (serve).
const maxWebConns = 256

// webPages is serve's web server of the games' read-only pages (serve
// --http), started before the mail service so that the welcome mails can
// give each page's address.
type webPages struct {
	ln   net.Listener
	base string // what page addresses start with: --http-url, or http://ADDR
	srv  *http.Server
	// connState, in tests, is the server's ConnState hook.
	connState func(net.Conn, http.ConnState)
}

// listenWeb opens addr for the pages; base is the address players reach
// them by ("" for http://addr).
func listenWeb(addr, base string) (*webPages, error) {
	return listenWebLimit(addr, base, maxWebConns)
}

// listenWebLimit is listenWeb holding at most conns connections at once.
func listenWebLimit(addr, base string, conns int) (*webPages, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--http: %w", err)
	}
	if base == "" {
		base = "http://" + ln.Addr().String()
	}
	return &webPages{ln: netutil.LimitListener(ln, conns), base: strings.TrimSuffix(base, "/")}, nil
}

// pageURL is the address of the page with token.
func (w *webPages) pageURL(token string) string { return w.base + web.PagePath(token) }

// serve serves the pages of st until close.
func (w *webPages) serve(st web.Reader, reg *adjudicator.Registry, log *slog.Logger) {
	w.srv = &http.Server{Handler: web.New(st, reg, log), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10, ConnState: w.connState}
	go func() {
		if err := w.srv.Serve(w.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web pages stopped", "err", err)
		}
	}()
}

func (w *webPages) close() {
	if w.srv == nil {
		w.ln.Close()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	w.srv.Shutdown(ctx)
}
