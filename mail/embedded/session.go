// This file is derived from imapserver/imapmemserver/session.go, user.go and
// server.go in github.com/emersion/go-imap/v2 v2.0.0-beta.8, under this
// license:
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
// Changes for herald: every change is saved (see account.persist) before the
// command completes; FETCH and SEARCH copy what they need under the lock and
// read message files and write to the network without it; MOVE lets the
// post-command poll send the EXPUNGEs (the original also wrote them itself,
// with shifted numbers, so the client got two EXPUNGEs per moved message and
// lost count); EXAMINE is read-only; CREATE makes the
// superior names, RENAME takes the inferior ones along, DELETE refuses INBOX
// and mailboxes with inferiors; the session counts itself for Server.Close.

package embedded

import (
	"errors"
	"math"
	"os"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// imapSession is the state of one IMAP connection.
type imapSession struct {
	srv  *Server
	acct *account // nil until login

	mu   sync.Mutex // guards view against the IDLE goroutine
	view *mailboxView
}

var (
	_ imapserver.Session            = (*imapSession)(nil)
	_ imapserver.SessionIMAP4rev2   = (*imapSession)(nil)
	_ imapserver.SessionAppendLimit = (*imapSession)(nil)
)

var (
	errReadOnly = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeCannot,
		Text: "Mailbox is read-only (EXAMINE)",
	}
	errMailboxGone = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeNonExistent,
		Text: "Mailbox was deleted",
	}
	errBadName = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeCannot,
		Text: "Invalid mailbox name",
	}
	errAlreadyExists = &imap.Error{
		Type: imap.StatusResponseTypeNo,
		Code: imap.ResponseCodeAlreadyExists,
		Text: "Mailbox already exists",
	}
)

func (sess *imapSession) getView() *mailboxView {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.view
}

func (sess *imapSession) setView(view *mailboxView) (old *mailboxView) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	old, sess.view = sess.view, view
	return old
}

func (sess *imapSession) Close() error {
	if view := sess.setView(nil); view != nil {
		view.tracker.Close()
	}
	sess.srv.sessionEnd()
	return nil
}

func (sess *imapSession) Login(username, password string) error {
	a := sess.srv.lookup(username)
	if a == nil {
		checkNoAccount(password)
		sess.srv.log.Info("embedded: IMAP login failed", "user", username)
		return imapserver.ErrAuthFailed
	}
	if !a.pw.check(password) {
		sess.srv.log.Info("embedded: IMAP login failed", "user", username)
		return imapserver.ErrAuthFailed
	}
	sess.acct = a
	return nil
}

func (sess *imapSession) AppendLimit() uint32 {
	if sess.srv.cfg.MaxMessageBytes > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(sess.srv.cfg.MaxMessageBytes)
}

func (sess *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{
		Personal: []imap.NamespaceDescriptor{{Delim: mailboxDelim}},
	}, nil
}

func (sess *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	a := sess.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	mbox, err := a.mailboxLocked(normalizeMailboxName(name))
	if err != nil {
		return nil, err
	}
	view := &mailboxView{
		mailbox:  mbox,
		tracker:  mbox.tracker.NewSession(),
		readOnly: options.ReadOnly,
	}
	if old := sess.setView(view); old != nil {
		old.tracker.Close()
	}
	return mbox.selectDataLocked(), nil
}

func (sess *imapSession) Unselect() error {
	if view := sess.setView(nil); view != nil {
		view.tracker.Close()
	}
	return nil
}

func (sess *imapSession) Create(name string, options *imap.CreateOptions) error {
	name = normalizeMailboxName(name)
	if !validMailboxName(name) {
		return errBadName
	}
	a := sess.acct
	a.mu.Lock()
	if a.mailboxes[name] != nil {
		a.mu.Unlock()
		return errAlreadyExists
	}
	for _, n := range append(parentNames(name), name) {
		if a.mailboxes[n] == nil {
			// UIDVALIDITY must change if a mailbox is deleted and
			// re-created with the same name.
			a.mailboxes[n] = newMailbox(n, a.nextUIDValidityLocked())
		}
	}
	v, data := a.commitLocked()
	a.mu.Unlock()
	return a.persist(v, data)
}

func (sess *imapSession) Delete(name string) error {
	name = normalizeMailboxName(name)
	if name == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted"}
	}
	a := sess.acct
	a.mu.Lock()
	mbox, err := a.mailboxLocked(name)
	if err != nil {
		a.mu.Unlock()
		return err
	}
	for other := range a.mailboxes {
		if isChild(other, name) {
			a.mu.Unlock()
			return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeHasChildren, Text: "Mailbox has inferior mailboxes; delete them first"}
		}
	}
	delete(a.mailboxes, name)
	mbox.deleted = true
	gone := a.unrefMessagesLocked(mbox.msgs)
	v, data := a.commitLocked()
	a.mu.Unlock()
	if err := a.persist(v, data); err != nil {
		return err
	}
	a.removeBlobs(gone)
	return nil
}

func (sess *imapSession) Rename(oldName, newName string, options *imap.RenameOptions) error {
	oldName = normalizeMailboxName(oldName)
	newName = normalizeMailboxName(newName)
	if oldName == "INBOX" || newName == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be renamed"}
	}
	if !validMailboxName(newName) {
		return errBadName
	}
	if newName == oldName || isChild(newName, oldName) {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "Cannot rename a mailbox into itself"}
	}

	a := sess.acct
	a.mu.Lock()
	if _, err := a.mailboxLocked(oldName); err != nil {
		a.mu.Unlock()
		return err
	}
	// The mailbox and its inferiors, old name -> new name.
	moves := map[string]string{oldName: newName}
	for name := range a.mailboxes {
		if isChild(name, oldName) {
			moves[name] = newName + name[len(oldName):]
		}
	}
	for _, to := range moves {
		if a.mailboxes[to] != nil {
			a.mu.Unlock()
			return errAlreadyExists
		}
	}
	renamed := make(map[string]*mailbox, len(moves))
	for from, to := range moves {
		mbox := a.mailboxes[from]
		delete(a.mailboxes, from)
		mbox.name = to
		renamed[to] = mbox
	}
	for to, mbox := range renamed {
		a.mailboxes[to] = mbox
	}
	for _, n := range parentNames(newName) {
		if a.mailboxes[n] == nil {
			a.mailboxes[n] = newMailbox(n, a.nextUIDValidityLocked())
		}
	}
	v, data := a.commitLocked()
	a.mu.Unlock()
	return a.persist(v, data)
}

func (sess *imapSession) Subscribe(name string) error {
	return sess.setSubscribed(name, true)
}

func (sess *imapSession) Unsubscribe(name string) error {
	return sess.setSubscribed(name, false)
}

func (sess *imapSession) setSubscribed(name string, subscribed bool) error {
	a := sess.acct
	a.mu.Lock()
	mbox, err := a.mailboxLocked(normalizeMailboxName(name))
	if err != nil {
		a.mu.Unlock()
		return err
	}
	mbox.subscribed = subscribed
	v, data := a.commitLocked()
	a.mu.Unlock()
	return a.persist(v, data)
}

func (sess *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{
			Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect},
			Delim: mailboxDelim,
		})
	}

	a := sess.acct
	a.mu.Lock()
	hasChildren := make(map[string]bool)
	for name := range a.mailboxes {
		for _, p := range parentNames(name) {
			hasChildren[p] = true
		}
	}
	var l []imap.ListData
	for _, name := range sortedNames(a.mailboxes) {
		match := false
		for _, pattern := range patterns {
			if imapserver.MatchList(name, mailboxDelim, ref, pattern) {
				match = true
				break
			}
		}
		if !match {
			continue
		}
		if data := a.mailboxes[name].listLocked(options, hasChildren[name]); data != nil {
			l = append(l, *data)
		}
	}
	a.mu.Unlock()

	for i := range l {
		if err := w.WriteList(&l[i]); err != nil {
			return err
		}
	}
	return nil
}

func (sess *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	a := sess.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	mbox, err := a.mailboxLocked(normalizeMailboxName(name))
	if err != nil {
		return nil, err
	}
	return mbox.statusDataLocked(options), nil
}

func (sess *imapSession) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	c, err := sess.srv.spool(nil, r)
	if err != nil {
		return nil, err
	}
	defer c.discard()
	return sess.acct.appendMessage(normalizeMailboxName(name), c, options.Time, options.Flags)
}

func (sess *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	view := sess.getView()
	if view == nil {
		return nil
	}
	return view.tracker.Poll(w, allowExpunge)
}

func (sess *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	// imapserver runs Idle in its own goroutine and may not wait for it
	// when the connection breaks; count it so that Close does.
	if !sess.srv.sessionBegin() {
		return nil
	}
	defer sess.srv.sessionEnd()
	view := sess.getView()
	if view == nil {
		<-stop
		return nil
	}
	// Not view.tracker.Idle: it waits for the next change, and so never
	// sends the news queued since the client's last command (a mail
	// delivered just before IDLE went unannounced until another came).
	// Register first, then send what is queued, then wait: no change is
	// missed.
	wake := make(chan struct{}, 1)
	a := sess.acct
	a.mu.Lock()
	mbox := view.mailbox
	if mbox.idlers == nil {
		mbox.idlers = make(map[chan struct{}]struct{})
	}
	mbox.idlers[wake] = struct{}{}
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(mbox.idlers, wake)
		a.mu.Unlock()
	}()
	for {
		if err := view.tracker.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-wake:
		case <-stop:
			return nil
		}
	}
}

// selectedLocked fails if the selected mailbox was deleted by another
// session, or if write is set and it was selected with EXAMINE.
func (sess *imapSession) selectedLocked(view *mailboxView, write bool) error {
	if view.deleted {
		return errMailboxGone
	}
	if write && view.readOnly {
		return errReadOnly
	}
	return nil
}

func (sess *imapSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	view := sess.getView()
	a := sess.acct
	a.mu.Lock()
	if err := sess.selectedLocked(view, true); err != nil {
		a.mu.Unlock()
		return err
	}
	var uidSet imap.UIDSet
	if uids != nil {
		uidSet = view.staticNumSetLocked(*uids).(imap.UIDSet)
	}
	expunged := make(map[*message]struct{})
	for _, msg := range view.msgs {
		if uids != nil && !uidSet.Contains(msg.uid) {
			continue
		}
		if msg.flags.has(imap.FlagDeleted) {
			expunged[msg] = struct{}{}
		}
	}
	removed := view.expungeLocked(expunged)
	if len(removed) == 0 {
		a.mu.Unlock()
		return nil
	}
	gone := a.unrefMessagesLocked(removed)
	v, data := a.commitLocked()
	a.mu.Unlock()
	if err := a.persist(v, data); err != nil {
		return err
	}
	a.removeBlobs(gone)
	return nil
}

func (sess *imapSession) Search(numKind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	view := sess.getView()
	a := sess.acct
	a.mu.Lock()
	if err := sess.selectedLocked(view, false); err != nil {
		a.mu.Unlock()
		return nil, err
	}
	view.staticSearchCriteriaLocked(criteria)
	snaps := make([]msgSnapshot, len(view.msgs))
	for i, msg := range view.msgs {
		snaps[i] = msg.snapshot(view.tracker.EncodeSeqNum(uint32(i) + 1))
	}
	a.mu.Unlock()

	needBody := searchNeedsBody(criteria)
	var (
		data   imap.SearchData
		seqSet imap.SeqSet
		uidSet imap.UIDSet
	)
	for i := range snaps {
		snap := &snaps[i]
		var buf []byte
		if needBody {
			var err error
			if buf, err = a.readBlob(snap.blob); errors.Is(err, os.ErrNotExist) {
				continue // expunged meanwhile
			} else if err != nil {
				return nil, err
			}
		}
		if !snap.search(criteria, buf) {
			continue
		}

		// Always populate the UID set, since it may be saved later for SEARCHRES
		uidSet.AddNum(snap.uid)

		var num uint32
		switch numKind {
		case imapserver.NumKindSeq:
			if snap.seqNum == 0 {
				continue
			}
			seqSet.AddNum(snap.seqNum)
			num = snap.seqNum
		case imapserver.NumKindUID:
			num = uint32(snap.uid)
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		if data.Max == 0 || num > data.Max {
			data.Max = num
		}
		data.Count++
	}

	switch numKind {
	case imapserver.NumKindSeq:
		data.All = seqSet
	case imapserver.NumKindUID:
		data.All = uidSet
	}

	if options.ReturnSave {
		view.searchRes = uidSet
	}

	return &data, nil
}

func (sess *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	view := sess.getView()
	markSeen := false
	if !view.readOnly {
		for _, bs := range options.BodySection {
			if !bs.Peek {
				markSeen = true
				break
			}
		}
	}

	a := sess.acct
	a.mu.Lock()
	if err := sess.selectedLocked(view, false); err != nil {
		a.mu.Unlock()
		return err
	}
	var snaps []msgSnapshot
	changed := false
	view.forEachLocked(numSet, func(seqNum uint32, msg *message) {
		clientSeqNum := view.tracker.EncodeSeqNum(seqNum)
		if clientSeqNum == 0 {
			return // not announced to this client yet
		}
		if markSeen && !msg.flags.has(imap.FlagSeen) {
			msg.flags.add(imap.FlagSeen)
			view.mailbox.tracker.QueueMessageFlags(seqNum, msg.uid, msg.flags.list(), nil)
			view.mailbox.changedLocked()
			changed = true
		}
		snaps = append(snaps, msg.snapshot(clientSeqNum))
	})
	var (
		v    uint64
		data []byte
	)
	if changed {
		v, data = a.commitLocked()
	}
	a.mu.Unlock()
	if changed {
		if err := a.persist(v, data); err != nil {
			return err
		}
	}

	needBody := fetchNeedsBody(options)
	headerOnly := fetchNeedsOnlyHeader(options)
	for i := range snaps {
		var buf []byte
		if needBody {
			var err error
			read := a.readBlob
			if headerOnly {
				read = a.readBlobHeader
			}
			if buf, err = read(snaps[i].blob); errors.Is(err, os.ErrNotExist) {
				continue // expunged meanwhile
			} else if err != nil {
				return err
			}
		}
		if err := snaps[i].fetch(w.CreateMessage(snaps[i].seqNum), options, buf); err != nil {
			return err
		}
	}
	return nil
}

func (sess *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	view := sess.getView()
	a := sess.acct
	a.mu.Lock()
	if err := sess.selectedLocked(view, true); err != nil {
		a.mu.Unlock()
		return err
	}
	changed := false
	view.forEachLocked(numSet, func(seqNum uint32, msg *message) {
		msg.store(flags)
		view.mailbox.tracker.QueueMessageFlags(seqNum, msg.uid, msg.flags.list(), view.tracker)
		view.mailbox.changedLocked()
		changed = true
	})
	var (
		v    uint64
		data []byte
	)
	if changed {
		v, data = a.commitLocked()
	}
	a.mu.Unlock()
	if changed {
		if err := a.persist(v, data); err != nil {
			return err
		}
	}
	if !flags.Silent {
		return sess.Fetch(w, numSet, &imap.FetchOptions{Flags: true})
	}
	return nil
}

func (sess *imapSession) Copy(numSet imap.NumSet, destName string) (*imap.CopyData, error) {
	return sess.copyOrMove(numSet, destName, false)
}

func (sess *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, destName string) error {
	data, err := sess.copyOrMove(numSet, destName, true)
	if err != nil || data == nil {
		return err
	}
	// The EXPUNGE responses follow from the poll after the command.
	return w.WriteCopyData(data)
}

// copyOrMove copies the messages of numSet to destName, and with move
// expunges them from the selected mailbox, in one change saved at once. It
// returns nil data if no message matched.
func (sess *imapSession) copyOrMove(numSet imap.NumSet, destName string, move bool) (*imap.CopyData, error) {
	view := sess.getView()
	a := sess.acct
	a.mu.Lock()
	if err := sess.selectedLocked(view, move); err != nil {
		a.mu.Unlock()
		return nil, err
	}
	dest := a.mailboxes[normalizeMailboxName(destName)]
	if dest == nil {
		a.mu.Unlock()
		return nil, errTryCreate
	}
	if dest == view.mailbox {
		a.mu.Unlock()
		return nil, &imap.Error{
			Type: imap.StatusResponseTypeNo,
			Code: imap.ResponseCodeCannot,
			Text: "Source and destination mailboxes are identical",
		}
	}

	var sourceUIDs, destUIDs imap.UIDSet
	moved := make(map[*message]struct{})
	view.forEachLocked(numSet, func(seqNum uint32, msg *message) {
		copied := dest.appendLocked(msg.blob, msg.size, msg.date, msg.flags.list())
		sourceUIDs.AddNum(msg.uid)
		destUIDs.AddNum(copied.uid)
		if move {
			moved[msg] = struct{}{}
		} else {
			a.refs[msg.blob]++
		}
	})
	if len(sourceUIDs) == 0 {
		a.mu.Unlock()
		return nil, nil
	}
	if move {
		view.expungeLocked(moved) // the blobs change hands: no ref change
	}
	v, data := a.commitLocked()
	a.mu.Unlock()
	if err := a.persist(v, data); err != nil {
		return nil, err
	}
	return &imap.CopyData{
		UIDValidity: dest.uidValidity,
		SourceUIDs:  sourceUIDs,
		DestUIDs:    destUIDs,
	}, nil
}
