package adjudicator_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// total returns the counting game's total.
func total(m *adjudicator.Match) int { return m.State.Board().(map[string]any)["total"].(int) }

func TestNewRecord(t *testing.T) {
	rec, err := adjudicator.NewRecord(counting, []string{"alice", "bob"}, map[string]string{"speed": "Eclair"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Seed) != 32 || rec.SeedSHA256 != adjudicator.Commit(rec.Seed) {
		t.Errorf("NewRecord with no seed: seed %q, commitment %q; want a fresh seed and its commitment", rec.Seed, rec.SeedSHA256)
	}
	if want := (map[string]string{"target": "10", "misere": "false", "speed": "éclair"}); !reflect.DeepEqual(rec.Options, want) {
		t.Errorf("Options = %v, want %v", rec.Options, want)
	}
	if rec.Format != adjudicator.FormatVersion || rec.Game != "counting" || rec.Moves != nil || rec.Position != nil {
		t.Errorf("NewRecord = %+v", rec)
	}
	players := []string{"alice", "bob"}
	rec, _ = adjudicator.NewRecord(counting, players, nil, "42", nil)
	players[0] = "mallory"
	if rec.Players[0] != "alice" {
		t.Error("NewRecord keeps the caller's players slice")
	}
	// A game without options records none.
	rec, err = adjudicator.NewRecord(reg.Games()[1], []string{"solo"}, nil, "1", nil)
	if err != nil || rec.Options != nil {
		t.Errorf("NewRecord(nogame) = %+v, %v; want no options", rec, err)
	}
	for _, tt := range []struct {
		players []string
		opts    map[string]string
		want    string
	}{
		{[]string{"alice"}, nil, "counting is for 2 to 3 players, not 1"},
		{[]string{"alice", "bob"}, map[string]string{"target": "3"}, "option target: 3 is out of range (expected 5 to 50)"},
	} {
		if _, err := adjudicator.NewRecord(counting, tt.players, tt.opts, "1", nil); err == nil || err.Error() != tt.want {
			t.Errorf("NewRecord(%v, %v) = %v, want %q", tt.players, tt.opts, err, tt.want)
		}
	}
}

func TestStartDrawsFromTheSeed(t *testing.T) {
	for seed, first := range map[string]string{"0": "alice", "42": "bob"} {
		rec, _ := adjudicator.NewRecord(counting, []string{"alice", "bob"}, nil, seed, nil)
		m, err := adjudicator.Start(reg, rec)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.State.ToMove(); !slices.Equal(got, []string{first}) {
			t.Errorf("seed %q: ToMove() = %v, want [%s]", seed, got, first)
		}
	}
}

func TestSubmit(t *testing.T) {
	m := newMatch(t)
	sub, err := m.Submit("alice", "plus 2 # two\ndone", "2026-11-23T09:00:00Z", "cli")
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	if sub.Number != 1 || sub.Player != "alice" || sub.Lang != notation.English || sub.Text() != "add 2\nend" {
		t.Errorf("Submit = %+v, text %q", sub, sub.Text())
	}
	want := []adjudicator.RecordMove{{Player: "alice", Text: "add 2\nend", Time: "2026-11-23T09:00:00Z", Source: "cli"}}
	if !reflect.DeepEqual(m.Record.Moves, want) {
		t.Errorf("Record.Moves = %+v, want %+v", m.Record.Moves, want)
	}
	if m.MoveNumber() != 2 || total(m) != 2 || !slices.Equal(m.State.ToMove(), []string{"bob"}) {
		t.Errorf("after the move: number %d, total %d, to move %v; want 2, 2, [bob]", m.MoveNumber(), total(m), m.State.ToMove())
	}
	// A submission may leave the turn open.
	if _, err := m.Submit("bob", "add 1", "", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Submit("bob", "add 1; end", "", ""); err != nil {
		t.Fatal(err)
	}
	if m.MoveNumber() != 4 || total(m) != 4 || !slices.Equal(m.State.ToMove(), []string{"alice"}) {
		t.Errorf("after bob's turn: number %d, total %d, to move %v; want 4, 4, [alice]", m.MoveNumber(), total(m), m.State.ToMove())
	}
}

// TestSubmitAllOrNothing checks that a submission failing at its second
// step changes nothing.
func TestSubmitAllOrNothing(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		step  string // the failing step's text
		inner string // the type of the step's error
		en    string // StepError.Error()
	}{
		{"rule", "add 1\nadd 5\nend", "add 5", "*adjudicator.RuleError",
			`step 2 "add 5": 2:5: you may add 1 to 3 in a turn, not 6 [rule: COUNTING.md C-1]`},
		{"notation", "add 1; add x; end", "add x", "*notation.Error",
			`step 2 "add x": 1:12: "x" is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMatch(t, "add 2\nend")
			before, _ := json.Marshal(m.View(""))
			moves := slices.Clone(m.Record.Moves)
			sub, err := m.Submit("bob", tt.text, "", "")
			if sub != nil {
				t.Errorf("Submit returned %+v with the error", sub)
			}
			var se *adjudicator.StepError
			if !errors.As(err, &se) {
				t.Fatalf("Submit error %T %v, want *StepError", err, err)
			}
			if se.Index != 2 || se.Step.Text != tt.step || fmt.Sprintf("%T", se.Err) != tt.inner {
				t.Errorf("StepError Index %d, Step %q, Err %T; want 2, %q, %s", se.Index, se.Step.Text, se.Err, tt.step, tt.inner)
			}
			if got := err.Error(); got != tt.en {
				t.Errorf("Error() = %q\nwant      %q", got, tt.en)
			}
			after, _ := json.Marshal(m.View(""))
			if string(after) != string(before) {
				t.Errorf("the view changed:\n%s\n%s", before, after)
			}
			if !reflect.DeepEqual(m.Record.Moves, moves) || m.MoveNumber() != 2 {
				t.Errorf("the record changed: %+v", m.Record.Moves)
			}
			// The clone that failed is gone: the same player plays on.
			if _, err := m.Submit("bob", "add 3\nend", "", ""); err != nil || total(m) != 5 {
				t.Errorf("Submit after the failure = %v, total %d; want nil, 5", err, total(m))
			}
		})
	}
}

func TestSubmitErrors(t *testing.T) {
	type check struct {
		index int    // of the StepError; 0 for an error that is not one
		code  string // the RuleError's code, if any
		en    string
		fr    string
	}
	tests := []struct {
		name   string
		before []string // moves played first, alice first
		player string
		text   string
		want   check
	}{
		{"not your turn", nil, "bob", "add 1",
			check{1, adjudicator.CodeNotYourTurn,
				`step 1 "add 1": 1:1: it is not bob's turn: waiting for alice`,
				`étape 1 « add 1 » : 1:1: ce n'est pas à bob de jouer : on attend alice`}},
		{"turn ends inside the submission", nil, "alice", "add 1; end; add 1",
			check{3, adjudicator.CodeNotYourTurn,
				`step 3 "add 1": 1:13: it is not alice's turn: waiting for bob`,
				`étape 3 « add 1 » : 1:13: ce n'est pas à alice de jouer : on attend bob`}},
		{"not a player", nil, "carol", "add 1",
			check{0, adjudicator.CodeNotAPlayer,
				`"carol" is not a player of this game (players: alice, bob)`,
				`« carol » n'est pas un joueur de cette partie (joueurs : alice, bob)`}},
		{"player names are exact", nil, "Alice", "add 1",
			check{0, adjudicator.CodeNotAPlayer,
				`"Alice" is not a player of this game (players: alice, bob)`,
				`« Alice » n'est pas un joueur de cette partie (joueurs : alice, bob)`}},
		{"no steps", nil, "alice", "  # nothing to say\n;\n",
			check{0, adjudicator.CodeNoSteps,
				`the submission has no steps`,
				`la soumission ne contient aucune étape`}},
		{"game over", []string{"add 3; end", "add 3; end", "add 3; end", "add 1"}, "alice", "add 1",
			check{1, adjudicator.CodeGameOver,
				`step 1 "add 1": 1:1: the game is over`,
				`étape 1 « add 1 » : 1:1: la partie est terminée`}},
		{"game over inside the submission", []string{"add 3; end", "add 3; end", "add 3; end"}, "bob", "add 1; end",
			check{2, adjudicator.CodeGameOver,
				`step 2 "end": 1:8: the game is over`,
				`étape 2 « end » : 1:8: la partie est terminée`}},
		{"rule without a position", nil, "alice", "end",
			check{1, "add-first",
				`step 1 "end": 1:1: add something before you end your turn [rule: COUNTING.md C-2]`,
				`étape 1 « end » : 1:1: ajoutez quelque chose avant de finir votre tour [règle : COUNTING.md C-2]`}},
		{"unreadable characters", nil, "alice", "add 1 $\nend €",
			check{0, "",
				"1:7: unexpected character '$'\n2:5: unexpected character '€'",
				"1:7: caractère inattendu '$'\n2:5: caractère inattendu '€'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMatch(t, tt.before...)
			before, _ := json.Marshal(m.View(""))
			_, err := m.Submit(tt.player, tt.text, "", "")
			if err == nil {
				t.Fatal("Submit succeeded")
			}
			var se *adjudicator.StepError
			if isStep := errors.As(err, &se); isStep != (tt.want.index > 0) {
				t.Errorf("error %T: StepError %v, want %v", err, isStep, tt.want.index > 0)
			} else if isStep && se.Index != tt.want.index {
				t.Errorf("StepError.Index = %d, want %d", se.Index, tt.want.index)
			}
			var re *adjudicator.RuleError
			if errors.As(err, &re) != (tt.want.code != "") || re != nil && re.Code != tt.want.code {
				t.Errorf("error %v: RuleError %+v, want code %q", err, re, tt.want.code)
			}
			if got := err.Error(); got != tt.want.en {
				t.Errorf("Error() = %q\nwant      %q", got, tt.want.en)
			}
			if got := adjudicator.Localize(err, notation.French); got != tt.want.fr {
				t.Errorf("Localize(fr) = %q\nwant          %q", got, tt.want.fr)
			}
			after, _ := json.Marshal(m.View(""))
			if string(after) != string(before) || len(m.Record.Moves) != len(tt.before) {
				t.Errorf("the match changed")
			}
		})
	}
}

func TestSubmissionLang(t *testing.T) {
	tests := []struct {
		text string
		lang notation.Lang
	}{
		{"add 1\nadd 9", notation.English},
		{"ajoute 1\nadd 9", notation.French}, // French in an earlier step
		{"add 1\najoute 9", notation.French}, // French in the failing step
		{"ajoute x", notation.French},        // French before the fault
		{"ajouter 1; fin; add 1", notation.French},
		{"xyz", notation.English},                 // nothing read
		{"add 1; end; ajoute 1", notation.French}, // not your turn, said in the language of the step refused
	}
	for _, tt := range tests {
		m := newMatch(t)
		_, err := m.Submit("alice", tt.text, "", "")
		if err == nil {
			t.Fatalf("Submit(%q) succeeded", tt.text)
		}
		if got := adjudicator.SubmissionLang(err); got != tt.lang {
			t.Errorf("SubmissionLang(Submit(%q)) = %v, want %v (error: %v)", tt.text, got, tt.lang, err)
		}
		if got := adjudicator.SubmissionLang(fmt.Errorf("wrapped: %w", err)); got != tt.lang {
			t.Errorf("SubmissionLang(wrapped) = %v, want %v", got, tt.lang)
		}
	}
	m := newMatch(t)
	sub, err := m.Submit("alice", "ajoute 2\nfin", "", "")
	if err != nil || sub.Lang != notation.French || sub.Text() != "add 2\nend" {
		t.Errorf("Submit in French = %+v, %v; want Lang fr and the canonical text", sub, err)
	}
	for _, err := range []error{nil, errors.New("x"), notation.ErrorList{{Msg: "x"}}} {
		if got := adjudicator.SubmissionLang(err); got != notation.English {
			t.Errorf("SubmissionLang(%v) = %v, want en", err, got)
		}
	}
}

func TestStepErrorPretty(t *testing.T) {
	tests := []struct {
		name   string
		player string
		text   string
		lang   notation.Lang
		want   string
	}{
		{"rule with a position", "alice", "add 1\nadd 5", notation.English,
			"step 2: 2:5: you may add 1 to 3 in a turn, not 6 [rule: COUNTING.md C-1]\n  add 5\n      ^\n"},
		{"rule in french", "alice", "ajoute 1\n  ajoute  5", notation.French,
			"étape 2 : 2:11: on ajoute de 1 à 3 par tour, pas 6 [règle : COUNTING.md C-1]\n    ajoute  5\n            ^\n"},
		{"rule at the step", "alice", "add 1; end; add 1", notation.English,
			"step 3: 1:13: it is not alice's turn: waiting for bob\n  add 1; end; add 1\n              ^\n"},
		{"notation", "alice", "add 1\nadd trois", notation.English,
			"step 2: 2:5: \"trois\" is not a number\n  add trois\n      ^\n"},
		{"notation with an example, in french", "alice", "ajoute 1; ajoutr 2", notation.French,
			"étape 2 : 1:11: verbe inconnu « ajoutr » ; vouliez-vous dire « ajoute » ou « ajouter » ?\n  ajoute 1; ajoutr 2\n            ^\n  par exemple : ajoute 2\n"},
		{"notation with an example, in english", "alice", "ad 1", notation.English,
			"step 1: 1:1: unknown verb \"ad\"; did you mean \"add\"?\n  ad 1\n  ^\n  for example: add 2\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMatch(t)
			_, err := m.Submit(tt.player, tt.text, "", "")
			if got := adjudicator.SubmissionLang(err); got != tt.lang {
				t.Errorf("SubmissionLang = %v, want %v", got, tt.lang)
			}
			var se *adjudicator.StepError
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v, want *StepError", err, err)
			}
			if got := se.Pretty(tt.lang); got != tt.want {
				t.Errorf("Pretty =\n%s\nwant\n%s", got, tt.want)
			}
			if got := adjudicator.Pretty(err, tt.lang); got != tt.want {
				t.Errorf("adjudicator.Pretty =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	// An error that is neither a notation nor a rule error is one line.
	se := &adjudicator.StepError{Index: 3, Step: &notation.Step{Text: "add 1", Pos: notation.Pos{Line: 1, Col: 1}}, Err: errors.New("disk full")}
	if got, want := se.Pretty(notation.French), "étape 3 « add 1 » : disk full\n"; got != want {
		t.Errorf("Pretty = %q, want %q", got, want)
	}
	if got, want := se.Error(), `step 3 "add 1": disk full`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(se, se.Err) {
		t.Error("errors.Is(StepError, its Err) = false")
	}
}

func TestPretty(t *testing.T) {
	_, errs := notation.Split("add $")
	tests := []struct {
		err  error
		want string
	}{
		{errs, "1:5: unexpected character '$'\n  add $\n      ^\n"},
		{errs[0], "1:5: unexpected character '$'\n  add $\n      ^\n"},
		{fmt.Errorf("turn: %w", errs), "1:5: unexpected character '$'\n  add $\n      ^\n"},
		{adjudicator.Rulef(adjudicator.CodeGameOver, "", "the game is over", "la partie est terminée"), "the game is over\n"},
		{errors.New("disk full"), "disk full\n"},
	}
	for _, tt := range tests {
		if got := adjudicator.Pretty(tt.err, notation.English); got != tt.want {
			t.Errorf("Pretty(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestRuleError(t *testing.T) {
	e := adjudicator.Rulef("lake", "raubritter-fr-scan.txt:163", "no tile on the lake %s", "aucune tuile sur le lac %s", "e5")
	if got, want := e.Error(), "no tile on the lake e5 [rule: raubritter-fr-scan.txt:163]"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := e.Localize(notation.French), "aucune tuile sur le lac e5 [règle : raubritter-fr-scan.txt:163]"; got != want {
		t.Errorf("Localize(fr) = %q, want %q", got, want)
	}
	at := e.At(notation.Pos{Line: 2, Col: 3})
	if at == e || at.Pos != (notation.Pos{Line: 2, Col: 3}) || e.Pos.IsValid() {
		t.Errorf("At: %+v from %+v; want a copy with the position", at, e)
	}
	noRule := &adjudicator.RuleError{Msg: "no", MsgFR: ""}
	if got := noRule.Localize(notation.French); got != "no" {
		t.Errorf("Localize(fr) without MsgFR or Rule = %q, want %q", got, "no")
	}
	// Localize finds a Localizer through wrapping, and drops the wrapper.
	wrapped := fmt.Errorf("move 3: %w", e)
	if got, want := adjudicator.Localize(wrapped, notation.French), "aucune tuile sur le lac e5 [règle : raubritter-fr-scan.txt:163]"; got != want {
		t.Errorf("Localize(wrapped, fr) = %q, want %q", got, want)
	}
	if got := adjudicator.Localize(errors.New("plain"), notation.French); got != "plain" {
		t.Errorf("Localize(plain) = %q", got)
	}
}

func TestCanAct(t *testing.T) {
	m := newMatch(t)
	if err := adjudicator.CanAct(m.State, "alice"); err != nil {
		t.Errorf("CanAct(alice) = %v", err)
	}
	var re *adjudicator.RuleError
	if err := adjudicator.CanAct(m.State, "bob"); !errors.As(err, &re) || re.Code != adjudicator.CodeNotYourTurn {
		t.Errorf("CanAct(bob) = %v, want not-your-turn", err)
	}
}

func TestView(t *testing.T) {
	m := newMatch(t, "add 3; end")
	data, err := json.Marshal(m.View(""))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"game":"counting","players":["alice","bob"],"to_move":["bob"],"move_number":2,"scores":{"alice":3,"bob":0},"finished":false,"result":null,"ended":null,"board":{"history":[],"target":10,"total":3}}`
	if string(data) != want {
		t.Errorf("View JSON =\n%s\nwant\n%s", data, want)
	}
	data, _ = json.Marshal(m.View("alice"))
	want = `{"game":"counting","players":["alice","bob"],"to_move":["bob"],"move_number":2,"scores":{"alice":3,"bob":0},"finished":false,"result":null,"ended":null,"board":{"history":[],"target":10,"total":3},"as":"alice","private":{"note":"nothing hidden from alice"}}`
	if string(data) != want {
		t.Errorf("View(alice) JSON =\n%s\nwant\n%s", data, want)
	}
	m = newMatch(t, "add 3; end", "add 3; end", "add 3; end", "add 1")
	data, _ = json.Marshal(m.View(""))
	want = `{"game":"counting","players":["alice","bob"],"to_move":[],"move_number":5,"scores":{"alice":6,"bob":4},"finished":true,"result":{"winners":["bob"],"draw":false,"shared":[],"summary":"bob reached 10 and wins"},"ended":null,"board":{"history":[],"target":10,"total":10}}`
	if string(data) != want {
		t.Errorf("View JSON of a finished game =\n%s\nwant\n%s", data, want)
	}
	// A draw: no winners is an empty list, not null; shared lists who
	// shares the draw.
	m.State = drawState{m.State.(*countState)}
	data, _ = json.Marshal(m.View(""))
	want = `{"game":"counting","players":["alice","bob"],"to_move":[],"move_number":5,"scores":{"alice":6,"bob":4},"finished":true,"result":{"winners":[],"draw":true,"shared":["alice","bob"],"summary":"nobody wins"},"ended":null,"board":{"history":[],"target":10,"total":10}}`
	if string(data) != want {
		t.Errorf("View JSON of a draw =\n%s\nwant\n%s", data, want)
	}
}

// drawState is a counting game that ended in a draw.
type drawState struct{ *countState }

func (drawState) ToMove() []string { return nil }
func (drawState) Result() adjudicator.Result {
	return adjudicator.Result{Finished: true, Draw: true, Shared: []string{"alice", "bob"}, Summary: "nobody wins"}
}

// TestCheckTurnFile: a turn file for another game, another move or no
// player is refused in the language its steps are written in (issue 15
// items 11 and 19); a move that has not come yet is not called stale.
func TestCheckTurnFile(t *testing.T) {
	m := newMatch(t, "add 1\nend", "add 1\nend") // at move 3, alice to play
	steps := func(text string) []*notation.Step {
		s, errs := notation.Split(text)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return s
	}
	tests := []struct {
		name     string
		tf       notation.TurnFile
		code, en string
		fr       string
	}{
		{"ok", notation.TurnFile{Game: "Counting", Player: "ALICE", Move: 3, Steps: steps("add 1")}, "", "", ""},
		{"wrong game", notation.TurnFile{Game: "chess", Player: "alice", Move: 3, Steps: steps("ajoute 1")}, adjudicator.CodeWrongGame,
			`the turn file is for "chess", but this is a game of counting`, "le fichier de tour est pour « chess », mais cette partie est une partie de counting"},
		{"stale", notation.TurnFile{Game: "counting", Player: "alice", Move: 2, Steps: steps("add 1")}, adjudicator.CodeStaleMove,
			"the turn file answers move 2, but the game is at move 3; it is stale (move 2 was played already): look at the board again with show", ""},
		{"stale in French", notation.TurnFile{Game: "counting", Player: "alice", Move: 2, Steps: steps("ajoute 1\nfin")}, adjudicator.CodeStaleMove,
			"", "le fichier de tour répond au coup 2, mais la partie en est au coup 3 ; il est périmé (le coup 2 a déjà été joué) : regardez de nouveau le plateau (show)"},
		{"early", notation.TurnFile{Game: "counting", Player: "alice", Move: 4, Steps: steps("add 1")}, adjudicator.CodeEarlyMove,
			"the turn file answers move 4, which has not come yet: the game is at move 3; look at the board again with show", ""},
		{"early in French", notation.TurnFile{Game: "counting", Player: "alice", Move: 9, Steps: steps("add 1; fin")}, adjudicator.CodeEarlyMove,
			"", "le fichier de tour répond au coup 9, qui n'est pas encore venu : la partie en est au coup 3 ; regardez de nouveau le plateau (show)"},
		{"not a player in French", notation.TurnFile{Game: "counting", Player: "carol", Move: 3, Steps: steps("ajoute 1")}, adjudicator.CodeNotAPlayer,
			"", "« carol » n'est pas un joueur de cette partie (joueurs : alice, bob)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			player, lang, err := m.CheckTurnFile(&tt.tf)
			if tt.code == "" {
				if err != nil || player != "alice" {
					t.Fatalf("CheckTurnFile = %q, %v; want alice", player, err)
				}
				return
			}
			var re *adjudicator.RuleError
			if !errors.As(err, &re) || re.Code != tt.code {
				t.Fatalf("CheckTurnFile error = %v; want code %s", err, tt.code)
			}
			want, wantLang := tt.en, notation.English
			if tt.fr != "" {
				want, wantLang = tt.fr, notation.French
			}
			if lang != wantLang {
				t.Errorf("lang = %v, want %v", lang, wantLang)
			}
			if got := adjudicator.Localize(err, lang); got != want {
				t.Errorf("CheckTurnFile error =\n  %s\nwant\n  %s", got, want)
			}
		})
	}
}

// TestStartErrorsInFrench: the errors of a game that cannot start as asked
// (options, players) speak French too (issue 15 item 19).
func TestStartErrorsInFrench(t *testing.T) {
	tests := []struct {
		err    error
		en, fr string
	}{
		{func() error { _, err := counting.ResolveOptions(map[string]string{"targt": "1"}); return err }(),
			`unknown option "targt" for counting; did you mean "target"?`, "option inconnue « targt » pour counting ; vouliez-vous dire « target » ?"},
		{func() error { _, err := counting.ResolveOptions(map[string]string{"target": "99"}); return err }(),
			"option target: 99 is out of range (expected 5 to 50)", "option target : 99 est hors limites (attendu : de 5 à 50)"},
		{func() error { _, err := counting.ResolveOptions(map[string]string{"misere": "peut-être"}); return err }(),
			`option misere: "peut-être" is not true or false`, "option misere : « peut-être » n'est ni true ni false (ni oui ni non)"},
		{counting.CheckPlayers([]string{"a"}), "counting is for 2 to 3 players, not 1", "counting se joue de 2 à 3 joueurs, pas 1"},
		{counting.CheckPlayers([]string{"a", "A"}), `player "A" is listed twice`, "le joueur « A » est nommé deux fois"},
		{counting.CheckPlayers([]string{"a", "b c"}), `player name "b c" has ' '; use letters, digits and . _ @ + -`,
			"le nom de joueur « b c » contient ' ' ; utilisez des lettres, des chiffres et . _ @ + -"},
		{func() error { _, err := reg.Lookup("countng"); return err }(), `unknown game "countng"; did you mean "counting"?`, "jeu inconnu « countng » ; vouliez-vous dire « counting » ?"},
	}
	for _, tt := range tests {
		if got := adjudicator.Localize(tt.err, notation.English); got != tt.en {
			t.Errorf("English:\n  %s\nwant\n  %s", got, tt.en)
		}
		if got := adjudicator.Localize(tt.err, notation.French); got != tt.fr {
			t.Errorf("French:\n  %s\nwant\n  %s", got, tt.fr)
		}
	}
}

// TestResignAndAbandon: the record holds how a game ended early, nothing is
// accepted after it, the view and the report say so, and the ending
// survives a save and a load (issue 15 item 16, RULINGS.md H-1).
func TestResignAndAbandon(t *testing.T) {
	m := newMatch(t, "add 3; end")
	if err := m.Resign("carol", "", ""); err == nil || !strings.Contains(err.Error(), `"carol" cannot resign`) {
		t.Errorf("Resign(carol) = %v", err)
	}
	if err := m.Resign("bob", "2026-11-23T10:00:00Z", "mail:<r@example.org>"); err != nil {
		t.Fatalf("Resign(bob): %v", err)
	}
	want := adjudicator.Ending{How: "resigned", By: "bob", Time: "2026-11-23T10:00:00Z", Source: "mail:<r@example.org>"}
	if m.Record.Ended == nil || *m.Record.Ended != want {
		t.Fatalf("Record.Ended = %+v, want %+v", m.Record.Ended, want)
	}
	_, err := m.Submit("bob", "add 1", "", "")
	var re *adjudicator.RuleError
	if !errors.As(err, &re) || re.Code != adjudicator.CodeGameEnded || err.Error() != "the game is over: bob resigned [rule: RULINGS.md H-1]" {
		t.Errorf("Submit after resign = %v", err)
	}
	if re != nil && re.Localize(notation.French) != "la partie est terminée : bob a abandonné [règle : RULINGS.md H-1]" {
		t.Errorf("in French: %s", re.Localize(notation.French))
	}
	if err := m.Abandon("host", "", ""); err == nil || !strings.Contains(err.Error(), "bob resigned") {
		t.Errorf("Abandon after resign = %v", err)
	}
	v := m.View("")
	if len(v.ToMove) != 0 || v.Ended == nil || v.Ended.By != "bob" || v.Ended.How != "resigned" || v.Finished {
		t.Errorf("View after resign = %+v, ended %+v", v, v.Ended)
	}
	data, err := m.Record.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "ended:\n  how: resigned\n  by: bob\n  time: \"2026-11-23T10:00:00Z\"\n  source: mail:<r@example.org>\nseal: ") {
		t.Errorf("record =\n%s\nwant an ended entry before the seal", data)
	}
	rec, err := adjudicator.ParseRecord("r.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := adjudicator.Adjudicate(reg, rec)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.Write(&b)
	if !strings.Contains(b.String(), "result: none by the rules: the game ended early, bob resigned (2026-11-23T10:00:00Z, mail:<r@example.org>) (RULINGS.md H-1)\n") {
		t.Errorf("report =\n%s", b.String())
	}
	// Abandon by the host.
	m = newMatch(t, "add 3; end")
	if err := m.Abandon("host@example.org", "", "cli"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Submit("bob", "add 1", "", ""); err == nil || err.Error() != "the game is over: it was abandoned by host@example.org [rule: RULINGS.md H-1]" {
		t.Errorf("Submit after abandon = %v", err)
	}
	// A game over by the rules cannot be resigned.
	m = newMatch(t, "add 3; end", "add 3; end", "add 3; end", "add 1")
	if err := m.Resign("alice", "", ""); err == nil || err.Error() != "the game is over" {
		t.Errorf("Resign after the end = %v", err)
	}
}

// TestPublicSource: a source shared with anyone (the record of a game's
// page, export --public) holds no Message-ID, bracketed or bare as the
// mail service writes it ("mail:" and the mail's Message-ID, found by
// hand over real mail on a page's record.yaml), and keeps the rest.
func TestPublicSource(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"mail:<x@example.org>", "mail"},
		{"mail:179587229741.2125.8@herald.test", "mail"},
		{"mail:x@example.org turn:t.yaml", "mail turn:t.yaml"},
		{"mail:<x@example.org> turn:t.yaml", "mail turn:t.yaml"},
		{"cli", "cli"},
		{"turn:t.yaml", "turn:t.yaml"},
		{"bot:2", "bot:2"},
		{"", ""},
	} {
		if got := adjudicator.PublicSource(c.in); got != c.want {
			t.Errorf("PublicSource(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
