package mail

import (
	"fmt"

	"github.com/heraldgames/herald/notation"
)

// authFailureBody answers a mail that failed authentication: whether it
// had a key line at all, and if so that its key is not the sender's, and
// nothing about any game (the sender may not be who they say).
func authFailureBody(env *notation.Envelope) string {
	why := "it holds no key line"
	if env.Key != "" {
		why = fmt.Sprintf("the key on line %d is not your key", env.KeyPos.Line)
	}
	return "herald received a mail in your name that it could not authenticate,\nso it changed nothing: " + why + ".\n\n" +
		"Every mail to herald must come from your address and carry your key\non a line of its own: key YOUR-KEY.\nYour key is in the welcome mail herald sent you when the game began."
}
