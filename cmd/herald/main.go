// Command herald adjudicates board games played by email or by turn files.
//
// Usage:
//
//	herald games                                   list games, player counts, options
//	herald new GAME --players a,b[,c,d|bot:L] [--seed S] [--opt k=v] [--position POS.yaml] -o FILE
//	herald show FILE [--as PLAYER] [--format text|json|position]
//	herald legal FILE --as PLAYER                  one legal step per line, in notation
//	herald hint FILE --as PLAYER [--level L]       the bot's suggestion, from PLAYER's view only
//	herald move FILE --as PLAYER 'STEPS'           apply; FILE is rewritten atomically
//	herald turn TURN.yaml --game FILE              apply a YAML turn file
//	herald adjudicate FILE                         replay and judge every move
//	herald play GAME --players N [--seed S] [--bots] [-o FILE [--force]]  self-play: random legal moves, or bots
//	herald scenario [-v] FILE...                   run scenario files
//	herald serve [--config FILE] [flags]           the mail service
//	herald demo GAME [--players N] [--seed S]      a whole game by mail on the embedded servers
//	herald export --db DIR G12 [-o FILE]           a mail game's record
//	herald doctor [--config FILE] [flags]          check serve's configuration end to end
//	herald oauth login --provider google|microsoft  obtain serve's OAuth2 refresh token
//	herald backup --data DIR --to FILE             copy the database while serve runs
//
// Exit status: 0 done; 1 the move, turn, record or scenario was rejected
// (the reason on stderr, every file unchanged; scenario's results and
// summary all on stdout, as go test's); 2 usage error.
//
// herald new never overwrites a file. move and turn hold FILE.lock, beside
// the record, while they read and rewrite it, so that two at once on one
// record apply one after the other (lock.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand.
type command struct {
	name  string
	args  string // the synopsis after the name
	short string
	flags func(fs *flag.FlagSet) // declares the flags; values are read with lookup
	run   func(ctx context.Context, e *env, args []string) error
}

// env is what a subcommand runs with.
type env struct {
	fs     *flag.FlagSet
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

func (e *env) str(name string) string { return e.fs.Lookup(name).Value.String() }

func (e *env) bool(name string) bool { return e.fs.Lookup(name).Value.String() == "true" }

// usageError is a mistake in the command line: exit 2 with help.
type usageError struct{ msg string }

func (u *usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// rejected is a move, turn, record or scenario that was refused: exit 1.
// Its message is already written for people, and goes to stderr unless
// it is "" (said already, as scenario says its summary on stdout).
type rejected struct{ msg string }

func (r *rejected) Error() string { return r.msg }

var commands []*command

func init() {
	commands = []*command{cmdGames, cmdNew, cmdShow, cmdLegal, cmdHint, cmdMove, cmdTurn, cmdAdjudicate, cmdPlay, cmdScenario, cmdExport, cmdServe, cmdMigrate, cmdFailed, cmdDemo, cmdOAuth, cmdDoctor, cmdBackup}
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "herald adjudicates board games played by email or by turn files.\n\nusage:\n")
	for _, c := range commands {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  herald %-10s %s", c.name, c.args), " "))
	}
	fmt.Fprintf(w, "\nRun 'herald COMMAND --help' for a command's flags.\nExit status: 0 done, 1 rejected (files unchanged), 2 usage error.\n")
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if args[0] == "help" && len(args) > 1 {
			// "herald help move" is "herald move --help".
			return run(ctx, []string{args[1], "--help"}, stdin, stdout, stderr)
		}
		usage(stdout)
		return 0
	}
	var cmd *command
	for _, c := range commands {
		if c.name == args[0] {
			cmd = c
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "herald: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	fs := flag.NewFlagSet("herald "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if cmd.flags != nil {
		cmd.flags(fs)
	}
	cmdUsage := func(w io.Writer) {
		fmt.Fprintf(w, "usage: %s\n\n%s\n", strings.TrimSpace("herald "+cmd.name+" "+cmd.args), cmd.short)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintf(w, "\nflags:\n")
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	pos, err := parseInterleaved(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		cmdUsage(stdout)
		return 0
	}
	if err == nil {
		e := &env{fs: fs, stdin: stdin, stdout: stdout, stderr: stderr}
		err = cmd.run(ctx, e, pos)
	}
	var ue *usageError
	var rj *rejected
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "herald %s: %s\n\n", cmd.name, ue.msg)
		cmdUsage(stderr)
		return 2
	case errors.As(err, &rj):
		fmt.Fprint(stderr, rj.msg)
		if rj.msg != "" && !strings.HasSuffix(rj.msg, "\n") {
			fmt.Fprintln(stderr)
		}
		return 1
	default:
		fmt.Fprintf(stderr, "herald %s: %v\n", cmd.name, err)
		return 1
	}
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments ("herald move game.yaml --as alice 'end'"). "--"
// ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usagef("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		// fs.Parse stops at the first positional argument, or after "--".
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return pos, nil
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// parseOpts reads k=v pairs; a value @FILE is the file's contents.
func parseOpts(opts []string) (map[string]string, error) {
	out := map[string]string{}
	for _, o := range opts {
		k, v, ok := strings.Cut(o, "=")
		if !ok || k == "" {
			return nil, usagef("--opt %q: expected name=value", o)
		}
		if _, dup := out[k]; dup {
			return nil, usagef("--opt %s given twice", k)
		}
		if file, ok := strings.CutPrefix(v, "@"); ok {
			// A data file's contents go into the record, which stays
			// self-contained: adjudicate needs nothing else.
			data, err := readLimited(file)
			if err != nil {
				return nil, usagef("--opt %s=@%s: %v", k, file, err)
			}
			v = string(data)
		}
		out[k] = v
	}
	return out, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
