package adjudicator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
)

// A sealed step (a Löwenherz 1997 bid) is committed to when it is taken:
// the bidder gets sha256 of the step's text and a nonce, and when the
// step is revealed everyone gets the nonce, so that any bidder can check
// that the bid revealed is the bid they were told of. The nonce is drawn
// from the game's secret seed (an HMAC keyed by it, which tells nothing of
// the seed), so the record needs no new field and the commitments are the
// same on every replay; `herald adjudicate` prints them.
//
// The commitment of a step with text T and nonce N is the hex SHA-256 of
// the bytes T, a line feed, N: the shell checks it with
//
//	printf '%s\n%s' 'bid 3' NONCE | sha256sum

// A SealCommit is a sealed step's commitment.
type SealCommit struct {
	Move   int    // the move that holds the step, 1 for the first
	Step   int    // the step's place in the move, 1 for the first
	Player string // who took it
	Text   string // the step as written in the record
	Nonce  string // 32 hex digits
	Hash   string // hex sha256 of Text, "\n", Nonce
}

// SealNonce returns the nonce of the step-th step of move move, taken by
// player, in the game of seed: HMAC-SHA256 keyed by the seed, of a fixed
// label and the three, in hex, cut to 128 bits.
func SealNonce(seed string, move int, player string, step int) string {
	mac := hmac.New(sha256.New, []byte(seed))
	fmt.Fprintf(mac, "herald sealed step\x00%d\x00%s\x00%d", move, player, step)
	return hex.EncodeToString(mac.Sum(nil)[:16])
}

// Commitment returns the hex SHA-256 of text, a line feed and nonce.
func Commitment(text, nonce string) string {
	sum := sha256.Sum256([]byte(text + "\n" + nonce))
	return hex.EncodeToString(sum[:])
}

func newCommit(seed string, move, step int, player string, mv Move) SealCommit {
	text := mv.String()
	nonce := SealNonce(seed, move, player, step)
	return SealCommit{Move: move, Step: step, Player: player, Text: text, Nonce: nonce, Hash: Commitment(text, nonce)}
}

// Commitments returns the commitments of the steps of sub, a submission
// just made on m, that m's state now seals: what the bidder's confirmation
// carries. A game without sealed steps has none.
func (m *Match) Commitments(sub *Submission) []SealCommit {
	s, ok := m.State.(Sealer)
	if !ok || sub == nil {
		return nil
	}
	var out []SealCommit
	for j, mv := range sub.Moves {
		if s.Sealed(sub.Player, mv) {
			out = append(out, newCommit(m.Record.Seed, sub.Number, j+1, sub.Player, mv))
		}
	}
	return out
}

// SealedSteps returns the commitments of the steps of the record that the
// current state still seals, in record order. It replays the record.
func (m *Match) SealedSteps(reg *Registry) ([]SealCommit, error) {
	if _, ok := m.State.(Sealer); !ok {
		return nil, nil
	}
	return m.sealed(reg, false)
}

// EverSealed returns the commitments of every step of the record that was
// sealed when it was taken, revealed since or not, in record order: what
// adjudicate prints. It replays the record.
func (m *Match) EverSealed(reg *Registry) ([]SealCommit, error) {
	if _, ok := m.State.(Sealer); !ok {
		return nil, nil
	}
	return m.sealed(reg, true)
}

// sealed replays the record and returns the steps sealed when taken (ever)
// or sealed still (!ever).
func (m *Match) sealed(reg *Registry, ever bool) ([]SealCommit, error) {
	r, err := startEmpty(reg, m.Record)
	if err != nil {
		return nil, err
	}
	type pending struct {
		c  SealCommit
		mv Move
	}
	var hidden []pending
	var taken []SealCommit
	for i, rm := range m.Record.Moves {
		sub, err := r.apply(rm.Player, rm.Text)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, rm.Player, err)
		}
		s, ok := r.State.(Sealer)
		if !ok {
			continue
		}
		for j, mv := range sub.Moves {
			if s.Sealed(rm.Player, mv) {
				c := newCommit(m.Record.Seed, i+1, j+1, rm.Player, mv)
				taken = append(taken, c)
				hidden = append(hidden, pending{c, mv})
			}
		}
		// A step stays hidden only while every state since it seals it.
		kept := hidden[:0]
		for _, h := range hidden {
			if s.Sealed(h.c.Player, h.mv) {
				kept = append(kept, h)
			}
		}
		hidden = kept
	}
	if ever {
		return taken, nil
	}
	out := make([]SealCommit, len(hidden))
	for i, h := range hidden {
		out[i] = h.c
	}
	return out, nil
}

// Revealed returns the commits of before that are not in after: the
// sealed steps a submission revealed.
func Revealed(before, after []SealCommit) []SealCommit {
	still := map[string]bool{}
	for _, c := range after {
		still[strconv.Itoa(c.Move)+"/"+strconv.Itoa(c.Step)] = true
	}
	var out []SealCommit
	for _, c := range before {
		if !still[strconv.Itoa(c.Move)+"/"+strconv.Itoa(c.Step)] {
			out = append(out, c)
		}
	}
	return out
}
