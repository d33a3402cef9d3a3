package adjudicator

import (
	"fmt"
	"io"
	"strings"

	"github.com/heraldgames/herald/notation"
)

// Verdict is the judgement of one recorded submission.
type Verdict struct {
	Number int    // 1-based move number
	Player string // who submitted it
	Text   string // as recorded
	Err    error  // nil when legal
	// Bot is the source of a move a bot made ("bot:2") once it was found
	// to be the move the bot makes there; "" for anyone else's.
	Bot string
}

// Legal reports whether the submission was legal.
func (v Verdict) Legal() bool { return v.Err == nil }

// Report is the outcome of adjudicating a record.
type Report struct {
	Record   *Record
	Match    *Match    // the match replayed up to, not including, the first illegal move
	Verdicts []Verdict // one per submission judged; the last is the illegal one if any
	Illegal  *Verdict  // the first illegal submission, or nil
	// Sealed are the steps that were sealed when taken (sealed bids), with
	// the nonce and commitment their bidders were given.
	Sealed []SealCommit
}

// Adjudicate replays rec from its setup or position and judges every
// submission in order, stopping at the first illegal one. A move a bot
// made (source bot:LEVEL, see [Robot]) is judged illegal unless it is the
// move reg's robot makes there. A record that
// cannot even be started (unknown game, bad seed, bad position) is an error.
func Adjudicate(reg *Registry, rec *Record) (*Report, error) {
	m, err := startEmpty(reg, rec)
	if err != nil {
		return nil, err
	}
	rep := &Report{Record: rec, Match: m}
	for i, mv := range rec.Moves {
		v := Verdict{Number: i + 1, Player: mv.Player, Text: mv.Text}
		want, check, err := robotMove(reg, m, rec, mv)
		var sub *Submission
		if err == nil {
			sub, err = m.apply(mv.Player, mv.Text)
		}
		if err == nil && check && sub.Text() != want {
			err = notTheBot(mv, sub.Text(), want)
		}
		if err == nil && check {
			v.Bot = mv.Source
		}
		if err != nil {
			v.Err = err
			rep.Verdicts = append(rep.Verdicts, v)
			rep.Illegal = &rep.Verdicts[len(rep.Verdicts)-1]
			return rep, nil
		}
		rep.Verdicts = append(rep.Verdicts, v)
		rep.Sealed = append(rep.Sealed, sub.commits(rec.Seed)...)
	}
	return rep, nil
}

// Write prints the report for people: a header saying what was replayed and
// that the seed matches its commitment, one line per submission, then the
// scores and result (or the illegal move in full).
func (r *Report) Write(w io.Writer) {
	rec := r.Record
	from := "from the setup"
	if rec.Position != nil {
		from = "from the position given in the record (not from the setup)"
	}
	players := fmt.Sprintf("%d players", len(rec.Players))
	if len(rec.Players) == 1 {
		players = "1 player" // a solo game
	}
	fmt.Fprintf(w, "%s, %s (%s), replayed %s\n", r.Match.Game.Title, players, strings.Join(rec.Players, ", "), from)
	fmt.Fprintf(w, "seed %q matches its commitment sha256 %s\n", rec.Seed, rec.SeedSHA256)
	switch {
	case rec.Format == 1:
		fmt.Fprintf(w, "record format 1, written before digests: not protected against truncation or edits\n")
	case rec.verified:
		// Only a record read from its file was checked; one built in
		// memory (a store's rows) has nothing to check.
		fmt.Fprintf(w, "record format %d: every move's digest and the seal match (nothing cut or edited)\n", rec.Format)
	}
	width := 0
	for _, p := range r.Match.Seats() {
		width = max(width, len(p))
	}
	for _, v := range r.Verdicts {
		text := strings.ReplaceAll(v.Text, "\n", "; ")
		verdict := "legal"
		if v.Err != nil {
			verdict = "ILLEGAL"
		}
		if v.Bot != "" {
			text += "  (" + v.Bot + ": the bot's move, played again)"
		}
		fmt.Fprintf(w, "%4d  %-*s  %-7s  %s\n", v.Number, width, v.Player, verdict, text)
	}
	for _, u := range rec.Undone {
		fmt.Fprintf(w, "\ntaken back by consent after move %d, asked by %s (RULINGS.md H-5)%s:\n", u.After, u.By, undoWhen(u))
		for i, mv := range u.Moves {
			fmt.Fprintf(w, "%4d  %-*s  undone   %s\n", u.After+i+1, width, mv.Player, strings.ReplaceAll(mv.Text, "\n", "; "))
		}
	}
	if len(r.Sealed) > 0 && rec.Seed != "" {
		fmt.Fprintf(w, "\nsealed steps, each with its nonce and commitment (sha256 of the step, a line feed, the nonce):\n")
		for _, c := range r.Sealed {
			fmt.Fprintf(w, "%4d  %-*s  %s\n      nonce %s  sha256 %s\n", c.Move, width, c.Player, c.Text, c.Nonce, c.Hash)
		}
	}
	if r.Illegal != nil {
		fmt.Fprintf(w, "\nmove %d by %s is illegal:\n", r.Illegal.Number, r.Illegal.Player)
		for _, line := range strings.Split(strings.TrimRight(Pretty(r.Illegal.Err, notation.English), "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
		fmt.Fprintf(w, "the game stands as after move %d; %d later move(s) not judged\n",
			r.Illegal.Number-1, len(rec.Moves)-r.Illegal.Number)
		return
	}
	st := r.Match.State
	fmt.Fprintf(w, "scores: %s\n", FormatScores(r.Match.Seats(), st.Scores()))
	res := st.Result()
	switch {
	case rec.Ended != nil && !res.Finished:
		fmt.Fprintf(w, "result: none by the rules: the game ended early, %s (RULINGS.md H-1)\n", rec.Ended)
	case rec.Ended != nil:
		fmt.Fprintf(w, "result: %s\nthe record also says the game ended early, %s, after it was over: that entry changes nothing\n", res.Summary, rec.Ended)
	case res.Finished:
		fmt.Fprintf(w, "result: %s\n", res.Summary)
	default:
		fmt.Fprintf(w, "result: not finished; waiting for %s\n", WaitingFor(st))
	}
}

// FormatScores returns "alice 12, bob 9".
func FormatScores(players []string, scores []int) string {
	parts := make([]string, len(players))
	for i, p := range players {
		parts[i] = fmt.Sprintf("%s %d", p, scores[i])
	}
	return strings.Join(parts, ", ")
}

// undoWhen is " (time, source)" of an undone entry, or "".
func undoWhen(u Undo) string {
	var at []string
	for _, x := range []string{u.Time, u.Source} {
		if x != "" {
			at = append(at, x)
		}
	}
	if len(at) == 0 {
		return ""
	}
	return " (" + strings.Join(at, ", ") + ")"
}
