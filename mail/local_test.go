package mail

import (
	"log/slog"

	"github.com/heraldgames/herald/mail/embedded"
)

// embeddedLocal is RunConfig.Local for the tests: the embedded servers, as
// cmd/herald wires them in.
func embeddedLocal(dir, imapAddr, smtpAddr string, herald LocalAccount, log *slog.Logger) (LocalServers, error) {
	srv, err := embedded.Start(embedded.Config{
		Dir: dir, IMAPAddr: imapAddr, SMTPAddr: smtpAddr, Logger: log,
		Accounts: []embedded.Account{{Address: herald.Address, Password: herald.Password}},
	})
	if err != nil {
		return nil, err
	}
	return srv, nil
}
