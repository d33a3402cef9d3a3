package adjudicator

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// FormatVersion is the version of the record format this package writes.
const FormatVersion = 1

// Record is a game as a file: who plays what, with which options and seed,
// from which position, and the moves applied. It never holds the board: the
// board is derived by replay.
//
//	herald: 1
//	game: raubritter
//	players: [alice, bob]
//	seed_sha256: 73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049
//	seed: "42"
//	moves:
//	  - player: alice
//	    text: keep plain village
//	    time: 2026-11-23T09:00:00Z
//	    source: cli
type Record struct {
	Format     int               `yaml:"herald"`             // FormatVersion
	Game       string            `yaml:"game"`               // the game's name
	Options    map[string]string `yaml:"options,omitempty"`  // canonical, defaults filled in
	Players    []string          `yaml:"players"`            // seating order
	SeedSHA256 string            `yaml:"seed_sha256"`        // Commit(seed), published at the start
	Seed       string            `yaml:"seed,omitempty"`     // absent from a public copy until the game ends
	Position   *yaml.Node        `yaml:"position,omitempty"` // the starting position, when not the setup
	Moves      []RecordMove      `yaml:"moves"`              // every submission applied, in order
}

// RecordMove is one submission applied: a list of steps in notation.
type RecordMove struct {
	Player string `yaml:"player"`
	Text   string `yaml:"text"`             // the steps, canonical, one per line
	Time   string `yaml:"time,omitempty"`   // RFC 3339, written by the caller, never read by the rules
	Source string `yaml:"source,omitempty"` // "cli", "turn:FILE", or "mail:<Message-ID>"
}

var recordKeys = []string{"herald", "game", "options", "players", "seed_sha256", "seed", "position", "moves"}
var moveKeys = []string{"player", "text", "time", "source"}
var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// LoadRecord reads a record file.
func LoadRecord(path string) (*Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseRecord(path, data)
}

// ParseRecord reads a record. Unknown keys, wrong types, a bad commitment or
// a seed that does not match it are errors giving name, line and column and
// what was expected. The game, players and options are not checked against
// a registry here; Start does that.
func ParseRecord(name string, data []byte) (*Record, error) {
	errAt := func(n *yaml.Node, format string, args ...any) error {
		line, col := 0, 0
		if n != nil {
			line, col = n.Line, n.Column
		}
		return &notation.Error{File: name, Pos: notation.Pos{Line: line, Col: col}, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &notation.Error{File: name, Pos: notation.Pos{Line: notation.YAMLErrorLine(err), Col: 1},
			Msg: "not a YAML game record: " + notation.YAMLErrorText(err)}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errAt(&doc, "a game record is a mapping with keys %v", recordKeys)
	}
	root := doc.Content[0]
	if err := checkKeys(root, recordKeys, errAt); err != nil {
		return nil, err
	}
	rec := &Record{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		var err error
		switch k.Value {
		case "herald":
			n, e := strconv.Atoi(v.Value)
			if e != nil || v.Kind != yaml.ScalarNode {
				return nil, errAt(v, "herald: expected the format version, a number, got %q", v.Value)
			}
			if n != FormatVersion {
				return nil, errAt(v, "herald: format version %d is not supported (this herald reads version %d)", n, FormatVersion)
			}
			rec.Format = n
		case "game":
			err = decodeScalar(v, &rec.Game, "the game's name", errAt)
		case "seed_sha256":
			err = decodeScalar(v, &rec.SeedSHA256, "the seed commitment", errAt)
			if err == nil && !hex64.MatchString(rec.SeedSHA256) {
				err = errAt(v, "seed_sha256: expected 64 lower-case hex digits (sha256 of the seed), got %q", rec.SeedSHA256)
			}
		case "seed":
			err = decodeScalar(v, &rec.Seed, "the seed", errAt)
		case "options":
			rec.Options, err = decodeOptions(v, errAt)
		case "players":
			rec.Players, err = decodePlayers(v, errAt)
		case "position":
			if n := emptyFlowValue(v); n != nil {
				return nil, errAt(n, "position: an empty value in {...} cannot be written back the same; write null (or ~) for it")
			}
			rec.Position = v
		case "moves":
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				break
			}
			if v.Kind != yaml.SequenceNode {
				return nil, errAt(v, "moves: expected a list of moves")
			}
			for _, m := range v.Content {
				if m.Kind != yaml.MappingNode {
					return nil, errAt(m, "a move is a mapping with keys %v", moveKeys)
				}
				if err := checkKeys(m, moveKeys, errAt); err != nil {
					return nil, err
				}
				var rm RecordMove
				for j := 0; j+1 < len(m.Content); j += 2 {
					mk, mv := m.Content[j], m.Content[j+1]
					var dst *string
					switch mk.Value {
					case "player":
						dst = &rm.Player
					case "text":
						dst = &rm.Text
					case "time":
						dst = &rm.Time
					case "source":
						dst = &rm.Source
					}
					if err := decodeScalar(mv, dst, mk.Value, errAt); err != nil {
						return nil, err
					}
				}
				if rm.Player == "" || rm.Text == "" {
					return nil, errAt(m, "a move needs a player and a text")
				}
				rec.Moves = append(rec.Moves, rm)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	for _, key := range []string{"herald", "game", "players", "seed_sha256"} {
		if !hasKey(root, key) {
			return nil, errAt(root, "missing key %q (a record has %v)", key, recordKeys)
		}
	}
	if rec.Seed != "" && Commit(rec.Seed) != rec.SeedSHA256 {
		return nil, errAt(root, "the seed does not match its commitment: sha256(%q) = %s, the record says %s",
			rec.Seed, Commit(rec.Seed), rec.SeedSHA256)
	}
	return rec, nil
}

// emptyFlowValue returns the first value of a flow mapping ({a: } or {a})
// left empty, which yaml.v3 reads as null but cannot write back as the
// same data, or nil.
func emptyFlowValue(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0 {
		for i := 1; i < len(n.Content); i += 2 {
			if v := n.Content[i]; v.Kind == yaml.ScalarNode && v.Tag == "!!null" && v.Value == "" {
				if v.Line == 0 {
					return n.Content[i-1] // the key, for a position
				}
				return v
			}
		}
	}
	for _, c := range n.Content {
		if e := emptyFlowValue(c); e != nil {
			return e
		}
	}
	return nil
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

func checkKeys(m *yaml.Node, allowed []string, errAt func(*yaml.Node, string, ...any) error) error {
	var v notation.Vocabulary
	for _, a := range allowed {
		v = append(v, notation.Term{Name: a})
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if slices.Contains(allowed, k.Value) {
			if seen[k.Value] {
				return errAt(k, "key %q appears twice", k.Value)
			}
			seen[k.Value] = true
			continue
		}
		if s := v.Suggest(k.Value, notation.English); len(s) > 0 {
			return errAt(k, "unknown key %q; did you mean %q?", k.Value, s[0])
		}
		return errAt(k, "unknown key %q (expected one of %v)", k.Value, allowed)
	}
	return nil
}

// decodePlayers reads the players list of a record or scenario.
func decodePlayers(v *yaml.Node, errAt func(*yaml.Node, string, ...any) error) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, errAt(v, "players: expected a list of player names")
	}
	var out []string
	for _, p := range v.Content {
		var s string
		if err := decodeScalar(p, &s, "a player name", errAt); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// decodeOptions reads the options mapping of a record or scenario.
func decodeOptions(v *yaml.Node, errAt func(*yaml.Node, string, ...any) error) (map[string]string, error) {
	if v.Kind != yaml.MappingNode {
		return nil, errAt(v, "options: expected a mapping of option names to values")
	}
	out := map[string]string{}
	for j := 0; j+1 < len(v.Content); j += 2 {
		var s string
		if err := decodeScalar(v.Content[j+1], &s, "an option value", errAt); err != nil {
			return nil, err
		}
		out[v.Content[j].Value] = s
	}
	return out, nil
}

func decodeScalar(n *yaml.Node, dst *string, what string, errAt func(*yaml.Node, string, ...any) error) error {
	if n.Kind != yaml.ScalarNode {
		return errAt(n, "expected %s, a single value", what)
	}
	*dst = n.Value
	return nil
}

// Marshal returns the record as YAML, two-space indented.
//
// yaml.v3 writes a few strings in a form it does not read back the same (a
// text that starts with a newline, or with a tab and holds a newline), so
// Marshal reads its output back, and if anything changed it writes the
// record again with every string double-quoted.
func (r *Record) Marshal() ([]byte, error) {
	data, err := encodeYAML(r)
	if err != nil {
		return nil, err
	}
	if readsBack(r, data) {
		return data, nil
	}
	q := *r
	q.Position = quoteStrings(r.Position)
	data, err = encodeYAML(quotedRecord(&q))
	if err != nil {
		return nil, err
	}
	if !readsBack(r, data) {
		return nil, fmt.Errorf("adjudicator: the record cannot be written as YAML that reads back the same")
	}
	return data, nil
}

func encodeYAML(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readsBack reports whether data decodes to a record equal to r, an empty
// list or mapping being equal to none.
func readsBack(r *Record, data []byte) bool {
	var b struct { // Record, but yaml.v3 does not decode into a *yaml.Node field
		Format     int               `yaml:"herald"`
		Game       string            `yaml:"game"`
		Options    map[string]string `yaml:"options"`
		Players    []string          `yaml:"players"`
		SeedSHA256 string            `yaml:"seed_sha256"`
		Seed       string            `yaml:"seed"`
		Position   yaml.Node         `yaml:"position"`
		Moves      []RecordMove      `yaml:"moves"`
	}
	if err := yaml.Unmarshal(data, &b); err != nil {
		return false
	}
	pos := &b.Position
	if pos.Kind == 0 {
		pos = nil
	}
	return r.Format == b.Format && r.Game == b.Game && r.SeedSHA256 == b.SeedSHA256 && r.Seed == b.Seed &&
		maps.Equal(r.Options, b.Options) && slices.Equal(r.Players, b.Players) &&
		slices.Equal(r.Moves, b.Moves) && sameNode(r.Position, pos)
}

// sameNode reports whether two YAML nodes hold the same data: kinds, tags,
// values and anchors, not styles, comments or positions.
func sameNode(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind == yaml.DocumentNode && len(a.Content) == 1 {
		a = a.Content[0]
	}
	if b.Kind == yaml.DocumentNode && len(b.Content) == 1 {
		b = b.Content[0]
	}
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || a.Value != b.Value || a.Anchor != b.Anchor || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// quoteStrings returns a copy of n with every string scalar double-quoted.
func quoteStrings(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	if c.Kind == yaml.ScalarNode && c.ShortTag() == "!!str" {
		c.Style = yaml.DoubleQuotedStyle
	}
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = quoteStrings(k)
	}
	return &c
}

// quotedRecord returns r as a value that yaml.v3 writes with every string
// double-quoted.
func quotedRecord(r *Record) any {
	type move struct {
		Player quoted `yaml:"player"`
		Text   quoted `yaml:"text"`
		Time   quoted `yaml:"time,omitempty"`
		Source quoted `yaml:"source,omitempty"`
	}
	out := struct {
		Format     int               `yaml:"herald"`
		Game       quoted            `yaml:"game"`
		Options    map[quoted]quoted `yaml:"options,omitempty"`
		Players    []quoted          `yaml:"players"`
		SeedSHA256 quoted            `yaml:"seed_sha256"`
		Seed       quoted            `yaml:"seed,omitempty"`
		Position   *yaml.Node        `yaml:"position,omitempty"`
		Moves      []move            `yaml:"moves"`
	}{Format: r.Format, Game: quoted(r.Game), SeedSHA256: quoted(r.SeedSHA256), Seed: quoted(r.Seed), Position: r.Position}
	if len(r.Options) > 0 {
		out.Options = map[quoted]quoted{}
		for k, v := range r.Options {
			out.Options[quoted(k)] = quoted(v)
		}
	}
	for _, p := range r.Players {
		out.Players = append(out.Players, quoted(p))
	}
	out.Moves = []move{}
	for _, m := range r.Moves {
		out.Moves = append(out.Moves, move{quoted(m.Player), quoted(m.Text), quoted(m.Time), quoted(m.Source)})
	}
	return out
}

// quoted is a string that yaml.v3 writes double-quoted.
type quoted string

func (q quoted) MarshalYAML() (any, error) {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: string(q), Style: yaml.DoubleQuotedStyle}, nil
}

// Save writes the record to path atomically: a temporary file in the same
// directory, synced, then renamed over path, then the directory synced. A
// crash leaves either the old file or the new one, never a mix.
//
// A record holds the seed, which reveals every shuffle, so a new record
// file is readable by its owner only (0600); saving over an existing file
// keeps that file's permissions, whatever the host chose.
func (r *Record) Save(path string) error {
	data, err := r.Marshal()
	if err != nil {
		return err
	}
	perm := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	return WriteFileAtomic(path, data, perm)
}

// WriteFileAtomic writes data to path with the guarantees of Record.Save.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
