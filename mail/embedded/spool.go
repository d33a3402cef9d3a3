package embedded

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// spoolThreshold is the size past which a message received by SMTP or
// APPEND is written to a spool file as it arrives rather than held in
// memory (issue 25, item 4): thirty parallel 10 MB mails then cost the
// server a few buffers, not 300 MB.
const spoolThreshold = 64 << 10

// content is a message to store: its bytes, in memory when it is small,
// else in a spool file; with its size, SHA-256 (the blob's name) and
// Message-ID.
type content struct {
	mem  []byte // nil when spooled
	file string // the spool file, when spooled
	size int64
	sum  string
	id   string
}

// memContent is raw, held in memory.
func memContent(raw []byte) *content {
	sum := sha256.Sum256(raw)
	return &content{mem: raw, size: int64(len(raw)), sum: hex.EncodeToString(sum[:]), id: messageID(bytes.NewReader(raw))}
}

// open returns a reader of the message's bytes.
func (c *content) open() (io.ReadCloser, error) {
	if c.file == "" {
		return io.NopCloser(bytes.NewReader(c.mem)), nil
	}
	return os.Open(c.file)
}

// discard removes the spool file, if any.
func (c *content) discard() {
	if c.file != "" {
		os.Remove(c.file)
	}
}

// spoolDir is where messages past spoolThreshold wait while they arrive;
// Start empties it.
func (s *Server) spoolDir() string { return filepath.Join(s.mailDir, ".spool") }

// clearSpool removes the spool files a crash left, and makes the
// directory if it is missing.
func (s *Server) clearSpool() error {
	if err := os.RemoveAll(s.spoolDir()); err != nil {
		return fmt.Errorf("embedded: clearing the spool: %w", err)
	}
	if err := os.Mkdir(s.spoolDir(), 0o700); err != nil {
		return fmt.Errorf("embedded: %w", err)
	}
	return nil
}

// spool reads the message prefix+r: into memory when it is at most
// spoolThreshold bytes, else into a spool file as it arrives. The caller
// discards what it returns. An error reading r (a message too large) is
// returned as is.
func (s *Server) spool(prefix []byte, r io.Reader) (*content, error) {
	var buf bytes.Buffer
	buf.Write(prefix)
	if _, err := io.CopyN(&buf, r, spoolThreshold+1-int64(len(prefix))); errors.Is(err, io.EOF) {
		return memContent(buf.Bytes()), nil
	} else if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(s.spoolDir(), "msg-*")
	if err != nil {
		return nil, &spoolError{err}
	}
	c := &content{file: f.Name()}
	h := sha256.New()
	w := &spoolWriter{f: f}
	n, err := io.Copy(io.MultiWriter(w, h), io.MultiReader(&buf, r))
	if w.err != nil {
		err = &spoolError{w.err}
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = &spoolError{cerr}
	}
	if err != nil {
		c.discard()
		return nil, err
	}
	c.size = n
	c.sum = hex.EncodeToString(h.Sum(nil))
	if f, err := os.Open(c.file); err == nil {
		c.id = messageID(f)
		f.Close()
	}
	return c, nil
}

// spoolError is a failure to write the spool (a full disk), as opposed to
// a failure to read the message (too large, connection lost).
type spoolError struct{ err error }

func (e *spoolError) Error() string { return "embedded: spooling a message: " + e.err.Error() }
func (e *spoolError) Unwrap() error { return e.err }

// spoolWriter writes to the spool file and remembers its error.
type spoolWriter struct {
	f   *os.File
	err error
}

func (w *spoolWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}
