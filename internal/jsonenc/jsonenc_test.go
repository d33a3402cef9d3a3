package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendString holds AppendString to json.Marshal on the strings it
// writes itself and on those it leaves to json.Marshal.
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", "a \"quoted\" back\\slash", "line\nfeed\r\ncr\ttab\n", "\"\\\n\r\t",
		"<b>&amp;</b>", "\x00\x1f\b\f\x7f", "ünïcödé ♞", "\u2028\u2029", "bad \xff utf-8", "end\\"} {
		want, _ := json.Marshal(s)
		if got := AppendString([]byte("x"), s); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("AppendString(%q) = %s, want x%s", s, got, want)
		}
	}
}

// FuzzAppendString holds AppendString to json.Marshal on any string.
func FuzzAppendString(f *testing.F) {
	f.Add("Game G1\n  +-----+\n\"a\" \\ \t<&>\xff\u2028")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
