package render

import (
	"strings"
	"testing"
	"time"
)

// Printing is bounded by a base and an allowance per slide: 2,000 slides
// (which a fixed 2 minutes failed) get well over twice what they were
// measured to take on an idle machine (70 ms a slide), and the error of
// a print cut short says how many slides, the bound and how it grows.
func TestPDFTimeoutGrowsWithSlides(t *testing.T) {
	if got := PDFTimeout(0); got != PDFBaseTimeout {
		t.Errorf("PDFTimeout(0) = %v, want the base %v", got, PDFBaseTimeout)
	}
	for _, n := range []int{200, 2000, 10000} {
		if got, measured := PDFTimeout(n), time.Duration(n)*70*time.Millisecond; got < 2*measured || got <= PDFTimeout(n/2) {
			t.Errorf("PDFTimeout(%d) = %v; want at least twice the %v measured, and more than for fewer slides", n, got, measured)
		}
	}
	msg := (&PDFTimeoutError{Slides: 2000}).Error()
	for _, want := range []string{"2000 slides", PDFTimeout(2000).String(), PDFBaseTimeout.String() + " plus " + PDFSlideTimeout.String() + " a slide"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
}
