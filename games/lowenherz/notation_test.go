package lowenherz

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// testState is a 3-player game in its play phase with known hands.
func testState(t *testing.T) *State {
	t.Helper()
	s := playSetup(t, 3, "notation")
	s.players[s.turn].hand = []Card{{'A', Borders2}, {'B', KnightOrExtension}, {'C', KnightOrExtension}}
	return s
}

// playSetup plays the setup with the first legal step each time.
func playSetup(t testing.TB, n int, seed string) *State {
	s := newState(t, n, seed)
	for s.phase == phaseSetup {
		p := s.ToMove()[0]
		l := s.Legal(p)
		if err := s.Apply(p, l[len(l)/2]); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestParse(t *testing.T) {
	s := testState(t)
	p := s.names[s.turn]
	for _, tc := range []struct{ in, want string }{
		{"play A 2 borders", "play A 2 borders"},
		{"jouer 2 frontières", "play A 2 borders"},
		{"JOUER a 2 Frontieres", "play A 2 borders"},
		{"sell 2 borders", "sell A 2 borders"},
		{"vendre B chevalier ou extension", "sell B knight or extension"},
		{"play B knight/extension as extension", "play B knight or extension as extension"},
		{"jouer C chevalier ou extension comme chevaliers", "play C knight or extension as knights"},
		{"border e5|e6", "border e5|e6"},
		{"frontière e6-e5", "border e5|e6"},
		{"border e5 south", "border e5|e6"},
		{"frontière e5 ouest", "border d5|e5"},
		{"knight g7", "knight g7"},
		{"chevalier G7", "knight g7"},
		{"extend c3 c4", "extend c3 c4"},
		{"étendre c3 domaine a1", "extend c3 domain a1"},
		{"transfuge f5 g7", "deserter f5 g7"},
		{"alliance e5/e6", "alliance e5|e6"},
		{"piocher", "draw"},
		{"prendre A 1 chevalier", "take A 1 knight"},
		{"fin", "end"},
		{"château a1 chevalier b1", "castle a1 knight b1"},
	} {
		m, err := parseText(s, p, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if m.String() != tc.want {
			t.Errorf("%q read as %q, want %q", tc.in, m, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	s := testState(t)
	p := s.names[s.turn]
	for _, tc := range []struct{ in, want string }{
		{"bordre e5|e6", `did you mean "border"`},
		{"chevalierr g7", `did you mean "chevalier"`},
		{"border e5|e7", "are not side by side"},
		{"border a1 north", "the rim of the board"},
		{"knight m3", "not a square"},
		{"play knight or extension", "say which, with its letter"},
		{"play B knight or extension", "offers knights or extension: say which"},
		{"play 4 borders", "no card is called"},
		{"play A 2 borders now", `unknown action "now"`}, {"draw now", "at the end of the step"},
		{"play A bordres", `did you mean "borders"`},
	} {
		_, err := parseText(s, p, tc.in)
		if err == nil {
			t.Errorf("%q: accepted", tc.in)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want %q", tc.in, err, tc.want)
		}
		var ne *notation.Error
		if e, ok := err.(*notation.Error); ok {
			ne = e
		}
		if ne == nil || !ne.Pos.IsValid() {
			t.Errorf("%q: no position in %v", tc.in, err)
		}
	}
}

// TestIllegal checks every kind of illegal step and the rule it cites.
func TestIllegal(t *testing.T) {
	s := testState(t)
	p := s.names[s.turn]
	other := s.names[(s.turn+1)%3]
	for _, tc := range []struct {
		steps []string
		who   string
		code  string
	}{
		{[]string{"draw"}, p, "card-first"},
		{[]string{"border e5|e6"}, p, "play-first"},
		{[]string{"sell A 3 borders"}, p, "not-in-hand"},
		{[]string{"play A 2 borders"}, other, adjudicator.CodeNotYourTurn},
		{[]string{"play A 2 borders", "knight g7"}, p, "wrong-action"},
		{[]string{"play A 2 borders", "play B knight or extension as knights"}, p, "one-card"},
		{[]string{"play A 2 borders", "border e5|e6", "border e5|e6"}, p, "border-there"},
		{[]string{"sell A 2 borders", "border e5|e6"}, p, "action-over"},
		{[]string{"sell A 2 borders", "take A 2 borders"}, p, "sold-back"},
		{[]string{"sell A 2 borders", "end"}, p, "must-refill"},
		{[]string{"castle a1 knight b1"}, p, "not-setup"},
	} {
		c := s.clone()
		var err error
		for _, text := range tc.steps {
			var m adjudicator.Move
			m, err = parseText(c, tc.who, text)
			if err != nil {
				t.Fatalf("%v: %q: %v", tc.steps, text, err)
			}
			if err = c.Apply(tc.who, m); err != nil {
				break
			}
		}
		re, ok := err.(*adjudicator.RuleError)
		if !ok || re.Code != tc.code {
			t.Errorf("%v: got %v, want code %s", tc.steps, err, tc.code)
			continue
		}
		if tc.code != adjudicator.CodeNotYourTurn && re.Rule == "" {
			t.Errorf("%v: no rule cited", tc.steps)
		}
	}
}

func TestBoardWidth(t *testing.T) {
	s := playRandom(t, 4, "width", false)
	for _, as := range []string{"", "red"} {
		for _, line := range strings.Split(s.Text(as), "\n") {
			if n := len([]rune(line)); n > textWidth {
				t.Errorf("line of %d columns: %q", n, line)
			}
		}
	}
}
