package adjudicator_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

const sha42 = "73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049"

// recordYAML is a record as Marshal writes it, with every kind of field.
const recordYAML = `herald: 2
game: counting
options:
  misere: "false"
  speed: éclair
  target: "12"
players:
  - alice
  - bob
seed_sha256: 73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049
seed: "42"
position:
  total: 3
  to_move: bob
  added: 0
  scores: [3, 0]
moves:
  - player: bob
    text: |-
      add 1
      add 2
      end
    time: "2026-11-23T09:00:00Z"
    source: mail:<abc@example.org>
    digest: 5f9bf8a489379c8ed892f3692f3d805aac63acf5f09b3b20c62516a6622b4710
  - player: alice
    text: add 3
    source: cli
    digest: a18c4c031c63455140905b4d3c0a93e7fb4dff962aaa43bcf9a7945db8382c2c
seal: a18c4c031c63455140905b4d3c0a93e7fb4dff962aaa43bcf9a7945db8382c2c
`

// recordV1YAML is recordYAML in format 1, before digests.
const recordV1YAML = `herald: 1
game: counting
options:
  misere: "false"
  speed: éclair
  target: "12"
players:
  - alice
  - bob
seed_sha256: 73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049
seed: "42"
position:
  total: 3
  to_move: bob
  added: 0
  scores: [3, 0]
moves:
  - player: bob
    text: |-
      add 1
      add 2
      end
    time: "2026-11-23T09:00:00Z"
    source: mail:<abc@example.org>
  - player: alice
    text: add 3
    source: cli
`

func TestRecordRoundTrip(t *testing.T) {
	rec, err := adjudicator.ParseRecord("game.yaml", []byte(recordYAML))
	if err != nil {
		t.Fatalf("ParseRecord: %v", err)
	}
	if rec.Format != 2 || rec.Game != "counting" || rec.Seed != "42" || rec.SeedSHA256 != sha42 ||
		!reflect.DeepEqual(rec.Players, []string{"alice", "bob"}) ||
		!reflect.DeepEqual(rec.Options, map[string]string{"misere": "false", "speed": "éclair", "target": "12"}) {
		t.Errorf("ParseRecord = %+v", rec)
	}
	wantMoves := []adjudicator.RecordMove{
		{Player: "bob", Text: "add 1\nadd 2\nend", Time: "2026-11-23T09:00:00Z", Source: "mail:<abc@example.org>"},
		{Player: "alice", Text: "add 3", Source: "cli"},
	}
	if !reflect.DeepEqual(rec.Moves, wantMoves) {
		t.Errorf("Moves = %+v\nwant %+v", rec.Moves, wantMoves)
	}
	if rec.Position == nil || rec.Position.Kind != yaml.MappingNode {
		t.Fatalf("Position = %v, want a mapping", rec.Position)
	}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if string(data) != recordYAML {
		t.Errorf("Marshal(ParseRecord(x)) =\n%s\nwant x =\n%s", data, recordYAML)
	}
	rec2, err := adjudicator.ParseRecord("game.yaml", data)
	if err != nil {
		t.Fatalf("ParseRecord(Marshal): %v", err)
	}
	data2, err := rec2.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if string(data2) != string(data) {
		t.Errorf("Marshal → ParseRecord → Marshal differs:\n%s\nthen\n%s", data, data2)
	}
	// The record replays from its position.
	m, err := adjudicator.Start(reg, rec)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if got := m.View("").Board.(map[string]any)["total"]; got != 9 {
		t.Errorf("total after replay = %v, want 9", got)
	}
}

// TestRecordFormat1 checks that a record written before digests still
// loads, is told apart by its format (it is not protected), and is saved
// in the current format.
func TestRecordFormat1(t *testing.T) {
	rec, err := adjudicator.ParseRecord("old.yaml", []byte(recordV1YAML))
	if err != nil {
		t.Fatalf("ParseRecord(format 1): %v", err)
	}
	if rec.Format != 1 || len(rec.Moves) != 2 {
		t.Errorf("ParseRecord(format 1) = %+v", rec)
	}
	data, err := rec.Marshal()
	if err != nil || string(data) != recordYAML {
		t.Errorf("Marshal(format 1 record) = %v\n%s\nwant\n%s", err, data, recordYAML)
	}
	// Format 1 knows no digests: one is an error, not ignored.
	withDigest := strings.Replace(recordV1YAML, "    source: cli\n", "    source: cli\n    digest: "+sha42+"\n", 1)
	if _, err := adjudicator.ParseRecord("old.yaml", []byte(withDigest)); err == nil || !strings.Contains(err.Error(), "old.yaml:28:13: move 2 has a digest, but format 1 has none") {
		t.Errorf("ParseRecord(format 1 with a digest) = %v", err)
	}
}

// TestRecordTruncated cuts a record at every byte: each cut is refused but
// the one that only drops the final newline (issue 15 item 4: a record cut
// inside its last move's text was read as a shorter, legal move).
func TestRecordTruncated(t *testing.T) {
	rec, err := adjudicator.ParseRecord("game.yaml", []byte(recordYAML))
	if err != nil {
		t.Fatal(err)
	}
	rec.Ended = &adjudicator.Ending{How: adjudicator.EndResigned, By: "bob", Time: "2026-11-23T10:00:00Z", Source: "mail:<r@example.org>"}
	full, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(full)-1; n++ {
		if got, err := adjudicator.ParseRecord("cut.yaml", full[:n]); err == nil {
			t.Fatalf("ParseRecord(first %d of %d bytes) = %+v, nil; want an error\n%s", n, len(full), got, full[:n])
		}
	}
	// Where the cut is said to be.
	for _, tt := range []struct{ cut, want string }{
		{"      add 2\n", `cut.yaml:18:5: move 1 has no digest: the record was cut short or edited here`},
		{"    source: cli\n", `cut.yaml:26:5: move 2 has no digest`},
		{"  source: mail:<r@example.org>\n", `cut.yaml:34:1: the record has no seal: it was cut short`},
	} {
		i := strings.Index(string(full), tt.cut)
		if i < 0 {
			t.Fatalf("%q not in\n%s", tt.cut, full)
		}
		_, err := adjudicator.ParseRecord("cut.yaml", full[:i+len(tt.cut)])
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("cut after %q: %v\nwant %s", tt.cut, err, tt.want)
		}
	}
}

// TestRecordTampered edits one field at a time: the record is refused at
// the line of the first digest that no longer matches.
func TestRecordTampered(t *testing.T) {
	rec, err := adjudicator.ParseRecord("game.yaml", []byte(recordYAML))
	if err != nil {
		t.Fatal(err)
	}
	rec.Ended = &adjudicator.Ending{How: adjudicator.EndResigned, By: "bob", Time: "2026-11-23T10:00:00Z", Source: "mail:<r@example.org>"}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	full := string(data)
	if _, err := adjudicator.ParseRecord("t.yaml", data); err != nil {
		t.Fatalf("ParseRecord(untouched): %v", err)
	}
	tests := []struct{ from, to, want string }{
		{"      add 2\n", "      add 3\n", "t.yaml:25:13: move 1: its digest does not match the record up to it"},
		{"    text: add 3", "    text: add 2", "t.yaml:29:13: move 2: its digest does not match"},
		{"    source: cli", "    source: mail:<x@y>", "t.yaml:29:13: move 2: its digest does not match"},
		{"  - bob\n", "  - carol\n", "t.yaml:25:13: move 1: its digest does not match"}, // the header is hashed too
		{"  added: 0", "  added: 1", "t.yaml:25:13: move 1: its digest does not match"},
		{"  target: \"12\"", "  target: \"13\"", "t.yaml:25:13: move 1: its digest does not match"},
		{"  by: bob", "  by: alice", "t.yaml:35:7: seal: does not match the record above it: the ended entry or the last move was changed"},
		{"  how: resigned", "  how: abandoned", "t.yaml:35:7: seal: does not match"},
	}
	for _, tt := range tests {
		edited := strings.Replace(full, tt.from, tt.to, 1)
		if edited == full {
			t.Fatalf("%q not in\n%s", tt.from, full)
		}
		_, err := adjudicator.ParseRecord("t.yaml", []byte(edited))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q → %q: ParseRecord = %v\nwant %s…", tt.from, tt.to, err, tt.want)
		}
	}
	// The seed is not hashed: the public copy without it verifies.
	pub := strings.Replace(full, "seed: \"42\"\n", "", 1)
	if _, err := adjudicator.ParseRecord("t.yaml", []byte(pub)); err != nil {
		t.Errorf("ParseRecord(public copy): %v", err)
	}
}

func TestRecordMarshalNew(t *testing.T) {
	rec, err := adjudicator.NewRecord(counting, []string{"alice", "bob"}, map[string]string{"target": "20"}, "42", nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `herald: 2
game: counting
options:
  misere: "false"
  speed: normal
  target: "20"
players:
  - alice
  - bob
seed_sha256: 73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049
seed: "42"
moves: []
seal: dfe988ca709b0deb45cf53ea4644ca90dd0bd72649d7a30ab1ba57b7ac68a81e
`
	if string(data) != want {
		t.Errorf("Marshal() =\n%s\nwant\n%s", data, want)
	}
	// A public copy has no seed, and a game without options no options key.
	rec.Seed, rec.Options = "", nil
	data, _ = rec.Marshal()
	if strings.Contains(string(data), "seed:") || strings.Contains(string(data), "options") {
		t.Errorf("Marshal() of a public copy =\n%s", data)
	}
	back, err := adjudicator.ParseRecord("public.yaml", data)
	if err != nil || back.Seed != "" || back.Moves != nil {
		t.Errorf("ParseRecord(public copy) = %+v, %v", back, err)
	}
}

func TestParseRecordErrors(t *testing.T) {
	// base is a valid record; each case replaces one line of it.
	base := strings.Join([]string{
		"herald: 1",      // 1
		"game: counting", // 2
		"players: [alice, bob]",
		"seed_sha256: " + sha42,
		`seed: "42"`,
		"moves:",
		"  - player: alice",
		"    text: add 1",
		"    time: 2026-11-23T09:00:00Z",
	}, "\n") + "\n"
	if _, err := adjudicator.ParseRecord("r.yaml", []byte(base)); err != nil {
		t.Fatalf("ParseRecord(base): %v", err)
	}
	replace := func(line int, with string) string {
		lines := strings.Split(base, "\n")
		lines[line-1] = with
		return strings.Join(lines, "\n")
	}
	tests := []struct {
		name string
		data string
		want string
	}{
		{"unknown key with a suggestion", replace(3, "playres: [alice, bob]"),
			`r.yaml:3:1: unknown key "playres"; did you mean "players"?`},
		{"unknown key", base + "colour: red\n",
			`r.yaml:10:1: unknown key "colour" (expected one of [herald game options players bots seed_sha256 seed position moves undone ended seal])`},
		{"unknown move key with a suggestion", replace(8, "    txt: add 1"),
			`r.yaml:8:5: unknown key "txt"; did you mean "text"?`},
		{"unknown move key", replace(9, "    colour: red"),
			`r.yaml:9:5: unknown key "colour" (expected one of [player text time source digest])`},
		{"key twice", base + "game: other\n",
			`r.yaml:10:1: key "game" appears twice`},
		{"move key twice", base + "    text: add 2\n",
			`r.yaml:10:5: key "text" appears twice`},
		{"version not a number", replace(1, "herald: one"),
			`r.yaml:1:9: herald: expected the format version, a number, got "one"`},
		{"version a list", replace(1, "herald: [1]"),
			`r.yaml:1:9: herald: expected the format version, a number, got ""`},
		{"version unsupported", replace(1, "herald: 3"),
			`r.yaml:1:9: herald: format version 3 is not supported (this herald reads versions 1 and 2)`},
		{"game a list", replace(2, "game: [counting]"),
			`r.yaml:2:7: expected the game's name, a single value`},
		{"players not a list", replace(3, "players: alice"),
			`r.yaml:3:10: players: expected a list of player names`},
		{"player a list", replace(3, "players: [alice, [bob]]"),
			`r.yaml:3:18: expected a player name, a single value`},
		{"options not a mapping", base + "options: [a]\n",
			`r.yaml:10:10: options: expected a mapping of option names to values`},
		{"option value a list", base + "options: {target: [1]}\n",
			`r.yaml:10:19: expected an option value, a single value`},
		{"commitment too short", replace(4, "seed_sha256: 73475cb4"),
			`r.yaml:4:14: seed_sha256: expected 64 lower-case hex digits (sha256 of the seed), got "73475cb4"`},
		{"commitment upper case", replace(4, "seed_sha256: "+strings.ToUpper(sha42)),
			`r.yaml:4:14: seed_sha256: expected 64 lower-case hex digits (sha256 of the seed), got "` + strings.ToUpper(sha42) + `"`},
		{"commitment a list", replace(4, "seed_sha256: [a]"),
			`r.yaml:4:14: expected the seed commitment, a single value`},
		{"seed not matching", replace(5, `seed: "43"`),
			`r.yaml:1:1: the seed does not match its commitment: sha256("43") = 44cb730c420480a0477b505ae68af508fb90f96cf0ec54c6ad16949dd427f13a, the record says ` + sha42},
		{"seed a mapping", replace(5, "seed: {a: 1}"),
			`r.yaml:5:7: expected the seed, a single value`},
		{"moves a mapping", strings.Join(strings.Split(base, "\n")[:5], "\n") + "\nmoves: {a: 1}\n",
			`r.yaml:6:8: moves: expected a list of moves`},
		{"move a string", strings.Join(strings.Split(base, "\n")[:6], "\n") + "\n  - add 1\n",
			`r.yaml:7:5: a move is a mapping with keys [player text time source digest]`},
		{"move without player", replace(7, "  - source: cli"),
			`r.yaml:7:5: a move needs a player and a text`},
		{"move without text", replace(8, "    source: cli"),
			`r.yaml:7:5: a move needs a player and a text`},
		{"move with an empty text", replace(8, `    text: ""`),
			`r.yaml:7:5: a move needs a player and a text`},
		{"move text a list", replace(8, "    text: [add 1]"),
			`r.yaml:8:11: expected text, a single value`},
		{"missing key", replace(2, "# no game"),
			`r.yaml:1:1: missing key "game" (a record has [herald game options players bots seed_sha256 seed position moves undone ended seal])`},
		{"missing commitment", replace(4, "# no commitment"),
			`r.yaml:1:1: missing key "seed_sha256" (a record has [herald game options players bots seed_sha256 seed position moves undone ended seal])`},
		{"not a mapping", "- herald: 1\n",
			`r.yaml:1:1: a game record is a mapping with keys [herald game options players bots seed_sha256 seed position moves undone ended seal]`},
		{"position with an empty value in a flow mapping", base + "position: {0}\n",
			`r.yaml:10:13: position: an empty value in {...} cannot be written back the same; write null (or ~) for it`},
		{"position with an empty value in a nested flow mapping", base + "position:\n  a: [1, {b: }]\n",
			`r.yaml:11:14: position: an empty value in {...} cannot be written back the same; write null (or ~) for it`},
		{"not YAML", base + "moves: [\n",
			`r.yaml:10:1: not a YAML game record: did not find expected node content`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := adjudicator.ParseRecord("r.yaml", []byte(tt.data))
			if err == nil {
				t.Fatalf("ParseRecord = %+v, nil; want %q", rec, tt.want)
			}
			var ne *notation.Error
			if !errors.As(err, &ne) {
				t.Errorf("error %T; want *notation.Error", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("ParseRecord error =\n  %s\nwant\n  %s", got, tt.want)
			}
		})
	}
}

func TestLoadRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.yaml")
	if err := os.WriteFile(path, []byte(recordYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := adjudicator.LoadRecord(path)
	if err != nil || len(rec.Moves) != 2 {
		t.Fatalf("LoadRecord = %+v, %v", rec, err)
	}
	if _, err := adjudicator.LoadRecord(filepath.Join(dir, "missing.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadRecord(missing) = %v, want fs.ErrNotExist", err)
	}
	if err := os.WriteFile(path, []byte("herald: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := adjudicator.LoadRecord(path); err == nil || !strings.HasPrefix(err.Error(), path+":1:9: ") {
		t.Errorf("LoadRecord(bad) = %v, want an error at %s:1:9", err, path)
	}
}

func TestSaveAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.yaml")
	if err := os.WriteFile(path, []byte("old contents\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := adjudicator.ParseRecord("game.yaml", []byte(recordYAML))
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Save(path); err != nil {
		t.Fatalf("Save: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != recordYAML {
		t.Errorf("after Save, the file holds\n%s\n(%v), want the record", data, err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Error("Save wrote over the old file in place; want a new file renamed over it")
	}
	if perm := after.Mode().Perm(); perm != 0o600 {
		t.Errorf("after Save, mode = %v, want the old file's 0600 kept", perm)
	}
	assertOnlyFile(t, dir, "game.yaml")
	// Saving again over the new file, and into a new path, works the same.
	if err := rec.Save(path); err != nil {
		t.Fatalf("second Save: %v", err)
	}
	if err := rec.Save(filepath.Join(dir, "copy.yaml")); err != nil {
		t.Fatalf("Save to a new file: %v", err)
	}
	// A new record holds the seed: owner only. A host's chmod is kept.
	if fi, err := os.Stat(filepath.Join(dir, "copy.yaml")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("a new record's mode = %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("Save changed a record's mode to %v, want the host's 0640 kept", fi.Mode().Perm())
	}
	assertOnlyFile(t, dir, "copy.yaml", "game.yaml")
}

// assertOnlyFile checks that dir holds exactly the files named, in order:
// no temporary file left behind.
func assertOnlyFile(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !reflect.DeepEqual(got, names) {
		t.Errorf("directory holds %q, want %q", got, names)
	}
}

func TestWriteFileAtomicReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: a directory without write permission is still writable")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "game.yaml")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := adjudicator.WriteFileAtomic(path, []byte("new\n"), 0o644); err == nil {
		t.Fatal("WriteFileAtomic into a read-only directory succeeded")
	}
	if data, _ := os.ReadFile(path); string(data) != "old\n" {
		t.Errorf("after a failed write, the file holds %q, want the old contents", data)
	}
	assertOnlyFile(t, dir, "game.yaml")
}

// TestWriteFileAtomicRenameFails runs as any user: the target is a
// directory, so the rename fails after the temporary file is written. The
// target is untouched and the temporary file is removed.
func TestWriteFileAtomicRenameFails(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "game.yaml")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "inside"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := adjudicator.WriteFileAtomic(target, []byte("new\n"), 0o644); err == nil {
		t.Fatal("WriteFileAtomic over a non-empty directory succeeded")
	}
	if fi, err := os.Stat(target); err != nil || !fi.IsDir() {
		t.Errorf("target after a failed write: %v, %v; want the directory", fi, err)
	}
	assertOnlyFile(t, dir, "game.yaml")
	// A directory that does not exist.
	if err := adjudicator.WriteFileAtomic(filepath.Join(dir, "no", "such"), []byte("x"), 0o644); err == nil {
		t.Error("WriteFileAtomic into a missing directory succeeded")
	}
}

// TestMarshalQuotesWhatYAMLCannotWrite checks the strings yaml.v3 writes in
// a form it reads back differently (go-yaml/yaml: a leading newline is
// lost; a leading tab in a block scalar does not parse): the record is
// written with its strings double-quoted instead, and reads back the same.
func TestMarshalQuotesWhatYAMLCannotWrite(t *testing.T) {
	rec, err := adjudicator.NewRecord(counting, []string{"alice", "bob"}, nil, "42", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.Moves = []adjudicator.RecordMove{{Player: "alice", Text: "\tadd 1\nend"}, {Player: "bob", Text: "\nadd 2"}}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	want := `herald: 2
game: "counting"
options:
  "misere": "false"
  "speed": "normal"
  "target": "10"
players:
  - "alice"
  - "bob"
seed_sha256: "73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049"
seed: "42"
moves:
  - player: "alice"
    text: "\tadd 1\nend"
    digest: "77c9e1245d593e7b256c278c04b788180743be0a4ac87b91f490bdbf57f92d72"
  - player: "bob"
    text: "\nadd 2"
    digest: "52e792b507e1010d8bd5a7414fc532cd2df648d1b153ad304bb1a2c90b358cbc"
seal: "52e792b507e1010d8bd5a7414fc532cd2df648d1b153ad304bb1a2c90b358cbc"
`
	if string(data) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", data, want)
	}
	back, err := adjudicator.ParseRecord("r.yaml", data)
	if err != nil || !reflect.DeepEqual(back.Moves, rec.Moves) {
		t.Errorf("ParseRecord(Marshal) = %+v, %v; want the same moves", back, err)
	}
	// A position scalar in a style yaml.v3 cannot write back.
	var pos yaml.Node
	if err := yaml.Unmarshal([]byte("note: >\n\n  x\n"), &pos); err != nil {
		t.Fatal(err)
	}
	rec.Moves = nil
	rec.Position = pos.Content[0]
	if data, err = rec.Marshal(); err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if !strings.Contains(string(data), "position:\n  \"note\": \"\\nx\\n\"\n") {
		t.Errorf("Marshal =\n%s\nwant the position's note double-quoted", data)
	}
	if pos.Content[0].Content[1].Style != yaml.FoldedStyle {
		t.Error("Marshal changed the style of the record's position")
	}
}
