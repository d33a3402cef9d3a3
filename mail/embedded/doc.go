// Package embedded is herald's default mail system: an IMAP server (RFC 3501,
// IMAP4rev1) and an SMTP server (RFC 5321) running inside the herald process
// on a loopback address, so that `herald serve` works on a fresh machine with
// no mail account anywhere, and a real mail client (Thunderbird, mutt) can
// connect to it to play.
//
// # Use
//
//	srv, err := embedded.Start(embedded.Config{Dir: dataDir})
//	...
//	defer srv.Close()
//	err = srv.AddAccount("herald@localhost", secret) // idempotent
//	// IMAP on srv.IMAPAddr(), SMTP on srv.SMTPAddr(), both plain TCP.
//
// In tests, Start with Dir: t.TempDir() and the default addresses (a free port
// on 127.0.0.1), then connect with imapclient.DialInsecure(srv.IMAPAddr(),
// nil) and send with net/smtp or go-smtp to srv.SMTPAddr(); or seed the INBOX
// directly with Deliver.
//
// # IMAP
//
// Plain TCP, no TLS: the server only listens on a loopback address (Start
// refuses any other), so LOGIN and AUTHENTICATE PLAIN are allowed in clear.
// The user name is the account's full address (any case); the password is
// the one given to AddAccount.
//
// Capabilities: IMAP4rev1, AUTH=PLAIN, SASL-IR, LITERAL-, and after login
// IDLE, MOVE, UIDPLUS, NAMESPACE, UNSELECT, ENABLE, ESEARCH, SEARCHRES,
// LIST-EXTENDED, LIST-STATUS, STATUS=SIZE, CHILDREN, UTF8=ACCEPT and
// APPENDLIMIT. Every account starts with INBOX (subscribed); a client CREATEs
// any other mailbox. The hierarchy delimiter is "/" and the personal namespace
// has an empty prefix: herald's folders are "herald/processed" and
// "herald/rejected" (CREATE makes the superior "herald" too). Mail delivered
// by SMTP or Deliver is pushed at once to a client idling on the INBOX
// (EXISTS). EXAMINE is read-only. INBOX cannot be deleted or renamed; a
// mailbox with inferiors cannot be deleted; RENAME takes the inferiors along.
//
// # SMTP
//
// Plain TCP on loopback, for local delivery only: no authentication is
// needed, and RCPT TO an address without an account is refused with
// 550 5.1.1 (there is no relaying anywhere). AUTH PLAIN is accepted for the
// accounts, for clients configured to use it. A message larger than
// Config.MaxMessageBytes is refused with 552 5.3.4. Each accepted message is
// stored in the INBOX of each recipient with a Return-Path header (the
// envelope sender, "<>" for a bounce) and a Received header prepended.
// A message whose Message-ID a mailbox of the recipient already holds is
// accepted but not stored again: a sender that resends a mail after a
// crash, not knowing whether it was delivered, gives it the same
// Message-ID (herald's outbox does).
//
// # Resources
//
// Each server holds at most Config.MaxConnections connections (default
// 64) at once; a further client waits in the kernel's backlog until one
// closes. A message past 64 KiB, by SMTP DATA or IMAP APPEND, is written
// to a spool file in Dir/mail/.spool as it arrives and never held whole
// in memory; Start empties the spool.
//
// # What is persisted
//
// Everything a client can see survives Close and Start on the same Dir, and a
// crash at any point:
//
//   - Dir/accounts.yaml (mode 0600): each account's address and a salted
//     PBKDF2-SHA256 hash of its password (never the password itself).
//   - Dir/mail/<address>/index.json: the account's mailboxes, and for each
//     message its UID, flags (\Seen, \Deleted, keywords...), internal date and
//     the name of its file; each mailbox's UIDVALIDITY, UIDNEXT and
//     subscription. So a message moved to another mailbox is found there
//     after a restart, not back in the INBOX; an expunged message stays gone;
//     UIDs are never reused.
//   - Dir/mail/<address>/messages/<sha256>: the raw messages, byte for byte,
//     one file per distinct content (a copy shares its file).
//
// Every change (delivery, APPEND, STORE, EXPUNGE, COPY, MOVE, CREATE...) is
// written before the command completes, atomically: a new file is written
// to a temp name, synced and renamed over the old one, and the directory is
// synced. A message file is written before any index that names it and removed
// only after an index that no longer names it is on disk; Start removes the
// files no index names. If a write fails (disk full), the command fails with
// NO and the change stays in memory; the next successful write, or Close,
// saves it.
//
// Not persisted: IMAP connections and their state (selected mailbox, IDLE,
// pending untagged responses, SEARCHRES), SMTP transactions in progress (a
// message is delivered only once DATA completes, and then it is on disk), and
// the \Recent flag, which this server never sets.
//
// Dir/mail/.lock is locked while the server runs (on Unix), so that two
// servers never share a data directory. Mail is kept in memory only as
// metadata; message files are read when a client fetches or searches them.
//
// # Implementation
//
// The protocols are github.com/emersion/go-imap/v2/imapserver and
// github.com/emersion/go-smtp. The IMAP backend (mailbox.go, message.go,
// session.go) is a fork of go-imap's imapserver/imapmemserver, MIT licensed,
// whose notice heads each of those files. A fork rather than a wrapper:
// imapmemserver keeps its messages, UIDs and flags unexported, so code
// outside it can neither see a MOVE, STORE or EXPUNGE to save it nor
// restore the UIDs and UIDVALIDITY after a restart (re-appending would
// renumber every message and break clients' caches). The fork takes one lock
// per account instead of one per mailbox, so a MOVE is one atomic change
// (and two opposite MOVEs cannot deadlock), and saves the account after each
// change; it also fixes MOVE, which in imapmemserver sends two EXPUNGE
// responses per moved message (the client then believes the mailbox holds
// fewer messages than it does), and makes EXAMINE read-only.
package embedded
