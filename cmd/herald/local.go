package main

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/heraldgames/herald/mail"
	"github.com/heraldgames/herald/mail/embedded"
)

// startEmbedded runs herald's embedded IMAP and SMTP servers: the mail
// service's local servers when no provider is given (mail.RunConfig.Local).
func startEmbedded(dir, imapAddr, smtpAddr string, herald mail.LocalAccount, log *slog.Logger) (mail.LocalServers, error) {
	srv, err := embedded.Start(embedded.Config{
		Dir: dir, IMAPAddr: imapAddr, SMTPAddr: smtpAddr, Logger: log,
		Accounts: []embedded.Account{{Address: herald.Address, Password: herald.Password}},
	})
	if errors.Is(err, embedded.ErrAccountExists) {
		err = fmt.Errorf("%w (remove %s to start afresh)", err, filepath.Clean(dir))
	}
	if err != nil {
		return nil, err
	}
	return srv, nil
}
