package lowenherz97

import (
	"fmt"
	"strings"

	"github.com/heraldgames/herald/adjudicator"
)

// choosers returns the players who laid the decision card of tier t, in
// the order they laid it, with the political card each played with it.
func (s *State) choosers(t int) []pick { return s.appendChoosers(nil, t) }

// appendChoosers appends choosers(t) to out.
func (s *State) appendChoosers(out []pick, t int) []pick {
	for _, pk := range s.picks {
		if pk.tier == t {
			out = append(out, pk)
		}
	}
	return out
}

// resolve carries out the actions from s.tier down until a player must
// act, then the round ends (lowenherz-1997-fr.txt:119-128).
func (s *State) resolve() {
	var chAt [5]pick // a round has at most 5 decision cards
	for s.tier < 3 {
		ch := s.appendChoosers(chAt[:0], s.tier)
		a := s.card.Tiers[s.tier]
		switch {
		case len(ch) == 0:
		case a.Kind == Ducats:
			// Shared, rounded down; the rest stays in the bank
			// (:134, ruling L97-2).
			k := len(ch)
			share := a.N / k
			if share*k > s.bank {
				share = s.bank / k
			}
			var names []string
			for _, pk := range ch {
				s.money[pk.player] += share
				s.bank -= share
				if !s.scratch { // which logs nothing
					names = append(names, s.names[pk.player])
				}
				if pk.pol >= 0 {
					s.executors = append(s.executors, pk.player)
				}
			}
			switch {
			case s.scratch:
			case k == 1:
				s.logf("%s: %s receives %d ducats", "%s : %s reçoit %d ducats", a.Named(), names[0], share)
			default:
				s.logf("%s: %s receive %d ducats each", "%s : %s reçoivent %d ducats chacun", a.Named(), joinWords(names), share)
			}
			if s.startExec() {
				return
			}
		case len(ch) == 1:
			s.executors = []int{ch[0].player}
			if s.startExec() {
				return
			}
		case len(ch) == 2:
			s.contenders = []int{ch[0].player, ch[1].player}
			s.speaker, s.offer, s.offerBy = ch[0].player, 0, -1
			s.phase = phaseNegotiate
			if !s.scratch {
				en, fr := a.Words()
				s.log(s.names[ch[0].player]+" and "+s.names[ch[1].player]+" both chose "+en+": they negotiate, "+s.names[ch[0].player]+" first",
					s.names[ch[0].player]+" et "+s.names[ch[1].player]+" ont choisi "+fr+" : ils négocient, "+s.names[ch[0].player]+" d'abord")
			}
			return
		default:
			s.contenders = nil
			var names []string
			for _, pk := range ch {
				s.contenders = append(s.contenders, pk.player)
				if !s.scratch {
					names = append(names, s.names[pk.player])
				}
			}
			s.openBids(false)
			if !s.scratch {
				en, fr := a.Words()
				s.log(strings.Join(names, ", ")+" chose "+en+": a confrontation, with sealed bids",
					strings.Join(names, ", ")+" ont choisi "+fr+" : une confrontation, avec des mises secrètes")
			}
			return
		}
		s.tier++
	}
	s.endRound()
}

// openBids starts a sealed round between the contenders.
func (s *State) openBids(rebid bool) {
	s.contenders = sorted(s.contenders)
	for i := range s.bids {
		s.bids[i] = bid{}
	}
	s.rebid = rebid
	s.phase = phaseBid
	s.sealRound++
}

// afterTier goes on with the next tier once the current one is done.
func (s *State) afterTier() {
	s.tier++
	s.resolve()
}

// winner lets player p carry out the current tier's action.
func (s *State) winner(p int) {
	s.executors = []int{p}
	if !s.startExec() {
		s.afterTier()
	}
}

// pickOf returns p's pick of the current tier.
func (s *State) pickOf(p int) pick {
	for _, pk := range s.picks {
		if pk.tier == s.tier && pk.player == p {
			return pk
		}
	}
	return pick{player: p, tier: s.tier, pol: -1}
}

// startExec lets the next executor act; it returns false when nobody has
// anything to do.
func (s *State) startExec() bool {
	for len(s.executors) > 0 {
		p := s.executors[0]
		s.executors = s.executors[1:]
		pk := s.pickOf(p)
		s.actor = p
		s.act = act{action: s.card.Tiers[s.tier], pol: pk.pol, looked: -1}
		if PolKind(s.act.pol) == Alliance && !s.allianceAtAction {
			// Its regions were named with the card (:249): it takes
			// effect as the action is carried out, if it still can.
			s.act.pol = -1
			if s.checkAlliance(p, AllianceMove{Mine: pk.ally[0], Theirs: pk.ally[1]}) != nil {
				s.logf("%s's alliance card has no effect: the regions of %s and %s can no longer ally",
					"la carte alliance %s est sans effet : les régions de %s et %s ne peuvent plus s'allier", adjudicator.OfName(s.names[p]), board.Name(pk.ally[0]), board.Name(pk.ally[1]))
			} else {
				s.ally(p, pk.ally[0], pk.ally[1])
			}
		}
		if s.act.pol >= 0 && !s.polPossible(p, PolKind(s.act.pol)) {
			s.logf("%s's %s card has no effect: nothing it allows is possible", "la carte %[2]s %[1]s est sans effet : rien de ce qu'elle permet n'est possible",
				adjudicator.OfName(s.names[p]), adjudicator.Words{EN: polNames[s.act.pol], FR: polNamesFR[s.act.pol]})
			s.act.pol = -1
		}
		if s.act.action.Kind == Crown && len(s.piles[0])+len(s.piles[1]) == 0 && s.act.pol < 0 {
			s.logf("%s: both political piles are empty", "%s : les deux piles de politique sont vides", s.names[p])
			continue
		}
		if s.actDone() {
			continue
		}
		s.phase = phaseAct
		return true
	}
	return false
}

// budget is how many uses a shield action gives: knights, or an extension
// counting as one (lowenherz-1997-fr.txt:150, 155).
func (a act) budget() int {
	if a.action.Kind == Shields {
		return 2
	}
	return 1
}

// shieldRule is the rulebook line of the action's shields: a knight or an
// extension (lowenherz-1997-fr.txt:150), or two knights or a knight and an
// extension (:155).
func (a act) shieldRule() string {
	if a.action.Kind == Shields {
		return ruleShields
	}
	return ruleShield
}

func (a act) uses() int {
	u := a.knights
	if a.ext > 0 {
		u++
	}
	return u
}

// actDone reports whether the actor has nothing left to do.
func (s *State) actDone() bool {
	a := &s.act
	if a.pol >= 0 {
		return false
	}
	switch a.action.Kind {
	case Ducats:
		return true
	case Crown:
		return a.took
	case Walls:
		return a.walls >= a.action.N
	}
	if a.uses() < a.budget() {
		return false
	}
	return !(a.extOpen && a.ext < 2)
}

// finishAct ends the actor's action and goes on.
func (s *State) finishAct() {
	if s.startExec() {
		return
	}
	s.afterTier()
}

// endRound takes the decision cards back and passes the first player's
// castle to the left (lowenherz-1997-fr.txt:125, 128).
func (s *State) endRound() {
	s.first = (s.first + 1) % len(s.names)
	s.contenders = nil
	s.offer, s.offerBy = 0, -1
	s.startRound()
}

// aOrAn returns word after its indefinite article: "an alliance", "a
// renegade".
func aOrAn(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// aCastle says which castle player places of colour c: "a castle" of
// their own, "a neutral castle" of the neutral prince's.
func (s *State) aCastle(player, c int) string { return s.aCastleIn(player, c, false) }

// aCastleIn is aCastle, in French when fr is set: "un château neutre",
// "un château", "un château de bob".
func (s *State) aCastleIn(player, c int, fr bool) string {
	tr := picker(fr)
	if c == s.neutral {
		return tr("a neutral castle", "un château neutre")
	}
	if c == player {
		return tr("a castle", "un château")
	}
	return tr("a castle of "+s.colourName(c)+"'s", "un château "+adjudicator.OfName(s.colourName(c)).FR)
}

// describePick is the public text of a decision card laid, in French
// when fr is set.
func (s *State) describePick(pk pick, fr bool) string {
	tr := picker(fr)
	en, frText := s.card.Tiers[pk.tier].Words()
	t := s.names[pk.player] + tr(" lays decision card ", " pose la carte de décision ") + string(rune('1'+pk.tier)) + " (" + tr(en, frText) + ")"
	if pk.pol >= 0 {
		t += tr(" with "+aOrAn(polNames[pk.pol])+" card", " avec une carte "+polNamesFR[pk.pol])
		if PolKind(pk.pol) == Alliance && !s.allianceAtAction {
			a, b := pk.ally[0], pk.ally[1]
			t += fmt.Sprintf(tr(" on the regions of %s (%s) and %s (%s)", " sur les régions de %s (%s) et %s (%s)"),
				board.Name(a), tr(s.colourName(int(s.castle[a])), s.colourWords(int(s.castle[a])).FR), board.Name(b), tr(s.colourName(int(s.castle[b])), s.colourWords(int(s.castle[b])).FR))
		}
	}
	return t
}
