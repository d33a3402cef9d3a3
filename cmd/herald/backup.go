package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/heraldgames/herald/adjudicator/store"
	"github.com/heraldgames/herald/adjudicator/store/postgres"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

var cmdBackup = &command{
	name: "backup",
	args: "[--config FILE] --data DIR --to FILE",
	short: "Copy the database of DIR (DIR/herald.db) to FILE, a new file (mode 0600), consistent and\n" +
		"whole, while serve runs: SQLite's VACUUM INTO reads one snapshot of the database as its\n" +
		"writers go on. The copy is checked (integrity, games) before it is named FILE. To restore:\n" +
		"stop serve, put FILE in place of DIR/herald.db (remove herald.db-wal and herald.db-shm),\n" +
		"start serve. Games kept in PostgreSQL (serve --store, or store: in serve's config) are\n" +
		"backed up with pg_dump: backup refuses them, and prints the pg_dump and pg_restore commands.",
	flags: func(fs *flag.FlagSet) {
		fs.String("config", "", "serve's config `file`: its data and store keys, unless given as flags")
		fs.String("data", "herald-data", "the data `directory` serve uses")
		fs.String("store", "", "serve's --store, when the games are in PostgreSQL (`URL`)")
		fs.String("to", "", "the backup `file` to write; it must not exist")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("backup takes no arguments")
		}
		if err := backupConfig(e); err != nil {
			return err
		}
		if url := e.str("store"); url != "" || postgres.IsURL(e.str("data")) {
			if url == "" {
				url = e.str("data")
			}
			if err := checkStoreURL(url); err != nil {
				return usagef("--store: %v", err)
			}
			return errors.New(pgBackupAdvice(url, e.str("to")))
		}
		to := e.str("to")
		if to == "" {
			return usagef("backup needs --to FILE")
		}
		db := filepath.Join(e.str("data"), "herald.db")
		if _, err := os.Stat(db); err != nil {
			return fmt.Errorf("no database to back up: %w", err)
		}
		if _, err := os.Lstat(to); err == nil {
			return fmt.Errorf("%s exists: backup writes a new file (remove it, or give another name)", to)
		}
		n, err := backupDB(ctx, db, to)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "herald backup: %s holds %d game(s), checked\n", to, n)
		return nil
	},
}

// backupDB copies the SQLite database db to the new file to and returns
// how many games the copy holds. The copy is made in a directory of its
// own beside to (mode 0700), checked, made 0600, then renamed to to: no
// one else can read it meanwhile, and to is never a half-made copy.
func backupDB(ctx context.Context, db, to string) (int, error) {
	tmp, err := os.MkdirTemp(filepath.Dir(to), ".herald-backup-*")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	copyPath := filepath.Join(tmp, "herald.db")
	src, err := sql.Open("sqlite", "file:"+db+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, err
	}
	defer src.Close()
	if _, err := src.ExecContext(ctx, "VACUUM INTO ?", copyPath); err != nil {
		return 0, fmt.Errorf("backup of %s: %w", db, err)
	}
	if err := os.Chmod(copyPath, 0o600); err != nil {
		return 0, err
	}
	n, err := checkBackup(ctx, copyPath)
	if err != nil {
		return 0, fmt.Errorf("the copy of %s does not check: %w", db, err)
	}
	if _, err := os.Lstat(to); !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("%s appeared meanwhile: backup writes a new file", to)
	}
	if err := os.Rename(copyPath, to); err != nil {
		return 0, err
	}
	return n, nil
}

// checkBackup checks the database at path (SQLite's integrity check) and
// that herald reads its games; it returns how many there are.
func checkBackup(ctx context.Context, path string) (int, error) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return 0, err
	}
	var verdict string
	err = db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&verdict)
	db.Close()
	if err != nil {
		return 0, err
	}
	if verdict != "ok" {
		return 0, fmt.Errorf("integrity check: %s", verdict)
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	games, err := st.Games(ctx)
	if err != nil {
		return 0, err
	}
	for _, g := range games {
		if _, err := st.Game(ctx, g.ID); err != nil {
			return 0, fmt.Errorf("game %d: %w", g.ID, err)
		}
	}
	return len(games), nil
}

// backupConfig reads the data and store keys of serve's config file
// (--config), for the flags the command line did not set; the file's other
// keys are serve's alone.
func backupConfig(e *env) error {
	if path := e.str("config"); path != "" {
		return applyConfigKeys(e.fs, path, []string{"data", "store"})
	}
	return nil
}

// pgBackupAdvice is backup's answer for games kept in PostgreSQL at url:
// herald does not copy them itself. pg_dump is what a host who runs
// PostgreSQL already knows and trusts: it reads one consistent snapshot
// (a REPEATABLE READ transaction) while the workers go on writing, its
// custom format is restored by pg_restore, and the host's own backups
// (base backups, WAL archiving, replicas) stay the ones that count. The
// commands are given whole, for the database of url (without its
// password, and without pgx's own parameters, which libpq refuses).
func pgBackupAdvice(url, to string) string {
	if to == "" {
		to = "herald.dump"
	} else {
		to = shellQuote(to)
	}
	dump, restore, hadPassword := libpqURLs(url)
	var b strings.Builder
	fmt.Fprintf(&b, "the games are in PostgreSQL (%s), not in a herald.db: herald backup copies SQLite's database alone.\n", dump)
	fmt.Fprintf(&b, "Back PostgreSQL up with pg_dump, which reads one consistent snapshot while the workers go on writing:\n")
	fmt.Fprintf(&b, "  pg_dump --format=custom --file=%s --dbname=%s\n", to, shellQuote(dump))
	fmt.Fprintf(&b, "To restore: create a new, empty database (createdb), load the dump into it, and give serve its URL (--store, or store: in its config):\n")
	fmt.Fprintf(&b, "  pg_restore --exit-on-error --no-owner --dbname=%s %s\n", shellQuote(restore), to)
	if hadPassword {
		fmt.Fprintf(&b, "The password is left out: pg_dump and pg_restore read it from ~/.pgpass (or PGPASSWORD).\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// libpqURLs returns url as pg_dump and pg_restore take it (libpq's URI):
// without its password and without the parameters of pgx and its pool
// (pool_max_conns…), which libpq refuses; and the same for a database
// named as url's with _restored after it, for the restore. hadPassword
// says whether a password was left out.
func libpqURLs(raw string) (dump, restore string, hadPassword bool) {
	u, err := neturl.Parse(raw)
	if err != nil {
		return raw, raw, false
	}
	if u.User != nil {
		if _, hadPassword = u.User.Password(); hadPassword {
			u.User = neturl.User(u.User.Username())
		}
	}
	q := u.Query()
	for k := range q {
		switch {
		case strings.HasPrefix(k, "pool_"), k == "statement_cache_capacity", k == "description_cache_capacity", k == "default_query_exec_mode":
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	dump = u.String()
	db := strings.TrimPrefix(u.Path, "/")
	if db == "" {
		db = u.User.Username() // libpq's default database: the user's name
		if db == "" {
			db = "herald"
		}
	}
	u.Path = "/" + db + "_restored"
	u.RawPath = ""
	return dump, u.String(), hadPassword
}

// shellQuote quotes s for a POSIX shell, when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
