package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/heraldgames/herald/adjudicator/store/postgres"
)

var cmdMigrate = &command{
	name: "migrate",
	args: "--from DIR --to postgres://USER@HOST/DATABASE",
	short: "Copy the SQLite database of a serve data directory into an empty PostgreSQL database, for\n" +
		"herald serve --store: every game, record, key, token, outbox mail and setting, in one\n" +
		"transaction, checking that both sides count the same rows. It runs once: a database that\n" +
		"was copied into, or where a serve ran, is refused. Stop herald serve first.",
	flags: func(fs *flag.FlagSet) {
		fs.String("from", "", "the data `directory` of herald serve (its herald.db)")
		fs.String("to", "", "the PostgreSQL `URL` to copy into")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("migrate takes no arguments, only --from and --to")
		}
		from, to := e.str("from"), e.str("to")
		if from == "" || to == "" {
			return usagef("migrate needs --from DIR (herald serve's data directory) and --to postgres://USER@HOST/DATABASE")
		}
		if err := checkStoreURL(to); err != nil {
			return usagef("--to: %v", err)
		}
		st, err := postgres.Open(ctx, to)
		if err != nil {
			return err
		}
		defer st.Close()
		copied, err := st.Migrate(ctx, from)
		if errors.Is(err, postgres.ErrMigrated) {
			return &rejected{err.Error()}
		}
		if err != nil {
			return err
		}
		for i, t := range copied.Tables {
			fmt.Fprintf(e.stdout, "%-17s %d rows\n", t, copied.Rows[i])
		}
		fmt.Fprintf(e.stdout, "copied %s into PostgreSQL; the counts agree. Run herald serve --store with that URL.\n", from)
		return nil
	},
}
