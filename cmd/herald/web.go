package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
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

// PageBaseFile is the file, in serve's data directory, that holds what
// the pages' addresses start with while serve runs with --http, so that
// herald new --mail gives the page's address in its welcome mails as
// serve does; serve without --http removes it.
const PageBaseFile = "page-url"

// remember writes w's base into dir (PageBaseFile).
func (w *webPages) remember(dir string) error {
	return os.WriteFile(filepath.Join(dir, PageBaseFile), []byte(w.base+"\n"), 0o600)
}

// forgetPages removes PageBaseFile from dir: serve runs without pages.
func forgetPages(dir string) error {
	err := os.Remove(filepath.Join(dir, PageBaseFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// pageURLIn returns the page addresses of the serve whose data directory
// is dir, as serve gives them (PageBaseFile), or nil when it serves none.
func pageURLIn(dir string) (func(token string) string, error) {
	b, err := os.ReadFile(filepath.Join(dir, PageBaseFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(strings.TrimSpace(string(b)), "/")
	if base == "" {
		return nil, nil
	}
	return func(token string) string { return base + web.PagePath(token) }, nil
}
