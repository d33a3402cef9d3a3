package gametest

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// privacyGames is -privacy.games: how many random games Kit.Privacy plays
// for each game; 0 is the default (Kit.PrivacyGames, or the environment
// variable HERALD_PRIVACY_GAMES, for long campaigns).
var privacyGames = flag.Int("privacy.games", 0, "random games the privacy test plays per game (default: the kit's, or $HERALD_PRIVACY_GAMES)")

// PrivacyRuns returns how many random games Kit.Privacy plays: the
// -privacy.games flag, else $HERALD_PRIVACY_GAMES, else def (a few under
// -short).
func PrivacyRuns(def int) int {
	if *privacyGames > 0 {
		return *privacyGames
	}
	if n, err := strconv.Atoi(os.Getenv("HERALD_PRIVACY_GAMES")); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return max(def/10, 3)
	}
	return def
}

// A Secret is a token one viewer may not see, and why.
type Secret struct {
	Token string
	Why   string // "hidden by the game", "bob's sealed step", "bob's undone sealed step"
}

// SecretBook keeps, along a game, the secrets that no list of the state's
// holds: the sealed steps taken (a step is hidden from the others while
// its round is open) and those taken back while sealed (hidden from the
// others for as long as the game runs).
type SecretBook struct {
	subs   []*adjudicator.Submission // the moves of the record, as applied
	undone []*adjudicator.Submission // moves taken back
}

// Applied notes the submission sub and the automaton moves after it.
func (b *SecretBook) Applied(sub *adjudicator.Submission) {
	b.subs = append(b.subs, sub)
	b.subs = append(b.subs, sub.Auto...)
}

// TookBack notes that the moves from keep on were taken back.
func (b *SecretBook) TookBack(keep int) {
	b.undone = append(b.undone, b.subs[keep:]...)
	b.subs = slices.Clone(b.subs[:keep])
}

// For returns what viewer ("" for an observer) may not see in m now: the
// game's secrets (adjudicator.Secretive), the sealed steps of others
// still hidden and, while the game runs, the sealed steps of others taken
// back; and the texts viewer has seen legitimately (the steps of the
// record they may see, but another's step the game lists as a secret
// whole, as Raubritter lists a keep of the setup), which a token found in
// an answer may come from.
func (b *SecretBook) For(m *adjudicator.Match, viewer string) (secrets []Secret, known string) {
	st := m.State
	game := map[string]bool{}
	for _, tok := range adjudicator.Secrets(st, viewer) {
		secrets = append(secrets, Secret{tok, "hidden by the game"})
		game[tok] = true
	}
	var kn strings.Builder
	for _, sub := range b.subs {
		for j, mv := range sub.Moves {
			if sub.Player != viewer && sub.Hidden(st, j) {
				secrets = append(secrets, Secret{mv.String(), sub.Player + "'s sealed step"})
				continue
			}
			if sub.Player != viewer && game[mv.String()] {
				// The game says this step of another's is secret: it is
				// not seen legitimately, whatever the record shows.
				continue
			}
			kn.WriteString(mv.String())
			kn.WriteByte('\n')
		}
	}
	running := m.Record.Ended == nil && !st.Result().Finished
	for _, sub := range b.undone {
		for j, mv := range sub.Moves {
			if running && sub.Player != viewer && j < len(sub.Rounds) && sub.Rounds[j] != 0 {
				secrets = append(secrets, Secret{mv.String(), sub.Player + "'s undone sealed step"})
				continue
			}
			// An open step taken back was seen by all when it was played.
			kn.WriteString(mv.String())
			kn.WriteByte('\n')
		}
	}
	// A step viewer may take now is no secret of anyone's: a bid of 1 is
	// in everyone's list of steps.
	for _, mv := range st.Legal(viewer) {
		kn.WriteString(mv.String())
		kn.WriteByte('\n')
	}
	// Nor is the game's help, and the example a step not understood gets.
	kn.WriteString(m.Game.Help + "\n" + m.Game.HelpFR + "\n")
	if steps, errs := notation.Split("zzz"); len(errs) == 0 && viewer != "" {
		if _, err := st.Parse(viewer, steps[0]); err != nil {
			kn.WriteString(adjudicator.Pretty(err, notation.English) + adjudicator.Pretty(err, notation.French))
		}
	}
	return secrets, kn.String()
}

// hasWord reports whether text, lower-cased, holds tok, lower-cased, as
// a whole word: not inside a longer word, number or hyphenated id, so
// that "guet-1" is not found in "guet-10".
func hasWord(text, tok string) bool {
	part := func(r rune) bool { return r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	for from := 0; ; {
		i := strings.Index(text[from:], tok)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+len(tok):])
		if (i == 0 || !part(before)) && (i+len(tok) == len(text) || !part(after)) {
			return true
		}
		from = i + 1
	}
}

// A Leaks finds the secrets of one viewer in their answers.
type Leaks struct {
	viewer  string
	secrets []Secret
	tokens  []string // lower-cased
}

// NewLeaks returns the finder of viewer's secrets, but those that known,
// the texts viewer has seen legitimately, holds.
func NewLeaks(viewer string, secrets []Secret, known string) *Leaks {
	l := &Leaks{viewer: viewer}
	known = strings.ToLower(known)
	seen := map[string]bool{}
	for _, s := range secrets {
		tok := strings.ToLower(s.Token)
		if seen[tok] {
			continue
		}
		seen[tok] = true
		if !hasWord(known, tok) {
			l.secrets, l.tokens = append(l.secrets, s), append(l.tokens, tok)
		}
	}
	return l
}

// Len is how many secrets l looks for.
func (l *Leaks) Len() int { return len(l.secrets) }

// Check returns an error when answer, what viewer is told (what), holds
// one of their secrets as a whole word that what they wrote (asked) does
// not; with loose, a secret whose first word they wrote is excused too
// (an answer to a step not understood lists the names it may mean).
func (l *Leaks) Check(what, asked string, loose bool, answer string) error {
	asked = strings.ToLower(asked)
	words := strings.Fields(asked)
	text := strings.ToLower(answer)
	for i, s := range l.secrets {
		if !hasWord(text, l.tokens[i]) || hasWord(asked, l.tokens[i]) {
			continue
		}
		if first, _, _ := strings.Cut(l.tokens[i], " "); loose && slices.Contains(words, first) {
			continue
		}
		who := l.viewer
		if who == "" {
			who = "an observer"
		}
		return fmt.Errorf("%s's %s shows %q (%s):\n%s", who, what, s.Token, s.Why, answer)
	}
	return nil
}

// Privacy is the privacy property (issue 25): over PrivacyRuns(games)
// random games, at every step, for every player and an observer, no
// answer they can get holds a token of what they may not see: their
// view, legal steps and history; the preview and the refusal of random
// legal and illegal steps; the public record (`export --public`, the
// page's record) and the picture; before and after moves are taken back.
// maxMoves cuts 49 games in 50 short (0: to their end), so that many
// games fit in a test's time and the ends of games are still seen. The
// game's State must be
// adjudicator.Secretive.
func (k *Kit) Privacy(t *testing.T, games, maxMoves int) {
	if _, ok := k.NewMatch(t, k.Game.MinPlayers, "privacy", nil).State.(adjudicator.Secretive); !ok {
		t.Fatalf("%s's State does not list its secrets (adjudicator.Secretive)", k.Game.Name)
	}
	runs := PrivacyRuns(games)
	found := 0
	for i := range runs {
		n := k.Game.MinPlayers + i%(k.Game.MaxPlayers-k.Game.MinPlayers+1)
		seed := fmt.Sprintf("privacy-%d", i)
		most := maxMoves
		if i%50 == 0 {
			most = 0 // one game in fifty to its end
		}
		if err := k.privacyGame(n, seed, most, &found); err != nil {
			t.Fatalf("%s, %d players: %v", seed, n, err)
		}
	}
	if found == 0 {
		t.Errorf("no secret to look for in %d games", runs)
	}
}

// privacyGame plays one random game and checks every answer at every
// step; found counts the secrets looked for.
func (k *Kit) privacyGame(n int, seed string, maxMoves int, found *int) error {
	reg := k.registry()
	rec, err := adjudicator.NewRecord(k.Game, k.PlayerNames(n), nil, seed, nil)
	if err != nil {
		return err
	}
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		return err
	}
	rng := adjudicator.NewRNG("privacy\x00" + seed)
	book := &SecretBook{}
	for move := 0; maxMoves == 0 || move < maxMoves; move++ {
		if err := k.checkAnswers(m, book, rng, found); err != nil {
			return fmt.Errorf("move %d: %w", m.MoveNumber(), err)
		}
		var to []string
		for _, p := range m.State.ToMove() {
			if !slices.Contains(adjudicator.Automata(m.State), p) {
				to = append(to, p)
			}
		}
		if len(to) == 0 {
			return nil
		}
		if move >= maxSubmissions {
			return fmt.Errorf("no end after %d submissions", move)
		}
		// Now and then a take-back (RULINGS.md H-5) of the last moves.
		if len(m.Record.Moves) > 2 && rng.IntN(25) == 0 {
			keep := len(m.Record.Moves) - 1 - rng.IntN(2)
			back, err := m.TakeBack(reg, keep, m.Record.Players[0], "", "test")
			if err != nil {
				return fmt.Errorf("take-back to %d moves: %w", keep, err)
			}
			book.TookBack(keep)
			m = back
			continue
		}
		p := to[rng.IntN(len(to))]
		steps := randomSteps(m.State, p, rng, 1+rng.IntN(2))
		if len(steps) == 0 {
			return fmt.Errorf("%s must act but has no legal step", p)
		}
		sub, err := m.Submit(p, strings.Join(steps, "\n"), "", "test")
		if err != nil {
			return fmt.Errorf("%s's legal steps %q refused: %w", p, steps, err)
		}
		book.Applied(sub)
	}
	return nil
}

// maxSubmissions bounds a random game of the privacy test.
const maxSubmissions = 5000

// randomSteps returns up to most legal steps of player from st, in order,
// as long as player may act.
func randomSteps(st adjudicator.State, player string, rng *adjudicator.RNG, most int) []string {
	st = st.Clone()
	var steps []string
	for len(steps) < most && slices.Contains(st.ToMove(), player) && !st.Result().Finished {
		legal := st.Legal(player)
		if len(legal) == 0 {
			break
		}
		mv := legal[rng.IntN(len(legal))]
		if st.Apply(player, mv) != nil {
			break
		}
		steps = append(steps, mv.String())
	}
	return steps
}

// probes returns steps for viewer to try at m: random legal sequences,
// another player's steps, and steps that name viewer's secrets, to fish
// for an answer that tells them apart.
func probes(m *adjudicator.Match, viewer string, secrets []Secret, rng *adjudicator.RNG) []string {
	var out []string
	for range 2 {
		if s := randomSteps(m.State, viewer, rng, 1+rng.IntN(3)); len(s) > 0 {
			out = append(out, strings.Join(s, "\n"))
		}
	}
	for _, p := range m.Record.Players {
		if p != viewer {
			if s := randomSteps(m.State, p, rng, 1); len(s) > 0 {
				out = append(out, s[0])
			}
		}
	}
	if len(secrets) > 0 {
		tok := secrets[rng.IntN(len(secrets))].Token
		first := randomSteps(m.State, viewer, rng, 1)
		word, _, _ := strings.Cut(tok, " ")
		list := []string{"take " + tok, "take " + word, "build " + tok, "play " + tok, "bid 1 " + tok, "keep " + tok, "discard " + tok}
		if legal := m.State.Legal(viewer); len(legal) > 0 {
			// A legal step with the secret in place of its first words:
			// "forest village f4" for "plain castle f4".
			f := strings.Fields(legal[rng.IntN(len(legal))].String())
			list = append(list, tok+" "+f[len(f)-1])
		}
		for _, probe := range list {
			if len(first) > 0 {
				probe = first[0] + "\n" + probe
			}
			out = append(out, probe)
		}
	}
	return out
}

// notUnderstood reports whether err says a step was not understood (a
// *notation.Error, about its text, not the game): such an answer may
// list every name that begins with a word of the step ("take forest" is
// told to say "forest village, forest castle or forest town").
func notUnderstood(err error) bool {
	var ne *notation.Error
	return err != nil && errors.As(err, &ne)
}

// checkAnswers checks the answers each player and an observer can get at
// m: at every step their views and legal steps; at one step in two, for
// one player drawn at random, the preview and refusal of probes; now and
// then the history and the public record and picture.
func (k *Kit) checkAnswers(m *adjudicator.Match, book *SecretBook, rng *adjudicator.RNG, found *int) error {
	reg := k.registry()
	st := m.State
	viewers := append(slices.Clone(m.Record.Players), "")
	prober := m.Record.Players[rng.IntN(len(m.Record.Players))]
	if rng.IntN(2) == 0 {
		prober = "" // probes at one step in two, to keep the test fast
	}
	over := st.Result().Finished
	withHistory := rng.IntN(6) == 0 || over
	for _, v := range viewers {
		secrets, known := book.For(m, v)
		l := NewLeaks(v, secrets, known)
		*found += l.Len()
		if l.Len() == 0 {
			continue
		}
		board, _ := json.Marshal(st.Board())
		private, _ := json.Marshal(st.Private(v))
		var legal []string
		for _, mv := range st.Legal(v) {
			legal = append(legal, mv.String())
		}
		for _, a := range [][2]string{
			{"view", st.Text(v)}, {"view in French", adjudicator.TextIn(st, v, notation.French)}, {"public board", st.Text("") + string(board)}, {"private view", string(private)}, {"legal steps", strings.Join(legal, "\n")},
		} {
			if err := l.Check(a[0], "", false, a[1]); err != nil {
				return err
			}
		}
		if withHistory && (v == "" || v == prober || prober == "" && v == m.Record.Players[0]) {
			for _, lang := range []notation.Lang{notation.English, notation.French} {
				h, err := m.History(reg, v, lang)
				if err != nil {
					return err
				}
				if err := l.Check("history", "", false, strings.Join(h, "\n")); err != nil {
					return err
				}
			}
		}
		if v == "" && (withHistory || rng.IntN(3) == 0) {
			// What anyone may get: the public record and the picture.
			if pub, err := m.PublicRecord(reg); err != nil {
				if err := l.Check("public record's refusal", "", false, err.Error()); err != nil {
					return err
				}
			} else {
				if err := l.Check("public record", "", false, recordText(pub)); err != nil {
					return err
				}
			}
			if pic, err := adjudicator.PictureOf(m, "privacy"); err == nil {
				if err := l.Check("picture", "", false, string(pic.SVG())); err != nil {
					return err
				}
			}
			if pic, err := adjudicator.PictureAtIn(m, len(m.Record.Moves), "privacy", notation.French); err == nil {
				if err := l.Check("picture in French", "", false, string(pic.SVG())); err != nil {
					return err
				}
			}
		}
		if v == "" || v != prober {
			continue
		}
		for _, probe := range probes(m, v, l.secrets, rng) {
			steps, errs := notation.Split(probe)
			if len(errs) > 0 {
				continue
			}
			head, tail, _, err := m.PreviewText(v, steps)
			answer := head + tail
			if err != nil {
				answer = adjudicator.Pretty(err, notation.English) + adjudicator.Pretty(err, notation.French)
			}
			if err := l.Check(fmt.Sprintf("preview of %q", probe), probe, notUnderstood(err), answer); err != nil {
				return err
			}
			trial := *m
			rec := *m.Record
			rec.Moves = slices.Clone(rec.Moves)
			trial.Record = &rec
			if _, err := trial.Submit(v, probe, "", "test"); err != nil {
				answer := adjudicator.Pretty(err, notation.English) + adjudicator.Pretty(err, notation.French)
				if err := l.Check(fmt.Sprintf("refusal of %q", probe), probe, notUnderstood(err), answer); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// recordText is every text of rec that its YAML holds, for the privacy
// test (Marshal costs more, and writes the same texts).
func recordText(rec *adjudicator.Record) string {
	var b strings.Builder
	fmt.Fprintln(&b, rec.Game, rec.Players, rec.Seed, rec.Options)
	for _, mv := range rec.Moves {
		fmt.Fprintln(&b, mv.Player, mv.Text, mv.Time, mv.Source)
	}
	for _, u := range rec.Undone {
		fmt.Fprintln(&b, u.After, u.By, u.Time, u.Source)
		for _, mv := range u.Moves {
			fmt.Fprintln(&b, mv.Player, mv.Text, mv.Time, mv.Source)
		}
	}
	if e := rec.Ended; e != nil {
		fmt.Fprintln(&b, e.How, e.By, e.Time, e.Source)
	}
	return b.String()
}
