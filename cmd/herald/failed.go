package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/heraldgames/herald/adjudicator/host"
)

var cmdFailed = &command{
	name: "failed",
	args: "[--data DIR]",
	short: "List what herald serve set aside and why: incoming mails that failed the same way three\n" +
		"times (moved to the IMAP folder herald/failed) and outgoing mails it could not render or send.",
	flags: func(fs *flag.FlagSet) {
		fs.String("data", "herald-data", "the data `directory` of herald serve")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 0 {
			return usagef("failed takes no arguments")
		}
		st, err := openStore(ctx, e.str("data"))
		if err != nil {
			return err
		}
		defer st.Close()
		list, err := st.SetAsideList(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(e.stdout, "nothing was set aside")
		}
		for _, f := range list {
			fmt.Fprintln(e.stdout, failedLine(f))
		}
		return nil
	},
}

// failedLine describes a failure set aside, on two lines: when, what and
// whose, then why.
func failedLine(f host.Failure) string {
	what := "incoming mail " + f.Ref + " from " + orUnknown(f.Party) + " (in herald/failed)"
	if f.Kind == host.FailedDraft {
		what = "outgoing mail " + strings.TrimPrefix(f.Ref, "outbox:") + " to " + orUnknown(f.Party)
	}
	if f.Subject != "" {
		what += fmt.Sprintf(", subject %q", f.Subject)
	}
	times := "once"
	if f.Attempts > 1 {
		times = fmt.Sprintf("%d times", f.Attempts)
	}
	return fmt.Sprintf("%s  %s\n  failed %s: %s", f.SetAside.UTC().Format("2006-01-02 15:04:05Z"), what, times, f.Reason)
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown sender"
	}
	return s
}
