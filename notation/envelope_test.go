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
		// Two key lines: the same key twice is one; two keys are an error
		// at the second, which may be another seat's, of another game.
		{"key 5f0c\nshow\nkey 5f0c", "5f0c", 1, 0},
		{"key 5f0c\nkey 9a1b\nshow", "5f0c", 1, 1},
	} {
		env := notation.ParseEnvelope(tt.body)
		if env.Key != tt.key || len(env.Errors) != tt.errs || tt.key != "" && env.KeyPos.Line != tt.line {
			t.Errorf("ParseEnvelope(%q): key %q at line %d, %d errors (%v); want %q at line %d, %d errors",
				tt.body, env.Key, env.KeyPos.Line, len(env.Errors), env.Errors, tt.key, tt.line, tt.errs)
		}
	}
}

// TestEnvelopePreviewAndStatusLine checks the preview word (the steps of
// its line and the lines after keep their columns) and that herald's own
// status line, quoted back, is skipped.
func TestEnvelopePreviewAndStatusLine(t *testing.T) {
	env := notation.ParseEnvelope(":: game G1 move 3 to-move alice\nkey K\npreview plain castle f5; knights 1\nend")
	if !env.Preview || len(env.Errors) != 0 || env.Game != "" || len(env.Steps) != 3 {
		t.Fatalf("ParseEnvelope: preview %v, game %q, %d steps, errors %v", env.Preview, env.Game, len(env.Steps), env.Errors)
	}
	if p := env.Steps[0].Tokens[0].Pos; p.Line != 3 || p.Col != 9 {
		t.Errorf("the first previewed step starts at %d:%d, want 3:9", p.Line, p.Col)
	}
	if fr := notation.ParseEnvelope("essai\nplaine château f5"); !fr.Preview || fr.Lang != notation.French {
		t.Errorf("essai: preview %v, lang %v", fr.Preview, fr.Lang)
	}
	// The words after the preview word are the mail's words too: this
	// mail's French is on that line alone.
	if fr := notation.ParseEnvelope("preview merci, je pose plaine château f5"); !fr.Preview || fr.Lang != notation.French {
		t.Errorf("preview merci, je ...: preview %v, lang %v", fr.Preview, fr.Lang)
	}
	if plain := notation.ParseEnvelope("plain castle f5"); plain.Preview {
		t.Error("a mail without preview is a preview")
	}
}

// TestEnvelopeGameLine checks that only a game id makes a game line, and
// that the lines herald writes, copied back without quoting, are neither
// game lines nor steps (issue 26, item 5; issue 32, item 3).
func TestEnvelopeGameLine(t *testing.T) {
	for _, tt := range []struct {
		body, game string
		steps      int
	}{
		{"game G12", "G12", 0},
		{"Game: g12", "g12", 0},
		{"game 12.", "12", 0},
		{"partie G3 # la nôtre", "G3", 0},
		{"game is G7", "G7", 0},
		{"game on!", "", 1},                                    // prose: a step line to IgnoreProse
		{"Game G2, move 1: IT IS YOUR TURN, alice.", "", 0},    // herald's own line
		{"Game G2, move 46: waiting for bob.", "", 0},          // herald's own line
		{"Game G4 is over: alice wins with 12 points.", "", 0}, // herald's own line
		{"Welcome to game G2 of Raubritter (Robber Knights).", "", 0},
	} {
		env := notation.ParseEnvelope(tt.body)
		if env.Game != tt.game || len(env.Steps) != tt.steps || len(env.Commands) != 0 {
			t.Errorf("ParseEnvelope(%q): game %q, %d steps, commands %v; want game %q, %d steps", tt.body, env.Game, len(env.Steps), env.Commands, tt.game, tt.steps)
		}
	}
}

// TestEnvelopeProseLang checks that a mail written in French around steps
// spelt in English is French (a field test's mail, 27 November 2026), and
// that one French word under an English mail, or herald's own lines
// copied back, leave it English.
func TestEnvelopeProseLang(t *testing.T) {
	for _, tt := range []struct {
		body string
		want notation.Lang
	}{
		{"Salut,\n\nje garde le village:\nkeep plain village\n\nA+\nAlice", notation.French},
		{"Bonjour herald,\nvoici mon coup\nplain castle e5\nknights 0\nend", notation.French},
		{"J'ai fini\nend", notation.French},
		{"Hello! I'll keep the forest village, thanks\nkeep forest village\n--\nBob", notation.English},
		{"keep plain village\nMerci", notation.English},
		{"Hi,\nplain castle e5\nMerci beaucoup, see you", notation.English},
		{"keep plain village", notation.English},
		{"Game G1, move 1: IT IS YOUR TURN, alice.\nkeep plain village\nmerci", notation.English},
		{"partie G1\nkeep plain village", notation.French}, // a French envelope word, as before
	} {
		if got := notation.ParseEnvelope(tt.body).Lang; got != tt.want {
			t.Errorf("ParseEnvelope(%q).Lang = %v, want %v", tt.body, got, tt.want)
		}
	}
}

// TestEnvelopeLangClear checks that a mail says its language when its
// words do (a French word of the envelope or French prose; an English
// command or English prose), and not when English is all herald is left
// with: steps alone, or the game and key lines every mail copies.
func TestEnvelopeLangClear(t *testing.T) {
	for _, tt := range []struct {
		body  string
		lang  notation.Lang
		clear bool
	}{
		{"Salut,\n\nje garde le village:\nkeep plain village", notation.French, true},
		{"clé 7f3a\nplain castle e5", notation.French, true},
		{"Hello! I'll keep the forest village, thanks\nkeep forest village", notation.English, true},
		{"game G1\nkey 7f3a\nshow", notation.English, true},
		{"history", notation.English, true},
		{"game G1\nkey 7f3a\nplain castle e5", notation.English, false},
		{"keep plain village\nMerci", notation.English, false},
		{"Bonjour, hi\nplain castle e5", notation.English, false}, // one word each
		{"Hi,\nplain castle e5\nMerci beaucoup, see you", notation.English, true},
		{"", notation.English, false},
		// Löwenherz's market letters are no French elisions alone (hand
		// play: "sell C alliance" / "take D deserter" made alice's answers
		// French from then on); elided, they are.
		{"key 7f3a\nsell C alliance\ntake D deserter", notation.English, false},
		{"c'est bon, j'ai fini\nend", notation.French, true},
	} {
		env := notation.ParseEnvelope(tt.body)
		if env.Lang != tt.lang || env.LangClear != tt.clear {
			t.Errorf("ParseEnvelope(%q): Lang %v, LangClear %v; want %v, %v", tt.body, env.Lang, env.LangClear, tt.lang, tt.clear)
		}
	}
}

// TestEnvelopeShowWords checks the words that ask for the board: show and
// board, and status, which a player writes for it too (found by hand over
// a real Postfix + Dovecot: "status" got "Your mail held no steps and no
// command"); in French montre, plateau and état.
func TestEnvelopeShowWords(t *testing.T) {
	for _, body := range []string{"show", "board", "Status", "status G1", "montre", "plateau", "état", "Etat"} {
		env := notation.ParseEnvelope("key K\n" + body)
		if len(env.Commands) != 1 || env.Commands[0].Name != "show" || len(env.Errors) != 0 {
			t.Errorf("ParseEnvelope(%q): commands %+v, errors %v; want show", body, env.Commands, env.Errors)
		}
	}
}
