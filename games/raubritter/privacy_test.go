package raubritter_test

import "testing"

// TestPrivacy is the privacy property of adjudicator/gametest (issue 25):
// no answer to a player or an observer shows what they may not see.
func TestPrivacy(t *testing.T) { kit.Privacy(t, 100, 20) }
