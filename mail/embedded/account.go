package embedded

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-message/textproto"
)

// indexFormat is the version of index.json; Start refuses other versions.
const indexFormat = 1

// account is one mail account: its mailboxes, in memory, and their on-disk
// copy under dir:
//
//	dir/index.json        every mailbox with its UIDs, flags and internal dates
//	dir/messages/<sha256> the raw messages, one file per distinct content
//
// index.json is the only source of truth: it is rewritten atomically after
// every change, and a message file is written (and synced) before any index
// that names it, and removed only after an index that no longer names it is
// on disk. Files no index names are removed at Start.
type account struct {
	address string // lower case
	dir     string
	log     *slog.Logger
	pw      *password // immutable

	mu              sync.Mutex
	mailboxes       map[string]*mailbox
	lastUIDValidity uint32
	refs            map[string]int // blob -> messages (and appends in flight) using it
	// ids are the Message-IDs of the blobs that have one, read at load and
	// on append, so that delivery can drop a message the account holds.
	ids     map[string]string // blob -> Message-ID
	version uint64            // bumped by every change

	saveMu       sync.Mutex
	savedVersion uint64 // guarded by saveMu
}

// The on-disk form of an account (dir/index.json).
type indexFile struct {
	Format          int            `json:"format"`
	Address         string         `json:"address"`
	LastUIDValidity uint32         `json:"last_uid_validity"`
	Mailboxes       []indexMailbox `json:"mailboxes"`
}

type indexMailbox struct {
	Name        string         `json:"name"`
	UIDValidity uint32         `json:"uid_validity"`
	UIDNext     uint32         `json:"uid_next"`
	Subscribed  bool           `json:"subscribed,omitempty"`
	Messages    []indexMessage `json:"messages"`
}

type indexMessage struct {
	UID   uint32    `json:"uid"`
	Blob  string    `json:"blob"`
	Size  int64     `json:"size"`
	Date  time.Time `json:"date"`
	Flags []string  `json:"flags,omitempty"`
}

// accountDirName turns an address into a directory name that is safe on every
// file system: lower-case letters, digits and ".-_+@" stay, the rest is %XX.
func accountDirName(address string) string {
	var b strings.Builder
	for i := 0; i < len(address); i++ {
		c := address[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', strings.IndexByte(".-_+@", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// openAccount loads the account stored in dir, or creates it with an empty,
// subscribed INBOX.
func openAccount(dir, address string, pw *password, log *slog.Logger) (*account, error) {
	a := &account{
		address:   address,
		dir:       dir,
		log:       log.With("account", address),
		pw:        pw,
		mailboxes: make(map[string]*mailbox),
		refs:      make(map[string]int),
		ids:       make(map[string]string),
	}
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o700); err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}
	data, err := os.ReadFile(a.indexPath())
	switch {
	case errors.Is(err, os.ErrNotExist):
		a.mu.Lock()
		inbox := newMailbox("INBOX", a.nextUIDValidityLocked())
		inbox.subscribed = true
		a.mailboxes[inbox.name] = inbox
		v, snap := a.commitLocked()
		a.mu.Unlock()
		if err := a.persist(v, snap); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("embedded: %w", err)
	default:
		dirty, err := a.load(data)
		if err != nil {
			return nil, err
		}
		if dirty {
			a.mu.Lock()
			v, snap := a.commitLocked()
			a.mu.Unlock()
			if err := a.persist(v, snap); err != nil {
				return nil, err
			}
		}
	}
	a.removeUnreferencedBlobs()
	a.readIDs()
	return a, nil
}

// readIDs reads the Message-ID of every blob the account holds, reading
// each file only up to the end of its header.
func (a *account) readIDs() {
	a.mu.Lock()
	blobs := make([]string, 0, len(a.refs))
	for b := range a.refs {
		blobs = append(blobs, b)
	}
	a.mu.Unlock()
	for _, b := range blobs {
		f, err := os.Open(a.blobPath(b))
		if err != nil {
			continue
		}
		id := messageID(f)
		f.Close()
		if id != "" {
			a.mu.Lock()
			a.ids[b] = id
			a.mu.Unlock()
		}
	}
}

// messageID returns the Message-ID of the message r reads, or "", reading
// no further than its header.
func messageID(r io.Reader) string {
	h, err := textproto.ReadHeader(bufio.NewReader(r))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(h.Get("Message-Id"))
}

// holdsLocked reports whether a mailbox of the account holds a message
// with Message-ID id.
func (a *account) holdsLocked(id string) bool {
	for _, mbox := range a.mailboxes {
		for _, msg := range mbox.msgs {
			if a.ids[msg.blob] == id {
				return true
			}
		}
	}
	return false
}

func (a *account) indexPath() string { return filepath.Join(a.dir, "index.json") }

func (a *account) blobPath(blob string) string { return filepath.Join(a.dir, "messages", blob) }

func validBlobName(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// load fills an empty account from index.json. A message whose file is
// missing is dropped with a warning rather than refusing to start; dirty
// reports such a repair, which the caller saves.
func (a *account) load(data []byte) (dirty bool, err error) {
	var idx indexFile
	if err := json.Unmarshal(data, &idx); err != nil {
		return false, fmt.Errorf("embedded: %s: %w", a.indexPath(), err)
	}
	if idx.Format != indexFormat {
		return false, fmt.Errorf("embedded: %s: unknown format %d (want %d)", a.indexPath(), idx.Format, indexFormat)
	}

	a.mu.Lock()
	defer a.mu.Unlock()
	a.lastUIDValidity = idx.LastUIDValidity
	for _, im := range idx.Mailboxes {
		name := normalizeMailboxName(im.Name)
		if !validMailboxName(name) || a.mailboxes[name] != nil {
			return false, fmt.Errorf("embedded: %s: bad or duplicate mailbox name %q", a.indexPath(), im.Name)
		}
		mbox := newMailbox(name, im.UIDValidity)
		mbox.subscribed = im.Subscribed
		mbox.uidNext = imap.UID(im.UIDNext)
		var last imap.UID
		for _, m := range im.Messages {
			uid := imap.UID(m.UID)
			if uid <= last || !validBlobName(m.Blob) {
				return false, fmt.Errorf("embedded: %s: mailbox %q: bad message uid %d blob %q", a.indexPath(), name, m.UID, m.Blob)
			}
			last = uid
			if _, err := os.Stat(a.blobPath(m.Blob)); err != nil {
				a.log.Warn("embedded: message file missing, message dropped", "mailbox", name, "uid", m.UID, "err", err)
				dirty = true
				continue
			}
			flags := make([]imap.Flag, len(m.Flags))
			for i, f := range m.Flags {
				flags[i] = imap.Flag(f)
			}
			mbox.msgs = append(mbox.msgs, &message{
				uid:   uid,
				blob:  m.Blob,
				size:  m.Size,
				date:  m.Date,
				flags: newFlagSet(flags),
			})
			a.refs[m.Blob]++
		}
		if mbox.uidNext <= last {
			mbox.uidNext = last + 1
		}
		if mbox.uidValidity == 0 {
			return false, fmt.Errorf("embedded: %s: mailbox %q has no uid_validity", a.indexPath(), name)
		}
		if mbox.uidValidity > a.lastUIDValidity {
			a.lastUIDValidity = mbox.uidValidity
		}
		mbox.tracker = imapserver.NewMailboxTracker(uint32(len(mbox.msgs)))
		a.mailboxes[name] = mbox
	}
	if a.mailboxes["INBOX"] == nil {
		inbox := newMailbox("INBOX", a.nextUIDValidityLocked())
		inbox.subscribed = true
		a.mailboxes[inbox.name] = inbox
		dirty = true
	}
	return dirty, nil
}

// removeUnreferencedBlobs deletes the message files no mailbox uses (left by
// a crash between writing a message and writing the index, or between
// writing the index and removing an expunged message) and stray temp files.
func (a *account) removeUnreferencedBlobs() {
	dir := filepath.Join(a.dir, "messages")
	entries, err := os.ReadDir(dir)
	if err != nil {
		a.log.Warn("embedded: listing messages", "err", err)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, e := range entries {
		if a.refs[e.Name()] > 0 {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			a.log.Warn("embedded: removing unused message file", "file", e.Name(), "err", err)
		}
	}
}

// nextUIDValidityLocked returns a UIDVALIDITY never used by this account:
// the current Unix time, or one more than the last one if that is larger.
func (a *account) nextUIDValidityLocked() uint32 {
	v := uint32(time.Now().Unix())
	if v <= a.lastUIDValidity {
		v = a.lastUIDValidity + 1
	}
	a.lastUIDValidity = v
	return v
}

// commitLocked records a change: it bumps the version and returns it with
// the index to write. The caller unlocks, then calls persist.
func (a *account) commitLocked() (uint64, []byte) {
	a.version++
	return a.version, a.indexLocked()
}

func (a *account) indexLocked() []byte {
	idx := indexFile{
		Format:          indexFormat,
		Address:         a.address,
		LastUIDValidity: a.lastUIDValidity,
		Mailboxes:       make([]indexMailbox, 0, len(a.mailboxes)),
	}
	for _, name := range sortedNames(a.mailboxes) {
		mbox := a.mailboxes[name]
		im := indexMailbox{
			Name:        mbox.name,
			UIDValidity: mbox.uidValidity,
			UIDNext:     uint32(mbox.uidNext),
			Subscribed:  mbox.subscribed,
			Messages:    make([]indexMessage, len(mbox.msgs)),
		}
		for i, msg := range mbox.msgs {
			var flags []string
			for _, f := range msg.flags.list() {
				flags = append(flags, string(f))
			}
			im.Messages[i] = indexMessage{
				UID:   uint32(msg.uid),
				Blob:  msg.blob,
				Size:  msg.size,
				Date:  msg.date,
				Flags: flags,
			}
		}
		idx.Mailboxes = append(idx.Mailboxes, im)
	}
	data, err := json.MarshalIndent(&idx, "", "\t")
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return append(data, '\n')
}

// persist writes the index of version v unless a later one is already on
// disk. It returns once the index is durable.
func (a *account) persist(v uint64, data []byte) error {
	a.saveMu.Lock()
	defer a.saveMu.Unlock()
	if a.savedVersion >= v {
		return nil
	}
	if err := writeFileAtomic(a.indexPath(), data); err != nil {
		a.log.Error("embedded: saving mailboxes", "err", err)
		return fmt.Errorf("embedded: saving mailboxes of %s: %w", a.address, err)
	}
	a.savedVersion = v
	return nil
}

// flush writes the index if a change is not on disk yet (after a failed
// persist).
func (a *account) flush() error {
	a.mu.Lock()
	v := a.version
	a.mu.Unlock()
	a.saveMu.Lock()
	saved := a.savedVersion
	a.saveMu.Unlock()
	if saved >= v {
		return nil
	}
	a.mu.Lock()
	v, data := a.version, a.indexLocked()
	a.mu.Unlock()
	return a.persist(v, data)
}

// putBlob stores c and returns its name. It takes a reference on the blob,
// which the caller hands to the message it adds, or drops with releaseBlob.
func (a *account) putBlob(c *content) (string, error) {
	blob := c.sum
	a.mu.Lock()
	a.refs[blob]++ // from here on no one removes the file
	a.mu.Unlock()
	if _, err := os.Stat(a.blobPath(blob)); err == nil {
		return blob, nil
	}
	r, err := c.open()
	if err == nil {
		err = writeFileAtomicFrom(a.blobPath(blob), r)
		r.Close()
	}
	if err != nil {
		a.releaseBlob(blob)
		a.log.Error("embedded: saving message", "err", err)
		return "", fmt.Errorf("embedded: saving message for %s: %w", a.address, err)
	}
	return blob, nil
}

// releaseBlob drops a reference taken by putBlob that no message took over.
func (a *account) releaseBlob(blob string) {
	a.mu.Lock()
	gone := a.unrefLocked(blob)
	a.mu.Unlock()
	if gone {
		a.removeBlobs([]string{blob})
	}
}

func (a *account) unrefLocked(blob string) (gone bool) {
	a.refs[blob]--
	if a.refs[blob] > 0 {
		return false
	}
	delete(a.refs, blob)
	delete(a.ids, blob)
	return true
}

// unrefMessagesLocked drops the references of removed messages and returns
// the blobs no longer used, to pass to removeBlobs once the index is saved.
func (a *account) unrefMessagesLocked(msgs []*message) []string {
	var gone []string
	for _, msg := range msgs {
		if a.unrefLocked(msg.blob) {
			gone = append(gone, msg.blob)
		}
	}
	return gone
}

// removeBlobs deletes the files of blobs that are still unused. Call it only
// after persist has written an index that does not name them.
func (a *account) removeBlobs(blobs []string) {
	if len(blobs) == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, blob := range blobs {
		if a.refs[blob] > 0 {
			continue // added again meanwhile
		}
		if err := os.Remove(a.blobPath(blob)); err != nil && !errors.Is(err, os.ErrNotExist) {
			a.log.Warn("embedded: removing message file", "blob", blob, "err", err)
		}
	}
}

// readBlob returns a raw message. It fails with os.ErrNotExist if the
// message was expunged (by another session) since it was looked up.
func (a *account) readBlob(blob string) ([]byte, error) {
	return os.ReadFile(a.blobPath(blob))
}

// maxHeaderRead bounds readBlobHeader: a header longer than this (none is)
// makes it read the whole message.
const maxHeaderRead = 4 << 20

// readBlobHeader returns the header of a raw message, with the empty line
// that ends it, reading no further: what FETCH BODY[HEADER] needs of a
// message of any size. It fails like readBlob.
func (a *account) readBlobHeader(blob string) ([]byte, error) {
	f, err := os.Open(a.blobPath(blob))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var out []byte
	for len(out) < maxHeaderRead {
		line, err := br.ReadSlice('\n')
		out = append(out, line...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil || len(bytes.TrimRight(line, "\r\n")) == 0 {
			return out, nil // the end of the header, or of a message that is all header
		}
	}
	return a.readBlob(blob)
}

// mailboxLocked returns the mailbox called name.
func (a *account) mailboxLocked(name string) (*mailbox, error) {
	mbox := a.mailboxes[name]
	if mbox == nil {
		return nil, &imap.Error{
			Type: imap.StatusResponseTypeNo,
			Code: imap.ResponseCodeNonExistent,
			Text: "No such mailbox",
		}
	}
	return mbox, nil
}

var errTryCreate = &imap.Error{
	Type: imap.StatusResponseTypeNo,
	Code: imap.ResponseCodeTryCreate,
	Text: "No such mailbox",
}

// errHeld is the error of a delivery dropped because the account already
// holds a message with its Message-ID.
var errHeld = errors.New("embedded: a message with this Message-ID is already here")

// appendMessage adds c to the mailbox called name: what APPEND does. It
// returns once the message and the index are on disk.
func (a *account) appendMessage(name string, c *content, date time.Time, flags []imap.Flag) (*imap.AppendData, error) {
	return a.addMessage(name, c, date, flags, false)
}

// deliverMessage adds c to the INBOX, as local delivery does, unless a
// mailbox of the account already holds a message with its Message-ID: then
// it returns errHeld (a sender that resends a mail after a crash, not
// knowing it was delivered, gives it the same Message-ID).
func (a *account) deliverMessage(c *content) (*imap.AppendData, error) {
	return a.addMessage("INBOX", c, time.Now(), nil, true)
}

func (a *account) addMessage(name string, c *content, date time.Time, flags []imap.Flag, dedupe bool) (*imap.AppendData, error) {
	a.mu.Lock()
	exists := a.mailboxes[name] != nil
	a.mu.Unlock()
	if !exists {
		return nil, errTryCreate
	}
	if date.IsZero() {
		date = time.Now()
	}

	blob, err := a.putBlob(c)
	if err != nil {
		return nil, err
	}

	id := c.id
	a.mu.Lock()
	mbox := a.mailboxes[name]
	if mbox == nil { // deleted meanwhile
		a.mu.Unlock()
		a.releaseBlob(blob)
		return nil, errTryCreate
	}
	if dedupe && id != "" && a.holdsLocked(id) {
		a.mu.Unlock()
		a.releaseBlob(blob)
		return nil, errHeld
	}
	if id != "" {
		a.ids[blob] = id
	}
	msg := mbox.appendLocked(blob, c.size, date, flags)
	v, data := a.commitLocked()
	a.mu.Unlock()

	if err := a.persist(v, data); err != nil {
		return nil, err
	}
	return &imap.AppendData{UIDValidity: mbox.uidValidity, UID: msg.uid}, nil
}

// normalizeMailboxName spells INBOX, and a first level equal to INBOX in any
// case, as "INBOX" (RFC 3501 section 5.1: INBOX is case-insensitive), and
// drops trailing delimiters.
func normalizeMailboxName(name string) string {
	name = strings.TrimRight(name, string(mailboxDelim))
	first, rest, found := strings.Cut(name, string(mailboxDelim))
	if strings.EqualFold(first, "INBOX") {
		if found {
			return "INBOX" + string(mailboxDelim) + rest
		}
		return "INBOX"
	}
	return name
}

// mailboxNames lists the account's mailboxes, sorted (for tests and logs).
func (a *account) mailboxNames() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return sortedNames(a.mailboxes)
}
