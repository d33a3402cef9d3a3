package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/mail"
)

var cmdServe = &command{
	name: "serve",
	args: "[--config FILE] [--data DIR] [--imap-host H:P --smtp-host H:P --user U --password-file F [--address A]]",
	short: "Run the mail service until interrupted. Players mail their moves to herald's address;\n" +
		"herald applies them and mails everyone the new board.\n\n" +
		"With no --imap-host, herald runs its own IMAP and SMTP servers on 127.0.0.1 (ports\n" +
		"printed; mail kept in DIR/mail) and opens an account for every player of a game\n" +
		"started by mail, so it works on a fresh machine and a mail client can connect.\n" +
		"Start a game by mailing herald a line: new raubritter players alice@herald.local bob@herald.local\n\n" +
		"--config FILE reads the flags from a YAML file, keys named like the flags (hosts a list,\n" +
		"poll a duration like 1m); flags on the command line win. Its relative paths are relative\n" +
		"to its directory. It may not hold the password: give password-file.",
	flags: func(fs *flag.FlagSet) {
		fs.String("config", "", "read flags from this YAML `file` (command-line flags win)")
		fs.String("data", "herald-data", "data `directory`: the database herald.db (and the embedded mail)")
		fs.String("worker", "", "this worker's `name` among the serve workers sharing a --store: a worker restarted under its name\ntakes back at once the mails it had claimed; two live workers never share one (default with --store:\nthe host's name and the data directory, HOST:DIR)")
		fs.String("store", "", "where games are kept: empty for herald.db (SQLite) in the data directory, or a PostgreSQL `URL`\n(postgres://USER@HOST/DATABASE) that several serve workers share")
		fs.String("address", "", "herald's mail `address` (default herald@herald.local on the embedded setup; required with a provider)")
		fs.String("imap-host", "", "the provider's IMAP server `host:port`; empty runs the embedded servers")
		fs.String("smtp-host", "", "the provider's SMTP server `host:port`")
		fs.String("user", "", "login for both servers (default: the address)")
		fs.String("password-file", "", "`file` holding the password (first line)")
		serveAuthFlags(fs)
		fs.String("security", "tls", "tls (implicit), starttls, or none (loopback servers only)")
		fs.Duration("poll", 30*time.Second, "polling interval when the IMAP server has no IDLE")
		fs.String("hosts", "", "comma-separated addresses allowed to start games (default: anyone)")
		fs.String("local-imap", "127.0.0.1:0", "embedded IMAP server `address`")
		fs.String("local-smtp", "127.0.0.1:0", "embedded SMTP server `address`")
		fs.String("http", "", "serve each game's read-only web page on this `address`, like 127.0.0.1:8080")
		fs.String("http-url", "", "the `URL` players reach --http by, when not http://ADDRESS (behind a proxy)")
		fs.String("pictures", "on", "on: mails about the board carry a picture of it (PNG, inline); off for text alone")
		fs.String("hints", "off", "on: a player may mail hint for the bot's suggestion for their own seat (RULINGS.md H-6)")
		fs.String("send-rate", "", "send at most this many mails in a time, like 100/h, 30/min or 2000/d (default: no limit; see README's presets)")
		fs.String("trust-authserv-id", "", "comma-separated authserv-ids of your provider's receiving servers: their Authentication-Results\nDMARC verdict is trusted (fail: refused as forged), every other such header ignored")
		fs.Bool("require-dmarc", false, "refuse every mail whose DMARC result from --trust-authserv-id is not pass\n(nor, with --verify-dkim, has a valid DKIM signature of its From domain)")
		fs.Bool("verify-dkim", false, "verify incoming mail's DKIM signatures (DNS lookups), for a provider that stamps no\nAuthentication-Results: a valid signature of the From domain proves the sender, a broken one is forged")
		fs.String("reply-tokens", "on", "on: every mail to a player has a Reply-To herald+gN.TOKEN@ that authenticates their replies;\noff for a provider without plus-addressing (the key line still works)")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("serve takes no arguments")
		}
		cfg, err := serveConfig(e)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
			return err
		}
		cfg.Local = startEmbedded
		if cfg.OpenStore, err = serveStore(e.str("store")); err != nil {
			return err
		}
		if cfg.SMTP.Worker = e.str("worker"); cfg.SMTP.Worker == "" && e.str("store") != "" {
			cfg.SMTP.Worker = workerName(cfg.Dir)
		}
		ctx, lose := context.WithCancelCause(ctx)
		defer lose(nil)
		cfg.OpenStore = enlisting(cfg.OpenStore, cfg.SMTP.Worker, cfg.Logger, lose)
		// HERALD_CLOCK_SHIFT runs serve's clock ahead by a duration: the
		// deadlines of days come at once (for tests, never for a host).
		if d := os.Getenv("HERALD_CLOCK_SHIFT"); d != "" {
			shift, err := time.ParseDuration(d)
			if err != nil {
				return fmt.Errorf("HERALD_CLOCK_SHIFT: %v", err)
			}
			cfg.Now = func() time.Time { return time.Now().Add(shift) }
		}
		var pages *webPages
		if addr := e.str("http"); addr != "" {
			if pages, err = listenWeb(addr, e.str("http-url")); err != nil {
				return err
			}
			defer pages.close()
			cfg.PageURL = pages.pageURL
			if err := pages.remember(cfg.Dir); err != nil {
				return err
			}
		} else if e.str("http-url") != "" {
			return usagef("--http-url needs --http")
		} else if err := forgetPages(cfg.Dir); err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		r, err := mail.Start(ctx, cfg)
		if err != nil {
			return err
		}
		defer r.Close()
		fmt.Fprintf(e.stdout, "herald serve: data in %s, address %s\n", cfg.Dir, r.Address)
		if pages != nil {
			pages.serve(r.Store, cfg.Registry, cfg.Logger)
			fmt.Fprintf(e.stdout, "games' pages: %s/g/...\n", pages.base)
		}
		if r.Embedded != nil {
			fmt.Fprintf(e.stdout, "embedded mail: IMAP %s, SMTP %s (plain, loopback only)\n", r.Embedded.IMAPAddr(), r.Embedded.SMTPAddr())
			fmt.Fprintf(e.stdout, "herald's account: %s, password %s\n", r.Address, r.Password)
			fmt.Fprintf(e.stdout, "start a game: mail %s the line\n  new raubritter players alice@herald.local bob@herald.local\n", r.Address)
		}
		fmt.Fprintf(e.stdout, "interrupt (Ctrl-C) to stop\n")
		if err := r.Wait(ctx); err != nil {
			return err
		}
		if cause := context.Cause(ctx); errors.Is(cause, errNameLost) {
			return cause
		}
		return nil
	},
}

// serveConfig returns the configuration of herald serve from its flags,
// after those of the --config file that the command line did not set.
func serveConfig(e *env) (mail.RunConfig, error) {
	if path := e.str("config"); path != "" {
		if err := applyServeConfig(e.fs, path); err != nil {
			return mail.RunConfig{}, err
		}
	}
	cfg := mail.RunConfig{
		Dir:              e.str("data"),
		Address:          e.str("address"),
		Registry:         games.All,
		Logger:           slog.New(slog.NewTextHandler(e.stderr, nil)),
		EmbeddedIMAPAddr: e.str("local-imap"),
		EmbeddedSMTPAddr: e.str("local-smtp"),
	}
	switch e.str("pictures") {
	case "on":
	case "off":
		cfg.NoPictures = true
	default:
		return mail.RunConfig{}, usagef("--pictures %q: expected on or off", e.str("pictures"))
	}
	switch e.str("reply-tokens") {
	case "on":
	case "off":
		cfg.NoReplyTokens = true
	default:
		return mail.RunConfig{}, usagef("--reply-tokens %q: expected on or off", e.str("reply-tokens"))
	}
	switch e.str("hints") {
	case "off":
	case "on":
		cfg.Hints = true
	default:
		return mail.RunConfig{}, usagef("--hints %q: expected on or off", e.str("hints"))
	}
	if h := e.str("hosts"); h != "" {
		for _, a := range strings.Split(h, ",") {
			addr, err := host.ParseAddress(strings.TrimSpace(a))
			if err != nil {
				return cfg, usagef("--hosts: %v", err)
			}
			cfg.Hosts = append(cfg.Hosts, addr)
		}
	}
	if err := senderConfig(e, &cfg); err != nil {
		return cfg, err
	}
	poll := e.fs.Lookup("poll").Value.(flag.Getter).Get().(time.Duration)
	cfg.IMAP.Poll = poll
	if e.str("imap-host") == "" {
		if e.str("smtp-host") != "" {
			return cfg, usagef("--smtp-host needs --imap-host too (or neither, for the embedded servers)")
		}
		return cfg, nil
	}
	if e.str("smtp-host") == "" || e.str("address") == "" {
		return cfg, usagef("a provider needs --imap-host, --smtp-host, --address and --password-file (or --auth oauth2)")
	}
	sec := mail.Security(e.str("security"))
	if sec != mail.TLS && sec != mail.StartTLS && sec != mail.Plain {
		return cfg, usagef("--security %q: expected tls, starttls or none", sec)
	}
	password, tokens, err := serveAuth(e)
	if err != nil {
		return cfg, err
	}
	user := e.str("user")
	if user == "" {
		user = e.str("address")
	}
	cfg.IMAP.Server = mail.Server{Addr: e.str("imap-host"), Security: sec, Username: user, Password: password, OAuth: tokens}
	cfg.SMTP.Server = mail.Server{Addr: e.str("smtp-host"), Security: sec, Username: user, Password: password, OAuth: tokens}
	return cfg, nil
}

var cmdDemo = &command{
	name: "demo",
	args: "GAME [--players N] [--seed S] [--record FILE] [-q]",
	short: "Play a whole game by mail on the embedded servers: herald serves, and scripted players\n" +
		"read their mail over IMAP and answer their turns over SMTP with a legal step (as a YAML\n" +
		"turn file). Prints the first player's mail conversation; --record writes the final record,\n" +
		"which herald adjudicate accepts.",
	flags: func(fs *flag.FlagSet) {
		fs.Int("players", 2, "number of players")
		fs.String("seed", "1", "the game's seed and the players' choices")
		fs.String("record", "", "write the final game record to `file`")
		fs.Bool("q", false, "print only the summary, not the conversation")
		fs.Bool("v", false, "log the service's work on stderr")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("demo needs exactly one GAME")
		}
		g, err := games.All.Lookup(args[0])
		if err != nil {
			return usagef("%v", err)
		}
		n, _ := strconv.Atoi(e.str("players"))
		if n < g.MinPlayers || n > g.MaxPlayers {
			return usagef("%s is for %d to %d players", g.Name, g.MinPlayers, g.MaxPlayers)
		}
		dir, err := os.MkdirTemp("", "herald-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		var logw io.Writer = io.Discard
		if e.bool("v") {
			logw = e.stderr
		}
		logger := slog.New(slog.NewTextHandler(logw, nil))
		seed := e.str("seed")
		r, err := mail.Start(ctx, mail.RunConfig{
			Dir: dir, Registry: games.All, Logger: logger,
			PlayerPassword: func(string) string { return "demo" },
			NewSeed:        func() string { return seed },
			Local:          startEmbedded,
			OpenStore:      openSQLite,
		})
		if err != nil {
			return err
		}
		defer r.Close()
		players := make([]string, n)
		for i := range players {
			players[i] = fmt.Sprintf("p%d@herald.local", i+1)
		}
		for _, a := range append([]string{"host@herald.local"}, players...) {
			if err := r.Embedded.AddAccount(a, "demo"); err != nil {
				return err
			}
		}
		cfg := mail.DemoConfig{
			Game: g.Name, Players: players, Host: "host@herald.local", Herald: r.Address,
			Password: func(string) string { return "demo" },
			IMAPAddr: r.Embedded.IMAPAddr(), SMTPAddr: r.Embedded.SMTPAddr(), Seed: seed,
		}
		if !e.bool("q") {
			cfg.Transcript = e.stdout
		}
		res, err := mail.RunDemo(ctx, cfg)
		if err != nil {
			return err
		}
		if res.Record == nil {
			return errors.New("demo: no final record")
		}
		rep, err := adjudicator.Adjudicate(games.All, res.Record)
		if err != nil {
			return err
		}
		if rep.Illegal != nil {
			return fmt.Errorf("demo: the mailed record has an illegal move %d", rep.Illegal.Number)
		}
		if path := e.str("record"); path != "" {
			if err := writeRecord(e, res.Record, path, true); err != nil {
				return err
			}
		}
		fmt.Fprintf(e.stdout, "demo: %s by mail between %s: %d moves; scores %s; %s\n", g.Title, strings.Join(players, ", "),
			len(res.Record.Moves), adjudicator.FormatScores(rep.Match.Seats(), rep.Match.State.Scores()), rep.Match.State.Result().Summary)
		return nil
	},
}

// senderConfig sets the sending limit and the provider's verdict on
// senders (issue 31) from serve's flags.
func senderConfig(e *env, cfg *mail.RunConfig) error {
	rate, err := mail.ParseRate(e.str("send-rate"))
	if err != nil {
		return usagef("--send-rate: %v", err)
	}
	cfg.SMTP.Rate = rate
	for _, id := range strings.Split(e.str("trust-authserv-id"), ",") {
		if id = strings.TrimSpace(id); id != "" {
			if strings.ContainsAny(id, " ;()\"@") {
				return usagef("--trust-authserv-id: %q is not an authserv-id (a host name, like mx.example.org)", id)
			}
			cfg.TrustAuthservIDs = append(cfg.TrustAuthservIDs, id)
		}
	}
	cfg.RequireDMARC = e.fs.Lookup("require-dmarc").Value.(flag.Getter).Get().(bool)
	cfg.VerifyDKIM = e.fs.Lookup("verify-dkim").Value.(flag.Getter).Get().(bool)
	if cfg.RequireDMARC && len(cfg.TrustAuthservIDs) == 0 && !cfg.VerifyDKIM {
		return usagef("--require-dmarc needs --trust-authserv-id (the servers whose DMARC verdict herald trusts) or --verify-dkim")
	}
	return nil
}
