package gametest

import "testing"

// TestLeaks finds a secret as a whole word only, but not one the viewer
// has seen or wrote, and with loose not one whose first word they wrote.
func TestLeaks(t *testing.T) {
	l := NewLeaks("bob", []Secret{{"guet-1", "x"}, {"treasure 5", "y"}, {"seen card", "z"}, {"forest castle", "w"}}, "the seen card")
	if l.Len() != 3 {
		t.Fatalf("Len = %d, want 3 (a secret seen is no secret)", l.Len())
	}
	for _, c := range []struct {
		asked, answer string
		loose, leak   bool
	}{
		{"", "pile 1 holds Treasure 5 and treasure 6", false, true},
		{"", "guet-10 and guet-11", false, false},
		{"", "(guet-1)", false, true},
		{"", "treasure 55", false, false},
		{"take treasure 5", "pile 1 holds no treasure 5", false, false},
		{"take forest", "say forest village, forest castle or forest town", true, false},
		{"take forest", "say forest village, forest castle or forest town", false, true},
		{"", "the seen card", false, false},
	} {
		if err := l.Check("answer", c.asked, c.loose, c.answer); (err != nil) != c.leak {
			t.Errorf("Check(%q, %q, %v) = %v, want a leak: %v", c.asked, c.answer, c.loose, err, c.leak)
		}
	}
}
