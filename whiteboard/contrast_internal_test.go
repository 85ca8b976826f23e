package whiteboard

import (
	"math"
	"testing"
)

// WCAG's reference values: black on white is 21:1, a colour on itself 1:1.
func TestContrastReference(t *testing.T) {
	for _, c := range []struct {
		a, b Color
		want float64
	}{
		{"black", "white", 21},
		{"#fff", "#ffffff", 1},
		{"#767676", "white", 4.54},
		{"rgb(0, 0, 255)", "white", 8.59},
		{"rgba(0, 0, 0, 0.5)", "white", 3.98},
	} {
		a, okA := c.a.parse()
		b, okB := c.b.parse()
		if !okA || !okB {
			t.Fatalf("%s or %s did not parse", c.a, c.b)
		}
		white := rgb{1, 1, 1, 1}
		if got := contrast(a.over(white), b.over(white)); math.Abs(got-c.want) > 0.01 {
			t.Errorf("%s on %s = %.2f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// Every colour Check accepts parses, and the colour suggested for it
// reaches what it was asked for.
func FuzzColorContrast(f *testing.F) {
	for _, s := range []string{"orange", "#abc", "#abcd", "#a1b2c3d4", "rgb(10%, 20%, 300)", "rgba(1,2,3,.5)", "transparent", "rebeccapurple", "Navy"} {
		f.Add(s, "#fdf6e3")
	}
	f.Fuzz(func(t *testing.T, ink, bg string) {
		if Color(ink).Check() != nil || Color(bg).Check() != nil {
			return
		}
		i, okI := Color(ink).parse()
		b, okB := Color(bg).parse()
		if !okI || !okB {
			t.Fatalf("%q / %q pass Check but do not parse", ink, bg)
		}
		b = b.over(rgb{1, 1, 1, 1})
		r := contrast(i.over(b), b)
		if !(r >= 1 && r <= 21.0001) {
			t.Fatalf("contrast %v out of range", r)
		}
		for _, need := range []float64{minContrastLarge, minContrast} {
			fix, _ := readable(i, b, need).parse()
			if got := contrast(fix, b); got < need {
				t.Fatalf("suggested %s for %q on %q reaches %.2f, want %g", readable(i, b, need), ink, bg, got, need)
			}
		}
	})
}
