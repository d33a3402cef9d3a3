package host

import (
	"testing"

	"github.com/heraldgames/herald/notation"
)

// TestTopicTextFrench checks the French subjects of notices that name a
// player: "de" elided before a vowel or an h, as French writes it
// ("absence d'alice", not "absence de alice": found by hand over a real
// Postfix + Dovecot).
func TestTopicTextFrench(t *testing.T) {
	for _, c := range []struct{ topic, want string }{
		{"alice is away", "absence d'alice"},
		{"bob is away", "absence de bob"},
		{"henri is back", "retour d'henri"},
		{"carol is back", "retour de carol"},
		{"Émile is away", "absence d'Émile"},
		{"undo asked by alice", "reprise demandée par alice"},
		{"late: alice", "en retard : alice"},
	} {
		if got := TopicText(c.topic, notation.French); got != c.want {
			t.Errorf("TopicText(%q, French) = %q, want %q", c.topic, got, c.want)
		}
		if got := TopicText(c.topic, notation.English); got != c.topic {
			t.Errorf("TopicText(%q, English) = %q, want it unchanged", c.topic, got)
		}
	}
}
