package host

import (
	"sync"

	"github.com/heraldgames/herald/adjudicator"
)

// maxCachedGames bounds the replayed games the host keeps in memory.
const maxCachedGames = 1024

// gameCache keeps the match of each playing game as the last request about it
// left it, so that the next one need not decode the record and replay
// every move. An entry is used only when its revision and number of moves
// are the stored game's; it is taken out of the cache while a request uses it
// (the request may change it) and put back only once that request's batch has
// committed, so the cache never holds a match that differs from its
// revision, whatever fails.
type gameCache struct {
	mu    sync.Mutex
	games map[int64]cachedMatch
	off   bool // replay every game, as without the cache (tests)
}

type cachedMatch struct {
	rev int64
	m   *adjudicator.Match // nil: forget the game
}

// batch returns the cache as a new batch sees it.
func (c *gameCache) batch() *batchGames {
	return &batchGames{c: c, staged: map[int64]cachedMatch{}, req: map[int64]cachedMatch{}}
}

// publish puts the matches staged by a committed batch into the cache.
func (c *gameCache) publish(bs *batchGames) {
	if c.off {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, e := range bs.staged {
		if e.m == nil {
			delete(c.games, id)
		} else {
			c.games[id] = e
		}
	}
	for id := range c.games {
		if len(c.games) <= maxCachedGames {
			break
		}
		delete(c.games, id)
	}
}

// batchGames is the cache as one batch sees it: the matches staged by its
// committed requests (staged) and by the request being processed (req), which
// the cache gets only once the batch commits.
type batchGames struct {
	c      *gameCache
	staged map[int64]cachedMatch
	req    map[int64]cachedMatch
}

// begin starts a request.
func (bs *batchGames) begin() { clear(bs.req) }

// take returns the match of game id staged earlier in the batch or cached,
// and removes it from both.
func (bs *batchGames) take(id int64) (cachedMatch, bool) {
	if e, ok := bs.req[id]; ok {
		delete(bs.req, id)
		return e, e.m != nil
	}
	if e, ok := bs.staged[id]; ok {
		delete(bs.staged, id)
		return e, e.m != nil
	}
	if bs.c.off {
		return cachedMatch{}, false
	}
	bs.c.mu.Lock()
	defer bs.c.mu.Unlock()
	e, ok := bs.c.games[id]
	delete(bs.c.games, id)
	return e, ok
}

// stage offers m as game id at revision rev, once the current request commits.
func (bs *batchGames) stage(id, rev int64, m *adjudicator.Match) {
	bs.req[id] = cachedMatch{rev: rev, m: m}
}

// unstage forgets game id once the current request commits.
func (bs *batchGames) unstage(id int64) { bs.req[id] = cachedMatch{} }

// keep is called when the current request is processed (within the batch).
func (bs *batchGames) keep() {
	for id, e := range bs.req {
		bs.staged[id] = e
	}
	clear(bs.req)
}

// drop is called when the current request failed: what it staged may be
// changed halfway, so it is forgotten.
func (bs *batchGames) drop() { clear(bs.req) }
