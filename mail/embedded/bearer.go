package embedded

// OAuth2 logins (Config.Bearer): SASL OAUTHBEARER (RFC 7628) and XOAUTH2,
// the mechanisms of Google's and Microsoft's servers, on IMAP AUTHENTICATE
// and SMTP AUTH. A refused token gets the JSON challenge those servers
// send, then the failure.

import (
	"bytes"
	"errors"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
)

// xoauth2 is the name of the SASL mechanism XOAUTH2.
const xoauth2 = "XOAUTH2"

var _ imapserver.SessionSASL = (*imapSession)(nil)

// mechanisms returns the SASL mechanisms both servers offer.
func (s *Server) mechanisms() []string {
	if s.cfg.Bearer == nil {
		return []string{sasl.Plain}
	}
	return []string{sasl.Plain, sasl.OAuthBearer, xoauth2}
}

// bearerAccount returns the account that token opens for username, or
// nil; proto names the server for the log, which never has the token.
func (s *Server) bearerAccount(proto, username, token string) *account {
	a := s.lookup(username)
	if a == nil || s.cfg.Bearer == nil || s.cfg.Bearer(username, token) != nil {
		s.log.Info("embedded: "+proto+" oauth2 login failed", "user", username)
		return nil
	}
	return a
}

// bearerServer returns the SASL server of mech (OAUTHBEARER or XOAUTH2)
// that logs in through ok, which returns false for a refused token; its
// failures are failed, the protocol's "authentication failed".
func bearerServer(mech string, ok func(username, token string) bool, failed error) sasl.Server {
	return failAs{bearerMechServer(mech, ok), failed}
}

// failAs is a SASL server whose every failure is err.
type failAs struct {
	sasl.Server
	err error
}

func (f failAs) Next(response []byte) ([]byte, bool, error) {
	challenge, done, err := f.Server.Next(response)
	if err != nil {
		return nil, true, f.err
	}
	return challenge, done, nil
}

func bearerMechServer(mech string, ok func(username, token string) bool) sasl.Server {
	if mech == sasl.OAuthBearer {
		return sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if !ok(o.Username, o.Token) {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})
	}
	return &xoauth2Server{ok: ok}
}

// xoauth2Server is the server side of XOAUTH2: the initial response is
// "user=U\x01auth=Bearer T\x01\x01"; a refused token gets a JSON
// challenge, and the client's empty answer to it the failure.
type xoauth2Server struct {
	ok      func(username, token string) bool
	refused bool
}

var errBearerRefused = errors.New("embedded: access token refused")

func (x *xoauth2Server) Next(response []byte) ([]byte, bool, error) {
	if x.refused {
		return nil, true, errBearerRefused
	}
	if response == nil {
		return []byte{}, false, nil // ask for the initial response
	}
	var user, token string
	for _, f := range bytes.Split(response, []byte{1}) {
		k, v, _ := strings.Cut(string(f), "=")
		switch k {
		case "user":
			user = v
		case "auth":
			if t, ok := strings.CutPrefix(v, "Bearer "); ok {
				token = t
			}
		}
	}
	if user == "" || token == "" || !x.ok(user, token) {
		x.refused = true
		return []byte(`{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}`), false, nil
	}
	return nil, true, nil
}

// AuthenticateMechanisms is imapserver's SessionSASL hook.
func (sess *imapSession) AuthenticateMechanisms() []string { return sess.srv.mechanisms() }

// Authenticate is imapserver's SessionSASL hook.
func (sess *imapSession) Authenticate(mech string) (sasl.Server, error) {
	switch {
	case strings.EqualFold(mech, sasl.Plain):
		// As imapserver does for a session without SASL of its own.
		return sasl.NewPlainServer(func(identity, username, password string) error {
			if identity != "" && identity != username {
				return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthorizationFailed, Text: "SASL identity not supported"}
			}
			return sess.Login(username, password)
		}), nil
	case sess.srv.cfg.Bearer != nil && (strings.EqualFold(mech, sasl.OAuthBearer) || strings.EqualFold(mech, xoauth2)):
		return bearerServer(strings.ToUpper(mech), func(username, token string) bool {
			a := sess.srv.bearerAccount("IMAP", username, token)
			if a != nil {
				sess.acct = a
			}
			return a != nil
		}, imapserver.ErrAuthFailed), nil
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
}
