// This file is derived from imapserver/imapmemserver/message.go in
// github.com/emersion/go-imap/v2 v2.0.0-beta.8, under this license:
//
// The MIT License (MIT)
//
// Copyright (c) 2013 The Go-IMAP Authors
// Copyright (c) 2016 Proton Technologies AG
// Copyright (c) 2023 Simon Ser
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.
//
// Changes for herald: the message body lives in a file (a blob named by its
// SHA-256) instead of memory and is read only when a FETCH or SEARCH needs it;
// flags keep their case for display and compare case-insensitively.

package embedded

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// message is one message in a mailbox. All fields are guarded by the owning
// account's mutex; the blob it names is immutable.
type message struct {
	uid   imap.UID
	blob  string // hex SHA-256 of the raw message, the name of its file
	size  int64
	date  time.Time // internal date
	flags flagSet
}

// flagSet maps a flag's lower-case form to the form shown to clients.
type flagSet map[string]imap.Flag

// systemFlags gives the canonical spelling of the RFC 9051 system flags.
var systemFlags = map[string]imap.Flag{
	`\seen`:     imap.FlagSeen,
	`\answered`: imap.FlagAnswered,
	`\flagged`:  imap.FlagFlagged,
	`\deleted`:  imap.FlagDeleted,
	`\draft`:    imap.FlagDraft,
}

func flagKey(flag imap.Flag) string {
	return strings.ToLower(string(flag))
}

func (fs flagSet) add(flag imap.Flag) {
	k := flagKey(flag)
	if canon, ok := systemFlags[k]; ok {
		flag = canon
	}
	if _, ok := fs[k]; !ok {
		fs[k] = flag
	}
}

func (fs flagSet) has(flag imap.Flag) bool {
	_, ok := fs[flagKey(flag)]
	return ok
}

// list returns the flags sorted, so that output never depends on map order.
func (fs flagSet) list() []imap.Flag {
	l := make([]imap.Flag, 0, len(fs))
	for _, f := range fs {
		l = append(l, f)
	}
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	return l
}

func newFlagSet(flags []imap.Flag) flagSet {
	fs := make(flagSet, len(flags))
	for _, f := range flags {
		// \Recent cannot be set by clients (RFC 3501 section 2.3.2).
		if flagKey(f) == `\recent` {
			continue
		}
		fs.add(f)
	}
	return fs
}

func (msg *message) store(store *imap.StoreFlags) {
	switch store.Op {
	case imap.StoreFlagsSet:
		msg.flags = newFlagSet(store.Flags)
	case imap.StoreFlagsAdd:
		for _, flag := range store.Flags {
			if flagKey(flag) != `\recent` {
				msg.flags.add(flag)
			}
		}
	case imap.StoreFlagsDel:
		for _, flag := range store.Flags {
			delete(msg.flags, flagKey(flag))
		}
	default:
		panic(fmt.Errorf("unknown STORE flag operation: %v", store.Op))
	}
}

// msgSnapshot is what FETCH and SEARCH need of a message, copied under the
// account lock so that the slow part (reading the blob, writing to the
// network) runs without it.
type msgSnapshot struct {
	seqNum uint32 // as the client sees it
	uid    imap.UID
	blob   string
	size   int64
	date   time.Time
	flags  []imap.Flag
}

func (msg *message) snapshot(seqNum uint32) msgSnapshot {
	return msgSnapshot{
		seqNum: seqNum,
		uid:    msg.uid,
		blob:   msg.blob,
		size:   msg.size,
		date:   msg.date,
		flags:  msg.flags.list(),
	}
}

// fetchNeedsBody reports whether options ask for more than the metadata.
func fetchNeedsBody(options *imap.FetchOptions) bool {
	return options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 ||
		len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0
}

// fetchNeedsOnlyHeader reports whether options ask for nothing of a
// message but its header (ENVELOPE, BODY[HEADER], BODY[HEADER.FIELDS]...):
// then only the header is read, however large the message.
func fetchNeedsOnlyHeader(options *imap.FetchOptions) bool {
	if options.BodyStructure != nil || len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0 {
		return false
	}
	for _, bs := range options.BodySection {
		if bs.Specifier != imap.PartSpecifierHeader || len(bs.Part) > 0 || bs.Partial != nil {
			return false
		}
	}
	return true
}

// fetch writes one FETCH response. It always closes w, even after a write
// error, since an open FetchResponseWriter holds the connection's encoder.
func (msg *msgSnapshot) fetch(w *imapserver.FetchResponseWriter, options *imap.FetchOptions, buf []byte) error {
	w.WriteUID(msg.uid)

	if options.Flags {
		w.WriteFlags(msg.flags)
	}
	if options.InternalDate {
		w.WriteInternalDate(msg.date)
	}
	if options.RFC822Size {
		w.WriteRFC822Size(msg.size)
	}
	if options.Envelope {
		w.WriteEnvelope(envelope(buf))
	}
	if options.BodyStructure != nil {
		w.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(buf)))
	}

	var firstErr error
	writeLiteral := func(wc io.WriteCloser, b []byte) {
		_, writeErr := wc.Write(b)
		closeErr := wc.Close()
		if firstErr == nil {
			firstErr = writeErr
		}
		if firstErr == nil {
			firstErr = closeErr
		}
	}
	for _, bs := range options.BodySection {
		section := imapserver.ExtractBodySection(bytes.NewReader(buf), bs)
		writeLiteral(w.WriteBodySection(bs, int64(len(section))), section)
	}
	for _, bs := range options.BinarySection {
		section := imapserver.ExtractBinarySection(bytes.NewReader(buf), bs)
		writeLiteral(w.WriteBinarySection(bs, int64(len(section))), section)
	}
	for _, bss := range options.BinarySectionSize {
		n := imapserver.ExtractBinarySectionSize(bytes.NewReader(buf), bss)
		w.WriteBinarySectionSize(bss, n)
	}

	closeErr := w.Close()
	if firstErr != nil {
		return firstErr
	}
	return closeErr
}

func envelope(buf []byte) *imap.Envelope {
	br := bufio.NewReader(bytes.NewReader(buf))
	header, err := textproto.ReadHeader(br)
	if err != nil {
		return nil
	}
	return imapserver.ExtractEnvelope(header)
}

func entity(buf []byte) *gomessage.Entity {
	r, _ := gomessage.Read(bytes.NewReader(buf))
	if r == nil {
		r, _ = gomessage.New(gomessage.Header{}, bytes.NewReader(nil))
	}
	return r
}

// searchNeedsBody reports whether criteria look at the header or the text.
func searchNeedsBody(criteria *imap.SearchCriteria) bool {
	if len(criteria.Header) > 0 || len(criteria.Body) > 0 || len(criteria.Text) > 0 ||
		!criteria.SentSince.IsZero() || !criteria.SentBefore.IsZero() {
		return true
	}
	for i := range criteria.Not {
		if searchNeedsBody(&criteria.Not[i]) {
			return true
		}
	}
	for i := range criteria.Or {
		if searchNeedsBody(&criteria.Or[i][0]) || searchNeedsBody(&criteria.Or[i][1]) {
			return true
		}
	}
	return false
}

// search reports whether the message matches. buf is the raw message, or nil
// when the criteria do not need it (see searchNeedsBody).
func (msg *msgSnapshot) search(criteria *imap.SearchCriteria, buf []byte) bool {
	seqNum := msg.seqNum
	for _, seqSet := range criteria.SeqNum {
		if seqNum == 0 || !seqSet.Contains(seqNum) {
			return false
		}
	}
	for _, uidSet := range criteria.UID {
		if !uidSet.Contains(msg.uid) {
			return false
		}
	}
	if !matchDate(msg.date, criteria.Since, criteria.Before) {
		return false
	}

	flags := newFlagSet(msg.flags)
	for _, flag := range criteria.Flag {
		if !flags.has(flag) {
			return false
		}
	}
	for _, flag := range criteria.NotFlag {
		if flags.has(flag) {
			return false
		}
	}

	if criteria.Larger != 0 && msg.size <= criteria.Larger {
		return false
	}
	if criteria.Smaller != 0 && msg.size >= criteria.Smaller {
		return false
	}

	if len(criteria.Header) > 0 || !criteria.SentSince.IsZero() || !criteria.SentBefore.IsZero() {
		header := mail.Header{Header: entity(buf).Header}

		for _, fieldCriteria := range criteria.Header {
			if !matchHeaderFields(header.FieldsByKey(fieldCriteria.Key), fieldCriteria.Value) {
				return false
			}
		}

		if !criteria.SentSince.IsZero() || !criteria.SentBefore.IsZero() {
			t, err := header.Date()
			if err != nil {
				return false
			} else if !matchDate(t, criteria.SentSince, criteria.SentBefore) {
				return false
			}
		}
	}

	for _, text := range criteria.Text {
		if !matchEntity(entity(buf), text, true) {
			return false
		}
	}
	for _, body := range criteria.Body {
		if !matchEntity(entity(buf), body, false) {
			return false
		}
	}

	for _, not := range criteria.Not {
		if msg.search(&not, buf) {
			return false
		}
	}
	for _, or := range criteria.Or {
		if !msg.search(&or[0], buf) && !msg.search(&or[1], buf) {
			return false
		}
	}

	return true
}

func matchDate(t, since, before time.Time) bool {
	// We discard time zone information by setting it to UTC.
	// RFC 3501 explicitly requires zone unaware date comparison.
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)

	if !since.IsZero() && t.Before(since) {
		return false
	}
	if !before.IsZero() && !t.Before(before) {
		return false
	}
	return true
}

func matchHeaderFields(fields gomessage.HeaderFields, pattern string) bool {
	if pattern == "" {
		return fields.Len() > 0
	}

	pattern = strings.ToLower(pattern)
	for fields.Next() {
		v, _ := fields.Text()
		if strings.Contains(strings.ToLower(v), pattern) {
			return true
		}
	}
	return false
}

func matchEntity(e *gomessage.Entity, pattern string, includeHeader bool) bool {
	if pattern == "" {
		return true
	}

	if includeHeader && matchHeaderFields(e.Header.Fields(), pattern) {
		return true
	}

	if mr := e.MultipartReader(); mr != nil {
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			} else if err != nil {
				return false
			}

			if matchEntity(part, pattern, includeHeader) {
				return true
			}
		}

		return false
	}

	t, _, err := e.Header.ContentType()
	if err != nil {
		return false
	}

	if !strings.HasPrefix(t, "text/") && !strings.HasPrefix(t, "message/") {
		return false
	}

	buf, err := io.ReadAll(e.Body)
	if err != nil {
		return false
	}

	return bytes.Contains(bytes.ToLower(buf), bytes.ToLower([]byte(pattern)))
}
