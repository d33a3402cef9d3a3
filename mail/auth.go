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

// wrongKeyNote heads the answer to a mail that the reply address it went
// to proved, whose key line (line) is not the seat's key of game id: the
// mail was read as the sender's, and the same key in a new mail, which
// has no reply address, would be refused.
func wrongKeyNote(line int, id int64, lang notation.Lang) string {
	if lang == notation.French {
		return fmt.Sprintf("Note : la clé de la ligne %d n'est pas votre clé pour la partie %s.\nherald a lu votre courrier parce qu'il répond à l'un des siens, dont\nl'adresse dit qui vous êtes ; un nouveau courrier avec cette clé serait\nrefusé. Votre clé est dans le courrier de bienvenue de la partie.\n\n", line, gameTag(id))
	}
	return fmt.Sprintf("Note: the key on line %d is not your key for game %s. herald read\nyour mail because it answers one of herald's, whose address says who\nyou are; a new mail with that key would be refused. Your key is in the\nwelcome mail of the game.\n\n", line, gameTag(id))
}
