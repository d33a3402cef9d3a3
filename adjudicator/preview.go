package adjudicator

import (
	"fmt"
	"strings"

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
	var b strings.Builder
	if fr {
		b.WriteString("Essai seulement : rien n'a changé. Après ces étapes :\n")
	} else {
		b.WriteString("A preview only: nothing changed. After these steps:\n")
	}
	for _, mv := range sub.Moves {
		fmt.Fprintf(&b, "  %s\n", mv)
	}
	head = b.String()
	b.Reset()
	// Only what the move itself shows (RULINGS.md H-4): no hand after it,
	// nothing an automaton would answer, nothing after a draw.
	switch {
	case sub.Stop > 0 && fr:
		fmt.Fprintf(&b, "\nL'étape %d (%s) est permise, mais elle révèle ce qui est caché\n(une tuile ou une carte tirée ou retournée, une pile regardée, les\nmises) : ce qu'elle fait, et ce que font les étapes suivantes, en\ndépend. L'essai s'arrête avant elle", sub.Stop, sub.Moves[sub.Stop-1])
		if rest := len(steps) - sub.Stop; rest > 0 {
			fmt.Fprintf(&b, " ; %d étape(s) après elle non vérifiée(s)", rest)
		}
		b.WriteString(".\nLe plateau serait ainsi avant elle, tel que tous le verraient :\n\n")
		b.WriteString(st.Text(""))
	case sub.Stop > 0:
		fmt.Fprintf(&b, "\nStep %d (%s) is legal, but it turns up what is hidden (a tile or\ncard drawn or turned, a pile looked at, the bids): what it does, and\nwhat the steps after it do, depend on that. The preview stops before it", sub.Stop, sub.Moves[sub.Stop-1])
		if rest := len(steps) - sub.Stop; rest > 0 {
			fmt.Fprintf(&b, ";\n%d step(s) after it not checked", rest)
		}
		b.WriteString(".\nThe board would stand so before it, as everyone would see it:\n\n")
		b.WriteString(st.Text(""))
	case len(sub.Auto) > 0:
		fmt.Fprintf(&b, "\nThese steps are legal. %s would then play; a preview does not show how,\nnor the board after it: it may depend on what is still hidden.\n", sub.Auto[0].Player)
	default:
		b.WriteString("\nThe board would stand so, as everyone would see it (to play the move,\nsend the steps without preview):\n\n")
		b.WriteString(st.Text(""))
	}
	return head, b.String(), sub.Lang, nil
}
