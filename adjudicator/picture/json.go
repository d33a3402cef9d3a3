package picture

import (
	"strconv"

	"github.com/heraldgames/herald/internal/jsonenc"
)

// AppendJSON appends b encoded as json.Marshal encodes it, byte for byte,
// to dst: every move mail carries its board in its outbox drafts, and
// encoding/json's reflection costs about four times what this does.
// json.Marshal remains the reference (TestAppendJSON, FuzzAppendJSON) and
// reads the bytes back.
func (b *Board) AppendJSON(dst []byte) []byte {
	if b == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, `{"Title":`...)
	dst = appendString(dst, b.Title)
	dst = append(dst, `,"Status":`...)
	dst = appendString(dst, b.Status)
	dst = append(dst, `,"Cols":`...)
	dst = strconv.AppendInt(dst, int64(b.Cols), 10)
	dst = append(dst, `,"Rows":`...)
	dst = strconv.AppendInt(dst, int64(b.Rows), 10)
	dst = append(dst, `,"ColNames":`...)
	dst = appendStrings(dst, b.ColNames)
	dst = append(dst, `,"RowNames":`...)
	dst = appendStrings(dst, b.RowNames)
	dst = append(dst, `,"Cells":`...)
	dst = appendList(dst, b.Cells, appendCell)
	dst = append(dst, `,"Walls":`...)
	dst = appendList(dst, b.Walls, appendWall)
	dst = append(dst, `,"Players":`...)
	dst = appendList(dst, b.Players, appendPlayer)
	dst = append(dst, `,"Unit":`...)
	dst = appendString(dst, b.Unit)
	dst = append(dst, `,"Keys":`...)
	dst = appendList(dst, b.Keys, appendKey)
	dst = append(dst, `,"Legend":`...)
	dst = appendStrings(dst, b.Legend)
	dst = append(dst, `,"Info":`...)
	dst = appendStrings(dst, b.Info)
	if b.Lang != 0 {
		dst = append(dst, `,"Lang":`...)
		dst = strconv.AppendInt(dst, int64(b.Lang), 10)
	}
	return append(dst, '}')
}

// appendList appends list as a JSON array, each element by one; a nil
// list is null, as encoding/json has it.
func appendList[T any](dst []byte, list []T, one func([]byte, *T) []byte) []byte {
	if list == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = one(dst, &list[i])
	}
	return append(dst, ']')
}

func appendStrings(dst []byte, list []string) []byte {
	return appendList(dst, list, func(dst []byte, s *string) []byte { return appendString(dst, *s) })
}

// fields appends the fields of a struct whose every field is omitempty:
// open is the byte that precedes the next field, '{' until one is written.
type fields struct {
	dst  []byte
	open byte
}

func (f *fields) name(n string) {
	f.dst = append(f.dst, f.open, '"')
	f.dst = append(f.dst, n...)
	f.dst = append(f.dst, '"', ':')
	f.open = ','
}

func (f *fields) str(n, v string) {
	if v != "" {
		f.name(n)
		f.dst = appendString(f.dst, v)
	}
}

func (f *fields) int(n string, v int) {
	if v != 0 {
		f.name(n)
		f.dst = strconv.AppendInt(f.dst, int64(v), 10)
	}
}

func (f *fields) bool(n string, v bool) {
	if v {
		f.name(n)
		f.dst = append(f.dst, "true"...)
	}
}

// end closes the struct: {} when no field was written.
func (f *fields) end() []byte {
	if f.open == '{' {
		return append(f.dst, '{', '}')
	}
	return append(f.dst, '}')
}

func appendCell(dst []byte, c *Cell) []byte {
	f := fields{dst: dst, open: '{'}
	f.str("Fill", c.Fill)
	f.str("Label", c.Label)
	f.int("Owner", c.Owner)
	if len(c.Pieces) > 0 {
		f.name("Pieces")
		f.dst = appendList(f.dst, c.Pieces, appendPiece)
	}
	f.bool("Stack", c.Stack)
	f.str("Roads", c.Roads)
	f.bool("Zone", c.Zone)
	f.bool("Mark", c.Mark)
	f.bool("Await", c.Await)
	f.bool("Changed", c.Changed)
	return f.end()
}

func appendWall(dst []byte, w *Wall) []byte {
	f := fields{dst: dst, open: '{'}
	f.int("Row", w.Row)
	f.int("Col", w.Col)
	f.bool("South", w.South)
	f.int("Owner", w.Owner)
	f.bool("Road", w.Road)
	f.bool("Changed", w.Changed)
	return f.end()
}

func appendPiece(dst []byte, p *Piece) []byte {
	dst = append(dst, `{"Owner":`...)
	dst = strconv.AppendInt(dst, int64(p.Owner), 10)
	dst = append(dst, `,"Letter":`...)
	dst = appendString(dst, p.Letter)
	return append(dst, '}')
}

func appendPlayer(dst []byte, p *Player) []byte {
	dst = append(dst, `{"Name":`...)
	dst = appendString(dst, p.Name)
	dst = append(dst, `,"Letter":`...)
	dst = appendString(dst, p.Letter)
	dst = append(dst, `,"Score":`...)
	dst = strconv.AppendInt(dst, int64(p.Score), 10)
	dst = append(dst, `,"ToMove":`...)
	dst = strconv.AppendBool(dst, p.ToMove)
	dst = append(dst, `,"Note":`...)
	dst = appendString(dst, p.Note)
	return append(dst, '}')
}

func appendKey(dst []byte, k *Key) []byte {
	dst = append(dst, `{"Swatch":`...)
	dst = appendString(dst, k.Swatch)
	dst = append(dst, `,"Text":`...)
	dst = appendString(dst, k.Text)
	return append(dst, '}')
}

// appendString appends s as a JSON string, as json.Marshal writes it.
func appendString(dst []byte, s string) []byte { return jsonenc.AppendString(dst, s) }

// JSON returns b encoded as json.Marshal encodes it (AppendJSON), in a
// buffer sized for it at once.
func (b *Board) JSON() []byte {
	if b == nil {
		return []byte("null")
	}
	return b.AppendJSON(make([]byte, 0, 512+64*len(b.Cells)+32*len(b.Walls)))
}
