package adjudicator_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
)

func TestResolveOptions(t *testing.T) {
	defaults := adjudicator.Options{"target": "10", "misere": "false", "speed": "normal"}
	with := func(k, v string) adjudicator.Options {
		o := maps.Clone(defaults)
		o[k] = v
		return o
	}
	tests := []struct {
		name  string
		given map[string]string
		want  adjudicator.Options
		err   string
	}{
		{name: "nil gives the defaults", given: nil, want: defaults},
		{name: "empty gives the defaults", given: map[string]string{}, want: defaults},
		{name: "int", given: map[string]string{"target": "20"}, want: with("target", "20")},
		{name: "int canonical", given: map[string]string{"target": " +012 "}, want: with("target", "12")},
		{name: "int at min", given: map[string]string{"target": "5"}, want: with("target", "5")},
		{name: "int at max", given: map[string]string{"target": "50"}, want: with("target", "50")},
		{name: "int below", given: map[string]string{"target": "4"}, err: "option target: 4 is out of range (expected 5 to 50)"},
		{name: "int above", given: map[string]string{"target": "51"}, err: "option target: 51 is out of range (expected 5 to 50)"},
		{name: "int not a number", given: map[string]string{"target": "ten"}, err: `option target: "ten" is not a whole number (expected 5 to 50)`},
		{name: "int fraction", given: map[string]string{"target": "10.5"}, err: `option target: "10.5" is not a whole number (expected 5 to 50)`},
		{name: "enum folded", given: map[string]string{"speed": "ECLAIR"}, want: with("speed", "éclair")},
		{name: "enum accented", given: map[string]string{"speed": " Éclair "}, want: with("speed", "éclair")},
		{name: "enum case", given: map[string]string{"speed": "Normal"}, want: defaults},
		{name: "enum unknown", given: map[string]string{"speed": "slow"}, err: `option speed: "slow" is not one of normal, éclair`},
		{name: "bool unknown", given: map[string]string{"misere": "maybe"}, err: `option misere: "maybe" is not true or false`},
		{name: "bool empty", given: map[string]string{"misere": ""}, err: `option misere: "" is not true or false`},
		{name: "unknown with a suggestion", given: map[string]string{"targt": "12"}, err: `unknown option "targt" for counting; did you mean "target"?`},
		{name: "unknown", given: map[string]string{"colour": "red"}, err: `unknown option "colour" for counting (options: target, misere, speed)`},
		{name: "first error in name order", given: map[string]string{"zzz": "1", "speed": "slow", "aaa": "1"}, err: `unknown option "aaa" for counting (options: target, misere, speed)`},
		{name: "names are case-sensitive", given: map[string]string{"Target": "12"}, err: `unknown option "Target" for counting; did you mean "target"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := counting.ResolveOptions(tt.given)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("ResolveOptions(%v) = %v, %v; want error %q", tt.given, got, err, tt.err)
				}
				return
			}
			if err != nil || !maps.Equal(got, tt.want) {
				t.Fatalf("ResolveOptions(%v) = %v, %v; want %v", tt.given, got, err, tt.want)
			}
		})
	}
}

func TestResolveOptionsBool(t *testing.T) {
	for _, v := range []string{"true", "TRUE", "yes", "Yes", "on", "1", "oui", "OUI", "vrai", "Vrai", " yes "} {
		got, err := counting.ResolveOptions(map[string]string{"misere": v})
		if err != nil || got["misere"] != "true" || !got.Bool("misere") {
			t.Errorf("ResolveOptions(misere=%q) = %v, %v; want true", v, got, err)
		}
	}
	for _, v := range []string{"false", "False", "no", "NO", "off", "0", "non", "Non", "faux", "FAUX"} {
		got, err := counting.ResolveOptions(map[string]string{"misere": v})
		if err != nil || got["misere"] != "false" || got.Bool("misere") {
			t.Errorf("ResolveOptions(misere=%q) = %v, %v; want false", v, got, err)
		}
	}
}

func TestResolveOptionsNoOptions(t *testing.T) {
	g := &adjudicator.Game{Name: "plain"}
	got, err := g.ResolveOptions(nil)
	if err != nil || len(got) != 0 {
		t.Errorf("ResolveOptions(nil) = %v, %v; want empty", got, err)
	}
	_, err = g.ResolveOptions(map[string]string{"x": "1"})
	if want := `unknown option "x": plain has no options`; err == nil || err.Error() != want {
		t.Errorf("ResolveOptions(x=1) = %v; want %q", err, want)
	}
}

func TestOptionsAccessors(t *testing.T) {
	o, err := counting.ResolveOptions(map[string]string{"target": "12", "misere": "oui", "speed": "eclair"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Int("target") != 12 || !o.Bool("misere") || o.String("speed") != "éclair" {
		t.Errorf("Int, Bool, String = %d, %v, %q; want 12, true, éclair", o.Int("target"), o.Bool("misere"), o.String("speed"))
	}
	if o.Int("missing") != 0 || o.Bool("missing") || o.String("missing") != "" {
		t.Error("accessors of a missing option are not zero")
	}
}

func TestOptionDescribe(t *testing.T) {
	var got []string
	for _, o := range counting.Options {
		got = append(got, o.Describe())
	}
	want := "target=10 (5..50): the total that wins\n" +
		"misere=false (bool): whoever reaches the target loses\n" +
		"speed=normal (normal|éclair): how fast"
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("Describe() =\n%s\nwant\n%s", g, want)
	}
	for typ, want := range map[adjudicator.OptionType]string{adjudicator.OptInt: "int", adjudicator.OptBool: "bool", adjudicator.OptEnum: "enum"} {
		if typ.String() != want {
			t.Errorf("OptionType(%d).String() = %q, want %q", int(typ), typ.String(), want)
		}
	}
}

func TestRegistry(t *testing.T) {
	tests := []struct {
		name string
		want string // the game's name, or the error
	}{
		{"counting", "counting"},
		{"COUNTING", "counting"},
		{"Côunting", "counting"},
		{"countng", `unknown game "countng"; did you mean "counting"?`},
		{"nogam", `unknown game "nogam"; did you mean "nogame"?`},
		{"chess", `unknown game "chess" (games: counting, nogame)`},
		{"", `unknown game "" (games: counting, nogame)`},
	}
	for _, tt := range tests {
		g, err := reg.Lookup(tt.name)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = g.Name
		}
		if got != tt.want {
			t.Errorf("Lookup(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	games := reg.Games()
	if len(games) != 2 || games[0] != counting {
		t.Fatalf("Games() = %v; want counting, nogame", games)
	}
	games[0] = nil
	if reg.Games()[0] != counting {
		t.Error("Games() returns the registry's own slice")
	}
}

func TestNewRegistryDuplicate(t *testing.T) {
	defer func() {
		if r := recover(); r != "adjudicator: game counting registered twice" {
			t.Errorf("NewRegistry(counting, counting) panic = %v", r)
		}
	}()
	adjudicator.NewRegistry(counting, counting)
}

func TestCheckPlayers(t *testing.T) {
	tests := []struct {
		players []string
		err     string
	}{
		{[]string{"alice", "bob"}, ""},
		{[]string{"alice", "bob", "carol"}, ""},
		{[]string{"alice@x.org", "Bob_Smith+games", "c.d-e9"}, ""},
		{[]string{strings.Repeat("a", 64), "b"}, ""},
		{[]string{"alice"}, "counting is for 2 to 3 players, not 1"},
		{nil, "counting is for 2 to 3 players, not 0"},
		{[]string{"a", "b", "c", "d"}, "counting is for 2 to 3 players, not 4"},
		{[]string{"alice", "Alice"}, `player "Alice" is listed twice`},
		{[]string{"bob", "alice", "BOB"}, `player "BOB" is listed twice`},
		{[]string{"alice", ""}, "a player name is empty"},
		{[]string{"al ice", "bob"}, `player name "al ice" has ' '; use letters, digits and . _ @ + -`},
		{[]string{"élodie", "bob"}, `player name "élodie" has 'é'; use letters, digits and . _ @ + -`},
		{[]string{"bob", "a,b"}, `player name "a,b" has ','; use letters, digits and . _ @ + -`},
		{[]string{"bob", "a\nb"}, `player name "a\nb" has '\n'; use letters, digits and . _ @ + -`},
		{[]string{strings.Repeat("a", 65), "b"}, `player name "` + strings.Repeat("a", 65) + `" is longer than 64 characters`},
	}
	for _, tt := range tests {
		err := counting.CheckPlayers(tt.players)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("CheckPlayers(%q) = %q, want %q", tt.players, got, tt.err)
		}
	}
}

// TestRecordOptions: an option with a Before means that value in a record
// that predates it (its name missing), and its Default in a new record,
// which writes it; a record that names it keeps what it names.
func TestRecordOptions(t *testing.T) {
	g := &adjudicator.Game{Name: "rules", Options: []adjudicator.Option{
		{Name: "rule", Doc: "which rule", Type: adjudicator.OptEnum, Default: "new", Values: []string{"new", "old"}, Before: "old"},
		{Name: "speed", Doc: "how fast", Type: adjudicator.OptEnum, Default: "normal", Values: []string{"normal", "fast"}},
	}, MinPlayers: 2, MaxPlayers: 2}
	tests := []struct {
		recorded map[string]string
		want     adjudicator.Options
	}{
		{nil, adjudicator.Options{"rule": "old", "speed": "normal"}},
		{map[string]string{"speed": "fast"}, adjudicator.Options{"rule": "old", "speed": "fast"}},
		{map[string]string{"rule": "new", "speed": "normal"}, adjudicator.Options{"rule": "new", "speed": "normal"}},
		{map[string]string{"rule": "old"}, adjudicator.Options{"rule": "old", "speed": "normal"}},
	}
	for _, tt := range tests {
		got, err := g.RecordOptions(tt.recorded)
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("RecordOptions(%v) = %v, %v; want %v", tt.recorded, got, err, tt.want)
		}
	}
	if _, err := g.RecordOptions(map[string]string{"rule": "older"}); err == nil {
		t.Error("RecordOptions(rule=older) took a value not among the option's")
	}
	rec, err := adjudicator.NewRecord(g, []string{"a", "b"}, nil, "s", nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Options["rule"] != "new" {
		t.Errorf("NewRecord options %v, want rule=new written", rec.Options)
	}
	if d, want := g.Options[0].Describe(), "rule=new (new|old): which rule; records from before this option: rule=old"; d != want {
		t.Errorf("Describe() = %q, want %q", d, want)
	}
}

func TestRegistryChecksBefore(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `Before "Old" is not one of its values`) {
			t.Errorf("NewRegistry with a Before not canonical: recovered %v", r)
		}
	}()
	adjudicator.NewRegistry(&adjudicator.Game{Name: "rules", Options: []adjudicator.Option{
		{Name: "rule", Type: adjudicator.OptEnum, Default: "new", Values: []string{"new", "old"}, Before: "Old"}}})
}
