package embedded

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// smtpDomain is the name the SMTP server gives itself (greeting, Received).
const smtpDomain = "localhost"

func (s *Server) newSMTPServer() *smtp.Server {
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{srv: s, conn: c}, nil
	}))
	srv.Domain = smtpDomain
	srv.MaxMessageBytes = s.cfg.MaxMessageBytes
	srv.MaxRecipients = 100
	srv.AllowInsecureAuth = true // loopback only
	srv.ReadTimeout = 10 * time.Minute
	srv.WriteTimeout = time.Minute
	srv.ErrorLog = logAdapter{s.log.With("server", "smtp")}
	return srv
}

// smtpSession is one SMTP transaction state. Delivery needs no
// authentication (every recipient must be local anyway); AUTH PLAIN is
// accepted so that mail clients configured to use it work.
type smtpSession struct {
	srv  *Server
	conn *smtp.Conn
	user string // after AUTH

	from string
	to   []string
}

var (
	_ smtp.Session     = (*smtpSession)(nil)
	_ smtp.AuthSession = (*smtpSession)(nil)
)

func (ss *smtpSession) AuthMechanisms() []string { return ss.srv.mechanisms() }

func (ss *smtpSession) Auth(mech string) (sasl.Server, error) {
	if ss.srv.cfg.Bearer != nil && (mech == sasl.OAuthBearer || mech == xoauth2) {
		return bearerServer(mech, func(username, token string) bool {
			a := ss.srv.bearerAccount("SMTP", username, token)
			if a != nil {
				ss.user = a.address
			}
			return a != nil
		}, smtp.ErrAuthFailed), nil
	}
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if identity != "" && lookupKey(identity) != lookupKey(username) {
			return smtp.ErrAuthFailed
		}
		a := ss.srv.lookup(username)
		if a == nil {
			checkNoAccount(password)
			ss.srv.log.Info("embedded: SMTP AUTH failed", "user", username)
			return smtp.ErrAuthFailed
		}
		if !a.pw.check(password) {
			ss.srv.log.Info("embedded: SMTP AUTH failed", "user", username)
			return smtp.ErrAuthFailed
		}
		ss.user = a.address
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, opts *smtp.MailOptions) error {
	ss.from = from
	ss.to = nil
	return nil
}

func (ss *smtpSession) Rcpt(to string, opts *smtp.RcptOptions) error {
	if ss.srv.lookupRecipient(to) == nil {
		return &smtp.SMTPError{
			Code:         550,
			EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message:      fmt.Sprintf("No such user here: <%s>", to),
		}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	prefix := fmt.Sprintf("Return-Path: <%s>\r\n%s", ss.from, ss.received(time.Now()))
	// go-smtp stops r at MaxMessageBytes with 552; past spoolThreshold
	// the message goes to a spool file as it arrives.
	c, err := ss.srv.spool([]byte(prefix), r)
	var serr *spoolError
	if errors.As(err, &serr) {
		ss.srv.log.Error("embedded: cannot spool a message", "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Local error in processing, try again later"}
	}
	if err != nil {
		return err
	}
	defer c.discard()
	if err := ss.srv.deliver(ss.from, ss.to, c); err != nil {
		if errors.Is(err, ErrNoSuchAccount) {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user here"}
		}
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Local error in processing, try again later"}
	}
	return nil
}

// received returns the trace header of RFC 5321 section 4.4, folded.
func (ss *smtpSession) received(now time.Time) string {
	remote := "unknown"
	if addr := ss.conn.Conn().RemoteAddr(); addr != nil {
		if host, _, err := net.SplitHostPort(addr.String()); err == nil {
			remote = host
		}
	}
	helo := ss.conn.Hostname()
	if helo == "" {
		helo = "unknown"
	}
	with := "ESMTP"
	if ss.user != "" {
		with = "ESMTPA" // RFC 3848
	}
	var id [8]byte
	rand.Read(id[:])
	var b strings.Builder
	fmt.Fprintf(&b, "Received: from %s ([%s])\r\n\tby %s (herald embedded) with %s id %s", helo, remote, smtpDomain, with, hex.EncodeToString(id[:]))
	if len(ss.to) == 1 {
		fmt.Fprintf(&b, "\r\n\tfor <%s>", ss.to[0])
	}
	fmt.Fprintf(&b, ";\r\n\t%s\r\n", now.Format(time.RFC1123Z))
	return b.String()
}

func (ss *smtpSession) Reset() {
	ss.from = ""
	ss.to = nil
}

func (ss *smtpSession) Logout() error { return nil }
