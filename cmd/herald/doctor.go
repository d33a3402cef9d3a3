package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/heraldgames/herald/mail"
)

var cmdDoctor = &command{
	name: "doctor",
	args: "[--config FILE] [serve's flags] [--wait D]",
	short: "Check serve's configuration end to end and say what to fix: the IMAP server reachable,\n" +
		"TLS as configured (and what the server offers when it is not), login, IDLE and MOVE,\n" +
		"the folders herald needs; the SMTP server, TLS, login; a mail sent to herald's own\n" +
		"address coming back to its INBOX, and one to address+tag when reply tokens are on\n" +
		"(plus-addressing); the clock against the mail server's; the data directory.\n" +
		"Its test mails are deleted once found; stop serve first, or it may take them.\n" +
		"Exit 0 when serve would work (warnings allowed), 1 when it would not.",
	flags: func(fs *flag.FlagSet) {
		cmdServe.flags(fs)
		fs.Duration("wait", time.Minute, "how long a test mail may take to arrive")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("doctor takes no arguments")
		}
		problems := 0
		defer func() {
			if problems == 0 {
				fmt.Fprintf(e.stdout, "herald doctor: serve would work\n")
			}
		}()
		report := func(f mail.Finding) {
			if f.Status == mail.Fail {
				problems++
			}
			fmt.Fprintf(e.stdout, "%-4s  %s\n", f.Status, f.What)
			if f.Fix != "" {
				fmt.Fprintf(e.stdout, "      fix: %s\n", f.Fix)
			}
		}
		cfg, err := serveConfig(e)
		var ue *usageError
		if errors.As(err, &ue) {
			report(mail.Finding{Status: mail.Fail, What: "the configuration: " + ue.msg, Fix: "see herald serve --help"})
			return doctorVerdict(problems)
		} else if err != nil {
			report(mail.Finding{Status: mail.Fail, What: "the configuration: " + err.Error(), Fix: "make the file readable by the user herald runs as"})
			return doctorVerdict(problems)
		}
		for _, f := range checkDataDir(cfg.Dir) {
			report(f)
		}
		if cfg.IMAP.Server.Addr == "" {
			report(mail.Finding{Status: mail.OK, What: "no provider configured: serve runs its embedded mail servers on loopback, nothing more to check"})
			return doctorVerdict(problems)
		}
		wait := e.fs.Lookup("wait").Value.(flag.Getter).Get().(time.Duration)
		mail.Doctor(ctx, mail.DoctorConfig{
			IMAP: cfg.IMAP.Server, SMTP: cfg.SMTP.Server, Address: cfg.Address,
			ReplyTokens: !cfg.NoReplyTokens, Wait: wait,
		}, report)
		return doctorVerdict(problems)
	},
}

// doctorVerdict is doctor's last line and exit status.
func doctorVerdict(problems int) error {
	if problems == 0 {
		return nil
	}
	return &rejected{fmt.Sprintf("herald doctor: %d problem(s): serve would not work until they are fixed", problems)}
}

// checkDataDir checks that serve can keep its data in dir: there or
// creatable, writable, and closed to others.
func checkDataDir(dir string) []mail.Finding {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		parent := filepath.Dir(dir)
		if err := writable(parent); err != nil {
			return []mail.Finding{{Status: mail.Fail, What: fmt.Sprintf("the data directory %s does not exist, and %s cannot be written to make it: %v", dir, parent, err),
				Fix: fmt.Sprintf("create it for the user herald runs as: install -d -m 700 -o USER %s", dir)}}
		}
		return []mail.Finding{{Status: mail.OK, What: fmt.Sprintf("the data directory %s does not exist yet; serve will make it (mode 0700)", dir)}}
	}
	if err != nil {
		return []mail.Finding{{Status: mail.Fail, What: fmt.Sprintf("the data directory %s: %v", dir, err), Fix: "give data: a directory herald can use"}}
	}
	if !fi.IsDir() {
		return []mail.Finding{{Status: mail.Fail, What: fmt.Sprintf("the data directory %s is not a directory", dir), Fix: "give data: a directory"}}
	}
	if err := writable(dir); err != nil {
		return []mail.Finding{{Status: mail.Fail, What: fmt.Sprintf("the data directory %s cannot be written: %v", dir, err),
			Fix: fmt.Sprintf("make it the herald user's: chown USER %s; chmod 700 %s", dir, dir)}}
	}
	var out []mail.Finding
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		out = append(out, mail.Finding{Status: mail.Warn, What: fmt.Sprintf("the data directory %s is open to others (mode %04o): it holds games, keys and tokens", dir, perm),
			Fix: "chmod 700 " + dir})
	} else {
		out = append(out, mail.Finding{Status: mail.OK, What: fmt.Sprintf("the data directory %s is writable and closed to others", dir)})
	}
	if db := filepath.Join(dir, "herald.db"); fileExists(db) {
		if err := writable(dir); err == nil {
			if f, err := os.OpenFile(db, os.O_RDWR, 0); err != nil {
				out = append(out, mail.Finding{Status: mail.Fail, What: fmt.Sprintf("the database %s cannot be opened for writing: %v", db, err),
					Fix: "make it the herald user's: chown USER " + db})
			} else {
				f.Close()
			}
		}
	}
	return out
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// writable checks that a file can be made in dir.
func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".herald-doctor-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
