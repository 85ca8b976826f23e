package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	if got := String("short", 10); got != "short" {
		t.Errorf("short text changed: %q", got)
	}
	if got := String("exactly10!", 10); got != "exactly10!" {
		t.Errorf("text at the limit changed: %q", got)
	}
	big := strings.Repeat("x", 50_000_000)
	got := Text(big)
	if want := strings.Repeat("x", MaxValue) + "… [truncated, 50.0 MB]"; got != want {
		t.Errorf("got %d bytes ending %q", len(got), got[len(got)-30:])
	}
	// A cut never splits a character.
	got = String("ééééé", 3)
	if !utf8.ValidString(got) || !strings.HasPrefix(got, "é… [truncated, 10 B]") {
		t.Errorf("got %q", got)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int]string{0: "0 B", 999: "999 B", 1000: "1.0 KB", 64 << 10: "65.5 KB", 999_999: "1.0 MB", 3_100_000: "3.1 MB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
