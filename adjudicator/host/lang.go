package host

import (
	"strings"

	"github.com/heraldgames/herald/adjudicator"
	"github.com/heraldgames/herald/notation"
)

// topicsFR are the topics of the notices (Notice.Topic), in French: a
// transport puts them in the subjects of a French player's mails.
var topicsFR = map[string]string{
	"welcome":              "bienvenue",
	"game started":         "partie commencée",
	"your turn":            "à vous de jouer",
	"move applied":         "coup appliqué",
	"move refused":         "coup refusé",
	"move already applied": "coup déjà appliqué",
	"game over":            "partie finie",
	"too many commands":    "trop de commandes",
	"game ended":           "partie terminée",
	"not a player":         "vous ne jouez pas",
	"preview":              "essai",
	"preview refused":      "essai refusé",
	"show":                 "montre",
	"legal":                "coups",
	"history":              "historique",
	"help":                 "aide",
	"abandon":              "annule",
	"hint":                 "conseil",
	"resign refused":       "abandon refusé",
	"abandon refused":      "annulation refusée",
	"lang":                 "langue",
	"lang refused":         "langue refusée",
	"settings":             "réglages",
	"set refused":          "réglage refusé",
	"notify all":           "avis tout",
	"notify turn":          "avis tour",
	"notify digest":        "avis quotidien",
	"notify refused":       "avis refusé",
	"digest":               "résumé du jour",
	"vacation":             "vacances",
	"vacation refused":     "vacances refusées",
	"replace refused":      "remplacement refusé",
	"seat handed over":     "place cédée",
	"undo asked":           "reprise demandée",
	"undo accepted":        "reprise acceptée",
	"undo refused":         "reprise refusée",
	"undo still asked":     "reprise toujours demandée",
	"no undo pending":      "aucune reprise en attente",
	"moves taken back":     "coups repris",
	"observe":              "observer",
	"unobserve":            "ne plus observer",
	"observe refused":      "observation refusée",
	"unobserve refused":    "fin d'observation refusée",
	"confirm observe":      "confirmez l'observation",
	"observe asked":        "observation demandée",
	"confirm unobserve":    "confirmez la fin de l'observation",
	"no longer observed":   "plus d'observateurs",
	"no such game":         "pas de telle partie",
	"reminder: your turn":  "rappel : à vous de jouer",
}

// commandsFR are the French words of the commands (notation's envelope
// words), to name a command back to a French player.
var commandsFR = map[string]string{
	"show": "montre", "legal": "coups", "help": "aide", "history": "historique", "resign": "abandonne",
	"abandon": "annule", "set": "réglage", "replace": "remplace", "observe": "observer", "unobserve": "quitter",
	"notify": "avis", "vacation": "vacances", "undo": "reprendre", "hint": "conseil", "lang": "langue",
}

// TopicText is topic, a Notice.Topic (or several joined by ", "), as a
// reader of lang reads it in a subject: "your turn" is "à vous de jouer"
// in French. A topic with a name or a number in it ("alice played move
// 3", "late: bob") keeps them.
func TopicText(topic string, lang notation.Lang) string {
	if lang != notation.French {
		return topic
	}
	parts := strings.Split(topic, ", ")
	for i, p := range parts {
		parts[i] = topicFR(p)
	}
	return strings.Join(parts, ", ")
}

// topicFR is one topic in French.
func topicFR(t string) string {
	if fr, ok := topicsFR[t]; ok {
		return fr
	}
	if who, ok := strings.CutPrefix(t, "late: "); ok {
		return "en retard : " + who
	}
	if who, ok := strings.CutPrefix(t, "undo asked by "); ok {
		return "reprise demandée par " + who
	}
	if who, ok := strings.CutSuffix(t, " is back"); ok {
		return "retour " + adjudicator.OfName(who).FR
	}
	if who, ok := strings.CutSuffix(t, " is away"); ok {
		return "absence " + adjudicator.OfName(who).FR
	}
	if n, ok := strings.CutPrefix(t, "move "); ok {
		return "coup " + n
	}
	if who, n, ok := strings.Cut(t, " played move "); ok {
		return who + " a joué le coup " + n
	}
	return t
}
