package adjudicator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldgames/herald/notation"
	"gopkg.in/yaml.v3"
)

// FormatVersion is the version of the record format this package writes.
// It reads format 1 too, the format before digests: such a record is
// told apart by its `herald: 1` line, and it is not protected against
// truncation or edits (Report.Write says so). Saving it writes format 2.
const FormatVersion = 2

// Record is a game as a file: who plays what, with which options and seed,
// from which position, the moves applied, and how the game ended when a
// player resigned or the host abandoned it. It never holds the board: the
// board is derived by replay.
//
//	herald: 2
//	game: raubritter
//	players: [alice, bob]
//	bots: {bob: 2}             (only when a bot plays a seat, see Bots)
//	seed_sha256: 73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049
//	seed: "42"
//	moves:
//	  - player: alice
//	    text: keep plain village
//	    time: 2026-11-23T09:00:00Z
//	    source: cli
//	    digest: 5d0c…          (64 hex digits)
//	ended:                     (only when the game ended early)
//	  how: resigned
//	  by: bob
//	  time: 2026-11-23T10:00:00Z
//	  source: mail:<x@example.org>
//	seal: 9f1e…                (64 hex digits)
//
// Every move carries a digest chained to the one before, and the record
// ends with a seal, so that a record cut short or edited by hand is
// refused when it is read, at the line of the first mismatch (see
// [Record.Digests] for what is hashed). This is evidence of damage, not a
// signature: whoever edits a record can recompute the digests; what a
// player can trust is the seed commitment published at the start.
type Record struct {
	Format     int               // the format version read; Marshal always writes FormatVersion
	Game       string            // the game's name
	Options    map[string]string // canonical, defaults filled in
	Players    []string          // seating order
	Bots       map[string]int    // the players whose seat a bot plays, with its level (a CLI game's bot:2); nil for none
	SeedSHA256 string            // Commit(seed), published at the start
	Seed       string            // absent from a public copy until the game ends
	Position   *yaml.Node        // the starting position, when not the setup
	Moves      []RecordMove      // every submission applied, in order
	Undone     []Undo            // moves taken back by consent, in the order it happened
	Ended      *Ending           // how the game ended early (resigned, abandoned), or nil

	verified bool // read by ParseRecord in format 2, digests and seal checked
}

// RecordMove is one submission applied: a list of steps in notation.
type RecordMove struct {
	Player string `yaml:"player"`
	Text   string `yaml:"text"`             // the steps, canonical, one per line
	Time   string `yaml:"time,omitempty"`   // RFC 3339, written by the caller, never read by the rules
	Source string `yaml:"source,omitempty"` // "cli", "turn:FILE", or "mail:<Message-ID>"
}

// Ending is the end of a game that did not finish by the rules: a player
// resigned, or the host abandoned it (RULINGS.md H-1). The record holds it
// as its `ended:` entry, after the moves.
type Ending struct {
	How    string `yaml:"how"`              // EndResigned or EndAbandoned
	By     string `yaml:"by"`               // the player who resigned, or who abandoned the game (the host)
	Time   string `yaml:"time,omitempty"`   // RFC 3339, written by the caller
	Source string `yaml:"source,omitempty"` // as RecordMove.Source: "cli", "mail:<Message-ID>"
}

// Undo is moves taken back by the consent of every player (RULINGS.md
// H-5): the moves as they were, kept in the record as history; the game
// goes on from the first After moves.
type Undo struct {
	After  int          // how many moves were kept
	By     string       // the player who asked
	Time   string       // RFC 3339, written by the caller
	Source string       // as RecordMove.Source
	Moves  []RecordMove // the moves taken back, in order
}

// The ways a game ends early.
const (
	EndResigned  = "resigned"
	EndAbandoned = "abandoned"
)

// String returns "alice resigned (2026-11-23T10:00:00Z, mail:<x@example.org>)".
func (e *Ending) String() string {
	s := e.By + " " + e.How
	if e.How == EndAbandoned {
		s = "abandoned by " + e.By
	}
	var at []string
	for _, x := range []string{e.Time, e.Source} {
		if x != "" {
			at = append(at, x)
		}
	}
	if len(at) > 0 {
		s += " (" + strings.Join(at, ", ") + ")"
	}
	return s
}

var recordKeys = []string{"herald", "game", "options", "players", "bots", "seed_sha256", "seed", "position", "moves", "undone", "ended", "seal"}
var undoneKeys = []string{"after", "by", "time", "source", "moves"}
var undoneMoveKeys = []string{"player", "text", "time", "source"}
var moveKeys = []string{"player", "text", "time", "source", "digest"}
var endedKeys = []string{"how", "by", "time", "source"}
var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Digests returns the digest of each move and the seal, as Marshal writes
// them. Each is a sha256 in lower-case hex, of text anyone can rebuild:
//
//	header    = sha256("herald record\n" + JSON of {"game", "options", "players",
//	            "seed_sha256", "position", and "bots" when there are some}), the
//	            position as nested [kind, tag, value, anchor, children...] lists
//	digest 1  = sha256(header + "\n" + JSON of [player, text, time, source])
//	digest n  = sha256(digest n-1 + "\n" + JSON of [player, text, time, source])
//	seal      = the last move's digest (the header's when there is no move);
//	            then for each undone entry, sha256(that + "\nundone\n" + JSON of
//	            [after, by, time, source, [player, text, time, source]...]);
//	            with an ending, sha256(that + "\nended\n" + JSON of [how, by, time, source])
//
// JSON as Go's encoding/json writes it. The seed is not hashed, so a public
// copy without it has the same digests.
func (r *Record) Digests() (moves []string, seal string) {
	opts := r.Options
	if len(opts) == 0 {
		opts = nil
	}
	header, _ := json.Marshal(struct {
		Game       string            `json:"game"`
		Options    map[string]string `json:"options"`
		Players    []string          `json:"players"`
		SeedSHA256 string            `json:"seed_sha256"`
		Position   any               `json:"position"`
		Bots       map[string]int    `json:"bots,omitempty"`
	}{r.Game, opts, r.Players, r.SeedSHA256, canonNode(r.Position), r.Bots})
	d := sha256.Sum256(append([]byte("herald record\n"), header...))
	prev := hex.EncodeToString(d[:])
	moves = make([]string, len(r.Moves))
	for i, mv := range r.Moves {
		prev = chain(prev, "\n", mv.Player, mv.Text, mv.Time, mv.Source)
		moves[i] = prev
	}
	for _, u := range r.Undone {
		data, _ := json.Marshal(u.digestFields())
		h := sha256.New()
		h.Write([]byte(prev + "\nundone\n"))
		h.Write(data)
		prev = hex.EncodeToString(h.Sum(nil))
	}
	if e := r.Ended; e != nil {
		prev = chain(prev, "\nended\n", e.How, e.By, e.Time, e.Source)
	}
	return moves, prev
}

// digestFields is what the seal hashes of an undone entry.
func (u Undo) digestFields() []any {
	out := []any{u.After, u.By, u.Time, u.Source}
	for _, m := range u.Moves {
		out = append(out, []string{m.Player, m.Text, m.Time, m.Source})
	}
	return out
}

// chain returns sha256(prev + sep + JSON of fields) in hex.
func chain(prev, sep string, fields ...string) string {
	data, _ := json.Marshal(fields)
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte(sep))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// canonNode returns the data of a YAML node as nested lists for hashing:
// kind, tag, value, anchor, then the children. An alias is its name, not
// what it points to.
func canonNode(n *yaml.Node) any {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	out := []any{int(n.Kind), n.ShortTag(), n.Value, n.Anchor}
	for _, c := range n.Content {
		out = append(out, canonNode(c))
	}
	return out
}

// MaxRecordBytes is the size of the largest record file LoadRecord reads
// (issue 25, item 6): 1 MiB, thirty times the record of the longest game
// self-play makes (a 4-player Löwenherz, 31 KB). A record is parsed whole,
// as a YAML tree that takes some sixty times its size in memory, so a
// larger file (a 32 MB record took 1.97 GB) is refused before it is read:
// herald adjudicate stays under 256 MB for any input.
const MaxRecordBytes = 1 << 20

// RecordTooLargeError is the error of LoadRecord for a file larger than
// MaxRecordBytes.
type RecordTooLargeError struct {
	Path string
	Size int64 // at least: the file may still grow
}

func (e *RecordTooLargeError) Error() string {
	return fmt.Sprintf("%s: %d bytes, more than a game record can be (herald reads records up to %d bytes, 1 MiB; the longest game's record is about 31 KB): not a herald record, or one padded with moves no game has", e.Path, e.Size, MaxRecordBytes)
}

var _ error = (*RecordTooLargeError)(nil)

// LoadRecord reads a record file of at most MaxRecordBytes (else a
// *RecordTooLargeError, read no further).
func LoadRecord(path string) (*Record, error) {
	data, err := ReadLimited(path, MaxRecordBytes)
	var big *FileTooLargeError
	if errors.As(err, &big) {
		return nil, &RecordTooLargeError{Path: path, Size: big.Size}
	}
	if err != nil {
		return nil, err
	}
	return ParseRecord(path, data)
}

// FileTooLargeError is the error of ReadLimited for a file larger than
// its limit.
type FileTooLargeError struct {
	Path string
	Size int64 // at least: the file may still grow, or never end (/dev/zero)
	Max  int64
}

func (e *FileTooLargeError) Error() string {
	return fmt.Sprintf("%s: %d bytes or more, more than herald reads of such a file (%d bytes): not a file of herald's, or one padded", e.Path, e.Size, e.Max)
}

var _ error = (*FileTooLargeError)(nil)

// ReadLimited reads the file at path, of at most max bytes: a larger one
// is refused (a *FileTooLargeError) before it is read, or as soon as it
// has read max+1 bytes of one that does not say its size (a device such as
// /dev/zero, a pipe), so that memory stays bounded whatever path is given.
func ReadLimited(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > max {
		return nil, &FileTooLargeError{Path: path, Size: fi.Size(), Max: max}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &FileTooLargeError{Path: path, Size: int64(len(data)), Max: max}
	}
	return data, nil
}

// ParseRecord reads a record. Unknown keys, wrong types, a bad commitment or
// a seed that does not match it are errors giving name, line and column and
// what was expected. So is a format 2 record whose digests or seal do not
// match what it holds (it was cut short or edited): the error points at
// the first mismatch. The game, players and options are not checked
// against a registry here; Start does that.
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
	var digests []*yaml.Node // each move's digest value, or the move when it has none
	var seal, ended, undone *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		var err error
		switch k.Value {
		case "herald":
			n, e := strconv.Atoi(v.Value)
			if e != nil || v.Kind != yaml.ScalarNode {
				return nil, errAt(v, "herald: expected the format version, a number, got %q", v.Value)
			}
			if n != 1 && n != FormatVersion {
				return nil, errAt(v, "herald: format version %d is not supported (this herald reads versions 1 and %d)", n, FormatVersion)
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
		case "bots":
			rec.Bots, err = decodeBots(v, errAt)
		case "position":
			if n := emptyFlowValue(v); n != nil {
				return nil, errAt(n, "position: an empty value in {...} cannot be written back the same; write null (or ~) for it")
			}
			rec.Position = v
		case "ended":
			ended = k
			rec.Ended, err = decodeEnding(v, errAt)
		case "undone":
			undone = k
			rec.Undone, err = decodeUndone(v, errAt)
		case "seal":
			seal = v
			var s string
			err = decodeScalar(v, &s, "the seal", errAt)
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
				digest := m
				for j := 0; j+1 < len(m.Content); j += 2 {
					mk, mv := m.Content[j], m.Content[j+1]
					var dst *string
					var d string
					switch mk.Value {
					case "player":
						dst = &rm.Player
					case "text":
						dst = &rm.Text
					case "time":
						dst = &rm.Time
					case "source":
						dst = &rm.Source
					case "digest":
						dst, digest = &d, mv
					}
					if err := decodeScalar(mv, dst, mk.Value, errAt); err != nil {
						return nil, err
					}
				}
				if rm.Player == "" || rm.Text == "" {
					return nil, errAt(m, "a move needs a player and a text")
				}
				rec.Moves = append(rec.Moves, rm)
				digests = append(digests, digest)
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
	if rec.Format == 1 {
		// Format 1 had no digests, no seal and no ending.
		for i, d := range digests {
			if d.Kind == yaml.ScalarNode {
				return nil, errAt(d, "move %d has a digest, but format 1 has none: a record with digests says herald: %d", i+1, FormatVersion)
			}
		}
		if seal != nil || ended != nil || undone != nil {
			n := seal
			if n == nil {
				n = ended
			}
			if n == nil {
				n = undone
			}
			return nil, errAt(n, "format 1 has no seal, undone or ended entry: a record with them says herald: %d", FormatVersion)
		}
		return rec, nil
	}
	want, wantSeal := rec.Digests()
	for i, d := range digests {
		if d.Kind != yaml.ScalarNode {
			return nil, errAt(d, "move %d has no digest: the record was cut short or edited here (every move of a record ends with its digest)", i+1)
		}
		if d.Value != want[i] {
			return nil, errAt(d, "move %d: its digest does not match the record up to it: the record was changed or damaged at or before this move", i+1)
		}
	}
	if seal == nil {
		last := &yaml.Node{Line: strings.Count(string(data), "\n") + 1, Column: 1}
		if strings.HasSuffix(string(data), "\n") {
			last.Line--
		}
		return nil, errAt(last, "the record has no seal: it was cut short (a whole record ends with seal:, the digest of all above it)")
	}
	if seal.Value != wantSeal {
		what := "the last move"
		if len(rec.Undone) > 0 {
			what = "an undone entry, the ended entry or the last move"
		} else if rec.Ended != nil {
			what = "the ended entry or the last move"
		} else if len(rec.Moves) == 0 {
			what = "the record's header"
		}
		return nil, errAt(seal, "seal: does not match the record above it: %s was changed, or the record was cut short", what)
	}
	rec.verified = true
	return rec, nil
}

// decodeUndone reads the undone entries of a record.
func decodeUndone(v *yaml.Node, errAt func(*yaml.Node, string, ...any) error) ([]Undo, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, errAt(v, "undone: expected a list of the moves taken back, each a mapping with keys %v", undoneKeys)
	}
	var out []Undo
	for _, e := range v.Content {
		if e.Kind != yaml.MappingNode {
			return nil, errAt(e, "undone: each entry is a mapping with keys %v", undoneKeys)
		}
		if err := checkKeys(e, undoneKeys, errAt); err != nil {
			return nil, err
		}
		var u Undo
		for j := 0; j+1 < len(e.Content); j += 2 {
			k, val := e.Content[j], e.Content[j+1]
			switch k.Value {
			case "after":
				n, err := strconv.Atoi(val.Value)
				if err != nil || val.Kind != yaml.ScalarNode || n < 0 {
					return nil, errAt(val, "undone: after: expected how many moves were kept, a number, got %q", val.Value)
				}
				u.After = n
			case "moves":
				if val.Kind != yaml.SequenceNode || len(val.Content) == 0 {
					return nil, errAt(val, "undone: moves: expected the list of the moves taken back")
				}
				for _, m := range val.Content {
					if m.Kind != yaml.MappingNode {
						return nil, errAt(m, "an undone move is a mapping with keys %v", undoneMoveKeys)
					}
					if err := checkKeys(m, undoneMoveKeys, errAt); err != nil {
						return nil, err
					}
					var rm RecordMove
					for i := 0; i+1 < len(m.Content); i += 2 {
						dst := map[string]*string{"player": &rm.Player, "text": &rm.Text, "time": &rm.Time, "source": &rm.Source}[m.Content[i].Value]
						if err := decodeScalar(m.Content[i+1], dst, m.Content[i].Value, errAt); err != nil {
							return nil, err
						}
					}
					if rm.Player == "" || rm.Text == "" {
						return nil, errAt(m, "an undone move needs a player and a text")
					}
					u.Moves = append(u.Moves, rm)
				}
			default:
				dst := map[string]*string{"by": &u.By, "time": &u.Time, "source": &u.Source}[k.Value]
				if err := decodeScalar(val, dst, k.Value, errAt); err != nil {
					return nil, err
				}
			}
		}
		if u.By == "" || len(u.Moves) == 0 || !hasKey(e, "after") {
			return nil, errAt(e, "undone: an entry needs after, by and moves")
		}
		out = append(out, u)
	}
	return out, nil
}

// decodeEnding reads the ended entry of a record.
func decodeEnding(v *yaml.Node, errAt func(*yaml.Node, string, ...any) error) (*Ending, error) {
	if v.Kind != yaml.MappingNode {
		return nil, errAt(v, "ended: expected a mapping with keys %v", endedKeys)
	}
	if err := checkKeys(v, endedKeys, errAt); err != nil {
		return nil, err
	}
	e := &Ending{}
	for j := 0; j+1 < len(v.Content); j += 2 {
		k, val := v.Content[j], v.Content[j+1]
		dst := map[string]*string{"how": &e.How, "by": &e.By, "time": &e.Time, "source": &e.Source}[k.Value]
		if err := decodeScalar(val, dst, k.Value, errAt); err != nil {
			return nil, err
		}
		if k.Value == "how" && e.How != EndResigned && e.How != EndAbandoned {
			return nil, errAt(val, "ended: how: expected %s or %s, got %q", EndResigned, EndAbandoned, e.How)
		}
	}
	if e.How == "" || e.By == "" {
		return nil, errAt(v, "ended: needs how (%s or %s) and by (who)", EndResigned, EndAbandoned)
	}
	return e, nil
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

// decodeBots reads the bots mapping of a record: player names to levels.
func decodeBots(v *yaml.Node, errAt func(*yaml.Node, string, ...any) error) (map[string]int, error) {
	if v.Kind != yaml.MappingNode {
		return nil, errAt(v, "bots: expected a mapping of player names to bot levels, e.g. {bob: 2}")
	}
	out := map[string]int{}
	for j := 0; j+1 < len(v.Content); j += 2 {
		var s string
		if err := decodeScalar(v.Content[j+1], &s, "a bot level", errAt); err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || strconv.Itoa(n) != s {
			return nil, errAt(v.Content[j+1], "bots: the level of %s is %q; a level is a number from 1", v.Content[j].Value, s)
		}
		out[v.Content[j].Value] = n
	}
	if len(out) == 0 {
		return nil, nil
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
		var k, s string
		if err := decodeScalar(v.Content[j], &k, "an option name", errAt); err != nil {
			return nil, err
		}
		if err := decodeScalar(v.Content[j+1], &s, "an option value", errAt); err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

func decodeScalar(n *yaml.Node, dst *string, what string, errAt func(*yaml.Node, string, ...any) error) error {
	if n.Kind != yaml.ScalarNode {
		return errAt(n, "expected %s, a single value", what)
	}
	// herald writes no control character into a record or a scenario
	// (but the line feeds between a move's steps, and tabs in an option's
	// data), and adjudicate and scenario print what they hold to a
	// referee's terminal, where an escape sequence would act.
	if r, at, ok := notation.Unprintable(n.Value); ok {
		return errAt(n, "%s holds the control character %U (after %q): herald reads printable text only, with line feeds and tabs", what, r, clip(n.Value[:at], 20))
	}
	*dst = n.Value
	return nil
}

// clip returns the last n runes of s, or s.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[len(r)-n:])
	}
	return s
}

// Marshal returns the record as YAML, two-space indented, in format
// FormatVersion: each move with its digest, then the ending if any, then
// the seal (see [Record.Digests]).
//
// yaml.v3 writes a few strings in a form it does not read back the same (a
// text that starts with a newline, or with a tab and holds a newline), so
// Marshal reads its output back, and if anything changed it writes the
// record again with every string double-quoted.
func (r *Record) Marshal() ([]byte, error) {
	data, err := encodeYAML(r.file(false))
	if err != nil {
		return nil, err
	}
	if readsBack(r, data) {
		return data, nil
	}
	data, err = encodeYAML(r.file(true))
	if err != nil {
		return nil, err
	}
	if !readsBack(r, data) {
		return nil, fmt.Errorf("adjudicator: the record cannot be written as YAML that reads back the same")
	}
	return data, nil
}

// recordFile is a record as written, with its digests; with quote, every
// string is double-quoted.
type recordFile struct {
	Format     int          `yaml:"herald"`
	Game       str          `yaml:"game"`
	Options    *yaml.Node   `yaml:"options,omitempty"`
	Players    []str        `yaml:"players"`
	Bots       *yaml.Node   `yaml:"bots,omitempty"`
	SeedSHA256 str          `yaml:"seed_sha256"`
	Seed       str          `yaml:"seed,omitempty"`
	Position   *yaml.Node   `yaml:"position,omitempty"`
	Moves      []moveFile   `yaml:"moves"`
	Undone     []undoneFile `yaml:"undone,omitempty"`
	Ended      *endingFile  `yaml:"ended,omitempty"`
	Seal       str          `yaml:"seal"`
}

type moveFile struct {
	Player str `yaml:"player"`
	Text   str `yaml:"text"`
	Time   str `yaml:"time,omitempty"`
	Source str `yaml:"source,omitempty"`
	Digest str `yaml:"digest"`
}

type undoneFile struct {
	After  int              `yaml:"after"`
	By     str              `yaml:"by"`
	Time   str              `yaml:"time,omitempty"`
	Source str              `yaml:"source,omitempty"`
	Moves  []undoneMoveFile `yaml:"moves"`
}

type undoneMoveFile struct {
	Player str `yaml:"player"`
	Text   str `yaml:"text"`
	Time   str `yaml:"time,omitempty"`
	Source str `yaml:"source,omitempty"`
}

type endingFile struct {
	How    str `yaml:"how"`
	By     str `yaml:"by"`
	Time   str `yaml:"time,omitempty"`
	Source str `yaml:"source,omitempty"`
}

// str is a string that yaml.v3 writes double-quoted when quote is set.
type str struct {
	s     string
	quote bool
}

func (q str) IsZero() bool { return q.s == "" }

func (q str) MarshalYAML() (any, error) {
	if !q.quote {
		return q.s, nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: q.s, Style: yaml.DoubleQuotedStyle}, nil
}

func (r *Record) file(quote bool) *recordFile {
	q := func(s string) str { return str{s, quote} }
	digests, seal := r.Digests()
	f := &recordFile{Format: FormatVersion, Game: q(r.Game), SeedSHA256: q(r.SeedSHA256), Seed: q(r.Seed),
		Position: r.Position, Moves: []moveFile{}, Seal: q(seal)}
	if quote {
		f.Position = quoteStrings(r.Position)
	}
	if len(r.Options) > 0 {
		f.Options = &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range slices.Sorted(maps.Keys(r.Options)) {
			for _, s := range []string{k, r.Options[k]} {
				n := &yaml.Node{}
				n.SetString(s)
				if quote {
					n.Style = yaml.DoubleQuotedStyle
				}
				f.Options.Content = append(f.Options.Content, n)
			}
		}
	}
	for _, p := range r.Players {
		f.Players = append(f.Players, q(p))
	}
	if len(r.Bots) > 0 {
		f.Bots = &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		for _, p := range slices.Sorted(maps.Keys(r.Bots)) {
			k, v := &yaml.Node{}, &yaml.Node{}
			k.SetString(p)
			v.SetString(strconv.Itoa(r.Bots[p]))
			v.Tag = "!!int"
			if quote {
				k.Style = yaml.DoubleQuotedStyle
			}
			f.Bots.Content = append(f.Bots.Content, k, v)
		}
	}
	for i, m := range r.Moves {
		f.Moves = append(f.Moves, moveFile{q(m.Player), q(m.Text), q(m.Time), q(m.Source), q(digests[i])})
	}
	for _, u := range r.Undone {
		uf := undoneFile{After: u.After, By: q(u.By), Time: q(u.Time), Source: q(u.Source)}
		for _, m := range u.Moves {
			uf.Moves = append(uf.Moves, undoneMoveFile{q(m.Player), q(m.Text), q(m.Time), q(m.Source)})
		}
		f.Undone = append(f.Undone, uf)
	}
	if e := r.Ended; e != nil {
		f.Ended = &endingFile{q(e.How), q(e.By), q(e.Time), q(e.Source)}
	}
	return f
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

// readsBack reports whether data reads (digests checked) as a record equal
// to r, an empty list or mapping being equal to none.
func readsBack(r *Record, data []byte) bool {
	b, err := ParseRecord("", data)
	if err != nil {
		return false
	}
	sameEnding := r.Ended == nil && b.Ended == nil || r.Ended != nil && b.Ended != nil && *r.Ended == *b.Ended
	return r.Game == b.Game && r.SeedSHA256 == b.SeedSHA256 && r.Seed == b.Seed &&
		maps.Equal(r.Options, b.Options) && slices.Equal(r.Players, b.Players) && maps.Equal(r.Bots, b.Bots) &&
		slices.Equal(r.Moves, b.Moves) && sameNode(r.Position, b.Position) && sameEnding && SameUndone(r.Undone, b.Undone)
}

// SameUndone reports whether two lists of undone entries are equal.
func SameUndone(a, b []Undo) bool {
	return slices.EqualFunc(a, b, func(x, y Undo) bool {
		return x.After == y.After && x.By == y.By && x.Time == y.Time && x.Source == y.Source && slices.Equal(x.Moves, y.Moves)
	})
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
