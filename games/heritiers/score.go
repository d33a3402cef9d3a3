package heritiers

import "slices"

// Directions on the board, clockwise from the top (row 1 is the top): the
// order Henri tries the places around a tile (deux-heritiers-fr.txt:491).
var around = [8][2]int{{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}}

// edges are the four orthogonal directions with their road bit and the
// opposite bit: north, east, south, west.
var edges = [4]struct {
	dr, dc    int
	bit, back Roads
}{{-1, 0, RoadN, RoadS}, {0, 1, RoadE, RoadW}, {1, 0, RoadS, RoadN}, {0, -1, RoadW, RoadE}}

// neighbour returns the cell dr rows and dc columns from i, or -1 off the
// frame.
func neighbour(i, dr, dc int) int {
	r, c := i/frameW+dr, i%frameW+dc
	if r < 0 || c < 0 || r >= frameH || c >= frameW {
		return -1
	}
	return r*frameW + c
}

func (s *State) hasTile(i int) bool { return i >= 0 && s.cells[i].tile >= 0 }

// building returns the building on cell i and its owner, or ok false for an
// empty square or open terrain.
func (s *State) building(i int) (b Building, owner int, ok bool) {
	if i < 0 {
		return 0, -1, false
	}
	c := &s.cells[i]
	if c.tile < 0 || c.open {
		return 0, -1, false
	}
	return s.data.Tiles[c.tile].Building, int(c.owner), true
}

// colour returns the colour of the tile on cell i; ok is false for an
// empty square.
func (s *State) colour(i int) (Colour, bool) {
	if !s.hasTile(i) {
		return 0, false
	}
	return s.data.Tiles[s.cells[i].tile].Colour, true
}

// exits returns the road edges of the tile on cell i as it lies: none for
// open terrain, rotated for the second seat's tiles (DH-6).
func (s *State) exits(i int) Roads {
	c := &s.cells[i]
	if c.tile < 0 || c.open {
		return 0
	}
	r := s.data.Tiles[c.tile].Roads
	if c.owner == 1 {
		r = r.rotate()
	}
	return r
}

// joined reports whether the road of cell i continues into its neighbour
// across edge e: both tiles have a road on that edge.
func (s *State) joined(i, e int) (int, bool) {
	ed := edges[e]
	if s.exits(i)&ed.bit == 0 {
		return -1, false
	}
	j := neighbour(i, ed.dr, ed.dc)
	if j < 0 || s.exits(j)&ed.back == 0 {
		return -1, false
	}
	return j, true
}

// endpoint reports whether roads end at cell i: a crossroads or a Lieu de
// pèlerinage (deux-heritiers-fr.txt:179, 221).
func (s *State) endpoint(i int) bool {
	if b, _, ok := s.building(i); ok && b == Pelerinage {
		return true
	}
	return s.exits(i) == Crossroads
}

// roadsOn returns every road on the board, each as its cells in ascending
// order: the road sections joined edge to edge, ending at crossroads and
// Lieux de pèlerinage, which belong to each road that reaches them; a loop
// is one road (DH-12).
func (s *State) roadsOn() [][]int {
	var out [][]int
	seen := make(map[int]bool)
	for _, at := range s.placed {
		i := int(at)
		if s.exits(i) == 0 || seen[i] || s.endpoint(i) {
			continue
		}
		// A road: the component of non-endpoint sections around i.
		road := []int{}
		ends := []int{}
		queue := []int{i}
		seen[i] = true
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			road = append(road, x)
			for e := range edges {
				j, ok := s.joined(x, e)
				if !ok {
					continue
				}
				if s.endpoint(j) {
					if !slices.Contains(ends, j) {
						ends = append(ends, j)
					}
					continue
				}
				if !seen[j] {
					seen[j] = true
					queue = append(queue, j)
				}
			}
		}
		road = append(road, ends...)
		slices.Sort(road)
		out = append(out, road)
	}
	// Two endpoints joined directly make a road of two tiles.
	for _, at := range s.placed {
		i := int(at)
		if s.exits(i) == 0 || !s.endpoint(i) {
			continue
		}
		for _, e := range []int{1, 2} { // east and south, so each pair once
			if j, ok := s.joined(i, e); ok && s.endpoint(j) {
				out = append(out, []int{i, j})
			}
		}
	}
	return out
}

// seatScore is a seat's score, broken down.
type seatScore struct {
	buildings map[int]int // cell to points, doubling included
	roads     int
	treasures int // Henri: 5 per token left
	total     int
}

// score counts both seats' points as if the game ended now
// (deux-heritiers-fr.txt:169-189; Henri :546-550).
func (s *State) score() [2]seatScore {
	var out [2]seatScore
	roads := s.roadsOn()
	var henri []int
	for seat := range 2 {
		out[seat].buildings = map[int]int{}
	}
	for _, at := range s.placed {
		i := int(at)
		_, owner, ok := s.building(i)
		if !ok {
			continue
		}
		v := s.value(i, owner, roads)
		if s.solo && owner == 1 {
			henri = append(henri, v)
		} else if s.troopOf(owner, i) {
			v *= 2 // deux-heritiers-fr.txt:173
		}
		out[owner].buildings[i] = v
		out[owner].total += v
	}
	if s.solo {
		// Henri's three best buildings count double; his troops do not.
		slices.Sort(henri)
		slices.Reverse(henri)
		for _, v := range henri[:min(3, len(henri))] {
			out[1].total += v
		}
		out[1].treasures = 5 * s.treasuresLeft()
		out[1].total += out[1].treasures
	}
	if s.roads {
		for _, r := range roads {
			if len(r) < 2 {
				continue
			}
			var n [2]int
			for _, i := range r {
				if _, o, ok := s.building(i); ok {
					n[o]++
				}
			}
			switch {
			case n[0] > n[1]:
				out[0].roads += n[0] - n[1]
			case n[1] > n[0]:
				out[1].roads += n[1] - n[0]
			}
		}
		out[0].total += out[0].roads
		out[1].total += out[1].roads
	}
	return out
}

// treasuresLeft returns Henri's treasure tokens in the pile and on the board.
func (s *State) treasuresLeft() int {
	n := len(s.treasures)
	for i := range s.cells {
		if s.cells[i].treasure >= 0 {
			n++
		}
	}
	return n
}

// troopOf reports whether one of seat's troops stands on cell i.
func (s *State) troopOf(seat, i int) bool {
	for _, t := range s.troops[seat] {
		if int(t.at) == i {
			return true
		}
	}
	return false
}

// value returns what the building on cell i scores for its owner, before
// any doubling: its effect (deux-heritiers-fr.txt:195-370).
func (s *State) value(i, owner int, roads [][]int) int {
	t := s.tile(s.cells[i].tile)
	switch t.Building {
	case Auberge:
		// 1 + the tiles in its row or column, up to 3 each way; a gap
		// ends the count (DH-13).
		n := 1
		for _, d := range lineDirs(t.Param) {
			for k := 1; k <= 3; k++ {
				j := neighbour(i, d[0]*k, d[1]*k)
				if !s.hasTile(j) {
					break
				}
				n++
			}
		}
		return n
	case Marche:
		n := 1
		for _, e := range edges {
			if s.hasTile(neighbour(i, e.dr, e.dc)) {
				n++
			}
		}
		return n
	case Pelerinage:
		best := 1
		for _, r := range roads {
			if slices.Contains(r, i) {
				best = max(best, len(r))
			}
		}
		return best
	case Baronnie:
		n := 2
		for _, e := range edges {
			if _, o, ok := s.building(neighbour(i, e.dr, e.dc)); ok && o != owner {
				n += 2
			}
		}
		return n
	case Moulin:
		return 1 + s.region(i, Yellow)
	case Mine:
		return 1 + s.region(i, Grey)
	case Etable:
		return 1 + s.region(i, Green)
	case Boulangerie:
		return 1 + s.ownOn(i, owner, Yellow)
	case Forge:
		return 1 + s.ownOn(i, owner, Grey)
	case Chalet:
		return 1 + s.ownOn(i, owner, Green)
	case Campement:
		return 2 // face up: not used (deux-heritiers-fr.txt:255)
	case Comptoir:
		return 3 * s.countOwn(owner, func(b Building) bool { return b == t.Of })
	case Cathedrale:
		return 5
	case Forteresse:
		return s.countOwn(owner, func(b Building) bool { return b == Siege || b == Forteresse })
	case Guet:
		// 1 + the tiles of its colour in its row or column, whatever the
		// distance (DH-13).
		n := 1
		for _, d := range lineDirs(t.Param) {
			for k := 1; ; k++ {
				j := neighbour(i, d[0]*k, d[1]*k)
				if j < 0 {
					break
				}
				if c, ok := s.colour(j); ok && c == t.Colour {
					n++
				}
			}
		}
		return n
	case Garnison:
		n := 0
		for _, d := range [][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
			for k := 1; ; k++ {
				j := neighbour(i, d[0]*k, d[1]*k)
				if j < 0 {
					break
				}
				if b, _, ok := s.building(j); ok && b == Guet {
					n += 2
				}
			}
		}
		return n
	case Paniers, Poterie, Tonnellerie:
		return s.pairs(i, owner, t)
	}
	return 0 // ferme, scierie, carrière, siège, hôtel
}

// lineDirs returns the two directions of a row or a column.
func lineDirs(p Param) [][2]int {
	if p == Column {
		return [][2]int{{-1, 0}, {1, 0}}
	}
	return [][2]int{{0, -1}, {0, 1}}
}

// region returns the tiles of colour c, other than cell i, joined to i
// edge to edge through tiles of colour c (deux-heritiers-fr.txt:231; DH-14).
func (s *State) region(i int, c Colour) int {
	seen := map[int]bool{i: true}
	queue := []int{i}
	n := 0
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, e := range edges {
			j := neighbour(x, e.dr, e.dc)
			if j < 0 || seen[j] {
				continue
			}
			if col, ok := s.colour(j); ok && col == c {
				seen[j] = true
				n++
				queue = append(queue, j)
			}
		}
	}
	return n
}

// ownOn returns owner's buildings other than cell i on tiles of colour c.
func (s *State) ownOn(i, owner int, c Colour) int {
	n := 0
	for _, at := range s.placed {
		j := int(at)
		if _, o, ok := s.building(j); ok && j != i && o == owner && s.tile(s.cells[j].tile).Colour == c {
			n++
		}
	}
	return n
}

// countOwn returns owner's buildings for which f is true.
func (s *State) countOwn(owner int, f func(Building) bool) int {
	n := 0
	for _, at := range s.placed {
		j := int(at)
		if b, o, ok := s.building(j); ok && o == owner && f(b) {
			n++
		}
	}
	return n
}

// pairColours are the two colours each Artisanat shop pairs
// (deux-heritiers-fr.txt:344-366).
var pairColours = map[Building][2]Colour{
	Paniers:     {Green, Yellow},
	Poterie:     {Grey, Yellow},
	Tonnellerie: {Grey, Green},
}

// pairs scores an Artisanat shop: each line through it in its sense
// (orthogonal: north-south and east-west; diagonal: the two diagonals)
// whose two ends are one tile of each of its colours is a pair, 3 points,
// or 4 when its owner has an Hôtel de ville for this shop (DH-15).
func (s *State) pairs(i, owner int, t *Tile) int {
	lines := [][2][2]int{{{-1, 0}, {1, 0}}, {{0, -1}, {0, 1}}}
	if t.Param == Diagonal {
		lines = [][2][2]int{{{-1, -1}, {1, 1}}, {{-1, 1}, {1, -1}}}
	}
	per := 3
	if s.countOwn(owner, func(b Building) bool { return b == Hotel }) > 0 {
		for _, at := range s.placed {
			j := int(at)
			if b, o, ok := s.building(j); ok && o == owner && b == Hotel && s.tile(s.cells[j].tile).Of == t.Building {
				per = 4
			}
		}
	}
	want := pairColours[t.Building]
	n := 0
	for _, l := range lines {
		a, okA := s.colour(neighbour(i, l[0][0], l[0][1]))
		b, okB := s.colour(neighbour(i, l[1][0], l[1][1]))
		if okA && okB && (a == want[0] && b == want[1] || a == want[1] && b == want[0]) {
			n += per
		}
	}
	return n
}
