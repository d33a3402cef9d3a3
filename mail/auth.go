package mail

import (
	"fmt"

	"github.com/heraldgames/herald/notation"
)

// authFailureBody answers a mail that failed authentication: whether it
// had a key line at all, and if so that its key is not the sender's, and
// nothing about any game (the sender may not be who they say). With
// reply tokens on (tokens), it says that a reply to herald's own mail
// needs no key (field test: the notice spoke of the key line alone, and
// players who had answered with Reply did not know that works).
func authFailureBody(env *notation.Envelope, tokens bool) string {
	if env.Lang == notation.French {
		why := "il ne contient pas de ligne de clé"
		if env.Key != "" {
			why = fmt.Sprintf("la clé de la ligne %d n'est pas la vôtre", env.KeyPos.Line)
		}
		how := "Chaque courrier à herald doit venir de votre adresse et porter votre\nclé sur une ligne à part : clé VOTRE-CLÉ.\n"
		if tokens {
			how = "Chaque courrier à herald doit venir de votre adresse et, soit répondre\nà un courrier que herald vous a envoyé avec la fonction Répondre de\nvotre logiciel de courrier (son adresse dit qui vous êtes), soit porter\nvotre clé sur une ligne à part : clé VOTRE-CLÉ.\n"
		}
		return "herald a reçu en votre nom un courrier qu'il n'a pas pu authentifier ;\nil n'a donc rien changé : " + why + ".\n\n" +
			how + "Votre clé est dans le courrier de bienvenue que herald vous a envoyé au\ndébut de la partie."
	}
	why := "it holds no key line"
	if env.Key != "" {
		why = fmt.Sprintf("the key on line %d is not your key", env.KeyPos.Line)
	}
	how := "Every mail to herald must come from your address and carry your key\non a line of its own: key YOUR-KEY.\n"
	if tokens {
		how = "Every mail to herald must come from your address and either answer a\nmail herald sent you with your mail program's Reply (its address says\nwho you are), or carry your key on a line of its own: key YOUR-KEY.\n"
	}
	return "herald received a mail in your name that it could not authenticate,\nso it changed nothing: " + why + ".\n\n" +
		how + "Your key is in the welcome mail herald sent you when the game began."
}
