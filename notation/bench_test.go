package notation_test

import (
	"strings"
	"testing"

	"github.com/heraldgames/herald/notation"
)

// BenchmarkSplitLongLine splits one line of 20,000 steps: the time must grow
// with the input, not with its square (Split once took seconds here).
func BenchmarkSplitLongLine(b *testing.B) {
	src := strings.Repeat("add 1; ", 20000)
	for b.Loop() {
		if steps, _ := notation.Split(src); len(steps) != 20000 {
			b.Fatalf("%d steps", len(steps))
		}
	}
}

// BenchmarkParseTurnFile reads a turn file near the size limit.
func BenchmarkParseTurnFile(b *testing.B) {
	data := []byte(head + "steps:\n" + strings.Repeat("  - 'château forêt e5; end'\n", 2000))
	for b.Loop() {
		if _, err := notation.ParseTurnFile("turn.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSplitLongLine checks Split's result on a long line; its time is in
// BenchmarkSplitLongLine.
func TestSplitLongLine(t *testing.T) {
	src := strings.Repeat("add 1; ", 5000)
	steps, errs := notation.Split(src)
	if len(steps) != 5000 || len(errs) != 0 {
		t.Fatalf("Split: %d steps, %v", len(steps), errs)
	}
	if last := steps[4999]; last.Pos.Col != 7*4999+1 || last.Text != "add 1" {
		t.Errorf("last step at %v %q", last.Pos, last.Text)
	}
}

// BenchmarkParseEnvelopeMove reads the body of a move mail, as the mail
// service does for every mail it reads.
func BenchmarkParseEnvelopeMove(b *testing.B) {
	body := "game G12\r\nkey 7f3a-91c2\r\nplain castle f5; knights 1\r\nend\r\n\r\nYour move.\r\n"
	for b.Loop() {
		if env := notation.ParseEnvelope(body); env.Game != "G12" {
			b.Fatalf("game %q", env.Game)
		}
	}
}
