package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/heraldgames/herald/adjudicator/store"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

var cmdBackup = &command{
	name: "backup",
	args: "--data DIR --to FILE",
	short: "Copy the database of DIR (DIR/herald.db) to FILE, a new file (mode 0600), consistent and\n" +
		"whole, while serve runs: SQLite's VACUUM INTO reads one snapshot of the database as its\n" +
		"writers go on. The copy is checked (integrity, games) before it is named FILE. To restore:\n" +
		"stop serve, put FILE in place of DIR/herald.db (remove herald.db-wal and herald.db-shm),\n" +
		"start serve.",
	flags: func(fs *flag.FlagSet) {
		fs.String("data", "herald-data", "the data `directory` serve uses")
		fs.String("to", "", "the backup `file` to write; it must not exist")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("backup takes no arguments")
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
