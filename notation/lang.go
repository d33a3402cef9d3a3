package notation

import "strings"

// The language of a mail's prose. A French player who writes "Salut, je
// garde le village :" above steps spelt in English ("keep plain village")
// wrote in French, and herald's answer should be French too, as it is
// when a keyword of the mail is French. proseLang counts the words a
// mail's sentences are made of in each language (greetings, thanks,
// pronouns, articles) and says French when they are at least two and more
// than the English ones: one "Merci" under an English mail leaves it
// English.

// proseFR and proseEN are folded words (Fold) of everyday French and
// English that are no keyword of a game's notation in the other language.
// Words both languages write ("a", "on", "me") are in neither.
var proseFR = wordSet("bonjour bonsoir salut coucou merci cordialement amicalement amities bises " +
	"je tu vous nous il elle ils on le la les un une des du de mon ma mes ton ta tes votre vos notre " +
	"et est ce ca cela voici voila mais pour avec sur dans pas ne que qui " +
	"coup tour oui non bonne bon journee soiree semaine suis ai as avons fait")

// elisionFR are the French words that elide before a vowel ("j'ai",
// "c'est", "l'ouest", "qu'il"): French only as the first part of a word
// with an apostrophe. Alone, a letter is no French word: "sell C
// alliance" is Löwenherz's market card C, and made a mail French.
var elisionFR = wordSet("j l c d n m t s qu")

var proseEN = wordSet("hi hello hey dear thanks thank cheers regards best " +
	"i i'm i'll i've im my you your we our he she they it it's its the an and is are " +
	"this that here there please yes no sent from phone iphone android")

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// proseWord reports whether w is a word of everyday French or English
// (proseFR, proseEN), or an elision of French ones ("j'ai").
func proseWord(w string) bool {
	w = Fold(w)
	if proseEN[w] || proseFR[w] {
		return true
	}
	return frenchElision(w) > 0
}

// frenchElision counts the French words of w, a folded word with an
// apostrophe ("j'ai": 2, "c'est": 2, "l'ouest": 1), or 0 without one.
func frenchElision(w string) int {
	first, rest, ok := strings.Cut(w, "'")
	if !ok {
		return 0
	}
	n := 0
	if elisionFR[first] || proseFR[first] {
		n++
	}
	for _, part := range strings.Split(rest, "'") {
		if proseFR[part] {
			n++
		}
	}
	return n
}

// proseLang returns French when the words of lines are French more than
// English (see above), and English otherwise; clear when the language
// returned is said by at least two words, more than the other's (an
// English mail that says "Hi herald, thanks"), not for want of French.
// The lines come split (Split of each line), as ParseEnvelope has them.
func proseLang(lines [][]*Step) (lang Lang, clear bool) {
	fr, en := 0, 0
	for _, steps := range lines {
		for _, st := range steps {
			for _, tok := range st.Tokens {
				if tok.Kind != Word {
					continue
				}
				w := Fold(tok.Text)
				if proseEN[w] {
					en++
					continue
				}
				if proseFR[w] {
					fr++
				}
				// "j'ai", "c'est", "l'ouest": the French elisions count by
				// their parts.
				fr += frenchElision(w)
			}
		}
	}
	if fr >= 2 && fr > en {
		return French, true
	}
	return English, en >= 2 && en > fr
}
