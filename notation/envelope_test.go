package notation_test

import (
	"testing"

	"github.com/heraldgames/herald/notation"
)

// TestEnvelopeKey checks the key lines players write (issue 15, item 9):
// any case of the keyword, English or French, with a colon, an equals sign
// or "is" after it.
func TestEnvelopeKey(t *testing.T) {
	for _, tt := range []struct {
		body, key string
		line      int
		errs      int
	}{
		{"key 5f0c93d2e1a4b7c8", "5f0c93d2e1a4b7c8", 1, 0},
		{"Key: 5f0c93d2e1a4b7c8", "5f0c93d2e1a4b7c8", 1, 0},
		{"KEY: 5F0C93D2E1A4B7C8", "5F0C93D2E1A4B7C8", 1, 0},
		{"Hi\nkey K", "K", 2, 0},
		{"key:5f0c", "5f0c", 1, 0},
		{"KEY=5f0c", "5f0c", 1, 0},
		{"key = 5f0c", "5f0c", 1, 0},
		{"clé : 5f0c", "5f0c", 1, 0},
		{"Clé\u00a0: 5f0c", "5f0c", 1, 0},
		{"CLEF: 5f0c", "5f0c", 1, 0},
		{"key is 5f0c", "5f0c", 1, 0},
		{"clé est 5f0c", "5f0c", 1, 0},
		{"key 5f0c # my key", "5f0c", 1, 0},
		{"Key:", "", 0, 1},
		{"key", "", 0, 1},
		{"plain castle e5", "", 0, 0},
	} {
		env := notation.ParseEnvelope(tt.body)
		if env.Key != tt.key || len(env.Errors) != tt.errs || tt.key != "" && env.KeyPos.Line != tt.line {
			t.Errorf("ParseEnvelope(%q): key %q at line %d, %d errors (%v); want %q at line %d, %d errors",
				tt.body, env.Key, env.KeyPos.Line, len(env.Errors), env.Errors, tt.key, tt.line, tt.errs)
		}
	}
}
