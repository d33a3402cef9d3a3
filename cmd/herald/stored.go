package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/heraldgames/herald/adjudicator/bot"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/host"
	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/adjudicator/store/postgres"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/mail"
)

// openStore opens the database of a serve data directory, which must
// exist: a read must not create an empty one by mistake; or, for workers
// on PostgreSQL, the database dir names (postgres://…).
func openStore(ctx context.Context, dir string) (host.Store, error) {
	if postgres.IsURL(dir) {
		return postgres.Open(ctx, dir)
	}
	path := filepath.Join(dir, "herald.db")
	if _, err := os.Stat(path); err != nil {
		return nil, usagef("%s: no herald database here (herald serve --data %s creates it)", dir, dir)
	}
	return store.Open(ctx, path)
}

func parseGameID(s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(strings.ToUpper(s), "G"), 10, 64)
	if err != nil || id <= 0 {
		return 0, usagef("%q is not a game id; ids look like G12", s)
	}
	return id, nil
}

func listStored(ctx context.Context, e *env, dir string) error {
	st, err := openStore(ctx, dir)
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.Games(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "no games yet")
	}
	for _, g := range list {
		fmt.Fprintf(e.stdout, "G%-4d %-12s %-9s %s  (updated %s)\n", g.ID, g.Game, g.Status,
			strings.Join(g.Players, ", "), g.Updated.Format("2006-01-02 15:04"))
		if len(g.Undeliverable) > 0 {
			fmt.Fprintf(e.stdout, "      undeliverable: %s (mail to them bounces)\n", strings.Join(g.Undeliverable, ", "))
		}
	}
	return nil
}

// storedGameErr is the error of reading game id from the store in dir:
// "no game G3" when there is none, the store's own error otherwise (a
// damaged record, a database a newer herald wrote), never hidden behind
// "no game".
func storedGameErr(dir string, id int64, err error) error {
	if errors.Is(err, host.ErrNoGame) {
		return &rejected{fmt.Sprintf("%s: no game G%d", dir, id)}
	}
	return fmt.Errorf("%s: game G%d: %w", dir, id, err)
}

func loadStored(ctx context.Context, dir, gameID string) (*adjudicator.Match, error) {
	id, err := parseGameID(gameID)
	if err != nil {
		return nil, err
	}
	st, err := openStore(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	g, err := st.Game(ctx, id)
	if err != nil {
		return nil, storedGameErr(dir, id, err)
	}
	return adjudicator.Start(games.All, g.Record)
}

var cmdExport = &command{
	name: "export",
	args: "--db DIR G12 [-o FILE] [--public]",
	short: "Write game G12 of a mail service's data directory as a YAML record, which herald\n" +
		"adjudicate and every other command accept. The record holds the seed (it is the host's\n" +
		"copy) unless --public is given and the game is still running.",
	flags: func(fs *flag.FlagSet) {
		fs.String("db", "herald-data", "the data `directory` of herald serve")
		fs.String("o", "", "write to `file` instead of standard output (which must not exist)")
		fs.Bool("public", false, "leave the seed out while the game runs, for sharing with players")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("export needs exactly one game id, like G12")
		}
		id, err := parseGameID(args[0])
		if err != nil {
			return err
		}
		st, err := openStore(ctx, e.str("db"))
		if err != nil {
			return err
		}
		defer st.Close()
		g, err := st.Game(ctx, id)
		if err != nil {
			return storedGameErr(e.str("db"), id, err)
		}
		rec := g.Record
		if e.bool("public") && g.Status == host.Playing {
			m, err := adjudicator.Start(games.All, g.Record)
			if err != nil {
				return fmt.Errorf("game %s does not replay: %w", host.Tag(id), err)
			}
			if rec, err = m.PublicRecord(games.All); err != nil {
				return err
			}
		}
		data, err := rec.Marshal()
		if err != nil {
			return err
		}
		out := e.str("o")
		if out == "" {
			_, err = e.stdout.Write(data)
			return err
		}
		if err := createNew(out, data, 0o600); errors.Is(err, fs.ErrExist) {
			return usagef("%s exists; choose another file", out)
		} else if err != nil {
			return err
		}
		return nil
	},
}

// newByMail creates a game in a serve data directory (herald new --mail).
func newByMail(ctx context.Context, e *env, g *adjudicator.Game) error {
	if e.str("players") == "" {
		return usagef("--players is required: the players' mail addresses, like --players alice@x.org,bob@y.org")
	}
	if e.str("o") != "" || e.str("seed") != "" || e.str("position") != "" {
		return usagef("--mail games live in the database: -o, --seed and --position do not apply")
	}
	opts, err := parseOpts(*e.fs.Lookup("opt").Value.(*listFlag))
	if err != nil {
		return err
	}
	players := strings.Split(e.str("players"), ",")
	// The host gets the confirmation and, when they do not play, the host
	// key: by default the first player hosts.
	hostAddr := e.str("host")
	if hostAddr == "" {
		hostAddr = strings.TrimSpace(players[0])
	}
	// Every address is checked before the data directory is touched.
	for i, a := range players {
		if _, isBot, err := bot.ParseSeat(strings.TrimSpace(a)); err != nil {
			return usagef("--players, seat %d: %v", i+1, err)
		} else if isBot {
			continue // a seat the bot plays (RULINGS.md H-6)
		}
		if _, err := host.ParseAddress(strings.TrimSpace(a)); err != nil {
			return usagef("--players, address %d: %v", i+1, err)
		}
	}
	if _, err := host.ParseAddress(strings.TrimSpace(hostAddr)); err != nil {
		return usagef("--host: %v", err)
	}
	dir := e.str("data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tokens, err := mail.ReadReplyTokens(dir) // how the welcomes say to answer, as serve --reply-tokens
	if err != nil {
		return err
	}
	open, err := serveStore(e.str("store"))
	if err != nil {
		return err
	}
	st, err := open(ctx, dir)
	if err != nil {
		return err
	}
	defer st.Close()
	// herald's address: the mails are threaded under it. serve writes
	// the one it runs with into the data directory.
	address := e.str("address")
	if address == "" {
		if address, err = mail.ReadAddress(dir); err != nil {
			return err
		}
	}
	if address == "" {
		address = "herald@herald.local" // serve's own on the embedded setup
	}
	pageURL, err := pageURLIn(dir) // the page's address in the welcomes, as serve --http gives it
	if err != nil {
		return err
	}
	svc, err := mail.NewService(mail.Config{Address: address, Registry: games.All, Store: st, PageURL: pageURL, NoReplyTokens: !tokens})
	if err != nil {
		return err
	}
	var timing host.Timing
	if d := e.str("deadline"); d != "" {
		if timing.Deadline, err = host.ParseSpan(d); err != nil {
			return usagef("--deadline: %v", err)
		}
	}
	if d := e.str("grace"); d != "" {
		if timing.Grace, err = host.ParseSpan(d); err != nil {
			return usagef("--grace: %v", err)
		}
	}
	timing.Policy = e.str("policy")
	if timing.Deadline == 0 && (timing.Grace != 0 || timing.Policy != "") {
		return usagef("--grace and --policy apply to a --deadline")
	}
	id, err := svc.CreateGame(ctx, hostAddr, g.Name, players, opts, timing)
	if err != nil {
		var refused *mail.RefusedError
		if errors.As(err, &refused) {
			return usagef("%v", err)
		}
		return err
	}
	pending, _ := st.Pending(ctx)
	fmt.Fprintf(e.stdout, "game G%d of %s created in %s, hosted by %s; %d mail(s) from %s wait for herald serve --data %s\n",
		id, g.Title, dir, strings.ToLower(hostAddr), pending, address, dir)
	return nil
}
