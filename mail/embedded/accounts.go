package embedded

import (
	"bytes"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"os"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// pbkdf2Iterations is the work factor of new password hashes. Each hash
// records its own count, so changing this does not break existing files.
// Tests lower it to stay fast.
var pbkdf2Iterations = 100_000

const passwordScheme = "pbkdf2-sha256"

// password is a salted PBKDF2-SHA256 password hash, as stored in
// accounts.yaml: "pbkdf2-sha256$<iterations>$<salt>$<key>" (base64).
type password struct {
	encoded string
	iter    int
	salt    []byte
	key     []byte

	// The last password that matched, hashed with a per-process salt, so
	// that a client logging in again does not pay for PBKDF2 each time.
	mu        sync.Mutex
	cacheSalt [16]byte
	cached    []byte
}

func newPassword(plain string) (*password, error) {
	if plain == "" {
		return nil, errors.New("embedded: empty password")
	}
	salt := make([]byte, 16)
	rand.Read(salt)
	key, err := pbkdf2.Key(sha256.New, plain, salt, pbkdf2Iterations, sha256.Size)
	if err != nil {
		return nil, fmt.Errorf("embedded: hashing password: %w", err)
	}
	enc := base64.RawStdEncoding
	return parsePassword(strings.Join([]string{passwordScheme, strconv.Itoa(pbkdf2Iterations), enc.EncodeToString(salt), enc.EncodeToString(key)}, "$"))
}

func parsePassword(encoded string) (*password, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 4 || parts[0] != passwordScheme {
		return nil, fmt.Errorf("embedded: password hash is not %s$<iterations>$<salt>$<key>", passwordScheme)
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1 {
		return nil, fmt.Errorf("embedded: password hash: bad iteration count %q", parts[1])
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[2])
	if err != nil {
		return nil, fmt.Errorf("embedded: password hash: salt: %w", err)
	}
	key, err := enc.DecodeString(parts[3])
	if err != nil || len(key) == 0 {
		return nil, fmt.Errorf("embedded: password hash: bad key")
	}
	p := &password{encoded: encoded, iter: iter, salt: salt, key: key}
	rand.Read(p.cacheSalt[:])
	return p, nil
}

func (p *password) cacheKey(plain string) []byte {
	h := sha256.New()
	h.Write(p.cacheSalt[:])
	h.Write([]byte(plain))
	return h.Sum(nil)
}

// check reports whether plain is the password, in constant time.
func (p *password) check(plain string) bool {
	ck := p.cacheKey(plain)
	p.mu.Lock()
	cached := p.cached
	p.mu.Unlock()
	if cached != nil && subtle.ConstantTimeCompare(ck, cached) == 1 {
		return true
	}
	key, err := pbkdf2.Key(sha256.New, plain, p.salt, p.iter, len(p.key))
	if err != nil || subtle.ConstantTimeCompare(key, p.key) != 1 {
		return false
	}
	p.mu.Lock()
	p.cached = ck
	p.mu.Unlock()
	return true
}

var (
	dummyOnce sync.Once
	dummyPW   *password
)

// checkNoAccount spends the time a password check takes, so that a failed
// login does not tell whether the account exists.
func checkNoAccount(plain string) {
	dummyOnce.Do(func() { dummyPW, _ = newPassword("no such account") })
	if dummyPW != nil {
		dummyPW.check(plain + "\x00")
	}
}

// normalizeAddress checks that s is a bare address (local@domain, no
// display name) and returns it in lower case.
func normalizeAddress(s string) (string, error) {
	addr := strings.ToLower(strings.TrimSpace(s))
	parsed, err := mail.ParseAddress(addr)
	if err != nil || parsed.Name != "" || parsed.Address != addr {
		return "", fmt.Errorf("embedded: %q is not a plain mail address (local@domain)", s)
	}
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || local == "" || domain == "" {
		return "", fmt.Errorf("embedded: %q is not a plain mail address (local@domain)", s)
	}
	return addr, nil
}

// lookupKey is how an address is looked up: case-insensitively.
func lookupKey(s string) string {
	return strings.ToLower(strings.TrimSpace(s))
}

// accountsFile is the content of Dir/accounts.yaml.
type accountsFile struct {
	Accounts []accountEntry `yaml:"accounts"`
}

type accountEntry struct {
	Address  string `yaml:"address"`
	Password string `yaml:"password"`
}

const accountsHeader = `# herald embedded mail server: accounts (see package mail/embedded).
# Each password is a salted PBKDF2-SHA256 hash, never the password itself.
# This file is rewritten by herald; keep it private (mode 0600).
`

func readAccounts(path string) ([]accountEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}
	var f accountsFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("embedded: %s: %w", path, err)
	}
	return f.Accounts, nil
}

func writeAccounts(path string, entries []accountEntry) error {
	data, err := yaml.Marshal(&accountsFile{Accounts: entries})
	if err != nil {
		return fmt.Errorf("embedded: %w", err)
	}
	var buf bytes.Buffer
	buf.WriteString(accountsHeader)
	buf.Write(data)
	if err := writeFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("embedded: saving accounts: %w", err)
	}
	return nil
}
