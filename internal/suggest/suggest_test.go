package suggest

import "testing"

func TestNearest(t *testing.T) {
	options := []string{"title", "subject", "grade", "duration_minutes"}
	for _, tc := range []struct{ name, want string }{
		{"titel", "title"},
		{"Title", "title"},
		{"grades", "grade"},
		{"colour", ""},
		{"duration", ""},
	} {
		if got := Nearest(tc.name, options, 2); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"add_text", "add_txt", 1}} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	opts := []string{"rect", "ellipse", "line"}
	syn := map[string]string{"circle": "ellipse", "square": "rect", "box": "rect"}
	for name, want := range map[string]string{
		"circle": `; did you mean "ellipse"?`,
		"Square": `; did you mean "rect"?`,
		"box":    `; did you mean "rect"?`,
		"elipse": `; did you mean "ellipse"?`,
		"star":   "",
	} {
		if got := DidYouMean(name, opts, syn); got != want {
			t.Errorf("DidYouMean(%q) = %q, want %q", name, got, want)
		}
	}
}
