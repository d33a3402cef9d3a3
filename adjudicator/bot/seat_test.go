package bot_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/bot"
	"github.com/heraldgames/herald/games"
	"gopkg.in/yaml.v3"
)

// seatGames are the games a bot's seat is tried in: every game, and Les
// Deux Héritiers' solo game, in which the bot plays against Henri.
var seatGames = []struct {
	game    string
	players []string
}{
	{"raubritter", []string{"alice", "bot:1"}},
	{"lowenherz", []string{"bot:1", "alice"}},
	{"lowenherz97", []string{"alice", "bot:1", "bob"}},
	{"heritiers", []string{"alice", "bot:1"}},
	{"heritiers", []string{"bot:1"}},
}

// botGame starts game with the seats specs (bot:1 for a bot) and plays
// until the bots have made turns bot moves or the game is over: the people
// pick random legal steps, the bots play by bot.Play.
func botGame(t *testing.T, game string, specs []string, turns int) *adjudicator.Match {
	t.Helper()
	g, err := games.All.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	names, bots, err := bot.SeatNames(specs)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := adjudicator.NewRecord(g, names, nil, "seat-"+game, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.Bots = bots
	m, err := adjudicator.Start(games.All, rec)
	if err != nil {
		t.Fatal(err)
	}
	rng := adjudicator.NewRNG("people")
	made := 0
	for made < turns {
		subs, err := bot.Play(m, bots, "2026-11-27T10:00:00Z")
		if err != nil {
			t.Fatal(err)
		}
		made += len(subs)
		to := slices.DeleteFunc(slices.Clone(m.State.ToMove()), func(p string) bool {
			_, isBot := bots[p]
			return isBot || adjudicator.SealedIn(m.State, p) || slices.Contains(adjudicator.Automata(m.State), p)
		})
		if len(to) == 0 {
			break
		}
		p := to[rng.IntN(len(to))]
		scratch := m.State.Clone()
		var steps []string
		for i := 0; slices.Contains(scratch.ToMove(), p) && (i == 0 || !adjudicator.SealedIn(scratch, p)); i++ {
			legal := scratch.Legal(p)
			mv := legal[rng.IntN(len(legal))]
			if err := scratch.Apply(p, mv); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, mv.String())
		}
		if _, err := m.Submit(p, strings.Join(steps, "\n"), "2026-11-27T10:00:00Z", "cli"); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// reread writes rec and reads it back, digests checked.
func reread(t *testing.T, rec *adjudicator.Record) *adjudicator.Record {
	t.Helper()
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := adjudicator.ParseRecord("game.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return back
}

// botMoves returns the indexes of rec's moves a bot made.
func botMoves(rec *adjudicator.Record) []int {
	var out []int
	for i, mv := range rec.Moves {
		if _, ok := adjudicator.BotLevel(mv.Source); ok {
			out = append(out, i)
		}
	}
	return out
}

// TestAdjudicateBotGames: herald adjudicate accepts the record of a game
// with a bot's seat, in every game, each bot move played again; and
// refuses it once a bot's move is changed for another legal move, its
// digests made again, at that move, with a judgement that names the move
// and what the bot plays.
func TestAdjudicateBotGames(t *testing.T) {
	for _, sg := range seatGames {
		t.Run(sg.game+"/"+strings.Join(sg.players, ","), func(t *testing.T) {
			m := botGame(t, sg.game, sg.players, 3)
			rec := reread(t, m.Record)
			if n := len(botMoves(rec)); n < 2 {
				t.Fatalf("the bot made %d moves, want at least 2 (record %v)", n, rec.Moves)
			}
			rep, err := adjudicator.Adjudicate(games.All, rec)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Illegal != nil {
				t.Fatalf("move %d judged illegal: %v", rep.Illegal.Number, rep.Illegal.Err)
			}
			if len(rep.Verdicts) != len(rec.Moves) {
				t.Fatalf("%d verdicts for %d moves", len(rep.Verdicts), len(rec.Moves))
			}
			refuseEdited(t, m)
		})
	}
}

// refuseEdited checks that the record of m, its first bot move that had
// a choice changed for another legal turn, is refused at that move.
func refuseEdited(t *testing.T, m *adjudicator.Match) {
	t.Helper()
	rec := m.Record
	k := -1 // the first bot move that had a choice
	for _, i := range botMoves(rec) {
		before := *rec
		before.Moves = rec.Moves[:i]
		bm, err := adjudicator.Start(games.All, &before)
		if err != nil {
			t.Fatal(err)
		}
		if len(bm.State.Legal(rec.Moves[i].Player)) > 1 {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatalf("no bot move had a choice: %v", rec.Moves)
	}
	edited := *rec
	edited.Moves = slices.Clone(rec.Moves[:k+1])
	seat := rec.Moves[k].Player
	was := rec.Moves[k].Text
	edited.Moves[k].Text = otherTurn(t, rec, k, seat)
	rep, err := adjudicator.Adjudicate(games.All, reread(t, &edited))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Illegal == nil || rep.Illegal.Number != k+1 {
		t.Fatalf("Illegal = %+v, want move %d refused", rep.Illegal, k+1)
	}
	var re *adjudicator.RuleError
	if !errors.As(rep.Illegal.Err, &re) || re.Code != adjudicator.CodeNotTheBot {
		t.Fatalf("move %d: %v, want a %s rule error", k+1, rep.Illegal.Err, adjudicator.CodeNotTheBot)
	}
	msg := rep.Illegal.Err.Error()
	for _, want := range []string{"bot:1 does not play", strings.ReplaceAll(edited.Moves[k].Text, "\n", "; "), strings.ReplaceAll(was, "\n", "; "), seat} {
		if !strings.Contains(msg, want) {
			t.Errorf("judgement %q does not say %q", msg, want)
		}
	}
}

// otherTurn returns a turn seat may play as move k+1 of rec other than
// the one recorded: random legal steps until the turn is over.
func otherTurn(t *testing.T, rec *adjudicator.Record, k int, seat string) string {
	t.Helper()
	before := *rec
	before.Moves = rec.Moves[:k]
	m, err := adjudicator.Start(games.All, &before)
	if err != nil {
		t.Fatal(err)
	}
	rng := adjudicator.NewRNG("edit")
	for range 100 {
		scratch := m.State.Clone()
		var steps []string
		for i := 0; slices.Contains(scratch.ToMove(), seat) && (i == 0 || !adjudicator.SealedIn(scratch, seat)); i++ {
			legal := scratch.Legal(seat)
			mv := legal[rng.IntN(len(legal))]
			if err := scratch.Apply(seat, mv); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, mv.String())
		}
		if text := strings.Join(steps, "\n"); text != rec.Moves[k].Text {
			return text
		}
	}
	t.Fatalf("move %d: %s has no turn but the recorded one", k+1, seat)
	return ""
}

// TestAdjudicateBotSeatTakesOnlyBotMoves: in a record whose bots list a
// seat, a move of that seat from anywhere else is refused, and so is a
// source bot:LEVEL with no level herald has.
func TestAdjudicateBotSeatTakesOnlyBotMoves(t *testing.T) {
	m := botGame(t, "raubritter", []string{"alice", "bot:1"}, 1)
	k := botMoves(m.Record)[0]
	for _, tc := range []struct{ source, want string }{
		{"cli", `bot is played by bot:1 (the record's bots), but this move's source is "cli"`},
		{"bot:2", `bot is played by bot:1 (the record's bots), but this move's source is "bot:2"`},
	} {
		edited := *m.Record
		edited.Moves = slices.Clone(m.Record.Moves[:k+1])
		edited.Moves[k].Source = tc.source
		rep, err := adjudicator.Adjudicate(games.All, reread(t, &edited))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Illegal == nil || !strings.Contains(rep.Illegal.Err.Error(), tc.want) {
			t.Errorf("source %s: Illegal = %+v, want %q", tc.source, rep.Illegal, tc.want)
		}
	}
	// Without the bots entry (a record written by the mail host), the
	// source alone says a bot made the move, and it is checked.
	edited := *m.Record
	edited.Bots = nil
	edited.Moves = slices.Clone(m.Record.Moves[:k+1])
	edited.Moves[k].Text = otherTurn(t, m.Record, k, "bot")
	rep, err := adjudicator.Adjudicate(games.All, reread(t, &edited))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Illegal == nil || !strings.Contains(rep.Illegal.Err.Error(), "bot:1 does not play") {
		t.Errorf("no bots entry: Illegal = %+v, want the move refused", rep.Illegal)
	}
	// A registry without a robot cannot check a bot's move: it says so.
	rep, err = adjudicator.Adjudicate(adjudicator.NewRegistry(m.Game), reread(t, m.Record))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Illegal == nil || !strings.Contains(rep.Illegal.Err.Error(), "no bot to check it") {
		t.Errorf("no robot: Illegal = %+v, want the bot's move unchecked and said so", rep.Illegal)
	}
}

// TestHintSeesOnlyItsSeat: a hint is the same in every state its seat
// cannot tell from the real one (the others' hands, the decks' order and
// the others' sealed steps redrawn), in every game, at the start and
// further on; and it never takes a step past a draw.
func TestHintSeesOnlyItsSeat(t *testing.T) {
	for _, sg := range seatGames {
		if !slices.ContainsFunc(sg.players, func(p string) bool { return !strings.HasPrefix(p, "bot:") }) {
			continue // nobody to give a hint to
		}
		t.Run(sg.game+"/"+strings.Join(sg.players, ","), func(t *testing.T) {
			rng := adjudicator.NewRNG("walk")
			differed := 0
			for walk := range 2 {
				m := botGame(t, sg.game, sg.players, 3*walk)
				if _, err := bot.Play(m, m.Record.Bots, ""); err != nil {
					t.Fatal(err)
				}
				seat := ""
				for _, p := range m.Record.Players {
					if _, isBot := m.Record.Bots[p]; !isBot && adjudicator.CanAct(m.State, p) == nil && !adjudicator.SealedIn(m.State, p) {
						seat = p
						break
					}
				}
				if seat == "" {
					continue
				}
				hint, why, whyFR, err := bot.Hint(m, seat, 1)
				if err != nil {
					t.Fatal(err)
				}
				if n := len(strings.Split(hint, "\n")); len(why) != n || len(whyFR) != n {
					t.Fatalf("hint %q has %d and %d reasons", hint, len(why), len(whyFR))
				}
				for range 2 {
					other := *m
					other.State = m.State.(adjudicator.Determinizer).Determinize(seat, rng)
					if got, want := other.State.Text(seat), m.State.Text(seat); got != want {
						t.Fatalf("a redrawn state looks different to %s:\n%s", seat, firstDiff(got, want))
					}
					if !samePosition(t, other.State, m.State) {
						differed++
					}
					again, _, _, err := bot.Hint(&other, seat, 1)
					if err != nil {
						t.Fatal(err)
					}
					if again != hint {
						t.Fatalf("move %d: the hint for %s is %q, and %q once what %s cannot see is redrawn", m.MoveNumber(), seat, hint, again, seat)
					}
				}
			}
			if differed == 0 {
				t.Errorf("no redrawing changed anything hidden: the test proves nothing")
			}
		})
	}
}

// samePosition reports whether a and b hold the same position.
func samePosition(t *testing.T, a, b adjudicator.State) bool {
	t.Helper()
	pa, err := yaml.Marshal(a.Position())
	if err != nil {
		t.Fatal(err)
	}
	pb, err := yaml.Marshal(b.Position())
	if err != nil {
		t.Fatal(err)
	}
	return string(pa) == string(pb)
}

// firstDiff returns the first line that differs between a and b.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return "line " + strconv.Itoa(i+1) + ": " + la[i] + "\n        " + lb[i]
		}
	}
	return "lengths differ"
}

// TestReasonPublicWhy: the reason the other players are told with a
// bot's move says what it gains at once and the tries of its level, and
// nothing that its hidden hand informs: two reasons that differ only in
// the share of tries through the step and their mean outcome read the
// same, and an only legal step (which tells what the hand lacks) gives
// none.
func TestReasonPublicWhy(t *testing.T) {
	for _, tc := range []struct {
		r      bot.Reason
		en, fr string
	}{
		{bot.Reason{Only: true}, "", ""},
		{bot.Reason{Visits: 61, Iterations: 250, Mean: 0.584}, "its search's pick of 250 tries", "le choix de sa recherche sur 250 essais"},
		{bot.Reason{Visits: 200, Iterations: 250, Mean: 0.9, Gain: 7},
			"7 points at once, more than any other player gains by it; its search's pick of 250 tries",
			"7 points sur-le-champ, plus que n'en gagne aucun autre joueur ; le choix de sa recherche sur 250 essais"},
		{bot.Reason{Visits: 10, Iterations: 100, Mean: 0.1, Gain: -3}, "its search's pick of 100 tries", "le choix de sa recherche sur 100 essais"},
	} {
		en, fr := tc.r.PublicWhy()
		if en != tc.en || fr != tc.fr {
			t.Errorf("%+v: PublicWhy() = %q, %q; want %q, %q", tc.r, en, fr, tc.en, tc.fr)
		}
		other := tc.r
		other.Visits, other.Mean = tc.r.Iterations-tc.r.Visits, 1-tc.r.Mean
		if en2, fr2 := other.PublicWhy(); en2 != en || fr2 != fr {
			t.Errorf("%+v and %+v, alike but for the search's estimates, read %q and %q", tc.r, other, en, en2)
		}
	}
}

// TestReasonWhy: the reason a bot gives for a step, in both languages;
// a step that gains points at once says so first.
func TestReasonWhy(t *testing.T) {
	for _, tc := range []struct {
		r      bot.Reason
		en, fr string
	}{
		{bot.Reason{Only: true}, "the only legal step", "la seule étape légale"},
		{bot.Reason{Visits: 61, Iterations: 250, Mean: 0.584},
			"chosen in 24% of 250 tries, mean outcome 0.58 of 1",
			"choisie dans 24 % de 250 essais, résultat moyen 0,58 sur 1"},
		{bot.Reason{Visits: 200, Iterations: 250, Mean: 0.9, Gain: 7},
			"7 points at once, more than any other player gains by it; chosen in 80% of 250 tries, mean outcome 0.90 of 1",
			"7 points sur-le-champ, plus que n'en gagne aucun autre joueur ; choisie dans 80 % de 250 essais, résultat moyen 0,90 sur 1"},
		{bot.Reason{Visits: 100, Iterations: 100, Mean: 1, Gain: 1},
			"1 point at once, more than any other player gains by it; chosen in 100% of 100 tries, mean outcome 1.00 of 1",
			"1 point sur-le-champ, plus que n'en gagne aucun autre joueur ; choisie dans 100 % de 100 essais, résultat moyen 1,00 sur 1"},
		{bot.Reason{Visits: 10, Iterations: 100, Mean: 0.1, Gain: -3},
			"chosen in 10% of 100 tries, mean outcome 0.10 of 1",
			"choisie dans 10 % de 100 essais, résultat moyen 0,10 sur 1"},
	} {
		en, fr := tc.r.Why()
		if en != tc.en || fr != tc.fr {
			t.Errorf("%+v: Why() = %q, %q; want %q, %q", tc.r, en, fr, tc.en, tc.fr)
		}
	}
}
