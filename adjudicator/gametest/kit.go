package gametest

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/adjudicator/picture"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// Update is the -update flag of every game's tests: golden files are
// rewritten instead of compared (go test ./games/raubritter -run Golden
// -update).
var Update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Golden compares got with the golden file at path, or rewrites it under
// -update.
func Golden(t *testing.T, path, got string) {
	t.Helper()
	CheckGolden(t, path, got, *Update)
}

// Kit is a game under test: what the shared tests need to know of it.
type Kit struct {
	Game     *adjudicator.Game
	Registry *adjudicator.Registry // nil: a registry of Game alone

	ScenarioDir  string // the game's scenario files: testdata/GAME
	Rulebook     string // the rulebook the scenarios cite, FILE:LINE
	Rulings      string // RULINGS.md
	RulingPrefix string // the game's ruling ids: "RB" for RB-12

	// Players names the players of a game of n players; nil: p1, p2...
	Players func(n int) []string
}

func (k *Kit) registry() *adjudicator.Registry {
	if k.Registry == nil {
		k.Registry = adjudicator.NewRegistry(k.Game)
	}
	return k.Registry
}

// PlayerNames returns the names of the players of an n-player game.
func (k *Kit) PlayerNames(n int) []string {
	if k.Players != nil {
		return k.Players(n)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = "p" + strconv.Itoa(i+1)
	}
	return names
}

// Scenarios runs every scenario file of ScenarioDir as a subtest, the way
// `herald scenario` does: each is of this game, starts with a comment
// saying what it checks, cites an existing rulebook line or ruling (and so
// does every move that names a rule), ends with an expect, and passes.
func (k *Kit) Scenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(k.ScenarioDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenarios in %s", k.ScenarioDir)
	}
	cite := NewCitations(t, k.Rulebook, k.Rulings, k.RulingPrefix)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc, err := adjudicator.LoadScenario(file)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Game != k.Game.Name {
				t.Fatalf("game %q, want %s", sc.Game, k.Game.Name)
			}
			if err := cite.Check(sc.Rule); err != nil {
				t.Errorf("rule: %v", err)
			}
			for _, mv := range sc.Moves {
				if mv.Rule != "" {
					if err := cite.Check(mv.Rule); err != nil {
						t.Errorf("line %d: rule: %v", mv.Line, err)
					}
				}
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(data), "#") {
				t.Errorf("a scenario starts with a comment saying what it checks")
			}
			if sc.Expect == nil {
				t.Errorf("a scenario ends with an expect: on the board it leads to")
			}
			if res := adjudicator.RunScenario(k.registry(), sc, nil); !res.Pass {
				var log strings.Builder
				adjudicator.RunScenario(k.registry(), sc, &log)
				t.Errorf("%s", res.Failure)
				if testing.Verbose() {
					t.Logf("boards:\n%s", log.String())
				}
			}
		})
	}
}

// RulingsCited returns the game's rulings (RULINGS.md PREFIX-N) that no
// scenario file cites, in order.
func (k *Kit) RulingsCited(t *testing.T) (uncited []string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(k.ScenarioDir, "*.yaml"))
	cited := map[string]bool{}
	re := regexp.MustCompile(`RULINGS\.md (` + regexp.QuoteMeta(k.RulingPrefix) + `-\d+)`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			cited[m[1]] = true
		}
	}
	data, err := os.ReadFile(k.Rulings)
	if err != nil {
		t.Fatal(err)
	}
	head := regexp.MustCompile(`(?m)^### (` + regexp.QuoteMeta(k.RulingPrefix) + `-\d+)\b`)
	for _, m := range head.FindAllStringSubmatch(string(data), -1) {
		if !cited[m[1]] {
			uncited = append(uncited, m[1])
		}
	}
	return uncited
}

// NewMatch starts a game of n players with seed and options.
func (k *Kit) NewMatch(t testing.TB, n int, seed string, opts map[string]string) *adjudicator.Match {
	t.Helper()
	rec, err := adjudicator.NewRecord(k.Game, k.PlayerNames(n), opts, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := adjudicator.Start(k.registry(), rec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// SelfPlay plays a game of n players to its end with random legal steps
// drawn from seed, one whole turn per submission, submitted as text (so
// that every step prints and parses back), and calls check after every
// submission (with nil before the first). A player whose sealed step is
// in is not picked while another must act. The game must end within
// 10,000 submissions, and every player asked to act must have a legal step.
func (k *Kit) SelfPlay(t testing.TB, n int, seed string, opts map[string]string, check func(m *adjudicator.Match, sub *adjudicator.Submission)) *adjudicator.Match {
	t.Helper()
	m := k.NewMatch(t, n, seed, opts)
	if check != nil {
		check(m, nil)
	}
	rng := adjudicator.NewRNG("selfplay\x00" + seed)
	for range 10_000 {
		var to []string
		for _, p := range m.State.ToMove() {
			if !adjudicator.SealedIn(m.State, p) && !slices.Contains(adjudicator.Automata(m.State), p) {
				to = append(to, p)
			}
		}
		if len(to) == 0 {
			if len(m.State.ToMove()) != 0 && !m.State.Result().Finished {
				t.Fatalf("%s: move %d waits for %v, who may not act", seed, m.MoveNumber(), m.State.ToMove())
			}
			return m
		}
		p := to[rng.IntN(len(to))]
		scratch := m.State.Clone()
		var steps []string
		for slices.Contains(scratch.ToMove(), p) && (len(steps) == 0 || !adjudicator.SealedIn(scratch, p)) {
			legal := scratch.Legal(p)
			if len(legal) == 0 {
				t.Fatalf("%s: %s must act at move %d but has no legal step\n%s", seed, p, m.MoveNumber(), scratch.Text(""))
			}
			mv := legal[rng.IntN(len(legal))]
			if err := scratch.Apply(p, mv); err != nil {
				t.Fatalf("%s: %s's legal step %q refused: %v", seed, p, mv, err)
			}
			steps = append(steps, mv.String())
		}
		sub, err := m.Submit(p, strings.Join(steps, "\n"), "", "selfplay")
		if err != nil {
			t.Fatalf("%s: move %d: %s's steps %q refused: %v", seed, m.MoveNumber(), p, steps, err)
		}
		if check != nil {
			check(m, sub)
		}
	}
	t.Fatalf("%s: no end after 10000 submissions", seed)
	return nil
}

// CheckRecord adjudicates m's record: every move is legal, the replayed
// game stands as m does, and its position writes and loads back the same.
func (k *Kit) CheckRecord(t testing.TB, m *adjudicator.Match) {
	t.Helper()
	rep, err := adjudicator.Adjudicate(k.registry(), m.Record)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Illegal != nil {
		t.Fatalf("adjudicate finds move %d illegal: %v", rep.Illegal.Number, rep.Illegal.Err)
	}
	got, want := k.PositionBytes(t, rep.Match.State), k.PositionBytes(t, m.State)
	if !bytes.Equal(got, want) {
		t.Fatalf("the adjudicated game stands otherwise than the played one:\n%s\n---\n%s", got, want)
	}
	back, err := k.LoadPosition(m.Record.Players, string(want))
	if err != nil {
		t.Fatalf("the position does not load back: %v\n%s", err, want)
	}
	if again := k.PositionBytes(t, back); !bytes.Equal(again, want) {
		t.Fatalf("the position written, loaded and written again differs:\n%s\n---\n%s", want, again)
	}
}

// LoadPosition loads a position document for players, with the game's
// default options.
func (k *Kit) LoadPosition(players []string, doc string) (adjudicator.State, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		return nil, err
	}
	opts, err := k.Game.ResolveOptions(nil)
	if err != nil {
		return nil, err
	}
	return k.Game.LoadPosition(adjudicator.Setup{Players: players, Options: opts, RNG: adjudicator.NewRNG("test")}, &n)
}

// PositionBytes writes st's position as `herald show --format position`
// does: yaml.v3 with a 2-space indent.
func (k *Kit) PositionBytes(t testing.TB, st adjudicator.State) []byte {
	t.Helper()
	data, err := positionBytes(st)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func positionBytes(st adjudicator.State) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(st.Position()); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// CheckPosition is the body of a position fuzz target: doc, loaded for
// players, must be refused with a *notation.Error or load to a state whose
// position writes, loads and writes again to the same bytes, which renders
// for everyone, and whose first legal steps (at most 60 a player) apply.
// A doc that is not YAML is skipped: it is the caller's error.
func (k *Kit) CheckPosition(t *testing.T, players []string, doc string) {
	t.Helper()
	if err := k.PositionProblem(players, doc); err != nil {
		t.Fatal(err)
	}
}

// PositionProblem is CheckPosition's check: what is wrong, or nil.
func (k *Kit) PositionProblem(players []string, doc string) error {
	var node yaml.Node
	if yaml.Unmarshal([]byte(doc), &node) != nil {
		return nil
	}
	st, err := k.LoadPosition(players, doc)
	if err != nil {
		var ne *notation.Error
		if !errors.As(err, &ne) {
			return fmt.Errorf("error %v (%T), want a *notation.Error", err, err)
		}
		return nil
	}
	first, err := positionBytes(st)
	if err != nil {
		return err
	}
	back, err := k.LoadPosition(players, string(first))
	if err != nil {
		return fmt.Errorf("accepted position written as\n%s\ndoes not load: %v", first, err)
	}
	if second, err := positionBytes(back); err != nil || !bytes.Equal(first, second) {
		return fmt.Errorf("position written, read and written again differs (%v):\n%s\n---\n%s", err, first, second)
	}
	for _, as := range append([]string{""}, players...) {
		st.Text(as)
	}
	st.Result()
	for _, p := range st.ToMove() {
		for i, mv := range st.Legal(p) {
			if i == 60 {
				break
			}
			if err := st.Clone().Apply(p, mv); err != nil {
				return fmt.Errorf("%s's legal step %q is refused: %v\n%s", p, mv, err, first)
			}
		}
	}
	return nil
}

// CheckParse is the body of a notation fuzz target: every step of text,
// read in each state for each player, must be refused with a
// *notation.Error or read as a step that prints to text reading back to
// the same printed step; applying it may fail but must not panic.
func (k *Kit) CheckParse(t *testing.T, states []adjudicator.State, players []string, text string) {
	t.Helper()
	if err := ParseProblem(states, players, text); err != nil {
		t.Fatal(err)
	}
}

// ParseProblem is CheckParse's check: what is wrong, or nil.
func ParseProblem(states []adjudicator.State, players []string, text string) error {
	steps, _ := notation.Split(text)
	for _, st := range states {
		for _, step := range steps {
			for _, p := range players {
				mv, err := st.Parse(p, step)
				if err != nil {
					var ne *notation.Error
					if !errors.As(err, &ne) {
						return fmt.Errorf("Parse(%q) = %v (%T), want a *notation.Error", step.Text, err, err)
					}
					continue
				}
				printed := mv.String()
				back, err := ParseOne(st, p, printed)
				if err != nil {
					return fmt.Errorf("%q reads as %q, which does not read back: %v", step.Text, printed, err)
				}
				if back.String() != printed {
					return fmt.Errorf("%q reads as %q, which reads back as %q", step.Text, printed, back)
				}
				st.Clone().Apply(p, mv)
			}
		}
	}
	return nil
}

// ParseOne reads text, which must hold exactly one step, for player.
func ParseOne(st adjudicator.State, player, text string) (adjudicator.Move, error) {
	steps, errs := notation.Split(text)
	if len(errs) > 0 {
		return nil, errs
	}
	if len(steps) != 1 {
		return nil, fmt.Errorf("%q is %d steps, not one", text, len(steps))
	}
	return st.Parse(player, steps[0])
}

// Pictures checks the pictures of self-played games of each number of
// players in counts: at the start, and after the first submission from
// `after` on that changes the board, with the squares it changed marked, against the golden SVGs and
// PNGs testdata/golden/picture-Np-start.svg, .png and -mid.svg, .png;
// for a game that draws in French (adjudicator.LangPicturer), the one in
// the middle in French too, -mid-fr.svg and .png.
func (k *Kit) Pictures(t *testing.T, after int, counts ...int) {
	t.Helper()
	for _, n := range counts {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			var start, prev, before, mid adjudicator.State
			k.SelfPlay(t, n, "picture", nil, func(m *adjudicator.Match, sub *adjudicator.Submission) {
				switch {
				case sub == nil:
					start = m.State.Clone()
				case sub.Number >= after && mid == nil && changes(prev, m.State):
					mid, before = m.State.Clone(), prev
				}
				if mid == nil {
					prev = m.State.Clone()
				}
			})
			if mid == nil {
				t.Fatalf("the game ended before submission %d", after)
			}
			k.Picture(t, start, k.PlayerNames(n), filepath.Join("testdata", "golden", fmt.Sprintf("picture-%dp-start.svg", n)))
			k.PictureAfter(t, before, mid, k.PlayerNames(n), filepath.Join("testdata", "golden", fmt.Sprintf("picture-%dp-mid.svg", n)))
			if _, ok := mid.(adjudicator.LangPicturer); ok {
				k.PictureAfterIn(t, before, mid, k.PlayerNames(n), filepath.Join("testdata", "golden", fmt.Sprintf("picture-%dp-mid-fr.svg", n)), notation.French)
			}
		})
	}
}

// changes reports whether the board of after differs from that of before.
func changes(before, after adjudicator.State) bool {
	b := after.(adjudicator.Picturer).Picture()
	b.MarkChanges(before.(adjudicator.Picturer).Picture())
	return slices.ContainsFunc(b.Cells, func(c picture.Cell) bool { return c.Changed }) ||
		slices.ContainsFunc(b.Walls, func(w picture.Wall) bool { return w.Changed })
}

// Picture checks the picture of st, which must draw one (adjudicator.
// Picturer): its SVG against the golden file at svgPath and its PNG
// against the same path ending in .png (-update rewrites them), the PNG
// at the SVG's size, and that neither shows a word that only a player's
// own view (a hand) holds.
func (k *Kit) Picture(t *testing.T, st adjudicator.State, players []string, svgPath string) {
	t.Helper()
	k.PictureAfter(t, nil, st, players, svgPath)
}

// PictureAfter is Picture with the squares that changed since before, the
// state one move earlier, marked as the last move (nil: none).
func (k *Kit) PictureAfter(t *testing.T, before, st adjudicator.State, players []string, svgPath string) {
	t.Helper()
	k.PictureAfterIn(t, before, st, players, svgPath, notation.English)
}

// PictureAfterIn is PictureAfter with the picture's words in lang
// (adjudicator.PictureIn), which the game must draw in lang; it shows no
// word of a player's own view in lang either.
func (k *Kit) PictureAfterIn(t *testing.T, before, st adjudicator.State, players []string, svgPath string, lang notation.Lang) {
	t.Helper()
	if _, ok := st.(adjudicator.Picturer); !ok {
		t.Fatalf("%s draws no picture of its board", k.Game.Name)
	}
	b := adjudicator.PictureIn(st, lang)
	if lang == notation.French && b.Lang != notation.French {
		t.Fatalf("%s draws no picture in French (adjudicator.LangPicturer)", k.Game.Name)
	}
	if before != nil {
		b.MarkChanges(before.(adjudicator.Picturer).Picture())
	}
	b.Title, b.Status = k.Game.Title, "a test"
	if lang == notation.French {
		b.Title, b.Status = cmp.Or(k.Game.TitleFR, k.Game.Title), "un essai"
	}
	svg := string(b.SVG())
	Golden(t, svgPath, svg)
	data, err := b.PNG()
	if err != nil {
		t.Fatal(err)
	}
	GoldenBytes(t, strings.TrimSuffix(svgPath, ".svg")+".png", data)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if w := regexp.MustCompile(`width="(\d+)" height="(\d+)"`).FindStringSubmatch(svg); w == nil ||
		strconv.Itoa(img.Bounds().Dx()) != w[1] || strconv.Itoa(img.Bounds().Dy()) != w[2] {
		t.Errorf("the PNG is %v, the SVG %v", img.Bounds(), w)
	}
	if err := PicturePrivacyIn(st, players, svg, b.LegendText(), lang); err != nil {
		t.Error(err)
	}
}

// PictureWords returns the words a game gives its picture b apart from
// the lines of its board's text (Info): the keys, the legend, the unit of
// the scores and the players' notes, a line each, for a test of a picture
// in French to look for English words left in them (EnglishLeft).
func PictureWords(b *picture.Board) string {
	var words []string
	for _, k := range b.Keys {
		words = append(words, k.Text)
	}
	words = append(append(words, b.Legend...), b.Unit)
	for _, p := range b.Players {
		words = append(words, p.Note)
	}
	return strings.Join(words, "\n")
}

// GoldenBytes compares got, a binary file (a PNG), with the file at path,
// or rewrites the file under -update.
func GoldenBytes(t *testing.T, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (go test -update writes it)", err)
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the picture drawn now (%d bytes, want %d): look at both, then go test -update rewrites it", path, len(got), len(want))
	}
}

// PicturePrivacy returns an error when svg, the picture of st, holds a
// word of one of the players' own view that neither the public view nor
// the picture's legend does: a card of a hand, a sealed bid.
func PicturePrivacy(st adjudicator.State, players []string, svg, legend string) error {
	return PicturePrivacyIn(st, players, svg, legend, notation.English)
}

// PicturePrivacyIn is PicturePrivacy for a picture in lang, held to the
// views in lang (adjudicator.TextIn).
func PicturePrivacyIn(st adjudicator.State, players []string, svg, legend string, lang notation.Lang) error {
	public := adjudicator.TextIn(st, "", lang) + "\n" + legend
	words := regexp.MustCompile(`[A-Za-z]{5,}`)
	for _, p := range players {
		for _, w := range words.FindAllString(adjudicator.TextIn(st, p, lang), -1) {
			if !strings.Contains(public, w) && strings.Contains(svg, w) {
				return fmt.Errorf("the picture shows %q, which only %s's own view holds", w, p)
			}
		}
	}
	return nil
}

// BenchPicture measures drawing the picture of an n-player game after
// submission `after` of a self-played game, as SVG or as PNG (format "svg"
// or "png"): the cost a mail or a page adds for its picture. The board is
// taken from the state each time, as a mail does.
func (k *Kit) BenchPicture(b *testing.B, n, after int, format string) {
	var st adjudicator.State
	k.SelfPlay(b, n, "picture", nil, func(m *adjudicator.Match, sub *adjudicator.Submission) {
		if sub != nil && sub.Number == after {
			st = m.State.Clone()
		}
	})
	if st == nil {
		b.Fatalf("the game ended before submission %d", after)
	}
	p := st.(adjudicator.Picturer)
	for b.Loop() {
		pic := p.Picture()
		if format == "svg" {
			pic.SVG()
		} else if _, err := pic.PNG(); err != nil {
			b.Fatal(err)
		}
	}
}

// PicturesInFrench checks the French pictures of states, each of which
// must draw one (adjudicator.LangPicturer): the same squares, walls and
// players' scores as in English, Lang French, none of english (the
// game's English words) left in its own words (PictureWords); and that
// PictureIn in English is Picture.
func PicturesInFrench(t *testing.T, states map[string]adjudicator.State, english ...string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(states)) {
		st := states[name]
		if _, ok := st.(adjudicator.LangPicturer); !ok {
			t.Fatalf("%s: no picture in French (adjudicator.LangPicturer)", name)
		}
		en, fr := st.(adjudicator.Picturer).Picture(), adjudicator.PictureIn(st, notation.French)
		if !bytes.Equal(adjudicator.PictureIn(st, notation.English).JSON(), en.JSON()) {
			t.Errorf("%s: PictureIn in English differs from Picture", name)
		}
		if fr.Lang != notation.French {
			t.Errorf("%s: the French picture's Lang is %v", name, fr.Lang)
		}
		if !reflect.DeepEqual(fr.Cells, en.Cells) || !reflect.DeepEqual(fr.Walls, en.Walls) || fr.Cols != en.Cols || fr.Rows != en.Rows {
			t.Errorf("%s: the French picture's squares differ from the English one's", name)
		}
		for i := range en.Players {
			if p, q := en.Players[i], fr.Players[i]; p.Name != q.Name || p.Letter != q.Letter || p.Score != q.Score || p.ToMove != q.ToMove {
				t.Errorf("%s: player %d is %+v in French, %+v in English", name, i, q, p)
			}
		}
		if len(fr.Keys) != len(en.Keys) || len(fr.Legend) != len(en.Legend) {
			t.Errorf("%s: %d keys and %d lines of legend in French, %d and %d in English", name, len(fr.Keys), len(fr.Legend), len(en.Keys), len(en.Legend))
		}
		if left := EnglishLeft(PictureWords(fr), english...); left != nil {
			t.Errorf("%s: the French picture holds %q:\n%s", name, left, PictureWords(fr))
		}
	}
}
