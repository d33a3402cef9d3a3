package adjudicator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// A sealed step (a Löwenherz 1997 bid) is committed to when it is taken:
// the bidder gets sha256 of the step's text and a nonce, and when the
// step is revealed everyone gets the nonce, so that any bidder can check
// that the bid revealed is the bid they were told of. The nonce is drawn
// from the game's secret seed (an HMAC keyed by a hash of it, which tells
// nothing of the seed), so the record needs no new field and the commitments are the
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
// player, in the game of seed: HMAC-SHA256, keyed by [sealKey] of the
// seed, of a fixed label and the three, in hex, cut to 128 bits.
func SealNonce(seed string, move int, player string, step int) string {
	key := sealKey(seed)
	mac := hmac.New(sha256.New, key[:])
	fmt.Fprintf(mac, "herald sealed step\x00%d\x00%s\x00%d", move, player, step)
	return hex.EncodeToString(mac.Sum(nil)[:16])
}

// sealKey returns the HMAC key of a game's nonces: SHA-256 of a label and
// the seed. The seed itself is not the key: HMAC hashes a key longer than
// its 64-byte block, and a long seed's hash is the seed_sha256 that every
// record publishes from the start, which would make every nonce, hence
// every sealed bid, computable by anyone before the reveal. The label
// keeps this key apart from that published hash whatever the seed's size.
func sealKey(seed string) [32]byte {
	return sha256.Sum256([]byte("herald sealed step key\x00" + seed))
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

// commits returns the commitments of sub's steps that were sealed when
// taken, in the game of seed.
func (sub *Submission) commits(seed string) []SealCommit {
	var out []SealCommit
	for j, r := range sub.Rounds {
		if r != 0 {
			out = append(out, newCommit(seed, sub.Number, j+1, sub.Player, sub.Moves[j]))
		}
	}
	return out
}

// Commitments returns the commitments of the steps of sub, a submission
// just made on m, that were sealed when taken: what the bidder's
// confirmation carries. The last step of a round is among them, though
// the same move reveals it. A game without sealed steps has none.
func (m *Match) Commitments(sub *Submission) []SealCommit {
	if sub == nil {
		return nil
	}
	return sub.commits(m.Record.Seed)
}

// SealedSteps returns the commitments of the steps of the record that are
// still hidden, their round still open, in record order. It replays the
// record.
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

// sealed returns the steps sealed when taken (ever) or hidden still
// (!ever). It reads the submissions the match applied itself, one per
// record move, or else replays the record.
func (m *Match) sealed(reg *Registry, ever bool) ([]SealCommit, error) {
	subs, st := m.subs, m.State
	if len(subs) != len(m.Record.Moves) {
		r, err := startEmpty(reg, m.Record)
		if err != nil {
			return nil, err
		}
		subs = make([]*Submission, len(m.Record.Moves))
		for i, rm := range m.Record.Moves {
			if subs[i], err = r.apply(rm.Player, rm.Text); err != nil {
				return nil, fmt.Errorf("move %d (%s): %w", i+1, rm.Player, err)
			}
		}
		st = r.State
	}
	var out []SealCommit
	for _, sub := range subs {
		for j, round := range sub.Rounds {
			if round != 0 && (ever || sub.Hidden(st, j)) {
				out = append(out, newCommit(m.Record.Seed, sub.Number, j+1, sub.Player, sub.Moves[j]))
			}
		}
	}
	return out, nil
}

// Revealed returns the sealed steps a move revealed: those of before (the
// steps hidden before the move, then those the move itself sealed, as
// [Match.Commitments] gives them) that are not in after (the steps hidden
// after it, as [Match.SealedSteps] gives them).
func Revealed(before, after []SealCommit) []SealCommit {
	still := map[[2]int]bool{}
	for _, c := range after {
		still[[2]int{c.Move, c.Step}] = true
	}
	var out []SealCommit
	for _, c := range before {
		if !still[[2]int{c.Move, c.Step}] {
			out = append(out, c)
		}
	}
	return out
}
