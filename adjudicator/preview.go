package adjudicator

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/heraldgames/herald/notation"
)

// PreviewText is the answer to player's preview of steps, a dry run
// (RULINGS.md H-4): the steps and the public board as the move would
// leave it, in two parts, so that a service can put its own lines
// between them; and the language the steps are written in. The preview
// stops at the first step that turns up what is hidden ([Match.Preview]):
// the board is shown as it stands before that step, which is checked,
// and the steps after it are not. A preview that would be refused as a
// move returns the refusal instead (a *StepError or a *RuleError, as
// Submit's). The match does not change.
func (m *Match) PreviewText(player string, steps []*notation.Step) (head, tail string, lang notation.Lang, err error) {
	sub, st, err := m.Preview(player, steps)
	if err != nil {
		return "", "", SubmissionLang(err), err
	}
	fr := sub.Lang == notation.French
	// The steps the board is shown after: a preview that stops shows the
	// board before its stopping step, so that step is not among them.
	shown := sub.Moves
	if sub.Stop > 0 {
		shown = sub.Moves[:sub.Stop-1]
	}
	var b strings.Builder
	switch {
	case len(shown) == 0 && fr:
		b.WriteString("Essai seulement : rien n'a changé.\n")
	case len(shown) == 0:
		b.WriteString("A preview only: nothing changed.\n")
	case fr:
		b.WriteString("Essai seulement : rien n'a changé. Après ces étapes :\n")
	default:
		b.WriteString("A preview only: nothing changed. After these steps:\n")
	}
	for _, mv := range shown {
		fmt.Fprintf(&b, "  %s\n", m.Game.StepIn(mv.String(), sub.Lang))
	}
	head = b.String()
	b.Reset()
	// Only what the move itself shows (RULINGS.md H-4): no hand after it,
	// nothing an automaton would answer, nothing after a draw.
	switch {
	case sub.Stop > 0 && fr:
		why := fmt.Sprintf("L'étape %d (%s) est permise, mais elle révèle ce qui est caché (une tuile ou une carte tirée ou retournée, une pile regardée, les mises) : ce qu'elle fait, et ce que font les étapes suivantes, en dépend. L'essai s'arrête avant elle", sub.Stop, m.Game.StepIn(sub.Moves[sub.Stop-1].String(), notation.French))
		if rest := len(steps) - sub.Stop; rest > 0 {
			why += fmt.Sprintf(" ; %d %s après elle non %s", rest, countWord(rest, "étape", "étapes"), countWord(rest, "vérifiée", "vérifiées"))
		}
		b.WriteString("\n" + Fill(why+".") + "Le plateau serait ainsi avant elle, tel que tous le verraient :\n\n")
		b.WriteString(st.Text(""))
	case sub.Stop > 0:
		why := fmt.Sprintf("Step %d (%s) is legal, but it turns up what is hidden (a tile or card drawn or turned, a pile looked at, the bids): what it does, and what the steps after it do, depend on that. The preview stops before it", sub.Stop, sub.Moves[sub.Stop-1])
		if rest := len(steps) - sub.Stop; rest > 0 {
			why += fmt.Sprintf("; %d %s after it not checked", rest, countWord(rest, "step", "steps"))
		}
		b.WriteString("\n" + Fill(why+".") + "The board would stand so before it, as everyone would see it:\n\n")
		b.WriteString(st.Text(""))
	case len(sub.Auto) > 0:
		fmt.Fprintf(&b, "\nThese steps are legal. %s would then play; a preview does not show how,\nnor the board after it: it may depend on what is still hidden.\n", sub.Auto[0].Player)
	default:
		b.WriteString("\nThe board would stand so, as everyone would see it (to play the move,\nsend the steps without preview):\n\n")
		b.WriteString(st.Text(""))
	}
	return head, b.String(), sub.Lang, nil
}

// Fill fills the words of a paragraph into lines of at most 72 columns,
// the width of herald's mails, and ends it with a line feed. A sentence
// whose length depends on names, steps or times is filled so: a line
// broken by hand at a fixed place runs past 72 columns with a long name,
// and a mail's wrap then breaks it again, its end alone on an indented
// line.
func Fill(s string) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(s) {
		n := utf8.RuneCountInString(w)
		switch {
		case col == 0:
		case col+1+n > 72:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
	}
	b.WriteByte('\n')
	return b.String()
}

// countWord is one when n is 1 and many otherwise: "1 step", "2 steps".
func countWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
