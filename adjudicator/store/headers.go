package store

import (
	"time"

	"github.com/heraldgames/herald/adjudicator/host"
)

// headerCache keeps the header of the games the writing connection read
// lately (a game's row, clock, players and whether it has observers or a
// request to take moves back: what Tx.GameInfo returns), so that a mail to
// a game read for an earlier mail does not read it again. Reading it is
// one query of some 33 columns a player, 20-40 us on the pure-Go SQLite
// (most of it the driver's, a column at a time): the largest single cost
// of a move mail in the store.
//
// The cache is right as long as every write to those tables either goes
// through it or is seen by it:
//   - Every Tx method that writes a game's header updates its entry (Save,
//     SetClock) or forgets it (every other). TestHeaderCacheMatchesDatabase
//     calls every writing method of host.Tx and compares the cache with the
//     database after each.
//   - A mail rolled back to its savepoint forgets every game it read or
//     wrote; a batch rolled back, or a writing connection dropped, forgets
//     them all.
//   - Every other write this process makes goes through the writing
//     connection too (withWriter), or clears the cache (Prune), and a write
//     by another process (a CLI command, another herald) changes the
//     writing connection's PRAGMA data_version, which Begin reads: when it
//     changed, the cache starts empty.
//
// It is used only while the writing token is held (Begin to Commit or
// Rollback), so it needs no lock of its own.
type headerCache struct {
	games map[int64]cachedHeader
	// version is the writing connection's data_version when Begin last
	// read it; valid is false before the first batch of a connection.
	version int64
	valid   bool
	// hits and misses count GameInfo's reads (tests).
	hits, misses int
}

// cachedHeader is a game's header as readGame returns it, Record nil.
type cachedHeader struct {
	g     host.Game
	flags gameFlags
}

// maxCachedHeaders bounds the cache: about a kilobyte a game. Past it, an
// arbitrary game is forgotten for each one read.
const maxCachedHeaders = 4096

// get returns a copy of game id's cached header, if any.
func (c *headerCache) get(id int64) (*host.Game, gameFlags, bool) {
	h, ok := c.games[id]
	if !ok {
		c.misses++
		return nil, gameFlags{}, false
	}
	c.hits++
	return copyHeader(&h.g), h.flags, true
}

// put caches g's header (not its record), as just read or written.
func (c *headerCache) put(g *host.Game, flags gameFlags) {
	if c.games == nil {
		c.games = map[int64]cachedHeader{}
	}
	if _, ok := c.games[g.ID]; !ok && len(c.games) >= maxCachedHeaders {
		for id := range c.games {
			delete(c.games, id)
			break
		}
	}
	h := copyHeader(g)
	c.games[g.ID] = cachedHeader{g: *h, flags: flags}
}

// update changes game id's cached header with change, if it is cached.
func (c *headerCache) update(id int64, change func(g *host.Game)) {
	if h, ok := c.games[id]; ok {
		change(&h.g)
		c.games[id] = h
	}
}

// forget drops game id's header.
func (c *headerCache) forget(id int64) { delete(c.games, id) }

// clear drops every header.
func (c *headerCache) clear() { clear(c.games) }

// copyHeader returns a copy of g without its record that shares nothing
// with g: callers change the games they get.
func copyHeader(g *host.Game) *host.Game {
	h := *g
	h.Record = nil
	h.Players = append([]host.Player(nil), g.Players...)
	if g.Clock != nil {
		k := *g.Clock
		h.Clock = &k
	}
	return &h
}

// stored returns t as readGame reads it back from stamp(t): the store keeps
// times as text, in UTC, without a monotonic reading.
func stored(t time.Time) time.Time {
	back, _ := time.Parse(time.RFC3339Nano, stamp(t))
	return back
}
