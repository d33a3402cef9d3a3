package lowenherz

import (
	"strconv"
	"strings"
)

// Square is a square of the board: row*Size + column, row 0 at the top
// (row 1 on the board) and column 0 at the left (column a).
type Square int

// noSquare is the absence of a square.
const noSquare Square = -1

func sq(row, col int) Square { return Square(row*Size + col) }

// Row and Col return the 0-based row and column.
func (q Square) Row() int { return int(q) / Size }

// Col returns the 0-based column.
func (q Square) Col() int { return int(q) % Size }

// String returns "e5".
func (q Square) String() string {
	if q < 0 {
		return "-"
	}
	return string(rune('a'+q.Col())) + strconv.Itoa(q.Row()+1)
}

// ParseSquare reads "e5" (a1 to l12, any case).
func ParseSquare(s string) (Square, bool) {
	s = strings.ToLower(s)
	if len(s) < 2 || len(s) > 3 || s[0] < 'a' || s[0] > 'a'+Size-1 {
		return noSquare, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 1 || n > Size || s[1] == '0' || s[1] == '+' {
		return noSquare, false
	}
	return sq(n-1, int(s[0]-'a')), true
}

// Dir is a side of a square.
type Dir uint8

// The four sides; north is toward row 1.
const (
	North Dir = iota
	East
	South
	West
)

var (
	dirNames   = [...]string{"north", "east", "south", "west"}
	dirNamesFR = [...]string{"nord", "est", "sud", "ouest"}
)

func (d Dir) String() string { return dirNames[d] }

// neighbour returns the square beside q on side d, or noSquare at the rim.
func (q Square) neighbour(d Dir) Square { return nbrTable[q][d] }

// nbrTable and edgeTable hold each square's neighbours and edges by side,
// computed once: the flood fill and the checks look them up.
var nbrTable, edgeTable = sideTables()

func sideTables() (nb [Size * Size][4]Square, ed [Size * Size][4]Edge) {
	for q := Square(0); q < Size*Size; q++ {
		for d := North; d <= West; d++ {
			r, c := q.Row(), q.Col()
			switch d {
			case North:
				r--
			case South:
				r++
			case East:
				c++
			default:
				c--
			}
			if r < 0 || c < 0 || r >= Size || c >= Size {
				nb[q][d], ed[q][d] = noSquare, noEdge
				continue
			}
			n := sq(r, c)
			nb[q][d] = n
			switch d {
			case East:
				ed[q][d] = Edge(q)
			case West:
				ed[q][d] = Edge(n)
			case South:
				ed[q][d] = Edge(Size*Size + int(q))
			default:
				ed[q][d] = Edge(Size*Size + int(n))
			}
		}
	}
	return nb, ed
}

// Edge is the side between two orthogonally adjacent squares: the east
// side of square q is edge q, its south side edge Size*Size+q. The rim is
// no edge: it is always a border (lowenherz-2003-fr.txt:69).
type Edge int

const numEdges = 2 * Size * Size

const noEdge Edge = -1

// edgeOf returns the edge on side d of q, or noEdge at the rim.
func edgeOf(q Square, d Dir) Edge { return edgeTable[q][d] }

// between returns the edge between a and b, or noEdge when they are not
// orthogonally adjacent.
func between(a, b Square) Edge {
	for d := North; d <= West; d++ {
		if a.neighbour(d) == b {
			return edgeOf(a, d)
		}
	}
	return noEdge
}

// squares returns the two squares of e: west then east, or north then
// south.
func (e Edge) squares() (Square, Square) {
	if int(e) < Size*Size {
		return Square(e), Square(e) + 1
	}
	q := Square(int(e) - Size*Size)
	return q, q + Size
}

// valid reports whether e is an edge between two squares of the board.
func (e Edge) valid() bool {
	if e < 0 || int(e) >= numEdges {
		return false
	}
	if int(e) < Size*Size {
		return Square(e).Col() < Size-1
	}
	return Square(int(e)-Size*Size).Row() < Size-1
}

// String returns "e5|f5": the two squares, west or north first.
func (e Edge) String() string {
	a, b := e.squares()
	return a.String() + "|" + b.String()
}

// region is a part of the board closed by borders and the rim.
type region struct {
	castles int    // castles inside
	castle  Square // the castle, when there is exactly one
	owner   int    // the colour of that castle; -1 when not a domain
	zone    bool   // a neutral zone
	knights int    // the owner's knights inside
	points  int    // forests, villages and the king's city
	mines   [4]int // mines of each kind
	size    int
}

// domain reports whether the region is a domain: it holds exactly one
// castle (lowenherz-2003-fr.txt:69), and the setup is over (RULINGS.md
// LH-6).
func (r *region) domain() bool { return r.owner >= 0 }

// neutral reports whether the region is a neutral zone: closed, with no
// castle (lowenherz-2003-fr.txt:181-183).
// During the setup there is none: no border is placed yet.
func (r *region) neutral() bool { return r.zone }

// recompute labels the regions of the board from its borders, counts what
// each holds, removes the borders left inside a domain (RULINGS.md LH-8)
// and returns nothing; the caller rescores.
func (s *State) recompute() {
	for i := range s.region {
		s.region[i] = -1
	}
	s.regions = s.regions[:0]
	var queue [Size * Size]Square
	for start := Square(0); start < Size*Size; start++ {
		if s.region[start] >= 0 {
			continue
		}
		id := int8(len(s.regions))
		s.regions = append(s.regions, region{castle: noSquare, owner: -1})
		s.flood(start, noSquare, &s.region, id, &queue)
	}
	for q := Square(0); q < Size*Size; q++ {
		r := &s.regions[s.region[q]]
		r.size++
		if s.castle[q] {
			r.castles++
			r.castle = q
		}
	}
	for i := range s.regions {
		r := &s.regions[i]
		r.zone = r.castles == 0 && s.phase != phaseSetup
		if r.castles == 1 && s.phase != phaseSetup {
			r.owner = int(s.piece[r.castle])
		}
	}
	for q := Square(0); q < Size*Size; q++ {
		r := &s.regions[s.region[q]]
		if r.owner < 0 {
			continue
		}
		t := s.terrain[q]
		r.points += t.Points()
		if m, ok := t.Mine(); ok {
			r.mines[m]++
		}
		if !s.castle[q] && int(s.piece[q]) == r.owner {
			r.knights++
		}
	}
	// Superfluous borders: any border with the same domain on both sides
	// goes back to the supply (lowenherz-2003-fr.txt:97).
	for e := Edge(0); e < numEdges; e++ {
		if !s.border[e] {
			continue
		}
		a, b := e.squares()
		if s.region[a] == s.region[b] && s.regions[s.region[a]].domain() {
			s.border[e] = false
			s.bordersOnBoard--
		}
	}
}

// flood walks from start across the sides without a border, breadth
// first, labelling id in label each square it reaches (start too): the
// walk of recompute's regions and of joined. A square labelled id already
// is not walked again; no square of the walk may be labelled id
// beforehand but start's own. It stops as soon as it reaches stop
// (noSquare: never), reporting whether it did.
func (s *State) flood(start, stop Square, label *[Size * Size]int8, id int8, queue *[Size * Size]Square) bool {
	queue[0], label[start] = start, id
	head, tail := 0, 1
	for head < tail {
		q := queue[head]
		head++
		for d := North; d <= West; d++ {
			e := edgeOf(q, d)
			if e < 0 || s.border[e] {
				continue
			}
			if n := q.neighbour(d); label[n] != id {
				if n == stop {
					return true
				}
				label[n] = id
				queue[tail] = n
				tail++
			}
		}
	}
	return false
}

// regionOf returns the region of q.
func (s *State) regionOf(q Square) *region { return &s.regions[s.region[q]] }

// domainOf returns the region of q when it is a domain, else nil.
func (s *State) domainOf(q Square) *region {
	r := s.regionOf(q)
	if r.domain() {
		return r
	}
	return nil
}

// base returns each colour's points from the board alone: its domains'
// forests, villages and city, and 5 per mine monopoly (3 or 4 mines of
// one kind, lowenherz-2003-fr.txt:218).
func (s *State) base() []int {
	out := make([]int, s.colours)
	mines := make([][4]int, s.colours)
	for i := range s.regions {
		r := &s.regions[i]
		if r.owner < 0 {
			continue
		}
		out[r.owner] += r.points
		for m := range 4 {
			mines[r.owner][m] += r.mines[m]
		}
	}
	for c := range out {
		for m := range 4 {
			if mines[c][m] >= 3 {
				out[c] += 5
			}
		}
	}
	return out
}

// mineTypes returns how many kinds of mine colour c holds in its domains
// (lowenherz-2003-fr.txt:214).
func (s *State) mineTypes(c int) int {
	var has [4]bool
	for i := range s.regions {
		r := &s.regions[i]
		if r.owner != c {
			continue
		}
		for m := range 4 {
			if r.mines[m] > 0 {
				has[m] = true
			}
		}
	}
	n := 0
	for _, h := range has {
		if h {
			n++
		}
	}
	return n
}

// rescore recomputes the regions and moves each player's marker by what
// their domains and monopolies gained or lost (lowenherz-2003-fr.txt:97,
// 179, 218-220). The king's marker is looked at when the action is over
// (RULINGS.md LH-11).
func (s *State) rescore() {
	s.recompute()
	nb := s.base()
	// Only players score: the neutral colour's domains count for nothing
	// (RULINGS.md LH-17).
	for i := range s.names {
		s.players[i].score += nb[i] - s.lastBase[i]
		s.lastBase[i] = nb[i]
	}
	s.fixAlliances()
}

// kingReached reports whether a player's marker is at or past the king's.
func (s *State) kingReached() bool {
	for i := range s.names {
		if s.players[i].score >= s.king {
			return true
		}
	}
	return false
}
