package mail

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
)

// pendingPasswordsFile holds, in the data directory of the embedded
// setup, the password of each account being opened, before the account
// exists: a crash between the two leaves the password here, and the
// account is opened again with it (never with a new one).
const pendingPasswordsFile = ".player-passwords.pending"

// accountOpener opens the mailboxes of players on the local servers and
// keeps PlayerPasswordsFile: one line "ADDRESS PASSWORD" per account,
// written once the account exists, so that every line logs in (issue 32,
// item 1). An account is opened in three steps, each durable before the
// next: its password is added to pendingPasswordsFile, the account is
// opened with it, its line moves to PlayerPasswordsFile. A crash between
// any two leaves a state that recover (at Start) or the next open
// completes with the first password.
type accountOpener struct {
	dir      string
	srv      LocalServers
	password func(address string) string
	log      *slog.Logger
	// crash, in tests: open stops at the point named ("pending" before
	// the account is opened, "opened" before its line is written).
	crash func(point string) bool

	mu sync.Mutex
}

// open opens address's mailbox unless it has one.
func (o *accountOpener) open(address string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	addr, err := host.ParseAddress(address)
	if err != nil { // no account, and no line in player-passwords
		return err
	}
	if slices.Contains(o.srv.Accounts(), addr) {
		return nil
	}
	path := filepath.Join(o.dir, PlayerPasswordsFile)
	lines, err := readPasswordLines(path)
	if err != nil {
		return err
	}
	pendingPath := filepath.Join(o.dir, pendingPasswordsFile)
	pending, err := readPasswordLines(pendingPath)
	if err != nil {
		return err
	}
	// The first password drawn for the address stays its password.
	pw, ok := lookupPassword(lines, addr)
	if !ok {
		pw, ok = lookupPassword(pending, addr)
	}
	if !ok {
		pw = o.password(address)
	}
	if _, held := lookupPassword(pending, addr); !held {
		if err := writePasswordLines(pendingPath, append(pending, passwordLine{addr, pw})); err != nil {
			return fmt.Errorf("mail: writing %s: %w", pendingPath, err)
		}
	}
	if o.crash != nil && o.crash("pending") {
		return errCrash
	}
	if err := o.srv.AddAccount(addr, pw); err != nil {
		return err
	}
	if o.crash != nil && o.crash("opened") {
		return errCrash
	}
	if err := o.settle(addr, pw); err != nil {
		return err
	}
	o.log.Info("embedded mail account created; its password is in "+path, "address", addr,
		"imap", o.srv.IMAPAddr(), "smtp", o.srv.SMTPAddr())
	return nil
}

// settle writes addr's line to PlayerPasswordsFile, replacing any other
// for addr, then drops it from pendingPasswordsFile.
func (o *accountOpener) settle(addr, pw string) error {
	path := filepath.Join(o.dir, PlayerPasswordsFile)
	lines, err := readPasswordLines(path)
	if err != nil {
		return err
	}
	if got, ok := lookupPassword(lines, addr); !ok || got != pw || countPassword(lines, addr) > 1 {
		lines = slices.DeleteFunc(lines, func(l passwordLine) bool { return l.address == addr })
		if err := writePasswordLines(path, append(lines, passwordLine{addr, pw})); err != nil {
			return fmt.Errorf("mail: writing %s: %w", path, err)
		}
	}
	pendingPath := filepath.Join(o.dir, pendingPasswordsFile)
	pending, err := readPasswordLines(pendingPath)
	if err != nil {
		return err
	}
	if n := len(pending); n > 0 {
		pending = slices.DeleteFunc(pending, func(l passwordLine) bool { return l.address == addr })
		if len(pending) == 0 {
			if err := os.Remove(pendingPath); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		} else if len(pending) != n {
			if err := writePasswordLines(pendingPath, pending); err != nil {
				return fmt.Errorf("mail: writing %s: %w", pendingPath, err)
			}
		}
	}
	return nil
}

// recover finishes the openings a crash interrupted: each account of
// pendingPasswordsFile is opened with its password, if it is not yet, and
// gets its line in PlayerPasswordsFile.
func (o *accountOpener) recover() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	pending, err := readPasswordLines(filepath.Join(o.dir, pendingPasswordsFile))
	if err != nil {
		return err
	}
	for _, l := range pending {
		if err := o.srv.AddAccount(l.address, l.password); err != nil {
			return err
		}
		if err := o.settle(l.address, l.password); err != nil {
			return err
		}
	}
	return nil
}

// passwordLine is one line of PlayerPasswordsFile.
type passwordLine struct{ address, password string }

func lookupPassword(lines []passwordLine, addr string) (string, bool) {
	for _, l := range lines {
		if strings.ToLower(l.address) == addr {
			return l.password, true
		}
	}
	return "", false
}

func countPassword(lines []passwordLine, addr string) int {
	n := 0
	for _, l := range lines {
		if strings.ToLower(l.address) == addr {
			n++
		}
	}
	return n
}

// readPasswordLines reads a file of "ADDRESS PASSWORD" lines; a missing
// file has none.
func readPasswordLines(path string) ([]passwordLine, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var lines []passwordLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("mail: %s:%d: want \"ADDRESS PASSWORD\", got %d fields", path, n, len(f))
		}
		lines = append(lines, passwordLine{f[0], f[1]})
	}
	return lines, sc.Err()
}

// writePasswordLines replaces path with lines, mode 0600, atomically.
func writePasswordLines(path string, lines []passwordLine) error {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%s %s\n", l.address, l.password)
	}
	return adjudicator.WriteFileAtomic(path, []byte(b.String()), 0o600)
}
