package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/games"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// now returns the time recorded with a move. HERALD_TIME overrides it so
// that tests and reproducible records can fix it; the rules never read it.
func now() string {
	if t := os.Getenv("HERALD_TIME"); t != "" {
		return t
	}
	return time.Now().UTC().Format(time.RFC3339)
}

var cmdGames = &command{
	name:  "games",
	args:  "[--db DIR]",
	short: "List the games herald plays, their player counts and options.\nWith --db, list the games of a mail service's data directory instead (safe while serve runs).",
	flags: func(fs *flag.FlagSet) {
		fs.String("db", "", "a `directory` of herald serve: list its games")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("games takes no arguments")
		}
		if dir := e.str("db"); dir != "" {
			return listStored(ctx, e, dir)
		}
		for _, g := range games.All.Games() {
			fmt.Fprintf(e.stdout, "%-12s %d-%d players  %s  (rules: %s)\n", g.Name, g.MinPlayers, g.MaxPlayers, g.Title, g.Rulebook)
			for _, o := range g.Options {
				fmt.Fprintf(e.stdout, "    --opt %s\n", o.Describe())
			}
		}
		return nil
	},
}

var cmdNew = &command{
	name:  "new",
	args:  "GAME --players a,b[,c,d] [--seed S] [--opt k=v]... [--position POS.yaml] -o FILE   or   new GAME --mail --players ADDR,ADDR[,...] [--host ADDR] [--deadline 72h [--grace 24h] [--policy wait|forfeit]] [--data DIR]",
	short: "Start a game and write its record to FILE, which must not exist: new never overwrites a record.\nWithout --seed a secret random seed is drawn; the record keeps it (it is the host's copy).",
	flags: func(fs *flag.FlagSet) {
		fs.String("players", "", "comma-separated player names, in seating order (the first plays first);\nbot:LEVEL (bot:1 to bot:3) for a seat the bot plays, named bot (or bot1, bot2... for several)")
		fs.String("seed", "", "the game's seed (default: a fresh secret one)")
		fs.Var(new(listFlag), "opt", "a game option `name=value` (repeatable; see herald games)")
		fs.String("position", "", "start from this position file instead of the setup")
		fs.String("o", "", "the record `file` to write (which must not exist)")
		fs.Bool("mail", false, "a game by mail: --players are addresses; the game goes into --data's database and\nthe welcome mails wait in its outbox for herald serve")
		fs.String("data", "herald-data", "with --mail: the data `directory` of herald serve")
		fs.String("store", "", "with --mail: the PostgreSQL `URL` of serve --store, when the games are kept there")
		fs.String("host", "", "with --mail: the host's `address` (gets the confirmation and the host key; default the first player)")
		fs.String("deadline", "", "with --mail: the time each move is due in, like 72h or 3d (default: none)")
		fs.String("grace", "", "with --mail and --deadline: the time after the deadline before the policy applies (default 24h)")
		fs.String("policy", "", "with --mail and --deadline: wait (default) or forfeit, what happens after the grace")
		fs.String("address", "", "with --mail: herald's `address` (default: the one herald serve last ran with on --data, else herald@herald.local)")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("new needs exactly one GAME")
		}
		g, err := games.All.Lookup(args[0])
		if err != nil {
			return usagef("%v", err)
		}
		if e.bool("mail") {
			return newByMail(ctx, e, g)
		}
		out := e.str("o")
		if out == "" {
			return usagef("-o FILE is required")
		}
		if _, err := os.Lstat(out); err == nil {
			// Say it before the work; createNew is what guarantees it.
			return newExists(out)
		}
		if e.str("players") == "" {
			return usagef("--players is required, like --players alice,bob")
		}
		players := strings.Split(e.str("players"), ",")
		for i := range players {
			players[i] = strings.TrimSpace(players[i])
		}
		// A seat written bot:LEVEL is played by the bot (RULINGS.md H-6).
		players, bots, err := bot.SeatNames(players)
		if err != nil {
			return usagef("--players: %v", err)
		}
		opts, err := parseOpts(*e.fs.Lookup("opt").Value.(*listFlag))
		if err != nil {
			return err
		}
		var pos *yaml.Node
		if p := e.str("position"); p != "" {
			data, err := readLimited(p)
			if err != nil {
				return err
			}
			var doc yaml.Node
			if err := yaml.Unmarshal(data, &doc); err != nil {
				// At its line, as a scenario's and a record's: yaml.v3 gives
				// none on the first line, which read "FILE:0:".
				return &rejected{(&notation.Error{File: p, Pos: notation.Pos{Line: notation.YAMLErrorLine(err), Col: 1}, Msg: "not YAML: " + notation.YAMLErrorText(err)}).Error()}
			}
			if len(doc.Content) == 0 {
				return &rejected{p + ": the position file is empty"}
			}
			pos = doc.Content[0]
			rec, err := adjudicator.NewRecord(g, players, opts, e.str("seed"), pos)
			if err != nil {
				return usagef("%v", err)
			}
			rec.Bots = bots
			m, err := adjudicator.Start(games.All, rec)
			if err != nil {
				return &rejected{fmt.Sprintf("%s:%s", p, strings.TrimPrefix(err.Error(), "position: "))}
			}
			return writeNewBots(e, m, out)
		}
		rec, err := adjudicator.NewRecord(g, players, opts, e.str("seed"), nil)
		if err != nil {
			return usagef("%v", err)
		}
		rec.Bots = bots
		m, err := adjudicator.Start(games.All, rec)
		if err != nil {
			return err
		}
		return writeNewBots(e, m, out)
	},
}

// writeNewBots writes the record of the new game m to out, as writeNew,
// after the bots' first moves when a bot plays first.
func writeNewBots(e *env, m *adjudicator.Match, out string) error {
	subs, err := playBots(m)
	if err != nil {
		return err
	}
	if err := writeNew(e, m.Record, out); err != nil {
		return err
	}
	reportBots(e, m, subs)
	return nil
}

// newExists is the error of herald new when its -o file exists.
func newExists(out string) error {
	return usagef("%s exists; herald new never overwrites a record: choose another -o or remove it", out)
}

// writeNew writes the record of a new game to out, which must not exist,
// even if another herald creates it meanwhile (see createNew).
func writeNew(e *env, rec *adjudicator.Record, out string) error {
	if err := writeRecord(e, rec, out, false); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return newExists(out)
		}
		return err
	}
	fmt.Fprintf(e.stdout, "%s: new %s game for %s\nseed commitment (publish it): sha256 %s\n",
		out, rec.Game, strings.Join(rec.Players, ", "), rec.SeedSHA256)
	return nil
}

// load reads a record and replays it.
func load(path string) (*adjudicator.Match, error) {
	rec, err := adjudicator.LoadRecord(path)
	if err != nil {
		var ne *notation.Error
		if errors.As(err, &ne) {
			return nil, &rejected{ne.Error()}
		}
		return nil, err
	}
	m, err := adjudicator.Start(games.All, rec)
	if err != nil {
		var se *adjudicator.StepError
		var re *adjudicator.RuleError
		var nl notation.ErrorList
		if errors.As(err, &se) || errors.As(err, &re) || errors.As(err, &nl) {
			// A recorded move is refused: adjudicate tells which and why.
			return nil, &rejected{fmt.Sprintf("%s: %v\n(run herald adjudicate %s for every move's verdict)", path, err, path)}
		}
		return nil, &rejected{fmt.Sprintf("%s: %v", path, err)}
	}
	return m, nil
}

// resolvePlayer returns the player of players called name: the same
// spelling, or else the one name equal to it with case ignored (player
// names differ by more than case; see adjudicator.Game.CheckPlayers).
func resolvePlayer(players []string, name string) (string, bool) {
	if slices.Contains(players, name) {
		return name, true
	}
	for _, p := range players {
		if strings.EqualFold(p, name) {
			return p, true
		}
	}
	return "", false
}

// loadAs reads the one FILE of command name (legal, hint) and resolves
// its --as, which it needs.
func loadAs(e *env, name string, args []string) (*adjudicator.Match, string, error) {
	if len(args) != 1 {
		return nil, "", usagef("%s needs exactly one FILE", name)
	}
	if e.str("as") == "" {
		return nil, "", usagef("--as PLAYER is required")
	}
	m, err := load(args[0])
	if err != nil {
		return nil, "", err
	}
	as, err := resolveAs(m, e.str("as"))
	return m, as, err
}

// resolveAs returns the player named by --as as the record spells it
// ("" for none), or a usage error that lists the players.
func resolveAs(m *adjudicator.Match, as string) (string, error) {
	if as == "" {
		return "", nil
	}
	if p, ok := resolvePlayer(m.Record.Players, as); ok {
		return p, nil
	}
	return "", usagef("--as %s: not a player of this game (players: %s)", as, strings.Join(m.Record.Players, ", "))
}

var cmdShow = &command{
	name:  "show",
	args:  "FILE [--as PLAYER] [--format text|json|position|svg|png] [--lang en|fr] [--out FILE]   or   show --db DIR G12 [...]",
	short: "Show the game: the board, scores and whose turn it is; with --as, that player's hand too.\n--format json is the stable machine form; position writes a position file; svg and png\ndraw the board as everyone sees it (--out writes the picture to a new file).\n--lang fr writes the text and the pictures in French.\nWith --db, show game G12 of a mail service's data directory (safe while serve runs).",
	flags: func(fs *flag.FlagSet) {
		fs.String("as", "", "show `player`'s private view (hand) as well")
		fs.String("format", "text", "text, json, position, svg or png")
		fs.String("out", "", "with svg or png: the `file` to write the picture to (default: standard output)")
		fs.String("lang", "en", "with text, svg or png: the `language` of the board's words, en or fr")
		fs.String("db", "", "a `directory` of herald serve; the argument is then a game id like G12")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("show needs exactly one FILE (or, with --db, one game id)")
		}
		var m *adjudicator.Match
		var err error
		if dir := e.str("db"); dir != "" {
			m, err = loadStored(ctx, dir, args[0])
		} else {
			m, err = load(args[0])
		}
		if err != nil {
			return err
		}
		as, err := resolveAs(m, e.str("as"))
		if err != nil {
			return err
		}
		if f := e.str("format"); e.str("out") != "" && f != "svg" && f != "png" {
			return usagef("--out writes a picture: use it with --format svg or png")
		}
		lang, err := parseLang(e.str("lang"))
		if err != nil {
			return err
		}
		if f := e.str("format"); lang != notation.English && (f == "json" || f == "position") {
			return usagef("--format %s is the same in every language; --lang is for text, svg and png", f)
		}
		title := fmt.Sprintf("%s, move %d", m.Game.Title, m.MoveNumber())
		if lang == notation.French {
			title = fmt.Sprintf("%s, coup %d", cmp.Or(m.Game.TitleFR, m.Game.Title), m.MoveNumber())
		}
		switch e.str("format") {
		case "text":
			fmt.Fprintln(e.stdout, title)
			fmt.Fprint(e.stdout, adjudicator.TextIn(m.State, as, lang))
		case "json":
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(m.View(as))
		case "position":
			if as != "" {
				return usagef("--format position writes the whole position; it takes no --as")
			}
			enc := yaml.NewEncoder(e.stdout)
			enc.SetIndent(2)
			if err := enc.Encode(m.State.Position()); err != nil {
				return err
			}
			return enc.Close()
		case "svg", "png":
			if as != "" {
				return usagef("--format %s draws the board as everyone sees it; it takes no --as", e.str("format"))
			}
			pic, err := adjudicator.PictureAtIn(m, len(m.Record.Moves), title, lang)
			if err != nil {
				return err
			}
			data := pic.SVG()
			if e.str("format") == "png" {
				if data, err = pic.PNG(); err != nil {
					return err
				}
			}
			if out := e.str("out"); out != "" {
				if err := createNew(out, data, 0o644); errors.Is(err, fs.ErrExist) {
					return usagef("--out %s exists; choose another file", out)
				} else if err != nil {
					return err
				}
				return nil
			}
			_, err = e.stdout.Write(data)
			return err
		default:
			return usagef("--format %q: expected text, json, position, svg or png", e.str("format"))
		}
		return nil
	},
}

// parseLang reads a --lang value: en or fr, or the language's name in
// either (english, français), as the mail command lang takes them.
func parseLang(s string) (notation.Lang, error) {
	if lang, ok := notation.LangNamed(s); ok {
		return lang, nil
	}
	return 0, usagef("--lang %q: expected en or fr", s)
}

var cmdLegal = &command{
	name:  "legal",
	args:  "FILE --as PLAYER",
	short: "List every step PLAYER may take now, one per line; each line is accepted by herald move.",
	flags: func(fs *flag.FlagSet) {
		fs.String("as", "", "the `player`")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		m, as, err := loadAs(e, "legal", args)
		if err != nil {
			return err
		}
		legal := m.State.Legal(as)
		for _, mv := range legal {
			fmt.Fprintln(e.stdout, mv.String())
		}
		if len(legal) == 0 {
			// Say why on stderr; stdout stays an empty list for scripts.
			if err := adjudicator.CanAct(m.State, as); err != nil {
				fmt.Fprintf(e.stderr, "herald legal: no steps: %v\n", err)
			}
		}
		return nil
	},
}

var cmdMove = &command{
	name:  "move",
	args:  "FILE --as PLAYER 'STEPS'",
	short: "Apply PLAYER's steps (one per line or separated by ';'), all or nothing, and rewrite FILE.\nSTEPS may be - to read them from standard input. PLAYER's case does not matter.\n" + lockNote,
	flags: func(fs *flag.FlagSet) {
		fs.String("as", "", "the `player` moving")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) < 2 {
			return usagef("move needs FILE and the STEPS")
		}
		as := e.str("as")
		if as == "" {
			return usagef("--as PLAYER is required")
		}
		text := strings.Join(args[1:], " ")
		if text == "-" {
			b, err := readAll(e.stdin, notation.MaxTurnFile)
			if err != nil {
				return err
			}
			text = string(b)
		}
		var m *adjudicator.Match
		var sub *adjudicator.Submission
		var botSubs []*adjudicator.Submission
		var revealed []adjudicator.SealCommit
		err := updateRecord(e, args[0], func() error {
			var err error
			if m, err = load(args[0]); err != nil {
				return err
			}
			player, err := resolveAs(m, as)
			if err != nil {
				return err
			}
			before, err := m.SealedSteps(games.All)
			if err != nil {
				return err
			}
			if err := botSeat(m, player); err != nil {
				return err
			}
			if sub, err = m.Submit(player, text, now(), "cli"); err != nil {
				return &rejected{adjudicator.Pretty(err, adjudicator.SubmissionLang(err))}
			}
			sealed := append(before, m.Commitments(sub)...)
			if botSubs, err = playBots(m); err != nil {
				return err
			}
			for _, b := range botSubs {
				sealed = append(sealed, m.Commitments(b)...)
			}
			after, err := m.SealedSteps(games.All)
			if err != nil {
				return err
			}
			revealed = adjudicator.Revealed(sealed, after)
			return m.Record.Save(args[0])
		})
		if err != nil {
			return err
		}
		reportApplied(e, m, sub, botSubs) // after the lock: stdout may be slow
		reportSealed(e, m, sub, revealed)
		return nil
	},
}

// lockNote is the help text's word on concurrent writers of one record.
const lockNote = "While FILE is rewritten, FILE.lock beside it is locked: a concurrent herald move or turn\n" +
	"on FILE waits for it (up to 10s), then applies its move to the record the first one left."

// writeRecord writes rec to path: a new file that must not exist (an error
// that errors.Is fs.ErrExist if it does), or with overwrite, in place of
// path under the record's lock, so that it never interleaves with a move
// on the same file.
func writeRecord(e *env, rec *adjudicator.Record, path string, overwrite bool) error {
	if overwrite {
		return withRecordLock(e, path, func() error { return rec.Save(path) })
	}
	data, err := rec.Marshal()
	if err != nil {
		return err
	}
	// A record holds the seed: readable by its owner only, like Save.
	return createNew(path, data, 0o600)
}

// reportApplied prints sub, the moves the game played itself after it, the
// bots' moves after those (botSubs), and the board as sub's player sees it.
func reportApplied(e *env, m *adjudicator.Match, sub *adjudicator.Submission, botSubs []*adjudicator.Submission) {
	fmt.Fprintf(e.stdout, "move %d by %s applied:\n", sub.Number, sub.Player)
	for _, mv := range sub.Moves {
		fmt.Fprintf(e.stdout, "  %s\n", mv)
	}
	for _, st := range sub.Dropped {
		fmt.Fprintf(e.stdout, "  (ignored: %s; the turn had already ended by itself)\n", st.Text)
	}
	// The moves the game played itself right after (Henri's turn).
	reportAuto(e, sub.Auto)
	reportBots(e, m, botSubs)
	fmt.Fprint(e.stdout, m.State.Text(sub.Player))
}

// reportAuto prints the moves the game played itself (auto), each step
// with the rule of the automaton that chose it.
func reportAuto(e *env, auto []*adjudicator.Submission) {
	for _, a := range auto {
		fmt.Fprintf(e.stdout, "move %d by %s (played by the game):\n", a.Number, a.Player)
		for i, mv := range a.Moves {
			if i < len(a.Why) && a.Why[i] != "" {
				fmt.Fprintf(e.stdout, "  %s  (%s)\n", mv, a.Why[i])
			} else {
				fmt.Fprintf(e.stdout, "  %s\n", mv)
			}
		}
	}
}

// reportSealed prints the commitment of each step of sub that stays
// sealed, and every sealed step the move revealed with its nonce: what
// the mail service tells the bidder and then everyone.
func reportSealed(e *env, m *adjudicator.Match, sub *adjudicator.Submission, revealed []adjudicator.SealCommit) {
	for _, c := range m.Commitments(sub) {
		if !slices.Contains(revealed, c) {
			fmt.Fprintf(e.stdout, "sealed, hidden from the others until revealed: %s, commitment sha256 %s\n", c.Text, c.Hash)
		}
	}
	if len(revealed) > 0 {
		fmt.Fprintf(e.stdout, "revealed, each with its nonce and commitment (check: printf '%%s\\n%%s' 'STEP' NONCE | sha256sum):\n")
		for _, c := range revealed {
			fmt.Fprintf(e.stdout, "  move %d, %s: %s  nonce %s  sha256 %s\n", c.Move, c.Player, c.Text, c.Nonce, c.Hash)
		}
	}
}

var cmdTurn = &command{
	name:  "turn",
	args:  "TURN.yaml --game FILE",
	short: "Apply a YAML turn file (game, player, move, steps) to the game in FILE.\nThe move number must be the game's next one, so a stale file is rejected.\n" + lockNote,
	flags: func(fs *flag.FlagSet) {
		fs.String("game", "", "the game record `file`")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("turn needs exactly one TURN.yaml")
		}
		if e.str("game") == "" {
			return usagef("--game FILE is required")
		}
		data, err := readLimited(args[0])
		if err != nil {
			return err
		}
		tf, err := notation.ParseTurnFile(args[0], data)
		if err != nil {
			return &rejected{adjudicator.Pretty(err, notation.English)}
		}
		game := e.str("game")
		var m *adjudicator.Match
		var sub *adjudicator.Submission
		var botSubs []*adjudicator.Submission
		err = updateRecord(e, game, func() error {
			var err error
			if m, err = load(game); err != nil {
				return err
			}
			player, lang, err := m.CheckTurnFile(tf)
			if err != nil {
				// In the language the file's steps are written in.
				return &rejected{fmt.Sprintf("%s: %s", args[0], adjudicator.Localize(err, lang))}
			}
			if err := botSeat(m, player); err != nil {
				return err
			}
			if sub, err = m.SubmitSteps(player, tf.Steps, now(), "turn:"+args[0]); err != nil {
				// Name the file: the positions are its lines and columns.
				return &rejected{args[0] + ": " + adjudicator.Pretty(err, adjudicator.SubmissionLang(err))}
			}
			if botSubs, err = playBots(m); err != nil {
				return err
			}
			return m.Record.Save(game)
		})
		if err != nil {
			return err
		}
		reportApplied(e, m, sub, botSubs)
		return nil
	},
}

var cmdAdjudicate = &command{
	name:  "adjudicate",
	args:  "FILE",
	short: "Replay a game record from the start, verify the seed against its commitment, and judge\nevery move: one verdict line per move, then the scores. Exits 1 at the first illegal move.",
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("adjudicate needs exactly one FILE")
		}
		rec, err := adjudicator.LoadRecord(args[0])
		if err != nil {
			var ne *notation.Error
			if errors.As(err, &ne) {
				return &rejected{ne.Error()}
			}
			return err
		}
		rep, err := adjudicator.Adjudicate(games.All, rec)
		if err != nil {
			return &rejected{fmt.Sprintf("%s: cannot replay: %v", args[0], err)}
		}
		rep.Write(e.stdout)
		if rep.Illegal != nil {
			return &rejected{fmt.Sprintf("%s: move %d is illegal", args[0], rep.Illegal.Number)}
		}
		return nil
	},
}

var cmdPlay = &command{
	name:  "play",
	args:  "GAME --players N [--seed S] [--bots [--level L]] [--opt k=v]... [-o FILE [--force]]",
	short: "Self-play: players p1..pN pick random legal steps to the end of the game,\nor with --bots play as bots against each other. Prints the final board and scores;\n-o writes the record.",
	flags: func(fs *flag.FlagSet) {
		fs.Int("players", 2, "number of players")
		fs.String("seed", "1", "the seed of the game and of the players' choices")
		fs.Var(new(listFlag), "opt", "a game option `name=value` (repeatable)")
		fs.String("o", "", "write the record to `file` (which must not exist)")
		fs.Bool("force", false, "overwrite FILE if it exists")
		fs.Bool("q", false, "print only the result line")
		fs.Bool("bots", false, "the players are bots (package adjudicator/bot), not random players")
		fs.Int("level", 1, "with --bots, the bots' `level`, 1 to 3 (their search's iterations a step)")
		fs.Int("iterations", 0, "with --bots, the iterations a step in place of the level's (for tests: the record's moves are then selfplay, which adjudicate cannot check)")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("play needs exactly one GAME")
		}
		g, err := games.All.Lookup(args[0])
		if err != nil {
			return usagef("%v", err)
		}
		n, _ := strconv.Atoi(e.str("players"))
		if n < g.MinPlayers || n > g.MaxPlayers {
			return usagef("%s is for %d to %d players, not %d", g.Name, g.MinPlayers, g.MaxPlayers, n)
		}
		opts, err := parseOpts(*e.fs.Lookup("opt").Value.(*listFlag))
		if err != nil {
			return err
		}
		if _, err := g.ResolveOptions(opts); err != nil {
			return usagef("%v", err)
		}
		out := e.str("o")
		exists := func() error { return usagef("%s exists; choose another file or add --force", out) }
		if out != "" && !e.bool("force") {
			if _, err := os.Lstat(out); err == nil {
				return exists()
			}
		}
		var m *adjudicator.Match
		if e.bool("bots") {
			level, _ := strconv.Atoi(e.str("level"))
			iters, _ := strconv.Atoi(e.str("iterations"))
			o := bot.Options{Level: level, Iterations: iters}
			if _, err := bot.Iterations(level); err != nil || iters < 0 {
				return usagef("--level is 1 to %d and --iterations not negative, not %d and %d", bot.MaxLevel, level, iters)
			}
			m, err = bot.SelfPlay(g, games.All, n, e.str("seed"), opts, now, o)
		} else {
			m, err = adjudicator.SelfPlay(g, games.All, n, e.str("seed"), opts, now)
		}
		if err != nil {
			return err
		}
		if out != "" {
			if err := writeRecord(e, m.Record, out, e.bool("force")); errors.Is(err, fs.ErrExist) {
				return exists()
			} else if err != nil {
				return err
			}
		}
		res := m.State.Result()
		if !e.bool("q") {
			fmt.Fprint(e.stdout, m.State.Text(""))
		}
		fmt.Fprintf(e.stdout, "%d moves; scores: %s; %s\n", len(m.Record.Moves),
			adjudicator.FormatScores(m.Seats(), m.State.Scores()), res.Summary)
		return nil
	},
}

var cmdScenario = &command{
	name:  "scenario",
	args:  "[-v] FILE...",
	short: "Run scenario files: one PASS or FAIL line each, with the first difference, then\n\"ok: N scenarios passed\" or \"FAIL: N of M scenarios failed\", all on standard output.\nExits 1 if any fails. -v prints the board after each move.",
	flags: func(fs *flag.FlagSet) {
		fs.Bool("v", false, "print the board after each move")
	},
	run: func(ctx context.Context, e *env, args []string) error {
		if len(args) == 0 {
			return usagef("scenario needs at least one FILE")
		}
		failed := 0
		for _, path := range args {
			sc, err := adjudicator.LoadScenario(path)
			if err != nil {
				fmt.Fprintf(e.stdout, "FAIL %s: %v\n", path, err)
				failed++
				continue
			}
			var verbose io.Writer
			if e.bool("v") {
				verbose = e.stdout
			}
			res := adjudicator.RunScenario(games.All, sc, verbose)
			fmt.Fprintln(e.stdout, res)
			if !res.Pass {
				failed++
			}
		}
		// The summary follows the results on the same stream, as go test
		// prints its final ok or FAIL: on stderr it came out before or
		// among the FAIL lines when both streams went to one terminal.
		scenarios := "scenarios"
		if len(args) == 1 {
			scenarios = "scenario"
		}
		if failed > 0 {
			fmt.Fprintf(e.stdout, "FAIL: %d of %d %s failed\n", failed, len(args), scenarios)
			return &rejected{} // said on stdout
		}
		fmt.Fprintf(e.stdout, "ok: %d %s passed\n", len(args), scenarios)
		return nil
	},
}

// readLimited reads a file named on the command line (a position, a turn
// file, an option's data), of at most MaxRecordBytes: whatever path is
// given (/dev/zero, a huge file), memory stays bounded.
func readLimited(path string) ([]byte, error) {
	return adjudicator.ReadLimited(path, adjudicator.MaxRecordBytes)
}

// readAll reads at most limit bytes from r, or fails.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("standard input is over %d bytes", limit)
	}
	return b, nil
}
