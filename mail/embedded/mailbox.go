// This file is derived from imapserver/imapmemserver/mailbox.go and user.go in
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
// Changes for herald: one lock per account instead of one per mailbox (so a
// MOVE is atomic and cannot deadlock against a MOVE the other way, and a
// snapshot for the disk is consistent); the tracker starts with the number of
// messages loaded from disk; blobs are reference-counted.

package embedded

import (
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// mailboxDelim separates the levels of a mailbox name ("herald/processed").
const mailboxDelim rune = '/'

// mailbox is one IMAP mailbox of an account. All fields but tracker are
// guarded by the account's mutex; tracker has its own.
type mailbox struct {
	tracker     *imapserver.MailboxTracker
	uidValidity uint32

	name       string
	subscribed bool
	msgs       []*message
	uidNext    imap.UID
	deleted    bool // set by DELETE, for sessions that still have it selected

	// idlers are woken by every change queued on tracker, for the sessions
	// idling on the mailbox (see imapSession.Idle).
	idlers map[chan struct{}]struct{}
}

// changedLocked wakes the sessions idling on the mailbox: call it after
// queueing an update on its tracker.
func (mbox *mailbox) changedLocked() {
	for ch := range mbox.idlers {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func newMailbox(name string, uidValidity uint32) *mailbox {
	return &mailbox{
		tracker:     imapserver.NewMailboxTracker(0),
		uidValidity: uidValidity,
		name:        name,
		uidNext:     1,
	}
}

func (mbox *mailbox) listLocked(options *imap.ListOptions, hasChildren bool) *imap.ListData {
	if options.SelectSubscribed && !mbox.subscribed {
		return nil
	}
	if options.SelectSpecialUse {
		return nil // no special-use mailboxes here
	}

	data := imap.ListData{
		Mailbox: mbox.name,
		Delim:   mailboxDelim,
	}
	if hasChildren {
		data.Attrs = append(data.Attrs, imap.MailboxAttrHasChildren)
	} else {
		data.Attrs = append(data.Attrs, imap.MailboxAttrHasNoChildren)
	}
	if mbox.subscribed {
		data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
	}
	if options.ReturnStatus != nil {
		data.Status = mbox.statusDataLocked(options.ReturnStatus)
	}
	return &data
}

func (mbox *mailbox) statusDataLocked(options *imap.StatusOptions) *imap.StatusData {
	data := imap.StatusData{Mailbox: mbox.name}
	if options.NumMessages {
		num := uint32(len(mbox.msgs))
		data.NumMessages = &num
	}
	if options.UIDNext {
		data.UIDNext = mbox.uidNext
	}
	if options.UIDValidity {
		data.UIDValidity = mbox.uidValidity
	}
	if options.NumUnseen {
		num := uint32(len(mbox.msgs)) - mbox.countByFlagLocked(imap.FlagSeen)
		data.NumUnseen = &num
	}
	if options.NumDeleted {
		num := mbox.countByFlagLocked(imap.FlagDeleted)
		data.NumDeleted = &num
	}
	if options.Size {
		size := mbox.sizeLocked()
		data.Size = &size
	}
	if options.NumRecent {
		num := uint32(0)
		data.NumRecent = &num
	}
	return &data
}

func (mbox *mailbox) countByFlagLocked(flag imap.Flag) uint32 {
	var n uint32
	for _, msg := range mbox.msgs {
		if msg.flags.has(flag) {
			n++
		}
	}
	return n
}

func (mbox *mailbox) sizeLocked() int64 {
	var size int64
	for _, msg := range mbox.msgs {
		size += msg.size
	}
	return size
}

func (mbox *mailbox) selectDataLocked() *imap.SelectData {
	flags := mbox.flagsLocked()

	permanentFlags := make([]imap.Flag, len(flags))
	copy(permanentFlags, flags)
	permanentFlags = append(permanentFlags, imap.FlagWildcard)

	return &imap.SelectData{
		Flags:             flags,
		PermanentFlags:    permanentFlags,
		NumMessages:       uint32(len(mbox.msgs)),
		FirstUnseenSeqNum: mbox.firstUnseenSeqNumLocked(),
		UIDNext:           mbox.uidNext,
		UIDValidity:       mbox.uidValidity,
	}
}

func (mbox *mailbox) firstUnseenSeqNumLocked() uint32 {
	for i, msg := range mbox.msgs {
		if !msg.flags.has(imap.FlagSeen) {
			return uint32(i) + 1
		}
	}
	return 0
}

// flagsLocked lists the flags defined in the mailbox: the system flags plus
// every keyword in use.
func (mbox *mailbox) flagsLocked() []imap.Flag {
	all := make(flagSet)
	for _, f := range systemFlags {
		all.add(f)
	}
	for _, msg := range mbox.msgs {
		for _, f := range msg.flags {
			all.add(f)
		}
	}
	return all.list()
}

// appendLocked adds a message at the end of the mailbox, gives it the next
// UID and tells the sessions watching the mailbox (IDLE gets EXISTS here).
// The caller accounts for the blob reference.
func (mbox *mailbox) appendLocked(blob string, size int64, date time.Time, flags []imap.Flag) *message {
	msg := &message{
		uid:   mbox.uidNext,
		blob:  blob,
		size:  size,
		date:  date,
		flags: newFlagSet(flags),
	}
	mbox.uidNext++
	mbox.msgs = append(mbox.msgs, msg)
	mbox.tracker.QueueNumMessages(uint32(len(mbox.msgs)))
	mbox.changedLocked()
	return msg
}

// expungeLocked removes the given messages and queues an EXPUNGE for every
// session on the mailbox, the acting one included: the acting session sends
// its own EXPUNGE responses when the server polls it after the command.
func (mbox *mailbox) expungeLocked(expunged map[*message]struct{}) []*message {
	var removed []*message
	// Iterate in reverse order, to keep sequence numbers consistent
	for i := len(mbox.msgs) - 1; i >= 0; i-- {
		msg := mbox.msgs[i]
		if _, ok := expunged[msg]; ok {
			mbox.tracker.QueueExpunge(uint32(i) + 1)
			mbox.changedLocked()
			removed = append(removed, msg)
		}
	}
	if len(removed) == 0 {
		return nil
	}
	kept := mbox.msgs[:0:0]
	for _, msg := range mbox.msgs {
		if _, ok := expunged[msg]; !ok {
			kept = append(kept, msg)
		}
	}
	mbox.msgs = kept
	return removed
}

// mailboxView is a session's view of its selected mailbox. Each view has its
// own queue of pending unilateral updates.
type mailboxView struct {
	*mailbox
	tracker   *imapserver.SessionTracker
	searchRes imap.UIDSet
	readOnly  bool
}

// forEachLocked calls f for each message of numSet, with the message's
// sequence number in the server's view.
func (mbox *mailboxView) forEachLocked(numSet imap.NumSet, f func(seqNum uint32, msg *message)) {
	numSet = mbox.staticNumSetLocked(numSet)

	for i, msg := range mbox.msgs {
		seqNum := uint32(i) + 1

		var contains bool
		switch numSet := numSet.(type) {
		case imap.SeqSet:
			seqNum := mbox.tracker.EncodeSeqNum(seqNum)
			contains = seqNum != 0 && numSet.Contains(seqNum)
		case imap.UIDSet:
			contains = numSet.Contains(msg.uid)
		}
		if !contains {
			continue
		}

		f(seqNum, msg)
	}
}

// staticNumSetLocked converts a dynamic sequence set into a static one.
//
// This is necessary to properly handle the special symbol "*", which
// represents the maximum sequence number or UID in the mailbox.
//
// This function also handles the special SEARCHRES marker "$".
func (mbox *mailboxView) staticNumSetLocked(numSet imap.NumSet) imap.NumSet {
	if imap.IsSearchRes(numSet) {
		return mbox.searchRes
	}

	switch numSet := numSet.(type) {
	case imap.SeqSet:
		max := uint32(len(mbox.msgs))
		for i := range numSet {
			r := &numSet[i]
			staticNumRange(&r.Start, &r.Stop, max)
		}
	case imap.UIDSet:
		max := uint32(mbox.uidNext) - 1
		for i := range numSet {
			r := &numSet[i]
			staticNumRange((*uint32)(&r.Start), (*uint32)(&r.Stop), max)
		}
	}

	return numSet
}

func (mbox *mailboxView) staticSearchCriteriaLocked(criteria *imap.SearchCriteria) {
	seqNums := make([]imap.SeqSet, 0, len(criteria.SeqNum))
	for _, seqSet := range criteria.SeqNum {
		numSet := mbox.staticNumSetLocked(seqSet)
		switch numSet := numSet.(type) {
		case imap.SeqSet:
			seqNums = append(seqNums, numSet)
		case imap.UIDSet: // can happen with SEARCHRES
			criteria.UID = append(criteria.UID, numSet)
		}
	}
	criteria.SeqNum = seqNums

	for i, uidSet := range criteria.UID {
		criteria.UID[i] = mbox.staticNumSetLocked(uidSet).(imap.UIDSet)
	}

	for i := range criteria.Not {
		mbox.staticSearchCriteriaLocked(&criteria.Not[i])
	}
	for i := range criteria.Or {
		for j := range criteria.Or[i] {
			mbox.staticSearchCriteriaLocked(&criteria.Or[i][j])
		}
	}
}

func staticNumRange(start, stop *uint32, max uint32) {
	dyn := false
	if *start == 0 {
		*start = max
		dyn = true
	}
	if *stop == 0 {
		*stop = max
		dyn = true
	}
	if dyn && *start > *stop {
		*start, *stop = *stop, *start
	}
}

// validMailboxName reports whether name can be created: not empty, no empty
// level ("a//b", "/a", "a/"), no LIST wildcards.
func validMailboxName(name string) bool {
	if name == "" || strings.ContainsAny(name, "*%\r\n\x00") {
		return false
	}
	for _, level := range strings.Split(name, string(mailboxDelim)) {
		if level == "" {
			return false
		}
	}
	return true
}

// parentNames lists the superior names of name, outermost first:
// "a/b/c" gives "a", "a/b".
func parentNames(name string) []string {
	var l []string
	for i, r := range name {
		if r == mailboxDelim {
			l = append(l, name[:i])
		}
	}
	return l
}

// isChild reports whether name is below parent in the hierarchy.
func isChild(name, parent string) bool {
	return strings.HasPrefix(name, parent+string(mailboxDelim))
}

// sortedNames returns the keys of m in order.
func sortedNames(m map[string]*mailbox) []string {
	l := make([]string, 0, len(m))
	for name := range m {
		l = append(l, name)
	}
	sort.Strings(l)
	return l
}
